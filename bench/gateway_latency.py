"""What hintgate adds to an MCP call, against a direct connection and FastMCP's proxy.

One run measures, over stdio, with one lean JSON-RPC client (defined here, the
same for every target, so the client's own cost does not hide the middle's):

1. Per-call latency of ``tools/call get_current_time {"timezone": "UTC"}`` on
   ``mcp-server-time``: direct, through ``hintgate serve`` (prefix ``""``) and
   through FastMCP's proxy (``fastmcp.server.create_proxy`` on a one-server
   ``mcpServers`` config, run from a separate virtualenv). After a warm-up the
   three are called in interleaved rounds, a few calls each with the order
   rotating, so that machine noise hits all three alike.
2. ``tools/list`` with 20 synthetic upstreams of 50 tools each
   (``bench/upstream_many_tools.py``): start-up to ready, the first complete
   listing and the steady-state listing, through hintgate and through
   FastMCP's proxy given the same config (FastMCP's part is capped in calls
   and seconds: it starts every upstream anew per request). One synthetic
   server offering all 1000 tools itself is the direct reference.

Usage::

    python bench/gateway_latency.py [--calls 300] [--quick] [--format text|json]
                                    [--peers-python PATH] [--skip-fastmcp]
                                    [--baseline CHECKOUT] [--breakdown]
                                    [--profile [--profile-calls 2000]]

FastMCP needs its own environment (see ``bench/README.md``): by default
``/tmp/hintgate-peers/bin/python``, or ``$HINTGATE_BENCH_PEERS_PYTHON``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import itertools
import json
import math
import os
import platform
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
SYNTH = BENCH / "upstream_many_tools.py"
DEFAULT_PEERS_PYTHON = os.environ.get("HINTGATE_BENCH_PEERS_PYTHON", "/tmp/hintgate-peers/bin/python")
HANDSHAKE_VERSION = "2025-11-25"
TIME_CALL = {"name": "get_current_time", "arguments": {"timezone": "UTC"}}

GOAL_ADDED_MS = 1.0
"""hintgate adds at most this much to the median call, over direct."""
GOAL_FRACTION_OF_FASTMCP = 0.25
GOAL_RECORDING_MS = 0.2
"""Recording (store on) may add at most this to the median call (issue 4)."""
"""hintgate adds at most this fraction of what FastMCP's proxy adds (median)."""

_LINE_LIMIT = 64 * 1024 * 1024


class BenchError(Exception):
    """A target failed: it did not start, answered an error, or timed out."""


# -- a lean stdio JSON-RPC client -----------------------------------------------


