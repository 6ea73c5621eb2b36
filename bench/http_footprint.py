"""What `hintgate serve --http` costs to start and to hold sessions.

1. Start-up: from spawning `hintgate serve --http` (with `mcp-server-time`
   upstream over stdio, recording off) until its first `tools/list` is
   answered, median of `--starts` starts; and the import time of the modules
   the start path loads (`python -X importtime`), the largest listed.
2. Idle sessions: the gateway's resident memory (VmRSS, from /proc) after one
   session, then after `--sessions` more handshake-era sessions are opened
   (initialize + notifications/initialized, then left idle), in bytes per
   session; then after 100 of them made one call each.

Numbers only; nothing here asserts them. The same raw HTTP/1.1 client as
`bench/http_throughput.py`.

Usage: python bench/http_footprint.py [--starts 3] [--sessions 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from http_throughput import _Connection, _free_port, _session

TOOL_CALL = {"name": "get_current_time", "arguments": {"timezone": "Europe/Paris"}}


def _rss(pid: int) -> int:
    match = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    return int(match.group(1)) * 1024 if match else 0


def _spawn(work: Path, port: int) -> subprocess.Popen[bytes]:
    time_server = {"command": sys.executable, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]}
    config = work / "hintgate.json"
    config.write_text(json.dumps({"mcpServers": {"time": {**time_server, "prefix": "", "trust": "trusted"}}}))
    argv = [sys.executable, "-m", "hintgate", "serve", "--config", str(config), "--http", f"127.0.0.1:{port}"]
    env = dict(os.environ, HOME=str(work), HINTGATE_DATA_DIR=str(work))
    return subprocess.Popen([*argv, "--no-record"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(15)


async def _first_listing(port: int, proc: subprocess.Popen[bytes]) -> float:
    """Seconds from now until a `tools/list` is answered with the upstream's tool in it."""
    started = time.perf_counter()
    async with asyncio.timeout(120):
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"hintgate exited with {proc.returncode}")
            connection = _Connection(port)
            try:
                headers = await _session(connection)
                _, _, body = await connection.post({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, headers)
                if b"get_current_time" in body:
                    return time.perf_counter() - started
            except (OSError, RuntimeError, ValueError, IndexError):
                await asyncio.sleep(0.02)
            finally:
                connection.close()


def _imports() -> list[tuple[int, str]]:
    """(cumulative µs, module) of the slowest imports on the start path."""
    probe = "import hintgate.cli.serve, hintgate.server.gateway, hintgate.web.app"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    rows = []
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].rstrip()))
    return sorted(rows, reverse=True)


async def _sessions(work: Path, count: int) -> None:
    port = _free_port()
    proc = _spawn(work, port)
    try:
        await _first_listing(port, proc)
        connection = _Connection(port)
        await _session(connection)
        await asyncio.sleep(1)
        before = _rss(proc.pid)
        opened = [await _session(connection) for _ in range(count)]
        await asyncio.sleep(1)
        idle = _rss(proc.pid)
        for number, headers in enumerate(opened[:100], start=1):
            body = {"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": TOOL_CALL}
            await connection.post(body, headers)
        active = _rss(proc.pid)
        connection.close()
    finally:
        _stop(proc)
    print(f"RSS after 1 session: {before / 2**20:.1f} MB")
    print(
        f"RSS with {count} more idle sessions: {idle / 2**20:.1f} MB ({(idle - before) / count:,.0f} bytes per session)"
    )
    print(f"RSS after 100 of them made a call: {active / 2**20:.1f} MB")


async def _main(opts: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="http-footprint-") as tmp:
        work = Path(tmp)
        times = []
        for _ in range(opts.starts):
            port = _free_port()
            proc = _spawn(work, port)
            try:
                times.append(await _first_listing(port, proc))
            finally:
                _stop(proc)
        each = ", ".join(f"{t:.2f}" for t in times)
        print(f"start to first tools/list: median {statistics.median(times):.2f} s (of {each})")
        print("slowest imports on the start path (cumulative ms):")
        for micros, module in _imports()[:12]:
            print(f"  {micros / 1000:8.1f}  {module}")
        await _sessions(work, opts.sessions)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurements."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--starts", type=int, default=3, help="start-ups to time")
    parser.add_argument("--sessions", type=int, default=1000, help="idle sessions to open")
    return asyncio.run(_main(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
