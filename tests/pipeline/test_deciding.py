"""The first stage: a call decided, as one value, and when a decision taken ahead still stands."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tests.pipeline.kit import OneSession, Policy, entry_of, notes, request

from hintgate.hints.calls import HEAVY
from hintgate.outcome import NO_TRACER
from hintgate.pipeline.call_policy import CallPolicy
from hintgate.pipeline.deciding import Deciding
from hintgate.policy.decide import DecisionSource
from hintgate.policy.in_force import PolicyInForce
from hintgate.policy.own_places import OwnPlaces
from hintgate.policy.rules import Mode, PolicySettings, Verdict
from hintgate.sources.base import CallContext

pytestmark = pytest.mark.anyio


def _no_client(ctx: Any) -> CallContext:
    raise AssertionError("deciding these calls asks no client anything")


def deciding(policy: Policy, sessions: OneSession | None = None, modern: frozenset[str] = frozenset()) -> Deciding:
    source = notes()
    sessions = sessions or OneSession()
    return Deciding({source.name: source}, sessions, CallPolicy(policy), OwnPlaces, modern, _no_client, NO_TRACER)


async def test_a_call_is_decided_with_its_facts_the_policy_it_was_decided_under_and_the_decision() -> None:
    policy = Policy(PolicySettings(mode=Mode.ACCEPT_EDITS))
    sessions = OneSession()
    entry = entry_of(notes(), "write_note")
    ctx, arguments = request(), {"text": "hello"}
    decided = await deciding(policy, sessions).decide(ctx, entry, arguments)
    assert (decided.ctx, decided.entry, decided.arguments) == (ctx, entry, arguments)
    assert decided.session is sessions.session
    assert decided.state is sessions.session.policy
    assert decided.settings is policy.value.settings
    assert decided.facts.tool == "notes_write_note"
    assert decided.decision.verdict is Verdict.ALLOW
    assert not decided.asks


async def test_a_write_in_the_default_mode_is_decided_as_asking() -> None:
    entry = entry_of(notes(), "write_note")
    decided = await deciding(Policy(PolicySettings(mode=Mode.DEFAULT))).decide(request(), entry, {"text": "x"})
    assert decided.asks


async def test_arguments_that_fail_the_tools_schema_are_denied_whatever_the_mode_says() -> None:
    entry = entry_of(notes(), "write_note")
    decided = await deciding(Policy(PolicySettings(mode=Mode.BYPASS))).decide(request(), entry, {"text": 3})
    assert decided.decision.verdict is Verdict.DENY
    assert decided.decision.by is DecisionSource.INPUT_SCHEMA


async def test_a_call_decided_ahead_stands_for_that_very_call_in_the_same_step_of_the_event_loop() -> None:
    policy = Policy(PolicySettings(mode=Mode.ACCEPT_EDITS))
    entry = entry_of(notes(), "write_note")
    ctx, arguments = request(), {"text": "hello"}
    ahead = deciding(policy).decided_now(ctx, entry, arguments)
    assert ahead is not None
    assert ahead.stands_for(ctx, entry, arguments, ahead.settings, ahead.rules)
    assert not ahead.stands_for(request(), entry, arguments, ahead.settings, ahead.rules)  # another request
    assert not ahead.stands_for(ctx, entry, {"text": "hello"}, ahead.settings, ahead.rules)  # another call's
    assert not ahead.stands_for(ctx, entry, arguments, PolicySettings(mode=Mode.ACCEPT_EDITS), ahead.rules)


async def test_a_decision_taken_ahead_no_longer_stands_once_the_event_loop_ran_anything_else() -> None:
    entry = entry_of(notes(), "write_note")
    ctx, arguments = request(), {"text": "hello"}
    ahead = deciding(Policy(PolicySettings(mode=Mode.ACCEPT_EDITS))).decided_now(ctx, entry, arguments)
    assert ahead is not None
    await asyncio.sleep(0)
    assert not ahead.stands_for(ctx, entry, arguments, ahead.settings, ahead.rules)


async def test_a_decision_taken_in_the_call_itself_is_never_handed_on() -> None:
    entry = entry_of(notes(), "write_note")
    ctx, arguments = request(), {"text": "hello"}
    decided = await deciding(Policy(PolicySettings(mode=Mode.ACCEPT_EDITS))).decide(ctx, entry, arguments)
    assert not decided.stands_for(ctx, entry, arguments, decided.settings, decided.rules)


async def test_a_connectionless_requests_decision_taken_ahead_is_not_handed_on() -> None:
    entry = entry_of(notes(), "write_note")
    ctx, arguments = request(version="2026-07-28"), {"text": "hello"}
    stage = deciding(Policy(PolicySettings(mode=Mode.ACCEPT_EDITS)), modern=frozenset({"2026-07-28"}))
    ahead = stage.decided_now(ctx, entry, arguments)
    assert ahead is not None
    assert not ahead.asks
    assert not ahead.stands_for(ctx, entry, arguments, ahead.settings, ahead.rules)


async def test_a_call_whose_arguments_are_judged_on_a_worker_thread_is_not_decided_ahead() -> None:
    sql = {
        "name": "execute_sql",
        "description": "Run a SQL statement against the database.",
        "inputSchema": {"type": "object", "properties": {"sql": {"type": "string"}}, "required": ["sql"]},
    }
    source = notes()
    source.tools.append(sql)
    entry = entry_of(source, "execute_sql")
    assert entry.tool.judge is not None
    long_select = "SELECT id FROM orders WHERE id IN (" + ", ".join(str(n) for n in range(HEAVY)) + ")"
    policy = Policy(PolicySettings(mode=Mode.ACCEPT_EDITS))
    assert deciding(policy).decided_now(request(), entry, {"sql": long_select}) is None
    assert deciding(policy).decided_now(request(), entry, {"sql": "SELECT 1"}) is not None


async def test_a_policy_replaced_after_a_decision_does_not_change_that_decision() -> None:
    policy = Policy(PolicySettings(mode=Mode.ACCEPT_EDITS))
    entry = entry_of(notes(), "write_note")
    decided = await deciding(policy).decide(request(), entry, {"text": "hello"})
    policy.value = PolicyInForce(PolicySettings(mode=Mode.READ_ONLY))
    assert decided.decision.verdict is Verdict.ALLOW
    assert decided.settings.mode is Mode.ACCEPT_EDITS
