"""Measure what judging a call by its arguments adds to a tools/call: a one-statement SQL query.

The gateway builds a call's facts (`CallFacts.from_entry`) and decides it
(`decide`) on every tools/call. For a generic `execute_sql` it now also
parses the SQL (sqlglot) and lays the judgement over the tool's hints. This
times both in the same run, on the same tool and the same policy, with a
different statement on every call (so no parse is ever reused): the call
without resolution (`judgement=None`, the tool's own hints) and with it
(the arguments judged). It prints the medians, the difference (the goal: at
most 100 µs at the median) and the ratio, and the same for a one-command
shell line (tree-sitter).

Usage::

    python bench/resolve_overhead.py [--calls N] [--rounds N] [--format text|json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO / "src") not in sys.path:  # runnable without installing the package
    sys.path.insert(0, str(REPO / "src"))

from hintgate.hints.catalog import CatalogEntry, resolve_tool  # noqa: E402
from hintgate.hints.trust import Trust  # noqa: E402
from hintgate.policy.decide import CallFacts, SessionState, decide, parse_policy  # noqa: E402

GOAL_US = 100.0

SQL_TOOL = {
    "name": "execute_sql",
    "description": "Execute a SQL statement on the PostgreSQL database.",
    "inputSchema": {"type": "object", "properties": {"sql": {"type": "string"}}, "required": ["sql"]},
    "annotations": {"readOnlyHint": False, "destructiveHint": True},
}
SHELL_TOOL = {
    "name": "run_command",
    "description": "Run a shell command in the workspace.",
    "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]},
}


def entry(tool: dict[str, Any]) -> CatalogEntry:
    return CatalogEntry(f"s_{tool['name']}", "s", tool["name"], resolve_tool(tool, trust=Trust.LOCAL), {}, {})


def timed(calls: list[dict[str, Any]], run: Callable[[dict[str, Any]], object]) -> list[float]:
    """Microseconds per call, one reading per call."""
    out = []
    for arguments in calls:
        began = time.perf_counter_ns()
        run(arguments)
        out.append((time.perf_counter_ns() - began) / 1000)
    return out


def measure(tool: dict[str, Any], calls: list[dict[str, Any]], rounds: int) -> dict[str, float]:
    target = entry(tool)
    settings, rules = parse_policy({"mode": "default"}, source="bench")
    session = SessionState()

    def without(arguments: dict[str, Any]) -> object:
        facts = CallFacts.from_entry(target, arguments, judgement=None)
        return decide(facts, session, settings, rules, now=0.0)

    def with_resolution(arguments: dict[str, Any]) -> object:
        facts = CallFacts.from_entry(target, arguments)
        return decide(facts, session, settings, rules, now=0.0)

    with_resolution(calls[0])  # imports the parser: a one-time cost at the first call, not per call
    plain: list[float] = []
    judged: list[float] = []
    for _ in range(rounds):  # interleaved, so load on the machine falls on both alike
        plain += timed(calls, without)
        judged += timed(calls, with_resolution)
    p50_plain, p50_judged = statistics.median(plain), statistics.median(judged)
    return {
        "without_p50_us": round(p50_plain, 1),
        "with_p50_us": round(p50_judged, 1),
        "added_p50_us": round(p50_judged - p50_plain, 1),
        "ratio": round(p50_judged / p50_plain, 2),
        "with_p90_us": round(statistics.quantiles(judged, n=10)[-1], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=400, help="distinct calls per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--format", choices=["text", "json"], default="text")
    args = parser.parse_args()
    sql = [{"sql": f"SELECT id, email FROM users WHERE id = {n} AND active = true"} for n in range(args.calls)]
    shell = [{"command": f"grep -n 'order {n}' logs/app.log"} for n in range(args.calls)]
    report = {"sql": measure(SQL_TOOL, sql, args.rounds), "shell": measure(SHELL_TOOL, shell, args.rounds)}
    report["goal_added_p50_us"] = GOAL_US  # type: ignore[assignment]
    if args.format == "json":
        print(json.dumps(report, indent=2))
        return
    print(f"per call: facts + decide, without resolution vs with it (same run, {args.calls} x {args.rounds} calls)")
    for kind in ("sql", "shell"):
        r = report[kind]
        print(
            f"  {kind:5} without {r['without_p50_us']:7.1f} us   with {r['with_p50_us']:7.1f} us   "
            f"added {r['added_p50_us']:6.1f} us (x{r['ratio']})   with p90 {r['with_p90_us']:.1f} us"
        )
    added = report["sql"]["added_p50_us"]
    print(
        f"goal: a one-statement SQL query adds <= {GOAL_US:.0f} us at the median: "
        f"{'met' if added <= GOAL_US else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
