"""Two `serve --http` replicas on one PostgreSQL: throughput, and an approval answered across replicas.

Every setup serves `mcp-server-time` (over stdio, one child per gateway) on
127.0.0.1 and is driven by the raw keep-alive HTTP/1.1 client of
`bench/http_throughput.py` (protocol 2025-11-25, one connection per session):

- direct: the MCP SDK's own HTTP server with `get_current_time` inline, the
  reference for the added latency;
- sqlite-norecord: one `hintgate serve --http --no-record`;
- sqlite-record: one gateway recording to a SQLite file (durable commits);
- pg-record: one gateway recording to a PostgreSQL the bench starts itself
  (`bench/_postgres.py`: Debian's binaries, a temporary directory, 127.0.0.1,
  fsync on, removed after);
- pg-2-replicas: two gateways on that same PostgreSQL database (distinct
  `HINTGATE_REPLICA`, shared `HINTGATE_STATE_KEY`), the client's sessions
  spread over both, alternately, as a load balancer with session affinity would.

Per setup: calls/s, p50/p90 latency and the p50/p90 added over direct's,
gateway CPU per call (user+system from `/proc/PID/stat`, summed over the
replicas), the upstream children's CPU per call beside it (each gateway runs
its own `mcp-server-time`, one Python process answering one stdio pipe), and
each replica's peak RSS (`VmHWM`).

Then, on the two replicas, the approval latency across replicas: a session on
replica A calls `convert_time`, which a policy rule makes ask every time; the
client has no elicitation, so the call waits in the store's approval queue.
Replica B's REST API lists it (`GET /api/approvals`) and, after a random pause,
answers it (`POST /api/approvals/{id}` with `X-Hintgate-Request`). Measured:
from sending B's answer until A's call result arrives at the client; median,
p90 and max over `--rounds` rounds.

Numbers only; nothing here asserts timings. Every wait is bounded (`--budget`
seconds in all, a minute per approval round).

With `--commit fast` the recording gateways commit every
`HINTGATE_COMMIT_INTERVAL` instead of before each call returns.

Usage: python bench/replicas.py [--calls 1000] [--sessions 16] [--rounds 30] [--commit fast]
       [--only SETUP ...] [--format json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _postgres
from _procs import stop
from http_throughput import _answer, _Connection, _free_port, _peak_rss_mb, _proc_cpu, _session, _wait_ready

SETUPS = ("direct", "sqlite-norecord", "sqlite-record", "pg-record", "pg-2-replicas")
CALL = {"name": "get_current_time", "arguments": {"timezone": "Europe/Paris"}}
ASKING = {
    "name": "convert_time",
    "arguments": {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"},
}


@dataclass
class Run:
    """One setup driven once."""

    setup: str
    replicas: int
    sessions: int
    calls: int
    seconds: float
    p50_ms: float
    p90_ms: float
    cpu_per_call_ms: float
    client_cpu_per_call_ms: float
    peak_rss_mb: list[int]
    upstream_cpu_per_call_ms: float
    errors: int
    added_p50_ms: float | None = None
    added_p90_ms: float | None = None

    @property
    def rate(self) -> float:
        return self.calls / self.seconds if self.seconds else 0.0


@dataclass
class Approvals:
    """Approval latency across replicas: B's answer sent until A's call result arrives."""

    rounds: int
    median_ms: float
    p90_ms: float
    max_ms: float
    samples_ms: list[float] = field(default_factory=list)


def _children_cpu(pid: int) -> float:
    """CPU seconds used so far by a process's direct children (the upstream servers); 0 when /proc says nothing."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    total = 0.0
    for child in children:
        with contextlib.suppress(OSError, ValueError, IndexError):
            total += _proc_cpu(int(child))
    return total


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _config(work: Path) -> Path:
    time_server = {"command": sys.executable, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]}
    config = work / "hintgate.json"
    entry = {**time_server, "prefix": "", "trust": "trusted"}
    policy = {
        "askVia": "queue",
        "approvalTimeout": 60,
        "rules": [{"ask": {"tool": "convert_time", "confirm": "always"}}],
    }
    config.write_text(json.dumps({"mcpServers": {"time": entry}, "policy": policy}))
    return config


def _spawn(argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as sink:
        return subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=sink)


