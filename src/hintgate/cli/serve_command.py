"""The `serve` command's options, declared for Typer; `hintgate.cli.serving` runs the command with them.

Registered on the whole command line (`hintgate.cli.app`), and the one command of the command line that
`hintgate serve` runs on when its options are not all in the plain forms that are read without Typer
(`hintgate.cli.entry`, `hintgate.cli.serve_argv`): `--help`, a misspelt option, an option's value that starts
with a dash. Either way the command, its options, help and errors are the same.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated

import typer

from hintgate.cli.common import GATEWAY_CONFIG, spelt_out
from hintgate.cli.serving import serve_with

__all__ = ["ConfigFile", "DemoFlag", "ServeOptions", "serve"]


ConfigFile = Annotated[Path | None, GATEWAY_CONFIG]
DemoFlag = Annotated[
    bool,
    typer.Option(
        "--demo", help="Use the bundled demo config: a trusted notebook and an untrusted fake web, no network needed."
    ),
]


@dataclasses.dataclass(frozen=True)
class ServeOptions:
    """`serve`'s options, each the keyword argument of `serving.serve_with` of its name."""

    config: ConfigFile = None
    demo: DemoFlag = False
    http: Annotated[
        str | None,
        typer.Option(
            "--http", help="Serve streamable HTTP on HOST:PORT (MCP at /mcp, dashboard at /) instead of stdio."
        ),
    ] = None
    stdio: Annotated[bool, typer.Option("--stdio", help="Serve MCP on stdin/stdout (the default).")] = False
    dashboard: Annotated[
        str | None, typer.Option("--dashboard", help="With stdio: also serve the dashboard and REST API on HOST:PORT.")
    ] = None
    db: Annotated[
        str | None,
        typer.Option(
            "--db", help="Database URL (sqlite:///PATH or postgresql://...); default: a SQLite file in the data dir."
        ),
    ] = None
    no_record: Annotated[bool, typer.Option("--no-record", help="Record no sessions or calls.")] = False
    python: Annotated[
        str | None,
        typer.Option("--python", help="Serve a Python tool registry alone: MODULE:ATTRIBUTE (instead of --config)."),
    ] = None
    metrics: Annotated[
        str | None, typer.Option("--metrics", help="With stdio: serve Prometheus metrics at HOST:PORT/metrics.")
    ] = None
    tracing: Annotated[bool, typer.Option("--tracing", help="Trace calls with OpenTelemetry (the otel extra).")] = False
    watch: Annotated[
        bool,
        typer.Option(
            "--watch", help="Reload the config file when it changes (SIGHUP always does), applying the difference."
        ),
    ] = False
    require_token: Annotated[
        bool | None,
        typer.Option(
            "--require-token/--no-require-token",
            help="Require the API token on loopback too (the default; always required beyond it), so other "
            "local users and processes, and a model's tools behind the gateway, cannot use it. "
            "--no-require-token (or HINTGATE_REQUIRE_TOKEN=0) serves loopback without one, with a warning.",
            show_default=False,
        ),
    ] = None
    view: Annotated[
        str | None,
        typer.Option(
            "--view",
            help="With stdio: serve one view of the catalog (read-only, or one the config's views define). "
            "Over HTTP each view has its own endpoint, /mcp/NAME.",
        ),
    ] = None


@spelt_out
def serve(options: ServeOptions) -> None:
    """Run the gateway: one MCP endpoint over every configured server, with the dashboard."""
    serve_with(**vars(options))
