"""How a command fails: its exit codes, its error on stderr, and what to change when the data directory, the
database or the config cannot be used.

Without Typer: `hintgate serve` reads its command line without it when it can (`hintgate.cli.serve_argv`), and
fails the same way either way. `fail` ends the process with its exit code (`SystemExit`), which Typer lets
through as the process's exit status, as it does its own `Exit`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from hintgate.errors import ConfigError

if TYPE_CHECKING:
    from hintgate.config.model import GatewayConfig

__all__ = [
    "EXIT_FINDINGS",
    "EXIT_LISTEN",
    "EXIT_TARGET",
    "EXIT_USAGE",
    "data_dir_unusable",
    "fail",
    "load_or_fail",
    "store_advice",
    "store_location",
]

EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_TARGET = 3
EXIT_LISTEN = 4


def fail(message: str, code: int) -> NoReturn:
    """Say `message` on stderr, each line as an error, and end the command with exit status `code`."""
    from rich.console import Console

    console = Console(stderr=True)
    for line in message.splitlines() or [""]:
        console.print("[bold red]error:[/] ", end="", highlight=False)
        console.print(line, highlight=False, markup=False, soft_wrap=True)
    raise SystemExit(code)


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


def load_or_fail(config: Path) -> GatewayConfig:
    """The config file `config`, loaded and checked; one that cannot be fails the command (exit 2)."""
    from hintgate.config.loading import load_config

    try:
        return load_config(config)
    except ConfigError as exc:
        fail(str(exc), EXIT_USAGE)
