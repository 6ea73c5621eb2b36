"""Hints from the HTTP method of an OpenAPI operation, as named profiles.

Two published tables exist and they disagree on PUT and PATCH:

- ``conservative`` (as rmcp-openapi has it; the default): PUT and PATCH are
  destructive. They overwrite fields that exist, and the MCP spec defines
  ``destructiveHint: false`` as "performs only additive updates", so an
  overwrite is destructive. It is also the cautious reading, which is what a
  gateway should assume about an API it did not write.
- ``permissive`` (as Gram has it): PUT and PATCH are not destructive, for APIs
  whose updates are known to be benign. Gram's table has no openWorld column;
  this profile sets it true like the other, because an HTTP API lies outside
  the gateway.

Both profiles set all four hints explicitly for every method they know (no
reliance on defaults); an unknown method yields no hints. Method names compare
case-insensitively. ``title`` is never inferred.

Both also hold WebDAV's methods (RFC 4918: ``PROPFIND`` reads, ``MKCOL`` creates,
``COPY``, ``MOVE``, ``PROPPATCH``, ``LOCK``, ``UNLOCK`` change what exists) and
the read-only ``REPORT`` and ``SEARCH``.

Rule ids: ``http.<method>`` in lower case (``http.get``, ``http.head``,
``http.options``, ``http.post``, ``http.put``, ``http.patch``, ``http.delete``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from hintgate.errors import ConfigError
from hintgate.hints.annotations import Hint, Inferred
from hintgate.hints.inference.rule import Effect, effect

__all__ = ["DEFAULT_PROFILE", "PROFILES", "method_hints"]

_SAFE = effect(read_only=True, destructive=False, idempotent=True, open_world=True)
_CREATE = effect(read_only=False, destructive=False, idempotent=False, open_world=True)
_REMOVE = effect(read_only=False, destructive=True, idempotent=True, open_world=True)

# WebDAV (RFC 4918) and the read-only methods of its extensions (REPORT, RFC 3253; SEARCH, RFC 5323): a
# listing reads, MKCOL makes a collection (a repeat fails), the rest change what exists (COPY and MOVE
# overwrite their destination by default, PROPPATCH sets properties, LOCK and UNLOCK change who may write).
_WEBDAV: Mapping[str, Effect] = {
    "PROPFIND": _SAFE,
    "REPORT": _SAFE,
    "SEARCH": _SAFE,
    "MKCOL": effect(read_only=False, destructive=False, idempotent=True, open_world=True),
    "COPY": _REMOVE,
    "MOVE": _REMOVE,
    "PROPPATCH": _REMOVE,
    "LOCK": effect(read_only=False, destructive=True, idempotent=False, open_world=True),
    "UNLOCK": _REMOVE,
}
_CONSERVATIVE: Mapping[str, Effect] = {
    "GET": _SAFE,
    "HEAD": _SAFE,
    "OPTIONS": _SAFE,
    "POST": _CREATE,
    "PUT": effect(read_only=False, destructive=True, idempotent=True, open_world=True),
    "PATCH": effect(read_only=False, destructive=True, idempotent=False, open_world=True),
    "DELETE": _REMOVE,
    **_WEBDAV,
}

# The profiles disagree on PUT and PATCH only (an existing key keeps its place, so the order is the same).
_PERMISSIVE: Mapping[str, Effect] = {
    **_CONSERVATIVE,
    "PUT": effect(read_only=False, destructive=False, idempotent=True, open_world=True),
    "PATCH": effect(read_only=False, destructive=False, idempotent=False, open_world=True),
}

PROFILES: Mapping[str, Mapping[str, Effect]] = MappingProxyType(
    {"conservative": _CONSERVATIVE, "permissive": _PERMISSIVE}
)
"""HTTP method tables by profile name: method (upper case) to the four hints."""

DEFAULT_PROFILE = "conservative"
"""The profile used when none is named: ``conservative``, destructive PUT and PATCH."""


def method_hints(method: str, profile: str | None = None) -> dict[Hint, Inferred]:
    """The hints an HTTP method implies under a profile.

    Args:
        method: the operation's HTTP method, any case.
        profile: a key of `PROFILES`; `None` means `DEFAULT_PROFILE`.

    Returns:
        All four hints for a known method, each with rule id ``http.<method>``;
        an empty dict for an unknown method.

    Raises:
        ConfigError: when `profile` is not a known profile name.
    """
    table = PROFILES.get(profile or DEFAULT_PROFILE)
    if table is None:
        known = ", ".join(sorted(PROFILES))
        raise ConfigError(f"unknown HTTP method profile {profile!r}; known profiles: {known}")
    values = table.get(method.strip().upper())
    if values is None:
        return {}
    rule = f"http.{method.strip().lower()}"
    return {hint: Inferred(value, rule) for hint, value in values.items()}
