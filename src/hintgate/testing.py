"""Test doubles for code that uses hintgate, and for hintgate's own tests.

`FakeSource` is a source of tools kept in memory: no process, no network.
`running_gateway` starts a real `hintgate serve --http` and yields its URLs
and its API token, read where it says it keeps it (`RunningGateway.headers` carries it; connect
the SDK's client with `Client(running.mcp_transport())`).
`in_memory_gateway` runs a gateway over fake sources and connects the MCP
SDK's client to it in-process:

    async with in_memory_gateway(FakeSource("notes", tools=[...], handlers={...})) as (gateway, client):
        result = await client.call_tool("notes_get_note", {"id": 1})
"""

from __future__ import annotations

import inspect
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hintgate.config.loading import parse_config
from hintgate.config.model import GatewayConfig, Trust, TrustFrom
from hintgate.errors import UpstreamRequestError
from hintgate.hints.annotations import Hint
from hintgate.sources.base import CallContext, SourceState, SourceStatus, ToolFacts, upstream_down

__all__ = ["FakeSource", "RunningGateway", "in_memory_gateway", "running_gateway", "text_result"]

Handler = Callable[[Mapping[str, Any]], Any]
# `serve` says where the token is kept at each start (and shows it in full only at the start that made it).
_KEPT = re.compile(r"(?:made an API token, kept in|the API token is kept in) (.+?) \(readable by this user only\)")
_FROM_ENVIRONMENT = "the API token is the value of HINTGATE_API_TOKEN"


def text_result(text: str, *, is_error: bool = False) -> dict[str, Any]:
    """A `CallToolResult` with one text block."""
    return {"content": [{"type": "text", "text": text}], "isError": is_error}


class FakeSource:
    """A source whose tools are plain dicts and whose calls are Python callables.

    Besides what every source does it serves prompts and resources and may resolve calls
    (`sources.capabilities.ServesPrompts`, `Resolves`); it runs no tasks and logs in to nothing.

    Args:
        name: the source's name (and default prefix).
        tools: the tools as MCP JSON objects (`name`, `description`, `inputSchema`, `annotations`...).
        handlers: tool name → callable taking the arguments and returning a
            `CallToolResult` dict, a string (wrapped as text), or an awaitable of either.
        trust: whether its declared hints are believed.
        prefix: the name prefix (default: `name`).
        overrides: tool name → hint overrides, as a config file would give them.
        titles: tool name → title, as a config file would give it.
    """

    offers_resolution = False
    """Whether it answers `tools/resolve` (set it, and give a `request` handler, to fake a resolving server)."""

    def __init__(
        self,
        name: str,
        *,
        tools: Sequence[Mapping[str, Any]] = (),
        handlers: Mapping[str, Handler] | None = None,
        trust: Trust = Trust.UNTRUSTED,
        prefix: str | None = None,
        overrides: Mapping[str, Mapping[Hint, bool]] | None = None,
        titles: Mapping[str, str] | None = None,
    ) -> None:
        self._name = name
        self.tools: list[Mapping[str, Any]] = list(tools)
        self.handlers: dict[str, Handler] = dict(handlers or {})
        self._trust = trust
        self._prefix = name if prefix is None else prefix
        self._overrides = dict(overrides or {})
        self._titles = dict(titles or {})
        self._status = SourceStatus(SourceState.UP)
        self.calls: list[tuple[str, Mapping[str, Any] | None]] = []
        self.prompts: list[Mapping[str, Any]] = []
        self.resources: list[Mapping[str, Any]] = []
        self.resource_templates: list[Mapping[str, Any]] = []
        self.instructions: str | None = None
        """What it tells the model about itself, as a server's handshake would."""

    @property
    def name(self) -> str:
        """The source's name."""
        return self._name

    @property
    def kind(self) -> str:
        """A fake: no source type configures it."""
        return "fake"

    @property
    def trust(self) -> Trust:
        """Its trust level."""
        return self._trust

    @property
    def trust_from(self) -> TrustFrom:
        """Given by the test: as if the config file said so."""
        return TrustFrom.CONFIG

    @property
    def prefix(self) -> str:
        """Its name prefix."""
        return self._prefix

    @property
    def call_timeout(self) -> float:
        """Seconds a call may take."""
        return 10.0

    @property
    def startup_timeout(self) -> float:
        """Seconds a start may take."""
        return 1.0

    @property
    def status(self) -> SourceStatus:
        """Its status (up unless `go_down` was called)."""
        return self._status

    def go_down(self, reason: str = "stopped by the test", *, retry_at: float | None = None) -> None:
        """Mark it down (restarting, when a retry time is given): its tools leave the catalog and calls fail."""
        state = SourceState.DOWN if retry_at is None else SourceState.RESTARTING
        self._status = SourceStatus(state, reason, retry_at=retry_at)

    def wants(self, tool_name: str) -> bool:
        """Every tool is served."""
        return True

    def tool_facts(self, raw: Mapping[str, Any]) -> ToolFacts:
        """The overrides and titles given to the constructor; declarations live in `annotations`."""
        name = str(raw.get("name", ""))
        return ToolFacts(overrides=self._overrides.get(name, {}), title=self._titles.get(name))

    async def run(self) -> None:
        """Nothing to run."""

    async def wait_started(self, timeout: float) -> None:
        """Started at once."""

    async def call_tool(
        self, name: str, arguments: Mapping[str, Any] | None, *, meta: Mapping[str, Any] | None, context: CallContext
    ) -> dict[str, Any]:
        """Run the handler of `name`."""
        if self._status.state is not SourceState.UP:
            raise upstream_down(self.name, self._status)
        handler = self.handlers.get(name)
        if handler is None:
            raise UpstreamRequestError(f"Unknown tool: {name}", code=-32602, server=self.name)
        self.calls.append((name, arguments))
        outcome = handler(arguments or {})
        if inspect.isawaitable(outcome):
            outcome = await outcome
        if isinstance(outcome, str):
            return text_result(outcome)
        result: dict[str, Any] = outcome
        return result

    async def request(self, method: str, params: dict[str, Any] | None, *, context: CallContext) -> dict[str, Any]:
        """No prompts or resources."""
        raise UpstreamRequestError(f"{method} is not supported by a fake source", code=-32601, server=self.name)