class StdioClient:
    """A minimal MCP client over stdio: one child process, requests matched by id.

    Every wait is bounded; `close()` stops the child and any process it left behind.
    """

    def __init__(self, label: str, argv: Sequence[str], *, env: dict[str, str] | None = None) -> None:
        """Prepare (not start) a client.

        Args:
            label: a name for messages.
            argv: the server's command line.
            env: its environment (default: this process's).
        """
        self.label = label
        self.argv = list(argv)
        self.env = env
        self.process: asyncio.subprocess.Process | None = None
        self.stderr_file: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._known_pids: set[int] = set()

    async def start(self) -> None:
        """Start the child process and its reader."""
        self.process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=self.stderr_file,
            env=self.env,
            limit=_LINE_LIMIT,
            start_new_session=True,
        )
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.process is not None
        assert self.process.stdout is not None
        stdout = self.process.stdout
        error: BenchError | None = None
        try:
            while line := await stdout.readline():
                if not line.strip():
                    continue
                try:
                    message = json.loads(line)
                except ValueError:
                    continue  # not ours to judge here; a request waiting on it times out
                if not isinstance(message, dict):
                    continue
                if "method" in message:
                    if "id" in message:
                        await self._answer(message)
                    continue
                future = self._pending.get(message.get("id"))  # type: ignore[arg-type]
                if future is None or future.done():
                    continue
                if "error" in message:
                    future.set_exception(BenchError(f"{self.label}: JSON-RPC error {message['error']}"))
                else:
                    future.set_result(message.get("result") or {})
            error = BenchError(f"{self.label}: the server closed its stdout; {self.stderr_tail()}")
        except Exception as exc:  # any reader failure fails the waiting requests
            error = BenchError(f"{self.label}: reading failed: {exc!r}")
        for future in self._pending.values():
            if not future.done():
                future.set_exception(error)

    async def _answer(self, message: dict[str, Any]) -> None:
        method = message["method"]
        if method == "ping":
            reply: dict[str, Any] = {"result": {}}
        elif method == "roots/list":
            reply = {"result": {"roots": []}}
        else:
            reply = {"error": {"code": -32601, "message": f"the bench client does not handle {method}"}}
        with contextlib.suppress(Exception):
            await self._send({"jsonrpc": "2.0", "id": message["id"], **reply})

    async def _send(self, message: dict[str, Any]) -> None:
        assert self.process is not None
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        await self.process.stdin.drain()

    async def request(self, method: str, params: dict[str, Any] | None = None, *, timeout: float) -> dict[str, Any]:
        """Send a request and wait at most `timeout` seconds for its result.

        Args:
            method: the JSON-RPC method.
            params: its params, if any.
            timeout: seconds to wait for the answer.

        Returns:
            The ``result`` object.

        Raises:
            BenchError: an error answer, a timeout, or a dead server.
        """
        request_id = next(self._ids)
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            await self._send(message)
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise BenchError(f"{self.label}: {method} got no answer within {timeout:g} s") from None
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise BenchError(f"{self.label}: the server's stdin is closed; {self.stderr_tail()}") from exc
        finally:
            self._pending.pop(request_id, None)

    async def initialize(self, *, timeout: float) -> dict[str, Any]:
        """The handshake-era ``initialize`` plus ``notifications/initialized``.

        Args:
            timeout: seconds to wait for the answer.

        Returns:
            The ``initialize`` result.
        """
        result = await self.request(
            "initialize",
            {
                "protocolVersion": HANDSHAKE_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "hintgate-bench", "version": "0"},
            },
            timeout=timeout,
        )
        await self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        if self.process is not None:
            self._known_pids |= _descendants(self.process.pid)
        return result

    async def list_tools(self, *, timeout: float) -> tuple[list[dict[str, Any]], int]:
        """Every tool, following ``nextCursor``.

        Args:
            timeout: seconds allowed for the whole listing.

        Returns:
            The tools and the number of pages it took.
        """
        deadline = time.monotonic() + timeout
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        for pages in itertools.count(1):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BenchError(f"{self.label}: tools/list did not finish within {timeout:g} s")
            result = await self.request("tools/list", {"cursor": cursor} if cursor else None, timeout=remaining)
            tools.extend(result.get("tools", []))
            cursor = result.get("nextCursor")
            if not cursor:
                return tools, pages
        raise AssertionError("unreachable")

    def stderr_tail(self, lines: int = 8) -> str:
        """The last lines the server wrote to stderr, for error messages."""
        try:
            self.stderr_file.seek(0)
            text = self.stderr_file.read().decode("utf-8", "replace").strip().splitlines()
        except (OSError, ValueError):
            return "its stderr is unavailable"
        return "its last stderr lines: " + " | ".join(text[-lines:]) if text else "it wrote nothing to stderr"

    async def close(self) -> None:
        """Close stdin, then SIGTERM, then SIGKILL (2 s apart); then the same for anything it left running."""
        process = self.process
        if process is not None:
            self._known_pids |= _descendants(process.pid)
            if process.stdin is not None and not process.stdin.is_closing():
                process.stdin.close()
            for step in (None, signal.SIGTERM, signal.SIGKILL):
                if process.returncode is not None:
                    break
                if step is not None:
                    with contextlib.suppress(ProcessLookupError):
                        process.send_signal(step)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(process.wait(), 2.0)
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        await _reap(self._known_pids)
        self.stderr_file.close()


def _descendants(pid: int) -> set[int]:
    """The pids of every live descendant of `pid` (Linux /proc), to stop what a proxy left behind."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rpartition(")")[2].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    found: set[int] = set()
    stack = [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


async def _reap(pids: set[int]) -> None:
    """SIGTERM then SIGKILL whichever of `pids` still run (they are our children's children)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        live = [pid for pid in pids if _alive(pid)]
        if not live:
            return
        for pid in live:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)
        for _ in range(20):
            if not any(_alive(pid) for pid in live):
                break
            await asyncio.sleep(0.1)


# -- statistics -------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """The `q`-th percentile (0-100) with linear interpolation between ranks."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summarize(samples_ms: Sequence[float]) -> dict[str, float]:
    """Median, p90, p99, mean, min and count of samples in milliseconds."""
    return {
        "n": len(samples_ms),
        "median": statistics.median(samples_ms) if samples_ms else math.nan,
        "p90": percentile(samples_ms, 90),
        "p99": percentile(samples_ms, 99),
        "mean": statistics.fmean(samples_ms) if samples_ms else math.nan,
        "min": min(samples_ms) if samples_ms else math.nan,
    }


# -- targets ----------------------------------------------------------------------


