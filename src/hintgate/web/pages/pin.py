"""A tool's pin page: where the pin stands, the diff of a held change, and its history, newest first."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hintgate.hints.pins import ChangeKind, Pin
from hintgate.web.pages.changes import diff_lines, pin_url
from hintgate.web.pages.frame import Layout, Moment, layout

if TYPE_CHECKING:
    from hintgate.server.gateway import Gateway
    from hintgate.store import Store

__all__ = ["PinEventRow", "PinPage", "pin_page", "pin_url"]

# What each kind of event means, as the page says it ("{actor}" is who did it).
_KIND_TEXT = {
    ChangeKind.FIRST_USE: "First seen, accepted on first use",
    ChangeKind.NEW: "First seen, held for review",
    ChangeKind.COSMETIC: "Changed, whitespace only: accepted",
    ChangeKind.RISKIER: "Changed, hints riskier: accepted",
    ChangeKind.CHANGED: "Held for review",  # a change, or a hold by the poisoning scan: the detail says which
    ChangeKind.REMOVED: "Removed: no longer listed",
    ChangeKind.RETURNED: "Listed again as accepted",
    ChangeKind.ACCEPTED: "Accepted by {actor}",
    ChangeKind.IMPORTED: "Accepted from a pins file by {actor}",
    ChangeKind.BLOCKED: "Kept blocked by {actor}",
}


@dataclass(frozen=True, slots=True)
class PinEventRow:
    """One line of a pin's history: its kind, what it means, when, by whom, the detail, the hash it was about."""

    kind: str
    text: str
    at: Moment | None
    actor: str
    detail: str
    sha256: str


@dataclass(frozen=True, slots=True)
class PinPage:
    """One pin: its state, the accepted and last seen hashes, the diff of a held change, and its events
    (None when recording is off: no history is kept)."""

    layout: Layout
    name: str
    server: str
    tool: str
    state: str
    reason: str | None
    sha256: str
    accepted_sha256: str | None
    accepted_by: str | None
    accepted_at: Moment | None
    first_seen: Moment | None
    last_seen: Moment | None
    blocked_by: str | None
    blocked_at: Moment | None
    blocked_reason: str
    diff: list[tuple[str, str]]
    events: list[PinEventRow] | None
    listed: bool


def _row(event: dict[str, Any]) -> PinEventRow:
    kind = str(event["kind"])
    try:
        text = _KIND_TEXT[ChangeKind(kind)].format(actor=event["actor"])
    except ValueError:  # a kind a later version wrote
        text = kind
    return PinEventRow(
        kind, text, Moment.parse(event["at"]), str(event["actor"]), str(event["detail"]), event["sha256"]
    )


async def pin_page(gateway: Gateway, store: Store | None, server: str, tool: str) -> PinPage | None:
    """The pin of `tool` at `server`; None when there is no such pin.

    Raises:
        HintgateError: the store could not be read.
    """
    pin: Pin | None = gateway.pins.get(server, tool)
    if pin is None:
        return None
    events = [_row(e) for e in await store.pins.history(server, tool)] if store is not None else None
    block = pin.blocked
    return PinPage(
        layout=layout(gateway, f"Pin of {pin.name}", "changes"),
        name=pin.name,
        server=pin.server,
        tool=pin.tool,
        state="blocked" if block is not None else pin.state.value,
        reason=pin.reason,
        sha256=pin.sha256,
        accepted_sha256=pin.accepted_sha256,
        accepted_by=pin.accepted_by,
        accepted_at=Moment.parse(pin.accepted_at),
        first_seen=Moment.parse(pin.first_seen_at),
        last_seen=Moment.parse(pin.last_seen_at),
        blocked_by=block.by if block is not None else None,
        blocked_at=Moment.parse(block.at) if block is not None else None,
        blocked_reason=block.reason if block is not None else "",
        diff=diff_lines(pin.diff),
        events=events,
        listed=gateway.tool(pin.name) is not None,
    )
