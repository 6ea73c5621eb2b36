"""Quarantine: a tool held until an operator accepts it, because it changed or because the scan flags it.

Pure. `quarantine_catalog` holds two kinds of tools: those whose pin is
quarantined (`hintgate.hints.pins`: a definition that changed since it was
accepted, a new tool of a server pinned by hand, a name close to another
server's tool, a definition the scan flags), given as `changed`; and those
whose definition the poisoning scan flags high (with the other servers'
tools as the shadowing catalog), unless an operator reviewed that very
definition (`accepted`: public name → the SHA-256 of the canonical form
accepted). `scan_catalog` runs the scan alone, so the pins can be told what
it flags before they accept anything.

A held tool never reaches a client with the definition that is held: with
`ask` it is listed with its last accepted definition (`serve` builds that
entry; every call asks, with a short reason) and `_meta["hintgate/held"]`
says why, or left out when it has none; with `hide` it is left out. The
diff and the findings are for the operator (`Quarantine.reason`: API,
dashboard, CLI, log), never for a client. The fingerprint of a hold is the
SHA-256 of the tool's canonical form (`hintgate.hints.pins.pin_hash`).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from hintgate.hints.catalog import META_PREFIX, Catalog, CatalogEntry
from hintgate.hints.others import OtherTools, tool_owners
from hintgate.hints.pins import SCAN_HOLD, canonical_json, pin_hash
from hintgate.scan.findings import ScanFinding, high_findings
from hintgate.scan.verdicts import definition_key

__all__ = ["HELD_META", "OnFinding", "Quarantine", "ScanMemo", "StoredScans", "quarantine_catalog", "scan_catalog"]

HELD_META = META_PREFIX + "held"
"""The `_meta` key of a held tool served with its accepted definition: why it is held, in a few words."""
_REASON_DIFF_LINES = 24


class OnFinding(enum.StrEnum):
    """What the gateway does with a quarantined tool (config `onChange`)."""

    ASK = "ask"
    HIDE = "hide"


@dataclass(frozen=True, slots=True)
class Quarantine:
    """Why a tool is held: its change since it was accepted (with the diff), its high findings, or both.

    `hidden`: not listed at all (`hide`, or no accepted definition to serve in its place).
    """

    name: str
    server: str
    findings: tuple[ScanFinding, ...]
    fingerprint: str
    hidden: bool = False
    change: str | None = None
    diff_of: Callable[[], str] | None = field(default=None, compare=False, repr=False)
    """Makes the diff of its change when someone reads it (an operator's view): a thousand held tools of one
    server do not make a thousand diffs at each rebuild."""

    @property
    def diff(self) -> str:
        """The unified diff of the accepted definition and the held one (empty when held for findings only)."""
        return self.diff_of() if self.diff_of is not None else ""

    @property
    def reason(self) -> str:
        """For the operator (API, dashboard, log): the change with (the start of) its diff, each finding and span."""
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

    @property
    def held(self) -> str:
        """For clients (`_meta["hintgate/held"]`): what kind of hold, with no text of the held definition."""
        parts = [self.change] if self.change is not None else []
        if self.findings:
            parts.append(f"{SCAN_HOLD} ({', '.join(sorted({f.code for f in self.findings}))})")
        return "; ".join(parts) or "held"

    @property
    def notice(self) -> str:
        """For the person asked and the model told of a denial: the hold in short, no diff, no finding text."""
        return (
            f"Tool {self.name!r} is quarantined until an operator accepts it ({self.held}); "
            "the change and the findings are on the gateway's dashboard and API."
        )


class StoredScans(Protocol):
    """Scans of definitions kept beyond the process, by definition key (`hintgate.scan.verdicts.definition_key`)."""

    def get(self, key: str | None) -> tuple[list[ScanFinding], frozenset[str]] | None:
        """The kept `scan_tool(raw)` and `named_words(raw)` of the definition of `key`; None: scan it."""

    def put(self, key: str | None, findings: Iterable[ScanFinding], words: Iterable[str]) -> None:
        """Keep a scan just made of the definition of `key`."""


class ScanMemo:
    """Scans of tool definitions kept from one catalog to the next, by the definition object itself.

    A definition (the JSON object a source listed) is scanned once without
    the other servers' names, and the words of its prose that could name a
    tool are kept; a later catalog scans it again, with the others, only when
    one of those words is now another server's tool. `scans` counts the
    definitions scanned, here or elsewhere (`prime`), for tests and benches.

    Args:
        stored: scans kept beyond the process (a relaunched gateway's store): a definition whose scan it holds is
            not scanned again, and each new scan is given to it.
    """

    def __init__(self, stored: StoredScans | None = None) -> None:
        self._kept: dict[int, tuple[Mapping[str, Any], list[ScanFinding], frozenset[str]]] = {}
        self._next: dict[int, tuple[Mapping[str, Any], list[ScanFinding], frozenset[str]]] = {}
        self.scans = 0
        self.stored = stored

    def findings(
        self, raw: Mapping[str, Any], others: Mapping[str, str], siblings: Collection[str] = ()
    ) -> list[ScanFinding]:
        """What `scan_tool(raw, others=others, siblings=siblings)` finds.

        The kept scan is made without either; `siblings` (the other tools of the definition's own listing) only
        clear what it found, so the definition is scanned again with them only when the kept scan is flagged and
        names one of them."""
        kept = self._kept.get(id(raw)) or self._next.get(id(raw))
        if kept is None or kept[0] is not raw:  # the object is held, so an equal id is the same object
            key = definition_key(raw) if self.stored is not None else None
            found = self.stored.get(key) if self.stored is not None else None
            if found is None:
                from hintgate.scan.poisoning import named_words, scan_tool  # loaded where a definition is scanned

                self.prime(raw, scan_tool(raw), named_words(raw), key=key)
            else:
                self.prime(raw, *found, scanned=False)
            kept = self._next[id(raw)]
        self._next[id(raw)] = kept
        named = any(word in others for word in kept[2])
        own = bool(siblings) and any(word in siblings for word in kept[2]) and bool(high_findings(kept[1]))
        if named or own:
            from hintgate.scan.poisoning import scan_tool

            return scan_tool(raw, others=others, siblings=siblings if own else ())
        return kept[1]

    def done(self) -> None:
        """End a catalog: definitions it did not scan are forgotten."""
        self._kept, self._next = self._next, {}

    def wants(self, raw: Mapping[str, Any]) -> bool:
        """Whether `raw` (the object) has not been scanned yet: the next catalog would scan it."""
        kept = self._kept.get(id(raw)) or self._next.get(id(raw))
        return kept is None or kept[0] is not raw

    def prime(
        self,
        raw: Mapping[str, Any],
        findings: list[ScanFinding],
        words: frozenset[str],
        *,
        key: str | None = None,
        scanned: bool = True,
    ) -> None:
        """Keep a scan of `raw` made elsewhere (`scan_tool(raw)` and `named_words(raw)`, off the event loop), so
        that the next catalog takes it instead of scanning `raw` again.

        `scanned`: it was scanned now (counted, and given to `stored` under `key`), not taken from `stored`.
        """
        if scanned:
            self.scans += 1
            if self.stored is not None:
                self.stored.put(key, findings, words)
        self._next[id(raw)] = (raw, findings, words)


def scan_catalog(
    catalog: Catalog,
    *,
    reviewed: Mapping[str, str] | None = None,
    memo: ScanMemo | None = None,
    fingerprints: Mapping[str, str] | None = None,
) -> dict[str, tuple[ScanFinding, ...]]:
    """The high findings of every tool of `catalog` (public name → findings; tools with none left out).

    Args:
        catalog: the catalog as built from the sources.
        reviewed: public name → the fingerprint of the definition an operator reviewed (its findings
            too): that definition is not scanned; any other is.
        memo: scans kept from the previous catalog (see `ScanMemo`); without one every definition is scanned.
        fingerprints: public name → the SHA-256 of its canonical form, when already known.
    """
    reviewed = reviewed or {}
    fingerprints = fingerprints or {}
    by_server: dict[str, dict[str, None]] = {}
    for entry in catalog.entries.values():
        by_server.setdefault(entry.server, {})[entry.upstream_name] = None
    owners = tool_owners(by_server)
    found: dict[str, tuple[ScanFinding, ...]] = {}
    for name, entry in catalog.entries.items():
        if name in reviewed and reviewed[name] == (fingerprints.get(name) or pin_hash(canonical_json(entry.tool.raw))):
            continue
        others = OtherTools(owners, by_server[entry.server])
        # The other tools of its upstream's listing: a call to one of them is the server's own workflow.
        siblings = by_server[entry.server]
        if memo is not None:
            scanned = memo.findings(entry.tool.raw, others, siblings)
        else:
            from hintgate.scan.poisoning import scan_tool  # its modules load where a definition is first scanned

            scanned = scan_tool(entry.tool.raw, others=others, siblings=siblings)
        if high := high_findings(scanned):
            found[name] = tuple(high)
    if memo is not None:
        memo.done()
    return found


def quarantine_catalog(
    catalog: Catalog,
    *,
    accepted: Mapping[str, str] | None = None,
    changed: Mapping[str, tuple[str, str | Callable[[], str]]] | None = None,
    on_finding: OnFinding = OnFinding.ASK,
    memo: ScanMemo | None = None,
    fingerprints: Mapping[str, str] | None = None,
    findings: Mapping[str, tuple[ScanFinding, ...]] | None = None,
    serve: Callable[[CatalogEntry], Mapping[str, Any] | None] | None = None,
) -> tuple[Catalog, dict[str, Quarantine]]:
    """Hold the tools whose pin is quarantined, and those with a high scan finding not reviewed.

    Args:
        catalog: the catalog as built from the sources.
        accepted: public name → the fingerprint of the definition an operator reviewed (its findings too).
        changed: public name → (why its pin is quarantined, the diff or what makes it) for tools held by their pin.
        on_finding: whether held tools stay listed (with their accepted definition) and ask, or are hidden.
        memo: scans kept from the previous catalog (see `ScanMemo`); without
            one every definition is scanned.
        fingerprints: public name → the SHA-256 of its canonical form, when already known.
        findings: the scan's high findings by public name, when `scan_catalog` ran already
            (then `accepted` and `memo` are not used).
        serve: the `tools/list` entry of a held tool's last accepted definition, or None when it has none
            (then it is left out); without it every held tool is left out.

    Returns:
        The catalog to serve (held entries carry a short `quarantine` reason
        and the accepted definition, or are left out) and every held tool by public name.
    """
    changed = changed or {}
    fingerprints = fingerprints or {}
    if findings is None:
        findings = scan_catalog(catalog, reviewed=accepted, memo=memo, fingerprints=fingerprints)
    held: dict[str, Quarantine] = {}
    entries: dict[str, CatalogEntry] = {}
    hide = on_finding is OnFinding.HIDE
    for name, entry in catalog.entries.items():
        found = findings.get(name, ())
        change = changed.get(name)
        if not found and change is None:
            entries[name] = entry
            continue
        fingerprint = fingerprints.get(name) or pin_hash(canonical_json(entry.tool.raw))
        why = change[0] if change is not None else None
        if why is not None:  # the scan's part of a pin's reason is told by the findings
            why = None if why.startswith(SCAN_HOLD) else why.split(f"; {SCAN_HOLD}")[0]
        diff = change[1] if change is not None else None
        quarantine = Quarantine(
            name, entry.server, found, fingerprint, change=why, diff_of=diff if callable(diff) else _constant(diff)
        )
        wire = None if hide or serve is None else serve(entry)
        quarantine = dataclasses.replace(quarantine, hidden=wire is None)
        held[name] = quarantine
        if wire is not None:
            meta = dict(wire.get("_meta") or {})
            meta[HELD_META] = quarantine.held
            entries[name] = dataclasses.replace(entry, wire={**wire, "_meta": meta}, quarantine=quarantine.notice)
    if not held:
        return catalog, held
    wire_list = tuple(e.wire for e in entries.values())
    return Catalog(entries, catalog.problems, wire_list), held


def _constant(text: str | None) -> Callable[[], str] | None:
    return None if not text else lambda: text
