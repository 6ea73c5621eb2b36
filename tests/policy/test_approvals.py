from __future__ import annotations

import asyncio

import anyio
import pytest

from hintgate.policy.approvals import Answer, ApprovalQueue

pytestmark = pytest.mark.anyio


def wait_kwargs(timeout: float) -> dict[str, object]:
    return {
        "tool": "fs_write_file",
        "title": "Write file",
        "server": "fs",
        "arguments": {"path": "a.txt"},
        "reason": "Tools that write ask first.",
        "warnings": ["This tool may make destructive changes"],
        "session_id": "s1",
        "client_name": "test",
        "timeout": timeout,
    }


async def test_an_answer_releases_the_waiting_call() -> None:
    queue = ApprovalQueue()
    with anyio.fail_after(5):
        waiting = asyncio.ensure_future(queue.wait(**wait_kwargs(30)))  # type: ignore[arg-type]
        while not queue.pending():
            await asyncio.sleep(0)
        [pending] = queue.pending()
        assert pending.tool == "fs_write_file"
        assert queue.answer(pending.id, Answer.APPROVE_SESSION, actor="api")
        outcome = await waiting
    assert outcome.approved
    assert outcome.answer is Answer.APPROVE_SESSION
    assert outcome.actor == "api"
    assert not queue.pending()


async def test_no_answer_in_time_is_a_deny() -> None:
    queue = ApprovalQueue()
    with anyio.fail_after(5):
        outcome = await queue.wait(**wait_kwargs(0.05))  # type: ignore[arg-type]
    assert not outcome.approved
    assert outcome.timed_out
    assert outcome.actor == "timeout"
    assert len(queue) == 0


async def test_answering_twice_or_unknown_ids_is_refused() -> None:
    queue = ApprovalQueue()
    changes: list[int] = []
    queue = ApprovalQueue(on_change=lambda: changes.append(len(queue)))
    with anyio.fail_after(5):
        waiting = asyncio.ensure_future(queue.wait(**wait_kwargs(30)))  # type: ignore[arg-type]
        while not queue.pending():
            await asyncio.sleep(0)
        approval_id = queue.pending()[0].id
        assert queue.answer(approval_id, Answer.DENY, actor="dashboard")
        assert not queue.answer(approval_id, Answer.APPROVE_ONCE, actor="dashboard")
        assert not queue.answer("nope", Answer.DENY, actor="dashboard")
        outcome = await waiting
    assert not outcome.approved
    assert changes == [1, 0]
