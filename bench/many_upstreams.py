"""hintgate in front of many upstream servers: start-up, tools/list, memory, and a catalog rebuild.

Two parts:

1. **End to end.** `python -m hintgate serve` (stdio, recording on into a
   temporary data dir) in front of `--upstreams` (100) copies of
   `bench/upstream_many_tools.py --tools 100 --distinct`, each its own stdio
   child: real MCP over a real transport, a stdlib-only process of about
   10 MB that starts in tens of milliseconds. One of them is `--changeable`.
   A lean JSON-RPC client (no SDK) measures the start-up to the first
   complete `tools/list` answered (every page), that first listing, the
   steady listing (median of `--lists`), the gateway's RSS, and the time
   from calling the changeable server's `bench_change_tools` (the upstream
   changes its list and says so) to the gateway's own
   `notifications/tools/list_changed` reaching the client: the upstream's
   relisting plus the catalog rebuild plus the broadcast.
2. **In process.** The same catalog (100 × 100 tools) on fake sources in
   one process: the first build, then a rebuild after one server's list
   changed, with the gateway's memos (only that server's tools resolved
   and scanned again) and with them cleared (every tool resolved again).

Usage::

    python bench/many_upstreams.py [--upstreams 100] [--tools 100] [--lists 10] [--format json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from upstream_many_tools import CHANGE_TOOL, make_tools  # noqa: E402

WAIT = 120.0
"""Seconds any one step may take before the bench gives up (the machine may be loaded)."""


def progress(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def proc_memory(pid: int) -> dict[str, float]:
    """VmRSS and VmHWM of a process, in MB."""
    out: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) / 1024
    return out


class StdioPeer:
    """A child speaking newline-delimited JSON-RPC: requests by id, notifications into a queue."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self._ids = 0
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.notifications: asyncio.Queue[tuple[float, str]] = asyncio.Queue()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            message = json.loads(line)
            if "id" in message and message["id"] in self._waiting:
                self._waiting.pop(message["id"]).set_result(message)
            elif "method" in message and "id" not in message:
                self.notifications.put_nowait((time.perf_counter(), message["method"]))

    async def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self._ids += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[self._ids] = future
        await self.send({"jsonrpc": "2.0", "id": self._ids, "method": method, "params": params or {}})
        reply = await asyncio.wait_for(future, WAIT)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        result: dict[str, Any] = reply["result"]
        return result

    async def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        await self.proc.stdin.drain()

    async def list_tools(self) -> list[dict[str, Any]]:
        """Every page of tools/list."""
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            page = await self.request("tools/list", {"cursor": cursor} if cursor else {})
            tools.extend(page["tools"])
            cursor = page.get("nextCursor")
            if not cursor:
                return tools

    async def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), 30)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader


async def end_to_end(upstreams: int, tools: int, lists: int, work: Path) -> dict[str, Any]:
    fixture = str(HERE / "upstream_many_tools.py")
    changeable = f"s{upstreams // 2:03d}"
    servers = {}
    for i in range(upstreams):
        name = f"s{i:03d}"
        args = [fixture, "--tools", str(tools), "--name", name, "--distinct"]
        servers[name] = {"command": sys.executable, "args": [*args, "--changeable"] if name == changeable else args}
    config = work / "hintgate.json"
    config.write_text(json.dumps({"mcpServers": servers, "policy": {"mode": "bypass"}}))
    env = {**os.environ, "HINTGATE_DATA_DIR": str(work / "data"), "HOME": str(work), "PYTHONUNBUFFERED": "1"}
    started = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "hintgate",
        "serve",
        "--config",
        str(config),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=(work / "gateway.log").open("wb"),
        env=env,
        limit=2**26,  # a page of 500 tools is one line of about half a megabyte
    )
    peer = StdioPeer(proc)
    try:
        await peer.request(
            "initialize",
            {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}},
        )
        await peer.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        progress(f"initialize answered after {time.perf_counter() - started:.1f} s")
        first_at = time.perf_counter()
        listed = await peer.list_tools()
        done = time.perf_counter()
        progress(f"first tools/list: {len(listed)} tools after {done - started:.1f} s")
        steady = []
        for _ in range(lists):
            t = time.perf_counter()
            await peer.list_tools()
            steady.append(time.perf_counter() - t)
        memory = proc_memory(proc.pid)
        rebuilds = []
        for _ in range(3):
            while not peer.notifications.empty():
                peer.notifications.get_nowait()
            t = time.perf_counter()
            await peer.request("tools/call", {"name": f"{changeable}_{CHANGE_TOOL}", "arguments": {}})
            while True:
                at, method = await asyncio.wait_for(peer.notifications.get(), WAIT)
                if method == "notifications/tools/list_changed":
                    break
            rebuilds.append(at - t)
            progress(f"list_changed reached the client after {(at - t) * 1000:.0f} ms")
        changed = await peer.list_tools()
        assert any("[changed 3]" in str(tool.get("description")) for tool in changed), "the change was not listed"
    finally:
        await peer.close()
        progress(f"the gateway's log ends: {(work / 'gateway.log').read_text()[-300:]!r}")
    return {
        "upstreams": upstreams,
        "tools": len(listed),
        "startup_to_first_list_s": done - started,
        "first_list_ms": (done - first_at) * 1000,
        "steady_list_median_ms": statistics.median(steady) * 1000,
        "gateway_rss_mb": memory["VmRSS"],
        "gateway_hwm_mb": memory["VmHWM"],
        "list_changed_median_ms": statistics.median(rebuilds) * 1000,
    }


