"""A server listing 10,000 tools: how long a gateway takes to start, and how it answers meanwhile when they change.

Usage: python bench/many_tools.py [--tools 10000] [--flips 3] [--baseline CHECKOUT]

`hintgate serve --http` recording to SQLite over the hostile fixture
`tests/fixtures/many_tools_server.py` (stdio, every tool in one page). Start:
seconds from spawning the gateway until its first `tools/list` over MCP
answers. Then `/api/health` is probed every 0.2 s (each probe given 5 s) while
the server changes all its tools and sends `list_changed`, `--flips` times, 3 s
apart, and for 20 s after the last: the probes' latency (p50, p95, max) and how
many went unanswered within 5 s. With `--baseline`, a checkout of another
revision (its `src/`) runs the same in the same run.
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

REPO = Path(__file__).resolve().parents[1]
SERVER = REPO / "tests" / "fixtures" / "many_tools_server.py"
PROBE_EVERY = 0.2
PROBE_TIMEOUT = 5.0


async def measure(src: Path, tools: int, flips: int, work: Path) -> dict[str, Any]:
    import httpx
    from mcp import Client

    from hintgate.testing import running_gateway

    config = work / "hintgate.json"
    many = {"command": sys.executable, "args": [str(SERVER), "--tools", str(tools)]}
    config.write_text(json.dumps({"mcpServers": {"many": many}, "policy": {"mode": "bypass"}}))
    env = {"PYTHONPATH": str(src), "HINTGATE_DATA_DIR": str(work / "data")}
    began = time.perf_counter()
    with running_gateway(
        "--config", str(config), "--db", f"sqlite:///{work / 'calls.db'}", env=env, startup_timeout=600
    ) as gateway:
        async with Client(gateway.mcp_transport(), mode="legacy") as client:
            listed = len((await client.list_tools()).tools)
            started = time.perf_counter() - began
            latencies: list[float] = []
            missed = 0

            async def probe(http: httpx.AsyncClient) -> None:
                nonlocal missed
                sent = time.perf_counter()
                try:
                    await http.get("/api/health", timeout=PROBE_TIMEOUT)
                except httpx.TimeoutException:
                    missed += 1
                    return
                latencies.append(time.perf_counter() - sent)

            async with httpx.AsyncClient(base_url=gateway.base_url) as http, asyncio.TaskGroup() as group:
                end = time.monotonic() + flips * 3.0 + 20.0
                next_flip = time.monotonic()
                done_flips = 0
                while time.monotonic() < end:
                    if done_flips < flips and time.monotonic() >= next_flip:
                        group.create_task(client.call_tool("many_flip", {}))
                        done_flips += 1
                        next_flip += 3.0
                    group.create_task(probe(http))
                    await asyncio.sleep(PROBE_EVERY)
    latencies.sort()
    return {
        "listed": listed,
        "start_s": started,
        "probes": len(latencies) + missed,
        "missed": missed,
        "p50_ms": 1000 * statistics.median(latencies) if latencies else None,
        "p95_ms": 1000 * latencies[int(0.95 * (len(latencies) - 1))] if latencies else None,
        "max_ms": 1000 * latencies[-1] if latencies else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tools", type=int, default=10_000)
    parser.add_argument("--flips", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="a checkout of another revision, run the same way")
    opts = parser.parse_args()
    targets = {"hintgate": REPO / "src"}
    if opts.baseline is not None:
        targets["baseline"] = opts.baseline / "src"
    report: dict[str, dict[str, Any]] = {}
    for name, src in targets.items():
        with tempfile.TemporaryDirectory(prefix="hintgate-many-") as work:
            report[name] = row = asyncio.run(measure(src, opts.tools, opts.flips, Path(work)))
        p50, p95, top = (f"{row[k]:.0f}" if row[k] is not None else "-" for k in ("p50_ms", "p95_ms", "max_ms"))
        print(
            f"{name:9} start {row['start_s']:.1f} s ({row['listed']} tools in the first page); /api/health during "
            f"{opts.flips} relistings: p50 {p50} ms, p95 {p95} ms, max {top} ms, "
            f"{row['missed']} of {row['probes']} unanswered within {PROBE_TIMEOUT:g} s",
            flush=True,
        )
    print(json.dumps(report), file=sys.stderr)


if __name__ == "__main__":
    main()
