"""`hintgate approvals`: list, answer and watch the calls waiting for a person, from a terminal.

The queue is in the store, so these commands work against the same `--db` as
the gateways (stdio or HTTP, one or many replicas): a person running an agent
over stdio approves its writes from a second terminal. Answers go through the
store like the dashboard's: one atomic update, so of two racing answers
exactly one wins; the gateway holding the call learns it within a fraction of
a second and runs (or refuses) the call.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import json
import sys
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.text import Text

from hintgate.cli.common import EXIT_USAGE, DbOpt, OutputFormat, WideOpt, emit_rows, fail, out, with_store

__all__ = ["EXIT_NOT_FOUND", "EXIT_SETTLED", "approvals_app"]

EXIT_NOT_FOUND = 1
"""No approval has that id (or prefix), or the prefix names several."""
EXIT_SETTLED = 5
"""The approval was already answered, expired or withdrawn: this answer changed nothing."""

_EXITS = (
    "Exit codes: 0 answered; 1 no approval has that id, or the prefix names several; 2 bad usage; "
    "3 the database cannot be reached; 5 it was already answered, expired or withdrawn (the message says which)."
)
_WATCH_POLL = 0.5  # seconds between looks for new approvals

approvals_app = typer.Typer(invoke_without_command=True)

FormatOpt = Annotated[OutputFormat, typer.Option("--format", help="Output format.")]


@approvals_app.callback()
def approvals(
    ctx: typer.Context,
    output: FormatOpt = OutputFormat.TEXT,
    db: DbOpt = None,
    wide: WideOpt = False,
) -> None:
    """Calls waiting for a person: list them, approve or deny one, or watch them arrive.

    Without a command, lists the pending approvals of every gateway on the database.

    Answer one with `hintgate approvals approve ID` or `deny ID` (a unique start of the id is enough).

    `hintgate approvals watch` shows them as they arrive and answers each with a key.
    """
    if ctx.invoked_subcommand is not None:
        ctx.obj = db  # `hintgate approvals --db URL approve ID` means that database too
        return
    rows = with_store(db, _pending)
    emit_rows(rows, output, approvals_text, wide)


async def _pending(store: Any) -> list[dict[str, Any]]:
    from hintgate.store.approvals import dead_here

    rows: list[dict[str, Any]] = await store.approvals.pending_rows()
    for row in rows:
        row["caller_connected"] = not dead_here(row["replica"])
    return rows


def approvals_text(rows: Sequence[dict[str, Any]], *, width: int = 80, wide: bool = False) -> RenderableType:
    """Pending approvals for people: short id, tool, its arguments (shortened), why it asks, when it expires."""
    from hintgate.cli.layout import Column, fit_table, short_arguments, short_id, when

    columns = [
        Column("id"),
        Column("tool", cut=True, minimum=12),
        Column("arguments", priority=1, cut=True, minimum=26),
        # The reason wraps between words rather than lose its end: that is where it names the fix.
        Column("why", priority=2, cut=True, wrap=True, minimum=24),
        Column("session", priority=6),
        Column("asked", priority=5),
        Column("expires", priority=3),
        Column("caller", priority=4),
    ]
    now = datetime.now(UTC)
    cells: list[list[str | Text]] = [
        [
            str(row["id"]) if wide else short_id(row["id"]),
            str(row["tool"]),
            short_arguments(row.get("arguments"), value_width=200 if wide else 20, sep="\n"),
            str(row.get("reason") or ""),
            (str(row["session_id"]) if wide else short_id(row["session_id"])) if row.get("session_id") else "-",
            when(row.get("asked_at"), now=now),
            _expires_in(row.get("expires_at"), now),
            "connected" if row.get("caller_connected", True) else Text("gone", style="red"),
        ]
        for row in rows
    ]
    if not cells:
        return Text("No approvals are waiting.")
    return fit_table(columns, cells, width=width, wide=wide, title="approvals waiting")


def _expires_in(value: Any, now: datetime) -> str:
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        return str(value or "")
    seconds = (moment - now).total_seconds()
    if seconds <= 0:
        return "now"
    return f"in {seconds:.0f} s" if seconds < 120 else f"in {seconds / 60:.0f} min"


@approvals_app.command("approve", epilog=_EXITS)
def approve(
    ctx: typer.Context,
    approval_id: Annotated[str, typer.Argument(metavar="ID", help="The approval's id, or a unique prefix of it.")],
    for_session: Annotated[
        bool,
        typer.Option(
            "--for-session", "--session", help="Approve this tool for the rest of the caller's session, not once."
        ),
    ] = False,
    db: DbOpt = None,
) -> None:
    """Approve a waiting call: it runs, and its result goes to the caller."""
    from hintgate.policy.approvals import Answer

    _answer(approval_id, Answer.APPROVE_SESSION if for_session else Answer.APPROVE_ONCE, None, db or ctx.obj)


@approvals_app.command("deny", epilog=_EXITS)
def deny(
    ctx: typer.Context,
    approval_id: Annotated[str, typer.Argument(metavar="ID", help="The approval's id, or a unique prefix of it.")],
    reason: Annotated[
        str | None, typer.Option("--reason", help="Why, in words: the caller (the model) is told.")
    ] = None,
    db: DbOpt = None,
) -> None:
    """Deny a waiting call: it never runs, and the caller is told it was denied."""
    from hintgate.policy.approvals import Answer

    if reason is not None and len(reason) > 1000:
        fail("--reason: at most 1000 characters", EXIT_USAGE)
    _answer(approval_id, Answer.DENY, reason, db or ctx.obj)


def _answer(prefix: str, answer: Any, note: str | None, db: str | None) -> None:
    async def work(store: Any) -> tuple[int, str]:
        found = await _resolve(store, prefix)
        if isinstance(found, tuple):
            return found
        return await _settle(store, found, answer, note)

    code, message = with_store(db, work)
    if code:
        fail(message, code)
    out().print(message, highlight=False, markup=False)


async def _resolve(store: Any, prefix: str) -> dict[str, Any] | tuple[int, str]:
    """The one approval `prefix` names, or (exit code, message)."""
    matches: list[dict[str, Any]] = await store.approvals.find(prefix)
    exact = [m for m in matches if m["id"] == prefix.strip()]
    pending = [m for m in matches if m["state"] == "pending"]
    chosen = exact or pending or matches
    if not chosen:
        return EXIT_NOT_FOUND, f"no approval has an id starting with {prefix!r}: `hintgate approvals` lists them"
    if len(chosen) > 1:
        names = ", ".join(f"{m['id']} ({m['tool']}, {m['state']})" for m in chosen)
        return EXIT_NOT_FOUND, f"{prefix!r} names several approvals: {names}; give more of the id"
    return chosen[0]


async def _settle(store: Any, row: dict[str, Any], answer: Any, note: str | None) -> tuple[int, str]:
    from hintgate.policy.approvals import Answer, answered_reason

    state = "denied" if answer is Answer.DENY else "approved"
    actor = _user()
    ended = await store.approvals.settle(
        row["id"],
        state,
        answer=answer,
        actor=actor,
        via="cli",
        reason=answered_reason(state, actor, "cli", note),
        note=note,
    )
    what = f"{row['tool']} ({row['id'][:8]})"
    if ended is None:
        return EXIT_NOT_FOUND, f"approval {row['id']} is gone (pruned)"
    if not ended.won:
        return EXIT_SETTLED, f"{what} was already {ended.state}: {ended.reason}"
    how = {Answer.APPROVE_ONCE: "approved once", Answer.APPROVE_SESSION: "approved for the session"}
    return 0, f"{what}: {how.get(answer, 'denied')}"


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (a container)
        return "cli"


# -- watch ---------------------------------------------------------------------------


@approvals_app.command("watch")
def watch(
    ctx: typer.Context,
    timeout: Annotated[
        float | None, typer.Option("--timeout", min=0, help="Stop after this many seconds (default: until Ctrl-C).")
    ] = None,
    output: FormatOpt = OutputFormat.TEXT,
    db: DbOpt = None,
) -> None:
    """Show approvals as they arrive; on a terminal, answer each with a key: a, s or d.

    a approves once, s approves for the session, d denies, any other key leaves it
    for later (or for someone else). Without a terminal (a pipe, a file) it only
    prints them as they arrive; `--format json` prints one JSON object per line.
    """
    keys = sys.stdin.isatty() and sys.stdout.isatty() and output is OutputFormat.TEXT

    async def work(store: Any) -> None:
        await _watch(store, timeout=timeout, output=output, keys=keys)

    with contextlib.suppress(KeyboardInterrupt), _keys_at_once(keys):
        with_store(db or ctx.obj, work)


@contextlib.contextmanager
def _keys_at_once(on: bool) -> Iterator[None]:
    """Put the terminal in cbreak mode for the whole watch: a key typed at any moment is read, not flushed."""
    if not on:
        yield
        return
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd, termios.TCSANOW)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


async def _watch(store: Any, *, timeout: float | None, output: OutputFormat, keys: bool) -> None:
    console = out()
    seen: set[str] = set()
    deadline = None if timeout is None else time.monotonic() + timeout
    if output is OutputFormat.TEXT:
        console.print(f"Watching for approvals ({'a/s/d to answer' if keys else 'Ctrl-C to stop'})…", style="dim")
    while deadline is None or time.monotonic() < deadline:
        for row in await _pending(store):
            if row["id"] in seen:
                continue
            seen.add(row["id"])
            if output is OutputFormat.JSON:
                console.print(json.dumps(row), soft_wrap=True, highlight=False, markup=False)
                continue
            console.print(_card(row))
            if keys:
                await _ask_key(store, console, row)
        sys.stdout.flush()
        await asyncio.sleep(
            _WATCH_POLL if deadline is None else min(_WATCH_POLL, max(0.0, deadline - time.monotonic()))
        )


def _card(row: dict[str, Any]) -> RenderableType:
    from rich.panel import Panel

    from hintgate.policy.asking import arguments_text, title_phrase

    now = datetime.now(UTC)
    lines = Text()
    lines.append(f"{row['tool']}", style="bold")
    lines.append(f" on server {row['server']}   id {row['id']}\n")
    lines.append(f"Title: {title_phrase(row.get('title') or row['tool'], row.get('title_origin') or 'declared')}\n")
    session = row.get("session_id") or "-"
    lines.append(f"Session {session} ({row.get('client_name') or 'unknown client'}), ")
    lines.append(f"expires {_expires_in(row.get('expires_at'), now)}\n")
    lines.append(f"Arguments:\n{arguments_text(row.get('arguments'))}\n")
    for warning in row.get("warnings") or []:
        lines.append(f"⚠ {warning}\n", style="yellow")
    lines.append(f"Why hintgate asks: {row['reason']}")
    return Panel(lines, title="waiting for approval", title_align="left")


async def _ask_key(store: Any, console: Console, row: dict[str, Any]) -> None:
    from hintgate.policy.approvals import Answer

    prompt = "[a] approve once  [s] approve for the session  [d] deny  [any other key] later: "
    console.print(prompt, end="", markup=False, highlight=False)
    key = await asyncio.get_running_loop().run_in_executor(None, _read_key)
    console.print(key if key.isprintable() else "", markup=False, highlight=False)
    answer = {"a": Answer.APPROVE_ONCE, "s": Answer.APPROVE_SESSION, "d": Answer.DENY}.get(key.lower())
    if answer is None:
        console.print("Left for later.", style="dim")
        return
    code, message = await _settle(store, row, answer, None)
    console.print(message, style="red" if code else "green", highlight=False, markup=False)


def _read_key() -> str:
    """One key press from the terminal (in cbreak mode: no Enter needed)."""
    return sys.stdin.read(1)
