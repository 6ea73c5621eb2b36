"""Measure what the metrics observer adds to a tools/call, in microseconds per call.

Two measurements, each the median over `--repeat` batches of `--number` calls:

1. `Metrics.call_finished` alone, on outcomes cycling through a few servers,
   tiers and verdicts (what the observer does on every call).
2. A whole call through the pipeline (`Gateway.call_tool` over an in-memory
   source, no MCP transport), with the metrics observer and without it: the
   difference is what metrics cost a real call, outcome building included.

The goal (issue 10) is at most 10 µs per call.

Usage::

    python bench/metrics_overhead.py [--repeat N] [--number N] [--format text|json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO / "src") not in sys.path:  # runnable without installing the package
    sys.path.insert(0, str(REPO / "src"))

from hintgate.config.loading import parse_config  # noqa: E402
from hintgate.config.model import Trust  # noqa: E402
from hintgate.observers.metrics import Metrics  # noqa: E402
from hintgate.outcome import CallOutcome  # noqa: E402
from hintgate.policy.decide import Decision, DecisionSource, Verdict  # noqa: E402
from hintgate.server.gateway import Gateway  # noqa: E402
from hintgate.testing import FakeSource  # noqa: E402

GOAL_US = 10.0
TOOLS = [
    {"name": "read", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}},
    {"name": "write", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": False}},
]


def outcomes(gateway: Gateway) -> list[CallOutcome]:
    allow = Decision(Verdict.ALLOW, "Read-only tools run without asking.", DecisionSource.MODE_DEFAULT)
    made = []
    for entry in gateway.catalog.entries.values():
        for verdict, result in (("allow", {"content": []}), ("deny", {"content": [], "isError": True})):
            made.append(
                CallOutcome(
                    call_id="x",
                    entry=entry,
                    server_name=None,
                    session_id=None,
                    client_name=None,
                    client_version=None,
                    request_id="1",
                    arguments={},
                    result=result,
                    error=None,
                    started_at=datetime.now(UTC),
                    duration_ms=1.5,
                    upstream_ms=1.0,
                    decision=allow,
                    verdict=verdict,
                )
            )
    return made


def observer_alone(gateway: Gateway, repeat: int, number: int) -> float:
    metrics = Metrics(gateway.sources, lambda: gateway.calls.approvals)
    made = outcomes(gateway)
    means = []
    for _ in range(repeat):
        began = time.perf_counter()
        for n in range(number):
            metrics.call_finished(made[n % len(made)])
        means.append((time.perf_counter() - began) / number * 1e6)
    return statistics.median(means)


async def whole_calls(gateway: Gateway, repeat: int, number: int) -> float:
    params: dict[str, Any] = {"name": "a_read", "arguments": {}}
    means = []
    for _ in range(repeat):
        began = time.perf_counter()
        for _ in range(number):
            await gateway.call_tool(None, params)
        means.append((time.perf_counter() - began) / number * 1e6)
    return statistics.median(means)


async def measure(repeat: int, number: int) -> dict[str, float]:
    handlers = {"read": lambda _: "ok", "write": lambda _: "ok"}
    source = FakeSource("a", tools=TOOLS, handlers=handlers, trust=Trust.TRUSTED)
    gateway = Gateway(parse_config({"mcpServers": {}}), sources={"a": source})
    async with gateway:
        alone = observer_alone(gateway, repeat, number)
        observers = list(gateway.calls.observers)
        # Interleave with and without so that machine noise hits both alike.
        with_metrics, without = [], []
        for _ in range(repeat):
            gateway.calls.observers = observers
            with_metrics.append(await whole_calls(gateway, 1, number))
            gateway.calls.observers = []
            without.append(await whole_calls(gateway, 1, number))
            source.calls.clear()
        gateway.calls.observers = observers
    call_with, call_without = statistics.median(with_metrics), statistics.median(without)
    return {
        "observer_us": alone,
        "call_with_metrics_us": call_with,
        "call_without_observers_us": call_without,
        "added_us": call_with - call_without,
        "goal_us": GOAL_US,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--number", type=int, default=2000)
    parser.add_argument("--format", choices=["text", "json"], default="text")
    args = parser.parse_args()
    numbers = asyncio.run(measure(args.repeat, args.number))
    if args.format == "json":
        print(json.dumps(numbers, indent=2))
        return
    print(f"metrics observer alone:          {numbers['observer_us']:.2f} µs per call")
    print(f"whole call, with metrics:        {numbers['call_with_metrics_us']:.2f} µs")
    print(f"whole call, without observers:   {numbers['call_without_observers_us']:.2f} µs")
    met = "met" if numbers["added_us"] <= GOAL_US else "NOT met"
    print(f"added by metrics:                {numbers['added_us']:.2f} µs (goal <= {GOAL_US:g} µs: {met})")


if __name__ == "__main__":
    main()
