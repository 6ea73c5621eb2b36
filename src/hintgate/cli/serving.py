"""What `hintgate serve` does with its options: checks them, reads the config and the settings, runs the gateway.

Without Typer: the command's options are declared for Typer in `hintgate.cli.serve_command`, and `hintgate serve`
written in their plain forms is read without it (`hintgate.cli.serve_argv`); either way this runs the command.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from hintgate.cli.failing import (
    EXIT_LISTEN,
    EXIT_TARGET,
    EXIT_USAGE,
    data_dir_unusable,
    fail,
    load_or_fail,
    store_location,
)
from hintgate.cli.plain_console import Lines, PlainConsole
from hintgate.errors import ConfigError, HintgateError, ListenError

if TYPE_CHECKING:
    from hintgate.config.model import GatewayConfig
    from hintgate.config.settings import Settings

__all__ = ["config_or_demo", "parse_http", "serve_with"]


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
    from hintgate.sources.processes import prestarting

    ahead = dashboard is None and metrics is None
    async with prestarting(config, os.environ) if ahead else contextlib.nullcontext() as prestarted:
        # Imported once the upstreams are spawned: they start meanwhile.
        from hintgate.cli.serve import read_ahead, run_stdio

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


def _stderr_lines() -> Lines:
    """Where `serve` says something before it starts: Rich's `Console` at a terminal, `PlainConsole` otherwise."""
    if sys.stderr.isatty():
        from rich.console import Console

        return Console(stderr=True)
    return PlainConsole()


def _demo_banner(demo: bool) -> None:
    """What to try with `--demo`, said once the database is known to be usable (else the error stands alone)."""
    if demo:
        from rich.console import Console

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


def serve_with(
    *,
    config: Path | None = None,
    demo: bool = False,
    http: str | None = None,
    stdio: bool = False,
    dashboard: str | None = None,
    db: str | None = None,
    no_record: bool = False,
    python: str | None = None,
    metrics: str | None = None,
    tracing: bool = False,
    watch: bool = False,
    require_token: bool | None = None,
    view: str | None = None,
) -> None:
    """Run the gateway as `hintgate serve` with these options was asked to (its options' help says what each does)."""
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
        if python is not None:
            from hintgate.cli.serve import python_config

            loaded = python_config(python)
        else:
            loaded = config_or_demo(config, demo)
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
    # Through Rich at a terminal only, as `serve`'s own lines (`hintgate.cli.plain_console`): an MCP client's log
    # gets them as they are, and a gateway that serves imports no Rich for them.
    if loaded.warnings:
        console = _stderr_lines()
        for warning in loaded.warnings:
            console.print(f"hintgate: warning: {warning}", highlight=False, markup=False, soft_wrap=True)
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
            from hintgate.cli.serve import run_http

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
