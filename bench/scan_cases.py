"""Score the poisoning scan on any directory of labelled cases: flagged-high rates per group and per class.

A case directory holds YAML files in the project's scan-cases format (one
class per file: ``class``, ``poisoned``, ``cases``; each case a tool
definition, with a ``result`` when the case is a tool result). Two layouts
are read:

- ``definitions/{poisoned,honest}/*.yaml`` and ``results/{poisoned,honest}/*.yaml``:
  the group is the top folder;
- ``poisoned/*.yaml`` and ``benign/*.yaml`` (``tests/scan/scan_cases``): a
  case with a ``result`` is in the results group, the others in definitions.

A definition is flagged when `scan_tool` makes a high finding in it. A
result is flagged when the result guard (`scan.guard.guard`, the
default `redact` action) makes one in the result alone (the definition of a
result case is not scanned: it is honest by construction); for every
flagged result the share of its text the redaction removed is measured.

``--list`` prints every missed poisoned case and every flagged honest one,
with the findings. The lead runs this on held-out sets nobody here has read.

``--listing`` scans each definition as a tool of one listing with the other
definitions of its file (their names passed as `scan_tool`'s `siblings`, as
the gateway passes the other tools of an upstream's listing). The cases of a
file come from many servers, so this is a model of a listing, not one: it
shows what the sibling rule clears on honest files and what it could lose on
poisoned ones (an attack naming a tool that stands in its file), both
overstated.

Usage::

    python bench/scan_cases.py DIR [DIR ...] [--format text|json] [--list] [--listing]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from hintgate.scan.guard import OnResultFinding, guard
from hintgate.scan.poisoning import Level, ScanFinding, scan_tool

DEFINITIONS = "definitions"
RESULTS = "results"


@dataclass(frozen=True)
class Case:
    """One labelled case: its group (definitions or results), class, label, tool and result."""

    group: str
    kind: str
    poisoned: bool
    tool: dict[str, Any]
    result: dict[str, Any] | None
    where: str
    why: str = ""
    siblings: tuple[str, ...] = ()


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML was built with it: the same data as `yaml.safe_load`, read ten times faster
(the blind sets are 5 MB of YAML)."""


def load(folder: Path, *, listing: bool = False) -> list[Case]:
    """Every case under `folder`, in either layout (`listing`: each definition with the names of its file's other
    definitions as its siblings)."""
    cases: list[Case] = []
    paths = [*folder.glob(f"{DEFINITIONS}/*/*.yaml"), *folder.glob(f"{RESULTS}/*/*.yaml"), *folder.glob("*/*.yaml")]
    for path in sorted(paths):
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
        if not isinstance(data, Mapping) or "cases" not in data:
            continue
        parts = path.relative_to(folder).parts
        top = parts[0] if len(parts) > 2 else None
        names = [str(raw.get("name")) for raw in data["cases"] if raw.get("result") is None] if listing else []
        for i, raw in enumerate(data["cases"]):
            result = raw.get("result")
            group = top if top in (DEFINITIONS, RESULTS) else RESULTS if result is not None else DEFINITIONS
            tool = {k: v for k, v in raw.items() if k not in ("others", "result", "why")}
            cases.append(
                Case(
                    group,
                    str(data["class"]),
                    bool(data["poisoned"]),
                    tool,
                    result if group == RESULTS else None,
                    f"{path.relative_to(folder)}[{i}] {raw.get('name')}",
                    str(raw.get("why", "")),
                    tuple(name for name in names if name != raw.get("name")),
                )
            )
    return cases


@dataclass(frozen=True)
class Verdict:
    """What the scan made of one case: flagged or not, its high findings, the share of text removed."""

    case: Case
    flagged: bool
    high: tuple[ScanFinding, ...]
    removed: float = 0.0


def judge(case: Case) -> Verdict:
    """Scan one case as the gateway would: a definition with `scan_tool`, a result through the guard."""
    if case.group == DEFINITIONS:
        high = tuple(f for f in scan_tool(case.tool, siblings=case.siblings) if f.level is Level.HIGH)
        return Verdict(case, bool(high), high)
    assert case.result is not None
    guarded = guard(case.result, action=OnResultFinding.REDACT, tool=str(case.tool.get("name")))
    removed = _removed(case.result, guarded.result) if guarded.findings else 0.0
    return Verdict(case, bool(guarded.findings), guarded.findings, removed)


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if key != "_meta":
                yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


_MARKER_START = "[hintgate "


