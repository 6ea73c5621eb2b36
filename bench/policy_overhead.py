"""Measure what the policy adds to a tools/call: `decide()` for typical cases, median per call.

The gateway calls `decide` on every tools/call, so its cost is added to every
allowed call; the goal (issue 5) is a median under 50 µs. Each case is timed
with `timeit` in batches; the median of the batch means is printed in
microseconds beside the goal. "facts + decide" also counts building the
`CallFacts` from a catalog entry, which the gateway does per call too.

Usage::

    python bench/policy_overhead.py [--repeat N] [--number N] [--format text|json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO / "src") not in sys.path:  # runnable without installing the package
    sys.path.insert(0, str(REPO / "src"))

from hintgate.hints.catalog import build_catalog, resolve_tool  # noqa: E402
from hintgate.policy.decide import (  # noqa: E402
    CallFacts,
    Mode,
    PolicySettings,
    SessionState,
    decide,
    parse_policy,
)

GOAL_US = 50.0
WRITE_IDEMPOTENT = {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True}

# Twenty rules of the kinds operators write; the matching one is last at its level.
RULES = {
    "rules": [
        *({"deny": {"tool": f"svc{n}_delete_*"}} for n in range(8)),
        *({"ask": {"server": f"prod-{n}", "tier": "destructive"}} for n in range(6)),
        {"deny": {"destructiveHint": True, "server": "billing"}},
        {"ask": {"tier": "unknown"}},
        {"allow": {"tool": "time_*"}},
        {"ask": {"tool": "*_purge_*"}},
        {"deny": {"server": "legacy"}},
        {"allow": {"tool": "notes_create_*"}},
    ]
}


def build() -> dict[str, Callable[[], object]]:
    tools = [
        resolve_tool({"name": "get_current_time", "annotations": {"readOnlyHint": True}}, trusted=True),
        resolve_tool(
            {"name": "create_note", "annotations": {"readOnlyHint": False, "destructiveHint": False}}, trusted=True
        ),
        resolve_tool(
            {"name": "put_tag", "annotations": WRITE_IDEMPOTENT},
            trusted=True,
        ),
    ]
    catalog = build_catalog([("time", "time", tools[:1]), ("notes", "notes", tools[1:])])
    time_entry, note_entry, tag_entry = catalog.entries.values()
    _, rules = parse_policy(RULES)
    default = PolicySettings()
    accept = PolicySettings(mode=Mode.ACCEPT_EDITS)
    fresh = SessionState()
    tainted = SessionState()
    tainted.mark_open_world_result("web_fetch")
    retried = SessionState()
    arguments = {"note": 42, "tag": "urgent", "options": {"replace": True}}
    retried.record_approval(tag_entry.name, arguments, 0.0)

    read_only = CallFacts.from_entry(time_entry, {"timezone": "UTC"})
    create = CallFacts.from_entry(note_entry, {"title": "x"})
    tag = CallFacts.from_entry(tag_entry, arguments)

    return {
        "read-only allow, no rules": lambda: decide(read_only, fresh, default, (), now=1.0),
        "read-only allow, 20 rules (rule match)": lambda: decide(read_only, fresh, default, rules, now=1.0),
        "additive write, 20 rules (rule match)": lambda: decide(create, fresh, accept, rules, now=1.0),
        "tainted session, write asks": lambda: decide(create, tainted, accept, (), now=1.0),
        "idempotent retry allowed": lambda: decide(tag, retried, default, rules, now=1.0),
        "facts + decide, read-only, 20 rules": lambda: decide(
            CallFacts.from_entry(time_entry, {"timezone": "UTC"}), fresh, default, rules, now=1.0
        ),
    }


def measure(case: Callable[[], object], repeat: int, number: int) -> float:
    """The median over `repeat` batches of the mean time of one call, in µs."""
    batches = timeit.repeat(case, repeat=repeat, number=number)
    return statistics.median(batches) / number * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=31, help="batches per case")
    parser.add_argument("--number", type=int, default=2000, help="calls per batch")
    parser.add_argument("--format", choices=["text", "json"], default="text")
    args = parser.parse_args(argv)
    results = {name: measure(case, args.repeat, args.number) for name, case in build().items()}
    if args.format == "json":
        print(json.dumps({"goal_us": GOAL_US, "median_us": results}, indent=2))
    else:
        print(f"{'case':<40} {'median µs':>10}  goal {GOAL_US:.0f} µs")
        for name, us in results.items():
            verdict = "ok" if us < GOAL_US else "OVER"
            print(f"{name:<40} {us:>10.2f}  {verdict} ({us / GOAL_US:.1%} of goal)")
    return 0 if all(us < GOAL_US for us in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
