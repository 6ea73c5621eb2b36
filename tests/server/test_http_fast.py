"""The streamable HTTP fast path: plain requests answered with one JSON body, the rest left to the SDK.

Real `hintgate serve --http` processes with the demo server behind them, driven
with raw JSON-RPC over HTTP (so content types and headers are visible) and with
the MCP SDK's own client. What the fast path answered is counted on
`/api/health` (`http_fast`), which is how these tests tell the two paths apart.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client

from hintgate.config.model import Trust
from hintgate.hints.catalog import CatalogEntry, build_catalog, resolve_tool
from hintgate.pipeline import Decided, ToolCalls, deciding
from hintgate.policy.in_force import PolicyInForce
from hintgate.policy.rules import Mode, PolicySettings
from hintgate.server import http_fast
from hintgate.server.http_fast import HttpFastPath
from hintgate.session import ClientSession
from hintgate.testing import FakeSource, RunningGateway, running_gateway

pytestmark = pytest.mark.anyio

ERA = "2025-11-25"
MODERN = "2026-07-28"
ACCEPT = "application/json, text/event-stream"
SEARCH = {"name": "demo_search_notes", "arguments": {"query": "x"}}


@contextmanager
def gateway(tmp_path: Path, *args: str, env: dict[str, str] | None = None, **policy: Any) -> Iterator[RunningGateway]:
    """A gateway over HTTP with the demo server (trusted): searching runs unasked, creating a note asks."""
    tmp_path.mkdir(exist_ok=True)
    config = tmp_path / "hintgate.json"
    demo = {"command": sys.executable, "args": ["-m", "hintgate.demo"], "trust": "trusted"}
    config.write_text(json.dumps({"mcpServers": {"demo": demo}, "policy": {"mode": "default", **policy}}))
    with running_gateway("--config", str(config), *(args or ("--no-record",)), env=env) as running:
        yield running


def messages(response: httpx.Response) -> list[dict[str, Any]]:
    """The JSON-RPC messages of a response, whether one JSON body or an event stream (else its text)."""
    kind = response.headers.get("content-type", "")
    if kind.startswith("text/event-stream"):
        return [json.loads(line[5:]) for line in response.text.splitlines() if line.startswith("data:")]
    return [response.json()] if kind.startswith("application/json") else [{"text": response.text}]


class Raw:
    """One handshake-era session, spoken in raw JSON-RPC over HTTP."""

    def __init__(self, http: httpx.AsyncClient, url: str) -> None:
        self.http = http
        self.url = url
        self.headers = {"Accept": ACCEPT, "MCP-Protocol-Version": ERA}
        self.ids = iter(range(1, 1000))

    async def open(self, capabilities: dict[str, Any] | None = None) -> None:
        init = {
            "protocolVersion": ERA,
            "capabilities": capabilities or {},
            "clientInfo": {"name": "raw", "version": "1"},
        }
        opened = await self.http.post(
            self.url, json={"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}, headers=self.headers
        )
        opened.raise_for_status()
        self.headers["Mcp-Session-Id"] = opened.headers["mcp-session-id"]
        done = await self.http.post(
            self.url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=self.headers
        )
        assert done.status_code == 202

    async def request(self, method: str, params: dict[str, Any] | None = None, **headers: str) -> httpx.Response:
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": next(self.ids), "method": method}
        if params is not None:
            body["params"] = params
        return await self.http.post(self.url, json=body, headers={**self.headers, **headers})


@asynccontextmanager
async def raw_session(running: RunningGateway, capabilities: dict[str, Any] | None = None) -> AsyncIterator[Raw]:
    async with httpx.AsyncClient(timeout=30, headers=running.headers) as http:
        session = Raw(http, running.mcp_url)
        await session.open(capabilities)
        yield session


def health(running: RunningGateway) -> dict[str, Any]:
    answer: dict[str, Any] = httpx.get(f"{running.base_url}/api/health", headers=running.headers, timeout=10).json()
    return answer


async def exchange(running: RunningGateway) -> list[tuple[int, str, list[dict[str, Any]]]]:
    """The same requests on one session: (status, content type, messages) of each."""
    async with raw_session(running) as raw:
        responses = [
            await raw.request("tools/list"),
            await raw.request("tools/call", SEARCH),
            await raw.request("tools/call", {"name": "no_such_tool"}),
            await raw.request("tools/call", {"name": "demo_search_notes", "arguments": {"query": 3}}),
            await raw.request("ping"),
            await raw.request("prompts/list"),
            await raw.request("resources/list"),
            await raw.request("ping", Accept="application/json"),
            await raw.request("ping", **{"Mcp-Session-Id": "not-a-session"}),
            await raw.request("ping", **{"Content-Type": "text/plain"}),
        ]
    return [(r.status_code, r.headers.get("content-type", "").split(";")[0], messages(r)) for r in responses]


async def test_plain_handshake_era_requests_get_the_sdk_paths_answers_as_one_json_body(tmp_path: Path) -> None:
    with anyio.fail_after(120):
        with gateway(tmp_path / "fast") as fast:
            answered_fast = await exchange(fast)
            counted = health(fast)["http_fast"]
        with gateway(tmp_path / "sdk", env={"HINTGATE_HTTP_FAST": "0"}) as sdk:
            answered_sdk = await exchange(sdk)
            assert "http_fast" not in health(sdk)

    assert [(status, messages) for status, _, messages in answered_fast] == [
        (status, messages) for status, _, messages in answered_sdk
    ]
    assert [kind for _, kind, _ in answered_fast[:7]] == ["application/json"] * 7
    assert {kind for _, kind, _ in answered_sdk[:7]} == {"text/event-stream"}
    assert [status for status, _, _ in answered_fast[7:]] == [406, 404, 400]
    assert counted["taken"] == 7
    # initialize has no session yet, notifications/initialized is not a request
    expected = {"no session": 1, "not a request": 1, "accept": 1, "session unknown here": 1, "refused headers": 1}
    assert counted["fallbacks"] == expected


async def test_a_call_with_a_progress_token_streams_through_the_sdk_and_one_without_is_answered_fast(
    tmp_path: Path,
) -> None:
    with gateway(tmp_path) as running, anyio.fail_after(60):
        async with raw_session(running, {"elicitation": {}, "sampling": {}}) as raw:
            with_token = await raw.request("tools/call", {**SEARCH, "_meta": {"progressToken": "p1"}})
            without = await raw.request("tools/call", SEARCH)
        counted = health(running)["http_fast"]

    assert with_token.headers["content-type"] == "text/event-stream"
    assert without.headers["content-type"] == "application/json"
    assert messages(with_token)[-1]["result"] == messages(without)[-1]["result"]
    assert counted["fallbacks"]["progress token"] == 1
    assert counted["taken"] == 1


async def test_a_call_the_policy_asks_about_takes_the_sdk_path_and_is_decided_there(tmp_path: Path) -> None:
    with gateway(tmp_path, approvalTimeout=1) as running, anyio.fail_after(60):
        async with raw_session(running) as raw:
            asked = await raw.request(
                "tools/call", {"name": "demo_create_note", "arguments": {"title": "t", "body": "b"}}
            )
        counted = health(running)["http_fast"]

    assert asked.headers["content-type"] == "text/event-stream"
    result = messages(asked)[-1]["result"]
    assert result["isError"] is True
    assert "it expired: no one answered in 1 s" in result["content"][0]["text"]
    assert counted["fallbacks"]["may ask"] == 1
    assert counted["taken"] == 0


async def test_fast_path_calls_are_recorded_like_any_other(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'calls.db'}"
    with gateway(tmp_path, "--db", database) as running, anyio.fail_after(60):
        async with raw_session(running) as raw:
            called = await raw.request("tools/call", SEARCH)
        calls = httpx.get(f"{running.base_url}/api/calls", headers=running.headers, timeout=10).json()
        counted = health(running)["http_fast"]

    assert called.headers["content-type"] == "application/json"
    assert counted["taken"] == 1
    assert [(c["tool_name"], c["verdict"]) for c in calls] == [("demo_search_notes", "allow")]
    assert calls[0]["session_id"] is not None


async def test_sdk_clients_of_both_eras_are_served_through_the_fast_path(tmp_path: Path) -> None:
    with gateway(tmp_path) as running, anyio.fail_after(90):
        found = {}
        for mode in ("legacy", MODERN):
            async with Client(running.mcp_transport(), mode=mode) as client:  # type: ignore[arg-type]
                tools = await client.list_tools()
                result = await client.call_tool("demo_search_notes", {"query": "x"})
                found[mode] = ([t.name for t in tools.tools], result.is_error)
        counted = health(running)["http_fast"]

    assert found["legacy"] == found[MODERN]
    assert "demo_search_notes" in found["legacy"][0]
    assert found["legacy"][1] is False
    assert counted["taken"] >= 4


async def test_a_fast_path_call_the_client_cancels_is_answered_as_cancelled_and_cancelled_upstream(
    tmp_path: Path,
) -> None:
    record = tmp_path / "received.jsonl"
    bad = Path(__file__).resolve().parent.parent / "fixtures" / "bad_server.py"
    config = tmp_path / "hintgate.json"
    upstream = {"command": sys.executable, "args": [str(bad), "record", str(record)]}
    config.write_text(json.dumps({"mcpServers": {"rec": upstream}, "policy": {"mode": "bypass"}}))
    with running_gateway("--config", str(config), "--no-record") as running, anyio.fail_after(60):
        async with raw_session(running) as raw, anyio.create_task_group() as tasks:
            answers: list[httpx.Response] = []

            async def call() -> None:
                answers.append(await raw.request("tools/call", {"name": "rec_hold", "arguments": {}}))

            tasks.start_soon(call)
            # The upstream appends what it receives; wait (bounded) for the call to reach it.
            while "tools/call" not in (record.read_text() if record.exists() else ""):
                await anyio.sleep(0.05)
            cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}
            accepted = await raw.http.post(raw.url, json=cancel, headers=raw.headers)
        while "notifications/cancelled" not in record.read_text():
            await anyio.sleep(0.05)
        counted = health(running)["http_fast"]

    assert accepted.status_code == 202
    assert answers[0].headers["content-type"] == "application/json"
    assert answers[0].json() == {"jsonrpc": "2.0", "id": 1, "error": {"code": -32800, "message": "Request cancelled"}}
    assert counted["taken"] == 1


# -- the hand-over of a decided call, in-process (the SDK server middleware the fast path installs) -----------

NOTE = {
    "name": "write_note",
    "description": "Write a note.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
    "annotations": {"readOnlyHint": False, "destructiveHint": False},
}


class _Sessions:
    def __init__(self) -> None:
        self.session = ClientSession("s1", "client", "1", "http", ERA, datetime.now(UTC))

    def for_request(self, ctx: Any) -> ClientSession:
        return self.session


class _Gateway:
    """What the fast path's middleware asks of a gateway: the call's target, its pipeline, and the call."""

    def __init__(self, mode: Mode) -> None:
        source = FakeSource("notes", tools=[NOTE], handlers={"write_note": lambda a: "written"}, trust=Trust.TRUSTED)
        policy = PolicyInForce(PolicySettings(mode=mode))
        self.calls = ToolCalls({source.name: source}, _Sessions(), policy=lambda: policy)
        tools = [resolve_tool(tool, trusted=True) for tool in source.tools]
        self.entry = build_catalog([(source.name, source.prefix, tools)]).entries["notes_write_note"]
        self.handed: list[Decided | None] = []

    def call_target(self, ctx: Any, params: Mapping[str, Any]) -> tuple[CatalogEntry, Any]:
        return self.entry, params.get("arguments")

    async def call_tool(self, ctx: Any, params: Any, *, decided: Decided | None = None) -> dict[str, Any]:
        self.handed.append(decided)
        return await self.calls(ctx, self.entry, params.get("arguments"), params, decided)


def _middleware(gateway: _Gateway) -> Any:
    manager = SimpleNamespace(security_settings=None, json_response=False, stateless=False, event_store=None)
    server = SimpleNamespace(session_manager=manager, middleware=[])
    HttpFastPath(gateway, server, app=None)  # type: ignore[arg-type]
    [middleware] = server.middleware
    return middleware


def _fast_call(arguments: dict[str, Any]) -> Any:
    request = http_fast._FastRequest({"type": "http", "method": "POST", "headers": []})
    return SimpleNamespace(
        request=request,
        method="tools/call",
        params={"name": "notes_write_note", "arguments": arguments},
        protocol_version=ERA,
        request_id=1,
        session=SimpleNamespace(client_capabilities=None),
    )


async def _rest_of_the_chain(ctx: Any) -> Any:
    raise AssertionError("the rest of the SDK's chain ran")


async def test_a_handshake_era_call_decided_on_the_fast_path_runs_with_that_decision_and_is_not_decided_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gateway = _Gateway(Mode.ACCEPT_EDITS)
    decided: list[Any] = []
    real = deciding.decide
    monkeypatch.setattr(deciding, "decide", lambda *a, **k: decided.append(real(*a, **k)) or decided[-1])
    ctx = _fast_call({"text": "hello"})
    result = await _middleware(gateway)(ctx, _rest_of_the_chain)
    assert result.get("isError") is not True
    [handed] = gateway.handed
    assert handed is not None
    assert handed.arguments is ctx.params["arguments"]
    assert len(decided) == 1
    assert handed.decision is decided[0]


async def test_a_call_the_policy_asks_about_goes_the_sdks_way_before_anything_runs() -> None:
    gateway = _Gateway(Mode.DEFAULT)  # additive writes ask
    with pytest.raises(http_fast._NeedsStream):
        await _middleware(gateway)(_fast_call({"text": "hello"}), _rest_of_the_chain)
    assert gateway.handed == []