@dataclass
class Options:
    """What to run, from the command line."""

    calls: int
    warmup: int
    burst: int
    list_calls: int
    startups: int
    fastmcp_list_calls: int
    fastmcp_list_budget: float
    peers_python: str | None
    profile: bool
    profile_calls: int
    workdir: Path
    baseline: str | None = None
    breakdown: bool = False


def _hintgate_argv(config: Path, db: Path | None = None, *, stamps: Path | None = None) -> list[str]:
    """hintgate over stdio; recording to `db` when given, else with recording off; with every call's stages
    stamped into `stamps` when given (`bench/call_stamps.py`)."""
    record = ["--db", f"sqlite:///{db}"] if db is not None else ["--no-record"]
    command = ["-m", "hintgate"] if stamps is None else [str(BENCH / "call_stamps.py"), str(stamps)]
    return [sys.executable, *command, "serve", "--config", str(config), *record]


def _fastmcp_argv(peers_python: str, config: Path) -> list[str]:
    return [peers_python, str(Path(__file__).resolve()), "--serve-fastmcp-proxy", str(config)]


def _child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    src = str(REPO / "src")
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.update(
        {
            "FASTMCP_SHOW_SERVER_BANNER": "false",
            "FASTMCP_CHECK_FOR_UPDATES": "off",
            "FASTMCP_LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
        }
    )
    env.update(extra or {})
    return env


def _write_config(path: Path, servers: dict[str, dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"mcpServers": servers}, indent=2))
    return path


def _time_server() -> dict[str, Any]:
    return {"command": sys.executable, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]}


def _synth_servers(count: int, tools: int) -> dict[str, dict[str, Any]]:
    return {
        f"s{i:02d}": {"command": sys.executable, "args": [str(SYNTH), "--tools", str(tools), "--name", f"s{i:02d}"]}
        for i in range(1, count + 1)
    }


@contextlib.asynccontextmanager
async def _started(clients: list[StdioClient]) -> Any:
    """Close every client on the way out, started or not, whatever happened."""
    try:
        yield clients
    finally:
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)


def _check_time_result(label: str, result: dict[str, Any]) -> None:
    content = result.get("content") or []
    text = content[0].get("text", "") if content and isinstance(content[0], dict) else ""
    if result.get("isError") or "UTC" not in text:
        raise BenchError(f"{label}: unexpected get_current_time result: {json.dumps(result)[:300]}")


# -- part 1: per-call latency -----------------------------------------------------


