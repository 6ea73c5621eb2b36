"""Quarantine: a tool whose definition the poisoning scan flags high is held until an operator accepts it.

Pure. `quarantine_catalog` scans every tool of a catalog (with the other
servers' tools as the shadowing catalog) and marks the entries that have a
high finding: with `ask` they stay listed but every call asks, with the
findings as the reason; with `hide` they are left out of the listing (and so
cannot be called). An operator accepts a quarantined tool by its
fingerprint, a hash of the findings' codes and spans and of the texts they
point into, so a definition that changes after it was accepted is held again.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from hintgate.hints.catalog import Catalog, CatalogEntry
from hintgate.hints.scan import ScanFinding, high_findings, named_words, scan_tool, tool_texts

__all__ = ["OnFinding", "Quarantine", "ScanMemo", "quarantine_catalog"]


class OnFinding(enum.StrEnum):
    """What the gateway does with a quarantined tool (config `onChange`)."""

    ASK = "ask"
    HIDE = "hide"


@dataclass(frozen=True, slots=True)
class Quarantine:
    """Why a tool is held: its high findings, and the fingerprint an acceptance names."""

    name: str
    server: str
    findings: tuple[ScanFinding, ...]
    fingerprint: str
    hidden: bool = False

    @property
    def reason(self) -> str:
        """One line for the approval prompt and the API: each finding with its span."""
        shown = "; ".join(f"{f.code} {f.message} (at {f.path}:{f.start}-{f.end})" for f in self.findings)
        return f"Tool {self.name!r} is quarantined until an operator accepts it: {shown}"


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


class _Others(Mapping[str, str]):
    """Tool name → server for the tools of servers other than one, without copying the whole catalog's names."""

    def __init__(self, everyone: Mapping[str, str], own: Mapping[str, str]) -> None:
        self._everyone = everyone
        self._own = own

    def __getitem__(self, name: str) -> str:
        if name in self._own:
            raise KeyError(name)
        return self._everyone[name]

    def __iter__(self) -> Iterator[str]:
        return (name for name in self._everyone if name not in self._own)

    def __len__(self) -> int:
        return len(self._everyone) - len(self._own)  # every own name is in everyone


def quarantine_catalog(
    catalog: Catalog,
    *,
    accepted: Mapping[str, str] | None = None,
    on_finding: OnFinding = OnFinding.ASK,
    memo: ScanMemo | None = None,
) -> tuple[Catalog, dict[str, Quarantine]]:
    """Scan a catalog and hold the tools with a high finding.

    Args:
        catalog: the catalog as built from the sources.
        accepted: public name → the fingerprint an operator accepted.
        on_finding: whether held tools stay listed and ask, or are hidden.
        memo: scans kept from the previous catalog (see `ScanMemo`); without
            one every definition is scanned.

    Returns:
        The catalog to serve (held entries carry `quarantine`, or are left out
        with `hide`) and every held tool by public name.
    """
    accepted = accepted or {}
    by_server: dict[str, dict[str, str]] = {}
    for entry in catalog.entries.values():
        by_server.setdefault(entry.server, {})[entry.upstream_name] = entry.server
    everyone: dict[str, str] = {}
    for names in by_server.values():
        for upstream, server in names.items():
            everyone.setdefault(upstream, server)
    held: dict[str, Quarantine] = {}
    entries: dict[str, CatalogEntry] = {}
    for name, entry in catalog.entries.items():
        others = _Others(everyone, by_server[entry.server])
        scanned = (
            memo.findings(entry.tool.raw, others) if memo is not None else scan_tool(entry.tool.raw, others=others)
        )
        findings = high_findings(scanned)
        fingerprint = _fingerprint(entry, findings) if findings else ""
        if not findings or accepted.get(name) == fingerprint:
            entries[name] = entry
            continue
        hide = on_finding is OnFinding.HIDE
        quarantine = Quarantine(name, entry.server, tuple(findings), fingerprint, hidden=hide)
        held[name] = quarantine
        if not hide:
            entries[name] = dataclasses.replace(entry, quarantine=quarantine.reason)
    if memo is not None:
        memo.done()
    if not held:
        return catalog, held
    wire = tuple(e.wire for e in entries.values())
    return Catalog(entries, catalog.problems, wire), held


def _fingerprint(entry: CatalogEntry, findings: list[ScanFinding]) -> str:
    texts = dict(tool_texts(entry.tool.raw))
    digest = hashlib.sha256()
    for finding in findings:
        digest.update(f"{finding.code}\0{finding.path}\0{finding.start}\0{finding.end}\0".encode())
        digest.update(texts.get(finding.path, "").encode("utf-8", "surrogatepass"))
        digest.update(b"\1")
    return digest.hexdigest()[:16]
