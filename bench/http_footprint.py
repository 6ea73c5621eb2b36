"""What `hintgate serve --http` costs to start and to hold sessions.

1. Start-up, recording off (`--no-record`) and on (SQLite in a temporary
   directory): from spawning `hintgate serve --http` (with `mcp-server-time`
   upstream over stdio) until its first `tools/list` is answered, median of
   `--starts` starts (the first creates the database, the others open it as
   a restarted gateway would); with the gateway's CPU time by then (less
   sensitive to the machine's load than the wall clock) and its resident
   memory (VmRSS) and peak (VmHWM), from /proc. Then one more start of each
   under `python -X importtime`, until the same first `tools/list`: the
   imports of the real start path, the slowest listed (cumulative, as
   imported by hintgate's own code or the interpreter, not nested inside a
   library).
2. Where the peak comes, recording off and on: the gateway's resident memory
   (VmRSS) and its peak so far (VmHWM) once it listens, after 16 sessions
   opened, after the first `tools/call`, after 5 calls on each session, and
   after `--calls` more; with `--identity`, every session with its own
   person's token from the tests' OpenID provider (npm `oidc-provider`, as
   `bench/http_throughput.py --identity`), as a deployment runs. With
   `--peers-python`, FastMCP's proxy of the same upstream (run from that
   virtualenv, as `bench/http_throughput.py` runs it) goes through the same
   phases in the same run, without tokens (it checks none). With
   `--baseline CHECKOUT`, each gateway is run from CHECKOUT's `src` too
   (labelled `base:`), right before the same one from this tree, `--rounds`
   times: a change measured against the code before it, back to back.
3. Idle sessions: the gateway's resident memory (VmRSS, from /proc) after one
   session, then after `--sessions` more handshake-era sessions are opened
   (initialize + notifications/initialized, then left idle), in bytes per
   session; then after 100 of them made one call each.

Numbers only; nothing here asserts them. The same raw HTTP/1.1 client as
`bench/http_throughput.py`.

Usage: python bench/http_footprint.py [--starts 3] [--sessions 1000] [--calls 800] [--identity]
       [--peers-python PATH] [--baseline CHECKOUT] [--rounds 1] [--parts startups peaks sessions]
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
from dataclasses import dataclass
from pathlib import Path

from _procs import stop
from http_throughput import _answer, _Connection, _free_port, _proc_cpu, _session, _start_issuer, _token

PARTS = ("startups", "peaks", "sessions")

TOOL_CALL = {"name": "get_current_time", "arguments": {"timezone": "Europe/Paris"}}
# One database for every start: the first creates it, the others open it as a restarted gateway would.
RECORDING = {"recording off": ["--no-record"], "recording to SQLite": ["--db", "sqlite:///{work}/calls.db"]}


def _status_mb(pid: int, field: str) -> float:
    match = re.search(rf"{field}:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    return int(match.group(1)) / 1024 if match else 0.0


def _rss(pid: int) -> int:
    return int(_status_mb(pid, "VmRSS") * 2**20)


def _spawn(
    work: Path,
    port: int,
    extra: Sequence[str] = ("--no-record",),
    *,
    python: Sequence[str] = (),
    stderr: int | None = None,
    issuer: str | None = None,
    source: str | None = None,
) -> subprocess.Popen[bytes]:
    time_server = {"command": sys.executable, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]}
    config = work / "hintgate.json"
    served: dict[str, object] = {"mcpServers": {"time": {**time_server, "prefix": "", "trust": "trusted"}}}
    if issuer is not None:
        served["identity"] = {"issuer": issuer, "audience": f"http://127.0.0.1:{port}/mcp"}
    config.write_text(json.dumps(served))
    argv = [sys.executable, *python, "-m", "hintgate", "serve", "--config", str(config), "--http", f"127.0.0.1:{port}"]
    argv.append("--no-require-token")  # measures memory per session, not sign-in
    env = dict(os.environ, HOME=str(work), HINTGATE_DATA_DIR=str(work))
    if source is not None:  # another checkout's `src` (`--baseline`)
        env["PYTHONPATH"] = source
    sink = subprocess.DEVNULL if stderr is None else stderr
    return subprocess.Popen([*argv, *extra], env=env, stdout=subprocess.DEVNULL, stderr=sink)


async def _first_listing(port: int, proc: subprocess.Popen[bytes], token: dict[str, str] | None = None) -> float:
    """Seconds from now until a `tools/list` is answered with the upstream's tool in it."""
    started = time.perf_counter()
    async with asyncio.timeout(120):
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"hintgate exited with {proc.returncode}")
            connection = _Connection(port)
            try:
                headers = await _session(connection, token)
                _, _, body = await connection.post({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, headers)
                if b"get_current_time" in body:
                    return time.perf_counter() - started
            except (OSError, RuntimeError, ValueError, IndexError):
                await asyncio.sleep(0.02)
            finally:
                connection.close()


@dataclass
class Start:
    """One start-up, measured when the first `tools/list` was answered."""

    seconds: float
    cpu: float
    rss_mb: float
    peak_mb: float


async def _start(work: Path, extra: Sequence[str]) -> Start:
    port = _free_port()
    proc = _spawn(work, port, extra)
    try:
        seconds = await _first_listing(port, proc)
        return Start(seconds, _proc_cpu(proc.pid), _status_mb(proc.pid, "VmRSS"), _status_mb(proc.pid, "VmHWM"))
    finally:
        stop(proc)


async def _imports(work: Path, extra: Sequence[str]) -> list[tuple[int, str]]:
    """(cumulative µs, module) of the imports a real start made until its first `tools/list`, slowest first.

    Only the outermost imports of each chain, and those hintgate's own modules make (a library's
    own imports are inside its cumulative time).
    """
    log = work / "importtime.txt"
    port = _free_port()
    with log.open("wb") as sink:
        proc = _spawn(work, port, extra, python=["-X", "importtime"], stderr=sink.fileno())
        try:
            await _first_listing(port, proc)
        finally:
            stop(proc)
    rows = []
    parent_is_ours: dict[int, bool] = {}
    for line in reversed(log.read_text(errors="replace").splitlines()):  # a parent is printed after its imports
        parts = line.split("|")
        if len(parts) != 3 or not parts[1].strip().isdigit():
            continue
        name = parts[2].rstrip()
        depth = (len(name) - len(name.lstrip())) // 2
        module = name.strip()
        if depth == 0 or parent_is_ours.get(depth - 1, False):
            rows.append((int(parts[1]), module))
        parent_is_ours[depth] = module == "hintgate" or module.startswith("hintgate.")
    return sorted(rows, reverse=True)


async def _startups(work: Path, starts: int) -> None:
    print(f"start to the first tools/list answered, median of {starts} (mcp-server-time upstream):")
    for label, template in RECORDING.items():
        runs = []
        extra = [arg.format(work=work) for arg in template]
        for _ in range(starts):
            runs.append(await _start(work, extra))
        each = ", ".join(f"{r.seconds:.2f}" for r in runs)
        print(
            f"  {label:20} {statistics.median(r.seconds for r in runs):5.2f} s (of {each}); "
            f"gateway CPU {statistics.median(r.cpu for r in runs):.2f} s; "
            f"RSS {statistics.median(r.rss_mb for r in runs):.1f} MB, peak {max(r.peak_mb for r in runs):.1f} MB"
        )
    for label, template in RECORDING.items():
        extra = [arg.format(work=work) for arg in template]
        print(f"slowest imports of one start, {label} (cumulative ms, under -X importtime):")
        for micros, module in (await _imports(work, extra))[:12]:
            print(f"  {micros / 1000:8.1f}  {module}")


def _spawn_fastmcp(work: Path, port: int, peers_python: str) -> subprocess.Popen[bytes]:
    """FastMCP's proxy of the same upstream, from the peers' virtualenv (`http_throughput.py --serve-fastmcp`)."""
    time_server = {"command": sys.executable, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]}
    config = work / "fastmcp.json"
    config.write_text(json.dumps({"mcpServers": {"time": time_server}}))
    env = dict(
        os.environ,
        HOME=str(work),
        FASTMCP_SHOW_SERVER_BANNER="false",
        FASTMCP_CHECK_FOR_UPDATES="off",
        FASTMCP_LOG_LEVEL="WARNING",
    )
    script = Path(__file__).with_name("http_throughput.py")
    argv = [peers_python, str(script), "--serve-fastmcp", str(config), str(port)]
    return subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def _phases(
    work: Path,
    extra: Sequence[str],
    calls: int,
    issuer: str | None,
    peers_python: str | None = None,
    source: str | None = None,
) -> list[tuple[str, float, float]]:
    """(phase, VmRSS MB, VmHWM MB) of one server from its start through its first calls on 16 sessions.

    hintgate with `extra` on its command line (from `source`, another checkout's `src`, when given), or
    FastMCP's proxy when `peers_python` is given.
    """
    port = _free_port()
    if peers_python is None:
        proc = _spawn(work, port, extra, issuer=issuer, source=source)
    else:
        proc = _spawn_fastmcp(work, port, peers_python)
    tokens = [_token(issuer, port) if issuer else {} for _ in range(17)]
    connections = [_Connection(port) for _ in range(16)]
    seen: list[tuple[str, float, float]] = []

    def mark(phase: str) -> None:
        seen.append((phase, _status_mb(proc.pid, "VmRSS"), _status_mb(proc.pid, "VmHWM")))

    counter = iter(range(1, 10**9))

    async def call(connection: _Connection, headers: dict[str, str], times: int) -> None:
        for _ in range(times):
            number = next(counter)
            body = {"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": TOOL_CALL}
            answer_headers, answer_body = (await connection.post(body, headers))[1:]
            answer = _answer(answer_headers, answer_body, number)
            if "result" not in answer or answer["result"].get("isError"):
                raise RuntimeError(f"the call failed: {answer}")

    try:
        await _first_listing(port, proc, tokens[-1])
        await asyncio.sleep(0.5)
        mark("listening")
        sessions = [await _session(c, t) for c, t in zip(connections, tokens, strict=False)]
        mark("16 sessions")
        await call(connections[0], sessions[0], 1)
        mark("first call")
        await asyncio.gather(*(call(c, h, 5) for c, h in zip(connections, sessions, strict=True)))
        mark("5 calls each")
        await asyncio.gather(*(call(c, h, calls // 16) for c, h in zip(connections, sessions, strict=True)))
        mark(f"{calls // 16 * 16} more")
    finally:
        for connection in connections:
            connection.close()
        stop(proc)
    return seen


async def _peaks(
    work: Path, calls: int, identity: bool, peers_python: str | None, baseline: str | None = None, rounds: int = 1
) -> None:
    issuer = _start_issuer() if identity else None
    trees: list[tuple[str, str | None]] = [("", None)]
    if baseline is not None:
        trees.insert(0, ("base: ", str(Path(baseline).resolve() / "src")))
    try:
        for _ in range(rounds):
            for label, template in RECORDING.items():
                extra = [arg.format(work=work) for arg in template]
                for tree, source in trees:
                    seen = await _phases(work, extra, calls, issuer[1] if issuer else None, source=source)
                    who = " with identity" if identity else ""
                    print(f"{tree}where the peak comes, {label}{who} (VmRSS / VmHWM MB):")
                    print("  " + "; ".join(f"{phase} {rss:.1f} / {peak:.1f}" for phase, rss, peak in seen))
        if peers_python is not None:
            seen = await _phases(work, [], calls, None, peers_python)
            print("where the peak comes, FastMCP's proxy (VmRSS / VmHWM MB):")
            print("  " + "; ".join(f"{phase} {rss:.1f} / {peak:.1f}" for phase, rss, peak in seen))
    finally:
        if issuer is not None:
            stop(issuer[0])


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
        stop(proc)
    print(f"RSS after 1 session: {before / 2**20:.1f} MB")
    print(
        f"RSS with {count} more idle sessions: {idle / 2**20:.1f} MB ({(idle - before) / count:,.0f} bytes per session)"
    )
    print(f"RSS after 100 of them made a call: {active / 2**20:.1f} MB")


async def _main(opts: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="http-footprint-") as tmp:
        work = Path(tmp)
        if "startups" in opts.parts:
            await _startups(work, opts.starts)
        if "peaks" in opts.parts:
            await _peaks(work, opts.calls, opts.identity, opts.peers_python, opts.baseline, opts.rounds)
        if "sessions" in opts.parts:
            await _sessions(work, opts.sessions)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurements."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--starts", type=int, default=3, help="start-ups to time")
    parser.add_argument("--sessions", type=int, default=1000, help="idle sessions to open")
    parser.add_argument("--calls", type=int, default=800, help="calls after the first ones, where the peak comes")
    parser.add_argument(
        "--identity",
        action="store_true",
        help="where the peak comes with an identity section (npm oidc-provider, tests/peers): each session a person",
    )
    parser.add_argument(
        "--peers-python", help="python of a virtualenv with fastmcp: its proxy goes through the same phases"
    )
    parser.add_argument(
        "--baseline", metavar="CHECKOUT", help="where the peak comes: also run each gateway from CHECKOUT's src"
    )
    parser.add_argument("--rounds", type=int, default=1, help="where the peak comes: times each gateway is run")
    parser.add_argument("--parts", nargs="+", choices=PARTS, default=list(PARTS), help="which measurements to run")
    return asyncio.run(_main(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