async def bench_call_latency(opts: Options, log: Callable[[str], None]) -> dict[str, Any]:
    """Part 1: interleaved per-call latency, direct / hintgate / FastMCP.

    Args:
        opts: the run's options.
        log: progress messages (stderr).

    Returns:
        Per-target summaries (ms), the added latency and ratios, and the goals.
    """
    time_server = _time_server()
    # Trusted: its read-only tool runs unasked (an untrusted one would wait for a person).
    hg_config = _write_config(
        opts.workdir / "time-hintgate.json", {"time": {**time_server, "prefix": "", "trust": "trusted"}}
    )
    fm_config = _write_config(opts.workdir / "time-fastmcp.json", {"time": time_server})
    env = _child_env()
    clients = [
        StdioClient("direct", [time_server["command"], *time_server["args"]], env=env),
        StdioClient("hintgate", _hintgate_argv(hg_config), env=env),
        StdioClient("hintgate+record", _hintgate_argv(hg_config, opts.workdir / "record.db"), env=env),
        StdioClient(
            "hintgate+record-fast",
            _hintgate_argv(hg_config, opts.workdir / "record-fast.db"),
            env={**env, "HINTGATE_COMMIT": "fast"},
        ),
    ]
    if opts.baseline:
        # The same two configurations from another checkout's `src`, in the same rounds (before/after).
        base_env = dict(env, PYTHONPATH=str(Path(opts.baseline).resolve() / "src"))
        clients += [
            StdioClient("base:hintgate", _hintgate_argv(hg_config), env=base_env),
            StdioClient("base:hintgate+record", _hintgate_argv(hg_config, opts.workdir / "base.db"), env=base_env),
        ]
    stamped: dict[str, Path] = {}
    if opts.breakdown:
        for label, db in (("hintgate", None), ("hintgate+record", opts.workdir / "stamped.db")):
            stamped[f"stamped:{label}"] = opts.workdir / f"stamps-{label}.json"
            clients.append(
                StdioClient(
                    f"stamped:{label}", _hintgate_argv(hg_config, db, stamps=stamped[f"stamped:{label}"]), env=env
                )
            )
    if opts.peers_python:
        clients.append(StdioClient("fastmcp", _fastmcp_argv(opts.peers_python, fm_config), env=env))
    samples: dict[str, list[float]] = {c.label: [] for c in clients}
    async with _started(clients):
        for client in clients:
            log(f"latency: starting {client.label}")
            await client.start()
            await client.initialize(timeout=60)
            _check_time_result(client.label, await client.request("tools/call", TIME_CALL, timeout=60))
        log(f"latency: warming up ({opts.warmup} calls each)")
        for client in clients:
            for _ in range(opts.warmup):
                await client.request("tools/call", TIME_CALL, timeout=30)
        log(f"latency: {opts.calls} calls each, interleaved in bursts of {opts.burst}")
        clock = time.perf_counter
        for round_no in itertools.count():
            if all(len(s) >= opts.calls for s in samples.values()):
                break
            shift = round_no % len(clients)
            for client in clients[shift:] + clients[:shift]:
                target = samples[client.label]
                for _ in range(min(opts.burst, opts.calls - len(target))):
                    start = clock()
                    result = await client.request("tools/call", TIME_CALL, timeout=30)
                    target.append((clock() - start) * 1000)
                    if result.get("isError"):
                        raise BenchError(f"{client.label}: a timed call failed: {json.dumps(result)[:300]}")
    stats = {label: summarize(values) for label, values in samples.items()}
    breakdown = {label: _stages(path) for label, path in stamped.items()}
    direct = stats["direct"]
    added = {
        label: {"median": s["median"] - direct["median"], "p90": s["p90"] - direct["p90"]}
        for label, s in stats.items()
        if label != "direct"
    }
    out: dict[str, Any] = {"stats_ms": stats, "added_ms": added, "goals": {}}
    if breakdown:
        out["breakdown_ms"] = breakdown
    hg_added = added["hintgate"]["median"]
    out["goals"]["hintgate_added_median_le_1ms"] = {"value": hg_added, "bound": GOAL_ADDED_MS, "met": hg_added <= 1}
    # Durable recording (the default) waits for its commit; fast mode records off the call path.
    recording = stats["hintgate+record"]["median"] - stats["hintgate"]["median"]
    out["recording_added_ms"] = recording
    out["recording_fast_added_ms"] = stats["hintgate+record-fast"]["median"] - stats["hintgate"]["median"]
    out["goals"]["recording_added_median_le_0.2ms"] = {
        "value": recording,
        "bound": GOAL_RECORDING_MS,
        "met": recording <= GOAL_RECORDING_MS,
    }
    if "fastmcp" in added:
        fm_added = added["fastmcp"]["median"]
        ratio = hg_added / fm_added if fm_added > 0 else math.nan
        out["ratio_hintgate_to_fastmcp_added"] = {
            "median": ratio,
            "p90": added["hintgate"]["p90"] / added["fastmcp"]["p90"] if added["fastmcp"]["p90"] > 0 else math.nan,
        }
        out["goals"]["hintgate_added_le_quarter_of_fastmcp"] = {
            "value": ratio,
            "bound": GOAL_FRACTION_OF_FASTMCP,
            "met": ratio <= GOAL_FRACTION_OF_FASTMCP,
        }
    return out


def _stages(path: Path) -> dict[str, float]:
    """The median of each stage of the calls a stamped gateway wrote to `path` (ms), with how many calls."""
    sys.path.insert(0, str(BENCH))
    try:
        import call_stamps
    finally:
        sys.path.remove(str(BENCH))
    if not path.exists():
        raise BenchError(f"the stamped gateway wrote no stamps to {path}")
    calls = call_stamps.segments(json.loads(path.read_text()))
    return {**call_stamps.summary(calls), "calls": float(len(calls))}


# -- part 2: tools/list with many upstreams ------------------------------------------


@dataclass
class ListRun:
    """One target's start-up and tools/list measurements."""

    startup_ms: list[float] = field(default_factory=list)
    first_list_ms: list[float] = field(default_factory=list)
    steady_ms: list[float] = field(default_factory=list)
    tools: int = 0
    pages: int = 0
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        """The summary for the report."""
        return {
            "startup_ms": statistics.median(self.startup_ms) if self.startup_ms else None,
            "startup_runs": len(self.startup_ms),
            "first_list_ms": statistics.median(self.first_list_ms) if self.first_list_ms else None,
            "steady_list": summarize(self.steady_ms) if self.steady_ms else None,
            "tools": self.tools,
            "pages": self.pages,
            "note": self.note,
        }


