"""`GET /api/me`: who the caller is to the gateway, their role, and what that role lets them do.

The dashboard leaves out what the caller may not do from the same answer;
the server refuses it anyway (`hintgate.web.permissions`).
"""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import Field

from hintgate.policy.principal import PrincipalKind
from hintgate.policy.roles import Permission, Role
from hintgate.web.api import router as api_router
from hintgate.web.api_model import ApiModel
from hintgate.web.permissions import AccessDep

__all__ = ["Me", "router"]

router = APIRouter(prefix="/api", responses=dict(api_router.responses))


class Me(ApiModel):
    """The caller as the gateway knows them."""

    name: str = Field(description="How records name them: a person's name, `api-token`, or `local`.")
    key: str = Field(
        description="Who they are, whatever their name: `ISSUER#sub=SUBJECT` for a person (`identity.personClaim` "
        "instead of `sub` when set), else the name. Sessions and calls record it as `user_key`."
    )
    kind: PrincipalKind = Field(
        description="How they proved it: a token from the identity provider (user), the API token, or nothing "
        "(local: a gateway that knows no people and needs no token)."
    )
    role: Role = Field(
        description="member: uses the gateway; auditor: also reads every session and call; admin: changes the "
        "gateway; operator: the API token (or a gateway without people), which may also set a server's command."
    )
    groups: list[str] = Field(description="The groups the identity provider lists for them.")
    permissions: list[Permission] = Field(description="What the role lets them do, in the order of the docs.")


@router.get("/me", response_model=Me)
async def me(access: AccessDep) -> Me:
    """Who you are, your role, and what you may do."""
    principal, role = access.principal, access.role
    # The permission check lets in only a signed-in caller.
    assert principal is not None
    assert role is not None
    return Me(
        name=principal.name,
        key=principal.key,
        kind=principal.kind,
        role=role,
        groups=sorted(principal.groups),
        permissions=[p for p in Permission if p in role.permissions],
    )
