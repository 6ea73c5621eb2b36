"""What every command shares: exit codes and errors (`hintgate.cli.failing`), output formats, fitted tables, the
store.

Commands live in `hintgate.cli.app` and its siblings; this module holds what
they have in common so none of them imports another.
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import functools
import inspect
import json
import typing
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.console import Console

from hintgate.cli.failing import (
    EXIT_FINDINGS,
    EXIT_TARGET,
    EXIT_USAGE,
    fail,
    load_or_fail,
    store_advice,
    store_location,
)
from hintgate.errors import ConfigError, HintgateError, StoreError

__all__ = [
    "EXIT_FINDINGS",
    "EXIT_TARGET",
    "EXIT_USAGE",
    "GATEWAY_CONFIG",
    "DbOpt",
    "FormatOpt",
    "OutputFormat",
    "StoreListing",
    "ToolArg",
    "WideOpt",
    "command_line",
    "emit_rows",
    "fail",
    "load_or_fail",
    "name_values",
    "out",
    "print_wide",
    "spelt_out",
    "store_advice",
    "store_location",
    "unwrapped_help",
    "with_store",
]


class OutputFormat(enum.StrEnum):
    """Output of listings."""

    TEXT = "text"
    JSON = "json"


FormatOpt = Annotated[OutputFormat, typer.Option("--format", help="Output format.")]
"""`--format text|json`, which every listing takes."""
GATEWAY_CONFIG = typer.Option("--config", "-c", help="The gateway config file (YAML or JSON).")
"""`--config`/`-c` of the commands that read the gateway's config (`serve`, `tools`, `policy explain`,
`auth login`/`status`): optional where `--demo` or the default config may stand in, required where not."""
ToolArg = Annotated[str | None, typer.Argument(help="The tool's name as the gateway lists it.")]
"""The tool a command acts on, when it may be left out (`call` lists the tools, `pins accept` takes `--server`)."""


def name_values(values: list[str] | None, option: str) -> dict[str, str]:
    """The `NAME=VALUE`s given to a repeatable option (`--env`, `--header`); one with no name or `=` fails."""
    pairs: dict[str, str] = {}
    for value in values or []:
        key, sep, rest = value.partition("=")
        if not sep or not key:
            fail(f"{option} {value!r}: expected NAME=VALUE", EXIT_USAGE)
        pairs[key] = rest
    return pairs


def spelt_out(command: Callable[..., None]) -> Callable[..., None]:
    """`command` with the fields of each dataclass it takes as command-line parameters where that parameter stands.

    Typer reads a command's options from its signature; this one is `command`'s with every parameter typed
    as a dataclass (a group of options several commands share, each field declared as a Typer option)
    replaced by that dataclass's fields, and the values given are handed to `command` as one value of it.
    """
    own_types = typing.get_type_hints(command, include_extras=True)
    groups: dict[str, tuple[type[Any], tuple[str, ...]]] = {}
    parameters: list[inspect.Parameter] = []
    for parameter in inspect.signature(command).parameters.values():
        group = own_types[parameter.name]
        if not (isinstance(group, type) and dataclasses.is_dataclass(group)):
            parameters.append(parameter.replace(annotation=group))
            continue
        field_types = typing.get_type_hints(group, include_extras=True)
        fields = dataclasses.fields(group)
        groups[parameter.name] = (group, tuple(field.name for field in fields))
        for field in fields:
            kind, annotation = inspect.Parameter.POSITIONAL_OR_KEYWORD, field_types[field.name]
            parameters.append(inspect.Parameter(field.name, kind, default=field.default, annotation=annotation))

    @functools.wraps(command)
    def given(**values: Any) -> None:
        for name, (group, names) in groups.items():
            values[name] = group(**{field: values.pop(field) for field in names})
        command(**values)

    given.__signature__ = inspect.Signature(parameters, return_annotation=None)  # type: ignore[attr-defined]
    given.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters}
    return given


def out() -> Console:
    return Console(soft_wrap=False)


def command_line() -> typer.Typer:
    """A `hintgate` command line without its commands: its help, its settings and its `--version` option."""
    app = typer.Typer(
        name="hintgate",
        help="An MCP gateway that makes tool annotations complete, explainable and enforced.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    app.callback()(_options)
    return app


def unwrapped_help(app: typer.Typer) -> typer.Typer:
    """Give every command and group of `app` its docstring as help with each paragraph on one line.

    Typer keeps a docstring's line breaks after its first paragraph, so a paragraph written over
    several source lines printed ragged on a terminal narrower than the source; one line per
    paragraph lets the help wrap to the terminal's width. Help given explicitly is left alone.
    """
    # Typer marks help not given as None on a command and as a DefaultPlaceholder on a group's callback.
    for command in app.registered_commands:
        if command.help is None and command.callback is not None:
            command.help = _paragraphs(inspect.getdoc(command.callback) or "")
    group = app.registered_callback
    if group is not None and not isinstance(group.help, str) and group.callback is not None:
        group.help = _paragraphs(inspect.getdoc(group.callback) or "")
    for sub in app.registered_groups:
        if sub.typer_instance is not None:
            unwrapped_help(sub.typer_instance)
    return app


def _paragraphs(text: str) -> str:
    return "\n\n".join(" ".join(line.strip() for line in para.splitlines()) for para in text.split("\n\n"))


def _print_version(given: bool) -> None:
    if given:
        from hintgate import __version__

        out().print(f"hintgate {__version__}", highlight=False)
        raise typer.Exit()


def _options(
    version: Annotated[
        bool,
        typer.Option("--version", help="Print the version and exit.", callback=_print_version, is_eager=True),
    ] = False,
) -> None:
    """An MCP gateway that makes tool annotations complete, explainable and enforced."""


WideOpt = Annotated[
    bool, typer.Option("--wide", help="Show every column untruncated, whole ids and timestamps (lines may wrap).")
]
DbOpt = Annotated[
    str | None, typer.Option("--db", help="Database URL; default: HINTGATE_DATABASE_URL, else SQLite in the data dir.")
]


def print_wide(console: Console, renderable: Any, wide: bool) -> None:
    """Print a fitted table; with `--wide`, at whatever width it takes rather than the console's; no line ends in
    spaces (a wrapped note or a padded title would otherwise)."""
    from hintgate.cli.layout import Trimmed

    if wide:
        # Fitted tables fix their own column widths; a wide console just keeps Rich from squeezing them.
        Console(file=console.file, width=100_000, soft_wrap=False).print(Trimmed(renderable))
    else:
        console.print(Trimmed(renderable))


def emit_rows(rows: list[dict[str, Any]], output: OutputFormat, render: Any, wide: bool = False) -> None:
    """Print store rows as JSON (as they are) or as a table for people, fitted to the console unless `wide`."""
    from hintgate.cli.reports import print_json

    console = out()
    if output is OutputFormat.JSON:
        print_json(console, json.dumps(rows, indent=2))
    else:
        print_wide(console, render(rows, width=console.width, wide=wide), wide)


def with_store(db: str | None, work: Any) -> Any:
    """Open the store read-mostly (no crash recovery: a gateway may be using it), run `work(store)`."""
    from hintgate.config.settings import Settings
    from hintgate.store import RecordingSettings, Store

    try:
        settings = Settings.from_environ(database_url=db)
    except ConfigError as exc:
        fail(str(exc), EXIT_USAGE)
    url = settings.store_url
    store_location(settings)

    async def run() -> Any:
        store = await Store.open(
            url, RecordingSettings.from_settings(settings), recover=False, replica=settings.replica
        )
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


@dataclasses.dataclass(frozen=True)
class StoreListing:
    """What a listing of the store takes (`--format`, `--db`, `--wide`), as one value (`spelt_out`)."""

    output: FormatOpt = OutputFormat.TEXT
    db: DbOpt = None
    wide: WideOpt = False

    def emit(self, work: Any, render: Any) -> None:
        """Print the rows `work(store)` reads from the store `db` names (`with_store`, `emit_rows`)."""
        emit_rows(with_store(self.db, work), self.output, render, self.wide)