async def _list_run(
    label: str,
    argv: list[str],
    *,
    startups: int,
    steady_calls: int,
    budget: float,
    expect: int,
    log: Callable[[str], None],
) -> ListRun:
    """Start a target `startups` times (time to initialize, then to the first full listing), then list steadily.

    The steady phase runs on the last start, for at most `steady_calls` listings
    and `budget` seconds in all.
    """
    run = ListRun()
    env = _child_env()
    clock = time.perf_counter
    for attempt in range(startups):
        log(f"tools/list: {label} start-up {attempt + 1}/{startups}")
        client = StdioClient(label, argv, env=env)
        async with _started([client]):
            start = clock()
            await client.start()
            await client.initialize(timeout=120)
            ready = clock()
            tools, pages = await client.list_tools(timeout=budget)
            listed = clock()
            run.startup_ms.append((ready - start) * 1000)
            run.first_list_ms.append((listed - ready) * 1000)
            run.tools, run.pages = len(tools), pages
            if len(tools) != expect:
                run.note = f"listed {len(tools)} tools, expected {expect}"
            if attempt < startups - 1:
                continue
            deadline = time.monotonic() + budget
            for _ in range(steady_calls):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    run.note = (run.note + "; " if run.note else "") + f"stopped at the {budget:g} s cap"
                    break
                start = clock()
                try:
                    await client.list_tools(timeout=remaining)
                except BenchError as exc:
                    if time.monotonic() >= deadline:
                        run.note = (run.note + "; " if run.note else "") + f"stopped at the {budget:g} s cap"
                        break
                    raise exc
                run.steady_ms.append((clock() - start) * 1000)
    return run


async def bench_tools_list(opts: Options, log: Callable[[str], None]) -> dict[str, Any]:
    """Part 2: 20 upstreams x 50 tools through hintgate and FastMCP; one 1000-tool server direct.

    Args:
        opts: the run's options.
        log: progress messages (stderr).

    Returns:
        Per-target start-up, first listing and steady listing times (ms).
    """
    servers = _synth_servers(20, 50)
    config = _write_config(opts.workdir / "synth-20x50.json", servers)
    direct_argv = [sys.executable, str(SYNTH), "--tools", "1000", "--name", "direct"]
    results: dict[str, Any] = {"upstreams": 20, "tools_per_upstream": 50}
    results["direct, 1 server x 1000"] = (
        await _list_run(
            "direct", direct_argv, startups=opts.startups, steady_calls=opts.list_calls, budget=60, expect=1000, log=log
        )
    ).as_dict()
    results["hintgate"] = (
        await _list_run(
            "hintgate",
            _hintgate_argv(config),
            startups=opts.startups,
            steady_calls=opts.list_calls,
            budget=120,
            expect=1000,
            log=log,
        )
    ).as_dict()
    if opts.peers_python:
        fm = await _list_run(
            "fastmcp",
            _fastmcp_argv(opts.peers_python, config),
            startups=1,
            steady_calls=opts.fastmcp_list_calls,
            budget=opts.fastmcp_list_budget,
            expect=1000,
            log=log,
        )
        fm.note = (fm.note + "; " if fm.note else "") + (
            f"capped at {opts.fastmcp_list_calls} steady calls / {opts.fastmcp_list_budget:g} s"
        )
        results["fastmcp"] = fm.as_dict()
        hg, fmd = results["hintgate"], results["fastmcp"]
        if hg["steady_list"] and fmd["steady_list"]:
            results["ratio_fastmcp_to_hintgate_steady_median"] = (
                fmd["steady_list"]["median"] / hg["steady_list"]["median"]
            )
        if hg["startup_ms"] and fmd["startup_ms"]:
            results["ratio_fastmcp_to_hintgate_startup"] = fmd["startup_ms"] / hg["startup_ms"]
    return results


# -- part 3: profile ------------------------------------------------------------------

PROFILE_RATE = 1000
"""py-spy samples per second."""

_CATEGORIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("SDK stdio server transport (mcp/server/stdio.py)", ("mcp/server/stdio.py",)),
    ("anyio worker-thread hand-offs (to_thread, WorkerThread)", ("run_sync_in_worker_thread", "WorkerThread.run")),
    ("event-loop wake-ups (self-pipe, select)", ("_write_to_self", "_read_from_self", "EpollSelector.select")),
    ("SDK JSON-RPC dispatch (mcp/shared, runner, lowlevel)", ("mcp/shared/", "mcp/server/runner", "lowlevel/")),
    ("pydantic validation / serialization", ("pydantic",)),
    ("json module", ("json/",)),
    ("hintgate's forward path (gateway, sources/mcp)", ("Gateway.call_tool", "raw_json", "hintgate/sources/mcp.py")),
    ("writes to pipes (asyncio transports)", ("_UnixWritePipeTransport.write", "StreamWriter.write")),
)
"""Where the forward path's CPU goes: a sample counts for every category with a frame on its stack."""


