"""The gateway's speed goals in one run, each against the direct server and FastMCP measured beside it.

Runs three benches one after the other, each as a child process with `--format json`, and reads
`/proc/loadavg` before and after each:

- `gateway_latency.py --only latency`: what the gateway adds to a stdio call's p50 (goal ≤ +1 ms), with
  FastMCP's proxy in the same rounds;
- `http_throughput.py --identity --only hintgate+identity+record fastmcp direct`: the gateway's CPU per
  call over streamable HTTP with identity, the result scan and durable recording on (goal ≤ 0.2× FastMCP's)
  and its peak resident memory (goal ≤ 120 MB);
- `startup.py`: stdio start to the first `tools/list` on an existing SQLite database (goal ≤ +0.6 s over
  the upstream alone, at load 3-4 too) and on a first start with no database yet (goal ≤ +0.8 s), FastMCP's
  proxy in the same interleaved rounds; `--load N` runs it with N busy loops beside (`startup.py --load`),
  e.g. 3 on this 2-core machine for the goal's load 3-4.

Prints one table of the figures, their goals, FastMCP's figure and the ratio, and the load average the
bench ran at (`--format json`: the same, with each bench's whole report). Numbers only: nothing here
asserts timings, and a figure measured on a loaded machine says so through its load.

Usage: python bench/speed_goals.py [--peers-python PATH] [--calls 300] [--http-calls 1000] [--passes 2]
                                   [--starts 5] [--load N] [--format text|json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
DEFAULT_PEERS_PYTHON = "/tmp/hintgate-peers/bin/python"
HTTP_TARGET = "hintgate+identity+record"
RECORDING = "hintgate, recording to SQLite"
FIRST_START = "hintgate, first start (no database)"


@dataclass(frozen=True)
class Figure:
    """One goal's figure from one run."""

    name: str
    goal: str
    value: float | None
    unit: str
    fastmcp: float | None
    ratio: float | None
    met: bool | None
    load: tuple[float, float]
    """The one-minute load average before and after the bench that measured it."""


@dataclass(frozen=True)
class Measured:
    """One bench's JSON report and the load it ran at."""

    report: dict[str, Any]
    load: tuple[float, float]


def _load() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


def run_bench(script: str, args: Sequence[str]) -> Measured:
    """Run `bench/SCRIPT ARGS --format json` with this interpreter; its progress goes to stderr as it runs."""
    before = _load()
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *args, "--format", "json"],
        stdout=subprocess.PIPE,
        text=True,
        check=False,
    )
    after = _load()
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError as exc:
        raise SystemExit(f"{script} exited {done.returncode} without a JSON report: {exc}") from exc
    return Measured(report, (before, after))


def _ratio(value: float | None, peer: float | None) -> float | None:
    return value / peer if value is not None and peer else None


def _at_most(value: float | None, bound: float) -> bool | None:
    return None if value is None else value <= bound


def figures(latency: Measured, http: Measured, startup: Measured) -> list[Figure]:
    """The five figures of the speed goals from the three benches' reports."""
    added = latency.report.get("latency", {}).get("added_ms", {})
    stdio = added.get("hintgate", {}).get("median")
    stdio_fastmcp = added.get("fastmcp", {}).get("median")
    rows = {row["target"]: row for row in http.report.get("rows", []) if row["sessions"] == 16}
    cpu = rows.get(HTTP_TARGET, {}).get("cpu_per_call_ms")
    cpu_fastmcp = rows.get("fastmcp", {}).get("cpu_per_call_ms")
    cpu_ratio = _ratio(cpu, cpu_fastmcp)
    rss = rows.get(HTTP_TARGET, {}).get("peak_rss_mb")
    rss_fastmcp = rows.get("fastmcp", {}).get("peak_rss_mb")
    starts = startup.report.get("targets", {})
    start_fastmcp = starts.get("FastMCP proxy", {}).get("minus_direct")
    start = starts.get(RECORDING, {}).get("minus_direct")
    first = starts.get(FIRST_START, {}).get("minus_direct")
    return [
        Figure(
            "stdio added p50 per call",
            "≤ +1 ms",
            stdio,
            "ms",
            stdio_fastmcp,
            _ratio(stdio, stdio_fastmcp),
            _at_most(stdio, 1.0),
            latency.load,
        ),
        Figure(
            "HTTP CPU/call, id+scan+rec",
            "≤ 0.2× FastMCP",
            cpu,
            "ms",
            cpu_fastmcp,
            cpu_ratio,
            _at_most(cpu_ratio, 0.2),
            http.load,
        ),
        Figure(
            "HTTP peak RSS, id+scan+rec",
            "≤ 120 MB",
            rss,
            "MB",
            rss_fastmcp,
            _ratio(rss, rss_fastmcp),
            _at_most(rss, 120),
            http.load,
        ),
        Figure(
            "stdio start, existing db",
            "≤ +0.6 s",
            start,
            "s",
            start_fastmcp,
            _ratio(start, start_fastmcp),
            _at_most(start, 0.6),
            startup.load,
        ),
        Figure(
            "stdio first start, no db",
            "≤ +0.8 s",
            first,
            "s",
            start_fastmcp,
            _ratio(first, start_fastmcp),
            _at_most(first, 0.8),
            startup.load,
        ),
    ]


