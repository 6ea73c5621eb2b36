"""Records calls until it is killed: the subject of test_durability.py (run with sys.executable).

Usage: crash_writer.py URL N SESSION_ID MODE. Records N calls (ids call-0 ... call-N-1), waits until they
are committed, prints "flushed", then records more until SIGKILL:

- MODE fast: in bursts of 100 `record_call`s, printing "burst" after each;
- MODE durable: from 8 concurrent tasks, each awaiting `record_call_durable` and then printing
  "returned ID", as a gateway releases a call's result once its record is committed.
"""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC, datetime

from hintgate.store import CallRecord, RecordingSettings, SessionRecord, Store


def call(n: int, session_id: str) -> CallRecord:
    return CallRecord(
        id=f"call-{n}",
        session_id=session_id,
        server_id="time",
        server_name="mcp-server-time",
        tool_name="time_get_current_time",
        upstream_tool="get_current_time",
        arguments={"timezone": "Europe/Paris", "n": n},
        response={"content": [{"type": "text", "text": f"It is 12:00 in Paris ({n})."}]},
        error=None,
        started_at=datetime.now(UTC),
        duration_ms=1.0,
        request_id=str(n),
        client_name="crash-test",
        client_version="1",
        tier="read-only",
    )


async def main(url: str, count: int, session_id: str, mode: str) -> None:
    store = await Store.open(url, RecordingSettings(commit=mode), replica="crash-writer")
    store.session_started(SessionRecord(session_id, "crash-test", "1", datetime.now(UTC), "stdio", "crash-writer"))
    for n in range(count):
        store.record_call(call(n, session_id))
    await store.flush()
    print("flushed", flush=True)
    if mode == "durable":
        await asyncio.gather(*(returning(store, session_id, count + worker * 1_000_000) for worker in range(8)))
    n = count
    while True:
        for _ in range(100):
            store.record_call(call(n, session_id))
            n += 1
        print("burst", flush=True)
        await asyncio.sleep(0.002)


async def returning(store: Store, session_id: str, first: int) -> None:
    for n in range(first, first + 1_000_000):
        record = call(n, session_id)
        if not await store.record_call_durable(record):
            print(f"unconfirmed {record.id}", flush=True)
        print(f"returned {record.id}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]))
