"""The REST API at /api: servers, tools and their hints, overrides, sessions, calls, approvals, policy.

Every response has a declared model, so `/api/openapi.json` describes exactly
what comes back (schemathesis checks it). Bad requests get a 4xx whose body
says what was wrong; a request is validated whole before anything is written.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from hintgate import __version__
from hintgate.hints.annotations import Hint
from hintgate.hints.catalog import CatalogEntry, ToolFacts
from hintgate.hints.review import review_reasons
from hintgate.policy.approvals import ApprovalQueue
from hintgate.policy.decide import CallFacts, denied_by_rule
from hintgate.policy.roles import Permission
from hintgate.server.catalog_keeper import CatalogKeeper
from hintgate.server.gateway import Gateway
from hintgate.server.live import ServerSet
from hintgate.server.overrides import KEEP
from hintgate.server.pins import PinKeeper
from hintgate.server.policy_keeper import PolicyKeeper
from hintgate.web.api_model import ApiModel
from hintgate.web.override_models import Overrides, OverridesIn
from hintgate.web.permissions import Access, AccessDep, access_of
from hintgate.web.policy_models import Policy, PolicyIn, flat_policy, origins, policy_out
from hintgate.web.tool_filter import Origin, ToolFilter, TrustLevel

if TYPE_CHECKING:
    # Only for types: with recording off the store (and SQLAlchemy) is never imported.
    from hintgate.store import CallFilter, Store

__all__ = ["MAX_OFFSET", "Limit", "Offset", "actor_of", "channel_of", "reachable", "router"]


class Problem(BaseModel):
    """What was wrong with a request."""

    detail: str


class InvalidRequest(BaseModel):
    """What was wrong with a request's parameters or body: in words, and field by field."""

    detail: str
    errors: list[dict[str, Any]] | None = None


MAX_OFFSET = 2**62
"""The largest `offset` a listing takes: the database's integers are 64-bit, and no store holds more rows."""

Limit = Annotated[int, Query(ge=1, le=1000)]
"""A listing's `limit` query parameter: how many rows, 1 to 1,000 (each route sets its default)."""
Offset = Annotated[int, Query(ge=0, le=MAX_OFFSET)]
"""A listing's `offset` query parameter: how many rows to skip, 0 to `MAX_OFFSET`."""

router = APIRouter(
    prefix="/api",
    responses={
        401: {"model": Problem, "description": "An API token is required (unless served with --no-require-token)."},
        403: {
            "model": Problem,
            "description": "The caller's role lacks the permission the route needs (named in `detail`), or a "
            "cross-site or header-less state-changing request.",
        },
        404: {"model": Problem, "description": "No such tool, session, call or pending approval."},
        413: {"model": Problem, "description": "The request body is over 1 MiB."},
        421: {"model": Problem, "description": "Bound to loopback, and the Host header names something else."},
        422: {"model": InvalidRequest, "description": "A parameter or the body is invalid; `detail` says which."},
        503: {"model": Problem, "description": "Recording is off: there are no sessions or calls."},
    },
)

TierName = Literal["read-only", "additive-write", "destructive", "unknown"]
VerdictName = Literal["allow", "ask", "deny", "approved", "denied", "expired", "withdrawn"]
SessionStatusName = Literal["active", "closed"]


class Hints(ApiModel):
    """All four hints, explicit."""

    readOnlyHint: bool
    destructiveHint: bool
    idempotentHint: bool
    openWorldHint: bool
    title: str | None = None


class InferredHint(ApiModel):
    """A hint value an inference rule produced, with how strong its evidence is."""

    value: bool
    rule: str
    strength: Literal["strong", "moderate", "weak"] = Field(
        description="Weak evidence only ever makes a tool look riskier; only strong evidence sets aside what a "
        "local server declares."
    )
    why: str | None = Field(default=None, description="What disagreed, when the riskier value was taken.")


class ToolUsage(ApiModel):
    """How a tool has been used, from the recorded calls."""

    calls: int
    errors: int = Field(description="Calls that ran and failed (denied and expired calls are counted apart).")
    denied: int = Field(default=0, description="Calls the policy or a person denied.")
    expired: int = Field(default=0, description="Calls asked about that nobody answered in time, or whose caller left.")
    last_used: str | None = Field(description="When it was last called (ISO 8601, UTC).")
    p50_ms: float | None = Field(description="The median duration of its calls, in milliseconds.")


