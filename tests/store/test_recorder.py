"""The recorder's group commits: what a batch holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
import pytest

from hintgate.store.recorder import Recorder
from hintgate.store.rows import Batch

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

    recorder = Recorder(None, replica="test-replica", response_cap=10_000, commit_interval=0.05, writer=write)  # type: ignore[arg-type]
    recorder.start()
    with anyio.fail_after(10):
        committed = await recorder.record_call_waited(records.call(session.id))
        await recorder.flush()
        await recorder.close(timeout=5)
    assert committed
    assert transactions == [["call-1", "call-2", "call-3"]]
    assert recorder.pending == 0
