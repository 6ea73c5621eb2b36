"""A tool result read as what it is: someone else's words, scanned before the model reads them.

Pure. `guard` scans a result with the poisoning scan (`scan_result`: text
content, embedded resources' text, every string of `structuredContent`, within
a size and time budget) and, when a text earns a high finding, does what
`integrity.onResultFinding` says:

- `mark`: the result passes unchanged but for `_meta["hintgate/findings"]`;
- `redact` (the default): each flagged passage (from the sentence of the first
  high finding of a text to the end of the sentence of its last) is replaced
  by a marker naming the codes, and `_meta` says so; the rest of the result,
  and every result without a high finding, reaches the client unchanged;
- `block`: the client gets a tool error saying the result was withheld.

Whatever the action, the findings are recorded with the call and the session
is tainted (`SessionState.mark_result(finding=...)`).
"""

from __future__ import annotations

import copy
import enum
import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hintgate.hints.scan import ScanFinding, high_findings, scan_result
from hintgate.results import tool_error

__all__ = ["FINDINGS_META", "GuardedResult", "OnResultFinding", "guard"]

FINDINGS_META = "hintgate/findings"
"""The `_meta` key of a result that carries the high findings the scan made in it."""


class OnResultFinding(enum.StrEnum):
    """What reaches the client when a tool's result speaks to the model (`integrity.onResultFinding`)."""

    MARK = "mark"
    REDACT = "redact"
    BLOCK = "block"


@dataclass(frozen=True, slots=True)
class GuardedResult:
    """A result as it goes to the client, and the high findings the scan made in the original."""

    result: dict[str, Any]
    findings: tuple[ScanFinding, ...]

    def summary(self) -> str | None:
        """The findings in a phrase (codes and the first message), None when there are none."""
        if not self.findings:
            return None
        codes = ", ".join(sorted({f.code for f in self.findings}))
        return f"{codes}: {self.findings[0].message}"


def guard(result: Mapping[str, Any], *, action: OnResultFinding, tool: str | None = None) -> GuardedResult:
    """Scan `result`; with a high finding, mark, redact or block it as `action` says."""
    found = tuple(high_findings(scan_result(result, tool=tool)))
    if not found:
        return GuardedResult(dict(result), ())
    meta = [f.to_json() for f in found]
    if action is OnResultFinding.BLOCK:
        codes = ", ".join(sorted({f.code for f in found}))
        blocked = tool_error(
            f"hintgate withheld this result of {tool or 'the tool'}: it speaks to the model ({codes}): "
            f"{found[0].message}"
        )
        blocked["_meta"] = {FINDINGS_META: meta}
        return GuardedResult(blocked, found)
    out = copy.deepcopy(dict(result))
    if action is OnResultFinding.REDACT:
        by_path: dict[str, list[ScanFinding]] = {}
        for finding in found:
            by_path.setdefault(finding.path, []).append(finding)
        for path, findings in by_path.items():
            _replace(out, path, functools.partial(_redacted, findings=findings))
    existing = out.get("_meta")
    out["_meta"] = {**(existing if isinstance(existing, Mapping) else {}), FINDINGS_META: meta}
    return GuardedResult(out, found)


_SENTENCE_END = re.compile(r"[.!?\n](?:\s|$)|</[A-Za-z_-]+>")


def _redacted(text: str, *, findings: list[ScanFinding]) -> str:
    start = min(f.start for f in findings)
    end = max(f.end for f in findings)
    # From the start of the sentence of the first finding to the end of the sentence of the last.
    before = max(text.rfind(". ", 0, start), text.rfind("\n", 0, start))
    start = 0 if before < 0 else before + 1 + (text[before] == ".")
    if end == 0 or text[end - 1] not in ".!?>":  # a finding that ends a sentence or a tag ends the passage
        after = _SENTENCE_END.search(text, end)
        end = len(text) if after is None else after.end()
    codes = ", ".join(sorted({f.code for f in findings}))
    return f"{text[:start]}[hintgate removed text addressed to the model ({codes})]{text[end:]}"


_PART = re.compile(r"\.([A-Za-z0-9_$\-]+)|\[(\d+)\]|\[('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\]")


def _replace(node: Any, path: str, change: Callable[[str], str]) -> None:
    """Apply `change` to the string at `path` (as `scan_result` names it) inside `node`, in place."""
    first = re.match(r"[A-Za-z0-9_$\-]+", path)
    if first is None:
        return
    parts: list[str | int] = [first.group()]
    for match in _PART.finditer(path, first.end()):
        if match.group(1) is not None:
            parts.append(match.group(1))
        elif match.group(2) is not None:
            parts.append(int(match.group(2)))
        else:
            parts.append(_unquote(match.group(3)))
    parent: Any = node
    try:
        for part in parts[:-1]:
            parent = parent[part]
        value = parent[parts[-1]]
    except (KeyError, IndexError, TypeError):
        return
    if isinstance(value, str):
        parent[parts[-1]] = change(value)


def _unquote(quoted: str) -> str:
    """A key as `repr` quoted it in a path (`['a b']`), unquoted."""
    body = quoted[1:-1]
    return body.encode("utf-8").decode("unicode_escape") if "\\" in body else body