class Tool(ApiModel):
    """A tool as the gateway serves it, with everything that went into its hints."""

    name: str
    server: str
    upstream_name: str
    title: str | None
    title_provenance: Literal["override", "declared", "openapi", "derived"] = Field(
        default="declared", description="Where the title came from; `derived` is the name in sentence case."
    )
    description: str | None
    tier: TierName
    annotations: Hints
    provenance: dict[str, str]
    declared: dict[str, bool | str]
    inferred: dict[str, InferredHint]
    distrusted: dict[str, bool]
    overrides: Overrides
    input_schema: dict[str, Any]
    review: list[str] = Field(
        default_factory=list,
        description="Why the tool needs review (lint HG306/HG307): thin evidence or caller-supplied code.",
    )
    usage: ToolUsage | None = Field(
        default=None,
        description="Its recorded calls (in GET /api/tools); null when recording is off or it was never called.",
    )
    quarantine: str | None = Field(
        default=None, description="Why the tool is quarantined (every call asks), or null; see /api/pins."
    )
    category: str | None = Field(default=None, description="Its category (a Python registry's), or null.")
    tags: list[str] = Field(default_factory=list, description="Its tags (a Python registry's).")
    trust: str = Field(default="untrusted", description="Its server's trust level: trusted, local or untrusted.")


class Recording(ApiModel):
    """How the store records: `Store.health()`; degraded while it cannot write or after its file went away."""

    status: Literal["ok", "degraded"]
    reason: str | None
    commit: Literal["durable", "fast"]
    backlog: int
    dropped: int
    failures: int
    unconfirmed: int


class HttpFast(ApiModel):
    """The streamable HTTP fast path: MCP requests answered with one JSON body, and those it left to the SDK."""

    taken: int = Field(description="Requests to /mcp answered by the fast path since start.")
    fallbacks: dict[str, int] = Field(description="Requests it looked at and left to the SDK, by reason.")


class Health(ApiModel):
    """Whether the gateway is up; the details only for a caller who may use the API (or on loopback)."""

    status: Literal["ok", "degraded"]
    version: str | None = None
    servers_up: int | None = None
    servers_total: int | None = None
    store: str | None = None
    recording: Recording | None = None
    pending_approvals: int | None = None
    http_fast: HttpFast | None = None


class Session(ApiModel):
    """An MCP client session: who connected, when, and how its calls went."""

    model_config = ConfigDict(extra="allow")

    id: str
    client_name: str | None
    client_version: str | None
    status: SessionStatusName
    started_at: str
    ended_at: str | None
    tool_call_count: int
    total_tokens: int
    transport: str | None = None
    replica: str | None = None
    user_name: str | None = None
    """The person who opened it (identity provider), `api-token`; null when the gateway knows no users."""
    view: str | None = None
    """The view it was served (`/mcp/NAME`, `serve --view NAME`); null for the whole catalog."""
    user_key: str | None = None
    """Who that is: `ISSUER#sub=SUBJECT` for a person (`identity.personClaim` instead of `sub` when set),
    `api-token`; null when the gateway knows no users or for a person's session recorded before keys."""


class Call(ApiModel):
    """A recorded tool call with the hints and decision in force."""

    model_config = ConfigDict(extra="allow")

    id: str
    session_id: str | None
    server_id: str
    tool_name: str
    started_at: str
    duration_ms: float
    user_name: str | None = None
    """The person who made it (identity provider), `api-token`; null when the gateway knows no users."""
    config_path: str | None = None
    """The config file of the gateway that served it; null when it had none (`--demo`, `--python`)."""
    user_key: str | None = None
    """Who that is (as a session's `user_key`)."""
    error: str | None = None
    tier: str | None = None
    verdict: str | None = None
    hints: dict[str, Any] | None = None
    decision: dict[str, Any] | None = None
    arguments: Any = None
    response: Any = None


class SessionDetail(Session):
    calls: list[Call]


# -- helpers -----------------------------------------------------------------


def gateway_of(request: Request) -> Gateway:
    """The gateway the app serves (set by `create_app`)."""
    gateway: Gateway = request.app.state.gateway
    return gateway


