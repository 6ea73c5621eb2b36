"""False flags on real text nobody here wrote: installed packages' pages through the result guard.

Every README, METADATA and documentation page (Markdown, reStructuredText,
plain text under a ``docs`` folder) of at least 300 bytes found under the
given roots (by default this interpreter's site-packages and the npm test
peers' ``node_modules``) is sent through the result guard
(`scan.guard.guard`, the default `redact` action) as the text of one
tool result. None of them is poisoned, so every flagged page is a false
flag; for each the share of its characters the redaction removed is printed,
with the findings that caused it. Beside it, `removed_span` is the share the
earlier redaction would have removed from the same findings: the passage from
the sentence of a text's first high finding to the end of the sentence of its
last (the redaction now removes each flagged sentence, never the text between
two); the summary gives both, so a change of the redaction is measured on the
same findings.

Usage::

    python bench/scan_pages.py [ROOT ...] [--format text|json] [--limit N]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import statistics
import sys
import sysconfig
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hintgate.scan.guard import OnResultFinding, guard
from hintgate.scan.poisoning import ScanFinding

REPO = Path(__file__).resolve().parents[1]
MIN_BYTES = 300
_SUFFIXES = frozenset({".md", ".markdown", ".rst", ".txt", ".html"})


def default_roots() -> list[Path]:
    """This interpreter's site-packages and the npm test peers' packages."""
    roots = [Path(sysconfig.get_paths()["purelib"])]
    roots += [REPO / "tests" / name / "node_modules" for name in ("peers", "conformance")]
    return [root for root in roots if root.is_dir()]


def _is_page(path: Path) -> bool:
    name = path.name
    if name == "METADATA" or name.upper().startswith("README"):
        return True
    if path.suffix.lower() not in _SUFFIXES:
        return False
    if name.upper().startswith(("LICENSE", "LICENCE", "COPYING", "NOTICE", "AUTHORS")):
        return False
    # Markdown and reST are documentation wherever they are; plain text and HTML only under a docs folder.
    return path.suffix.lower() in (".md", ".markdown", ".rst") or any(p.lower() in ("docs", "doc") for p in path.parts)


def pages(roots: list[Path]) -> Iterator[tuple[str, str]]:
    """(where, text) of every page of at least `MIN_BYTES` under `roots`, each distinct text once."""
    seen: set[bytes] = set()
    for root in roots:
        for path in sorted(root.rglob("*")):
            if not _is_page(path) or not path.is_file() or path.stat().st_size < MIN_BYTES:
                continue
            raw = path.read_bytes()
            digest = hashlib.sha256(raw).digest()
            if digest in seen:
                continue
            seen.add(digest)
            yield f"{root.name}/{path.relative_to(root)}", raw.decode("utf-8", errors="replace")


def run(roots: list[Path], limit: int | None = None) -> dict[str, Any]:
    """Guard every page; the flagged ones with the share removed and their findings."""
    flagged: list[dict[str, Any]] = []
    phrases: Counter[str] = Counter()
    total = 0
    size = 0
    seconds: list[float] = []
    for where, text in pages(roots):
        if limit is not None and total >= limit:
            break
        total += 1
        size += len(text)
        start = time.process_time()
        guarded = guard({"content": [{"type": "text", "text": text}]}, action=OnResultFinding.REDACT)
        seconds.append(time.process_time() - start)
        if not guarded.findings:
            continue
        blocks = guarded.result.get("content") or [{}]
        after = str(blocks[0].get("text", ""))
        kept = len(after) - sum(len(m) for m in _markers(after))
        removed = max(0.0, 1 - kept / len(text))
        phrases.update(f.key for f in guarded.findings)
        flagged.append(
            {
                "page": where,
                "characters": len(text),
                "removed": round(removed, 4),
                "removed_span": round(_span_removed(text, guarded.findings) / len(text), 4),
                "findings": [f.message[:200] for f in guarded.findings],
            }
        )
    shares = [f["removed"] for f in flagged]
    spans = [f["removed_span"] for f in flagged]
    return {
        "pages": total,
        "characters": size,
        "flagged": len(flagged),
        "removed_mean": round(statistics.fmean(shares), 4) if shares else 0.0,
        "removed_max": max(shares, default=0.0),
        "removed_span_mean": round(statistics.fmean(spans), 4) if spans else 0.0,
        "removed_span_max": max(spans, default=0.0),
        "removed_characters": sum(round(f["removed"] * f["characters"]) for f in flagged),
        "removed_span_characters": sum(round(f["removed_span"] * f["characters"]) for f in flagged),
        "rate": round(len(flagged) / total, 4) if total else 0.0,
        "ms_per_page_p50": round(statistics.median(seconds) * 1e3, 3) if seconds else 0.0,
        "ms_total": round(sum(seconds) * 1e3, 1),
        "by_phrase": dict(phrases.most_common()),
        "flagged_pages": sorted(flagged, key=lambda f: -f["removed"]),
    }


_SENTENCE_END = re.compile(r"[.!?\n](?:\s|$)|</[A-Za-z_-]+>")


def _span_removed(text: str, findings: tuple[ScanFinding, ...]) -> int:
    """Characters the earlier redaction removed from `text` for these findings: from the start of the sentence
    of the first to the end of the sentence of the last (as `scan.guard` did before it removed sentences)."""
    if not findings:
        return 0
    start = min(f.start for f in findings)
    end = max(f.end for f in findings)
    before = max(text.rfind(". ", 0, start), text.rfind("\n", 0, start))
    start = 0 if before < 0 else before + 1 + (text[before] == ".")
    if end == 0 or text[end - 1] not in ".!?>":
        after = _SENTENCE_END.search(text, end)
        end = len(text) if after is None else after.end()
    return max(0, end - start)


def _markers(text: str) -> Iterator[str]:
    at = 0
    while (start := text.find("[hintgate ", at)) >= 0:
        end = text.find("]", start)
        end = len(text) if end < 0 else end + 1
        yield text[start:end]
        at = end


def main() -> int:
    """Print how many pages were flagged and how much of each was removed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", type=Path, nargs="*")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()
    roots = args.roots or default_roots()
    report = run(roots, args.limit)
    if args.format == "json":
        json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
        print()
        return 0
    print(f"roots: {', '.join(str(r) for r in roots)}")
    print(
        f"pages: {report['pages']} ({report['characters']:,} characters), flagged: {report['flagged']} "
        f"({report['rate']:.2%}); guard CPU p50 {report['ms_per_page_p50']} ms/page, total {report['ms_total']} ms"
    )
    print(
        f"share of a flagged page removed: mean {report['removed_mean']:.1%}, max {report['removed_max']:.1%} "
        f"({report['removed_characters']:,} characters); with the earlier first-to-last passage: mean "
        f"{report['removed_span_mean']:.1%}, max {report['removed_span_max']:.1%} "
        f"({report['removed_span_characters']:,} characters)"
    )
    for entry in report["flagged_pages"]:
        print(
            f"  {entry['removed']:6.1%} (passage {entry['removed_span']:6.1%}) of {entry['characters']:>7,}  "
            f"{entry['page']}"
        )
        for message in entry["findings"][:3]:
            print(f"          {message}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
