"""How far a source's declared hints are believed, and the default that fits where the source runs.

Pure. The MCP specification says a client must treat tool annotations as
untrusted unless they come from a trusted server. Which servers are trusted
is the operator's call; when the config does not say, the default follows
from where the server runs:

- A server launched from a local command (stdio) is a program the operator
  configured and the gateway started with the operator's own rights. If it
  wanted to do harm it would need no tool call, so a lying hint gains it
  nothing; what goes wrong with such servers in practice is a *mistaken*
  hint, which evidence catches. Its level is `local`: a declared hint counts
  unless strong evidence (inference's strong rules) says the tool is riskier,
  and then the riskier value wins.
- A server reached by URL is a service someone else runs: its hints are
  claims, `untrusted` until the operator trusts it. A declared hint may only
  make a tool look riskier.
- An OpenAPI document's operations carry HTTP semantics: every operation has a
  method, which is strong evidence the document cannot change without
  breaking HTTP (RFC 9110: GET, HEAD and OPTIONS are safe; PUT and DELETE
  idempotent). They are `local`: a declared `x-mcp-annotations` value counts
  unless the method (or other strong evidence) contradicts it.
- Python tools are the operator's own code, run inside the gateway: their
  hints are the operator's word, `trusted`.
"""

from __future__ import annotations

import enum

__all__ = ["Trust", "TrustFrom", "trust_by_origin", "trust_note"]


class Trust(enum.StrEnum):
    """How far a server's declared hints are believed, from most to least."""

    TRUSTED = "trusted"
    """Declared hints count as declared."""
    LOCAL = "local"
    """Declared hints count unless strong evidence says the tool is riskier; then the riskier value wins."""
    UNTRUSTED = "untrusted"
    """Declared hints count only when they make the tool look riskier (MCP: untrusted unless trusted)."""

    @property
    def believed(self) -> bool:
        """Whether a declared hint that stands is the server's word the policy acts on (trusted or local)."""
        return self is not Trust.UNTRUSTED

    @property
    def meaning(self) -> str:
        """One phrase for people: what the level does to the server's declared hints."""
        return _MEANING[self]

    @property
    def set_aside(self) -> str:
        """Why a declared hint of a server at this level was set aside, in a few words ("not trusted")."""
        return _SET_ASIDE[self]


_MEANING = {
    Trust.TRUSTED: "its declared hints count",
    Trust.LOCAL: "its declared hints count unless strong evidence says a tool is riskier",
    Trust.UNTRUSTED: "its declared hints only count when they make a tool look riskier",
}


_SET_ASIDE = {
    Trust.TRUSTED: "set aside",  # never: a trusted server's declarations count as declared
    Trust.LOCAL: "contradicted by strong evidence",
    Trust.UNTRUSTED: "not trusted",
}


class TrustFrom(enum.StrEnum):
    """Where a server's trust level came from."""

    CONFIG = "config"
    """The config file's `trust` key."""
    ORIGIN = "origin"
    """No `trust` key: the default for where the server runs (`trust_by_origin`)."""
    RUNTIME = "runtime"
    """Changed while the gateway runs (`hintgate trust`, the dashboard, the REST API)."""

    @property
    def phrase(self) -> str:
        """Where the level came from, for people: "set in the config file", ..."""
        return _FROM_PHRASE[self]


_FROM_PHRASE = {
    TrustFrom.CONFIG: "set in the config file",
    TrustFrom.ORIGIN: "the default for where it runs",
    TrustFrom.RUNTIME: "changed while the gateway runs",
}


def trust_by_origin(kind: str, *, remote: bool) -> Trust:
    """The trust a source gets when nothing says otherwise, from where it runs.

    Args:
        kind: the source's type: "mcp", "openapi" or "python" (anything else is treated as remote).
        remote: whether it is reached by URL (an MCP server over HTTP); False for one launched from a command.
    """
    if kind == "python":
        return Trust.TRUSTED
    if kind == "openapi":
        return Trust.LOCAL
    if kind == "mcp" and not remote:
        return Trust.LOCAL
    return Trust.UNTRUSTED


_EFFECT = {
    Trust.LOCAL: "a declared hint counts unless strong evidence says the tool is riskier",
    Trust.UNTRUSTED: (
        "a declared hint counts only when it makes the tool look riskier, and a tool that only reads on the "
        "server's own word asks, as do its writes in accept-edits mode"
    ),
}


def trust_note(server: str, trust: Trust, trust_from: TrustFrom) -> str | None:
    """One line on a server that is not trusted: its level, where it came from, what it does, how to change it.

    None for a trusted server: its hints count as declared, there is nothing to say.
    """
    effect = _EFFECT.get(trust)
    if effect is None:
        return None
    return (
        f"{server}: {trust.value} ({trust_from.phrase}): {effect}; "
        f"to believe its hints as declared: hintgate trust {server}"
    )