def analyze_pyspy(raw: str, *, main_tid: int, calls: int, rate: int) -> dict[str, Any]:
    """CPU per call, by category, by thread and by function, from py-spy's raw output.

    Args:
        raw: py-spy's ``--format raw`` text (one ``thread;frame;...;leaf count`` line per stack).
        main_tid: the process's main thread id (its pid).
        calls: how many calls the recording covered.
        rate: the sampling rate (Hz).

    Returns:
        Totals, CPU per call, category shares (inclusive) and the top functions by own samples.
    """
    import re

    own: dict[str, int] = {}
    categories = dict.fromkeys((label for label, _ in _CATEGORIES), 0)
    threads = {"main (event loop)": 0, "worker threads": 0}
    total = 0
    for line in raw.splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        thread, *frames = stack.split(";")
        if not frames:
            continue
        total += count
        tid = re.search(r"\((\d+)\)", thread)
        threads["main (event loop)" if tid and tid.group(1) == str(main_tid) else "worker threads"] += count
        name, _, where = frames[-1].partition(" (")
        leaf = f"{name} ({_short_path(where.rsplit(':', 1)[0])})"
        own[leaf] = own.get(leaf, 0) + count
        joined = ";".join(frames)
        for label, markers in _CATEGORIES:
            if any(marker in joined for marker in markers):
                categories[label] += count

    def share(n: int) -> float:
        return 100 * n / total if total else math.nan

    cpu_per_call = total / rate * 1000 / calls if calls else math.nan
    return {
        "calls": calls,
        "samples": total,
        "rate_hz": rate,
        "cpu_ms_per_call": cpu_per_call,
        "threads_pct": {k: share(v) for k, v in threads.items()},
        "categories": [
            {"category": k, "pct": share(v), "us_per_call": share(v) * cpu_per_call * 10}
            for k, v in sorted(categories.items(), key=lambda kv: -kv[1])
        ],
        "top_own": [{"function": k, "pct": share(v)} for k, v in sorted(own.items(), key=lambda kv: -kv[1])[:20]],
    }


async def profile_hintgate(opts: Options, log: Callable[[str], None]) -> dict[str, Any]:
    """Sample hintgate's process with py-spy while it forwards `opts.profile_calls` calls.

    Only the forward path is recorded: py-spy attaches after start-up and the
    warm-up, samples without pausing the process (``--nonblocking``) and keeps
    only threads holding the GIL (``--gil``): the samples are Python CPU time.
    Time in system calls and thread wake-ups with the GIL released is not in them.

    Args:
        opts: the run's options.
        log: progress messages (stderr).

    Returns:
        What `analyze_pyspy` finds.
    """
    import shutil

    pyspy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(pyspy).exists():
        raise BenchError("py-spy is not installed (pip install py-spy)")
    hg_config = _write_config(
        opts.workdir / "time-hintgate.json", {"time": {**_time_server(), "prefix": "", "trust": "trusted"}}
    )
    out = opts.workdir / "hintgate.pyspy.txt"
    client = StdioClient("hintgate", _hintgate_argv(hg_config), env=_child_env())
    sampler: StdioClient | None = None
    async with _started([client]):
        await client.start()
        await client.initialize(timeout=60)
        for _ in range(opts.warmup):
            await client.request("tools/call", TIME_CALL, timeout=30)
        assert client.process is not None
        pid = client.process.pid
        argv = [pyspy, "record", "--pid", str(pid), "--rate", str(PROFILE_RATE), "--duration", "600"]
        argv += ["--format", "raw", "--threads", "--nonblocking", "--gil", "-o", str(out)]
        sampler = StdioClient("py-spy", argv)
        await sampler.start()
        await asyncio.sleep(0.5)  # py-spy attaches
        log(f"profile: {opts.profile_calls} calls through hintgate under py-spy")
        for _ in range(opts.profile_calls):
            await client.request("tools/call", TIME_CALL, timeout=30)
        assert sampler.process is not None
        sampler.process.send_signal(signal.SIGINT)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(sampler.process.wait(), 30)
        await sampler.close()
    if not out.exists():
        raise BenchError(f"py-spy wrote nothing; {sampler.stderr_tail() if sampler else ''}")
    return analyze_pyspy(out.read_text(), main_tid=pid, calls=opts.profile_calls, rate=PROFILE_RATE)


def _short_path(filename: str) -> str:
    for marker in ("site-packages/", "/src/", "/lib/python3.11/", "/lib/python3"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    return filename


# -- reporting ------------------------------------------------------------------------


def machine_info() -> dict[str, Any]:
    """What the numbers were measured on."""
    cpu = platform.processor() or ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def _versions(peers_python: str | None) -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found: dict[str, str] = {}
    for name in ("hintgate", "mcp", "mcp-server-time"):
        with contextlib.suppress(PackageNotFoundError):
            found[name] = version(name)
    if peers_python:
        with contextlib.suppress(Exception):
            import subprocess

            code = "import importlib.metadata as m; print(m.version('fastmcp'))"
            out = subprocess.run([peers_python, "-c", code], capture_output=True, text=True, timeout=30, check=True)
            found["fastmcp"] = out.stdout.strip()
    return found


def _fmt(value: float | None, digits: int = 2) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:.{digits}f}"


