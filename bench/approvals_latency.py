"""How fast an answer made on one replica reaches the call waiting on another.

Usage: python bench/approvals_latency.py [--rounds N] [--no-postgres]

Two stores open one database as two replicas (separate engines and
connections, as two processes would). Replica A queues a call in its
`ApprovalQueue` (the store's `approvals` table); replica B answers it with one
atomic update, as its REST API or `hintgate approvals approve` does, at a
random moment. The latency is from B starting its answer (the update and its
commit included) until A's waiting call wakes with it. On PostgreSQL (a
server started here from Debian's binaries, fsync on) A hears a `NOTIFY` sent
in B's transaction; on SQLite A polls its waiting approvals every 200 ms.

Goal: under 100 ms at the median on PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _postgres
from hintgate.policy.approvals import Answer, ApprovalQueue
from hintgate.store import Store

GOAL_MEDIAN_MS = 100.0


async def one_round(queue: ApprovalQueue, answerer: Store, reader: Store) -> float:
    """Queue one call on A, answer it on B; return ms from B starting its answer to A waking."""
    waiting = asyncio.ensure_future(
        queue.wait(
            tool="fs_write_file",
            title="Write file",
            server="fs",
            arguments={"path": "notes.txt"},
            reason="writes ask",
            warnings=[],
            session_id=None,
            client_name=None,
            timeout=30,
        )
    )
    while not (listed := await reader.approvals.pending()):
        await asyncio.sleep(0.005)
    [asked] = listed
    await asyncio.sleep(random.uniform(0, 0.25))  # a person answers at any moment, not in step with a poll
    began = time.perf_counter()
    await answerer.approvals.settle(
        asked.id, "approved", answer=Answer.APPROVE_ONCE, actor="bench", via="api", reason="approved"
    )
    outcome = await waiting
    woke = time.perf_counter()
    assert outcome.approved
    return (woke - began) * 1000


async def measure(url: str, rounds: int) -> list[float]:
    async with (
        await Store.open(url, replica="replica-a", recover=False) as a,
        await Store.open(url, replica="replica-b", recover=False) as b,
    ):
        queue = ApprovalQueue(ledger=a.approvals)
        await one_round(queue, b, b)  # warm-up: connections, the listener
        return [await one_round(queue, b, b) for _ in range(rounds)]


def report(name: str, samples: list[float], goal: float | None) -> None:
    median = statistics.median(samples)
    p90 = statistics.quantiles(samples, n=10)[-1]
    verdict = "" if goal is None else (" (goal met)" if median < goal else f" (GOAL MISSED: {goal:g} ms)")
    print(f"{name:<11} median {median:6.1f} ms  p90 {p90:6.1f} ms  max {max(samples):6.1f} ms{verdict}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        report("SQLite", await measure(f"sqlite:///{tmp}/bench.db", args.rounds), None)
    if args.no_postgres:
        return
    bin_dir = _postgres.find_bin_dir()
    if bin_dir is None:
        print("PostgreSQL: skipped (initdb and pg_ctl not found)")
        return
    with _postgres.running(bin_dir, durable=True) as server:
        report("PostgreSQL", await measure(server.create_database(), args.rounds), GOAL_MEDIAN_MS)


if __name__ == "__main__":
    asyncio.run(main())
