"""A tool result read as what it is: someone else's words, scanned before the model reads them.

Pure. `guard` scans a result with the poisoning scan (`scan_result`: every
text a client can show the model, each read in full or treated as flagged)
and, when a text earns a high finding or was left unread, does what
`integrity.onResultFinding` says:

- `mark`: the result passes unchanged but for `_meta["hintgate/findings"]`
  (and `_meta["hintgate/unscanned"]` for what the scan did not read);
- `redact` (the default): the smallest unit holding each finding (its
  sentence, never more; in a data value, a table's cell, or a sentence longer
  than `scan.passages.NORMAL`, the value, the cell, the element's text or the
  clause: `scan.passages`) and each span left unread is replaced by a marker
  saying what was removed and why; the text
  between two of them, the rest of the result, and every result without a
  high finding reach the client unchanged. A flagged place that cannot be
  replaced (it is not a string where the scan found one) withholds the result;
- `block`: the client gets a tool error saying the result was withheld.

Whatever the action, the upstream's own `_meta` is dropped (as the listings
drop it), the findings are recorded with the call and the session is tainted
(`SessionState.mark_result(finding=...)`). Places are carried as tuples of
keys and indexes (`scan.poisoning.Location`), never rebuilt from a printed path.
`apply` does the second half alone, for findings made elsewhere (a worker
process: `hintgate.scan.workers`); `guard_strings` guards any JSON value (an
error's message, a task's status) the same way.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hintgate.results import tool_error
from hintgate.scan.findings import UNSCANNED, Key, Location, ScanFinding, high_findings
from hintgate.scan.passages import NORMAL, Passages

__all__ = [
    "FINDINGS_META",
    "UNSCANNED_META",
    "GuardedResult",
    "OnResultFinding",
    "apply",
    "guard",
    "redacted",
]

FINDINGS_META = "hintgate/findings"
"""The `_meta` key of a result that carries the high findings the scan made in it."""
UNSCANNED_META = "hintgate/unscanned"
"""The `_meta` key of a result that lists what the scan did not read (each place treated as flagged)."""
SENTENCE_LIMIT = 1000
"""Characters past which a flagged sentence is not removed whole: only the span of its finding is."""


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
    json: str | None = None
    """`result`'s JSON as the scan's job wrote it (compact, non-ASCII kept), when the result goes out as it came in
    (nothing found, no `_meta` of the upstream's taken out): the call's record reuses it (`store.rows.encoded_from`).
    None: not written, or not this result's."""

    def summary(self) -> str | None:
        """The findings in a phrase (codes and the first message), None when there are none."""
        if not self.findings:
            return None
        codes = ", ".join(sorted({f.code for f in self.findings}))
        return f"{codes}: {self.findings[0].message}"

    @property
    def unscanned(self) -> tuple[ScanFinding, ...]:
        """The places the scan did not read (each treated as flagged)."""
        return tuple(f for f in self.findings if f.code == UNSCANNED)


def guard(result: Mapping[str, Any], *, action: OnResultFinding, tool: str | None = None) -> GuardedResult:
    """Scan `result`; with a high finding or text left unread, mark, redact or block it as `action` says."""
    from hintgate.scan.poisoning import scan_result  # the scan's modules load where a text is first scanned

    return apply(result, scan_result(result, tool=tool, warnings=False), action=action, tool=tool)


def apply(
    result: Mapping[str, Any],
    findings: Sequence[ScanFinding],
    *,
    action: OnResultFinding,
    tool: str | None = None,
) -> GuardedResult:
    """The result as the client gets it, given the scan's `findings` in it (each with its `location`)."""
    out = {k: v for k, v in result.items() if k != "_meta"}  # the upstream's own _meta never reaches the client
    found = tuple(high_findings(findings))
    if not found:
        return GuardedResult(out, ())
    meta = _meta(found)
    if action is OnResultFinding.BLOCK:
        return GuardedResult(_withheld(found, meta, tool, "it speaks to the model"), found)
    if action is OnResultFinding.REDACT:
        changed = _redact(out, found, tool)
        if changed is None:
            return GuardedResult(_withheld(found, meta, tool, "a flagged place in it could not be replaced"), found)
        out = changed
    out["_meta"] = meta
    return GuardedResult(out, found)


def redacted(value: Any, findings: Sequence[ScanFinding]) -> Any | None:
    """`value` with every high finding's place (`ScanFinding.location`, from the value's top) redacted; the
    value itself when there is none; None when a flagged place cannot be replaced."""
    found = high_findings(findings)
    if not found:
        return value
    box = {"v": value}
    changed = _redact(box, [_under("v", f) for f in found])
    return None if changed is None else changed["v"]


def _under(step: str, finding: ScanFinding) -> ScanFinding:
    return dataclasses.replace(finding, location=(step, *(finding.location or ())))


def _meta(found: Sequence[ScanFinding]) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    flagged = [f.to_json() for f in found if f.code != UNSCANNED]
    unread = [{"path": f.path, "start": f.start, "end": f.end, "why": f.message} for f in found if f.code == UNSCANNED]
    if flagged:
        meta[FINDINGS_META] = flagged
    if unread:
        meta[UNSCANNED_META] = unread
    return meta


def _withheld(found: Sequence[ScanFinding], meta: dict[str, Any], tool: str | None, why: str) -> dict[str, Any]:
    unread = " (text it could not scan counts as flagged)" if any(f.code == UNSCANNED for f in found) else ""
    rules = ", ".join(sorted({f"{f.code} {f.rule.id}" for f in found}))
    blocked = tool_error(f"hintgate withheld this result of {tool or 'the tool'}: {why} ({rules}){unread}.")
    blocked["_meta"] = meta
    return blocked


def _redact(value: Mapping[str, Any], found: Sequence[ScanFinding], tool: str | None = None) -> dict[str, Any] | None:
    """A copy of `value` (containers copied along the changed places only, each once) with every finding's place
    redacted; None when one cannot be."""
    by_place: dict[Location, list[ScanFinding]] = {}
    for finding in found:
        if finding.location is None:
            return None  # a finding without a place cannot be redacted: withhold rather than pass it
        by_place.setdefault(finding.location, []).append(finding)
    root = dict(value)
    copies: dict[Location, Any] = {(): root}

    def container(prefix: Location) -> Any:
        held = copies.get(prefix)
        if held is None:
            parent, step = container(prefix[:-1]), prefix[-1]
            original = _at(parent, step)
            if isinstance(original, Mapping):
                held = dict(original)
            elif isinstance(original, list):
                held = list(original)
            else:
                raise _Unchangeable
            parent[step] = held
            copies[prefix] = held
        return held

    renames: dict[Location, dict[str, str]] = {}
    try:
        for location, findings in by_place.items():
            if not location:
                raise _Unchangeable
            *above, step = location
            parent = container(tuple(above))
            if isinstance(step, Key):
                if not isinstance(parent, dict) or step.name not in parent:
                    raise _Unchangeable
                renames.setdefault(tuple(above), {})[step.name] = _redacted_text(step.name, findings, tool)
            else:
                parent[step] = _replaced(_at(parent, step), findings, tool)
        # Keys last, deepest first: a value under a key is reached by the key it had when the scan read it.
        for prefix in sorted(renames, key=len, reverse=True):
            node, new = copies[prefix], renames[prefix]
            items = list(node.items())
            kept = {key for key, _ in items if key not in new}
            node.clear()
            for key, item in items:
                name = new.get(key, key)
                while key in new and (name in node or name in kept):  # two markers alike, or a key so named
                    name += "'"
                node[name] = item
    except _Unchangeable:
        return None
    return root


def _at(node: Any, step: str | int | Key) -> Any:
    if isinstance(step, int) and isinstance(node, list) and 0 <= step < len(node):
        return node[step]
    if isinstance(step, str) and isinstance(node, Mapping) and step in node:
        return node[step]
    raise _Unchangeable


class _Unchangeable(Exception):
    """A place the findings name is not what they say (no such key or index, not a string)."""


def _replaced(value: Any, findings: list[ScanFinding], tool: str | None) -> Any:
    if not isinstance(value, str):
        if all(f.code == UNSCANNED and f.start == f.end == 0 for f in findings):  # content nested too deep
            return f"[hintgate removed content it could not scan ({_why(findings[0])})]"
        raise _Unchangeable
    return _redacted_text(value, findings, tool)


def _why(finding: ScanFinding) -> str:
    """Why a place was not scanned, without its path (a key in a path is the upstream's text)."""
    return finding.message.rpartition("was not scanned: ")[2]


# A finding's span longer than a sentence of normal length may be a document the sentence judge read as one
# sentence (a JSON document on one line, a CSV block): each of its parts is read alone, and only the parts that
# speak to the model are removed. Up to this many characters of a text: the reading runs where the redaction does,
# on a thread for a result a worker scanned (`scan.workers`), never on the event loop (a few ms for 4,000
# characters); a result short enough to be scanned on the loop is redacted there.
_REREAD = 4_000


def _redacted_text(text: str, findings: list[ScanFinding], tool: str | None = None) -> str:
    """`text` with the passage holding each finding (`scan.passages`) replaced by a marker; the text between them
    kept."""
    passages = Passages(text)
    spans: list[tuple[int, int, ScanFinding]] = []
    reread = 0
    inside = [(f.start, f.end) for f in findings if f.code != "HG604"]
    for finding in findings:
        start, end = max(0, min(finding.start, len(text))), max(0, min(finding.end, len(text)))
        if finding.code == "HG604" and any(start <= s and e <= end for s, e in inside):
            continue  # a summary of disguised orders, each found on its own: the text between them is not theirs
        if finding.code == UNSCANNED:
            spans.append((start, end, finding))
            continue
        found: list[tuple[int, int]] = []
        if end - start > NORMAL and reread + end - start <= _REREAD:
            reread += end - start
            for clauses in (False, True):  # sentences, values and elements first; clauses only when none is found
                parts = passages.parts(start, end, clauses=clauses)
                found = _parts_found(text, parts, tool) if len(parts) > 1 else []
                if found:
                    break
        spans.extend((*passages.holding(s, e), finding) for s, e in found or [(start, end)])
    spans.sort(key=lambda span: (span[0], span[1]))
    merged: list[tuple[int, int, list[ScanFinding]]] = []
    for start, end, finding in spans:
        if merged and start <= merged[-1][1]:  # overlapping or touching: one passage
            first, last, held = merged[-1]
            merged[-1] = (first, max(last, end), [*held, finding])
        else:
            merged.append((start, end, [finding]))
    out: list[str] = []
    at = 0
    for start, end, held in merged:
        out.append(text[at:start])
        out.append(_marker(text[start:end], held))
        at = end
    out.append(text[at:])
    return "".join(out)


def _parts_found(text: str, parts: list[tuple[int, int]], tool: str | None) -> list[tuple[int, int]]:
    """The spans (in `text`) of the high findings the scan makes in each of `parts` read alone."""
    from hintgate.scan.poisoning import scan_strings

    found = scan_strings([((i,), text[s:e]) for i, (s, e) in enumerate(parts)], tool=tool, warnings=False)
    spans = []
    for f in high_findings(found):
        if f.code == UNSCANNED or not f.location or not isinstance(f.location[0], int):
            continue
        at = parts[f.location[0]][0]
        spans.append((at + f.start, at + f.end))
    return spans


def _marker(removed: str, findings: list[ScanFinding]) -> str:
    """What replaces a passage: how much was removed and why (rules by code and id; never the passage's words)."""
    size = f"{len(removed)} character{'s' if len(removed) != 1 else ''}"
    said = sorted({f"{f.code} {f.rule.id}" for f in findings if f.code != UNSCANNED})
    unread = [f for f in findings if f.code == UNSCANNED]
    parts = []
    if said:
        parts.append(f"hintgate removed text addressed to the model ({size}; {', '.join(said)})")
    if unread:
        parts.append(f"hintgate removed text it could not scan ({size}; {_why(unread[0])})")
    return "[" + "; ".join(parts) + "]"
