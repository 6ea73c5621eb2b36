"""The store's record of a call: the gateway's secrets masked in what is kept, its JSON written once."""

from __future__ import annotations

import dataclasses
import json
import threading
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest

from hintgate.observers.recording import AS_OUTCOME, Recording, call_record
from hintgate.outcome import CallOutcome
from hintgate.redaction import Redactor
from hintgate.store import Store
from hintgate.store import recorder as recorder_module
from hintgate.store.rows import CallRecord, call_row, prepare


def _outcome(arguments: Any, result: Any, result_json: str | None = None) -> Any:
    entry = SimpleNamespace(server="echo", name="echo_say", upstream_name="say")
    return SimpleNamespace(
        entry=entry,
        arguments=arguments,
        result=result,
        error=None,
        call_id="call-1",
        session_id=None,
        server_name="echo",
        started_at=datetime(2026, 1, 1, tzinfo=UTC),
        duration_ms=1.0,
        request_id="1",
        client_name="client",
        client_version="1",
        user=None,
        user_key=None,
        parent_call_id=None,
        execution_type="direct",
        snapshot={"tier": "read-only"},
        tier="read-only",
        decision_json=lambda: {"verdict": "allow"},
        verdict="allow",
        result_json=result_json,
    )


def test_a_secret_json_escapes_is_masked_in_the_stored_arguments_and_result_keys_included() -> None:
    secret = 'se"cr\\et\tkey-1234'
    arguments = {"query": f"use {secret} now", f"x{secret}": 1}
    result = {"content": [{"type": "text", "text": f"[{secret}]"}], "isError": False}
    record = call_record(_outcome(arguments, result), Redactor([secret]))
    row = call_row(record, 65536)
    assert record.arguments == {"query": "use *** now", "x***": 1}
    assert record.response == {"content": [{"type": "text", "text": "[***]"}], "isError": False}
    assert json.dumps(secret)[1:-1] not in row["arguments"] + row["response"]
    assert json.loads(row["arguments"]) == record.arguments
    assert json.loads(row["response"]) == record.response


def test_a_call_without_a_secret_is_kept_as_it_came() -> None:
    arguments = {"query": "nothing to hide", "n": [1, 2.5, None, True]}
    result = {"content": [{"type": "text", "text": "é \u0000 fine"}], "isError": False}
    record = call_record(_outcome(arguments, result), Redactor(["a-secret-value"]))
    row = call_row(record, 65536)
    assert record.arguments is arguments
    assert json.loads(row["arguments"]) == arguments
    assert json.loads(row["response"]) == {"content": [{"type": "text", "text": "é \ufffd fine"}], "isError": False}


def test_what_a_record_keeps_as_the_outcome_has_it_is_a_field_of_both_of_one_type() -> None:
    outcome = {field.name: field.type for field in dataclasses.fields(CallOutcome)}
    record = {field.name: field.type for field in dataclasses.fields(CallRecord)}
    assert {name: outcome.get(name) for name in AS_OUTCOME} == {name: record.get(name) for name in AS_OUTCOME}
    assert None not in {outcome.get(name) for name in AS_OUTCOME}


def test_a_record_keeps_the_outcome_s_own_fields_as_they_were() -> None:
    outcome = _outcome({"query": "q"}, None)
    record = call_record(outcome)
    assert {name: getattr(record, name) for name in AS_OUTCOME} == {name: getattr(outcome, name) for name in AS_OUTCOME}


def test_a_call_without_a_secret_to_mask_has_its_json_written_once_as_one_with_a_secret_has() -> None:
    arguments = {"timezone": "UTC"}
    result = {"content": [{"type": "text", "text": "12:00"}], "isError": False}
    record = call_record(_outcome(arguments, result))
    assert record.arguments_json is not None
    assert record.response_json is not None
    assert (json.loads(record.arguments_json), json.loads(record.response_json)) == (arguments, result)


def test_a_result_the_scan_wrote_is_stored_from_its_json_and_a_secret_in_it_still_masked() -> None:
    result = {"content": [{"type": "text", "text": "12:00 \u0000 \ud800"}], "isError": False}
    written = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    reused = call_record(_outcome(None, result, written))
    assert reused.response is result
    assert reused.response_json == call_record(_outcome(None, result)).response_json
    secret = "a-secret-value"
    shown = {"content": [{"type": "text", "text": f"[{secret}]"}], "isError": False}
    masked = call_record(_outcome(None, shown, json.dumps(shown, separators=(",", ":"))), Redactor([secret]))
    assert masked.response == {"content": [{"type": "text", "text": "[***]"}], "isError": False}
    assert secret not in str(masked.response_json)


@pytest.mark.anyio
async def test_a_stdio_gateways_recorded_calls_are_committed_on_the_event_loops_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stdio gateway has no API token to mask: its records were each handed to the writer's thread and back.
    threads: list[threading.Thread] = []

    def noting(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread())
        return prepare(*args, **kwargs)

    monkeypatch.setattr(recorder_module, "prepare", noting)
    store = await Store.open(f"sqlite:///{tmp_path / 'hintgate.db'}", replica="test")
    try:
        recording = Recording(store)
        assert not recording.redact  # nothing to mask
        for n in range(4):
            outcome = _outcome({"timezone": "UTC"}, {"content": [{"type": "text", "text": f"12:0{n}"}]})
            outcome.call_id, outcome.task = f"call-{n}", False
            waiting = recording.call_finished(outcome)
            assert waiting is not None
            with anyio.fail_after(10):
                assert await waiting
    finally:
        await store.close()
    # The first batch opens the loop's connection on the writer's thread; every later one is committed on the loop.
    assert threads[-3:] == [threading.current_thread()] * 3
