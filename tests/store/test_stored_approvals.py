"""The shared approval queue in the store: atomic answers, expiry, restarts, answers made elsewhere."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import anyio
import pytest
import sqlalchemy as sa

from hintgate.errors import HintgateError
from hintgate.policy.approvals import Answer, ApprovalQueue, Ended, Outcome, PendingApproval, Settlement
from hintgate.store import Store

pytestmark = pytest.mark.anyio


def approval(*, expires_in: float = 60.0, tool: str = "fs_write_file") -> PendingApproval:
    now = datetime.now(UTC)
    return PendingApproval(
        id=str(uuid.uuid4()),
        tool=tool,
        title="Write file",
        server="fs",
        arguments={"path": "/tmp/x", "content": "ü"},
        reason="destructive tools ask",
        warnings=["This tool may make destructive changes"],
        session_id=str(uuid.uuid4()),
        client_name="test-client",
        created_at=now,
        expires_at=now + timedelta(seconds=expires_in),
        _future=None,
        call_id="call-1",
        hints={"tier": "destructive"},
        view="writes",
    )


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


async def test_a_pending_approval_is_listed_whole_by_every_store_on_the_database(store: Store, store_url: str) -> None:
    asked = approval()
    await store.approvals.add(asked)
    async with await Store.open(store_url, replica="other", recover=False) as other:
        [listed] = await other.approvals.pending()
    assert (listed.id, listed.tool, listed.server, listed.replica) == (asked.id, "fs_write_file", "fs", "test-replica")
    assert listed.arguments == {"path": "/tmp/x", "content": "ü"}
    assert listed.warnings == ["This tool may make destructive changes"]
    assert listed.hints == {"tier": "destructive"}
    assert listed.view == "writes"
    assert listed.caller_connected is True


async def test_of_two_racing_answers_exactly_one_wins_and_the_other_learns_what_won(
    store: Store, store_url: str
) -> None:
    asked = approval()
    await store.approvals.add(asked)
    async with (
        await Store.open(store_url, replica="a", recover=False) as a,
        await Store.open(store_url, replica="b", recover=False) as b,
    ):
        for _ in range(3):  # warm both pools so the answers really overlap
            await a.approvals.pending()
            await b.approvals.pending()
        with anyio.fail_after(30):
            approved, denied = await asyncio.gather(
                a.approvals.settle(
                    asked.id,
                    Settlement(Ended("approved", "approved", answer=Answer.APPROVE_ONCE, actor="alice"), "api"),
                ),
                b.approvals.settle(
                    asked.id, Settlement(Ended("denied", "denied", answer=Answer.DENY, actor="bob"), "cli")
                ),
            )
    assert approved is not None
    assert denied is not None
    assert [approved.won, denied.won].count(True) == 1
    winner, loser = (approved, denied) if approved.won else (denied, approved)
    assert loser.state == winner.state
    assert loser.actor == winner.actor
    row = await store.approvals.get(asked.id)
    assert row is not None
    assert row["state"] == winner.state
    assert row["answered_by"] == winner.actor
    assert await store.approvals.pending() == []


async def test_an_approval_past_its_expiry_cannot_be_approved_and_is_marked_expired(store: Store) -> None:
    asked = approval(expires_in=-1)
    await store.approvals.add(asked)
    assert await store.approvals.pending() == []
    ended = await store.approvals.settle(
        asked.id, Settlement(Ended("approved", "approved", answer=Answer.APPROVE_ONCE, actor="alice"), "cli")
    )
    assert ended is not None
    assert not ended.won
    assert ended.state == "expired"
    row = await store.approvals.get(asked.id)
    assert row is not None
    assert row["state"] == "expired"
    assert row["answered_via"] == "timeout"


class Statements:
    """The SQL statements a store's engine runs on the approvals table, by their first word."""

    def __init__(self, store: Store) -> None:
        self.seen: list[str] = []
        self._engine = store._engine.sync_engine

    def _heard(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if "approvals" in statement:
            self.seen.append(statement.split(None, 1)[0].upper())

    def __enter__(self) -> list[str]:
        sa.event.listen(self._engine, "before_cursor_execute", self._heard)
        return self.seen

    def __exit__(self, *exc: object) -> None:
        sa.event.remove(self._engine, "before_cursor_execute", self._heard)


async def test_an_answer_reads_once_and_writes_only_what_changes(store: Store) -> None:
    open_, late, expired = approval(), approval(), approval(expires_in=-1)
    for asked in (open_, late, expired):
        await store.approvals.add(asked)
    await store.approvals.settle(late.id, Settlement(Ended("denied", "denied", answer=Answer.DENY, actor="bob"), "api"))
    answers = {}
    for asked in (open_, late, expired):
        with Statements(store) as seen:
            ended = await store.approvals.settle(
                asked.id, Settlement(Ended("approved", "approved", answer=Answer.APPROVE_ONCE, actor="alice"), "api")
            )
        assert ended is not None
        answers[asked.id] = (ended.state, ended.won, seen)
    assert answers[open_.id] == ("approved", True, ["SELECT", "UPDATE"])
    assert answers[late.id] == ("denied", False, ["SELECT"])  # told what won, nothing written
    assert answers[expired.id] == ("expired", False, ["SELECT", "UPDATE"])


async def test_an_unknown_approval_settles_to_nothing(store: Store) -> None:
    assert (
        await store.approvals.settle("nope", Settlement(Ended("denied", "r", answer=Answer.DENY, actor="x"), "api"))
        is None
    )


async def test_reopening_expires_what_this_replica_and_dead_replicas_of_its_host_left_pending(store_url: str) -> None:
    host = socket.gethostname()
    dead = f"{host}:{dead_pid()}"
    mine, theirs, elsewhere = approval(), approval(), approval()
    for replica, asked in ((f"{host}:1-me", mine), (dead, theirs), ("other-host:1", elsewhere)):
        async with await Store.open(store_url, replica=replica, recover=False) as opened:
            await opened.approvals.add(asked)
    async with await Store.open(store_url, replica=f"{host}:1-me") as reopened:
        assert [p.id for p in await reopened.approvals.pending()] == [elsewhere.id]
        for gone in (mine, theirs):
            row = await reopened.approvals.get(gone.id)
            assert row is not None
            assert (row["state"], row["answered_via"]) == ("expired", "restart")
            assert "never ran" in row["end_reason"]


async def test_a_dead_local_replicas_approval_cannot_be_approved(store_url: str) -> None:
    dead = f"{socket.gethostname()}:{dead_pid()}"
    asked = approval()
    async with await Store.open(store_url, replica=dead, recover=False) as gone:
        await gone.approvals.add(asked)
    async with await Store.open(store_url, replica="cli", recover=False) as cli:
        [listed] = await cli.approvals.pending()
        assert listed.caller_connected is False
        ended = await cli.approvals.settle(
            asked.id, Settlement(Ended("approved", "approved", answer=Answer.APPROVE_ONCE, actor="alice"), "cli")
        )
    assert ended is not None
    assert not ended.won
    assert ended.state == "expired"


async def test_a_waiting_call_learns_an_answer_made_by_another_process(store: Store, store_url: str) -> None:
    queue = ApprovalQueue(ledger=store.approvals)
    waiting = _waiting(queue)
    async with await Store.open(store_url, replica="elsewhere", recover=False) as other:
        with anyio.fail_after(30):
            while not (listed := await other.approvals.pending()):
                await asyncio.sleep(0.02)
            [asked] = listed
            ended = await other.approvals.settle(
                asked.id, Settlement(Ended("approved", "approved", answer=Answer.APPROVE_SESSION, actor="alice"), "cli")
            )
            assert ended is not None
            assert ended.won
            outcome = await waiting
    assert outcome.approved
    assert (outcome.answer, outcome.actor) == (Answer.APPROVE_SESSION, "alice")


async def test_a_wait_that_times_out_is_expired_in_the_store_and_a_late_answer_says_so(store: Store) -> None:
    queue = ApprovalQueue(ledger=store.approvals)
    with anyio.fail_after(30):
        outcome = await queue.wait(
            tool="fs_write_file",
            title="Write file",
            server="fs",
            arguments=None,
            reason="asks",
            warnings=[],
            session_id=None,
            client_name=None,
            timeout=0.1,
        )
    assert outcome.timed_out
    assert not outcome.approved
    row = await _only_row(store)
    assert (row["state"], row["answered_via"]) == ("expired", "timeout")
    late = await queue.respond(row["id"], Answer.APPROVE_ONCE, actor="alice", via="api")
    assert late == Ended("expired", "nobody answered within 0.1 s", won=False, answer=None, actor="hintgate")


async def test_a_cancelled_wait_is_withdrawn_in_the_store(store: Store) -> None:
    queue = ApprovalQueue(ledger=store.approvals)
    waiting = _waiting(queue, arguments=None)
    with anyio.fail_after(30):
        while not await store.approvals.pending():
            await asyncio.sleep(0.02)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        while (row := await _only_row(store))["state"] == "pending":
            await asyncio.sleep(0.02)
    assert (row["state"], row["answered_via"]) == ("withdrawn", "caller")


async def test_an_override_change_is_heard_at_once_by_other_replicas_on_postgresql(
    store: Store, store_url: str
) -> None:
    if not store.notifications.available:
        pytest.skip("SQLite has no notifications: replicas poll the overrides version")
    heard = asyncio.Event()
    store.notifications.subscribe("hintgate_overrides", lambda _payload: heard.set())
    with anyio.fail_after(30):
        await store.notifications.listening.wait()
        async with await Store.open(store_url, replica="other", recover=False) as other:
            await other.overrides.set_hint("fs_write_file", "destructiveHint", True)
        await heard.wait()


async def test_settled_approvals_beyond_the_newest_kept_are_pruned(store: Store) -> None:
    from hintgate.store.approvals import prune_settled
    from hintgate.store.queries import begin_write

    asked = [approval() for _ in range(4)]
    for one in asked:
        await store.approvals.add(one)
    for one in asked[:3]:
        await store.approvals.settle(one.id, Settlement(Ended("denied", "no", answer=Answer.DENY, actor="x"), "api"))
    async with begin_write(store._engine) as conn:
        assert await prune_settled(conn, keep=1) == 2
    assert [await store.approvals.get(one.id) is not None for one in asked] == [False, False, True, True]


_ARGUMENTS = {"path": "a"}


def _waiting(queue: ApprovalQueue, arguments: dict[str, Any] | None = _ARGUMENTS) -> asyncio.Future[Outcome]:
    """A call to `fs_write_file` waiting on `queue` for its approval (at most 60 s), as a task of its own."""
    return asyncio.ensure_future(
        queue.wait(
            tool="fs_write_file",
            title="Write file",
            server="fs",
            arguments=arguments,
            reason="asks",
            warnings=[],
            session_id=None,
            client_name=None,
            timeout=60,
        )
    )


async def _only_row(store: Store) -> dict[str, Any]:
    from sqlalchemy import select

    from hintgate.store.approvals import row_json
    from hintgate.store.tables import approvals

    async with store._engine.connect() as conn:
        [row] = [row_json(row) for row in await conn.execute(select(approvals))]
    return row


async def _role_without_grants(store_url: str) -> str:
    """A login role that was granted nothing, on the test's database: the URL to connect as it."""
    import asyncpg

    owner = sa.make_url(store_url)
    role = f"nobody_{uuid.uuid4().hex[:8]}"
    conn = await asyncpg.connect(host=owner.host, port=owner.port, user=owner.username, database=owner.database)
    try:
        await conn.execute(f"CREATE ROLE {role} LOGIN")
    finally:
        await conn.close()
    return owner.set(username=role).render_as_string(hide_password=False)


async def test_a_role_without_grants_cannot_approve_a_call_by_forging_a_notification(
    store: Store, store_url: str
) -> None:
    if not store.notifications.available:
        pytest.skip("SQLite has no notifications")
    import asyncpg

    mallory_url = sa.make_url(await _role_without_grants(store_url))
    queue = ApprovalQueue(ledger=store.approvals)
    waiting = _waiting(queue)
    mallory = await asyncpg.connect(
        host=mallory_url.host, port=mallory_url.port, user=mallory_url.username, database=mallory_url.database
    )
    heard: list[str] = []
    try:
        own = mallory.get_server_pid()

        def hear(_conn: Any, pid: int, _channel: str, payload: str) -> None:
            if pid != own:
                heard.append(payload)

        await mallory.add_listener("hintgate_approvals", hear)
        with anyio.fail_after(30):
            await store.notifications.listening.wait()
            while not (listed := await store.approvals.pending()):
                await asyncio.sleep(0.02)
            [asked] = listed
            with pytest.raises(asyncpg.InsufficientPrivilegeError):
                await mallory.execute("UPDATE approvals SET state = 'approved'")
            forged = {
                "id": asked.id,
                "state": "approved",
                "answer": "approve-once",
                "answered_by": "mallory",
                "answered_via": "api",
                "end_reason": "approved by mallory (api)",
            }
            for _ in range(3):  # a notification is delivered in commit order: before the real answer below
                await mallory.execute("SELECT pg_notify('hintgate_approvals', $1)", json.dumps(forged))
            ended = await store.approvals.settle(
                asked.id, Settlement(Ended("denied", "denied by alice (cli)", answer=Answer.DENY, actor="alice"), "cli")
            )
            assert ended is not None
            assert ended.won
            outcome = await waiting
    finally:
        await mallory.close()
    assert not outcome.approved
    assert (outcome.answer, outcome.actor) == (Answer.DENY, "alice")
    row = await _only_row(store)
    assert (row["state"], row["answered_by"]) == ("denied", "alice")
    # What the gateway itself sends tells a listener nothing: no id, no state, no approver.
    assert asked.id not in "".join(heard)
    assert "alice" not in "".join(heard)


@pytest.mark.parametrize("first", ["answer", "cancel"])
async def test_an_approval_racing_the_calls_cancellation_is_answered_withdrawn_and_stored_withdrawn(
    store: Store, first: str
) -> None:
    queue = ApprovalQueue(ledger=store.approvals)
    waiting = _waiting(queue)
    with anyio.fail_after(30):
        while not (listed := await store.approvals.pending()):
            await asyncio.sleep(0.02)
        [asked] = listed
        if first == "cancel":
            waiting.cancel()
        answering = asyncio.ensure_future(queue.respond(asked.id, Answer.APPROVE_ONCE, actor="alice", via="api"))
        if first == "answer":
            await asyncio.sleep(0)  # the answer starts its write; the cancellation lands while it is in flight
            waiting.cancel()
        ended = await answering
        with pytest.raises(asyncio.CancelledError):
            await waiting
        while queue._background:  # the withdrawal is written in the background
            await asyncio.sleep(0.02)
        row = await _only_row(store)
    assert ended is not None
    assert (ended.state, ended.won) == ("withdrawn", False)
    assert row["state"] == "withdrawn"


class _HeldWriting:
    """A ledger whose `add` holds its caller until `release` is set: after writing the row, or before."""

    def __init__(self, ledger: Any, *, before: bool = False) -> None:
        self._ledger = ledger
        self._before = before
        self.reached = asyncio.Event()
        self.release = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ledger, name)

    async def add(self, approval: PendingApproval) -> None:
        if not self._before:
            await self._ledger.add(approval)
        self.reached.set()
        await self.release.wait()
        if self._before:
            await self._ledger.add(approval)


