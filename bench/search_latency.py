"""How long `search_tools` takes over 1,000 tools, beside a plain `tools/list` in the same run.

One `hintgate serve` over stdio (recording off), one synthetic upstream listing
1,000 tools (`bench/upstream_many_tools.py`), the lean JSON-RPC client of
`bench/gateway_latency.py`. After a warm-up (the first search builds the
index), `tools/list`, `search_tools` and `ping` (what any request costs over
the pipe: the floor) are called in interleaved rounds, so machine noise hits
them alike; each is timed from request to answer. Then the gateway's own
share, which the machine's load does not inflate the way it inflates a round
trip: its CPU time per request (user + system, from `/proc/PID/stat`, over a
block of each kind of request), and the gateway's work for one search in
this process (`Discovery.search` over a catalog of the same 1,000 tools:
arguments checked, filters, ranking, the answer built; no pipe) beside the
ranking alone (`ToolIndex.rank`). The goal: `search_tools` p95 at most 5 ms.

Usage::

    python bench/search_latency.py [--calls 300] [--tools 1000] [--format text|json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
for path in (str(REPO / "src"), str(BENCH)):
    if path not in sys.path:
        sys.path.insert(0, path)

from gateway_latency import StdioClient, percentile, summarize  # noqa: E402
from hintgate.discovery.served import SearchSettings  # noqa: E402
from hintgate.hints.catalog import build_catalog, resolve_tool  # noqa: E402
from hintgate.hints.trust import Trust  # noqa: E402
from hintgate.server.discovery import Discovery  # noqa: E402
from upstream_many_tools import make_tools  # noqa: E402

GOAL_P95_MS = 5.0
QUERIES = (
    "list the open issues",
    "create a new invoice for a customer",
    "delete an archived report",
    "how many events happened today",
    "export every user to a file",
    "update the label of a task",
    "search the notes for a phrase",
    "sync records with the workspace",
)
"""Task-phrased queries over the synthetic tools' vocabulary (verbs and nouns of notes, issues, invoices...)."""


def cpu_seconds(pid: int) -> float:
    """The user + system CPU time a process has used (Linux `/proc/PID/stat`)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def cpu_per_request(client: StdioClient, method: str, params: dict[str, Any], count: int) -> float:
    """The gateway's CPU milliseconds per request over `count` requests of one kind, one after the other."""
    assert client.process is not None
    before = cpu_seconds(client.process.pid)
    for _ in range(count):
        await client.request(method, params, timeout=60)
    return (cpu_seconds(client.process.pid) - before) * 1000 / count


async def in_process(calls: int, tools: int) -> tuple[list[float], list[float]]:
    """Milliseconds of `Discovery.search` (the gateway's whole work for one search) and of the ranking alone."""
    catalog = build_catalog([("synth", "", [resolve_tool(t, trust=Trust.LOCAL) for t in make_tools(tools, "synth")])])
    discovery = Discovery(SearchSettings(), {})
    listing = discovery.listing(catalog, (), None, None)
    await discovery.search(catalog, listing, {"query": QUERIES[0]})  # builds the index
    index = (await discovery.indexed(catalog)).index
    search_ms: list[float] = []
    rank_ms: list[float] = []
    for i in range(calls):
        query = QUERIES[i % len(QUERIES)]
        started = time.perf_counter()
        await discovery.search(catalog, listing, {"query": query})
        search_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        index.rank(query)
        rank_ms.append((time.perf_counter() - started) * 1000)
    return search_ms, rank_ms