def store_of(request: Request) -> Store | None:
    """The store the app reads, or None when recording is off."""
    store: Store | None = request.app.state.store
    return store


def required_store(request: Request) -> Store:
    """The store; a 503 when recording is off."""
    store = store_of(request)
    if store is None:
        raise HTTPException(503, "recording is off (no store): sessions and calls are not kept")
    return store


def policy_of(request: Request) -> PolicyKeeper:
    """The policy keeper of the gateway the app serves."""
    return gateway_of(request).policy


def catalog_keeper_of(request: Request) -> CatalogKeeper:
    """The catalog keeper of the gateway the app serves (held tools; accepting, blocking, overriding them)."""
    return gateway_of(request).catalog_keeper


def pins_of(request: Request) -> PinKeeper:
    """The tools' pins of the gateway the app serves."""
    return gateway_of(request).pins


def approvals_of(request: Request) -> ApprovalQueue:
    """The calls of the gateway the app serves that wait for a person."""
    return gateway_of(request).approvals


def server_set_of(request: Request) -> ServerSet:
    """What adds, edits, removes, enables and disables the servers of the gateway the app serves."""
    return gateway_of(request).server_set


GatewayDep = Annotated[Gateway, Depends(gateway_of)]
"""An endpoint parameter receiving the gateway."""
PolicyDep = Annotated[PolicyKeeper, Depends(policy_of)]
"""An endpoint parameter receiving the policy in force's keeper (what it is, what changes it)."""
CatalogKeeperDep = Annotated[CatalogKeeper, Depends(catalog_keeper_of)]
"""An endpoint parameter receiving the catalog keeper (held tools, what accepts, blocks and overrides tools)."""
PinsDep = Annotated[PinKeeper, Depends(pins_of)]
"""An endpoint parameter receiving the tools' pins."""
ApprovalsDep = Annotated[ApprovalQueue, Depends(approvals_of)]
"""An endpoint parameter receiving the approval queue (calls waiting for a person)."""
ServerSetDep = Annotated[ServerSet, Depends(server_set_of)]
"""An endpoint parameter receiving the server set (runtime changes of the servers)."""
# MaybeStoreDep: an endpoint parameter receiving the store, or None when recording is off.
# StoreDep: an endpoint parameter receiving the store (the endpoint answers 503 without one).
if TYPE_CHECKING:
    MaybeStoreDep = Annotated[Store | None, Depends(store_of)]
    StoreDep = Annotated[Store, Depends(required_store)]
else:
    # FastAPI evaluates these when the routes are declared, and never checks a dependency's value
    # against its type: Any stands in for Store, which is imported only when recording is on.
    MaybeStoreDep = Annotated[Any, Depends(store_of)]
    StoreDep = Annotated[Any, Depends(required_store)]


def tool_out(gateway: Gateway, entry: CatalogEntry) -> Tool:
    """The API's view of one catalog entry."""
    tool = entry.tool
    source = gateway.server(entry.server)
    facts = source.tool_facts(tool.raw) if source is not None else ToolFacts()
    stored = gateway.overrides.hints_of(entry.name)
    schema = tool.raw.get("inputSchema")
    resolution = tool.resolution
    return Tool(
        name=entry.name,
        server=entry.server,
        upstream_name=entry.upstream_name,
        title=tool.title,
        title_provenance=tool.title_origin.value,
        description=tool.description,
        tier=entry.tier.value,
        annotations=Hints.model_validate(resolution.to_mcp()),
        provenance=resolution.provenance(),
        declared=tool.declared.to_mcp(),
        inferred={
            h.value: InferredHint(value=i.value, rule=i.rule, strength=i.strength.value, why=i.why)
            for h, i in resolution.inferred.items()
        },
        distrusted={h.value: r.distrusted for h, r in resolution.hints.items() if r.distrusted is not None},
        overrides=Overrides(
            config={h.value: v for h, v in facts.overrides.items()},
            stored={h.value: v for h, v in stored.items()},
            config_title=facts.title,
            stored_title=gateway.overrides.title_of(entry.name),
        ),
        input_schema=schema if isinstance(schema, dict) else {},
        review=[r.message for r in review_reasons(tool)],
        quarantine=entry.quarantine,
        category=tool.category,
        tags=list(tool.tags),
        trust=resolution.trust.value,
    )


