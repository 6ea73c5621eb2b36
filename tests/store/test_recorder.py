"""The recorder's group commits (what a batch holds), and the recording settings it commits by."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Callable
from typing import Any

import anyio
import pytest

from hintgate.config.settings import Settings
from hintgate.store.recorder import LIGHT_RECORDS, LIGHT_TEXT, Recorder, RecordingSettings
from hintgate.store.rows import Batch, encode_json

pytestmark = pytest.mark.anyio


async def test_records_that_arrive_while_a_batch_waits_for_the_writer_are_committed_in_its_transaction(
    records: Any,
) -> None:
    session = records.session()
    transactions: list[list[str]] = []

    async def write(prepare: Callable[[], Batch]) -> None:
        if not transactions:  # two more calls end while the first batch waits for the writer
            recorder.record_call(records.call(session.id))
            recorder.record_call(records.call(session.id))
        transactions.append([row["id"] for row in prepare().calls])

    recorder = Recorder(None, RecordingSettings(response_cap=10_000), replica="test-replica", writer=write)  # type: ignore[arg-type]
    recorder.start()
    with anyio.fail_after(10):
        committed = await recorder.record_call_waited(records.call(session.id))
        await recorder.flush()
        await recorder.close(timeout=5)
    assert committed
    assert transactions == [["call-1", "call-2", "call-3"]]
    assert recorder.pending == 0


@pytest.mark.parametrize(
    ("given", "refusal"),
    [
        ({"retention": 0}, "retention must be at least 1"),
        ({"response_cap": -1}, "cannot be negative"),
        ({"commit_interval": -0.5}, "cannot be negative"),
        ({"commit": "sometimes"}, "commit must be one of durable, fast"),
        ({"tokens": "guess"}, "tokens must be one of"),
    ],
)
def test_a_recording_that_keeps_nothing_or_names_an_unknown_mode_is_refused(given: Any, refusal: str) -> None:
    with pytest.raises(ValueError, match=refusal):
        RecordingSettings(**given)


def test_the_recording_a_command_opens_the_store_with_is_the_one_the_settings_ask_for() -> None:
    settings = Settings(retention=7, response_cap=123, commit="fast", commit_interval=0.5, tokens="exact")
    recording = RecordingSettings.from_settings(settings)
    assert recording == RecordingSettings(
        retention=7, response_cap=123, commit_interval=0.5, commit="fast", tokens="exact"
    )
    assert not recording.durable


async def test_a_close_ends_though_the_write_in_flight_outlives_its_cancellation_and_counts_its_records_lost(
    records: Any, caplog: pytest.LogCaptureFixture
) -> None:
    session = records.session()
    released = asyncio.Event()
    written: list[str] = []

    async def write(prepare: Callable[[], Batch]) -> None:
        batch = prepare()
        if len(written) == 1:  # the second batch's write waits on a server that never answers
            while not released.is_set():
                with contextlib.suppress(asyncio.CancelledError):
                    await released.wait()
        written.extend(row["id"] for row in batch.calls)

    recorder = Recorder(None, RecordingSettings(), replica="test-replica", writer=write)  # type: ignore[arg-type]
    recorder.start()
    with anyio.fail_after(10):
        assert await recorder.record_call_waited(records.call(session.id))
        recorder.record_call(records.call(session.id))
        with caplog.at_level(logging.ERROR, logger="hintgate.store"):
            lost = await recorder.close(timeout=0.1, grace=0.1)
    assert lost == 1
    assert written == ["call-1"]
    assert "'hintgate-store-recorder' did not end within 0.1 s of being cancelled" in caplog.text
    assert recorder.pending == 0
    left = [task for task in asyncio.all_tasks() if task.get_name() == "hintgate-store-recorder"]
    assert len(left) == 1
    released.set()
    with anyio.fail_after(10):
        await left[0]  # its wait over, the task left behind ends
    assert recorder.pending == 0


async def test_only_a_few_records_with_their_json_encoded_and_tokens_estimated_make_a_light_batch(
    records: Any,
) -> None:
    session = records.session()

    def encoded(**fields: Any) -> Any:
        call = records.call(session.id, **fields)
        return dataclasses.replace(
            call, arguments_json=encode_json(call.arguments), response_json=encode_json(call.response)
        )

    async def light(batch: list[Any], recording: RecordingSettings | None = None) -> bool:
        seen: list[bool] = []

        async def write(prepare: Callable[[], Batch]) -> None:
            seen.append(prepare.light())  # type: ignore[attr-defined]

        recorder = Recorder(None, recording or RecordingSettings(), replica="test-replica", writer=write)  # type: ignore[arg-type]
        recorder.start()
        for call in batch:
            recorder.record_call(call)
        with anyio.fail_after(10):
            await recorder.close(timeout=5)
        return seen == [True]

    assert await light([encoded(), encoded()])
    assert await light([encoded(), records.call(session.id, arguments=None, response=None, error="refused")])
    assert not await light([encoded(), records.call(session.id)])  # its JSON is still to be written
    assert not await light([encoded() for _ in range(LIGHT_RECORDS + 1)])
    assert not await light([encoded(response={"content": [{"type": "text", "text": "x" * LIGHT_TEXT}]})])
    assert not await light([encoded()], RecordingSettings(tokens="exact"))


def test_a_decision_stored_again_is_the_same_json_and_one_with_other_values_is_its_own() -> None:
    from datetime import UTC, datetime

    from hintgate.store.rows import CallRecord, call_row

    def stored(decision: dict[str, Any]) -> str:
        rec = CallRecord(
            id="c1",
            session_id=None,
            server_id="s",
            server_name=None,
            tool_name="t",
            upstream_tool="t",
            arguments=None,
            response=None,
            error=None,
            started_at=datetime.now(UTC),
            duration_ms=1.0,
            request_id=None,
            client_name=None,
            client_version=None,
            decision=decision,
        )
        return str(call_row(rec, 1000)["decision"])

    plain = {"verdict": "allow", "reason": "read-only", "source": "mode:default", "approver": None, "waited_ms": None}
    assert stored(dict(plain)) == stored(dict(plain)) == encode_json(plain)
    assert stored({**plain, "waited_ms": 1.0}) == encode_json({**plain, "waited_ms": 1.0})
    assert stored({**plain, "waited_ms": 1}) == encode_json({**plain, "waited_ms": 1})  # not 1.0's JSON
    findings = {**plain, "result_findings": [{"code": "x"}]}
    assert stored(findings) == encode_json(findings)
