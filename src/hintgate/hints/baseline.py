"""A lint baseline: findings a project accepts on purpose, each with the reason it is correct.

Lint weighs a server's declared hints against what its names, descriptions and
schemas suggest, and evidence is sometimes wrong about a tool whose author got
its hints right. A baseline file, checked in beside the server, lets such a
server pass `hintgate lint` in CI without turning a check off:

```yaml
accepted:
  - tool: export_all_notes
    code: HG301
    reason: the export hands the notes to the caller and writes nothing
```

An entry accepts every finding of its code about its tool; accepted findings
are still shown, apart, and never fail the run. An entry that matches no
finding is stale and reported (HG505), so a baseline shrinks as the server or
hintgate improves instead of silently accepting a finding that comes back
later for another reason. Expect-file findings (HG501-HG504) cannot be
accepted: the expect file itself is where a tool's tier is stated. Every
entry needs a reason: a baseline written by `--write-baseline` leaves them
empty, and lint refuses it until each is given.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hintgate.errors import BaselineFileError
from hintgate.hints.lint import EXPECT_CODES, RULES, STALE_BASELINE, Accepted, Finding, LintReport, Severity
from hintgate.hints.yaml_file import read_errors

__all__ = ["BaselineEntry", "apply_baseline", "baseline_entries", "baseline_text", "load_baseline"]

_KEYS = ("tool", "code", "reason")
_HEADER = (
    "# hintgate lint baseline: findings accepted on purpose, each with the reason it is correct.\n"
    "# An entry accepts every finding of its code about its tool; one that matches nothing is reported stale.\n"
)


@dataclass(frozen=True, slots=True)
class BaselineEntry:
    """One accepted finding: which tool, which code, and why the finding does not apply."""

    tool: str
    code: str
    reason: str


def load_baseline(path: str | Path) -> list[BaselineEntry]:
    """Read a baseline file (YAML): ``accepted:`` and a list of ``{tool, code, reason}``.

    Raises:
        BaselineFileError: the file is missing or not YAML, an entry is not of
            that shape, names an unknown code or one that cannot be accepted,
            is listed twice, or gives no reason; the message names the file,
            the line and the entry.
    """
    import yaml

    path = Path(path)
    with read_errors(path, "the baseline file", BaselineFileError):
        text = path.read_text(encoding="utf-8")
        data = yaml.safe_load(text)
        node = yaml.compose(text)
    if not isinstance(data, dict) or set(data) != {"accepted"}:
        raise BaselineFileError(f"{path}: expected a mapping with one key, 'accepted', holding a list of entries")
    items = data["accepted"] or []
    if not isinstance(items, list):
        raise BaselineFileError(f"{path}: accepted: expected a list of entries, got {type(items).__name__}")
    lines = _item_lines(node)
    entries: list[BaselineEntry] = []
    seen: dict[tuple[str, str], str] = {}
    for index, item in enumerate(items):
        line = lines[index] if index < len(lines) else None
        where = f"{path}:{line}: accepted[{index}]" if line else f"{path}: accepted[{index}]"
        entry = _entry(item, where)
        key = (entry.tool, entry.code)
        if key in seen:
            raise BaselineFileError(f"{where}: {entry.tool} {entry.code} is already listed at {seen[key]}")
        seen[key] = f"accepted[{index}]"
        entries.append(entry)
    return entries


def _item_lines(node: Any) -> list[int]:
    """The line of each entry of ``accepted``, for error messages."""
    import yaml

    if not isinstance(node, yaml.MappingNode):
        return []
    for key, value in node.value:
        if getattr(key, "value", None) == "accepted" and isinstance(value, yaml.SequenceNode):
            return [item.start_mark.line + 1 for item in value.value]
    return []


def _entry(item: Any, where: str) -> BaselineEntry:
    if not isinstance(item, dict):
        raise BaselineFileError(f"{where}: expected a mapping with tool, code and reason, got {type(item).__name__}")
    unknown = sorted(str(k) for k in item if k not in _KEYS)
    if unknown:
        raise BaselineFileError(f"{where}: unknown key {unknown[0]!r} (keys: tool, code, reason)")
    tool, code, reason = (item.get(k) for k in _KEYS)
    if not isinstance(tool, str) or not tool:
        raise BaselineFileError(f"{where}: tool: expected the tool's name")
    if not isinstance(code, str) or code not in RULES:
        raise BaselineFileError(f"{where}: code: {code!r} is not a lint code (see docs/lint.md)")
    if code in EXPECT_CODES or code == STALE_BASELINE:
        raise BaselineFileError(
            f"{where}: {code} cannot be accepted: change the expect file, or remove the stale entry, instead"
        )
    if not isinstance(reason, str) or not reason.strip():
        raise BaselineFileError(f"{where}: {tool} {code}: give the reason this finding is correct to accept")
    return BaselineEntry(tool, code, reason.strip())


def apply_baseline(report: LintReport, entries: Sequence[BaselineEntry]) -> None:
    """Move the findings the baseline accepts to `report.accepted`; report its stale entries (HG505)."""
    by_key = {(e.tool, e.code): e for e in entries}
    used: set[tuple[str, str]] = set()
    kept: list[Finding] = []
    for finding in report.findings:
        entry = by_key.get((finding.tool, finding.code)) if finding.tool is not None else None
        if entry is None:
            kept.append(finding)
            continue
        used.add((entry.tool, entry.code))
        report.accepted.append(Accepted(finding, entry.reason))
    present = {t.name for t in report.tools}
    for entry in entries:
        if (entry.tool, entry.code) in used:
            continue
        gone = "the server has no such tool" if entry.tool not in present else "lint no longer finds it"
        kept.append(
            Finding(
                STALE_BASELINE,
                f"the baseline accepts {entry.code} {RULES[entry.code].id} here, but {gone}: remove the entry",
                entry.tool,
            )
        )
    report.findings[:] = kept


def baseline_entries(
    report: LintReport, *, threshold: Severity, keep: Iterable[BaselineEntry] = ()
) -> list[tuple[Finding, str]]:
    """The entries a baseline written now holds, as (finding, reason), in the order lint reports them.

    Every finding about a tool at or above `threshold` (expect-file and stale
    findings aside), and every finding a kept entry still accepts, with the
    reason of the entry it came from; a new entry's reason is empty.
    """
    reasons = {(e.tool, e.code): e.reason for e in keep}
    chosen: dict[tuple[str, str], tuple[Finding, str]] = {}
    for accepted in report.accepted:
        finding = accepted.finding
        chosen[(finding.tool or "", finding.code)] = (finding, accepted.reason)
    for finding in report.findings:
        key = (finding.tool or "", finding.code)
        if finding.tool is None or key in chosen or finding.code in EXPECT_CODES or finding.code == STALE_BASELINE:
            continue
        if finding.level.rank >= threshold.rank:
            chosen[key] = (finding, reasons.get(key, ""))
    return sorted(chosen.values(), key=lambda pair: (pair[0].tool or "", pair[0].code))


def baseline_text(entries: Sequence[tuple[Finding, str]]) -> str:
    """A baseline file holding `entries`; each finding's message is a comment above its entry."""
    lines = [_HEADER.rstrip("\n")]
    if not entries:
        return "\n".join([*lines, "accepted: []"]) + "\n"
    if any(not reason for _, reason in entries):
        lines.append("# Give every empty reason before using this file with --baseline: lint refuses it until then.")
    lines.append("accepted:")
    for finding, reason in entries:
        message = " ".join(finding.message.split())
        lines += [
            f"  - tool: {_quoted(finding.tool or '')}",
            f"    code: {finding.code}",
            f"    # {finding.rule.id}: {message}",
            f"    reason: {_quoted(reason)}",
        ]
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    # A JSON string is a YAML double-quoted scalar: any tool name or reason reads back as written.
    return json.dumps(text, ensure_ascii=False)
