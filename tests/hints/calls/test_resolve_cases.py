"""The labelled calls written blind (resolve_cases/dev): per-call hints meet their goals in every category.

The set was written by someone who never read the judges; its README says how it was labelled. The
goals: no destructive or additive call resolved read-only (it would run unasked), at least 90 % of reads
resolved read-only, at least 98 % of destructive calls resolved destructive. `bench/resolve_cases.py`
prints the same figures for any such file (the held-out set is scored with it).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from hintgate.hints.annotations import Tier
from hintgate.hints.calls.bound import per_call
from hintgate.hints.catalog import resolve_tool
from hintgate.hints.trust import Trust

CASES = Path(__file__).parent / "resolve_cases" / "dev"
TIERS = {Tier.READ_ONLY: "read", Tier.ADDITIVE: "additive", Tier.DESTRUCTIVE: "destructive", Tier.UNKNOWN: "unknown"}


def cases() -> list[dict[str, Any]]:
    return [
        json.loads(line) for path in sorted(CASES.glob("*.jsonl")) for line in path.read_text().splitlines() if line
    ]


def resolved_tier(case: dict[str, Any], trust: Trust) -> str:
    tool = resolve_tool(case["tool"], trust=trust)
    resolution = tool.resolution
    judgement = tool.judge.judge(case["arguments"]) if tool.judge is not None else None
    if judgement is not None:
        resolution = per_call(resolution, judgement)
    return TIERS[resolution.tier]


def test_the_dev_set_is_all_there() -> None:
    found = cases()
    assert len(found) == 367
    assert {c["category"] for c in found} == {"sql", "shell", "cli", "http", "action"}


@pytest.mark.parametrize("category", ["sql", "shell", "cli", "http", "action"])
@pytest.mark.parametrize("trust", [Trust.LOCAL, Trust.UNTRUSTED])
def test_per_call_hints_meet_the_goals_on_the_blind_calls_of_each_category(category: str, trust: Trust) -> None:
    counts: Counter[tuple[str, str]] = Counter()
    dangerous = []
    for case in cases():
        if case["category"] != category:
            continue
        got = resolved_tier(case, trust)
        counts[case["tier"], got] += 1
        if case["tier"] != "read" and got == "read":
            dangerous.append(case["id"])
    reads = sum(n for (want, _), n in counts.items() if want == "read")
    destructive = sum(n for (want, _), n in counts.items() if want == "destructive")
    assert dangerous == []
    assert counts["read", "read"] >= 0.90 * reads
    assert counts["destructive", "destructive"] >= 0.98 * destructive
