"""What every command shares: exit codes, output formats, errors, fitted tables, the store.

Commands live in `hintgate.cli.app` and its siblings; this module holds what
they have in common so none of them imports another.
"""

from __future__ import annotations

import asyncio
import enum
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console

from hintgate.errors import ConfigError, HintgateError, StoreError

if TYPE_CHECKING:
    from hintgate.config.model import GatewayConfig

__all__ = [
    "EXIT_FINDINGS",
    "EXIT_LISTEN",
    "EXIT_TARGET",
    "EXIT_USAGE",
    "DbOpt",
    "FormatOpt",
    "OutputFormat",
    "WideOpt",
    "data_dir_unusable",
    "emit_rows",
    "fail",
    "load_or_fail",
    "name_values",
    "out",
    "print_wide",
    "store_advice",
    "store_location",
    "with_store",
]

EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_TARGET = 3
EXIT_LISTEN = 4


class OutputFormat(enum.StrEnum):
    """Output of listings."""

    TEXT = "text"
    JSON = "json"


FormatOpt = Annotated[OutputFormat, typer.Option("--format", help="Output format.")]
"""`--format text|json`, which every listing takes."""


def name_values(values: list[str] | None, option: str) -> dict[str, str]:
    """The `NAME=VALUE`s given to a repeatable option (`--env`, `--header`); one with no name or `=` fails."""
    pairs: dict[str, str] = {}
    for value in values or []:
        key, sep, rest = value.partition("=")
        if not sep or not key:
            fail(f"{option} {value!r}: expected NAME=VALUE", EXIT_USAGE)
        pairs[key] = rest
    return pairs


def out() -> Console:
    return Console(soft_wrap=False)


def fail(message: str, code: int) -> NoReturn:
    console = Console(stderr=True)
    for line in message.splitlines() or [""]:
        console.print("[bold red]error:[/] ", end="", highlight=False)
        console.print(line, highlight=False, markup=False, soft_wrap=True)
    raise typer.Exit(code)


WideOpt = Annotated[
    bool, typer.Option("--wide", help="Show every column untruncated, whole ids and timestamps (lines may wrap).")
]
DbOpt = Annotated[
    str | None, typer.Option("--db", help="Database URL; default: HINTGATE_DATABASE_URL, else SQLite in the data dir.")
]


def print_wide(console: Console, renderable: Any, wide: bool) -> None:
    """Print a fitted table; with `--wide`, at whatever width it takes rather than the console's."""
    if wide:
        # Fitted tables fix their own column widths; a wide console just keeps Rich from squeezing them.
        Console(file=console.file, width=100_000, soft_wrap=False).print(renderable)
    else:
        console.print(renderable)


def emit_rows(rows: list[dict[str, Any]], output: OutputFormat, render: Any, wide: bool = False) -> None:
    """Print store rows as JSON (as they are) or as a table for people, fitted to the console unless `wide`."""
    from hintgate.cli.reports import print_json

    console = out()
    if output is OutputFormat.JSON:
        print_json(console, json.dumps(rows, indent=2))
    else:
        print_wide(console, render(rows, width=console.width, wide=wide), wide)


def _data_dir_origin() -> str:
    """Where the data directory's path came from, for messages."""
    if os.environ.get("HINTGATE_DATA_DIR"):
        return "HINTGATE_DATA_DIR"
    return "hintgate's default for this user: set HINTGATE_DATA_DIR to use another"


def data_dir_unusable(settings: Any, exc: OSError) -> str:
    """The message for a data directory that cannot be made or used: what is wrong with which path, what to do."""
    from hintgate.config.permissions import path_problem

    return (
        f"cannot use the data directory {settings.data_dir} ({_data_dir_origin()}): "
        f"{path_problem(settings.data_dir, exc)}. It keeps the API token, the sealing key and, unless --db "
        "gives another database, the recorded calls: point HINTGATE_DATA_DIR at a directory this user may "
        "create or write"
    )


def store_advice(settings: Any, *, serving: bool) -> str:
    """What to do about a database that cannot be used: the options that apply to where it is and the command."""
    ways = ["give another database with --db URL (or HINTGATE_DATABASE_URL)"]
    if settings.database_url is None:
        ways.insert(
            0,
            f"point HINTGATE_DATA_DIR at another directory (the database is hintgate.db in the data directory, "
            f"{settings.data_dir}: {_data_dir_origin()})",
        )
    if serving:
        ways.append("serve without recording with --no-record")
    return "; or ".join(ways)


def store_location(settings: Any, *, serving: bool = False) -> str:
    """The database in use, for people; a SQLite file outside the data dir must have an existing directory."""
    from hintgate.errors import StoreError
    from hintgate.store.engine import database_location

    try:
        return database_location(settings.store_url, default=settings.database_url is None)
    except StoreError as exc:
        fail(f"{exc}: {store_advice(settings, serving=serving)}", EXIT_USAGE)


def with_store(db: str | None, work: Any) -> Any:
    """Open the store read-mostly (no crash recovery: a gateway may be using it), run `work(store)`."""
    from hintgate.config.settings import Settings
    from hintgate.store import Store

    try:
        settings = Settings.from_environ(database_url=db)
    except ConfigError as exc:
        fail(str(exc), EXIT_USAGE)
    url = settings.store_url
    store_location(settings)

    async def run() -> Any:
        store = await Store.open(url, recover=False, replica=settings.replica)
        try:
            return await work(store)
        finally:
            await store.close()

    try:
        return asyncio.run(run())
    except StoreError as exc:
        fail(f"{exc}: {store_advice(settings, serving=False)}", EXIT_TARGET)
    except HintgateError as exc:
        fail(str(exc), EXIT_TARGET)


def load_or_fail(config: Path) -> GatewayConfig:
    from hintgate.config.loading import load_config

    try:
        return load_config(config)
    except ConfigError as exc:
        fail(str(exc), EXIT_USAGE)
