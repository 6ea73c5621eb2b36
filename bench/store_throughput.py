"""How fast the store records: sustained records per second, and what recording costs a call.

Usage: python bench/store_throughput.py [--records N] [--no-postgres] [--durable-cpu]

For each backend (a SQLite file; a PostgreSQL server started here from
Debian's binaries with fsync on, see `_postgres.py`) it enqueues N realistic
call records as fast as the event loop allows, in bursts, and reports records
committed per second from the first enqueue until `flush()` returns; meanwhile
a probe task measures how late the event loop wakes it (the stall recording
adds to everything else on the loop). Then it compares that lag at a steady
500 calls/s with recording on and off, and times `record_call` itself,
building each `CallRecord` included: the cost a call pays.

Those run in fast mode (`commit="fast"`: commits every 50 ms, off the call's
path). Durable mode (the default) is measured apart: concurrent callers each
await `record_call_durable` (their record committed, in group commits), and
it reports records per second and what that wait adds to each call. Then what
a durable record costs in CPU when calls end spread out, as a gateway's do
(16 callers, each pausing a random 0-40 ms between calls: ~600 records/s in
commits of about two): process CPU per record beyond the same pauses without
recording, and the part of it spent on the store's writer thread (SQLite files).

Goals (issue 4): 5,000 records/s on SQLite; recording adds at most 0.2 ms to a
call's median latency (fast mode; durable mode adds one commit).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _postgres
from hintgate.store import CallRecord, RecordingSettings, SessionRecord, Store

GOAL_RECORDS_PER_S = 5000
GOAL_ENQUEUE_US = 200.0
STEADY_RATE = 500
STEADY_SECONDS = 3.0

HINTS = {
    "annotations": {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False},
    "provenance": {
        "readOnlyHint": "declared",
        "destructiveHint": "declared",
        "idempotentHint": "inferred:name.verb.get",
        "openWorldHint": "default",
    },
    "tier": "read-only",
}
RESPONSE_TEXT = (
    '{"timezone": "Europe/Paris", "datetime": "2026-01-01T12:00:00+01:00", "is_dst": false} '
    "The current time in Paris is noon; the next daylight-saving change is on the last Sunday of March. " * 3
)


def make_call(n: int, session_id: str) -> CallRecord:
    return CallRecord(
        id=str(uuid.uuid4()),
        session_id=session_id,
        server_id="time",
        server_name="mcp-server-time",
        tool_name="time_get_current_time",
        upstream_tool="get_current_time",
        arguments={"timezone": "Europe/Paris", "n": n},
        response={"content": [{"type": "text", "text": RESPONSE_TEXT}], "isError": False},
        error=None,
        started_at=datetime.now(UTC),
        duration_ms=2.1,
        request_id=str(n),
        client_name="bench",
        client_version="1.0",
        hints=HINTS,
        tier="read-only",
    )


async def probe(lags: list[float], stop: asyncio.Event) -> None:
    """Sleep 1 ms at a time and note how late each wake-up is."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        start = loop.time()
        await asyncio.sleep(0.001)
        lags.append((loop.time() - start - 0.001) * 1000)


async def sustained(url: str, count: int) -> tuple[float, list[float]]:
    """Records per second from the first enqueue to the end of flush(), and the loop lags seen meanwhile."""
    store = await Store.open(url, RecordingSettings(retention=1000, commit="fast"), replica="bench")
    try:
        session = SessionRecord(str(uuid.uuid4()), "bench", "1.0", datetime.now(UTC), "stdio", "bench")
        calls = [make_call(n, session.id) for n in range(count)]
        lags: list[float] = []
        stop = asyncio.Event()
        prober = asyncio.create_task(probe(lags, stop))
        await asyncio.sleep(0.01)
        started = time.perf_counter()
        store.session_started(session)
        for chunk in range(0, count, 250):
            for call in calls[chunk : chunk + 250]:
                store.record_call(call)
            await asyncio.sleep(0)  # a gateway's loop has other work: let the recorder in
        await store.flush()
        elapsed = time.perf_counter() - started
        stop.set()
        await prober
        stored = (await store.session(session.id) or {}).get("tool_call_count")
        assert stored == count, (stored, count)
        return count / elapsed, lags
    finally:
        await store.close()


