"""Who may operate the gateway: the management plane's roles and what each may do.

Pure. Being signed in makes a person a caller, not an operator: changing the
gateway is an admin's act. A request to the REST API or the dashboard is made
by a `Principal`; `role_of` gives its role from the people `identity.admins`
and `identity.auditors` name, and `Role.permissions` what that role may do.
The web layer's permission table (`hintgate.web.permissions`) says which
permission each route needs, and refuses the rest with 403.

The roles, least privilege first:

- member: a signed-in person nobody named. Lists the tools their rules leave
  them, sees and ends their own sessions, sees their own calls, answers the
  approvals whose approvers name them, logs in and out of the servers each
  person logs in to, keeps their own preferences (which only ever make their
  own calls ask more).
- auditor: a member who also reads every session and call and the gateway's
  settings; changes nothing.
- admin: changes anything a person may: the policy, the mode and what runs
  for everyone, overrides, confirmations, servers reached by URL, trust, pins
  and quarantine, the shared upstream logins.
- operator: the API token, and whoever reaches a gateway that knows no people
  (no `identity` section): an admin that may also add or edit a server's
  `command`, `args`, `env` and `cwd`, which run as the gateway's user, and
  entries that read the gateway's environment (`${VAR}`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from hintgate.policy.principal import Approvers, Principal, PrincipalKind

__all__ = ["People", "Permission", "Role", "Roles", "answer_refusal", "names_anyone", "role_of"]


class Permission(StrEnum):
    """One thing a role may do on the management plane; its value is what a refusal names."""

    TOOLS = "tools:read"
    """List tools and servers, each person's tools as their rules leave them."""
    OWN_HISTORY = "history:own"
    """See and end one's own sessions, see one's own calls."""
    ALL_HISTORY = "history:all"
    """See every person's sessions and calls, arguments and results included."""
    READ_SETTINGS = "settings:read"
    """Read how the gateway is set up: the policy, servers' definitions, pins, confirmations, metrics."""
    ANSWER = "approvals:answer"
    """Answer the approvals one is an approver of (an admin: those that name no approvers too)."""
    OWN_LOGINS = "logins:own"
    """Log in and out of the servers each person logs in to, as oneself."""
    OWN_PREFERENCES = "preferences:own"
    """Keep one's own preferences, which only ever make one's own calls ask more."""
    OPERATE = "gateway:operate"
    """Change what runs for everyone: policy, mode, overrides, confirmations, servers, trust, pins, shared logins."""
    COMMANDS = "servers:command"
    """Add or edit a server's command, args, env or cwd (a program run as the gateway's user), or an entry that
    refers to the gateway's environment (`${VAR}`)."""


_MEMBER = frozenset(
    {
        Permission.TOOLS,
        Permission.OWN_HISTORY,
        Permission.ANSWER,
        Permission.OWN_LOGINS,
        Permission.OWN_PREFERENCES,
    }
)
_AUDITOR = _MEMBER | {Permission.ALL_HISTORY, Permission.READ_SETTINGS}
_ADMIN = _AUDITOR | {Permission.OPERATE}
_OPERATOR = _ADMIN | {Permission.COMMANDS}


class Role(StrEnum):
    """A principal's role on the management plane."""

    MEMBER = "member"
    AUDITOR = "auditor"
    ADMIN = "admin"
    OPERATOR = "operator"

    @property
    def permissions(self) -> frozenset[Permission]:
        """What this role may do."""
        return _GRANTS[self]


_GRANTS = {Role.MEMBER: _MEMBER, Role.AUDITOR: _AUDITOR, Role.ADMIN: _ADMIN, Role.OPERATOR: _OPERATOR}


@dataclass(frozen=True)
class People:
    """Some people, by name and by group, as `identity.admins` or `identity.auditors` names them.

    Names are matched exactly (case ignored), never as globs: a role that
    operates the gateway is given to people one by one or by a group.

    Attributes:
        users: people's names as the gateway records them (`Principal.name`: an email, a username).
        groups: groups the identity provider lists in the token's groups claim.
    """

    users: tuple[str, ...] = ()
    groups: frozenset[str] = frozenset()

    def includes(self, principal: Principal) -> bool:
        """Whether `principal` is a person this names (a person the identity provider vouched for)."""
        if principal.kind is not PrincipalKind.USER:
            return False
        name = principal.name.casefold()
        return bool(principal.groups & self.groups) or any(name == user.casefold() for user in self.users)

    def describe(self) -> str:
        """`group ops or user alice@example.com`; `nobody` when empty."""
        named = [f"group {g}" for g in sorted(self.groups)] + [f"user {u}" for u in self.users]
        return " or ".join(named) or "nobody"

    @classmethod
    def of(cls, users: Iterable[str] = (), groups: Iterable[str] = ()) -> People:
        """People from names and groups."""
        return cls(tuple(users), frozenset(groups))


@dataclass(frozen=True)
class Roles:
    """Whom the config names for each role.

    Attributes:
        people: whether the gateway knows people (an `identity` section); without, whoever
            reaches the management plane (with the API token, or on a loopback bind without one)
            is its operator.
        admins: `identity.admins`: the people who operate the gateway besides the API token.
        auditors: `identity.auditors`: the people who read every session and call.
    """

    people: bool = False
    admins: People = field(default_factory=People)
    auditors: People = field(default_factory=People)


def role_of(principal: Principal | None, roles: Roles) -> Role | None:
    """The role of whoever made a request; None when nothing proved who it is (refused everywhere).

    The API token, and anyone when the gateway knows no people, is the
    operator; a person is an admin or auditor when the config names them,
    else a member. The machine's user at the database (`operator:NAME`) has no
    place on the web: a member at most.
    """
    if not roles.people:
        return Role.OPERATOR
    if principal is None:
        return None
    if principal.kind in (PrincipalKind.TOKEN, PrincipalKind.LOCAL):
        return Role.OPERATOR
    if roles.admins.includes(principal):
        return Role.ADMIN
    if roles.auditors.includes(principal):
        return Role.AUDITOR
    return Role.MEMBER


def names_anyone(approvers: Approvers | None) -> bool:
    """Whether approvers name people or groups (else the call is the operators' to answer)."""
    return approvers is not None and bool(approvers.users or approvers.groups)


def answer_refusal(
    role: Role,
    principal: Principal | None,
    approvers: Approvers | None,
    caller: str | None,
    caller_name: str | None = None,
) -> str | None:
    """Why `principal` (of `role`) may not answer a call that waits for `approvers`; None if they may.

    `caller` is the key of the person who made the call (`Principal.key`); `caller_name` stands in for it
    for a call recorded before people had keys (`Approvers.refusal`).

    The approvers decide first (`Approvers.refusal`: named people only, and
    never the caller unless `selfApproval`). A call whose approvers name
    nobody is the operators' to answer: an admin's or the API token's, not a
    member's or an auditor's, who answer only what names them.
    """
    named = names_anyone(approvers)
    if principal is not None:
        refusal = (approvers or Approvers()).refusal(principal, caller, caller_name)
        if refusal is not None:
            return refusal
    if named or Permission.OPERATE in role.permissions:
        return None
    who = principal.name if principal is not None else "this caller"
    return (
        f"this call names no approvers, so an admin answers it; {who} is a {role.value} "
        f"(permission {Permission.OPERATE.value})"
    )