def _removed(before: Mapping[str, Any], after: Mapping[str, Any]) -> float:
    """The share of the result's characters that the redaction took out (markers not counted as kept)."""
    total = sum(len(t) for t in _texts(before))
    kept = 0
    for text in _texts(after):
        # Markers are `[hintgate ...]`; what is outside them was kept.
        at = 0
        while True:
            start = text.find(_MARKER_START, at)
            if start < 0:
                kept += len(text) - at
                break
            kept += start - at
            end = text.find("]", start)
            at = len(text) if end < 0 else end + 1
    return max(0.0, 1 - kept / total) if total else 0.0


@dataclass
class Score:
    """Flagged / total per (group, label) and per (group, label, class)."""

    verdicts: list[Verdict] = field(default_factory=list)

    def rate(self, group: str, poisoned: bool, kind: str | None = None) -> tuple[int, int]:
        """(flagged, total) of the cases of a group and label, and of one class if given."""
        mine = [
            v
            for v in self.verdicts
            if v.case.group == group and v.case.poisoned is poisoned and (kind is None or v.case.kind == kind)
        ]
        return sum(v.flagged for v in mine), len(mine)

    def classes(self, group: str, poisoned: bool) -> list[str]:
        """The classes of a group and label, sorted."""
        return sorted({v.case.kind for v in self.verdicts if v.case.group == group and v.case.poisoned is poisoned})

    def to_json(self) -> dict[str, Any]:
        """Rates per group and class, the misses and false flags, the share removed from flagged honest results."""
        out: dict[str, Any] = {}
        for group in (DEFINITIONS, RESULTS):
            for poisoned in (True, False):
                hit, total = self.rate(group, poisoned)
                if not total:
                    continue
                label = "poisoned" if poisoned else "honest"
                out[f"{group}/{label}"] = {
                    "flagged": hit,
                    "total": total,
                    "rate": round(hit / total, 4),
                    "classes": {
                        kind: dict(zip(("flagged", "total"), self.rate(group, poisoned, kind), strict=True))
                        for kind in self.classes(group, poisoned)
                    },
                }
        out["missed"] = [v.case.where for v in self.verdicts if v.case.poisoned and not v.flagged]
        out["false_flags"] = [
            {
                "case": v.case.where,
                "removed": round(v.removed, 4),
                "findings": [f.message for f in v.high][:5],
            }
            for v in self.verdicts
            if not v.case.poisoned and v.flagged
        ]
        return out


def score(cases: list[Case]) -> Score:
    """Judge every case."""
    return Score([judge(case) for case in cases])


def main() -> int:
    """Print the rates of each directory given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--list", action="store_true", help="print every miss and false flag with its findings")
    parser.add_argument(
        "--listing", action="store_true", help="scan each definition with its file's other definitions as siblings"
    )
    args = parser.parse_args()
    report: dict[str, Any] = {}
    for folder in args.folders:
        cases = load(folder, listing=args.listing)
        if not cases:
            parser.error(f"no cases in {folder} (expected */*.yaml with class, poisoned and cases)")
        result = score(cases)
        report[str(folder)] = result.to_json()
        if args.format == "text":
            _print(folder, result, listing=args.list)
    if args.format == "json":
        json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
        print()
    return 0


def _print(folder: Path, result: Score, *, listing: bool) -> None:
    print(f"== {folder}")
    for group in (DEFINITIONS, RESULTS):
        for poisoned in (True, False):
            hit, total = result.rate(group, poisoned)
            if not total:
                continue
            label = "poisoned" if poisoned else "honest"
            print(f"{group}/{label}: flagged high {hit}/{total} ({hit / total:.1%})")
            for kind in result.classes(group, poisoned):
                k_hit, k_total = result.rate(group, poisoned, kind)
                print(f"    {kind:28} {k_hit:4}/{k_total:<4} {k_hit / k_total:6.1%}")
    false = [v for v in result.verdicts if not v.case.poisoned and v.flagged and v.case.group == RESULTS]
    if false:
        shares = sorted(v.removed for v in false)
        print(f"honest results flagged: share removed min {shares[0]:.1%}, max {shares[-1]:.1%}")
    if not listing:
        return
    for verdict in result.verdicts:
        if verdict.case.poisoned and not verdict.flagged:
            print(f"  missed  {verdict.case.where}  -- {verdict.case.why[:120]}")
    for verdict in result.verdicts:
        if not verdict.case.poisoned and verdict.flagged:
            found = "; ".join(f.message for f in verdict.high)[:300]
            print(f"  flagged {verdict.case.where} (removed {verdict.removed:.0%}): {found}")


if __name__ == "__main__":
    sys.exit(main())
