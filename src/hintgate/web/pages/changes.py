"""The Changes page: tools held until an operator accepts them, with the diff and the scan's spans highlighted.

Held tools wait for review; one an operator kept blocked is listed apart
("Blocked"), still held, until its definition changes again.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote

from hintgate.hints.pins import PinState
from hintgate.scan.poisoning import ScanFinding, tool_texts
from hintgate.server.pins import source_texts
from hintgate.web.pages.frame import Layout, Moment, layout

if TYPE_CHECKING:
    from hintgate.server.gateway import Gateway

__all__ = ["ChangeItem", "ChangesPage", "FindingView", "changes_page", "diff_lines", "pin_url"]

_EXCERPT = 80  # characters shown either side of a finding's span


@dataclass(frozen=True, slots=True)
class FindingView:
    """A scan finding with the text around its span: `before`, the span itself (`hit`), `after`."""

    code: str
    message: str
    path: str
    before: str
    hit: str
    after: str


@dataclass(frozen=True, slots=True)
class ChangeItem:
    """A held tool: why, the diff as (kind, line) pairs (`add`, `del`, `hunk`, `same`), and the findings."""

    name: str
    server: str
    hidden: bool
    change: str | None
    diff: list[tuple[str, str]]
    findings: list[FindingView]
    fingerprint: str
    last_seen: Moment | None
    tool: str = ""
    blocked_by: str | None = None
    blocked_at: Moment | None = None
    blocked_reason: str = ""

    @property
    def history_url(self) -> str:
        """The tool's pin history page."""
        return pin_url(self.server, self.tool)


@dataclass(frozen=True, slots=True)
class ChangesPage:
    """Held tools awaiting review, those kept blocked, the servers whose other texts the scan flags, and the
    pins per state."""

    layout: Layout
    items: list[ChangeItem]
    blocked: list[ChangeItem]
    servers: list[tuple[str, list[FindingView]]]
    counts: list[tuple[str, int]]


def pin_url(server: str, tool: str) -> str:
    """The dashboard page of the pin of `tool` (its name at `server`)."""
    return f"/pins/{quote(server, safe='')}/{quote(tool, safe='')}"


def diff_lines(diff: str) -> list[tuple[str, str]]:
    """A unified diff as (kind, line) pairs for the page: `add`, `del`, `hunk` or `same`; file headers dropped."""
    out: list[tuple[str, str]] = []
    for line in diff.splitlines():
        if line.startswith(("+++", "---")):
            continue
        kind = {"+": "add", "-": "del", "@": "hunk"}.get(line[:1], "same")
        out.append((kind, line))
    return out


def _views(findings: list[ScanFinding], texts: dict[str, str]) -> list[FindingView]:
    views = []
    for f in findings:
        text = texts.get(f.path, "")
        start = max(0, f.start - _EXCERPT)
        before = ("…" if start else "") + text[start : f.start]
        after = text[f.end : f.end + _EXCERPT] + ("…" if f.end + _EXCERPT < len(text) else "")
        views.append(FindingView(f.code, f.message, f.path, before, text[f.start : f.end], after))
    return views


def changes_page(gateway: Gateway) -> ChangesPage:
    """The Changes page."""
    pins = {(p.server, p.name): p for p in gateway.pins.all()}
    items: list[ChangeItem] = []
    blocked: list[ChangeItem] = []
    for held in gateway.quarantined.values():
        pin = pins.get((held.server, held.name))
        texts = dict(tool_texts(json.loads(pin.definition))) if pin is not None else {}
        block = pin.blocked if pin is not None else None
        (items if block is None else blocked).append(
            ChangeItem(
                name=held.name,
                server=held.server,
                hidden=held.hidden,
                change=held.change,
                diff=diff_lines(held.diff),
                findings=_views(list(held.findings), texts),
                fingerprint=held.fingerprint[:16],
                last_seen=Moment.parse(pin.last_seen_at) if pin is not None else None,
                tool=pin.tool if pin is not None else held.name,
                blocked_by=block.by if block is not None else None,
                blocked_at=Moment.parse(block.at) if block is not None else None,
                blocked_reason=block.reason if block is not None else "",
            )
        )
    servers = []
    for name, found in gateway.catalog_keeper.flagged_servers():
        source = gateway.server(name)
        texts = dict(source_texts(source)) if source is not None else {}
        servers.append((name, _views(found, texts)))
    counts = Counter(p.state for p in gateway.pins.all())
    return ChangesPage(
        layout(gateway, "Changes", "changes"), items, blocked, servers, [(s.value, counts[s]) for s in PinState]
    )
