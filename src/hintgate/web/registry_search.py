"""The dashboard's Add server form, searching an MCP registry: `/fragments/registry?q=...`.

The fragment lists the registry's servers whose name holds the text, each
way to add one (a package hintgate starts, or a remote) with the entry it
becomes, and a button that fills the Add server form with that entry. The
form is then read and sent as any other (`POST /api/servers`, with its checks
and permissions): this route only reads the registry, it changes nothing.
The registry is the gateway's `registry_url` setting (`HINTGATE_REGISTRY_URL`);
its answers are read as `hintgate.registry` reads them (bounded, every
server.json checked), and every text of theirs is escaped by the template.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from hintgate.config.settings import DEFAULT_REGISTRY
from hintgate.errors import RegistryError

if TYPE_CHECKING:
    from hintgate.registry.serverjson import RegistryServer

__all__ = ["RegistryOption", "RegistryResult", "RegistryResults", "results", "router"]

router = APIRouter(include_in_schema=False)

_SHOWN = 10  # servers a search shows: the form is for picking one


@dataclass(frozen=True, slots=True)
class RegistryOption:
    """One way to add a found server, and what the form is filled with.

    Attributes:
        key: `package:N` or `remote:N`.
        label: how it runs (`npm @scope/pkg@1.2.3 (stdio)`, `remote streamable-http https://...`).
        unsupported: why hintgate cannot add it this way ("" when it can).
        fill: the form's fields (name, command, args, env, url, headers) as JSON, for the Use button.
        needs: the `${VAR}` it reads from the gateway's environment, for people.
        local: whether it is a command (which only the API token or the config file may add).
    """

    key: str
    label: str
    unsupported: str = ""
    fill: str = ""
    needs: list[str] = field(default_factory=list)
    local: bool = False


@dataclass(frozen=True, slots=True)
class RegistryResult:
    """A server the registry found."""

    name: str
    version: str
    description: str
    status: str
    options: list[RegistryOption]


@dataclass(frozen=True, slots=True)
class RegistryResults:
    """The fragment: what was searched for, where, and what came back (or why nothing did)."""

    query: str
    registry: str
    servers: list[RegistryResult]
    error: str = ""
    skipped: int = 0
    more: bool = False


def _lines(values: dict[str, str] | None) -> str:
    return "\n".join(f"{k}={v}" for k, v in (values or {}).items())


def _result(server: RegistryServer, registry: str) -> RegistryResult:
    from hintgate.registry.entry import choices, entry_for
    from hintgate.registry.serverjson import shown_text

    options = []
    for choice in choices(server):
        if choice.unsupported is not None:
            options.append(RegistryOption(choice.key, choice.label, unsupported=choice.unsupported))
            continue
        entry, needs, _ = entry_for(server, choice, registry=registry)
        fields = {
            "name": server.name.rpartition("/")[2],
            "command": entry.get("command", ""),
            "args": "\n".join(entry.get("args", [])),
            "env": _lines(entry.get("env")),
            "url": entry.get("url", ""),
            "headers": _lines(entry.get("headers")),
        }
        options.append(
            RegistryOption(
                choice.key,
                choice.label,
                fill=json.dumps(fields),
                needs=[
                    f"${{{n.name}}}: {n.what}{', required' if n.required else ''}{', secret' if n.secret else ''}"
                    for n in needs
                ],
                local=choice.package is not None,
            )
        )
    return RegistryResult(
        name=shown_text(server.name, 200),
        version=shown_text(server.version, 40),
        description=shown_text(server.description, 200),
        status=server.status or "",
        options=options,
    )


async def results(query: str, registry: str) -> RegistryResults:
    """The registry's servers whose name holds `query`, as the fragment shows them (an error said, not raised)."""
    from hintgate.registry.client import RegistryClient

    try:
        found = await RegistryClient(registry).search(query, limit=_SHOWN)
    except RegistryError as exc:
        return RegistryResults(query, registry, [], error=str(exc))
    return RegistryResults(
        query,
        registry,
        [_result(server, registry) for server in found.servers],
        skipped=len(found.skipped),
        more=found.more,
    )


@router.get("/fragments/registry", response_class=HTMLResponse)
async def registry_fragment(request: Request, q: Annotated[str, Query(max_length=200)] = "") -> HTMLResponse:
    """The registry's servers whose name holds `q`, each with a button that fills the Add server form."""
    from hintgate.web.dashboard import render

    registry = getattr(request.app.state, "registry_url", None) or DEFAULT_REGISTRY
    page: Any = await results(q.strip(), registry) if q.strip() else RegistryResults("", registry, [])
    return render(request, "_registry_results.html", page)
