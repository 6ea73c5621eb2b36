"""False flags on real text nobody here wrote: installed packages' pages through the result guard.

Every README, METADATA and documentation page (Markdown, reStructuredText,
plain text under a ``docs`` folder) of at least 300 bytes found under the
given roots (by default this interpreter's site-packages and the npm test
peers' ``node_modules``) is sent through the result guard
(`hints.resultscan.guard`, the default `redact` action) as the text of one
tool result. None of them is poisoned, so every flagged page is a false
flag; for each the share of its characters the redaction removed is printed,
with the findings that caused it.

Usage::

    python bench/scan_pages.py [ROOT ...] [--format text|json] [--limit N]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import sysconfig
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hintgate.hints.resultscan import OnResultFinding, guard

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
        after = guarded.result["content"][0]["text"]
        kept = len(after) - sum(len(m) for m in _markers(after))
        removed = max(0.0, 1 - kept / len(text))
        phrases.update(f.key for f in guarded.findings)
        flagged.append(
            {
                "page": where,
                "characters": len(text),
                "removed": round(removed, 4),
                "findings": [f.message[:200] for f in guarded.findings],
            }
        )
    return {
        "pages": total,
        "characters": size,
        "flagged": len(flagged),
        "rate": round(len(flagged) / total, 4) if total else 0.0,
        "ms_per_page_p50": round(statistics.median(seconds) * 1e3, 3) if seconds else 0.0,
        "ms_total": round(sum(seconds) * 1e3, 1),
        "by_phrase": dict(phrases.most_common()),
        "flagged_pages": sorted(flagged, key=lambda f: -f["removed"]),
    }


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
    for entry in report["flagged_pages"]:
        print(f"  {entry['removed']:6.1%} of {entry['characters']:>7,}  {entry['page']}")
        for message in entry["findings"][:3]:
            print(f"          {message}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
