"""How long a stdio client waits for its first `tools/list`: mcp-server-time directly, behind hintgate, behind FastMCP.

A client such as Claude Desktop launches the gateway as a child process on
every start and waits for its tools. This bench does the same with the MCP
Python SDK's stdio client (`Client(StdioServerParameters(...), mode="legacy")`:
spawn, `initialize`, `tools/list`; the children's stderr to /dev/null) and takes the time from just before the
spawn until the `tools/list` answer holds `get_current_time`:

- direct: `python -m mcp_server_time --local-timezone UTC`;
- hintgate, recording to SQLite: `python -m hintgate serve --config C --db sqlite:///D`
  with that server behind it (trusted, unprefixed); the database is created by
  the warm-up start and, as a relaunched gateway does, the timed ones read its
  pins and overrides ahead (`hintgate.stored_state`) and open it after their
  first answer;
- hintgate, recording off: the same with `--no-record`;
- hintgate, first start (no database): `serve` with neither, each start in a
  data directory that does not exist yet (the default SQLite database is
  created, with its schema, before the first answer);
- FastMCP's proxy: `create_proxy()` of the same server as an `mcpServers`
  config, on stdio, run by the peers' python (`bench/gateway_latency.py
  --serve-fastmcp-proxy`; see bench/README.md for its virtualenv).

Each target starts once untimed (byte-code caches, the database), then
`--starts` (5) times in interleaved rounds with the order rotating, so that
machine noise hits all alike. Printed: median, min and max per target, and
the median's difference to direct and ratio to it, and the CPU time the
launched process itself had used by then (median; user + system, from
/proc; its own upstream's not counted), which moves less with the machine's
load than the wall clock. HOME and
HINTGATE_DATA_DIR of every child are a temporary directory. Numbers only;
nothing here asserts them. Every wait is bounded.

`--load N` runs N busy loops (each a Python process spinning in `while True:
pass`) from before the warm-up until the last start, so that a figure "at
load 3-4" is measured on purpose rather than by chance; they are stopped by
their process ids. The one-minute load average (/proc/loadavg) is printed
from before they start and from the end.

Usage: python bench/startup.py [--starts 5] [--peers-python PATH] [--skip-fastmcp] [--format text|json]
                               [--baseline CHECKOUT] [--load N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
DEFAULT_PEERS_PYTHON = os.environ.get("HINTGATE_BENCH_PEERS_PYTHON", "/tmp/hintgate-peers/bin/python")
TOOL = "get_current_time"
START_TIMEOUT = 60.0
GOAL_SECONDS = 0.6
"""hintgate, recording on, answers its first `tools/list` at most this much later than the direct server."""


@dataclass
class Target:
    """One way of launching the time server, and its timed starts."""

    label: str
    argv: list[str]
    src: Path = REPO / "src"
    """The hintgate source tree the child imports (PYTHONPATH)."""
    first_start: bool = False
    """Every start gets a data directory of its own that does not exist yet: a first start, no database."""
    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, float]:
        return {
            "median": statistics.median(self.seconds),
            "min": min(self.seconds),
            "max": max(self.seconds),
            "cpu_median": statistics.median(self.cpu),
        }


def _env(home: Path) -> dict[str, str]:
    env = {key: os.environ[key] for key in ("PATH", "LANG", "LC_ALL", "TZ") if key in os.environ}
    env.update(
        {
            "HOME": str(home),
            "HINTGATE_DATA_DIR": str(home / "hintgate-data"),
            "PYTHONPATH": str(REPO / "src"),
            "FASTMCP_SHOW_SERVER_BANNER": "false",
            "FASTMCP_CHECK_FOR_UPDATES": "off",
            "FASTMCP_LOG_LEVEL": "WARNING",
        }
    )
    return env


def _targets(work: Path, peers_python: str | None, baseline: Path | None) -> list[Target]:
    time_server = {"command": sys.executable, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]}
    hintgate_config = work / "hintgate.json"
    hintgate_config.write_text(json.dumps({"mcpServers": {"time": {**time_server, "prefix": "", "trust": "trusted"}}}))
    serve = [sys.executable, "-m", "hintgate", "serve", "--config", str(hintgate_config)]
    targets = [
        Target("direct", [time_server["command"], *time_server["args"]]),
        Target("hintgate, recording to SQLite", [*serve, "--db", f"sqlite:///{work / 'calls.db'}"]),
        Target("hintgate, recording off", [*serve, "--no-record"]),
        Target("hintgate, first start (no database)", serve, first_start=True),
    ]
    if baseline is not None:
        base_db = f"sqlite:///{work / 'baseline-calls.db'}"
        targets += [
            Target("baseline hintgate, recording to SQLite", [*serve, "--db", base_db], src=baseline / "src"),
            Target("baseline hintgate, recording off", [*serve, "--no-record"], src=baseline / "src"),
            Target("baseline hintgate, first start (no database)", serve, src=baseline / "src", first_start=True),
        ]
    if peers_python is not None:
        fastmcp_config = work / "fastmcp.json"
        fastmcp_config.write_text(json.dumps({"mcpServers": {"time": time_server}}))
        proxy = [peers_python, str(BENCH / "gateway_latency.py"), "--serve-fastmcp-proxy", str(fastmcp_config)]
        targets.append(Target("FastMCP proxy", proxy))
    return targets


def _child_cpu(busy: Collection[int] = ()) -> float:
    """CPU seconds (user + system) the one child of this process, besides the busy loops `busy`, has used so far
    (Linux /proc)."""
    pid = os.getpid()
    children = [c for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split() if int(c) not in busy]
    if len(children) != 1:
        return math.nan
    fields = Path(f"/proc/{children[0]}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_average() -> float:
    """The one-minute load average, as /proc/loadavg says it."""
    return float(Path("/proc/loadavg").read_text().split()[0])


BUSY_LOOP = "while True:\n    pass\n"


@contextmanager
def busy_loops(count: int) -> Iterator[list[int]]:
    """`count` Python processes spinning on the CPU while the block runs; their process ids.

    Each is stopped by its own id when the block ends (and on an error), then waited for.
    """
    loops: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(count):
            loops.append(subprocess.Popen([sys.executable, "-c", BUSY_LOOP], stdin=subprocess.DEVNULL))
        yield [loop.pid for loop in loops]
    finally:
        for loop in loops:
            loop.terminate()
        for loop in loops:
            try:
                loop.wait(timeout=5)
            except subprocess.TimeoutExpired:
                loop.kill()
                loop.wait(timeout=5)


async def first_listing(argv: Sequence[str], env: dict[str, str], busy: Collection[int] = ()) -> tuple[float, float]:
    """(seconds from spawning `argv` until its first `tools/list` answer holds the time tool, its CPU seconds then);
    `busy`: the busy loops' process ids, children of this process too."""
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=argv[0], args=list(argv[1:]), env=env)
    with open(os.devnull, "w") as sink:  # the children's start-up lines, not the numbers
        started = time.perf_counter()
        with anyio.fail_after(START_TIMEOUT):
            async with Client(stdio_client(params, errlog=sink), mode="legacy") as client:
                tools = (await client.list_tools()).tools
                seconds = time.perf_counter() - started
                cpu = _child_cpu(busy)
    names = {tool.name for tool in tools}
    if TOOL not in names:
        raise RuntimeError(f"{argv[2:5]}: tools/list has no {TOOL!r}: {sorted(names)}")
    return seconds, cpu


