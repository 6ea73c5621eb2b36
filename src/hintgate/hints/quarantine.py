"""Quarantine: a tool held until an operator accepts it, because it changed or because the scan flags it.

Pure. `quarantine_catalog` holds two kinds of tools: those whose pin is
quarantined (`hintgate.hints.pins`: a definition that changed since it was
accepted, a new tool of a server pinned by hand, a name close to another
server's tool), given as `changed`; and those whose definition the poisoning
scan flags high (with the other servers' tools as the shadowing catalog),
unless an operator reviewed that very definition (`accepted`: public name →
the SHA-256 of the canonical form accepted). With `ask` a held tool stays
listed and every call asks, with the reason; with `hide` it is left out of
the listing (and so cannot be called). The fingerprint of a hold is the
SHA-256 of the tool's canonical form (`hintgate.hints.pins.pin_hash`).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hintgate.hints.catalog import Catalog, CatalogEntry
from hintgate.hints.others import OtherTools, tool_owners
from hintgate.hints.pins import canonical_json, pin_hash
from hintgate.hints.scan import ScanFinding, high_findings, named_words, scan_tool

__all__ = ["OnFinding", "Quarantine", "ScanMemo", "quarantine_catalog"]

_REASON_DIFF_LINES = 24


class OnFinding(enum.StrEnum):
    """What the gateway does with a quarantined tool (config `onChange`)."""

    ASK = "ask"
    HIDE = "hide"


@dataclass(frozen=True, slots=True)
class Quarantine:
    """Why a tool is held: its change since it was accepted (with the diff), its high findings, or both."""

    name: str
    server: str
    findings: tuple[ScanFinding, ...]
    fingerprint: str
    hidden: bool = False
    change: str | None = None
    diff: str = ""

    @property
    def reason(self) -> str:
        """For the approval prompt and the API: the change with (the start of) its diff, each finding with its span."""
        parts = []
        if self.change is not None:
            parts.append(self.change)
        if self.findings:
            parts.append("; ".join(f"{f.code} {f.message} (at {f.path}:{f.start}-{f.end})" for f in self.findings))
        text = f"Tool {self.name!r} is quarantined until an operator accepts it: {'; '.join(parts)}"
        if self.diff:
            lines = self.diff.splitlines()
            shown = lines[:_REASON_DIFF_LINES]
            if len(lines) > len(shown):
                shown.append(f"... {len(lines) - len(shown)} more lines")
            text += "\n" + "\n".join(shown)
        return text


class ScanMemo:
    """Scans of tool definitions kept from one catalog to the next, by the definition object itself.

    A definition (the JSON object a source listed) is scanned once without
    the other servers' names, and the words of its prose that could name a
    tool are kept; a later catalog scans it again, with the others, only when
    one of those words is now another server's tool. `scans` counts the
    definitions scanned, for tests and benches.
    """

    def __init__(self) -> None:
        self._kept: dict[int, tuple[Mapping[str, Any], list[ScanFinding], frozenset[str]]] = {}
        self._next: dict[int, tuple[Mapping[str, Any], list[ScanFinding], frozenset[str]]] = {}
        self.scans = 0

    def findings(self, raw: Mapping[str, Any], others: Mapping[str, str]) -> list[ScanFinding]:
        """What `scan_tool(raw, others=others)` finds."""
        kept = self._kept.get(id(raw)) or self._next.get(id(raw))
        if kept is None or kept[0] is not raw:  # the object is held, so an equal id is the same object
            self.scans += 1
            kept = (raw, scan_tool(raw), named_words(raw))
        self._next[id(raw)] = kept
        if any(word in others for word in kept[2]):
            return scan_tool(raw, others=others)
        return kept[1]

    def done(self) -> None:
        """End a catalog: definitions it did not scan are forgotten."""
        self._kept, self._next = self._next, {}


def quarantine_catalog(
    catalog: Catalog,
    *,
    accepted: Mapping[str, str] | None = None,
    changed: Mapping[str, tuple[str, str]] | None = None,
    on_finding: OnFinding = OnFinding.ASK,
    memo: ScanMemo | None = None,
    fingerprints: Mapping[str, str] | None = None,
) -> tuple[Catalog, dict[str, Quarantine]]:
    """Hold the tools whose pin is quarantined, and those with a high scan finding not reviewed.

    Args:
        catalog: the catalog as built from the sources.
        accepted: public name → the fingerprint of the definition an operator reviewed (its findings too).
        changed: public name → (why its pin is quarantined, the diff) for tools held by their pin.
        on_finding: whether held tools stay listed and ask, or are hidden.
        memo: scans kept from the previous catalog (see `ScanMemo`); without
            one every definition is scanned.
        fingerprints: public name → the SHA-256 of its canonical form, when already known.

    Returns:
        The catalog to serve (held entries carry `quarantine`, or are left out
        with `hide`) and every held tool by public name.
    """
    accepted = accepted or {}
    changed = changed or {}
    fingerprints = fingerprints or {}
    by_server: dict[str, dict[str, None]] = {}
    for entry in catalog.entries.values():
        by_server.setdefault(entry.server, {})[entry.upstream_name] = None
    owners = tool_owners(by_server)
    held: dict[str, Quarantine] = {}
    entries: dict[str, CatalogEntry] = {}
    hide = on_finding is OnFinding.HIDE
    for name, entry in catalog.entries.items():
        fingerprint = fingerprints.get(name) or pin_hash(canonical_json(entry.tool.raw))
        findings: list[ScanFinding] = []
        if accepted.get(name) != fingerprint:
            others = OtherTools(owners, by_server[entry.server])
            scanned = (
                memo.findings(entry.tool.raw, others) if memo is not None else scan_tool(entry.tool.raw, others=others)
            )
            findings = high_findings(scanned)
        change = changed.get(name)
        if not findings and change is None:
            entries[name] = entry
            continue
        quarantine = Quarantine(
            name,
            entry.server,
            tuple(findings),
            fingerprint,
            hidden=hide,
            change=change[0] if change else None,
            diff=change[1] if change else "",
        )
        held[name] = quarantine
        if not hide:
            entries[name] = dataclasses.replace(entry, quarantine=quarantine.reason)
    if memo is not None:
        memo.done()
    if not held:
        return catalog, held
    wire = tuple(e.wire for e in entries.values())
    return Catalog(entries, catalog.problems, wire), held