@contextlib.contextmanager
def _gateways(
    setup: str, work: Path, database: str | None, commit: str
) -> Iterator[list[tuple[int, subprocess.Popen[bytes]]]]:
    """Start the setup's server processes; yield (port, process) for each; stop them after."""
    base = dict(os.environ, HOME=str(work), PYTHONUNBUFFERED="1", HINTGATE_STATE_KEY=secrets.token_hex(32))
    base["HINTGATE_COMMIT"] = commit
    started: list[tuple[int, subprocess.Popen[bytes]]] = []
    try:
        if setup == "direct":
            port = _free_port()
            argv = [sys.executable, str(Path(__file__).with_name("http_throughput.py")), "--serve-direct", str(port)]
            started.append((port, _spawn(argv, dict(base, HINTGATE_DATA_DIR=str(work)), work / "direct.log")))
        else:
            replicas = 2 if setup == "pg-2-replicas" else 1
            for index in range(replicas):
                data = work / f"{setup}-{index}"
                data.mkdir()
                port = _free_port()
                argv = [sys.executable, "-m", "hintgate", "serve", "--config", str(_config(work))]
                # Measures approvals across replicas, not sign-in: no API token on loopback.
                argv += ["--http", f"127.0.0.1:{port}", "--no-require-token"]
                if setup == "sqlite-norecord":
                    argv.append("--no-record")
                elif setup == "sqlite-record":
                    argv += ["--db", f"sqlite:///{data}/hintgate.db"]
                else:
                    argv += ["--db", str(database)]
                env = dict(base, HINTGATE_DATA_DIR=str(data), HINTGATE_REPLICA=f"replica-{'ab'[index]}")
                started.append((port, _spawn(argv, env, work / f"{setup}-{index}.log")))
        yield started
    finally:
        for _, proc in started:
            stop(proc)


async def _ready(setup: str, work: Path, started: list[tuple[int, subprocess.Popen[bytes]]]) -> None:
    for index, (port, proc) in enumerate(started):
        try:
            await _wait_ready(port, proc)
        except (RuntimeError, TimeoutError) as exc:
            log = work / f"{setup if setup == 'direct' else f'{setup}-{index}'}.log"
            tail = log.read_text(errors="replace")[-1500:] if log.exists() else ""
            raise RuntimeError(f"{setup}: {exc!r}; its stderr ends: {tail}") from None


async def _throughput(setup: str, started: list[tuple[int, subprocess.Popen[bytes]]], sessions: int, calls: int) -> Run:
    ports = [port for port, _ in started]
    connections = [_Connection(ports[i % len(ports)]) for i in range(sessions)]  # spread, one replica per session
    try:
        headers = [await _session(c) for c in connections]
        counter = iter(range(1, 10**9))
        latencies: list[float] = []
        remaining = [0]
        errors = [0]

        async def worker(connection: _Connection, session: dict[str, str]) -> None:
            while remaining[0] > 0:
                remaining[0] -= 1
                request_id = next(counter)
                body = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": CALL}
                began = time.perf_counter()
                try:
                    _, answer_headers, answer_body = await connection.post(body, session)
                except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
                    errors[0] += 1  # a dropped connection is a failed call, counted and shown
                    connection.close()
                    continue
                answer = _answer(answer_headers, answer_body, request_id)
                latencies.append(time.perf_counter() - began)
                if "result" not in answer or answer["result"].get("isError"):
                    raise RuntimeError(f"{setup}: call failed: {answer}")

        remaining[0] = sessions * 5  # warm-up
        await asyncio.gather(*(worker(c, h) for c, h in zip(connections, headers, strict=True)))
        latencies.clear()
        errors[0] = 0
        remaining[0] = calls
        pids = [proc.pid for _, proc in started]
        cpu_before, client_before = sum(_proc_cpu(p) for p in pids), time.process_time()
        upstream_before = sum(_children_cpu(p) for p in pids)
        began = time.perf_counter()
        await asyncio.gather(*(worker(c, h) for c, h in zip(connections, headers, strict=True)))
        seconds = time.perf_counter() - began
        cpu = sum(_proc_cpu(p) for p in pids) - cpu_before
        client = time.process_time() - client_before
        upstream = sum(_children_cpu(p) for p in pids) - upstream_before
    finally:
        for connection in connections:
            connection.close()
    done = max(len(latencies), 1)
    return Run(
        setup=setup,
        replicas=len(started) if setup != "direct" else 0,
        sessions=sessions,
        calls=len(latencies),
        seconds=seconds,
        p50_ms=statistics.median(latencies) * 1000 if latencies else 0.0,
        p90_ms=_percentile(latencies, 0.9) * 1000 if latencies else 0.0,
        cpu_per_call_ms=cpu / done * 1000,
        client_cpu_per_call_ms=client / done * 1000,
        peak_rss_mb=[_peak_rss_mb(p) for p in pids],
        upstream_cpu_per_call_ms=upstream / done * 1000,
        errors=errors[0],
    )


