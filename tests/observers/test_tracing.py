"""OpenTelemetry tracing: a call's spans in an in-memory exporter, and its traceparent at a real HTTP upstream."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from hintgate import tracecontext
from hintgate.config.loading import parse_config
from hintgate.config.model import OpenApiConfig, Trust
from hintgate.observers.tracing import Tracing
from hintgate.server.face import build_server
from hintgate.server.gateway import Gateway
from hintgate.sources.openapi.source import OpenApiSource
from hintgate.testing import FakeSource

pytestmark = pytest.mark.anyio

DOCUMENT = """
openapi: 3.1.0
info: {title: ping, version: "1"}
paths:
  /ping:
    get:
      operationId: ping
      responses:
        "200":
          description: pong
"""


@contextmanager
def header_recorder() -> Iterator[tuple[str, list[dict[str, str]]]]:
    """An HTTP API on 127.0.0.1 that answers every GET and keeps the headers it got."""
    import uvicorn

    seen: list[dict[str, str]] = []

    async def handle(request: Request) -> JSONResponse:
        seen.append({k.lower(): v for k, v in request.headers.items()})
        return JSONResponse({"pong": True})

    app = Starlette(routes=[Route("/{path:path}", handle)])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="error", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the API did not start"
        assert thread.is_alive(), "the API failed to start"
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}", seen
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture
def exporter() -> Iterator[tuple[InMemorySpanExporter, Tracing]]:
    spans = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(spans))
    try:
        yield spans, Tracing(provider)
    finally:
        tracecontext.disable()
        provider.shutdown()


async def call_through(gateway: Gateway, tool: str, arguments: dict[str, Any]) -> Any:
    async with gateway, Client(build_server(gateway), mode="legacy") as client:
        with anyio.fail_after(30):
            return await client.call_tool(tool, arguments)


async def test_an_openapi_call_is_traced_and_its_upstream_gets_the_traceparent(
    tmp_path: Path, exporter: tuple[InMemorySpanExporter, Tracing]
) -> None:
    spans, tracing = exporter
    document = tmp_path / "ping.yaml"
    document.write_text(DOCUMENT)
    with header_recorder() as (url, seen):
        source = OpenApiSource(OpenApiConfig(name="api", document=str(document), base_url=url, trust=Trust.TRUSTED))
        gateway = Gateway(parse_config({"mcpServers": {}}), sources={"api": source}, tracer=tracing)
        result = await call_through(gateway, "ping", {})
    assert result.is_error is False
    finished = {span.name: span for span in spans.get_finished_spans()}
    assert {"hintgate.call", "hintgate.decide", "hintgate.upstream_call", "hintgate.record"} <= set(finished)
    assert "hintgate.ask" not in finished  # a read-only GET runs without a question
    root = finished["hintgate.call"]
    for name in ("hintgate.decide", "hintgate.upstream_call", "hintgate.record"):
        assert finished[name].context.trace_id == root.context.trace_id
        assert finished[name].parent is not None
        assert finished[name].parent.span_id == root.context.span_id
    assert root.attributes is not None
    assert root.attributes["hintgate.tool"] == "ping"
    [headers] = seen
    version, trace_id, parent_id, _ = headers["traceparent"].split("-")
    upstream = finished["hintgate.upstream_call"]
    assert version == "00"
    assert int(trace_id, 16) == root.context.trace_id
    assert int(parent_id, 16) == upstream.context.span_id


async def test_an_asked_call_has_an_ask_span(exporter: tuple[InMemorySpanExporter, Tracing]) -> None:
    spans, tracing = exporter
    tools = [{"name": "wipe", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": True}}]
    source = FakeSource("notes", tools=tools, handlers={"wipe": lambda _: "wiped"})
    config = parse_config({"mcpServers": {}, "policy": {"approvalTimeout": 0.1}})
    gateway = Gateway(config, sources={"notes": source}, tracer=tracing)
    result = await call_through(gateway, "notes_wipe", {})
    assert result.is_error is True  # nobody answered the approval queue in time
    names = [span.name for span in spans.get_finished_spans()]
    assert "hintgate.ask" in names
    assert "hintgate.upstream_call" not in names
    assert source.calls == []


async def test_without_tracing_no_traceparent_is_sent(tmp_path: Path) -> None:
    document = tmp_path / "ping.yaml"
    document.write_text(DOCUMENT)
    with header_recorder() as (url, seen):
        source = OpenApiSource(OpenApiConfig(name="api", document=str(document), base_url=url, trust=Trust.TRUSTED))
        gateway = Gateway(parse_config({"mcpServers": {}}), sources={"api": source})
        await call_through(gateway, "ping", {})
    [headers] = seen
    assert "traceparent" not in headers
