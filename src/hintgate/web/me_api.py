"""`GET /api/me`: who the caller is to the gateway, their role, and what that role lets them do; their own
preferences at `/api/me/preferences`.

The dashboard leaves out what the caller may not do from the same answer;
the server refuses it anyway (`hintgate.web.permissions`). A person's own
preferences only make their own calls ask more (`hintgate.policy.preferences`).
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from hintgate.policy.preferences import PERSONAL, owner_key, stricter
from hintgate.policy.principal import PrincipalKind
from hintgate.policy.roles import Permission, Role
from hintgate.server.gateway import Gateway
from hintgate.web.api import GatewayDep
from hintgate.web.api import router as api_router
from hintgate.web.api_model import ApiModel
from hintgate.web.permissions import Access, AccessDep

__all__ = ["Me", "MyPreference", "MyPreferences", "MyPreferencesIn", "my_preferences", "router"]

router = APIRouter(prefix="/api", responses=dict(api_router.responses))


class Me(ApiModel):
    """The caller as the gateway knows them."""

    name: str = Field(description="How records name them: a person's name, `api-token`, or `local`.")
    key: str = Field(
        description="Who they are, whatever their name: `ISSUER#sub=SUBJECT` for a person (`identity.personClaim` "
        "instead of `sub` when set), else the name. Sessions and calls record it as `user_key`; their own "
        "preferences are kept under it."
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


class MyPreference(ApiModel):
    """One preference as it stands for the caller's own calls."""

    mine: bool | None = Field(description="What the caller keeps for themselves; null: they follow everyone's.")
    everyone: bool = Field(description="Everyone's value: the config file's, or an admin's change.")
    in_force: bool = Field(description="What the caller's calls get: their own where it asks more, else everyone's.")
    strict: bool = Field(description="The value that asks more: the only one a person may keep.")


class MyPreferences(ApiModel):
    """The caller's own preferences, by key (`alwaysConfirmDestructive`, `showHintWarnings`, `autoApproveReadOnly`)."""

    preferences: dict[str, MyPreference]


class MyPreferencesIn(BaseModel):
    """Preferences to keep for oneself: the value that asks more, or null to follow everyone's again."""

    model_config = ConfigDict(extra="forbid")

    preferences: dict[str, StrictBool | None] = Field(
        description="By key: `alwaysConfirmDestructive: true`, `showHintWarnings: true`, `autoApproveReadOnly: "
        "false`, or null to drop one."
    )


def my_preferences(gateway: Gateway, access: Access) -> MyPreferences:
    """The caller's own preferences beside everyone's and what their calls get."""
    assert access.principal is not None  # the permission check lets in only a signed-in caller
    policy = gateway.policy.current()
    mine = policy.preferences.get(owner_key(access.principal), {})
    everyone = policy.settings
    in_force = stricter(everyone, mine)
    return MyPreferences(
        preferences={
            p.setting.key: MyPreference(
                mine=mine.get(p.path),
                everyone=getattr(everyone, p.setting.attr),
                in_force=getattr(in_force, p.setting.attr),
                strict=p.strict,
            )
            for p in PERSONAL
        }
    )


@router.get("/me/preferences", response_model=MyPreferences)
async def preferences(gateway: GatewayDep, access: AccessDep) -> MyPreferences:
    """Your own preferences, everyone's, and what your calls get."""
    return my_preferences(gateway, access)


@router.patch("/me/preferences", response_model=MyPreferences)
async def set_preferences(gateway: GatewayDep, access: AccessDep, body: MyPreferencesIn) -> MyPreferences:
    """Keep preferences for your own calls; only the value that asks more is taken (422 otherwise)."""
    assert access.principal is not None
    values = {f"preferences.{key}": value for key, value in body.preferences.items()}
    try:
        await gateway.policy.set_person(owner_key(access.principal), values)
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from None
    return my_preferences(gateway, access)