# -- routes ------------------------------------------------------------------


@router.get("/health", response_model=Health, response_model_exclude_unset=True)
async def health(request: Request, gateway: GatewayDep, store: MaybeStoreDep) -> Health:
    """Liveness; how many servers are up, the store and waiting approvals only with the token (or on loopback)."""
    states = [s.status.state.value for s in gateway.servers()]
    up = sum(1 for s in states if s == "up")
    status: Literal["ok", "degraded"] = "ok" if up == len([s for s in states if s != "disabled"]) else "degraded"
    if (
        gateway.catalog_keeper.any_listing_problems()
    ):  # a server listed a tool name twice: none of those copies is served
        status = "degraded"
    recording = Recording.model_validate(store.health(), from_attributes=True) if store is not None else None
    if recording is not None and recording.status == "degraded":
        status = "degraded"
    if not getattr(request.state, "authenticated", False):
        return Health(status=status)  # open to all when a token is set: says nothing about what runs
    fast = getattr(gateway, "http_fast", None)
    extra = {"http_fast": HttpFast(**fast.stats())} if fast is not None else {}
    return Health(
        **extra,
        status=status,
        version=__version__,
        servers_up=up,
        servers_total=len(states),
        store=store.url.split(":", 1)[0].split("+", 1)[0] if store is not None else None,
        recording=recording,
        pending_approvals=gateway.pending_approvals(),
    )


def reachable(gateway: Gateway, entry: CatalogEntry, access: Access) -> bool:
    """Whether the caller may see a tool: everyone who reads the gateway's settings does; a person only the tools
    their rules leave them (as their MCP `tools/list`: what no deny rule decides for them)."""
    if access.may(Permission.READ_SETTINGS) or access.principal is None:
        return access.principal is not None
    return denied_by_rule(CallFacts.from_entry(entry, None, access.principal), gateway.policy.current().rules) is None


@router.get("/tools", response_model=list[Tool])
async def tools(
    gateway: GatewayDep,
    store: MaybeStoreDep,
    access: AccessDep,
    tier: Annotated[TierName | None, Query(description="Only tools of this tier.")] = None,
    server: Annotated[str | None, Query(description="Only tools of this server.")] = None,
    q: Annotated[str | None, Query(description="Text to find in name, title, description, category or tags.")] = None,
    category: Annotated[str | None, Query(description="Only tools of this category (a Python registry's).")] = None,
    tag: Annotated[list[str] | None, Query(description="Only tools carrying this tag (repeat: every one).")] = None,
    read_only: Annotated[
        bool | None, Query(alias="readOnly", description="Only tools whose readOnlyHint is this.")
    ] = None,
    destructive: Annotated[bool | None, Query(description="Only tools whose destructiveHint is this.")] = None,
    idempotent: Annotated[bool | None, Query(description="Only tools whose idempotentHint is this.")] = None,
    open_world: Annotated[
        bool | None, Query(alias="openWorld", description="Only tools whose openWorldHint is this.")
    ] = None,
    trust: Annotated[TrustLevel | None, Query(description="Only tools of servers at this trust level.")] = None,
    provenance: Annotated[
        Origin | None, Query(description="Only tools with a hint from this origin (declared, override, inferred...).")
    ] = None,
) -> list[Tool]:
    """Every tool with its resolved hints (all four explicit), provenance, tier, and declared and inferred values.

    A member gets the tools their rules leave them, with the usage of their own calls.
    """
    given = {
        Hint.READ_ONLY: read_only,
        Hint.DESTRUCTIVE: destructive,
        Hint.IDEMPOTENT: idempotent,
        Hint.OPEN_WORLD: open_world,
    }
    wanted = ToolFilter(
        tier=tier,
        server=server,
        q=q or None,
        category=category,
        tags=tuple(tag or ()),
        hints={h: v for h, v in given.items() if v is not None},
        trust=trust,
        provenance=provenance,
    )
    usage = await store.tool_usage(owner=access.owner) if store is not None else {}
    out = []
    for entry in gateway.tools():
        if not reachable(gateway, entry, access):
            continue
        listed = tool_out(gateway, entry)
        if not wanted.matches(listed):
            continue
        used = usage.get(entry.name)
        out.append(listed if used is None else listed.model_copy(update={"usage": ToolUsage(**used)}))
    return out


