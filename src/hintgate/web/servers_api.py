"""The REST API's servers: list them, and add, edit, remove, enable, disable them while the gateway runs.

Changes are laid over the config file (`hintgate.config.layering`) and kept
in the store; the gateway applies only the difference
(`hintgate.server.live`). A server's entry is the same JSON as an
`mcpServers` entry of the config file, validated by the same validator; a
bad one gets a 422 naming each problem's JSON path. Secrets (`env` and
`headers` values, URL credentials) never come back: they show as `***`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from hintgate.config.layering import Action, InvalidEntry
from hintgate.errors import StoreError
from hintgate.hints.annotations import Tier
from hintgate.hints.trust import Trust
from hintgate.server.gateway import Gateway
from hintgate.server.live import ChangeResult, ServerChangeRefused, UnknownServer
from hintgate.sources.base import Source, SourceState
from hintgate.web.api import GatewayDep, InvalidRequest, Problem, ServerSetDep, actor_of
from hintgate.web.api_model import ApiModel
from hintgate.web.permissions import AccessDep, entry_refusal
from hintgate.web.tool_filter import TrustLevel

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["servers"])


class RuntimeChange(ApiModel):
    """A change made to a server while the gateway runs: it wins over the config file until reset."""

    action: Action
    changed_at: datetime
    changed_by: str


class SourceStatusOut(ApiModel):
    state: Literal["starting", "up", "down", "restarting", "disabled", "needs_login"]
    reason: str | None
    since: datetime
    restarts: int
    retry_at: datetime | None
    notifications_dropped: int = Field(
        0, description="Notifications of the server's dropped because too many waited (a flood), since start."
    )


class Server(ApiModel):
    """A source of tools and its state."""

    name: str
    kind: str
    trust: TrustLevel = Field(
        description="How far its declared hints are believed: as declared (trusted), unless strong evidence says a "
        "tool is riskier (local), or only when they make a tool look riskier (untrusted)."
    )
    trust_from: Literal["config", "origin", "runtime"] = Field(
        "config",
        description="Where its trust came from: the config file's `trust` key, the default for where it runs "
        "(a local command: local; a URL: untrusted; OpenAPI: local; Python: trusted), or a change made while the "
        "gateway runs.",
    )
    prefix: str
    status: SourceStatusOut
    tools: int
    tiers: dict[str, int]
    enabled: bool = Field(True, description="Whether it runs; a disabled server serves no tools.")
    origin: Literal["config", "runtime"] = Field(
        "config",
        description="Where its definition comes from: the config file, or a change made while the gateway runs.",
    )
    change: RuntimeChange | None = Field(
        None, description="The runtime change in force (laid over the config file), or null when there is none."
    )
    listing_problems: list[str] = Field(
        default_factory=list,
        description="What is wrong with its last tool listing (a name listed twice: none of the copies is served).",
    )


class ServerDetail(Server):
    """A server with its definition, secrets shown as `***`."""

    config: dict[str, Any] | None = Field(
        None,
        description="Its definition (transport, trust, prefix, filters, timeouts) with every env and header value "
        "and URL credential as ***; null for OpenAPI and Python sources.",
    )


class Diff(ApiModel):
    """What the change did to the running servers, by name."""

    added: list[str] = Field(description="Started: new, or enabled.")
    restarted: list[str] = Field(description="Stopped and started anew: their definition changed.")
    removed: list[str] = Field(description="Stopped: removed, or disabled.")
    unchanged: list[str] = Field(description="Left as they were: same process, same connection.")


class ServerChanged(ApiModel):
    """The outcome of a change: the server as it is now (null once removed), what changed, what to look at."""

    server: ServerDetail | None
    diff: Diff
    warnings: list[str] = Field(default_factory=list, description="What deserves a look although the entry is valid.")
    persisted: bool = Field(
        description="Whether the change is kept in the store (false: the gateway serves no config file, "
        "as with --demo or --python, or recording is off, so the change lasts until the gateway stops)."
    )


class TrustBody(ApiModel):
    """How far to believe a server's declared hints."""

    trust: TrustLevel = Field(
        "trusted",
        description="trusted: its declared hints count as declared; local: unless strong evidence says a tool is "
        "riskier; untrusted: only when they make a tool look riskier.",
    )


