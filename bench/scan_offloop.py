"""What a hostile result's scan costs the other clients: `/api/health` latency while it is scanned.

A real `hintgate serve --http` with the hostile fixture server (`tests/fixtures/hostile_server.py`): one
client calls a tool whose result is hostile to the scan, over and over, while `/api/health` is probed every
20 ms. Printed: the health latency (p50, p99, max) with the gateway idle, while 50 KB of `"%41 " + "a" * n`
is scanned (35 s of CPU per result before the scan was made linear), and while 400 KB of Russian orders
without spaces is scanned (seconds, in a worker process); and how long each such call took.

Usage::

    python bench/scan_offloop.py [--probes N] [--format text|json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from mcp import Client

from hintgate.testing import running_gateway

REPO = Path(__file__).resolve().parents[1]
HOSTILE = REPO / "tests" / "fixtures" / "hostile_server.py"


def _stats(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {"n": 0, "p50_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
    return {
        "n": len(ordered),
        "p50_ms": round(statistics.median(ordered) * 1e3, 2),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1e3, 2),
        "max_ms": round(ordered[-1] * 1e3, 2),
    }


async def _probe(rest: httpx.AsyncClient, until: asyncio.Event, limit: int) -> list[float]:
    taken: list[float] = []
    while not until.is_set() and len(taken) < limit:
        began = time.perf_counter()
        answer = await rest.get("/api/health")
        taken.append(time.perf_counter() - began)
        answer.raise_for_status()
        await asyncio.sleep(0.02)
    return taken


async def _measure(url: str, headers: dict[str, str], transport: Any, probes: int) -> dict[str, Any]:
    report: dict[str, Any] = {}
    async with (
        Client(transport, mode="legacy") as client,
        httpx.AsyncClient(base_url=url, headers=headers, timeout=300) as rest,
    ):
        await client.call_tool("hostile_hello", {})
        idle = asyncio.Event()
        report["idle"] = _stats(await _probe(rest, idle, probes))
        for tool in ("hostile_shape", "hostile_page"):
            done = asyncio.Event()
            calls: list[float] = []

            async def call(tool: str = tool, done: asyncio.Event = done, calls: list[float] = calls) -> None:
                while not done.is_set():
                    began = time.perf_counter()
                    await client.call_tool(tool, {})
                    calls.append(time.perf_counter() - began)

            caller = asyncio.ensure_future(call())
            health = await _probe(rest, asyncio.Event(), probes)
            done.set()
            await caller
            report[tool] = {"health": _stats(health), "call": _stats(calls)}
    return report


def main() -> int:
    """Run the gateway, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--probes", type=int, default=200)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args()
    config = {"mcpServers": {"hostile": {"command": sys.executable, "args": [str(HOSTILE)]}}}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hintgate.json"
        path.write_text(json.dumps(config))
        # Its own data directory: the API token the gateway makes is kept there, not under the user's HOME.
        env = {"HINTGATE_DATA_DIR": str(Path(folder) / "data")}
        with running_gateway("--config", str(path), "--no-record", env=env) as gateway:
            report = asyncio.run(_measure(gateway.base_url, gateway.headers, gateway.mcp_transport(), args.probes))
    if args.format == "json":
        print(json.dumps(report, indent=2))
        return 0
    print(f"/api/health latency, {args.probes} probes each (ms: p50 / p99 / max)")
    idle = report["idle"]
    print(f"  {'idle':<40} {idle['p50_ms']:8} {idle['p99_ms']:8} {idle['max_ms']:8}")
    for tool, what in (("hostile_shape", "50 KB '%41 ' + 'a' * n"), ("hostile_page", "400 KB Russian orders")):
        health, call = report[tool]["health"], report[tool]["call"]
        print(
            f"  {'while scanning ' + what:<40} {health['p50_ms']:8} {health['p99_ms']:8} {health['max_ms']:8}"
            f"   (each call {call['p50_ms']} ms p50, {call['n']} calls)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