async def paced(url: str | None, seconds: float, rate: int) -> list[float]:
    """Loop lags while calls are recorded at a steady `rate` per second (`url` None: not recorded)."""
    store = (
        await Store.open(url, RecordingSettings(retention=1000, commit="fast"), replica="bench-paced") if url else None
    )
    try:
        session_id = str(uuid.uuid4())
        lags: list[float] = []
        stop = asyncio.Event()
        prober = asyncio.create_task(probe(lags, stop))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        n = 0
        while loop.time() < deadline:
            call = make_call(n, session_id)
            if store is not None:
                store.record_call(call)
            n += 1
            await asyncio.sleep(1 / rate)
        stop.set()
        await prober
        if store is not None:
            await store.flush()
        return lags
    finally:
        if store is not None:
            await store.close()


async def enqueue_cost(url: str, count: int) -> list[float]:
    """Microseconds per `CallRecord(...)` plus `record_call`, one at a time."""
    store = await Store.open(url, RecordingSettings(retention=1000, commit="fast"), replica="bench-enqueue")
    try:
        session_id = str(uuid.uuid4())
        timings: list[float] = []
        clock = time.perf_counter_ns
        for n in range(count):
            t0 = clock()
            store.record_call(make_call(n, session_id))
            timings.append((clock() - t0) / 1000)
            if n % 100 == 99:
                await asyncio.sleep(0)
        await store.flush()
        return timings
    finally:
        await store.close()


async def durable(url: str, count: int, callers: int) -> tuple[float, list[float]]:
    """Durable mode: `callers` concurrent callers each awaiting `record_call_durable`, `count` in all.

    Returns:
        Records per second, and the milliseconds each caller waited for its record's commit.
    """
    store = await Store.open(url, RecordingSettings(retention=1000), replica="bench-durable")
    try:
        session_id = str(uuid.uuid4())
        waits: list[float] = []
        clock = time.perf_counter

        async def caller(first: int) -> None:
            for n in range(first, count, callers):
                call = make_call(n, session_id)
                t0 = clock()
                committed = await store.record_call_durable(call)
                waits.append((clock() - t0) * 1000)
                assert committed, "a durable record was not confirmed"

        started = clock()
        await asyncio.gather(*(caller(i) for i in range(callers)))
        return count / (clock() - started), waits
    finally:
        await store.close()