def render(report: dict[str, Any]) -> None:
    """Print the report as Rich tables."""
    from rich.console import Console
    from rich.table import Table

    console = Console() if sys.stdout.isatty() else Console(width=132)
    m = report["machine"]
    console.print(
        f"[bold]hintgate gateway latency[/] {m['date']} · {m['cpu']} · {m['cores']} cores · Python {m['python']} · "
        + ", ".join(f"{k} {v}" for k, v in report["versions"].items())
    )
    lat = report.get("latency")
    if lat:
        table = Table(title=f"tools/call get_current_time over stdio, ms ({report['options']['calls']} calls each)")
        for col in ("target", "median", "p90", "p99", "mean", "min", "added median", "added p90"):
            table.add_column(col, justify="left" if col == "target" else "right")
        for label, s in lat["stats_ms"].items():
            add = lat["added_ms"].get(label, {})
            table.add_row(
                label,
                *(_fmt(s[k]) for k in ("median", "p90", "p99", "mean", "min")),
                _fmt(add.get("median")),
                _fmt(add.get("p90")),
            )
        console.print(table)
        ratio = lat.get("ratio_hintgate_to_fastmcp_added")
        if ratio:
            console.print(
                f"hintgate-added / fastmcp-added: median {_fmt(ratio['median'])}, p90 {_fmt(ratio['p90'])}",
                highlight=False,
            )
        for label, stages in lat.get("breakdown_ms", {}).items():
            table = Table(
                title=f"{label}: where each call's time goes in the gateway, median ms of {stages['calls']:.0f}"
            )
            table.add_column("stage")
            table.add_column("ms", justify="right")
            for stage, value in stages.items():
                if stage != "calls":
                    table.add_row(stage, _fmt(value, 3))
            console.print(table)
        for name, goal in lat["goals"].items():
            mark = "[green]met[/]" if goal["met"] else "[red]MISSED[/]"
            console.print(f"goal {name}: {_fmt(goal['value'])} (bound {goal['bound']}) {mark}")
    tl = report.get("tools_list")
    if tl:
        table = Table(title=f"tools/list, {tl['upstreams']} upstreams x {tl['tools_per_upstream']} tools, ms")
        for col in ("target", "start-up to ready", "first full list", "steady median", "steady p90", "n", "tools"):
            table.add_column(col, justify="left" if col == "target" else "right")
        table.add_column("pages", justify="right")
        for label, r in tl.items():
            if not isinstance(r, dict):
                continue
            steady = r["steady_list"] or {}
            table.add_row(
                label,
                _fmt(r["startup_ms"], 0),
                _fmt(r["first_list_ms"], 1),
                _fmt(steady.get("median"), 1),
                _fmt(steady.get("p90"), 1),
                str(steady.get("n", 0)),
                str(r["tools"]),
                str(r["pages"]),
            )
        console.print(table)
        for label, r in tl.items():
            if isinstance(r, dict) and r["note"]:
                console.print(f"{label}: {r['note']}", highlight=False)
        for key in ("ratio_fastmcp_to_hintgate_steady_median", "ratio_fastmcp_to_hintgate_startup"):
            if key in tl:
                console.print(f"{key.replace('_', ' ')}: {_fmt(tl[key], 1)}x", highlight=False)
    prof = report.get("profile")
    if prof:
        console.print(
            f"hintgate under py-spy: {prof['calls']} calls, {prof['samples']} CPU samples at {prof['rate_hz']} Hz, "
            f"about {_fmt(prof['cpu_ms_per_call'])} ms of GIL-held CPU per forwarded call; threads: "
            + ", ".join(f"{k} {_fmt(v, 0)}%" for k, v in prof["threads_pct"].items()),
            highlight=False,
        )
        table = Table(title="hintgate's CPU by category (a sample counts for each category on its stack)")
        for col in ("category", "% of samples", "µs per call"):
            table.add_column(col, justify="left" if col == "category" else "right")
        for row in prof["categories"]:
            table.add_row(row["category"], _fmt(row["pct"], 1), _fmt(row["us_per_call"], 0))
        console.print(table)
        table = Table(title="Functions with the most own CPU (% of samples)")
        table.add_column("function")
        table.add_column("%", justify="right")
        for row in prof["top_own"]:
            table.add_row(row["function"], _fmt(row["pct"], 1))
        console.print(table)
    for error in report.get("errors", []):
        console.print(f"[red]error:[/] {error}", highlight=False)


