"""The REST API's tool integrity endpoints: pins (/api/pins), quarantine (/api/quarantine), server scans.

A pin is a tool's accepted definition and the one last seen (see
`hintgate.hints.pins`); a quarantined tool is held until an operator accepts
it here, in the dashboard or with `hintgate pins accept`, or keeps it blocked
(`/api/pins/block`, `hintgate pins block`): still held, recorded, out of the
review list until its definition changes again. `/api/quarantine`
lists what the gateway holds right now (a changed definition, high scan
findings, or both); `/api/pins` every pin with its state and diff.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Query, Request
from pydantic import BaseModel, Field

from hintgate.hints.pins import Pin, PinBlock, PinState, find_pins
from hintgate.hints.quarantine import Quarantine
from hintgate.scan.poisoning import ScanFinding
from hintgate.web.api import CatalogKeeperDep, GatewayDep, PinsDep, actor_of, router
from hintgate.web.api_model import ApiModel

__all__ = ["pins_router", "quarantined_out"]

pins_router = APIRouter(prefix="/api", responses=router.responses)

PinStateName = Literal["accepted", "quarantined", "removed"]


class ScanFindingOut(ApiModel):
    """A poisoning-scan finding and its span: `path` into the tool, `start`:`end` in that text."""

    code: str
    rule: str
    level: str = "high"
    message: str
    path: str
    start: int
    end: int


class PinBlockOut(ApiModel):
    """An operator's decision to keep a held definition blocked."""

    by: str
    at: str
    reason: str


class QuarantinedTool(ApiModel):
    """A tool held until an operator accepts it (every call asks, or it is hidden)."""

    name: str
    server: str
    reason: str
    fingerprint: str = Field(description="SHA-256 of the definition held: a later change is held again.")
    hidden: bool
    change: str | None = Field(default=None, description="What changed since the tool was accepted, if it did.")
    diff: str = Field(default="", description="Unified diff of the accepted definition against the one held.")
    findings: list[ScanFindingOut]
    blocked: PinBlockOut | None = Field(default=None, description="Kept blocked by an operator: not awaiting review.")


class PinOut(ApiModel):
    """One tool's pin: the definition accepted and the one last seen, and where it stands."""

    server: str
    tool: str = Field(description="The tool's name at its server.")
    name: str = Field(description="The name the gateway lists it under.")
    state: PinStateName
    reason: str | None
    sha256: str = Field(description="SHA-256 of the canonical form last seen.")
    accepted_sha256: str | None = Field(description="SHA-256 of the accepted canonical form; null: never accepted.")
    reviewed: bool = Field(description="An operator accepted (or imported) this definition; first use is not review.")
    first_seen_at: str
    last_seen_at: str
    accepted_at: str | None
    accepted_by: str | None
    diff: str = Field(description="Unified diff of the accepted definition against the one last seen.")
    definition: str = Field(description="The canonical form last seen (JSON).")
    blocked: PinBlockOut | None = Field(
        default=None, description="An operator kept this held definition blocked; a new change ends it."
    )


class PinEventOut(ApiModel):
    """A line of a pin's history."""

    kind: str
    sha256: str
    at: str
    actor: str
    detail: str
    repeats: int = Field(default=1, description="How often this event happened; the same event again is counted here.")
    last_at: str | None = Field(default=None, description="When it last happened, when more than once.")


class AcceptIn(BaseModel):
    """Which pins to accept: one tool (by the name the gateway lists, or its own with `server`), a server's, or all."""

    tool: str | None = None
    server: str | None = None
    all: bool = False
    sha256: str | None = Field(
        default=None,
        min_length=16,
        max_length=64,
        pattern="^[0-9a-f]+$",
        description="With `tool`: the SHA-256 (or its first 16+ hex digits) of the definition reviewed; accepted "
        "only if it is still the one last seen (409 otherwise: it changed since it was shown).",
    )


class BlockIn(BaseModel):
    """Which held tool to keep blocked (by the name the gateway lists, or its own with `server`), and why."""

    tool: str
    server: str | None = None
    reason: str = Field(default="", max_length=2000)


class ServerScan(ApiModel):
    """High findings in what a server says besides its tools: `instructions`, prompts, resources."""

    server: str
    findings: list[ScanFindingOut]


def finding_out(f: ScanFinding) -> ScanFindingOut:
    """The API's view of a scan finding."""
    return ScanFindingOut(
        code=f.code, rule=f.rule.id, level=f.level.value, message=f.message, path=f.path, start=f.start, end=f.end
    )


def block_out(block: PinBlock | None) -> PinBlockOut | None:
    """The API's view of an operator's block."""
    if block is None:
        return None
    return PinBlockOut(by=block.by, at=block.at.isoformat(), reason=block.reason)


def quarantined_out(held: Quarantine, block: PinBlock | None = None) -> QuarantinedTool:
    """The API's view of a quarantined tool."""
    return QuarantinedTool(
        name=held.name,
        server=held.server,
        reason=held.reason,
        fingerprint=held.fingerprint,
        hidden=held.hidden,
        change=held.change,
        diff=held.diff,
        findings=[finding_out(f) for f in held.findings],
        blocked=block_out(block),
    )