ENTRY_EXAMPLES = {
    "stdio": {
        "summary": "A local server",
        "value": {"name": "time", "command": "uvx", "args": ["mcp-server-time"], "trust": "trusted"},
    },
    "http": {
        "summary": "A remote server",
        "value": {
            "name": "docs",
            "url": "https://example.com/mcp",
            "headers": {"Authorization": "Bearer ${DOCS_TOKEN}"},
        },
    },
}
EntryBody = Annotated[
    dict[str, Any],
    Body(
        description="An `mcpServers` entry, as the config file takes it: `command`, `args`, `env`, `cwd` (stdio) or "
        "`url`, `headers`, `type` (remote), and hintgate's keys (`trust`, `prefix`, `include`, `exclude`, "
        "`overrides`, `enabled`, `timeout`, `startupTimeout`). `${VAR}` refers to the gateway's environment.",
        openapi_examples=ENTRY_EXAMPLES,
    ),
]

_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": Problem, "description": "No server of that name."},
    409: {"model": Problem, "description": "The name is taken, or the source is not an MCP server."},
    422: {"model": InvalidRequest, "description": "The entry is not valid; `errors` names each problem's JSON path."},
    503: {"model": Problem, "description": "The change could not be stored; nothing was changed."},
}


def detail_out(gateway: Gateway, source: Source) -> ServerDetail:
    """A server with its redacted definition."""
    entry = gateway.server_config(source.name)
    config = entry.redacted() if entry is not None else None
    return ServerDetail(**server_out(gateway, source).model_dump(), config=config)


async def _changed(gateway: Gateway, name: str, work: Any) -> ServerChanged | JSONResponse:
    """Run one operation of the server set; its errors as 404, 409, 422 and 503."""
    try:
        result: ChangeResult = await work
    except UnknownServer as exc:
        raise HTTPException(404, str(exc)) from None
    except ServerChangeRefused as exc:
        raise HTTPException(409, str(exc)) from None
    except InvalidEntry as exc:
        errors = [{"loc": ["body", *p.loc], "msg": p.message, "type": "config"} for p in exc.problems]
        return JSONResponse({"detail": str(exc), "errors": errors}, status_code=422)
    except StoreError as exc:
        raise HTTPException(503, f"the change could not be stored, so nothing changed: {exc}") from None
    source = gateway.server(name)
    d = result.diff
    return ServerChanged(
        server=detail_out(gateway, source) if source is not None else None,
        diff=Diff(
            added=list(d.added), restarted=list(d.restarted), removed=list(d.removed), unchanged=list(d.unchanged)
        ),
        warnings=list(result.warnings),
        persisted=result.persisted,
    )


# -- routes ------------------------------------------------------------------


def server_out(gateway: Gateway, source: Source) -> Server:
    """The API's view of one running source."""
    tiers = dict.fromkeys((t.value for t in Tier), 0)
    for entry in gateway.tools():
        if entry.server == source.name:
            tiers[entry.tier.value] += 1
    status = source.status
    change = gateway.server_set.change(source.name)
    return Server(
        name=source.name,
        kind=source.kind,
        trust=source.trust.value,
        trust_from=source.trust_from.value,
        prefix=source.prefix,
        status=SourceStatusOut(
            state=status.state.value,
            reason=status.reason,
            since=datetime.fromtimestamp(status.since).astimezone(),
            restarts=status.restarts,
            retry_at=datetime.fromtimestamp(status.retry_at).astimezone() if status.retry_at else None,
            notifications_dropped=status.notifications_dropped,
        ),
        tools=sum(tiers.values()),
        tiers=tiers,
        enabled=status.state is not SourceState.DISABLED,
        origin="runtime" if gateway.server_set.origin(source.name) == "runtime" else "config",
        change=(
            RuntimeChange(action=change.action, changed_at=change.changed_at, changed_by=change.changed_by)
            if change is not None
            else None
        ),
        listing_problems=gateway.catalog_keeper.problems_of(source.name),
    )


@router.get("/servers", response_model=list[Server])
async def servers(gateway: GatewayDep) -> list[Server]:
    """Every source: status (up, down with the reason, restarting), trust, tool counts, and where it is defined."""
    return [server_out(gateway, source) for source in gateway.servers()]