async def measure(calls: int, tools: int, workdir: Path) -> dict[str, Any]:
    config = workdir / "hintgate.json"
    upstream = {"command": sys.executable, "args": [str(BENCH / "upstream_many_tools.py"), "--tools", str(tools)]}
    config.write_text(json.dumps({"mcpServers": {"synth": upstream}, "search": {"mode": "always"}}))
    argv = [sys.executable, "-m", "hintgate", "serve", "--config", str(config), "--no-record"]
    env = {**os.environ, "HINTGATE_DATA_DIR": str(workdir / "data"), "PYTHONUNBUFFERED": "1"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "src"), os.environ.get("PYTHONPATH")]))
    client = StdioClient("hintgate", argv, env=env)
    await client.start()
    try:
        await client.initialize(timeout=120)
        listed, _ = await client.list_tools(timeout=120)
        search = {"name": "search_tools", "arguments": {"query": QUERIES[0]}}
        first = time.perf_counter()
        answer = await client.request("tools/call", search, timeout=120)  # builds the index
        first_ms = (time.perf_counter() - first) * 1000
        found = answer["structuredContent"]["tools"]
        for _ in range(20):
            await client.request("tools/list", {}, timeout=60)
            await client.request("tools/call", search, timeout=60)
        list_ms: list[float] = []
        search_ms: list[float] = []
        ping_ms: list[float] = []
        for i in range(calls):
            query = QUERIES[i % len(QUERIES)]
            order = [("list", None), ("search", query), ("ping", None)]
            order = order[i % 3 :] + order[: i % 3]
            for kind, text in order:
                started = time.perf_counter()
                if kind == "list":
                    await client.request("tools/list", {}, timeout=60)
                    list_ms.append((time.perf_counter() - started) * 1000)
                elif kind == "ping":
                    await client.request("ping", {}, timeout=60)
                    ping_ms.append((time.perf_counter() - started) * 1000)
                else:
                    params = {"name": "search_tools", "arguments": {"query": text}}
                    await client.request("tools/call", params, timeout=60)
                    search_ms.append((time.perf_counter() - started) * 1000)
        cpu = {
            "ping": await cpu_per_request(client, "ping", {}, calls),
            "search_tools": await cpu_per_request(client, "tools/call", search, calls),
            "tools/list": await cpu_per_request(client, "tools/list", {}, max(1, calls // 4)),
        }
    finally:
        await client.close()
    gateway_ms, rank_ms = await in_process(calls, tools)
    search_p95 = percentile(search_ms, 95)
    return {
        "tools_listed": len(listed),
        "first_search_ms": round(first_ms, 2),
        "first_search_found": [t["name"] for t in found],
        "tools_list_ms": {**summarize(list_ms), "p95": percentile(list_ms, 95)},
        "search_tools_ms": {**summarize(search_ms), "p95": search_p95},
        "gateway_search_ms": {**summarize(gateway_ms), "p95": percentile(gateway_ms, 95)},
        "rank_only_ms": {**summarize(rank_ms), "p95": percentile(rank_ms, 95)},
        "gateway_cpu_ms_per_request": {k: round(v, 3) for k, v in cpu.items()},
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "ping_ms": {**summarize(ping_ms), "p95": percentile(ping_ms, 95)},
        "search_over_list_p95": search_p95 / percentile(list_ms, 95),
        "goal_p95_ms": GOAL_P95_MS,
        "met": search_p95 <= GOAL_P95_MS,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        result = asyncio.run(measure(args.calls, args.tools, Path(workdir)))
    if args.format == "json":
        print(json.dumps(result, indent=2))
    else:
        print(f"{result['tools_listed']} tools listed; first search (builds the index) {result['first_search_ms']} ms")
        for label in ("tools_list_ms", "search_tools_ms", "ping_ms", "gateway_search_ms", "rank_only_ms"):
            s = result[label]
            print(f"{label:17} median {s['median']:.2f}  p95 {s['p95']:.2f}  p99 {s['p99']:.2f}  (n={s['n']})")
        cpu = ", ".join(f"{k} {v:.3f}" for k, v in result["gateway_cpu_ms_per_request"].items())
        print(f"gateway CPU ms per request: {cpu}")
        print(f"load average: {' '.join(str(x) for x in result['load_average'])}")
        print(f"search_tools p95 / tools/list p95: {result['search_over_list_p95']:.2f}")
        print(f"goal: search_tools p95 <= {GOAL_P95_MS} ms: {'met' if result['met'] else 'NOT met'}")
    return 0 if result["met"] else 1


if __name__ == "__main__":
    sys.exit(main())
