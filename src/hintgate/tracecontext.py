"""The W3C `traceparent` of the current span, for requests to HTTP upstreams.

Sources add `trace_headers()` to the HTTP requests they send upstream; it is
empty (and costs one global read) unless tracing was switched on with
`enable()` by `hintgate.observers.tracing`, which needs the `otel` extra.
"""

from __future__ import annotations

from typing import Any

__all__ = ["disable", "enable", "enabled", "trace_headers"]

_propagator: Any = None


def enable() -> None:
    """Propagate the current span to HTTP upstreams from now on (needs opentelemetry-api)."""
    global _propagator  # noqa: PLW0603 - the switch is process-wide, like the OpenTelemetry context itself
    from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

    _propagator = TraceContextTextMapPropagator()


def disable() -> None:
    """Stop propagating (tracing switched off)."""
    global _propagator  # noqa: PLW0603 - see enable()
    _propagator = None


def enabled() -> bool:
    """Whether `trace_headers` propagates anything."""
    return _propagator is not None


def trace_headers() -> dict[str, str]:
    """`{"traceparent": ...}` (and `tracestate` when set) for the current span; `{}` when tracing is off."""
    if _propagator is None:
        return {}
    carrier: dict[str, str] = {}
    _propagator.inject(carrier)
    return carrier
