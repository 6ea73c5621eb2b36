"""Measure tool pinning on the corpus of real MCP tools: cost per tool, and close names across servers.

For every tool of ``<corpus>/tools`` and ``<corpus>/unannotated`` it times,
as CPU time of this process, best of N rounds:

- pin: the canonical form and its SHA-256 (`canonical_json`, `pin_hash`);
- first sight: `reconcile` of the whole corpus against no pins (every tool pinned);
- compare: `reconcile` of the whole corpus against its own pins (nothing changed), what a gateway does at
  every start and `list_changed`;
- classify: `classify` of each tool against itself with its description changed (the diff included);
- rebuild: the gateway's `PinKeeper.observe` of the whole corpus again, definitions unchanged (the
  canonical forms kept from the previous listing), what every later catalog rebuild pays.

It also counts the tools a server listed after all the others would see quarantined for a name close
to another server's tool (`close_name`): on this corpus, false positives.

Usage::

    python bench/pin_corpus.py [--corpus DIR] [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hintgate.hints.pins import canonical_json, classify, close_name, definition_diff, pin_hash, reconcile

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO / ".." / "shared" / "corpus"
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def load(corpus: Path) -> dict[str, list[dict[str, Any]]]:
    """Server → its tools, for every file of the corpus."""
    servers: dict[str, list[dict[str, Any]]] = {}
    for folder in ("tools", "unannotated"):
        for path in sorted((corpus / folder).glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            servers.setdefault(f"{folder}/{data['server']}", []).extend(data["tools"])
    return servers


def best(rounds: int, work: Callable[[], object]) -> float:
    """The least CPU seconds `work` took over `rounds` runs."""
    times = []
    for _ in range(rounds):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    servers = load(args.corpus)
    listings = {s: [(str(t.get("name")), t) for t in tools] for s, tools in servers.items()}
    tools = [t for ts in servers.values() for t in ts]
    n = len(tools)
    pins = {p.key: p for p in reconcile({}, listings, now=NOW).pins}
    changed = [
        (canonical_json(t), canonical_json({**t, "description": f"{t.get('description', '')} Changed."})) for t in tools
    ]

    def classify_all() -> None:
        for old, new in changed:
            classify(old, new)
            definition_diff(old, new)

    from hintgate.server.pins import PinKeeper

    keeper = PinKeeper(None)
    keeper.observe(listings)
    timings = {
        "pin": best(args.rounds, lambda: [pin_hash(canonical_json(t)) for t in tools]),
        "first sight": best(args.rounds, lambda: reconcile({}, listings, now=NOW)),
        "compare": best(args.rounds, lambda: reconcile(pins, listings, now=NOW)),
        "classify + diff": best(args.rounds, classify_all),
        "rebuild": best(args.rounds, lambda: keeper.observe(listings)),
    }
    print(f"{n} tools of {len(servers)} servers, best of {args.rounds} rounds (CPU time):")
    for what, seconds in timings.items():
        print(f"  {what:16} {seconds * 1e6 / n:8.1f} µs per tool  ({seconds * 1e3:.1f} ms in all)")
    close = []
    for server, ts in servers.items():
        others = [str(t.get("name")) for s, o in servers.items() if s != server for t in o]
        close += [(server, str(t.get("name")), near) for t in ts if (near := close_name(str(t.get("name")), others))]
    print(f"names close to another server's tool: {len(close)} of {n} ({100 * len(close) / n:.1f} %)")
    for server, name, near in close:
        print(f"  {server}: {name} ~ {near}")


if __name__ == "__main__":
    main()