def _number(value: float | None, unit: str = "") -> str:
    if value is None:
        return "-"
    return f"{value:.0f} MB" if unit == "MB" else f"{value:.2f}{unit}"


def render(table: list[Figure]) -> str:
    """The figures as a table within 80 columns; the figures' names are shortened (id: identity, rec: recording)."""
    lines = [f"{'figure':<29} {'goal':<14} {'value':>7} {'FastMCP':>7} {'ratio':>5} {'met':>3} load"]
    for figure in table:
        met = "-" if figure.met is None else ("yes" if figure.met else "no")
        ratio = f"{figure.ratio:.2f}" if figure.ratio is not None else "-"
        lines.append(
            f"{figure.name:<29} {figure.goal:<14} {_number(figure.value, figure.unit):>7} "
            f"{_number(figure.fastmcp, figure.unit):>7} {ratio:>5} {met:>3} {figure.load[0]:.1f}→{figure.load[1]:.1f}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, bench: Callable[[str, Sequence[str]], Measured] = run_bench) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--peers-python", default=DEFAULT_PEERS_PYTHON, help="the python that has FastMCP")
    parser.add_argument("--calls", type=int, default=300, help="timed stdio calls per target (default 300)")
    parser.add_argument("--http-calls", type=int, default=1000, help="HTTP calls per pass (default 1000)")
    parser.add_argument("--passes", type=int, default=2, help="HTTP passes, targets in rotating order (default 2)")
    parser.add_argument("--starts", type=int, default=5, help="timed starts per target (default 5)")
    parser.add_argument(
        "--load",
        type=int,
        default=0,
        metavar="N",
        help="N busy loops beside the start-up bench (startup.py --load), e.g. 3 for load 3-4 (default 0)",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    opts = parser.parse_args(argv)
    for name in ("calls", "http_calls", "passes", "starts"):
        if getattr(opts, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1, not {getattr(opts, name)}")
    if opts.load < 0:
        parser.error(f"--load must be at least 0, not {opts.load}")
    peers = ["--peers-python", opts.peers_python] if Path(opts.peers_python).exists() else []
    if not peers:
        print(f"no FastMCP at {opts.peers_python} (see bench/README.md): ratios are left out", file=sys.stderr)
    latency = bench("gateway_latency.py", ["--only", "latency", "--calls", str(opts.calls), *peers])
    http = bench(
        "http_throughput.py",
        [
            "--identity",
            "--sessions",
            "16",
            "--passes",
            str(opts.passes),
            "--calls",
            str(opts.http_calls),
            "--only",
            HTTP_TARGET,
            "fastmcp",
            "direct",
            *peers,
        ],
    )
    startup = bench(
        "startup.py", ["--starts", str(opts.starts), "--load", str(opts.load), *(peers or ["--skip-fastmcp"])]
    )
    table = figures(latency, http, startup)
    if opts.format == "json":
        reports = {"gateway_latency": latency.report, "http_throughput": http.report, "startup": startup.report}
        print(json.dumps({"figures": [asdict(figure) for figure in table], "reports": reports}, indent=2))
    else:
        print(render(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
