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
from collections.abc import Mapping
from dataclasses import dataclass

from hintgate.hints.catalog import Catalog, CatalogEntry
from hintgate.hints.scan import ScanFinding, high_findings, scan_tool, tool_texts

__all__ = ["OnFinding", "Quarantine", "quarantine_catalog"]


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


def quarantine_catalog(
    catalog: Catalog,
    *,
    accepted: Mapping[str, str] | None = None,
    on_finding: OnFinding = OnFinding.ASK,
) -> tuple[Catalog, dict[str, Quarantine]]:
    """Scan a catalog and hold the tools with a high finding.

    Args:
        catalog: the catalog as built from the sources.
        accepted: public name → the fingerprint an operator accepted.
        on_finding: whether held tools stay listed and ask, or are hidden.

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
        own = by_server[entry.server]
        others = {n: s for n, s in everyone.items() if s != entry.server and n not in own}
        findings = high_findings(scan_tool(entry.tool.raw, others=others))
        fingerprint = _fingerprint(entry, findings) if findings else ""
        if not findings or accepted.get(name) == fingerprint:
            entries[name] = entry
            continue
        hide = on_finding is OnFinding.HIDE
        quarantine = Quarantine(name, entry.server, tuple(findings), fingerprint, hidden=hide)
        held[name] = quarantine
        if not hide:
            entries[name] = dataclasses.replace(entry, quarantine=quarantine.reason)
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
