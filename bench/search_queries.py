"""Score `search_tools`' ranking on task-phrased queries over the corpus of real MCP tools.

Each PATH is a JSONL file, one query a line: the task in `query`, the tool or
tools that answer it in `expected` (also read: `tool`, `tools`, `relevant`,
`answer`, `answers`), each as `["server", "tool"]`, `"server/tool"`,
`{"server": ..., "name": ...}` (or `"tool"`), or a bare tool name (matched on
any server); `server` beside a bare name names its server. Lines starting with `//` or `#` are skipped.

The tools are the corpus's (`tools/` and `unannotated/`), served as one
gateway would serve them: each server a source whose prefix is its name,
every tool resolved (hints, trust `local`) and listed with the public name
`tools/list` gives it; the index is the one `search_tools` builds
(`hintgate.discovery.index.ToolIndex` over the catalog's `tools/list`
entries). For each query the best ten are ranked and scored:

- recall@5: the share of queries with an expected tool among the first 5;
- MRR@10: the mean of 1/rank of the first expected tool within the first 10 (0 when none is);
- readOnly violations: for every query ranked again with `readOnly: true`
  (the masks `search_tools` applies), tools returned whose readOnly hint in
  force is not true. It must be 0.

Usage::

    python bench/search_queries.py PATH... [--corpus DIR] [--format text|json] [--misses N]
                                           [--baseline]

`--baseline` also ranks with the first ranking built, before any tuning on a
query set (every field weighted 1, Snowball stems, k1 1.5, b 0.75, top-level
parameters only, no trigrams, no intent, no meaning), and with `search_tools`'
ranking by words alone (BM25, without the static vectors' meaning), beside the
ranking `search_tools` uses.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO / "src") not in sys.path:  # runnable without installing the package
    sys.path.insert(0, str(REPO / "src"))

from hintgate.discovery.index import DEFAULT_RANKING, Ranking, ToolIndex  # noqa: E402
from hintgate.hints.annotations import Hint  # noqa: E402
from hintgate.hints.catalog import Catalog, build_catalog, resolve_tool  # noqa: E402
from hintgate.hints.trust import Trust  # noqa: E402

DEFAULT_CORPUS = REPO / ".." / "shared" / "corpus"
BASELINE = Ranking(
    weights=(1.0, 1.0, 1.0, 1.0),
    stem=True,
    k1=1.5,
    b=0.75,
    deep_parameters=False,
    trigrams=0.0,
    intent=0.0,
    semantic=0.0,
)
"""The first ranking built, before tuning on any query set: every field weighted alike, top-level parameters,
no trigrams, no intent."""
_EXPECTED_KEYS = ("expected", "tools", "tool", "relevant", "answer", "answers")


@dataclass(frozen=True, slots=True)
class Query:
    """One query: its text, the (server or None, tool) pairs that answer it, where it was read."""

    text: str
    expected: tuple[tuple[str | None, str], ...]
    where: str


@dataclass(slots=True)
class Score:
    """A ranking's figures over a set of queries."""

    queries: int = 0
    hits5: int = 0
    reciprocal: float = 0.0
    violations: list[str] = field(default_factory=list)
    misses: list[tuple[Query, list[str]]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def recall5(self) -> float:
        return self.hits5 / self.queries if self.queries else 0.0

    @property
    def mrr10(self) -> float:
        return self.reciprocal / self.queries if self.queries else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "queries": self.queries,
            "recall@5": round(self.recall5, 4),
            "MRR@10": round(self.mrr10, 4),
            "readOnly violations": len(self.violations),
            "ms per query": round(1000 * self.seconds / self.queries, 3) if self.queries else 0.0,
        }


def load_corpus(corpus: Path) -> Catalog:
    """The corpus's tools as one gateway's catalog: each server a source prefixed by its name."""
    groups = []
    for folder in ("tools", "unannotated"):
        for path in sorted((corpus / folder).glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            server = str(data["server"])
            resolved = [resolve_tool(tool, trust=Trust.LOCAL) for tool in data["tools"]]
            groups.append((server, server, resolved))
    if not groups:
        raise ValueError(f"no corpus at {corpus}: expected tools/*.json there (give --corpus DIR)")
    return build_catalog(groups)


def _pairs(value: Any, server: str | None, *, item: bool = False) -> Iterable[tuple[str | None, str]]:
    if item and isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value):
        yield value[0], value[1]  # ["server", "tool"]
        return
    if isinstance(value, str):
        if "/" in value and server is None:
            owner, _, name = value.partition("/")
            yield owner, name
        else:
            yield server, value
    elif isinstance(value, Mapping):
        name = value.get("name") or value.get("tool")
        if isinstance(name, str):
            owner = value.get("server", server)
            yield (owner if isinstance(owner, str) else None), name
    elif isinstance(value, list):
        for one in value:
            yield from _pairs(one, server, item=True)