# -- main -------------------------------------------------------------------------------


def _serve_fastmcp_proxy(config_path: str) -> int:
    """Run FastMCP's proxy of an ``mcpServers`` config on stdio (in the peers' environment)."""
    import importlib

    fastmcp_server: Any = importlib.import_module("fastmcp.server")  # only in the peers' environment
    config = json.loads(Path(config_path).read_text())
    proxy = fastmcp_server.create_proxy(config, name="fastmcp-proxy")
    proxy.run(transport="stdio", show_banner=False)
    return 0


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--calls", type=int, default=300, help="timed calls per target (default 300)")
    parser.add_argument("--warmup", type=int, default=30, help="untimed calls per target first (default 30)")
    parser.add_argument("--burst", type=int, default=5, help="calls per target per interleaved round (default 5)")
    parser.add_argument("--list-calls", type=int, default=50, help="steady tools/list calls (default 50)")
    parser.add_argument("--startups", type=int, default=3, help="gateway start-ups timed, median taken (default 3)")
    parser.add_argument("--fastmcp-list-calls", type=int, default=10, help="cap on FastMCP's steady tools/list calls")
    parser.add_argument("--fastmcp-list-budget", type=float, default=120.0, help="cap in s on FastMCP's list part")
    parser.add_argument("--quick", action="store_true", help="a fast smoke run (few calls, one start-up)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--peers-python", default=DEFAULT_PEERS_PYTHON, help="python of the venv with fastmcp")
    parser.add_argument("--skip-fastmcp", action="store_true", help="measure without the FastMCP peer")
    parser.add_argument("--only", choices=("all", "latency", "list"), default="all", help="run one part only")
    parser.add_argument(
        "--baseline", metavar="CHECKOUT", help="also run hintgate, and with recording, from CHECKOUT's src"
    )
    parser.add_argument(
        "--breakdown", action="store_true", help="also run stamped gateways: where each call's time goes"
    )
    parser.add_argument("--profile", action="store_true", help="also sample hintgate's forward path with py-spy")
    parser.add_argument("--profile-calls", type=int, default=2000, help="calls while sampling (default 2000)")
    parser.add_argument("--serve-fastmcp-proxy", metavar="CONFIG", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Run the selected parts; errors are recorded, not raised, so the other parts still report."""
    peers: str | None = None if args.skip_fastmcp else args.peers_python
    errors: list[str] = []
    if peers and not Path(peers).exists():
        errors.append(f"no FastMCP environment at {peers} (see bench/README.md); measured without it")
        peers = None
    quick = args.quick
    report: dict[str, Any] = {"machine": machine_info(), "versions": _versions(peers), "errors": errors}

    def log(message: str) -> None:
        print(f"[bench] {message}", file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory(prefix="hintgate-bench-") as tmp:
        opts = Options(
            calls=min(args.calls, 30) if quick else args.calls,
            warmup=min(args.warmup, 5) if quick else args.warmup,
            burst=args.burst,
            list_calls=min(args.list_calls, 5) if quick else args.list_calls,
            startups=1 if quick else args.startups,
            fastmcp_list_calls=min(args.fastmcp_list_calls, 2) if quick else args.fastmcp_list_calls,
            fastmcp_list_budget=min(args.fastmcp_list_budget, 30.0) if quick else args.fastmcp_list_budget,
            peers_python=peers,
            profile=args.profile,
            profile_calls=min(args.profile_calls, 200) if quick else args.profile_calls,
            workdir=Path(tmp),
            baseline=args.baseline,
            breakdown=args.breakdown,
        )
        report["options"] = {
            k: (str(v) if isinstance(v, Path) else v) for k, v in opts.__dict__.items() if k != "workdir"
        }
        parts: list[tuple[str, Any]] = []
        if args.only in ("all", "latency"):
            parts.append(("latency", bench_call_latency))
        if args.only in ("all", "list"):
            parts.append(("tools_list", bench_tools_list))
        if args.profile:
            parts.append(("profile", profile_hintgate))
        for key, part in parts:
            try:
                report[key] = await part(opts, log)
            except BenchError as exc:
                errors.append(f"{key}: {exc}")
    return report


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: 0 when every part ran, 1 when one failed."""
    args = parse_args(argv)
    if args.serve_fastmcp_proxy:
        return _serve_fastmcp_proxy(args.serve_fastmcp_proxy)
    report = asyncio.run(run(args))
    if args.format == "json":
        print(json.dumps(report, indent=2, default=str))
    else:
        render(report)
    return 1 if report["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