async def _rest(port: int, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    """One REST request on a fresh connection (`Connection: close`); the status and the decoded JSON body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        data = json.dumps(body).encode() if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nX-Hintgate-Request: 1\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        writer.write(f"{head}Content-Length: {len(data)}\r\n\r\n".encode() + data)
        raw = await reader.read()
    finally:
        writer.close()
    head_part, _, payload = raw.partition(b"\r\n\r\n")
    status = int(head_part.split(b" ", 2)[1])
    if b"transfer-encoding: chunked" in head_part.lower():
        chunks, rest = [], payload
        while True:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line.strip() or b"0", 16)
            if size == 0:
                break
            chunks.append(rest[:size])
            rest = rest[size + 2 :]
        payload = b"".join(chunks)
    return status, json.loads(payload) if payload else None


async def _approval_round(port_b: int, session: dict[str, str], connection: _Connection) -> float:
    """A call on replica A waits for approval; answer it on B; ms from sending B's answer to A's result."""
    request_id = random.randrange(10**6, 10**9)
    body = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": ASKING}
    waiting = asyncio.ensure_future(connection.post(body, session))
    try:
        async with asyncio.timeout(60):
            while True:
                status, listed = await _rest(port_b, "GET", "/api/approvals")
                if status != 200:
                    raise RuntimeError(f"GET /api/approvals on replica B answered {status}: {listed}")
                if listed:
                    break
                await asyncio.sleep(0.01)
            [asked] = listed
            await asyncio.sleep(random.uniform(0, 0.25))  # a person answers at any moment
            began = time.perf_counter()
            status, answered = await _rest(port_b, "POST", f"/api/approvals/{asked['id']}", {"answer": "approve-once"})
            if status != 200:
                raise RuntimeError(f"POST /api/approvals/{asked['id']} on replica B answered {status}: {answered}")
            _, answer_headers, answer_body = await waiting
            arrived = time.perf_counter()
    finally:
        waiting.cancel()
    answer = _answer(answer_headers, answer_body, request_id)
    if "result" not in answer or answer["result"].get("isError"):
        raise RuntimeError(f"the approved call failed: {answer}")
    if asked.get("replica") != "replica-a":
        raise RuntimeError(f"the waiting call is on {asked.get('replica')!r}, not replica-a")
    return (arrived - began) * 1000


async def _approvals(started: list[tuple[int, subprocess.Popen[bytes]]], rounds: int) -> Approvals:
    (port_a, _), (port_b, _) = started
    connection = _Connection(port_a)
    try:
        session = await _session(connection)
        await _approval_round(port_b, session, connection)  # warm-up
        samples = [await _approval_round(port_b, session, connection) for _ in range(rounds)]
    finally:
        connection.close()
    return Approvals(
        rounds=len(samples),
        median_ms=statistics.median(samples),
        p90_ms=_percentile(samples, 0.9),
        max_ms=max(samples),
        samples_ms=[round(s, 1) for s in samples],
    )


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _document(
    opts: argparse.Namespace, runs: list[Run], approvals: Approvals | None, load: tuple[list[float], list[float]]
) -> dict[str, Any]:
    """The report for `--format json`."""
    return {
        "sessions": opts.sessions,
        "calls": opts.calls,
        "commit": opts.commit,
        "load_average": {"start": load[0], "end": load[1]},
        "runs": [dict(asdict(r), calls_per_second=round(r.rate, 1)) for r in runs],
        "approvals_across_replicas": asdict(approvals) if approvals is not None else None,
    }


def _table(runs: list[Run], approvals: Approvals | None, load: tuple[list[float], list[float]], commit: str) -> str:
    columns = ("setup", "calls/s", "p50", "+p50", "p90", "+p90", "cpu ms", "up ms", "RSS MB", "err")
    lines = [f"{columns[0]:<16}" + "".join(f"{c:>7}" for c in columns[1:-2]) + f"{columns[-2]:>10}{columns[-1]:>4}"]

    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value:+.1f}"

    for run in runs:
        cells = (f"{run.rate:.0f}", f"{run.p50_ms:.1f}", ms(run.added_p50_ms), f"{run.p90_ms:.1f}")
        cells += (ms(run.added_p90_ms), f"{run.cpu_per_call_ms:.2f}", f"{run.upstream_cpu_per_call_ms:.2f}")
        rss = "/".join(str(r) for r in run.peak_rss_mb)
        lines.append(f"{run.setup:<16}" + "".join(f"{c:>7}" for c in cells) + f"{rss:>10}{run.errors:>4}")
    lines.append(f"{commit} commits; latencies in ms; cpu ms: the gateways' CPU per call;")
    lines.append("up ms: their upstream children's (direct has none); RSS: peak per process")
    if approvals is not None:
        lines.append(
            f"answered on replica B, call on A ({approvals.rounds}): median {approvals.median_ms:.1f}, "
            f"p90 {approvals.p90_ms:.1f}, max {approvals.max_ms:.1f} ms"
        )
    start, end = (" ".join(f"{x:g}" for x in loads) for loads in load)
    lines.append(f"load average {start} at the start, {end} at the end")
    return "\n".join(lines)


async def _main(opts: argparse.Namespace) -> int:
    setups = [s for s in SETUPS if not opts.only or s in opts.only]
    needs_pg = any(s.startswith("pg-") for s in setups)
    bin_dir = _postgres.find_bin_dir() if needs_pg else None
    if needs_pg and bin_dir is None:
        print("PostgreSQL not found (initdb, pg_ctl): its setups are skipped", file=sys.stderr)
        setups = [s for s in setups if not s.startswith("pg-")]
    load_start = _load()
    runs: list[Run] = []
    approvals: Approvals | None = None
    with contextlib.ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="hintgate-replicas-")))
        server = stack.enter_context(_postgres.running(bin_dir, durable=True)) if bin_dir is not None else None
        async with asyncio.timeout(opts.budget):
            for setup in setups:
                database = server.create_database() if server is not None and setup.startswith("pg-") else None
                with _gateways(setup, work, database, opts.commit) as started:
                    await _ready(setup, work, started)
                    run = await _throughput(setup, started, opts.sessions, opts.calls)
                    print(f"  {setup}: {run.rate:.0f} calls/s", file=sys.stderr)
                    runs.append(run)
                    if setup == "pg-2-replicas" and opts.rounds > 0:
                        approvals = await _approvals(started, opts.rounds)
    direct = next((r for r in runs if r.setup == "direct"), None)
    for run in runs:
        if direct is not None and run is not direct:
            run.added_p50_ms = run.p50_ms - direct.p50_ms
            run.added_p90_ms = run.p90_ms - direct.p90_ms
    load = (load_start, _load())
    if opts.format == "json":
        print(json.dumps(_document(opts, runs, approvals, load), indent=2))
    else:
        print(_table(runs, approvals, load, opts.commit))
    return 0


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The bench's options (refused with a message naming the option when out of range)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--calls", type=int, default=1000, help="measured calls per setup")
    parser.add_argument("--sessions", type=int, default=16, help="concurrent HTTP sessions (spread over replicas)")
    parser.add_argument("--rounds", type=int, default=30, help="approval rounds across replicas (0: none)")
    parser.add_argument("--only", nargs="+", choices=SETUPS, metavar="SETUP", help=f"among {', '.join(SETUPS)}")
    parser.add_argument("--budget", type=float, default=900, help="seconds the whole bench may take")
    parser.add_argument(
        "--commit", choices=("durable", "fast"), default="durable", help="HINTGATE_COMMIT of the recording gateways"
    )
    parser.add_argument("--format", choices=("table", "json"), default="table")
    opts = parser.parse_args(argv)
    for name in ("calls", "sessions"):
        if getattr(opts, name) < 1:
            parser.error(f"--{name} must be at least 1, not {getattr(opts, name)}")
    if opts.rounds < 0:
        parser.error(f"--rounds must be 0 or more, not {opts.rounds}")
    if opts.budget <= 0:
        parser.error(f"--budget must be more than 0 seconds, not {opts.budget:g}")
    return opts


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bench."""
    return asyncio.run(_main(parse(argv)))


if __name__ == "__main__":
    sys.exit(main())
