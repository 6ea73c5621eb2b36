"""`hintgate approvals`: list, answer and watch the calls waiting for a person, from a terminal.

The queue is in the store, so these commands work against the same `--db` as
the gateways (stdio or HTTP, one or many replicas): a person running an agent
over stdio approves its writes from a second terminal. With `--url` they go
through a running gateway's REST API instead, as the person whose access
token they send (`--token`, `HINTGATE_TOKEN`): that is how a person answers
where an identity provider names who may (`hintgate.cli.approval_queues`).
Answers are one atomic update in the store, like the dashboard's, so of two
racing answers exactly one wins; the gateway holding the call learns it
within a fraction of a second and runs (or refuses) the call.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.text import Text

from hintgate.cli.approval_queues import EXIT_NOT_FOUND, EXIT_REFUSED, EXIT_SETTLED, GatewayQueue, Queue, StoreQueue
from hintgate.cli.common import (
    EXIT_USAGE,
    DbOpt,
    FormatOpt,
    OutputFormat,
    WideOpt,
    emit_rows,
    fail,
    out,
    spelt_out,
    with_store,
)

__all__ = ["EXIT_NOT_FOUND", "EXIT_REFUSED", "EXIT_SETTLED", "approvals_app"]

_EXITS = (
    "Exit codes: 0 answered; 1 no approval has that id, or the prefix names several; 2 bad usage; "
    "3 the database or the gateway cannot be reached; 5 it was already answered, expired or withdrawn "
    "(the message says which); 6 you may not answer it (not among its approvers, your own call, or the "
    "gateway refused the token)."
)
_WATCH_POLL = 0.5  # seconds between looks for new approvals

approvals_app = typer.Typer(invoke_without_command=True)

UrlOpt = Annotated[
    str | None,
    typer.Option(
        "--url",
        envvar="HINTGATE_URL",
        help="A running gateway's base URL: answer through its REST API, as the person the token names "
        "(default: the database directly, as the machine's user).",
    ),
]
ApprovalIdArg = Annotated[str, typer.Argument(metavar="ID", help="The approval's id, or a unique prefix of it.")]
"""The waiting call that `approve` and `deny` answer."""
TokenOpt = Annotated[
    str | None,
    typer.Option(
        "--token",
        envvar=["HINTGATE_TOKEN", "HINTGATE_API_TOKEN"],
        help="With --url: your access token from the identity provider (or the API token; default: the "
        "one kept in the data directory).",
    ),
]


@dataclass(frozen=True)
class _Where:
    """Which queue a command reads and answers: `--db`, `--url` and `--token`, declared once for all four."""

    db: DbOpt = None
    url: UrlOpt = None
    token: TokenOpt = None

    def under(self, parent: Any) -> _Where:
        """These options, with what they leave out taken from the group's (`approvals --url U approve ID`)."""
        if not isinstance(parent, _Where):
            return self
        return _Where(self.db or parent.db, self.url or parent.url, self.token or parent.token)


def _with_queue(where: _Where, work: Callable[[Queue], Awaitable[Any]]) -> Any:
    """Run `work` on the queue `where` names: the gateway's REST API with --url, else the database."""
    if where.db is not None and where.url is not None:
        if where.url == os.environ.get("HINTGATE_URL"):
            # --db given says which queue, over a URL the environment holds for other commands.
            where = _Where(where.db)
        else:
            both = "give --db (the database, as the machine's user) or --url (a gateway, as a person), not both"
            fail(both, EXIT_USAGE)
    if where.url is None:
        return with_store(where.db, lambda store: work(StoreQueue(store)))
    from hintgate.cli.gateway_api import api_token

    async def through_gateway() -> Any:
        queue = GatewayQueue(where.url or "", api_token(where.token))
        try:
            return await work(queue)
        finally:
            await queue.aclose()

    return asyncio.run(through_gateway())


@approvals_app.callback()
@spelt_out
def approvals(
    ctx: typer.Context,
    output: FormatOpt = OutputFormat.TEXT,
    where: _Where = _Where(),
    wide: WideOpt = False,
) -> None:
    """Calls waiting for a person: list them, approve or deny one, or watch them arrive.

    Without a command, lists the pending approvals of every gateway on the database.

    Answer one with `hintgate approvals approve ID` or `deny ID` (a unique start of the id is enough).

    `hintgate approvals watch` shows them as they arrive and answers each with a key.

    With `--url` (or `HINTGATE_URL`) they go through that gateway's REST API, as the person whose
    access token `--token` (or `HINTGATE_TOKEN`) gives: the gateway checks that the person may answer
    (the approvers a rule or `policy.approvers` names, never their own call) and records who did.
    Without it they read and answer the database, as the machine's user, who may not answer a call
    whose approvers name people.
    """
    if ctx.invoked_subcommand is not None:
        ctx.obj = where  # `hintgate approvals --db URL approve ID` means that database too
        return

    async def listing(queue: Queue) -> list[dict[str, Any]]:
        return await queue.pending()

    rows = _with_queue(where, listing)
    emit_rows(rows, output, approvals_text, wide)


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
    people = any(_person(row) for row in rows)
    if people:  # an identity provider names who called and who may answer
        columns[2:2] = [Column("person", priority=1, cut=True, minimum=12), Column("approvers", priority=2, cut=True)]
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
    if people:
        for row, line in zip(rows, cells, strict=True):
            line[2:2] = [_person(row) or "-", _approvers(row)]
    if not cells:
        return Text("No approvals are waiting.")
    return fit_table(columns, cells, width=width, wide=wide, title="approvals waiting")