async def in_process(upstreams: int, tools: int) -> dict[str, Any]:
    from hintgate.config.loading import parse_config
    from hintgate.hints.catalog import Catalog
    from hintgate.hints.quarantine import ScanMemo
    from hintgate.server.gateway import Gateway
    from hintgate.testing import FakeSource

    sources = [FakeSource(f"s{i:03d}", tools=make_tools(tools, f"s{i:03d}", distinct=True)) for i in range(upstreams)]
    gateway = Gateway(parse_config({"mcpServers": {}}), sources={s.name: s for s in sources})
    t = time.perf_counter()
    async with gateway:
        first = time.perf_counter() - t
        out: dict[str, Any] = {"tools": len(gateway.catalog.entries), "first_build_ms": first * 1000}
        for round_, memo in enumerate(("memo", "cleared", "memo", "cleared")):
            changed = sources[upstreams // 2]
            changed.tools = [{**tool, "description": f"{tool['description']} r{round_}"} for tool in changed.tools]
            if memo == "cleared":
                gateway.catalog_keeper.resolved.clear()
                gateway.catalog_keeper.scans = ScanMemo()
                gateway.catalog_keeper._built = Catalog({})
            before = gateway.catalog_keeper.resolved.resolved
            t = time.perf_counter()
            gateway.rebuild(("tools",))
            took = (time.perf_counter() - t) * 1000
            out.setdefault(f"rebuild_{memo}_ms", []).append(took)
            out[f"resolved_{memo}"] = gateway.catalog_keeper.resolved.resolved - before
    return out


def _range(values: list[float]) -> str:
    return f"{min(values):.0f}–{max(values):.0f}" if len(values) > 1 else f"{values[0]:.0f}"


def report(e2e: dict[str, Any] | None, inproc: dict[str, Any]) -> None:
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, {os.cpu_count()} cores")
    if e2e is not None:
        print(f"\nhintgate serve, {e2e['upstreams']} stdio upstreams, {e2e['tools']} tools listed")
        rows = [
            ("start-up to first tools/list answered", f"{e2e['startup_to_first_list_s']:.1f} s"),
            ("first tools/list (all pages)", f"{e2e['first_list_ms']:.0f} ms"),
            ("steady tools/list, median", f"{e2e['steady_list_median_ms']:.0f} ms"),
            ("gateway RSS / peak (VmHWM)", f"{e2e['gateway_rss_mb']:.0f} / {e2e['gateway_hwm_mb']:.0f} MB"),
            ("one server's list_changed → client told", f"{e2e['list_changed_median_ms']:.0f} ms"),
        ]
        for label, value in rows:
            print(f"  {label:<44}{value:>16}")
    print(f"\nin process, {inproc['tools']} tools, one server's list changed")
    print(f"  {'first build':<44}{inproc['first_build_ms']:>13.0f} ms")
    memo, cleared = inproc["rebuild_memo_ms"], inproc["rebuild_cleared_ms"]
    print(f"  {'rebuild, memos kept':<44}{_range(memo):>13} ms  ({inproc['resolved_memo']} tools resolved)")
    print(f"  {'rebuild, memos cleared':<44}{_range(cleared):>13} ms  ({inproc['resolved_cleared']} tools resolved)")


async def main_async(opts: argparse.Namespace) -> int:
    e2e = None
    if not opts.in_process_only:
        with tempfile.TemporaryDirectory(prefix="hintgate-bench-") as work:
            e2e = await end_to_end(opts.upstreams, opts.tools, opts.lists, Path(work))
    inproc = await in_process(opts.upstreams, opts.tools)
    if opts.format == "json":
        print(json.dumps({"load_average": os.getloadavg(), "end_to_end": e2e, "in_process": inproc}, indent=2))
    else:
        report(e2e, inproc)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--upstreams", type=int, default=100, help="upstream servers (default 100)")
    parser.add_argument("--tools", type=int, default=100, help="tools per upstream (default 100)")
    parser.add_argument("--lists", type=int, default=10, help="steady tools/list calls (default 10)")
    parser.add_argument("--in-process-only", action="store_true", help="skip the end-to-end part")
    parser.add_argument("--format", choices=("table", "json"), default="table")
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
