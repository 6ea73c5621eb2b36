"""The one-time, session-bound, expiring state of 2026-07-28 approval questions."""

from __future__ import annotations

import json

import pytest

from hintgate.policy.seals import ApprovalSeals, Carried, RememberedNonces, call_digest

pytestmark = pytest.mark.anyio


async def test_an_answer_is_accepted_once_and_its_replay_is_refused() -> None:
    seals = ApprovalSeals()
    state = seals.mint("s1", timeout=120, now=1000.0)
    assert (await seals.redeem(state, "s1", now=1001.0)).accepted
    replay = await seals.redeem(state, "s1", now=1002.0)
    assert not replay.accepted
    assert "already used" in (replay.refusal or "")


async def test_an_answer_after_the_deadline_is_late_and_refused() -> None:
    seals = ApprovalSeals()
    state = seals.mint("s1", timeout=120, now=1000.0)
    late = await seals.redeem(state, "s1", now=1120.0)
    assert (late.accepted, late.late) == (False, True)


async def test_an_answer_from_another_session_is_refused_and_does_not_use_up_the_question() -> None:
    seals = ApprovalSeals()
    state = seals.mint("s1", timeout=120, now=1000.0)
    assert "another session" in ((await seals.redeem(state, "s2", now=1001.0)).refusal or "")
    assert (await seals.redeem(state, "s1", now=1002.0)).accepted


async def test_each_question_has_its_own_nonce() -> None:
    seals = ApprovalSeals()
    first, second = (seals.mint(None, timeout=60, now=0.0) for _ in range(2))
    assert json.loads(first)["nonce"] != json.loads(second)["nonce"]
    assert (await seals.redeem(first, None, now=1.0)).accepted
    assert (await seals.redeem(second, None, now=1.0)).accepted


async def test_a_state_hintgate_did_not_mint_is_not_taken_for_an_approval() -> None:
    seals = ApprovalSeals()
    for state in (None, "hintgate-approval", "{}", '{"kind": "other"}', "[1]", "{not json"):
        assert not ApprovalSeals.is_ours(state)
        assert not (await seals.redeem(state, None, now=0.0)).accepted


async def test_used_nonces_past_their_deadline_are_forgotten_and_the_record_is_bounded() -> None:
    used = RememberedNonces(remember=3)
    seals = ApprovalSeals(used)
    states = [seals.mint(None, timeout=10, now=0.0) for _ in range(5)]
    for state in states:
        assert (await seals.redeem(state, None, now=1.0)).accepted
    assert len(used._used) == 3
    await seals.redeem(seals.mint(None, timeout=10, now=20.0), None, now=20.0)
    assert len(used._used) == 1


def carried(seals: ApprovalSeals, *, timeout: float = 300, now: float = 1000.0) -> str:
    return seals.carry(
        call=call_digest("tracker_whoami", {"a": 1, "b": 2}),
        session_id="s1",
        person="carol@example.com",
        actor="client",
        via="input-required",
        waited_ms=12.5,
        timeout=timeout,
        now=now,
    )


async def redeem(seals: ApprovalSeals, state: str, **given: object) -> Carried:
    claims: dict[str, object] = {
        "call": call_digest("tracker_whoami", {"b": 2, "a": 1}),
        "session_id": "s1",
        "person": "carol@example.com",
        "now": 1001.0,
    }
    return await seals.redeem_carried(state, **{**claims, **given})  # type: ignore[arg-type]


async def test_a_carried_approval_holds_once_for_its_own_call_and_says_who_gave_it() -> None:
    seals = ApprovalSeals()
    state = carried(seals)
    first = await redeem(seals, state)
    assert (first.accepted, first.actor, first.via, first.waited_ms) == (True, "client", "input-required", 12.5)
    replay = await redeem(seals, state, now=1002.0)
    assert not replay.accepted
    assert "already used" in (replay.refusal or "")


async def test_a_carried_approval_is_refused_for_other_arguments_another_session_or_person_and_stays_unused() -> None:
    seals = ApprovalSeals()
    state = carried(seals)
    for given, why in (
        ({"call": call_digest("tracker_whoami", {"a": 1, "b": 3})}, "another call"),
        ({"call": call_digest("tracker_delete", {"a": 1, "b": 2})}, "another call"),
        ({"session_id": "s2"}, "another session"),
        ({"session_id": None}, "another session"),
        ({"person": "bob@example.com"}, "another person"),
        ({"person": None}, "another person"),
    ):
        refused = await redeem(seals, state, **given)
        assert not refused.accepted
        assert why in (refused.refusal or ""), given
    assert (await redeem(seals, state)).accepted


async def test_a_carried_approval_after_its_deadline_is_refused() -> None:
    seals = ApprovalSeals()
    state = carried(seals, timeout=300, now=1000.0)
    late = await redeem(seals, state, now=1300.0)
    assert not late.accepted
    assert "expired" in (late.refusal or "")


async def test_an_approval_question_and_a_carried_approval_are_never_taken_for_each_other() -> None:
    seals = ApprovalSeals()
    question, approval = seals.mint("s1", timeout=60, now=1000.0), carried(seals)
    assert ApprovalSeals.is_ours(question)
    assert not ApprovalSeals.carries(question)
    assert ApprovalSeals.carries(approval)
    assert not ApprovalSeals.is_ours(approval)
    assert not (await redeem(seals, question)).accepted
    assert not (await seals.redeem(approval, "s1", now=1001.0)).accepted
    altered = json.loads(approval)
    for key, value in (("call", 1), ("session", 2), ("person", ["x"]), ("deadline", "later"), ("nonce", None)):
        assert not ApprovalSeals.carries(json.dumps({**altered, key: value})), key
    for state in (None, "{}", "{not json", "[1]"):
        assert not ApprovalSeals.carries(state)
