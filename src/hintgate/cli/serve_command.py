"""The `serve` command: its options, how it reads them and starts the gateway (`hintgate.cli.serve` runs it).

Registered on the whole command line (`hintgate.cli.app`), and the one command of the command line that
`hintgate serve` runs on (`hintgate.cli.entry`): an MCP client launches the gateway on every start and waits
for its first listing, and the other commands' modules and their parameters are not read for that.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from hintgate.cli.common import (
    EXIT_LISTEN,
    EXIT_TARGET,
    EXIT_USAGE,
    data_dir_unusable,
    fail,
    load_or_fail,
    store_location,
)
from hintgate.errors import ConfigError, HintgateError, ListenError

if TYPE_CHECKING:
    from hintgate.config.model import GatewayConfig
    from hintgate.config.settings import Settings

__all__ = ["ConfigFile", "DemoFlag", "config_or_demo", "parse_http", "serve"]


def parse_http(value: str) -> tuple[str, int]:
    """HOST:PORT, [IPV6]:PORT or PORT, as (host without brackets, port)."""
    host, _, port = value.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    elif ":" in host or "[" in value or "]" in value:
        fail(f"--http {value!r}: write an IPv6 address in brackets, e.g. [::1]:8765", EXIT_USAGE)
    try:
        number = int(port)
    except ValueError:
        fail(f"--http {value!r}: expected HOST:PORT or PORT, e.g. 127.0.0.1:8765 or [::1]:8765", EXIT_USAGE)
    if not 0 <= number <= 65535:
        fail(f"--http {value!r}: port must be 0-65535", EXIT_USAGE)
    return host or "127.0.0.1", number


ConfigFile = Annotated[Path | None, typer.Option("--config", "-c", help="The gateway config file (YAML or JSON).")]
DemoFlag = Annotated[
    bool,
    typer.Option(
        "--demo", help="Use the bundled demo config: a trusted notebook and an untrusted fake web, no network needed."
    ),
]


def _recording_to(settings: Settings) -> str:
    """Where the gateway records, for its start report; a database that cannot be used fails here (exit 2)."""
    return store_location(settings, serving=True) if settings.record else "nowhere (--no-record)"


async def _serve_stdio(
    config: GatewayConfig,
    settings: Settings,
    *,
    dashboard: tuple[str, int] | None,
    metrics: tuple[str, int] | None,
    watch: bool,
    demo: bool = False,
    view: str | None = None,
) -> None:
    """Serve on stdio, the upstreams started first when there is nothing to listen on.

    A client launching the gateway then waits for the slower of the upstreams'
    start and the gateway's own (its imports, the store's checks), not their
    sum. With `--dashboard` or `--metrics` the ports are bound first, so that
    a busy one fails with nothing started (the upstreams start after that).
    """
    from hintgate.cli.serve import read_ahead, run_stdio
    from hintgate.sources.processes import prestarting

    ahead = dashboard is None and metrics is None
    async with prestarting(config, os.environ) if ahead else contextlib.nullcontext() as prestarted:
        # The stored state the first listing depends on, read without the store's imports when it can be.
        early = read_ahead(config, settings) if ahead else None
        # A database that cannot be used fails here, and the upstreams started are stopped again.
        where = early.location if early is not None else _recording_to(settings)
        _demo_banner(demo)
        await run_stdio(
            config,
            settings,
            dashboard=dashboard,
            metrics=metrics,
            recording=where,
            watch=watch,
            early=early,
            view=view,
            prestarted=prestarted,
        )


def _demo_banner(demo: bool) -> None:
    """What to try with `--demo`, said once the database is known to be usable (else the error stands alone)."""
    if demo:
        from hintgate.demo import BANNER

        Console(stderr=True).print(BANNER, highlight=False, markup=False, soft_wrap=True)


def config_or_demo(config: Path | None, demo: bool) -> GatewayConfig:
    if demo == (config is not None):
        fail("give exactly one of --config FILE and --demo", EXIT_USAGE)
    if demo:
        from hintgate.demo import demo_config

        return demo_config()
    assert config is not None
    return load_or_fail(config)


def serve(
    config: ConfigFile = None,
    demo: DemoFlag = False,
    http: Annotated[
        str | None,
        typer.Option(
            "--http", help="Serve streamable HTTP on HOST:PORT (MCP at /mcp, dashboard at /) instead of stdio."
        ),
    ] = None,
    stdio: Annotated[bool, typer.Option("--stdio", help="Serve MCP on stdin/stdout (the default).")] = False,
    dashboard: Annotated[
        str | None, typer.Option("--dashboard", help="With stdio: also serve the dashboard and REST API on HOST:PORT.")
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            "--db", help="Database URL (sqlite:///PATH or postgresql://...); default: a SQLite file in the data dir."
        ),
    ] = None,
    no_record: Annotated[bool, typer.Option("--no-record", help="Record no sessions or calls.")] = False,
    python: Annotated[
        str | None,
        typer.Option("--python", help="Serve a Python tool registry alone: MODULE:ATTRIBUTE (instead of --config)."),
    ] = None,
    metrics: Annotated[
        str | None, typer.Option("--metrics", help="With stdio: serve Prometheus metrics at HOST:PORT/metrics.")
    ] = None,
    tracing: Annotated[
        bool, typer.Option("--tracing", help="Trace calls with OpenTelemetry (the otel extra).")
    ] = False,
    watch: Annotated[
        bool,
        typer.Option(
            "--watch", help="Reload the config file when it changes (SIGHUP always does), applying the difference."
        ),
    ] = False,
    require_token: Annotated[
        bool | None,
        typer.Option(
            "--require-token/--no-require-token",
            help="Require the API token on loopback too (the default; always required beyond it), so other "
            "local users and processes, and a model's tools behind the gateway, cannot use it. "
            "--no-require-token (or HINTGATE_REQUIRE_TOKEN=0) serves loopback without one, with a warning.",
            show_default=False,
        ),
    ] = None,
    view: Annotated[
        str | None,
        typer.Option(
            "--view",
            help="With stdio: serve one view of the catalog (read-only, or one the config's views define). "
            "Over HTTP each view has its own endpoint, /mcp/NAME.",
        ),
    ] = None,
) -> None:
    """Run the gateway: one MCP endpoint over every configured server, with the dashboard."""
    from hintgate.cli.serve import python_config, run_http
    from hintgate.config.environment import GATEWAY_SECRETS, wipe
    from hintgate.config.permissions import private_directory
    from hintgate.config.settings import Settings

    if http is not None and (stdio or dashboard is not None or metrics is not None):
        fail("--http serves the dashboard and /metrics itself; --stdio, --dashboard, --metrics go without", EXIT_USAGE)
    if python is not None and (config is not None or demo):
        fail("--python serves a registry alone; leave out --config and --demo", EXIT_USAGE)
    if watch and config is None:
        fail("--watch reloads a config file: give --config FILE", EXIT_USAGE)
    try:
        loaded = python_config(python) if python is not None else config_or_demo(config, demo)
        settings = Settings.from_environ(
            database_url=db,
            record=False if no_record else None,
            tracing=tracing or None,
            require_token=require_token,
        )
    except ConfigError as exc:
        fail(str(exc), EXIT_USAGE)
    if view is not None:
        from hintgate.discovery.views import BUILTIN_VIEWS

        known = [*BUILTIN_VIEWS, *loaded.views]
        if http is not None:
            fail(f"--view is for stdio: over HTTP the view {view!r} is served at /mcp/{view}", EXIT_USAGE)
        if view not in known:
            fail(f"--view {view}: no such view (the views are {', '.join(known)})", EXIT_USAGE)
    # What loads but does nothing as written (policy naming people in a file without identity), said at start.
    for warning in loaded.warnings:
        Console(stderr=True).print(f"hintgate: warning: {warning}", highlight=False, markup=False, soft_wrap=True)
    # Read once, now gone: a stdio server (the same user) could read them in /proc/<this pid>/environ.
    wipe(GATEWAY_SECRETS)
    try:
        private_directory(settings.data_dir)  # the API token, the sealing key, by default the database
    except OSError as exc:
        fail(data_dir_unusable(settings, exc), EXIT_USAGE)
    try:
        if http is not None:
            host, port = parse_http(http)
            # Checked now, before the port is bound or an upstream started; said once the gateway is up.
            where = _recording_to(settings)
            _demo_banner(demo)
            asyncio.run(run_http(loaded, settings, host=host, port=port, recording=where, watch=watch))
        else:
            web = parse_http(dashboard) if dashboard is not None else None
            scrape = parse_http(metrics) if metrics is not None else None
            asyncio.run(
                _serve_stdio(loaded, settings, dashboard=web, metrics=scrape, watch=watch, demo=demo, view=view)
            )
    except ListenError as exc:
        fail(str(exc), EXIT_LISTEN)
    except HintgateError as exc:
        fail(str(exc), EXIT_TARGET)
