"""The REST API's confirm settings: how often a tool, or every tool a glob matches, asks a person.

`PUT /api/tools/{name}/confirm {"confirm": "first" | "always" | "never" | null}`
sets or clears one; `GET /api/confirms` lists them. Each is a tool rule of its
own, in force for the next call (docs/policy.md has the precedence).
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from hintgate.hints.names import NameGlob
from hintgate.policy.rules import Confirm
from hintgate.server.gateway import Gateway
from hintgate.web.api import GatewayDep, actor_of
from hintgate.web.api import router as api_router

__all__ = ["ConfirmIn", "ToolConfirm", "router"]

router = APIRouter(prefix="/api", responses=api_router.responses)

ConfirmName = Literal["first", "always", "never"]
_GLOB_CHARACTERS = frozenset("*?[")


class ConfirmIn(BaseModel):
    """How often the tool asks; null takes the setting off (the config file's rules decide again)."""

    model_config = ConfigDict(extra="forbid")

    confirm: ConfirmName | None = Field(
        description="first: the first call in a session asks; always: every call asks; never: runs without asking."
    )


class ToolConfirm(BaseModel):
    """A confirm setting made through the API or dashboard, and the tools it covers now."""

    tool: str = Field(description="A public tool name, or a glob over them.")
    confirm: ConfirmName | None = Field(description="null when the setting was just taken off.")
    matches: list[str] = Field(description="The tools in the catalog it covers, by name.")


def _matches(gateway: Gateway, pattern: str) -> list[str]:
    glob = NameGlob(pattern)
    return sorted(entry.name for entry in gateway.tools() if glob.matches(entry.name))


def _out(gateway: Gateway, tool: str) -> ToolConfirm:
    confirm = gateway.overrides.confirm_of(tool)
    return ToolConfirm(tool=tool, confirm=None if confirm is None else confirm.value, matches=_matches(gateway, tool))


@router.get("/confirms", response_model=list[ToolConfirm])
async def confirms(gateway: GatewayDep) -> list[ToolConfirm]:
    """Every confirm setting made through the API or dashboard (the config file's rules are in `GET /api/policy`)."""
    return [_out(gateway, tool) for tool in gateway.overrides.confirmed()]


@router.put("/tools/{name}/confirm", response_model=ToolConfirm)
async def set_confirm(request: Request, gateway: GatewayDep, name: str, body: ConfirmIn) -> ToolConfirm:
    """Set how often a tool (or every tool a glob such as `notes_delete_*` matches) asks; null clears it.

    Applied to the next call. A name must be in the catalog and a glob must
    match at least one tool, so a typo is refused rather than stored; clearing
    is always possible (clearing what is not set changes nothing).
    """
    is_glob = not _GLOB_CHARACTERS.isdisjoint(name)
    if body.confirm is not None and not _matches(gateway, name):
        what = f"the glob {name!r} matches no tool" if is_glob else f"no tool named {name!r}"
        raise HTTPException(404, f"{what} (GET /api/tools lists them)")
    confirm = None if body.confirm is None else Confirm(body.confirm)
    await gateway.policy.set_confirm(name, confirm, actor=actor_of(request))
    return _out(gateway, name)
