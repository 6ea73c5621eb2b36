"""The labelled calls written blind (resolve_cases/dev and dev2): per-call hints meet their goals in every category.

Each set was written by someone who never read the judges (two writers, each with their own
conventions; each set's README says how it was labelled). The goals: no destructive or additive call
resolved read-only (it would run unasked), at least 90 % of reads resolved read-only, at least 98 % of
destructive calls resolved destructive. `bench/resolve_cases.py` prints the same figures for any such
file (the held-out set is scored with it).
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from hintgate.hints.annotations import Tier
from hintgate.hints.calls.bound import per_call
from hintgate.hints.catalog import resolve_tool
from hintgate.hints.trust import Trust

CASES = Path(__file__).parent / "resolve_cases"
SETS = {"dev": 367, "dev2": 504}
TIERS = {Tier.READ_ONLY: "read", Tier.ADDITIVE: "additive", Tier.DESTRUCTIVE: "destructive", Tier.UNKNOWN: "unknown"}


@functools.cache
def cases(name: str) -> tuple[dict[str, Any], ...]:
    folder = CASES / name
    return tuple(
        json.loads(line) for path in sorted(folder.glob("*.jsonl")) for line in path.read_text().splitlines() if line
    )


def resolved_tier(case: dict[str, Any], trust: Trust) -> str:
    tool = resolve_tool(case["tool"], trust=trust)
    resolution = tool.resolution
    judgement = tool.judge.judge(case["arguments"]) if tool.judge is not None else None
    if judgement is not None:
        resolution = per_call(resolution, judgement)
    return TIERS[resolution.tier]


@pytest.mark.parametrize(("name", "count"), SETS.items())
def test_the_dev_sets_are_all_there(name: str, count: int) -> None:
    found = cases(name)
    assert len(found) == count
    assert {c["category"] for c in found} == {"sql", "shell", "cli", "http", "action"}
    assert len({c["id"] for c in found}) == count


@pytest.mark.parametrize("name", SETS)
@pytest.mark.parametrize("category", ["sql", "shell", "cli", "http", "action"])
@pytest.mark.parametrize("trust", [Trust.LOCAL, Trust.UNTRUSTED])
def test_per_call_hints_meet_the_goals_on_the_blind_calls_of_each_category(
    name: str, category: str, trust: Trust
) -> None:
    counts: Counter[tuple[str, str]] = Counter()
    dangerous = []
    for case in cases(name):
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


@pytest.mark.parametrize("name", SETS)
def test_a_trusted_server_resolves_a_write_read_only_only_where_it_declared_the_tool_read_only(name: str) -> None:
    # The draft's bound: a trusted server's readOnlyHint true holds for every call of the tool (a DROP
    # through `inspect_table`, declared read-only, stays read-only when its server is trusted).
    dangerous = [
        c["id"]
        for c in cases(name)
        if c["tier"] != "read"
        and resolved_tier(c, Trust.TRUSTED) == "read"
        and (c["tool"].get("annotations") or {}).get("readOnlyHint") is not True
    ]
    assert dangerous == []
