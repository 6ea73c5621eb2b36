"""Measure the poisoning scan on the corpus of real MCP tools: cost per tool and findings.

Cost is the CPU time of this process, best of N rounds, so a busy machine
inflates it less than wall time would.

Every tool of ``<corpus>/tools`` and ``<corpus>/unannotated`` is scanned with
the whole corpus as the catalog (each server's tools are "other servers' tools"
for every other server, except names the server itself also has), which is
harsher than any real gateway. None of these tools is poisoned, so every high
finding is a false positive; they are all printed.

Usage::

    python bench/scan_corpus.py [--corpus DIR] [--rounds N] [--format text|json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from hintgate.hints.scan import Level, scan_tool

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO / ".." / "shared" / "corpus"


def load(corpus: Path) -> list[tuple[str, dict[str, Any]]]:
    """(server, tool) for every tool of the corpus."""
    tools = []
    for folder in ("tools", "unannotated"):
        for path in sorted((corpus / folder).glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            tools.extend((str(data["server"]), tool) for tool in data["tools"])
    return tools


def main() -> int:
    """Scan the corpus, print cost and findings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args()
    tools = load(args.corpus)
    by_server: dict[str, set[str]] = {}
    for server, tool in tools:
        by_server.setdefault(server, set()).add(str(tool.get("name")))
    everyone: dict[str, str] = {}
    for server, names in by_server.items():
        for name in names:
            everyone.setdefault(name, server)
    others = {
        server: {n: s for n, s in everyone.items() if n not in names and s != server}
        for server, names in by_server.items()
    }
    annotated = [(s, t) for s, t in tools]
    # Cost: the plain scan (no catalog) over the annotated tools, best of N rounds.
    plain = [t for s, t in load_annotated(args.corpus)]
    best = float("inf")
    for _ in range(args.rounds):
        start = time.process_time()
        for tool in plain:
            scan_tool(tool)
        best = min(best, time.process_time() - start)
    with_catalog = float("inf")
    for _ in range(args.rounds):
        start = time.process_time()
        for server, tool in annotated:
            scan_tool(tool, others=others[server])
        with_catalog = min(with_catalog, time.process_time() - start)
    findings = [(server, f) for server, tool in annotated for f in scan_tool(tool, others=others[server])]
    high_tools = {(s, f.tool) for s, f in findings if f.level is Level.HIGH}
    result = {
        "tools": len(annotated),
        "us_per_tool_plain": round(best / len(plain) * 1e6, 1),
        "us_per_tool_with_catalog": round(with_catalog / len(annotated) * 1e6, 1),
        "findings": dict(Counter(f.code for _, f in findings)),
        "tools_flagged_high": len(high_tools),
        "high_rate": round(len(high_tools) / len(annotated), 4),
        "high": [{"server": s, **f.to_json()} for s, f in findings if f.level is Level.HIGH],
        "other": [{"server": s, **f.to_json()} for s, f in findings if f.level is not Level.HIGH],
    }
    if args.format == "json":
        json.dump(result, sys.stdout, indent=2)
        print()
        return 0
    print(f"tools: {result['tools']}")
    print(
        f"cost per tool: {result['us_per_tool_plain']} us (tools/ only, no catalog), "
        f"{result['us_per_tool_with_catalog']} us (all, whole corpus as catalog)"
    )
    print(f"tools flagged high: {result['tools_flagged_high']} ({result['high_rate']:.2%})")
    for entry in result["high"] + result["other"]:
        print(f"  {entry['level']:7} {entry['code']} {entry['server']}/{entry['tool']}: {entry['message']}")
    return 0


def load_annotated(corpus: Path) -> list[tuple[str, dict[str, Any]]]:
    """(server, tool) for the tools of ``<corpus>/tools`` only."""
    tools = []
    for path in sorted((corpus / "tools").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        tools.extend((str(data["server"]), tool) for tool in data["tools"])
    return tools


if __name__ == "__main__":
    sys.exit(main())
