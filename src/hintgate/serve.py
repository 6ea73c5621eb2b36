"""Running the gateway on a transport: stdio, streamable HTTP, or just long enough to list its catalog."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys

from rich.console import Console
from rich.logging import RichHandler

from hintgate.config import GatewayConfig
from hintgate.gateway import Gateway

__all__ = ["collect_catalog", "run_http", "run_stdio"]

logger = logging.getLogger("hintgate")


def _log_to_stderr(level: int = logging.INFO) -> Console:
    console = Console(stderr=True)
    handler = RichHandler(console=console, show_path=False, rich_tracebacks=False, markup=False)
    root = logging.getLogger("hintgate")
    if not any(isinstance(h, RichHandler) for h in root.handlers):
        root.addHandler(handler)
    root.setLevel(level)
    return console


def _report_start(gateway: Gateway, console: Console) -> None:
    for source in gateway.sources.values():
        status = source.status
        detail = f": {status.reason}" if status.reason else ""
        console.print(f"hintgate: server {source.name!r} is {status.state.value}{detail}", highlight=False)
    console.print(f"hintgate: serving {len(gateway.catalog.entries)} tools", highlight=False)


async def run_stdio(config: GatewayConfig) -> None:
    """Serve MCP over stdin/stdout until the client closes stdin."""
    console = _log_to_stderr(logging.WARNING)
    async with Gateway(config) as gateway:
        _report_start(gateway, console)
        await gateway.serve_stdio()


async def run_http(config: GatewayConfig, *, host: str, port: int) -> None:
    """Serve MCP over streamable HTTP at `http://HOST:PORT/mcp` until interrupted."""
    import uvicorn

    console = _log_to_stderr()
    async with Gateway(config) as gateway, gateway.http_app(host=host) as app:
        server = uvicorn.Server(
            uvicorn.Config(app, host=host, port=port, lifespan="off", log_level="warning", access_log=False)
        )
        serving = asyncio.create_task(server.serve())
        for _ in range(500):  # up to 5 s for the socket to bind
            if server.started or serving.done():
                break
            await asyncio.sleep(0.01)
        if serving.done():
            await serving  # raises why it could not start (address in use...)
            return
        bound = server.servers[0].sockets[0].getsockname()[1] if server.servers else port
        _report_start(gateway, console)
        console.print(f"hintgate: MCP at http://{host}:{bound}/mcp", highlight=False)
        sys.stderr.flush()
        try:
            await serving
        finally:
            server.should_exit = True
            with contextlib.suppress(asyncio.CancelledError):
                await serving


async def collect_catalog(config: GatewayConfig, *, progress: bool = True) -> Gateway:
    """Start every server, build the catalog, stop them; the gateway keeps its last catalog and statuses."""
    from rich.progress import Progress, SpinnerColumn, TextColumn

    gateway = Gateway(config)
    console = Console(stderr=True)
    with Progress(
        SpinnerColumn(), TextColumn("{task.description}"), console=console, transient=True, disable=not progress
    ) as bar:
        bar.add_task(f"starting {len(gateway.sources)} servers and listing their tools", total=None)
        async with gateway:
            pass
    return gateway
