"""Who makes a request: a person from the identity provider, the API token, or the machine's own user.

Policy rules name people and groups (`who`), approvals record who answered,
and sessions and calls record who made them; all of them read a `Principal`.
The web layer makes one from a verified bearer token; without an `identity`
section every request is the machine's user (`LOCAL`), as before.

A person has two names. Their `key` says who they are: the issuer and an
identifier it never gives anyone else (`sub`, or the configured
`identity.personClaim`), so whatever owns something of theirs (a session,
their upstream logins, an approval they wait for) is theirs alone. Their
`name` is how people and rules call them: a verified email, a username that
cannot pass for an email, or their subject; two accounts may in principle
share one, so nothing is keyed by it. The API token, the machine's user and
the database's reader are their own keys (`RESERVED_NAMES`), and no person's
name may be one of them.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = [
    "API_TOKEN",
    "LOCAL",
    "OPERATOR_PREFIX",
    "RESERVED_NAMES",
    "SCOPE_KEY",
    "Approvers",
    "Principal",
    "PrincipalKind",
    "principal_of",
    "reserved_name",
]

SCOPE_KEY = "hintgate.principal"
"""The ASGI scope key where the web layer leaves the `Principal` an HTTP request was verified as."""

RESERVED_NAMES = frozenset({"api-token", "local"})
"""The names of the API token and the machine's user: never a person's."""
OPERATOR_PREFIX = "operator:"
"""How the machine's user at the database is named (`operator:NAME`): never the start of a person's name."""


def reserved_name(name: str) -> bool:
    """Whether `name` is one a person may not have: the API token's, the machine's user's, `operator:...`."""
    folded = name.strip().casefold()
    return folded in RESERVED_NAMES or folded.startswith(OPERATOR_PREFIX)


class PrincipalKind(StrEnum):
    """How a principal proved who it is."""

    USER = "user"
    """A person, by a token the identity provider signed."""
    TOKEN = "token"
    """Automation or the operator, by the gateway's static API token."""
    LOCAL = "local"
    """The machine's user: no identity provider is configured."""
    OPERATOR = "operator"
    """The machine's user at the database (`hintgate approvals --db`) beside people nobody vouched for:
    never one of the people an approval's approvers name."""


@dataclass(frozen=True)
class Principal:
    """One person or program as the gateway knows it.

    Attributes:
        name: how people and rules call it: a person's verified email, else a username, else subject
            (`hintgate.web.identity`); `api-token` for the API token, `local` for the machine's user.
            Shown and matched by rules, never a key.
        kind: how it proved who it is.
        groups: the groups the identity provider lists for a person (empty otherwise).
        subject: the token's `sub`.
        key: who it is, for everything owned by it (sessions, upstream logins, approvals): a person's
            `ISSUER#CLAIM=VALUE` (`sub`, or `identity.personClaim`); by default `name`, which is the
            key of the API token, the machine's user and `operator:NAME`.
    """

    name: str
    kind: PrincipalKind
    groups: frozenset[str] = field(default_factory=frozenset)
    subject: str | None = None
    key: str = ""

    def __post_init__(self) -> None:
        if not self.key:
            object.__setattr__(self, "key", self.name)

    def __str__(self) -> str:
        return self.name


LOCAL = Principal("local", PrincipalKind.LOCAL)
"""The machine's user, when the gateway knows no users."""

API_TOKEN = Principal("api-token", PrincipalKind.TOKEN)
"""Whoever holds the static API token: automation and the operator."""


def principal_of(scope: Mapping[str, Any] | None) -> Principal | None:
    """The principal an HTTP request's scope was verified as; None when nothing proved who it is."""
    found = scope.get(SCOPE_KEY) if scope is not None else None
    return found if isinstance(found, Principal) else None


@dataclass(frozen=True)
class Approvers:
    """Who may answer a call that asks: some people or groups (anyone, when none is named), and whether
    the person who made the call may answer it.

    Without people (a gateway with no `identity` section) nothing here applies: whoever reaches the
    dashboard, the REST API or the client answers, as before.
    """

    users: tuple[str, ...] = ()
    groups: frozenset[str] = frozenset()
    self_approval: bool | None = None
    """Whether the caller may answer their own call; None: not said (no, unless the global approvers say so)."""

    def over(self, base: Approvers | None) -> Approvers:
        """These approvers, with what they leave unsaid taken from `base` (the global `policy.approvers`).

        A rule naming people replaces the global people; a rule saying `selfApproval` replaces the
        global `selfApproval`; a rule saying only one of them keeps the other from `base`.
        """
        if base is None:
            return self
        named = bool(self.users or self.groups)
        return Approvers(
            self.users if named else base.users,
            self.groups if named else base.groups,
            base.self_approval if self.self_approval is None else self.self_approval,
        )

    def refusal(self, answerer: Principal | None, caller: str | None, caller_name: str | None = None) -> str | None:
        """Why `answerer` may not answer a call made by the person whose key is `caller`; None when they may.

        `caller_name` stands in for the key of a call recorded before people had keys (matched by name).
        """
        if answerer is None or answerer.kind is PrincipalKind.LOCAL:
            return None
        own = answerer.key == caller if caller is not None else caller_name is not None and answerer.name == caller_name
        if own and not self.self_approval:
            return f"{answerer.name} made this call and may not approve it (selfApproval: true allows it)"
        if not self.users and not self.groups:
            return None
        if answerer.kind is PrincipalKind.OPERATOR:
            # A user glob ("*") must not take the database's reader for a person the issuer proved.
            return f"only {self.describe()} may answer this call; {answerer.name} is not a signed-in person"
        name = answerer.name.casefold()
        if answerer.groups & self.groups or any(fnmatch.fnmatchcase(name, u.casefold()) for u in self.users):
            return None
        return f"only {self.describe()} may answer this call, not {answerer.name}"

    def describe(self) -> str:
        """`group dba or user ops@example.com`."""
        named = [f"group {g}" for g in sorted(self.groups)] + [f"user {u}" for u in self.users]
        return " or ".join(named) or "anyone"

    def to_json(self) -> dict[str, Any]:
        """What the approvals table keeps."""
        return {"users": list(self.users), "groups": sorted(self.groups), "self": bool(self.self_approval)}

    @classmethod
    def from_json(cls, data: Any) -> Approvers | None:
        """The approvers the approvals table kept (None for a row without them)."""
        if not isinstance(data, Mapping):
            return None
        return cls(
            tuple(str(u) for u in data.get("users") or ()),
            frozenset(str(g) for g in data.get("groups") or ()),
            bool(data.get("self")),
        )
