"""Remote (streamable HTTP) upstreams are supervised like stdio ones: a real HTTP MCP server stopped and restarted."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from tests.processes import free_port, stop

from hintgate.config.model import HttpTransport, ServerConfig
from hintgate.errors import UpstreamDown, UpstreamError
from hintgate.sources.base import SourceState
from hintgate.sources.mcp import McpUpstream

pytestmark = pytest.mark.anyio

HTTP_SERVER = str(Path(__file__).parents[1] / "fixtures" / "http_server.py")


class HttpServer:
    """tests/fixtures/http_server.py on a fixed port, started and stopped at will."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}/mcp"
        self.process: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        self.process = subprocess.Popen([sys.executable, HTTP_SERVER, str(self.port)], stderr=subprocess.DEVNULL)
        with anyio.fail_after(30):
            while True:
                try:
                    stream = await anyio.connect_tcp("127.0.0.1", self.port)
                except OSError:
                    assert self.process.poll() is None, "the fixture HTTP server exited"
                    await anyio.sleep(0.05)  # polling for a port: nothing to wait on instead
                    continue
                await stream.aclose()
                return

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
        self.process = None


@pytest.fixture
def http_server() -> Iterator[HttpServer]:
    server = HttpServer(free_port())
    yield server
    server.stop()


class Client:
    """The calling client as a source sees it; these tests ask nothing of it."""

    @property
    def session_key(self) -> object:
        return self

    async def progress(self, progress: float, total: float | None, message: str | None) -> None:
        pass

    async def client_request(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        raise AssertionError(f"unexpected {method}")

    async def client_notify(self, method: str, params: dict[str, Any] | None) -> None:
        pass


class Watched:
    """An upstream and what its listener heard."""

    def __init__(self, url: str, **options: Any) -> None:
        config = ServerConfig(name="remote", transport=HttpTransport(url=url), startup_timeout=10, call_timeout=10)
        self.changes: list[str] = []
        self.changed = anyio.Event()
        self.upstream = McpUpstream(config, env={}, listener=self._heard, **options)

    async def _heard(self, name: str, what: str) -> None:
        self.changes.append(what)
        self.changed.set()

    async def until(self, state: SourceState) -> None:
        with anyio.fail_after(60):
            while self.upstream.status.state is not state:
                await self.changed.wait()
                self.changed = anyio.Event()

    async def echo(self, text: str) -> dict[str, Any]:
        return await self.upstream.call_tool("echo", {"text": text}, meta=None, context=Client())


async def test_a_remote_upstream_down_at_start_and_dropped_mid_run_is_marked_down_and_comes_back(
    http_server: HttpServer,
) -> None:
    watched = Watched(http_server.url, ping_interval=0.5)
    async with anyio.create_task_group() as tg:
        tg.start_soon(watched.upstream.run)
        await watched.until(SourceState.DOWN)
        status = watched.upstream.status
        assert status.reason is not None
        assert f"HTTP connection to {http_server.url} failed" in status.reason
        assert status.retry_at is not None
        with pytest.raises(UpstreamDown, match="is down: HTTP connection"):
            await watched.echo("early")

        await http_server.start()
        await watched.until(SourceState.UP)
        assert {tool["name"] for tool in watched.upstream.tools} >= {"echo", "ask", "chat"}
        assert "hello" in str(await watched.echo("hello"))

        http_server.stop()
        watched.changes.clear()
        await watched.until(SourceState.DOWN)  # idle: only its pings notice
        assert watched.upstream.tools == []
        assert watched.upstream.status.reason is not None
        assert "HTTP connection" in watched.upstream.status.reason
        with pytest.raises(UpstreamDown, match="is down"):
            await watched.echo("gone")

        await http_server.start()  # the same port
        await watched.until(SourceState.UP)
        assert "back" in str(await watched.echo("back"))
        assert {tool["name"] for tool in watched.upstream.tools} >= {"echo"}
        assert "status" in watched.changes  # what makes the gateway send list_changed
        tg.cancel_scope.cancel()


async def test_a_remote_upstream_restarted_behind_its_back_reconnects_instead_of_failing_every_call(
    http_server: HttpServer,
) -> None:
    await http_server.start()
    watched = Watched(http_server.url, ping_interval=3600)  # no pings: only the call can notice
    async with anyio.create_task_group() as tg:
        tg.start_soon(watched.upstream.run)
        await watched.until(SourceState.UP)
        http_server.stop()
        await http_server.start()  # the same port; the old session is gone

        with pytest.raises(UpstreamError, match="no longer knows hintgate's session"):
            await watched.echo("lost")
        await watched.until(SourceState.DOWN)
        await watched.until(SourceState.UP)
        assert "again" in str(await watched.echo("again"))
        tg.cancel_scope.cancel()
