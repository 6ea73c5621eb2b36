"""The one-time, session-bound, expiring state of 2026-07-28 approval questions."""

from __future__ import annotations

import json

from hintgate.policy.seals import ApprovalSeals


def test_an_answer_is_accepted_once_and_its_replay_is_refused() -> None:
    seals = ApprovalSeals()
    state = seals.mint("s1", timeout=120, now=1000.0)
    assert seals.redeem(state, "s1", now=1001.0).accepted
    replay = seals.redeem(state, "s1", now=1002.0)
    assert not replay.accepted
    assert "already used" in (replay.refusal or "")


def test_an_answer_after_the_deadline_is_late_and_refused() -> None:
    seals = ApprovalSeals()
    state = seals.mint("s1", timeout=120, now=1000.0)
    late = seals.redeem(state, "s1", now=1120.0)
    assert (late.accepted, late.late) == (False, True)


def test_an_answer_from_another_session_is_refused_and_does_not_use_up_the_question() -> None:
    seals = ApprovalSeals()
    state = seals.mint("s1", timeout=120, now=1000.0)
    assert "another session" in (seals.redeem(state, "s2", now=1001.0).refusal or "")
    assert seals.redeem(state, "s1", now=1002.0).accepted


def test_each_question_has_its_own_nonce() -> None:
    seals = ApprovalSeals()
    first, second = (seals.mint(None, timeout=60, now=0.0) for _ in range(2))
    assert json.loads(first)["nonce"] != json.loads(second)["nonce"]
    assert seals.redeem(first, None, now=1.0).accepted
    assert seals.redeem(second, None, now=1.0).accepted


def test_a_state_hintgate_did_not_mint_is_not_taken_for_an_approval() -> None:
    seals = ApprovalSeals()
    for state in (None, "hintgate-approval", "{}", '{"kind": "other"}', "[1]", "{not json"):
        assert not ApprovalSeals.is_ours(state)
        assert not seals.redeem(state, None, now=0.0).accepted


def test_used_nonces_past_their_deadline_are_forgotten_and_the_record_is_bounded() -> None:
    seals = ApprovalSeals(remember=3)
    states = [seals.mint(None, timeout=10, now=0.0) for _ in range(5)]
    for state in states:
        assert seals.redeem(state, None, now=1.0).accepted
    assert len(seals._used) == 3
    seals.redeem(seals.mint(None, timeout=10, now=20.0), None, now=20.0)
    assert len(seals._used) == 1