@asynccontextmanager
async def in_memory_gateway(
    *sources: FakeSource, config: GatewayConfig | None = None, **client_args: Any
) -> AsyncIterator[tuple[Any, Any]]:
    """A gateway over `sources` with the SDK's client connected in-process; yields (gateway, client)."""
    from mcp import Client

    from hintgate.server.face import build_server
    from hintgate.server.gateway import Gateway

    gateway = Gateway(config or parse_config({"mcpServers": {}}), sources={s.name: s for s in sources})
    async with gateway:
        server = build_server(gateway)
        async with Client(server, mode="legacy", **client_args) as client:
            yield gateway, client


@dataclass(frozen=True, slots=True)
class RunningGateway:
    """A `hintgate serve --http` process started by `running_gateway`."""

    base_url: str
    process: subprocess.Popen[str]
    log: list[str]
    token: str | None = None
    """Its API token (read where it said it is kept); None when it serves without one (`--no-require-token`)."""

    @property
    def mcp_url(self) -> str:
        """Its MCP endpoint."""
        return f"{self.base_url}/mcp"

    @property
    def headers(self) -> dict[str, str]:
        """The headers a request to it carries: the token as a bearer token, when it needs one."""
        return {"Authorization": f"Bearer {self.token}"} if self.token is not None else {}

    @asynccontextmanager
    async def mcp_transport(self, view: str | None = None) -> AsyncIterator[Any]:
        """The streamable HTTP transport to its MCP endpoint, sending the token: `mcp.Client(this)`.

        With `view`, the endpoint of that view (`/mcp/VIEW`) instead of the whole catalog's.
        """
        import httpx2
        from mcp.client.streamable_http import streamable_http_client

        # The SDK's own client's timeouts: a response stream may stay open for minutes.
        async with (
            httpx2.AsyncClient(headers=self.headers, timeout=httpx2.Timeout(30.0, read=300.0)) as http,
            streamable_http_client(self.mcp_url + (f"/{view}" if view else ""), http_client=http) as streams,
        ):
            yield streams


@contextmanager
def running_gateway(
    *args: str,
    env: Mapping[str, str] | None = None,
    startup_timeout: float = 60.0,
    bind: str = "127.0.0.1:0",
    launcher: Sequence[str] = (),
) -> Iterator[RunningGateway]:
    """Run `hintgate serve --http BIND ARGS...` in a subprocess and yield where it listens.

    `bind` is `127.0.0.1:0` (any free port) unless given; `127.0.0.2:0` or
    `[::1]:0` test other loopback addresses. `launcher` is the command that
    runs hintgate's CLI (this interpreter's `python -m hintgate` unless given).

    Its stderr is read on a thread into `log` (so a chatty gateway never
    blocks); on exit the process is terminated, and killed if it lingers.

    Raises:
        RuntimeError: it exited or printed no URL within `startup_timeout` seconds (its log is in the message).
    """
    command = [*(launcher or (sys.executable, "-m", "hintgate")), "serve", "--http", bind, *args]
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "200", **(env or {})},
    )
    lines: queue.Queue[str | None] = queue.Queue()
    log: list[str] = []

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            log.append(line)
            lines.put(line)
        lines.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + startup_timeout
        base_url = None
        token = None
        while base_url is None:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                raise RuntimeError(f"hintgate serve printed no URL; its log:\n{''.join(log)[-4000:]}")
            # Where the token is comes before the URLs: a file in the data directory, or the environment.
            found = _KEPT.search(line)
            if found is not None and token is None:
                token = Path(found.group(1)).read_text(encoding="utf-8").strip()
            elif _FROM_ENVIRONMENT in line and token is None:
                token = {**os.environ, **(env or {})}["HINTGATE_API_TOKEN"].strip()
            if "dashboard at " in line:
                base_url = line.split("dashboard at ", 1)[1].strip().rstrip("/")
        yield RunningGateway(base_url, process, log, token)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        reader.join(timeout=10)
        if process.stderr is not None:
            process.stderr.close()