async def run(
    starts: int, peers_python: str | None, log: Any, baseline: Path | None = None, load: int = 0
) -> dict[str, Any]:
    """Every target once untimed, then `starts` interleaved rounds, with `load` busy loops beside; the summary."""
    load_before = load_average()
    with tempfile.TemporaryDirectory(prefix="hintgate-startup-") as tmp, busy_loops(load) as busy:
        work = Path(tmp)
        env = _env(work)
        Path(env["HINTGATE_DATA_DIR"]).mkdir()
        targets = _targets(work, peers_python, baseline)
        starts_made = 0

        def env_of(target: Target) -> dict[str, str]:
            nonlocal starts_made
            starts_made += 1
            fresh = {"HINTGATE_DATA_DIR": str(work / f"first-start-{starts_made}")} if target.first_start else {}
            return {**env, "PYTHONPATH": str(target.src), **fresh}

        for target in targets:
            log(f"warm-up: {target.label}")
            await first_listing(target.argv, env_of(target), busy)
        for round_ in range(starts):
            shift = round_ % len(targets)
            for target in targets[shift:] + targets[:shift]:
                seconds, cpu = await first_listing(target.argv, env_of(target), busy)
                target.seconds.append(seconds)
                target.cpu.append(cpu)
            log(f"round {round_ + 1}/{starts}: " + ", ".join(f"{t.label} {t.seconds[-1]:.2f} s" for t in targets))
    summaries = {target.label: target.summary() for target in targets}
    direct = summaries["direct"]["median"]
    for summary in summaries.values():
        summary["minus_direct"] = summary["median"] - direct
        summary["ratio_to_direct"] = summary["median"] / direct
    recording = summaries["hintgate, recording to SQLite"]["minus_direct"]
    return {
        "starts": starts,
        "busy_loops": load,
        "load_before": load_before,
        "load_average": os.getloadavg(),
        "python": platform.python_version(),
        "targets": summaries,
        "goal": {"recording_minus_direct_at_most_s": GOAL_SECONDS, "met": recording <= GOAL_SECONDS},
    }