def _person(row: dict[str, Any]) -> str | None:
    """Who made the call: the REST API says `caller`, the database `user_name`."""
    found = row.get("caller") or row.get("user_name")
    return str(found) if found else None


def _approvers(row: dict[str, Any]) -> str:
    """Who may answer: the REST API describes them, the database keeps them as JSON."""
    from hintgate.policy.principal import Approvers

    given = row.get("approvers")
    if isinstance(given, str):
        return given
    kept = Approvers.from_json(given)
    return kept.describe() if kept is not None else "-"


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
@spelt_out
def approve(
    ctx: typer.Context,
    approval_id: ApprovalIdArg,
    for_session: Annotated[
        bool,
        typer.Option(
            "--for-session", "--session", help="Approve this tool for the rest of the caller's session, not once."
        ),
    ] = False,
    where: _Where = _Where(),
) -> None:
    """Approve a waiting call: it runs, and its result goes to the caller."""
    from hintgate.policy.approvals import Answer

    answer = Answer.APPROVE_SESSION if for_session else Answer.APPROVE_ONCE
    _answer(approval_id, answer, None, where.under(ctx.obj))


@approvals_app.command("deny", epilog=_EXITS)
@spelt_out
def deny(
    ctx: typer.Context,
    approval_id: ApprovalIdArg,
    reason: Annotated[
        str | None, typer.Option("--reason", help="Why, in words: the caller (the model) is told.")
    ] = None,
    where: _Where = _Where(),
) -> None:
    """Deny a waiting call: it never runs, and the caller is told it was denied."""
    from hintgate.policy.approvals import Answer

    if reason is not None and len(reason) > 1000:
        fail("--reason: at most 1000 characters", EXIT_USAGE)
    _answer(approval_id, Answer.DENY, reason, where.under(ctx.obj))


def _answer(prefix: str, answer: Any, note: str | None, where: _Where) -> None:
    async def work(queue: Queue) -> tuple[int, str]:
        found = await queue.resolve(prefix)
        if isinstance(found, tuple):
            return found
        return await queue.settle(found, answer, note)

    code, message = _with_queue(where, work)
    if code:
        fail(message, code)
    out().print(message, highlight=False, markup=False)


# -- watch ---------------------------------------------------------------------------


@approvals_app.command("watch")
@spelt_out
def watch(
    ctx: typer.Context,
    timeout: Annotated[
        float | None, typer.Option("--timeout", min=0, help="Stop after this many seconds (default: until Ctrl-C).")
    ] = None,
    output: FormatOpt = OutputFormat.TEXT,
    where: _Where = _Where(),
) -> None:
    """Show approvals as they arrive; on a terminal, answer each with a key: a, s or d.

    a approves once, s approves for the session, d denies, any other key leaves it
    for later (or for someone else). Without a terminal (a pipe, a file) it only
    prints them as they arrive; `--format json` prints one JSON object per line.
    """
    keys = sys.stdin.isatty() and sys.stdout.isatty() and output is OutputFormat.TEXT

    async def work(queue: Queue) -> None:
        await _watch(queue, timeout=timeout, output=output, keys=keys)

    with contextlib.suppress(KeyboardInterrupt), _keys_at_once(keys):
        _with_queue(where.under(ctx.obj), work)


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


async def _watch(queue: Queue, *, timeout: float | None, output: OutputFormat, keys: bool) -> None:
    console = out()
    seen: set[str] = set()
    deadline = None if timeout is None else time.monotonic() + timeout
    if output is OutputFormat.TEXT:
        console.print(f"Watching for approvals ({'a/s/d to answer' if keys else 'Ctrl-C to stop'})…", style="dim")
    while deadline is None or time.monotonic() < deadline:
        for row in await queue.pending():
            if row["id"] in seen:
                continue
            seen.add(row["id"])
            if output is OutputFormat.JSON:
                console.print(json.dumps(row), soft_wrap=True, highlight=False, markup=False)
                continue
            console.print(_card(row))
            if keys:
                await _ask_key(queue, console, row)
        sys.stdout.flush()
        await asyncio.sleep(
            _WATCH_POLL if deadline is None else min(_WATCH_POLL, max(0.0, deadline - time.monotonic()))
        )


def _card(row: dict[str, Any]) -> RenderableType:
    from rich.panel import Panel

    from hintgate.policy.approvals import call_does
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
    does = row.get("does") or call_does(row.get("hints"))
    if does:
        lines.append(f"What this call does: {does}\n", style="bold")
    for warning in row.get("warnings") or []:
        lines.append(f"⚠ {warning}\n", style="yellow")
    lines.append(f"Why hintgate asks: {row['reason']}")
    return Panel(lines, title="waiting for approval", title_align="left")


async def _ask_key(queue: Queue, console: Console, row: dict[str, Any]) -> None:
    from hintgate.policy.approvals import Answer

    prompt = "[a] approve once  [s] approve for the session  [d] deny  [any other key] later: "
    console.print(prompt, end="", markup=False, highlight=False)
    key = await asyncio.get_running_loop().run_in_executor(None, _read_key)
    console.print(key if key.isprintable() else "", markup=False, highlight=False)
    answer = {"a": Answer.APPROVE_ONCE, "s": Answer.APPROVE_SESSION, "d": Answer.DENY}.get(key.lower())
    if answer is None:
        console.print("Left for later.", style="dim")
        return
    code, message = await queue.settle(row, answer, None)
    console.print(message, style="red" if code else "green", highlight=False, markup=False)


def _read_key() -> str:
    """One key press from the terminal (in cbreak mode: no Enter needed)."""
    return sys.stdin.read(1)