def _thread_cpu(name: str) -> float:
    """CPU seconds (user + system) of this process's thread called `name` so far; 0 when there is none."""
    for thread in threading.enumerate():
        if thread.name == name and thread.native_id is not None:
            fields = Path(f"/proc/self/task/{thread.native_id}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


async def durable_cpu(url: str, count: int, callers: int = 16) -> tuple[float, float, float]:
    """CPU per durable record, calls ending spread out as a gateway's do (pauses of 0-40 ms between them).

    Returns:
        Microseconds of process CPU per record beyond the same pauses unrecorded, of them the writer
        thread's, and records per second.
    """
    store = await Store.open(url, RecordingSettings(retention=1000), replica="bench-durable-cpu")
    try:
        sessions = [str(uuid.uuid4()) for _ in range(callers)]
        for session_id in sessions:
            store.session_started(SessionRecord(session_id, "bench", "1.0", datetime.now(UTC), "http", "bench"))
        await store.flush()
        calls = [make_call(n, sessions[n % callers]) for n in range(count)]

        async def caller(first: int, pauses: random.Random, record: bool) -> None:
            for n in range(first, count, callers):
                await asyncio.sleep(pauses.random() * 0.04)
                if record:
                    await store.record_call_durable(calls[n])

        async def run(record: bool) -> tuple[float, float]:
            cpu = time.process_time()
            started = time.perf_counter()
            await asyncio.gather(*(caller(i, random.Random(i), record) for i in range(callers)))
            return time.process_time() - cpu, time.perf_counter() - started

        writer = _thread_cpu("hintgate-store-writer")
        recorded, seconds = await run(True)
        writer = _thread_cpu("hintgate-store-writer") - writer
        idle, _ = await run(False)
        return (recorded - idle) / count * 1e6, writer / count * 1e6, count / seconds
    finally:
        await store.close()


def report_durable_cpu(runs: list[tuple[float, float, float]]) -> None:
    cpu = sorted(r[0] for r in runs)
    print(
        f"  durable, calls spread out ({runs[0][2]:,.0f} records/s): CPU per record"
        f" {', '.join(f'{r[0]:.0f}' for r in runs)} µs (writer thread {', '.join(f'{r[1]:.0f}' for r in runs)}),"
        f" median {statistics.median(cpu):.0f} µs"
    )


def report_durable(results: list[tuple[int, float, list[float]]]) -> None:
    for callers, rate, waits in results:
        waits.sort()
        p99 = waits[int(len(waits) * 0.99)]
        print(
            f"  durable, {callers} concurrent callers: {rate:,.0f} records/s; each call waits"
            f" median {statistics.median(waits):.2f} ms, p99 {p99:.2f} ms for its commit"
        )


async def durable_runs(url: str, count: int) -> list[tuple[int, float, list[float]]]:
    return [(callers, *(await durable(url, count if callers > 1 else count // 10, callers))) for callers in (1, 16, 64)]


def report(
    name: str,
    rate: float,
    lags: list[float],
    enqueue: list[float],
    goal_rate: int | None,
    steady: tuple[list[float], list[float]],
) -> None:
    goal = f"  (goal {goal_rate:,}/s: {'met' if rate >= goal_rate else 'NOT met'})" if goal_rate else ""
    print(f"{name}: {rate:,.0f} records/s sustained{goal}")
    if lags:
        lags.sort()
        p99 = lags[int(len(lags) * 0.99)]
        print(f"  event-loop lag while recording: median {statistics.median(lags):.3f} ms, p99 {p99:.3f} ms")
    off, on = (statistics.median(lags) for lags in steady)
    verdict = "met" if on - off <= GOAL_ENQUEUE_US / 1000 else "NOT met"
    print(
        f"  event-loop lag at {STEADY_RATE}/s: median {on:.3f} ms recording vs {off:.3f} ms not"
        f" ({on - off:+.3f} ms; goal ≤ +{GOAL_ENQUEUE_US / 1000:.1f} ms: {verdict})"
    )
    median = statistics.median(enqueue)
    verdict = "met" if median <= GOAL_ENQUEUE_US else "NOT met"
    print(f"  CallRecord + record_call: median {median:.2f} µs (goal ≤ {GOAL_ENQUEUE_US:.0f} µs: {verdict})")


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="hintgate-bench-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.db'}"
        await enqueue_cost(url, 1000)  # warm up: tokenizer, migrations, connections
        if args.durable_cpu:
            print("SQLite (WAL, synchronous=NORMAL)")
            report_durable_cpu([await durable_cpu(url, args.records // 5) for _ in range(3)])
            return
        rate, lags = await sustained(url, args.records)
        enqueue = await enqueue_cost(url, args.records)
        steady = (await paced(None, STEADY_SECONDS, STEADY_RATE), await paced(url, STEADY_SECONDS, STEADY_RATE))
        report("SQLite (WAL, synchronous=NORMAL)", rate, lags, enqueue, GOAL_RECORDS_PER_S, steady)
        report_durable(await durable_runs(url, args.records // 4))
        report_durable_cpu([await durable_cpu(url, args.records // 5) for _ in range(3)])
    if args.no_postgres:
        return
    bin_dir = _postgres.find_bin_dir()
    if bin_dir is None:
        print("PostgreSQL: skipped (initdb and pg_ctl not found)")
        return
    with _postgres.running(bin_dir, durable=True) as server:
        url = server.create_database("bench")
        await enqueue_cost(url, 1000)
        rate, lags = await sustained(url, args.records)
        enqueue = await enqueue_cost(url, args.records)
        steady = (await paced(None, STEADY_SECONDS, STEADY_RATE), await paced(url, STEADY_SECONDS, STEADY_RATE))
        report(f"PostgreSQL ({bin_dir.parent.name}, local, fsync on)", rate, lags, enqueue, None, steady)
        report_durable(await durable_runs(url, args.records // 4))
        report_durable_cpu([await durable_cpu(url, args.records // 5) for _ in range(3)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument(
        "--durable-cpu", action="store_true", help="only the CPU per durable record, calls spread out (SQLite)"
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