def render(report: dict[str, Any]) -> str:
    """The report as a Markdown table, with the goal's verdict."""
    lines = [
        f"first tools/list, seconds (median of {report['starts']} starts each, interleaved)",
        "",
        "| launched | median | min | max | − direct | ÷ direct | its CPU s |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for label, s in report["targets"].items():
        lines.append(
            f"| {label} | {s['median']:.2f} | {s['min']:.2f} | {s['max']:.2f} "
            f"| {s['minus_direct']:+.2f} | {s['ratio_to_direct']:.2f} | {s['cpu_median']:.2f} |"
        )
    goal = report["goal"]
    verdict = "met" if goal["met"] else "NOT met"
    lines += [
        "",
        f"goal: hintgate recording to SQLite within {goal['recording_minus_direct_at_most_s']} s of direct: {verdict}",
        f"busy loops beside: {report.get('busy_loops', 0)}; one-minute load average before: "
        f"{report.get('load_before', math.nan):.2f}",
        "load average at the end: " + ", ".join(f"{x:.2f}" for x in report["load_average"]),
    ]
    return "\n".join(lines)


def _progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--starts", type=int, default=5, help="timed starts per target (default 5)")
    parser.add_argument("--peers-python", default=DEFAULT_PEERS_PYTHON, help="the python that has FastMCP")
    parser.add_argument("--skip-fastmcp", action="store_true", help="leave FastMCP's proxy out")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--baseline",
        type=Path,
        help="another checkout of hintgate (e.g. `git worktree add /tmp/base COMMIT`): its serve runs too, "
        "from its src/ with this venv, for a before/after under the same load",
    )
    parser.add_argument(
        "--load",
        type=int,
        default=0,
        metavar="N",
        help="run N busy loops (Python processes spinning on the CPU) beside the starts, from before the "
        "warm-up to the last start, e.g. 3 on 2 cores for the goal's load 3-4 (default 0)",
    )
    opts = parser.parse_args(argv)
    if opts.load < 0:
        parser.error(f"--load must be at least 0, not {opts.load}")
    peers: str | None = None if opts.skip_fastmcp else opts.peers_python
    if peers is not None and not Path(peers).exists():
        print(f"no FastMCP: {peers} does not exist (see bench/README.md); running without it", file=sys.stderr)
        peers = None
    report = asyncio.run(run(opts.starts, peers, _progress, opts.baseline, opts.load))
    print(json.dumps(report, indent=2) if opts.format == "json" else render(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
