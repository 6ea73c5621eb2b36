"""Score per-call hints (`hintgate.hints.calls`) on labelled JSON Lines files of tool calls.

Each line: `{"id", "category", "tool": {"name", "description", "inputSchema", "annotations"?},
"arguments", "expected": {the four hints}, "tier": "read" | "additive" | "destructive", "why"}`.

A call is resolved as the gateway resolves it: the tool's hints (declared, inferred, trust), then its
arguments judged and laid over them within the bound the server's trust allows (`--trust`, default
`local`: the default for a server the gateway launches, where the arguments decide both ways). A call
whose arguments cannot be judged keeps the tool's hints.

Per category (and over all): read calls resolved read-only, destructive calls resolved destructive,
additive calls resolved additive, and the dangerous error counted on its own: a destructive or additive
call resolved read-only (it would run unasked). The goals: no dangerous error, at least 90 % of reads
resolved read-only, at least 98 % of destructive calls resolved destructive.

Usage::

    python bench/resolve_cases.py tests/hints/calls/resolve_cases/dev2/*.jsonl
    python bench/resolve_cases.py --trust trusted --misses FILE.jsonl
    python bench/resolve_cases.py --format json FILE.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from hintgate.hints.annotations import Hint, Tier
from hintgate.hints.calls.bound import per_call
from hintgate.hints.catalog import resolve_tool
from hintgate.hints.trust import Trust

_TIERS = {Tier.READ_ONLY: "read", Tier.ADDITIVE: "additive", Tier.DESTRUCTIVE: "destructive", Tier.UNKNOWN: "unknown"}
GOALS = {"read_ok": 90.0, "destructive_ok": 98.0, "dangerous": 0}


def resolve_case(case: Mapping[str, Any], trust: Trust) -> tuple[str, dict[str, bool], str]:
    """(tier, the four hints, what the judge said) of one labelled call."""
    tool = resolve_tool(case["tool"], trust=trust)
    resolution = tool.resolution
    said = "static hints (nothing judged)"
    if tool.judge is not None:
        judgement = tool.judge.judge(case.get("arguments") or {})
        if judgement is not None:
            resolution = per_call(resolution, judgement)
            said = f"{judgement.reason} [{judgement.rule}]"
    hints = {h.value: resolution.value(h) for h in Hint}
    return _TIERS[resolution.tier], hints, said


def load(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """Every case of the files, in order."""
    cases = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                try:
                    cases.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise SystemExit(f"{path}:{number}: not JSON: {exc}") from exc
    return cases


def score(cases: list[dict[str, Any]], trust: Trust) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """Per category (and `all`): counts and percentages; and the calls resolved to another tier."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    misses = []
    for case in cases:
        tier, hints, said = resolve_case(case, trust)
        expected = case["tier"]
        for category in (case.get("category", "?"), "all"):
            row = counts[category]
            row[expected] += 1
            row[f"{expected}->{tier}"] += 1
            if expected != "read" and tier == "read":
                row["dangerous"] += 1
            if all(hints[k] == v for k, v in case["expected"].items()):
                row["exact"] += 1
            row["total"] += 1
        if tier != expected:
            misses.append(
                {
                    "id": case.get("id"),
                    "expected": expected,
                    "got": tier,
                    "said": said,
                    "why": case.get("why"),
                    "arguments": case.get("arguments"),
                }
            )
    report = {}
    for category, row in counts.items():
        report[category] = {
            "calls": row["total"],
            "read": row["read"],
            "read_ok": _pct(row["read->read"], row["read"]),
            "additive": row["additive"],
            "additive_ok": _pct(row["additive->additive-write"] + row["additive->additive"], row["additive"]),
            "destructive": row["destructive"],
            "destructive_ok": _pct(row["destructive->destructive"], row["destructive"]),
            "dangerous": row["dangerous"],
            "exact_hints": _pct(row["exact"], row["total"]),
        }
    return report, misses


def _pct(part: int, whole: int) -> float | None:
    return round(100.0 * part / whole, 1) if whole else None


def _fmt(value: float | None) -> str:
    return "  -  " if value is None else f"{value:5.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--trust", choices=[t.value for t in Trust], default=Trust.LOCAL.value)
    parser.add_argument("--format", choices=["text", "json"], default="text")
    parser.add_argument("--misses", action="store_true", help="list every call resolved to another tier")
    args = parser.parse_args(argv)
    report, misses = score(load(args.paths), Trust(args.trust))
    met = all(
        (r["read_ok"] is None or r["read_ok"] >= GOALS["read_ok"])
        and (r["destructive_ok"] is None or r["destructive_ok"] >= GOALS["destructive_ok"])
        and r["dangerous"] == 0
        for r in [report["all"]]
    )
    if args.format == "json":
        print(json.dumps({"trust": args.trust, "categories": report, "goals_met": met, "misses": misses}, indent=2))
        return 0 if met else 1
    print(f"per-call hints, trust {args.trust}; goals: reads >= 90 % read-only, destructive >= 98 %, 0 dangerous")
    print(
        f"{'category':10} {'calls':>5} {'read':>5} {'read ok%':>8} {'add':>4} {'add ok%':>7} "
        f"{'destr':>5} {'destr ok%':>9} {'dangerous':>9} {'exact%':>6}"
    )
    for category in sorted(report, key=lambda c: (c == "all", c)):
        r = report[category]
        print(
            f"{category:10} {r['calls']:5} {r['read']:5} {_fmt(r['read_ok']):>8} {r['additive']:4} "
            f"{_fmt(r['additive_ok']):>7} {r['destructive']:5} {_fmt(r['destructive_ok']):>9} "
            f"{r['dangerous']:9} {_fmt(r['exact_hints']):>6}"
        )
    print("goals met" if met else "goals NOT met")
    if args.misses:
        for miss in misses:
            danger = "  DANGEROUS" if miss["expected"] != "read" and miss["got"] == "read" else ""
            print(f"- {miss['id']}: {miss['expected']} -> {miss['got']}{danger}: {miss['said']} (label: {miss['why']})")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
