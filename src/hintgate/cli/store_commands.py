"""Commands that read and edit the store: `sessions`, `calls`, `overrides list|set|clear`, `policy stored|reset`."""

from __future__ import annotations

import asyncio
import dataclasses
import enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from hintgate.cli.common import (
    EXIT_USAGE,
    DbOpt,
    FormatOpt,
    OutputFormat,
    StoreListing,
    WideOpt,
    emit_rows,
    fail,
    load_or_fail,
    out,
    spelt_out,
    with_store,
)
from hintgate.cli.record_names import RecordNames, renamed

if TYPE_CHECKING:
    from hintgate.config.model import GatewayConfig

__all__ = ["calls", "overrides_app", "policy_reset", "policy_stored", "sessions"]

NamesOpt = Annotated[
    RecordNames,
    typer.Option(
        "--names",
        help="Field names of the JSON: hintgate's (every field), or mcpproxy (MCPProxy's records, for people "
        "moving from it).",
    ),
]
RecordedUserOpt = Annotated[
    str | None, typer.Option("--user", help="Only this person's (as recorded: email, api-token).")
]
"""`--user` of `sessions` and `calls`: whose records, by the name they were recorded under."""


@dataclasses.dataclass(frozen=True)
class RecordListing:
    """How `sessions` and `calls` list what the store recorded: format, field names, database, width."""

    output: FormatOpt = OutputFormat.TEXT
    names: NamesOpt = RecordNames.HINTGATE
    db: DbOpt = None
    wide: WideOpt = False

    def emit(self, kind: str, work: Any, render: Any) -> None:
        """Print the rows `work(store)` reads, named as `names` asks (checked before the store opens)."""
        if self.names is not RecordNames.HINTGATE and self.output is not OutputFormat.JSON:
            fail(f"--names {self.names.value} names the fields of JSON: give --format json too", EXIT_USAGE)
        emit_rows(renamed(with_store(self.db, work), self.names, kind), self.output, render, self.wide)


overrides_app = typer.Typer(help="Operator overrides of tool hints, kept in the store.", no_args_is_help=True)


class SessionStatus(enum.StrEnum):
    """A recorded session's status."""

    ACTIVE = "active"
    CLOSED = "closed"


@spelt_out
def sessions(
    limit: Annotated[int, typer.Option("--limit", min=1, help="How many, newest first.")] = 20,
    status: Annotated[
        SessionStatus | None, typer.Option("--status", help="Only active sessions, or only closed ones.")
    ] = None,
    replica: Annotated[
        str | None, typer.Option("--replica", help="Only sessions this replica served (gateways sharing a database).")
    ] = None,
    user: RecordedUserOpt = None,
    *,
    listing: RecordListing,
) -> None:
    """Recent client sessions: client, view, status, start and end, calls, tokens, replica."""
    from hintgate.cli.reports import sessions_text

    wanted = status.value if status is not None else None
    listing.emit(
        "sessions",
        lambda store: store.recent_sessions(limit, status=wanted, replica=replica, user=user),
        sessions_text,
    )


async def _session_id(store: Any, given: str) -> str:
    """The whole id of the one recorded session whose id starts with `given` (a short id as listed)."""
    found = await store.sessions_with_prefix(given, limit=3)
    if not found:
        fail(
            f"--session {given}: no recorded session has an id starting with {given!r} (see `hintgate sessions`)",
            EXIT_USAGE,
        )
    if len(found) > 1 and given not in found:
        shown = ", ".join(found[:2]) + (", ..." if len(found) > 2 else "")
        fail(f"--session {given}: more than one session starts with it ({shown}); give more of the id", EXIT_USAGE)
    return given if given in found else str(found[0])


