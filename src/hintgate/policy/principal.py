"""Who makes a request: a person from the identity provider, the API token, or the machine's own user.

Policy rules name people and groups (`who`), approvals record who answered,
and sessions and calls record who made them; all of them read a `Principal`.
The web layer makes one from a verified bearer token; without an `identity`
section every request is the machine's user (`LOCAL`), as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = ["API_TOKEN", "LOCAL", "SCOPE_KEY", "Principal", "PrincipalKind", "principal_of"]

SCOPE_KEY = "hintgate.principal"
"""The ASGI scope key where the web layer leaves the `Principal` an HTTP request was verified as."""


class PrincipalKind(StrEnum):
    """How a principal proved who it is."""

    USER = "user"
    """A person, by a token the identity provider signed."""
    TOKEN = "token"
    """Automation or the operator, by the gateway's static API token."""
    LOCAL = "local"
    """The machine's user: no identity provider is configured."""


@dataclass(frozen=True)
class Principal:
    """One person or program as the gateway knows it.

    Attributes:
        name: how records and rules name it: a person's email, else username, else subject;
            `api-token` for the API token, `local` for the machine's user.
        kind: how it proved who it is.
        groups: the groups the identity provider lists for a person (empty otherwise).
        subject: the token's `sub`, stable where an email may change.
    """

    name: str
    kind: PrincipalKind
    groups: frozenset[str] = field(default_factory=frozenset)
    subject: str | None = None

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