def load_queries(paths: Sequence[Path]) -> list[Query]:
    """Every query of the JSONL files, in order.

    Raises:
        ValueError: a line that is no JSON object, or has no query or no expected tool (file and line named).
    """
    queries: list[Query] = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            stripped = line.strip()
            if not stripped or stripped.startswith(("//", "#")):
                continue
            where = f"{path}:{number}"
            try:
                row = json.loads(stripped)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{where}: not JSON: {exc}") from None
            if not isinstance(row, Mapping) or not isinstance(row.get("query"), str):
                raise ValueError(f"{where}: expected an object with a string 'query'")
            server = row.get("server") if isinstance(row.get("server"), str) else None
            expected: list[tuple[str | None, str]] = []
            for key in _EXPECTED_KEYS:
                if key in row:
                    expected.extend(_pairs(row[key], server))
            if not expected:
                raise ValueError(f"{where}: no expected tool (one of {', '.join(_EXPECTED_KEYS)})")
            queries.append(Query(row["query"], tuple(dict.fromkeys(expected)), where))
    return queries


def score(catalog: Catalog, queries: Sequence[Query], ranking: Ranking = DEFAULT_RANKING) -> Score:
    """Rank every query over `catalog` and score it (recall@5, MRR@10, readOnly violations)."""
    import numpy as np

    index = ToolIndex(catalog.wire, ranking)
    entries = list(catalog.entries.values())
    keys = [(e.server, e.upstream_name) for e in entries]
    read_only = np.array([e.tool.resolution.hints[Hint.READ_ONLY].value is True for e in entries])
    known = set(keys)
    names = {name for _, name in keys}
    out = Score()
    started = time.perf_counter()
    for query in queries:
        for server, name in query.expected:
            if (server is not None and (server, name) not in known) or name not in names:
                raise ValueError(f"{query.where}: no corpus tool {server or '*'}/{name}")
        ranked = index.rank(query.text, limit=10)
        found = [keys[i] for i, _ in ranked]
        rank = next(
            (
                n
                for n, (server, name) in enumerate(found, 1)
                if any(name == want and (owner is None or owner == server) for owner, want in query.expected)
            ),
            None,
        )
        out.queries += 1
        if rank is not None and rank <= 5:
            out.hits5 += 1
        else:
            out.misses.append((query, [f"{s}/{n}" for s, n in found[:5]]))
        if rank is not None:
            out.reciprocal += 1 / rank
        for i, _ in index.rank(query.text, allowed=read_only, limit=10):
            if not read_only[i]:
                out.violations.append(f"{query.where}: {keys[i][0]}/{keys[i][1]}")
    out.seconds = time.perf_counter() - started
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--misses", type=int, default=0, help="show up to N queries missed at 5")
    parser.add_argument("--baseline", action="store_true", help="also score the first, untuned ranking")
    args = parser.parse_args(argv)
    catalog = load_corpus(args.corpus)
    queries = load_queries(args.paths)
    rankings = {"search_tools": DEFAULT_RANKING}
    if args.baseline:
        words_only = dataclasses.replace(DEFAULT_RANKING, semantic=0.0)
        rankings = {"baseline (untuned)": BASELINE, "words only (BM25)": words_only, **rankings}
    scores = {label: score(catalog, queries, ranking) for label, ranking in rankings.items()}
    if args.format == "json":
        print(json.dumps({label: s.to_json() for label, s in scores.items()}, indent=2))
    else:
        print(f"{len(queries)} queries over {len(catalog.entries)} corpus tools")
        for label, s in scores.items():
            figures = s.to_json()
            print(
                f"{label:20} recall@5 {figures['recall@5']:.3f}  MRR@10 {figures['MRR@10']:.3f}  "
                f"readOnly violations {figures['readOnly violations']}  {figures['ms per query']} ms/query"
            )
        for query, found in scores["search_tools"].misses[: args.misses]:
            wanted = ", ".join(f"{s or '*'}/{n}" for s, n in query.expected)
            print(f"  missed {query.where}: {query.text!r} wants {wanted}; got {', '.join(found)}")
    return 1 if any(s.violations for s in scores.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
