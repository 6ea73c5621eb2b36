"""`hintgate pins`: every tool's pinned definition, kept in the store; list, show, held, accept, block, export, import.

These commands work on the store (`--db`, else `HINTGATE_DATABASE_URL`, else
SQLite in the data directory), with or without a gateway running: a running
gateway on the same database picks a change up within two seconds and tells
its clients the tool list changed. `held` asks a running gateway (`--url`)
what it holds right now, and `accept --url` accepts through it.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Group, RenderableType
from rich.text import Text

from hintgate.cli.common import (
    EXIT_USAGE,
    DbOpt,
    FormatOpt,
    OutputFormat,
    ToolArg,
    WideOpt,
    emit_rows,
    fail,
    out,
    with_store,
)
from hintgate.cli.gateway_api import TokenOpt, call_api
from hintgate.cli.quarantine import held_tools
from hintgate.hints.pins import find_pins

if TYPE_CHECKING:
    from hintgate.hints.pins import Pin

__all__ = ["pins_app"]

pins_app = typer.Typer(
    help="Tool pins: each tool's accepted definition; a changed or flagged tool is held until accepted.",
    no_args_is_help=True,
)
pins_app.command("held")(held_tools)


class FileFormat(enum.StrEnum):
    """Format of `pins export`."""

    YAML = "yaml"
    JSON = "json"


ToolServerOpt = Annotated[str | None, typer.Option("--server", help="Its server (then TOOL may be the server's name).")]
"""`--server` of the commands that name one tool (`show`, `block`)."""
ServerToolsOpt = Annotated[str | None, typer.Option("--server", help="Only this server's tools.")]
"""`--server` of the commands that take many tools (`list`, `export`)."""
ActorOpt = Annotated[str, typer.Option("--by", help="Who decides, recorded with each pin.")]
"""`--by` of the commands that decide on held definitions (`accept`, `block`, `import`)."""


def _rows(pins: Sequence[Pin]) -> list[dict[str, Any]]:
    return [p.to_json() for p in pins]


def _table(rows: Sequence[dict[str, Any]], *, width: int = 80, wide: bool = False) -> RenderableType:
    from hintgate.cli.layout import Column, fit_table, when

    columns = [
        Column("tool"),
        Column("server", priority=1, cut=True),
        Column("state", priority=0),
        Column("sha256", priority=2),
        Column("accepted by", priority=2, cut=True),
        Column("last seen", priority=1),
        Column("reason", priority=3, cut=True),
    ]
    cells: list[list[str | Text]] = [
        [
            str(r["name"]),
            str(r["server"]),
            Text(
                "blocked" if r.get("blocked") else r["state"], style="bold red" if r["state"] == "quarantined" else ""
            ),
            str(r["sha256"]) if wide else str(r["sha256"])[:12],
            str(r["accepted_by"] or ""),
            str(r["last_seen_at"]) if wide else when(r["last_seen_at"]),
            str(r["reason"] or ""),
        ]
        for r in rows
    ]
    return fit_table(columns, cells, width=width, wide=wide, title="tool pins")


@pins_app.command("list")
def pins_list(
    server: ServerToolsOpt = None,
    state: Annotated[
        str | None, typer.Option("--state", help="Only pins in this state: accepted, quarantined or removed.")
    ] = None,
    output: FormatOpt = OutputFormat.TEXT,
    db: DbOpt = None,
    wide: WideOpt = False,
) -> None:
    """Every pinned tool with its state; JSON adds the definitions and the diff of a held change."""
    if state is not None and state not in ("accepted", "quarantined", "removed"):
        fail(f"--state: expected accepted, quarantined or removed, got {state!r}", EXIT_USAGE)
    pins: list[Pin] = with_store(db, lambda store: store.pins.all(server=server))
    chosen = [p for p in pins if state is None or p.state.value == state]
    emit_rows(_rows(chosen), output, _table, wide)


@pins_app.command("show")
def pins_show(
    tool: Annotated[str, typer.Argument(help="The tool's name as the gateway lists it (e.g. github_create_issue).")],
    server: ToolServerOpt = None,
    output: FormatOpt = OutputFormat.TEXT,
    db: DbOpt = None,
) -> None:
    """One pin: state, reason, the diff of a held change against the accepted definition, and its history."""

    async def work(store: Any) -> tuple[list[Pin], list[list[dict[str, Any]]]]:
        found = find_pins(await store.pins.all(server=server), tool, server)
        return found, [await store.pins.history(p.server, p.tool) for p in found]

    found, histories = with_store(db, work)
    if not found:
        fail(f"no pinned tool named {tool!r}{f' on {server!r}' if server else ''} (see hintgate pins list)", EXIT_USAGE)
    console = out()
    if output is OutputFormat.JSON:
        rows = [{**p.to_json(), "history": h} for p, h in zip(found, histories, strict=True)]
        console.print_json(json.dumps(rows))
        return
    parts: list[RenderableType] = []
    for pin, history in zip(found, histories, strict=True):
        parts.append(Text(f"{pin.name} ({pin.server}/{pin.tool}): {pin.state.value}", style="bold"))
        if pin.reason:
            parts.append(Text(f"  {pin.reason}"))
        if pin.blocked is not None:
            why = f": {pin.blocked.reason}" if pin.blocked.reason else ""
            parts.append(Text(f"  kept blocked by {pin.blocked.by} at {pin.blocked.at.isoformat()}{why}"))
        parts.append(Text(f"  sha256 {pin.sha256}  accepted {pin.accepted_sha256 or 'never'}"))
        if pin.diff:
            parts.append(Text(pin.diff))
        for event in history:
            detail = f": {event['detail']}" if event["detail"] else ""
            again = f" (×{event['repeats']}, last at {event['last_at']})" if event.get("repeats", 1) > 1 else ""
            parts.append(Text(f"  {event['at']}  {event['kind']} by {event['actor']}{detail}{again}"))
    console.print(Group(*parts), soft_wrap=True)


@pins_app.command("accept")
def pins_accept(
    tool: ToolArg = None,
    server: Annotated[str | None, typer.Option("--server", help="Every held tool of this server (or TOOL's).")] = None,
    every: Annotated[bool, typer.Option("--all", help="Every held tool.")] = False,
    actor: ActorOpt = "cli",
    db: DbOpt = None,
    url: Annotated[
        str | None,
        typer.Option("--url", help="Accept through the running gateway at this URL (its REST API) instead of --db."),
    ] = None,
    token: TokenOpt = None,
    output: FormatOpt = OutputFormat.TEXT,
) -> None:
    """Accept the definition last seen of a tool (or of the held tools of a server, or of all held tools)."""
    if (tool is not None) + every + (server is not None and tool is None) != 1:
        fail("give one of: TOOL, --server SERVER, --all", EXIT_USAGE)
    if url is not None:
        if db is not None:
            fail("give --db (the store) or --url (a running gateway), not both", EXIT_USAGE)
        body = {"tool": tool, "server": server} if tool is not None else {"server": server} if server else {"all": True}
        done: list[dict[str, Any]] = call_api("POST", url, "/api/pins/accept", token, body, refused="the acceptance")
        if output is OutputFormat.JSON:
            out().print_json(json.dumps(done))
            return
        for row in done:
            out().print(f"accepted {row['name']} ({row['server']}) sha256 {row['sha256'][:16]}", markup=False)
        if not done:
            out().print("nothing to accept: no matching tool is held", markup=False)
        return
    choose: Callable[[Pin], bool]
    review = tool is not None
    if tool is not None:
        known: list[Pin] = with_store(db, lambda store: store.pins.all(server=server))
        found = find_pins(known, tool, server)
        if not found:
            fail(
                f"no pinned tool named {tool!r}{f' on {server!r}' if server else ''} (see hintgate pins list)",
                EXIT_USAGE,
            )
        keys = {p.key for p in found}
        choose = lambda p: p.key in keys  # noqa: E731
    elif server is not None:
        choose = lambda p: p.server == server  # noqa: E731
    else:
        choose = lambda _: True  # noqa: E731
    accepted: list[Pin] = with_store(db, lambda store: store.pins.accept(choose, actor=actor, review=review))
    console = out()
    if not accepted:
        console.print("nothing to accept: no matching tool is held", markup=False)
    for pin in accepted:
        console.print(f"accepted {pin.name} ({pin.server}) sha256 {pin.sha256[:16]}", markup=False, highlight=False)


@pins_app.command("block")
def pins_block(
    tool: Annotated[str, typer.Argument(help="The held tool's name as the gateway lists it.")],
    server: ToolServerOpt = None,
    reason: Annotated[str, typer.Option("--reason", help="Why, recorded in the tool's history.")] = "",
    actor: ActorOpt = "cli",
    db: DbOpt = None,
) -> None:
    """Keep a held tool blocked: it stays held and leaves the review list until its definition changes again."""
    from hintgate.hints.pins import PinState

    known: list[Pin] = with_store(db, lambda store: store.pins.all(server=server))
    found = find_pins(known, tool, server)
    if not found:
        fail(f"no pinned tool named {tool!r}{f' on {server!r}' if server else ''} (see hintgate pins list)", EXIT_USAGE)
    if not any(p.state is PinState.QUARANTINED for p in found):
        fail(f"tool {tool!r} is not held ({found[0].state.value}): nothing to keep blocked", EXIT_USAGE)
    keys = {p.key for p in found}
    blocked: list[Pin] = with_store(
        db, lambda store: store.pins.block(lambda p: p.key in keys, actor=actor, reason=reason.strip())
    )
    for pin in blocked:
        out().print(f"kept blocked {pin.name} ({pin.server}) sha256 {pin.sha256[:16]}", markup=False, highlight=False)


@pins_app.command("export")
def pins_export(
    file: Annotated[Path | None, typer.Argument(help="Where to write; default: standard output.")] = None,
    fmt: Annotated[
        FileFormat | None, typer.Option("--format", help="yaml or json; default: from FILE's suffix.")
    ] = None,
    server: ServerToolsOpt = None,
    db: DbOpt = None,
) -> None:
    """Write the accepted definitions, sorted, for git: a gateway's `integrity.pins` or `pins import` reads it."""
    from hintgate.hints.pinfile import dump_pins

    chosen = fmt or (FileFormat.JSON if file is not None and file.suffix == ".json" else FileFormat.YAML)
    pins: list[Pin] = with_store(db, lambda store: store.pins.all(server=server))
    text = dump_pins(pins, fmt=chosen.value)
    if file is None:
        typer.echo(text, nl=False)
        return
    try:
        file.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {file}: {exc.strerror or exc}", EXIT_USAGE)
    count = sum(1 for p in pins if p.accepted_definition is not None)
    out().print(f"{count} pins written to {file}", markup=False, highlight=False)


@pins_app.command("import")
def pins_import(
    file: Annotated[Path, typer.Argument(help="A pins file (from pins export).")],
    actor: ActorOpt = "",
    db: DbOpt = None,
) -> None:
    """Accept the definitions of a pins file; a tool listed otherwise now stays held until it matches."""
    from hintgate.errors import ConfigError
    from hintgate.hints.pinfile import read_pins_file

    try:
        entries = read_pins_file(file)
    except ConfigError as exc:
        fail(str(exc), EXIT_USAGE)
    who = actor or f"import {file.name}"
    written: list[Pin] = with_store(db, lambda store: store.pins.import_definitions(entries, actor=who))
    out().print(
        f"{len(entries)} pins read from {file}; {len(written)} changed in the store", markup=False, highlight=False
    )
