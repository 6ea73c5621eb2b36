"""The last stage: one immutable outcome per call, told to every observer in order."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

import pytest
from tests.pipeline.kit import OneSession, decided, entry_of, notes, request

from hintgate.outcome import NO_TRACER, CallAttempt, CallOutcome
from hintgate.pipeline.recording import Recording
from hintgate.testing import text_result

pytestmark = pytest.mark.anyio


class Seen:
    def __init__(self) -> None:
        self.outcomes: list[CallOutcome] = []

    def call_finished(self, outcome: CallOutcome) -> None:
        self.outcomes.append(outcome)


class Broken:
    def call_finished(self, outcome: CallOutcome) -> None:
        raise RuntimeError("an observer's own bug")


def _attempt(call: Any) -> CallAttempt:
    return CallAttempt(call.decision, time.perf_counter(), datetime.now(UTC))


async def test_a_calls_outcome_names_the_call_its_session_and_how_it_ended_and_counts_it_on_the_session() -> None:
    source = notes()
    session = OneSession().session
    call = decided(entry_of(source, "read_notes"), {"query": "x"}, session, ctx=request())
    seen = Seen()
    recording = Recording({source.name: source}, lambda: [seen], NO_TRACER)
    outcome = await recording.record(session, recording.outcome(call, text_result("found"), None, _attempt(call)))
    assert seen.outcomes == [outcome]
    assert (outcome.entry, outcome.arguments, outcome.session_id) == (call.entry, {"query": "x"}, "s1")
    assert (outcome.request_id, outcome.verdict, outcome.error) == ("7", "allow", None)
    assert session.calls == 1


async def test_a_tool_errors_text_is_the_outcomes_error() -> None:
    source = notes()
    call = decided(entry_of(source, "read_notes"), None, None)
    outcome = Recording({}, lambda: [], NO_TRACER).outcome(
        call, text_result("no such note", is_error=True), None, _attempt(call)
    )
    assert outcome.error == "no such note"


async def test_an_observer_that_fails_neither_fails_the_call_nor_keeps_the_others_from_being_told() -> None:
    source = notes()
    call = decided(entry_of(source, "read_notes"), None, None)
    seen = Seen()
    observers: list[Any] = [Broken(), seen]
    recording = Recording({}, lambda: observers, NO_TRACER)
    outcome = await recording.record(None, recording.outcome(call, text_result("found"), None, _attempt(call)))
    assert seen.outcomes == [outcome]


async def test_an_observer_its_provider_gives_later_is_told_too() -> None:
    source = notes()
    call = decided(entry_of(source, "read_notes"), None, None)
    observers: list[Any] = []
    recording = Recording({}, lambda: observers, NO_TRACER)
    seen = Seen()
    observers.append(seen)  # as the gateway puts its recorder first once the store is open
    await recording.record(None, recording.outcome(call, text_result("found"), None, _attempt(call)))
    assert len(seen.outcomes) == 1