async def test_a_call_cancelled_while_its_approval_is_being_written_is_withdrawn_and_never_approved(
    store: Store,
) -> None:
    # The row is in the store (an approver can see and answer it) before the waiter hears back from the write.
    ledger = _HeldWriting(store.approvals)
    queue = ApprovalQueue(ledger=ledger)  # type: ignore[arg-type]
    waiting = _waiting(queue)
    with anyio.fail_after(30):
        await ledger.reached.wait()
        [asked] = await store.approvals.pending()
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        ended = await queue.respond(asked.id, Answer.APPROVE_ONCE, actor="alice", via="api")
        while queue._background:  # the withdrawal is written in the background
            await asyncio.sleep(0.02)
        row = await _only_row(store)
    assert ended is not None
    assert (ended.state, ended.won) == ("withdrawn", False)
    assert row["state"] == "withdrawn"
    assert await queue.listing() == []


async def test_an_approval_still_being_written_is_listed_and_an_answer_to_it_waits_for_the_write(
    store: Store,
) -> None:
    # A person opening the queue in that moment sees the call that waits for them, and their answer counts.
    ledger = _HeldWriting(store.approvals, before=True)
    queue = ApprovalQueue(ledger=ledger)  # type: ignore[arg-type]
    waiting = _waiting(queue)
    with anyio.fail_after(30):
        await ledger.reached.wait()
        assert await store.approvals.pending() == []
        [listed] = await queue.listing()
        answering = asyncio.ensure_future(queue.respond(listed.id, Answer.APPROVE_ONCE, actor="alice", via="api"))
        await asyncio.sleep(0)
        assert not answering.done()
        ledger.release.set()
        ended = await answering
        outcome = await waiting
    assert ended is not None
    assert (ended.state, ended.won) == ("approved", True)
    assert (outcome.approved, outcome.actor) == (True, "alice")
    assert await queue.listing() == []


class _RefusingWrites:
    """A ledger that cannot take new approvals (its `add` fails), and reads and settles as the store does."""

    def __init__(self, ledger: Any) -> None:
        self._ledger = ledger

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ledger, name)

    async def add(self, approval: PendingApproval) -> None:
        raise HintgateError("the store refused the write (test)")


async def test_an_approval_the_store_could_not_take_is_listed_and_answered_by_its_own_process(store: Store) -> None:
    # It waits in this process only: hiding it would leave its caller waiting on something nobody can answer.
    queue = ApprovalQueue(ledger=_RefusingWrites(store.approvals))  # type: ignore[arg-type]
    waiting = _waiting(queue)
    with anyio.fail_after(30):
        while not (found := await queue.listing()):
            await asyncio.sleep(0.02)
        [listed] = found
        ended = await queue.respond(listed.id, Answer.APPROVE_ONCE, actor="alice", via="api")
        outcome = await waiting
    assert ended is not None
    assert (ended.state, ended.won) == ("approved", True)
    assert (outcome.approved, outcome.actor) == (True, "alice")
    assert await store.approvals.pending() == []
    assert await queue.listing() == []