@router.get("/servers/{name}", response_model=ServerDetail, responses={404: _ERRORS[404]})
async def server(gateway: GatewayDep, name: str) -> ServerDetail:
    """One server with its definition (secrets as `***`) and the runtime change in force."""
    source = gateway.server(name)
    if source is None:
        raise HTTPException(404, f"no server named {name!r}")
    return detail_out(gateway, source)


@router.post("/servers", response_model=ServerChanged, status_code=201, responses=_ERRORS)
async def add_server(
    request: Request, gateway: GatewayDep, servers: ServerSetDep, access: AccessDep, body: EntryBody
) -> Any:
    """Add a server while the gateway runs: it starts, and connected clients are told the tool list changed.

    The body is an `mcpServers` entry with its `name`. The change is kept in
    the store, laid over the config file, until it is removed or reset. An entry
    with a `command`, `args`, `env` or `cwd`, or naming `${VAR}`, needs the API
    token (`servers:command`): a person, an admin included, adds servers by URL.
    """
    if (refused := entry_refusal(access, body)) is not None:
        raise refused
    name = body.get("name")
    if not isinstance(name, str):
        got = "nothing" if name is None else type(name).__name__
        error = {"loc": ["body", "name"], "msg": f"expected the server's name (a string), got {got}", "type": "config"}
        return JSONResponse({"detail": f"body.name: {error['msg']}", "errors": [error]}, status_code=422)
    return await _changed(gateway, name, servers.add(name, body, actor=actor_of(request)))


@router.put("/servers/{name}", response_model=ServerChanged, responses=_ERRORS)
async def edit_server(
    request: Request, gateway: GatewayDep, servers: ServerSetDep, access: AccessDep, name: str, body: EntryBody
) -> Any:
    """Replace a server's definition with the whole entry given: it restarts; the other servers are left alone.

    As for adding, an entry with a command (or `${VAR}`) needs the API token.
    """
    if (refused := entry_refusal(access, body)) is not None:
        raise refused
    return await _changed(gateway, name, servers.edit(name, body, actor=actor_of(request)))


@router.delete("/servers/{name}", response_model=ServerChanged, responses=_ERRORS)
async def remove_server(request: Request, gateway: GatewayDep, servers: ServerSetDep, name: str) -> Any:
    """Stop a server and remove it; waiting approvals of its tools are withdrawn. A config file's server stays
    removed until the change is reset."""
    return await _changed(gateway, name, servers.remove(name, actor=actor_of(request)))


@router.post("/servers/{name}/enable", response_model=ServerChanged, responses=_ERRORS)
async def enable_server(request: Request, gateway: GatewayDep, servers: ServerSetDep, name: str) -> Any:
    """Start a disabled server."""
    return await _changed(gateway, name, servers.set_enabled(name, True, actor=actor_of(request)))


@router.post("/servers/{name}/disable", response_model=ServerChanged, responses=_ERRORS)
async def disable_server(request: Request, gateway: GatewayDep, servers: ServerSetDep, name: str) -> Any:
    """Stop a server but keep it configured; its tools leave the catalog."""
    return await _changed(gateway, name, servers.set_enabled(name, False, actor=actor_of(request)))


@router.post("/servers/{name}/trust", response_model=ServerChanged, responses=_ERRORS)
async def trust_server(
    request: Request, gateway: GatewayDep, servers: ServerSetDep, name: str, body: TrustBody | None = None
) -> Any:
    """Set how far a server's declared hints are believed (default: trusted); kept as a runtime change over the
    config file until reset. The server restarts and its tools are resolved again."""
    level = Trust(body.trust) if body is not None else Trust.TRUSTED
    return await _changed(gateway, name, servers.set_trust(name, level, actor=actor_of(request)))


@router.post("/servers/{name}/reset", response_model=ServerChanged, responses=_ERRORS)
async def reset_server(request: Request, gateway: GatewayDep, servers: ServerSetDep, name: str) -> Any:
    """Drop a server's runtime change: the config file's entry applies again (a server only added at run time
    goes)."""
    return await _changed(gateway, name, servers.reset(name, actor=actor_of(request)))