@spelt_out
def calls(
    session: Annotated[
        str | None,
        typer.Option("--session", help="Only calls of this session, in order (its id, or a unique start of it)."),
    ] = None,
    tool: Annotated[str | None, typer.Option("--tool", help="Only calls of this tool (its gateway name).")] = None,
    server: Annotated[str | None, typer.Option("--server", help="Only calls to this server.")] = None,
    tier: Annotated[str | None, typer.Option("--tier", help="Only calls of tools of this tier.")] = None,
    verdict: Annotated[
        str | None, typer.Option("--verdict", help="allow, deny, approved, denied, expired, withdrawn.")
    ] = None,
    user: RecordedUserOpt = None,
    limit: Annotated[int, typer.Option("--limit", min=1, help="How many.")] = 50,
    *,
    listing: RecordListing,
) -> None:
    """Recorded tool calls with the hints in force and the policy's decision."""
    from hintgate.cli.reports import calls_text
    from hintgate.store import CallFilter

    async def work(store: Any) -> list[dict[str, Any]]:
        session_id = await _session_id(store, session) if session is not None else None
        wanted = CallFilter(session_id=session_id, tool=tool, server=server, tier=tier, verdict=verdict, user=user)
        rows: list[dict[str, Any]] = await store.calls(wanted, limit=limit)
        return rows

    listing.emit("calls", work, calls_text)


@overrides_app.command("list")
@spelt_out
def overrides_list(listing: StoreListing) -> None:
    """The stored overrides, titles as hint `title` (the config file's are shown by `hintgate tools`)."""
    from hintgate.cli.reports import overrides_text

    async def work(store: Any) -> list[dict[str, Any]]:
        titles = [{**row, "hint": "title", "value": row.pop("title")} for row in await store.overrides.titles()]
        return sorted([*await store.overrides.hints(), *titles], key=lambda row: (row["tool"], row["hint"]))

    listing.emit(work, overrides_text)


def _hint_spellings() -> dict[str, str]:
    """What `overrides set` takes for a hint, as the config file does: readOnlyHint, read_only, readOnly..."""
    from hintgate.hints.annotations import Hint

    spellings: dict[str, str] = {}
    for hint in Hint:
        short = hint.value.removesuffix("Hint")
        for spelling in (hint.value, hint.attr, f"{hint.attr}_hint", short):
            spellings[spelling] = hint.value
    return spellings


@overrides_app.command("set")
def overrides_set(
    tool: Annotated[str, typer.Argument(help="The tool's name as the gateway lists it (e.g. fs_write_file).")],
    hints: Annotated[
        list[str],
        typer.Argument(
            help="HINT=true|false pairs, e.g. destructiveHint=true read_only=false (config spellings), "
            'and title="New title".'
        ),
    ],
    db: DbOpt = None,
    config: Annotated[
        Path | None,
        typer.Option("--config", "-c", help="Check TOOL against this config's catalog (starts its servers)."),
    ] = None,
) -> None:
    """Override hints or the title of a tool; a running gateway on the same database applies them within seconds.

    An unknown tool is refused when `--config` is given (the catalog is
    consulted); without it, a tool the store has never seen (no recorded
    call, no override) is set with a warning, since a server may list it later.
    """
    from hintgate.hints.annotations import Hint
    from hintgate.hints.titles import title_problem
    from hintgate.store import CallFilter

    spellings = _hint_spellings()
    parsed: dict[str, bool] = {}
    title: str | None = None
    known = ", ".join(h.value for h in Hint)
    for pair in hints:
        name, sep, value = pair.partition("=")
        if sep and name == "title":
            if problem := title_problem(value):
                fail(f"title: {problem}", EXIT_USAGE)
            title = value
            continue
        if not sep or value.lower() not in ("true", "false"):
            fail(f"{pair!r}: expected HINT=true, HINT=false or title=TEXT (hints: {known})", EXIT_USAGE)
        if name not in spellings:
            fail(f"{name!r} is not a hint (hints: {known}, or their config spellings)", EXIT_USAGE)
        parsed[spellings[name]] = value.lower() == "true"
    if config is not None:
        _check_in_catalog(tool, load_or_fail(config))

    async def work(store: Any) -> bool:
        seen = bool(await store.calls(CallFilter(tool=tool), limit=1)) or any(
            r["tool"] == tool for r in await store.overrides.hints()
        )
        seen = seen or any(r["tool"] == tool for r in await store.overrides.titles())
        for name, value in parsed.items():
            await store.overrides.set_hint(tool, name, value, actor="cli")
        if title is not None:
            await store.overrides.set_title(tool, title, actor="cli")
        return seen

    seen = with_store(db, work)
    if not seen and config is None:
        Console(stderr=True).print(
            f"[yellow]warning:[/] no recorded call or override names {tool!r}: check the name "
            "(`hintgate tools`, or give --config FILE to check it); the override applies once a server lists it",
            highlight=False,
            soft_wrap=True,
        )
    done = [f"{k}={str(v).lower()}" for k, v in parsed.items()] + ([f"title={title!r}"] if title is not None else [])
    out().print(f"set {', '.join(done)} on {tool}", highlight=False)


