"""Asking: a call the policy asks about waits for a person's answer, which the session remembers; no answer in
time, or nobody to answer, is a denial that says why."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import Any

import anyio
import pytest
from tests.pipeline.kit import OneSession, Policy, decided, entry_of, notes, request

from hintgate.outcome import CallAttempt
from hintgate.pipeline.asking import Asking
from hintgate.pipeline.call_policy import CallPolicy
from hintgate.policy.approvals import Answer, ApprovalQueue, Outcome
from hintgate.policy.rules import PolicySettings, Verdict
from hintgate.policy.seals import ApprovalSeals

pytestmark = pytest.mark.anyio


class Desk:
    """Where calls wait: a queue nobody serves unless a test says so."""

    def __init__(self) -> None:
        self.approvals = ApprovalQueue()
        self.seals = ApprovalSeals()
        self.approvals_url: str | None = None
        self.approvals_command: str | None = None


class Client:
    """A client that answers an elicitation as told (or never, when `answer` is None)."""

    def __init__(self, answer: str | None) -> None:
        self.answer = answer
        self.asked: list[str] = []

    async def client_request(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        self.asked.append((params or {}).get("message", ""))
        if self.answer is None:
            await asyncio.Event().wait()
        return {"action": "accept", "content": {"decision": self.answer}}

    async def progress(self, progress: float, total: float | None, message: str | None) -> None:
        return


def _asking(settings: PolicySettings, client: Client | None = None, desk: Desk | None = None) -> Asking:
    policy = CallPolicy(Policy(settings))
    return Asking(desk or Desk(), policy, frozenset(), lambda ctx: client, None)  # type: ignore[arg-type,return-value]


def _attempt(call: Any) -> CallAttempt:
    return CallAttempt(call.decision, time.perf_counter(), datetime.now(UTC))


async def test_a_client_that_approves_for_the_session_is_asked_once_and_the_session_remembers_it() -> None:
    session = OneSession().session
    call = decided(entry_of(notes(), "write_note"), {"text": "x"}, session, Verdict.ASK, ctx=request(elicits=True))
    client = Client("approve-session")
    attempt = _attempt(call)
    with anyio.fail_after(10):
        answered = await _asking(PolicySettings(), client).ask(call, attempt, {})
    assert isinstance(answered, Outcome)
    assert answered.answer is Answer.APPROVE_SESSION
    assert (attempt.asked_via, attempt.actor, attempt.approval) == ("elicitation", "client", "session")
    assert "notes_write_note" in client.asked[0]
    assert "notes_write_note" in session.policy.approved_for_session


async def test_a_client_that_does_not_answer_in_time_expires_the_call_and_says_no_one_answered() -> None:
    session = OneSession().session
    call = decided(entry_of(notes(), "write_note"), {"text": "x"}, session, Verdict.ASK, ctx=request(elicits=True))
    stage = _asking(PolicySettings(approval_timeout=0.05), Client(None))
    attempt = _attempt(call)
    with anyio.fail_after(10):
        answered = await stage.ask(call, attempt, {})
    assert isinstance(answered, Outcome)
    assert answered.timed_out
    assert attempt.approval == "expired"
    said = stage.denial(call.entry, attempt, answered)
    assert "it expired: no one answered in 0.05 s, so it did not run" in said
    assert "denied" not in said
    assert session.policy.approved_for_session == set()


async def test_a_call_nobody_could_answer_is_denied_at_once_when_the_policy_says_deny_unattended() -> None:
    session = OneSession().session
    call = decided(entry_of(notes(), "write_note"), {"text": "x"}, session, Verdict.ASK, ctx=request())
    attempt = _attempt(call)
    with anyio.fail_after(10):
        answered = await _asking(PolicySettings(ask_via="deny-unattended")).ask(call, attempt, {})
    assert isinstance(answered, Outcome)
    assert answered.answer is Answer.DENY
    assert (attempt.actor, attempt.approval) == ("unattended", "denied")


async def test_a_call_a_client_cannot_be_asked_about_waits_in_the_queue_until_a_person_answers() -> None:
    session = OneSession().session
    call = decided(entry_of(notes(), "write_note"), {"text": "x"}, session, Verdict.ASK, ctx=request())
    desk = Desk()
    desk.approvals_url = "http://127.0.0.1:1/approvals"
    stage = _asking(PolicySettings(), Client(None), desk)
    attempt = _attempt(call)
    with anyio.fail_after(10):
        asking = asyncio.ensure_future(stage.ask(call, attempt, {}))
        while not (waiting := await desk.approvals.listing()):
            await asyncio.sleep(0.01)
        [pending] = waiting
        assert pending.tool == "notes_write_note"
        await desk.approvals.respond(pending.id, Answer.APPROVE_ONCE, actor="admin", via="api")
        answered = await asking
    assert answered.answer is Answer.APPROVE_ONCE  # type: ignore[union-attr]
    assert (attempt.asked_via, attempt.actor, attempt.approval) == ("queue", "admin", "once")
    assert "notes_write_note" in session.policy.approved_once