@router.get("/tools/{name}", response_model=Tool)
async def tool(gateway: GatewayDep, access: AccessDep, name: str) -> Tool:
    """One tool."""
    entry = gateway.tool(name)
    if entry is None or not reachable(gateway, entry, access):
        raise HTTPException(404, f"no tool named {name!r}")
    return tool_out(gateway, entry)


@router.patch("/tools/{name}/overrides", response_model=Tool)
async def set_overrides(
    request: Request, gateway: GatewayDep, keeper: CatalogKeeperDep, name: str, body: OverridesIn
) -> Tool:
    """Override hints or the title of a tool, or clear overrides (null); applied at once, clients told."""
    if gateway.tool(name) is None:
        raise HTTPException(404, f"no tool named {name!r}")
    given = body.model_dump(exclude_unset=True)
    title = given.pop("title") if "title" in given else KEEP
    changes = {Hint(k): v for k, v in given.items()}
    if not changes and title is KEEP:
        raise HTTPException(422, "give a hint (readOnlyHint, destructiveHint, idempotentHint, openWorldHint) or title")
    await keeper.apply_overrides(name, changes, actor=actor_of(request), title=title)
    entry = gateway.tool(name)
    assert entry is not None
    return tool_out(gateway, entry)


@router.delete("/tools/{name}/overrides", response_model=Tool)
async def clear_overrides(request: Request, gateway: GatewayDep, keeper: CatalogKeeperDep, name: str) -> Tool:
    """Clear every stored override of a tool, its title too (the config file's stay)."""
    if gateway.tool(name) is None:
        raise HTTPException(404, f"no tool named {name!r}")
    await keeper.apply_overrides(name, dict.fromkeys(Hint), actor=actor_of(request), title=None)
    entry = gateway.tool(name)
    assert entry is not None
    return tool_out(gateway, entry)


@router.get("/sessions", response_model=list[Session])
async def sessions(
    store: StoreDep,
    access: AccessDep,
    limit: Limit = 20,
    status: Annotated[SessionStatusName | None, Query(description="Only active sessions, or only closed ones.")] = None,
    replica: Annotated[
        str | None,
        Query(max_length=500, description="Only sessions this replica served (gateways sharing a database)."),
    ] = None,
    user: Annotated[str | None, Query(max_length=500, description="Only sessions this person opened.")] = None,
) -> list[Session]:
    """The most recent sessions, newest first, filtered; a member's own only."""
    rows = await store.recent_sessions(limit, status=status, replica=replica, user=user, owner=access.owner)
    return [Session.model_validate(row) for row in rows]


@router.get("/sessions/{session_id}", response_model=SessionDetail)
async def session(
    store: StoreDep,
    access: AccessDep,
    session_id: str,
    limit: Limit = 200,
    offset: Offset = 0,
) -> SessionDetail:
    """One session with its aggregates and its calls in order (a member's own only: another's is no session)."""
    from hintgate.store import CallFilter

    row = await store.session(session_id, owner=access.owner)
    if row is None:
        raise HTTPException(404, f"no session {session_id!r}")
    calls = await store.calls(CallFilter(session_id=session_id, owner=access.owner), limit=limit, offset=offset)
    return SessionDetail.model_validate({**row, "calls": calls})


class SessionEnded(ApiModel):
    """A session ended on request."""

    id: str
    ended: bool = Field(description="True: it ended now, as if its client had closed it.")