def _check_in_catalog(tool: str, loaded: GatewayConfig) -> None:
    import difflib

    from hintgate.cli.serve import collect_catalog

    gateway = asyncio.run(collect_catalog(loaded, progress=False))
    names = [entry.name for entry in gateway.tools()]
    if tool in names:
        return
    down = [u.name for u in gateway.servers() if u.status.state.value != "up"]
    if down:
        Console(stderr=True).print(
            f"[yellow]warning:[/] {tool!r} is not in the catalog, but {', '.join(down)} did not start, "
            "so it may be theirs",
            highlight=False,
            soft_wrap=True,
        )
        return
    close = difflib.get_close_matches(tool, names, n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else f" ({len(names)} tools listed)"
    fail(f"{tool!r} is not a tool of this config's catalog{hint}", EXIT_USAGE)


@overrides_app.command("clear")
def overrides_clear(
    tool: Annotated[str, typer.Argument(help="The tool's name as the gateway lists it.")],
    what: Annotated[
        str | None, typer.Argument(help="Only this: a hint, or `title` (default: all of the tool's, title too).")
    ] = None,
    hint: Annotated[str | None, typer.Option("--hint", help="Only this hint (default: all of the tool's).")] = None,
    db: DbOpt = None,
) -> None:
    """Remove stored overrides of a tool: `overrides clear T`, `overrides clear T title`, `--hint readOnlyHint`."""
    if what is not None and hint is not None:
        fail("give the hint either as an argument or as --hint, not both", EXIT_USAGE)
    only = what if what is not None else hint
    if only is not None and only != "title":
        if only not in (spellings := _hint_spellings()):
            fail(f"{only!r} is not a hint or title (hints: {', '.join(sorted(set(spellings.values())))})", EXIT_USAGE)
        only = spellings[only]

    async def work(store: Any) -> int:
        removed = 0
        if only is None or only == "title":
            removed += await store.overrides.clear_title(tool)
        if only != "title":
            removed += await store.overrides.clear_hint(tool, only)
        return removed

    removed = with_store(db, work)
    out().print(f"removed {removed} override(s) of {tool}", highlight=False)


@spelt_out
def policy_stored(listing: StoreListing) -> None:
    """Policy settings changed at run time (dashboard, `PATCH /api/policy`), kept in the store over the config file."""
    from hintgate.cli.layout import Column, fit_table, when

    async def work(store: Any) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = await store.overrides.policy_settings()
        return rows

    def text(rows: list[dict[str, Any]], *, width: int = 80, wide: bool = False) -> Any:
        if not rows:
            return "No policy setting is stored: every one follows the config file."
        columns = [Column("setting"), Column("value"), Column("by", priority=2, cut=True), Column("at", priority=1)]
        cells: list[list[Any]] = [
            [
                str(r["setting"]),
                str(r["value"]).lower() if isinstance(r["value"], bool) else str(r["value"]),
                str(r["updated_by"]),
                when(r["updated_at"]),
            ]
            for r in rows
        ]
        return fit_table(columns, cells, width=width, wide=wide, title="policy settings kept in the store")

    listing.emit(work, text)


def policy_reset(
    settings: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[SETTING]...",
            help="Key paths (`mode`, `preferences.autoApproveReadOnly`); every stored one when none is given.",
        ),
    ] = None,
    db: DbOpt = None,
) -> None:
    """Put policy settings changed at run time back to the config file's values; running gateways follow."""
    from hintgate.policy.settings import POLICY_SETTINGS

    known = [row.path for row in POLICY_SETTINGS]
    for setting in settings or ():
        if setting not in known:
            fail(f"{setting!r} is not a policy setting (one of {', '.join(known)})", EXIT_USAGE)

    async def work(store: Any) -> int:
        removed: int = await store.overrides.clear_policy_settings(settings or None)
        return removed

    removed = with_store(db, work)
    said = "every stored setting" if not settings else ", ".join(settings)
    out().print(f"reset {removed} policy setting(s) ({said}): the config file's values apply again", highlight=False)