def pin_out(pin: Pin) -> PinOut:
    """The API's view of a pin."""
    data = pin.to_json()
    data.pop("accepted_definition")
    data["blocked"] = block_out(pin.blocked)
    return PinOut(**data)


@pins_router.get("/quarantine", response_model=list[QuarantinedTool])
async def quarantine(keeper: CatalogKeeperDep, pins: PinsDep) -> list[QuarantinedTool]:
    """Tools held now: changed since accepted (with the diff), or flagged by the poisoning scan (with spans)."""
    by_name = {(p.server, p.name): p for p in pins.all()}
    return [
        quarantined_out(held, getattr(by_name.get((held.server, held.name)), "blocked", None))
        for held in keeper.quarantined.values()
    ]


@pins_router.post("/quarantine/{name}/accept", response_model=QuarantinedTool)
async def accept_quarantine(request: Request, keeper: CatalogKeeperDep, name: str) -> QuarantinedTool:
    """Accept a quarantined tool's definition as it is now: it is served as usual; clients are told."""
    try:
        held = await keeper.accept_held(name, actor=actor_of(request))
    except KeyError:
        raise HTTPException(404, f"no quarantined tool named {name!r}") from None
    return quarantined_out(held)


@pins_router.get("/pins", response_model=list[PinOut])
async def pins(
    pins: PinsDep,
    server: str | None = None,
    state: Annotated[PinStateName | None, Query(description="Only pins in this state.")] = None,
) -> list[PinOut]:
    """Every tool's pin, by server and tool, with its state and the diff of a change not yet accepted."""
    chosen = pins.all()
    return [
        pin_out(p) for p in chosen if (server is None or p.server == server) and (state is None or p.state == state)
    ]


@pins_router.post("/pins/accept", response_model=list[PinOut])
async def accept_pins(
    request: Request, gateway: GatewayDep, keeper: CatalogKeeperDep, pins: PinsDep, body: AcceptIn
) -> list[PinOut]:
    """Accept the definition last seen of one tool (`tool`), of a server's held tools (`server`), or all (`all`)."""
    if sum((body.tool is not None, body.server is not None and body.tool is None, body.all)) != 1:
        raise HTTPException(422, "give one of: tool, server, all")
    if body.tool is not None:
        found = find_pins(pins.all(), body.tool, body.server)
        if not found:
            raise HTTPException(404, f"no pinned tool named {body.tool!r}")
        keys = {p.key for p in found}
        seen = body.sha256
        if seen is not None and not all(p.sha256.startswith(seen) for p in found):
            raise HTTPException(409, f"tool {body.tool!r} changed since it was shown: review it again")
        # The review covers the definition reviewed: checked again where the acceptance is written.
        accepted = await keeper.accept_pins(
            lambda p: p.key in keys and (seen is None or p.sha256.startswith(seen)), actor=actor_of(request)
        )
    elif body.server is not None:
        server = body.server
        if server not in gateway.sources:
            raise HTTPException(404, f"no server named {server!r}")
        accepted = await keeper.accept_pins(lambda p: p.server == server, actor=actor_of(request), held_only=True)
    else:
        accepted = await keeper.accept_pins(lambda _: True, actor=actor_of(request), held_only=True)
    return [pin_out(p) for p in accepted]


@pins_router.post("/pins/block", response_model=list[PinOut])
async def block_pins(request: Request, keeper: CatalogKeeperDep, pins: PinsDep, body: BlockIn) -> list[PinOut]:
    """Keep a held tool blocked: it stays held, the decision (who, when, `reason`) goes into its history, and it
    leaves the review list until its definition changes again (404: no such pin; 409: the tool is not held)."""
    found = find_pins(pins.all(), body.tool, body.server)
    if not found:
        raise HTTPException(404, f"no pinned tool named {body.tool!r}")
    if not any(p.state is PinState.QUARANTINED for p in found):
        raise HTTPException(409, f"tool {body.tool!r} is not held ({found[0].state.value}): nothing to keep blocked")
    keys = {p.key for p in found}
    blocked = await keeper.block_pins(lambda p: p.key in keys, actor=actor_of(request), reason=body.reason.strip())
    return [pin_out(p) for p in blocked]


@pins_router.get("/pins/{server}/{tool}/history", response_model=list[PinEventOut])
async def pin_history(gateway: GatewayDep, pins: PinsDep, server: str, tool: str) -> list[PinEventOut]:
    """A pin's history, newest first: first sight, changes, acceptances, removals (503 without a store)."""
    if pins.get(server, tool) is None:
        raise HTTPException(404, f"no pin for tool {tool!r} of {server!r}")
    store = gateway.store  # the gateway's own, which keeps its pins
    if store is None:
        raise HTTPException(503, "recording is off (no store): pin history is not kept")
    return [PinEventOut(**e) for e in await store.pins.history(server, tool)]


@pins_router.get("/scan", response_model=list[ServerScan])
async def server_scans(keeper: CatalogKeeperDep) -> list[ServerScan]:
    """High scan findings in servers' `instructions`, prompt and resource descriptions (checked at connect)."""
    return [
        ServerScan(server=name, findings=[finding_out(f) for f in found]) for name, found in keeper.flagged_servers()
    ]
