"""Forwarding: a call runs on its source once, and again only when that is safe, with the failure on record."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

import pytest
from tests.pipeline.kit import decided, entry_of, notes

from hintgate.errors import UpstreamClosed, UpstreamDown, UpstreamRequestError
from hintgate.outcome import NO_TRACER, CallAttempt, CallOutcome
from hintgate.pipeline.forwarding import Forwarding
from hintgate.pipeline.recording import Recording
from hintgate.sources.base import CallContext

pytestmark = pytest.mark.anyio


class _Client:
    """A client the source never needs."""


def _client_for(ctx: Any) -> CallContext:
    return _Client()  # type: ignore[return-value]


def _fails_once(failure: Exception) -> Any:
    failures = [failure]

    def handler(arguments: Any) -> str:
        if failures:
            raise failures.pop()
        return "answered"

    return handler


def _stage(source: Any, outcomes: list[CallOutcome]) -> Forwarding:
    class Seen:
        def call_finished(self, outcome: CallOutcome) -> None:
            outcomes.append(outcome)

    recording = Recording({source.name: source}, lambda: [Seen()], NO_TRACER)
    return Forwarding({source.name: source}, frozenset(), _client_for, recording)


async def test_a_read_whose_server_was_down_is_retried_once_it_is_up_naming_the_failed_attempt() -> None:
    source = notes(read_notes=_fails_once(UpstreamDown("is restarting", server="notes")))
    call = decided(entry_of(source, "read_notes"), {"query": "x"}, None)
    attempt = CallAttempt(call.decision, time.perf_counter(), datetime.now(UTC))
    first_id = attempt.call_id
    outcomes: list[CallOutcome] = []
    result = await _stage(source, outcomes).forward(call, {}, attempt)
    assert result["content"][0]["text"] == "answered"
    [failed] = outcomes
    assert failed.call_id == first_id
    assert "is restarting (retried)" in (failed.error or "")
    assert (attempt.parent_call_id, attempt.execution_type) == (first_id, "retry")
    assert len(source.calls) == 2


async def test_a_write_that_failed_is_not_repeated_and_its_failure_is_a_tool_error_naming_its_server() -> None:
    source = notes(write_note=_fails_once(UpstreamClosed("the connection closed", server="notes")))
    call = decided(entry_of(source, "write_note"), {"text": "x"}, None)
    attempt = CallAttempt(call.decision, time.perf_counter(), datetime.now(UTC))
    outcomes: list[CallOutcome] = []
    result = await _stage(source, outcomes).forward(call, {}, attempt)
    assert result["isError"] is True
    assert "server 'notes'" in result["content"][0]["text"]
    assert outcomes == []
    assert len(source.calls) == 1


async def test_a_servers_own_json_rpc_error_is_raised_as_it_came_and_not_retried() -> None:
    def refuses(arguments: Any) -> str:
        raise UpstreamRequestError("no such note", code=-32602, server="notes")

    source = notes(read_notes=refuses)
    call = decided(entry_of(source, "read_notes"), {"query": "x"}, None)
    attempt = CallAttempt(call.decision, time.perf_counter(), datetime.now(UTC))
    with pytest.raises(UpstreamRequestError, match="no such note"):
        await _stage(source, []).forward(call, {}, attempt)
    assert len(source.calls) == 1
    assert attempt.upstream_ms is not None


async def test_an_answer_that_is_no_tool_result_is_a_tool_error_naming_the_tool_the_server_and_the_place(
    caplog: pytest.LogCaptureFixture,
) -> None:
    source = notes(read_notes=lambda arguments: {"content": "a bare string"})
    call = decided(entry_of(source, "read_notes"), {"query": "x"}, None)
    attempt = CallAttempt(call.decision, time.perf_counter(), datetime.now(UTC))
    result = await _stage(source, []).forward(call, {}, attempt)
    assert result["isError"] is True
    assert result["content"][0]["text"] == (
        "The tool 'notes_read_notes' failed: server 'notes' answered with something that is not a tool result "
        "($.content: expected a list, got str)."
    )
    assert "server 'notes': tools/call of 'read_notes'" in caplog.text


async def test_a_well_formed_answer_and_a_task_handle_pass_untouched() -> None:
    answers = [
        {"content": [{"type": "text", "text": "ok"}, {"type": "future_block", "x": 1}], "isError": False},
        {"resultType": "task", "taskId": "t1"},
    ]
    for answer in answers:
        source = notes(read_notes=lambda arguments, answer=answer: answer)
        call = decided(entry_of(source, "read_notes"), {"query": "x"}, None)
        attempt = CallAttempt(call.decision, time.perf_counter(), datetime.now(UTC))
        assert await _stage(source, []).forward(call, {}, attempt) is answer
