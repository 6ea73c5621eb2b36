"""OpenTelemetry tracing of calls (optional: `pip install hintgate[otel]`; off unless switched on).

Each call is a span `hintgate.call` with children for its phases:
`hintgate.decide`, `hintgate.ask` (when a person is asked),
`hintgate.upstream_call` and `hintgate.record` (the observers being told).
While the upstream call's span is open, HTTP upstreams (streamable HTTP MCP
servers and OpenAPI sources) receive its W3C `traceparent`, so their own
spans join the trace.

The spans go to the global tracer provider. When none is configured (nothing
set one, as `opentelemetry-instrument` would), `Tracing.install()` sets an
SDK provider exporting over OTLP/HTTP, configured by the standard
`OTEL_EXPORTER_OTLP_*` variables.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from contextlib import AbstractContextManager
from typing import Any

from hintgate import tracecontext

__all__ = ["Tracing"]

logger = logging.getLogger(__name__)


class Tracing:
    """A `hintgate.pipeline.Tracer` over OpenTelemetry.

    Args:
        provider: the tracer provider (the global one when None).
    """

    def __init__(self, provider: Any = None) -> None:
        from opentelemetry import trace

        self._tracer = (provider if provider is not None else trace.get_tracer_provider()).get_tracer("hintgate")
        tracecontext.enable()

    def span(self, name: str, attributes: Mapping[str, str]) -> AbstractContextManager[object]:
        """A span current while open (so the upstream call's `traceparent` names it)."""
        span: AbstractContextManager[object] = self._tracer.start_as_current_span(
            name, attributes={f"hintgate.{k}": v for k, v in attributes.items()}
        )
        return span

    @classmethod
    def install(cls) -> Tracing:
        """Tracing to the configured provider, or to OTLP/HTTP when nothing configured one.

        Raises:
            ImportError: opentelemetry is not installed (the `otel` extra).
        """
        from opentelemetry import trace

        if type(trace.get_tracer_provider()).__name__ == "ProxyTracerProvider":
            from opentelemetry.sdk.trace import TracerProvider
            from opentelemetry.sdk.trace.export import BatchSpanProcessor

            provider = TracerProvider()
            try:
                from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
            except ImportError:
                logger.warning("tracing is on but no OTLP exporter is installed: spans are made and not exported")
            else:
                provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
            trace.set_tracer_provider(provider)
        return cls()