@router.delete(
    "/sessions/{session_id}",
    response_model=SessionEnded,
    responses={409: {"model": Problem, "description": "It has ended, another replica serves it, or it is stdio."}},
)
async def end_session(gateway: GatewayDep, store: MaybeStoreDep, access: AccessDep, session_id: str) -> SessionEnded:
    """End an active session as if its client had closed it: a person their own, an admin anyone's.

    A 2026-07-28 session forgets what it remembered (approvals for the session, taint); a handshake-era
    session's connection closes and its `Mcp-Session-Id` answers 404. Another person's session is 404 to a
    member, as when reading it.
    """
    live = gateway.sessions.get(session_id)
    mine = access.principal.key if access.principal is not None else ""
    if not access.may(Permission.OPERATE) and (live is None or live.principal is None or live.principal.key != mine):
        live = None
        row = await store.session(session_id, owner=mine) if store is not None else None
    else:
        row = await store.session(session_id) if store is not None and live is None else None
    if live is None:
        if row is None:
            raise HTTPException(404, f"no session {session_id!r}")
        if row.get("status") != "active":
            raise HTTPException(409, f"session {session_id!r} has ended already")
        raise HTTPException(409, f"session {session_id!r} is served by replica {row.get('replica')!r}: end it there")
    if not await gateway.end_session(session_id):
        raise HTTPException(
            409, f"session {session_id!r} cannot be ended from here: a stdio session ends when its client closes it"
        )
    return SessionEnded(id=session_id, ended=True)


def call_filter(
    access: AccessDep,
    session: Annotated[str | None, Query(description="Only calls of this session.")] = None,
    server: str | None = None,
    tool: str | None = None,
    tier: TierName | None = None,
    verdict: VerdictName | None = None,
    user: Annotated[str | None, Query(max_length=500, description="Only calls this person made.")] = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> CallFilter:
    """The `/api/calls` query parameters that filter, as one `CallFilter`; a member's calls only."""
    from hintgate.store import CallFilter

    return CallFilter(
        session_id=session,
        server=server,
        tool=tool,
        tier=tier,
        verdict=verdict,
        user=user,
        since=since,
        until=until,
        owner=access.owner,
    )


# CallFilterDep: an endpoint parameter receiving the calls its query parameters pick.
if TYPE_CHECKING:
    CallFilterDep = Annotated[CallFilter, Depends(call_filter)]
else:
    CallFilterDep = Annotated[Any, Depends(call_filter)]  # as StoreDep: CallFilter comes with the store


@router.get("/calls", response_model=list[Call])
async def calls(
    store: StoreDep,
    where: CallFilterDep,
    limit: Limit = 50,
    offset: Offset = 0,
) -> list[Call]:
    """Recorded calls, newest first (in order within one session), filtered."""
    return [Call.model_validate(row) for row in await store.calls(where, limit=limit, offset=offset)]


@router.get("/calls/{call_id}", response_model=Call)
async def call(store: StoreDep, access: AccessDep, call_id: str) -> Call:
    """One recorded call, arguments and response included (a member's own only: another's is no call)."""
    row = await store.call(call_id, owner=access.owner)
    if row is None:
        raise HTTPException(404, f"no call {call_id!r}")
    return Call.model_validate(row)


@router.get("/policy", response_model=Policy)
async def policy(keeper: PolicyDep) -> BaseModel:
    """The policy settings in force, what they mean, and where each value comes from."""
    return _policy(keeper)


@router.patch("/policy", response_model=Policy)
async def set_policy(request: Request, keeper: PolicyDep, body: PolicyIn) -> BaseModel:
    """Change the mode and preferences: in force for the next call, kept in the store (every replica, restarts).

    A value equal to the config file's is not kept: that setting follows the file again.
    """
    try:
        await keeper.set(flat_policy(body.model_dump(exclude_unset=True)), actor=actor_of(request))
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from None
    return _policy(keeper)


@router.delete("/policy/stored", response_model=Policy)
async def reset_policy(
    request: Request,
    keeper: PolicyDep,
    setting: Annotated[
        list[str] | None,
        Query(description="A setting's key path (`mode`, `preferences.showHintWarnings`); every one when left out."),
    ] = None,
) -> BaseModel:
    """Put settings changed at run time back to the config file's values (all of them, or those named)."""
    try:
        await keeper.reset(setting, actor=actor_of(request))
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from None
    return _policy(keeper)


def _policy(keeper: PolicyKeeper) -> BaseModel:
    in_force = keeper.current()
    return policy_out(in_force.settings, in_force.rules, origins(keeper.file_settings, keeper.stored_settings()))


def actor_of(request: Request) -> str:
    """Who made a request, as a change it makes is recorded: the person, `api-token`, or `local`."""
    return access_of(request).actor


def channel_of(request: Request) -> str:
    """How a request came: `dashboard` for the dashboard's own requests, else `api`."""
    return "dashboard" if request.headers.get("hx-request") else "api"
