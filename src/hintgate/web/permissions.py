"""Which permission each route of the REST API and the dashboard needs, checked in one place.

`ROUTES` maps every route (method and path template) to the permission it
needs (`hintgate.policy.roles.Permission`), or to `OPEN` (the sign-in pages,
health) or `SIGNED_IN` (anyone the security check let in: `GET /api/me`).
`check` is a FastAPI dependency the app runs before every route: it finds the
route that matched, the principal the identity check verified and its role,
and refuses with 403 naming the permission; a route the table does not list
is refused too (fail closed), and a test walks the app's routes so that a new
route without a permission fails.

What `check` found is the request's `Access`: routes read it to keep from a
member what they may not see in the query itself (`Access.owner`: their own
sessions and calls only), to record who made a change (`Access.actor`), and
the dashboard to leave out the controls a role may not use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request

from hintgate.policy.principal import API_TOKEN, LOCAL, Principal, principal_of
from hintgate.policy.roles import Permission, Role, Roles, role_of

__all__ = [
    "OPEN",
    "ROUTES",
    "SIGNED_IN",
    "Access",
    "AccessDep",
    "Gate",
    "Refused",
    "access_of",
    "check",
    "entry_refusal",
    "recorded_as",
    "refuse",
]


class Gate(StrEnum):
    """A route that needs no permission of a role."""

    OPEN = "open"
    """Anyone, signed in or not: signing in, health."""
    SIGNED_IN = "signed-in"
    """Anyone the security check let in, whatever their role: who am I."""


OPEN = Gate.OPEN
SIGNED_IN = Gate.SIGNED_IN

_P = Permission

ROUTES: dict[tuple[str, str], Permission | Gate] = {
    # -- signing in and health
    ("GET", "/api/health"): OPEN,
    ("GET", "/login"): OPEN,
    ("POST", "/login"): OPEN,
    ("GET", "/login/identity"): OPEN,
    ("GET", "/login/identity/callback"): OPEN,
    ("POST", "/login/identity/switch"): OPEN,
    ("GET", "/api/me"): SIGNED_IN,
    ("GET", "/api/me/preferences"): _P.OWN_PREFERENCES,
    ("PATCH", "/api/me/preferences"): _P.OWN_PREFERENCES,
    # -- tools and servers, as a person may use them
    ("GET", "/api/tools"): _P.TOOLS,
    ("GET", "/api/tools/{name}"): _P.TOOLS,
    ("GET", "/api/servers"): _P.TOOLS,
    ("GET", "/"): _P.TOOLS,
    ("GET", "/tools/{name}"): _P.TOOLS,
    ("GET", "/fragments/servers"): _P.TOOLS,
    ("GET", "/fragments/tools/{name}/hints"): _P.TOOLS,
    ("GET", "/fragments/tools/{name}/editor"): _P.OPERATE,
    # -- sessions and calls: one's own, or everyone's with history:all (Access.owner)
    ("GET", "/api/sessions"): _P.OWN_HISTORY,
    ("GET", "/api/sessions/{session_id}"): _P.OWN_HISTORY,
    ("DELETE", "/api/sessions/{session_id}"): _P.OWN_HISTORY,
    ("GET", "/api/calls"): _P.OWN_HISTORY,
    ("GET", "/api/calls/{call_id}"): _P.OWN_HISTORY,
    ("GET", "/sessions"): _P.OWN_HISTORY,
    ("GET", "/sessions/{session_id}"): _P.OWN_HISTORY,
    ("GET", "/calls"): _P.OWN_HISTORY,
    ("GET", "/fragments/sessions/{session_id}/calls"): _P.OWN_HISTORY,
    ("GET", "/fragments/calls/{call_id}"): _P.OWN_HISTORY,
    # -- approvals: those one may answer, and one's own waiting calls
    ("GET", "/api/approvals"): _P.ANSWER,
    ("POST", "/api/approvals/{approval_id}"): _P.ANSWER,
    ("GET", "/approvals"): _P.ANSWER,
    ("GET", "/fragments/approvals"): _P.ANSWER,
    ("GET", "/fragments/approval-count"): _P.ANSWER,
    # -- a person's own upstream logins
    ("GET", "/api/servers/{name}/login/mine"): _P.OWN_LOGINS,
    ("DELETE", "/api/servers/{name}/login/mine"): _P.OWN_LOGINS,
    ("GET", "/login/upstream/{name}"): _P.OWN_LOGINS,
    ("POST", "/login/upstream/{name}"): _P.OWN_LOGINS,
    ("GET", "/login/upstream-callback"): _P.OWN_LOGINS,
    # -- how the gateway is set up
    ("GET", "/api/policy"): _P.READ_SETTINGS,
    ("GET", "/api/servers/{name}"): _P.READ_SETTINGS,
    ("GET", "/api/servers/{name}/login"): _P.READ_SETTINGS,
    ("GET", "/api/confirms"): _P.READ_SETTINGS,
    ("GET", "/api/quarantine"): _P.READ_SETTINGS,
    ("GET", "/api/pins"): _P.READ_SETTINGS,
    ("GET", "/api/pins/{server}/{tool}/history"): _P.READ_SETTINGS,
    ("GET", "/api/scan"): _P.READ_SETTINGS,
    ("GET", "/metrics"): _P.READ_SETTINGS,
    ("GET", "/changes"): _P.READ_SETTINGS,
    ("GET", "/fragments/changes"): _P.READ_SETTINGS,
    ("GET", "/pins/{server}/{tool:path}"): _P.READ_SETTINGS,
    ("GET", "/settings"): _P.OWN_PREFERENCES,
    ("GET", "/fragments/settings"): _P.READ_SETTINGS,
    ("GET", "/fragments/my-preferences"): _P.OWN_PREFERENCES,
    # -- changing what runs for everyone
    ("PATCH", "/api/tools/{name}/overrides"): _P.OPERATE,
    ("DELETE", "/api/tools/{name}/overrides"): _P.OPERATE,
    ("PUT", "/api/tools/{name}/confirm"): _P.OPERATE,
    ("PATCH", "/api/policy"): _P.OPERATE,
    ("DELETE", "/api/policy/stored"): _P.OPERATE,
    ("POST", "/api/quarantine/{name}/accept"): _P.OPERATE,
    ("POST", "/api/pins/accept"): _P.OPERATE,
    ("POST", "/api/pins/block"): _P.OPERATE,
    ("POST", "/api/servers"): _P.OPERATE,
    # The Add server form's registry search: it changes nothing, but it sends the gateway to the network,
    # for those who may add what it finds.
    ("GET", "/fragments/registry"): _P.OPERATE,
    ("PUT", "/api/servers/{name}"): _P.OPERATE,
    ("DELETE", "/api/servers/{name}"): _P.OPERATE,
    ("POST", "/api/servers/{name}/enable"): _P.OPERATE,
    ("POST", "/api/servers/{name}/disable"): _P.OPERATE,
    ("POST", "/api/servers/{name}/trust"): _P.OPERATE,
    ("POST", "/api/servers/{name}/reset"): _P.OPERATE,
    ("POST", "/api/servers/{name}/login"): _P.OPERATE,
    ("DELETE", "/api/servers/{name}/login"): _P.OPERATE,
}
"""Every route of the app: (method, path template as FastAPI declares it) → what it needs."""


def recorded_as(principal: Principal) -> str:
    """How a change `principal` makes is recorded as made by: their name (`api-token` for the API token), as
    approvals record who answered; their key (`Principal.key`) is what they own things under."""
    return principal.name


@dataclass(frozen=True)
class Access:
    """Who made a request and what their role lets them do (what `check` found).

    Attributes:
        principal: who it is: a person, `api-token`, or `local` (a gateway without a token or people);
            None when nothing proved who it is (an open route's anonymous visitor).
        role: their role on the management plane; None with no principal.
    """

    principal: Principal | None
    role: Role | None

    def may(self, permission: Permission) -> bool:
        """Whether the role grants `permission`."""
        return self.role is not None and permission in self.role.permissions

    @property
    def permissions(self) -> frozenset[Permission]:
        """Everything the role grants (nothing without one)."""
        return self.role.permissions if self.role is not None else frozenset()

    @property
    def owner(self) -> str | None:
        """Whose sessions and calls a query may return: None for everyone's (`history:all`), else the key
        (`Principal.key`, recorded as `user_key`) of the caller's own."""
        if self.may(Permission.ALL_HISTORY):
            return None
        # A caller without history:all sees only what they made, by who they are (their key, never a name
        # another account could have); with nobody proven, "" matches no record.
        return self.principal.key if self.principal is not None else ""

    @property
    def actor(self) -> str:
        """How a change this request makes is recorded: the person, `api-token`, or `local`."""
        return recorded_as(self.principal) if self.principal is not None else LOCAL.name


class Refused(HTTPException):
    """A request the caller's role does not permit: 403, naming the permission."""


def refuse(access: Access, permission: Permission, what: str) -> Refused:
    """The 403 for `access` wanting `permission` to do `what`."""
    who = access.principal.name if access.principal is not None else "this caller"
    role = f"a {access.role.value}" if access.role is not None else "not signed in"
    hint = {
        Permission.COMMANDS: "only the config file or the API token may run a program or read the environment",
        Permission.OPERATE: "identity.admins names who operates the gateway",
        Permission.READ_SETTINGS: "identity.admins and identity.auditors name who reads it",
        Permission.ALL_HISTORY: "identity.auditors names who reads everyone's",
    }.get(permission)
    detail = f"{what} needs permission {permission.value}; {who} is {role}"
    return Refused(403, f"{detail} ({hint})" if hint else detail)


_RUNS_HERE = ("command", "args", "env", "cwd")
"""The keys of an `mcpServers` entry that make the gateway run a program as its own user."""


def entry_refusal(access: Access, entry: Mapping[str, Any]) -> Refused | None:
    """The 403 for a server entry only the operator may write; None when `access` may write it.

    A `command` (with its `args`, `env`, `cwd`) runs as the gateway's user, and
    `${VAR}` reads the gateway's environment (its secrets, into a URL or header
    of the person's choosing): both are the config file's and the API token's
    (`servers:command`), never a person's, an admin's included.
    """
    if access.may(Permission.COMMANDS):
        return None
    given = [key for key in _RUNS_HERE if key in entry]
    if given:
        keys = ", ".join(given)
        return refuse(access, Permission.COMMANDS, f"a server entry with {keys} (a program run as the gateway's user)")
    if _names_environment(entry):
        return refuse(access, Permission.COMMANDS, "a server entry naming the gateway's environment (${VAR})")
    return None


def _names_environment(value: Any) -> bool:
    if isinstance(value, str):
        return "${" in value
    if isinstance(value, Mapping):
        return any(_names_environment(k) or _names_environment(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_names_environment(v) for v in value)
    return False


def access_of(request: Request) -> Access:
    """Who made the request and their role, from the principal the identity check verified.

    Without people (no `identity` section), whoever the security check let in
    is the operator: `api-token` when the gateway has a token, else `local`.
    """
    found = getattr(request.state, "access", None)
    if isinstance(found, Access):
        return found
    roles: Roles = getattr(request.app.state, "roles", None) or Roles()
    principal = principal_of(request.scope)
    if not getattr(request.state, "authenticated", False):
        principal = None
    elif principal is None and not roles.people:
        principal = API_TOKEN if request.app.state.token is not None else LOCAL
    access = Access(principal, role_of(principal, roles) if principal is not None else None)
    request.state.access = access
    return access


AccessDep = Annotated[Access, Depends(access_of)]
"""An endpoint parameter receiving the request's `Access`."""


async def check(request: Request, access: AccessDep) -> None:
    """Refuse a request to a route its caller's role does not permit (the app runs this before every route).

    Raises:
        Refused: the route needs a permission the role lacks, or is not in `ROUTES`.
    """
    route = request.scope.get("route")
    template = getattr(route, "path", None)
    method = "GET" if request.method == "HEAD" else request.method
    needed = ROUTES.get((method, str(template)))
    if needed is None:
        raise Refused(403, f"{method} {template} declares no permission, so it is refused")
    if needed is OPEN:
        return
    if access.role is None:
        raise Refused(403, f"{method} {template} is for a signed-in caller")
    if needed is SIGNED_IN or (isinstance(needed, Permission) and access.may(needed)):
        return
    assert isinstance(needed, Permission)
    raise refuse(access, needed, f"{method} {template}")
