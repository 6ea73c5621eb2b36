"""The state a 2026-07-28 approval question carries, and the one-time use of its answer.

Pure. On the 2026-07-28 protocol a question goes out in an `InputRequiredResult`
and the answer comes back on a new request, echoing the question's
`requestState`. The transport seals that state (encrypted and authenticated,
bound to the tool and its arguments); what is inside is minted here: which
session asked, a one-time nonce, and the moment the question expires
(`approvalTimeout` after it was asked). `ApprovalSeals.redeem` accepts an
answer once, from the session that was asked, before its deadline; a replayed
answer, one from another session or a late one is refused.

A call approved in one request may still need the client's answer to
another question before it can run (a person's login page): that question's
state then carries the approval (`ApprovalSeals.carry`), bound to the exact
call (tool, a digest of its arguments), the session and the person, good once
and until a deadline, so the request that answers the login is not asked
about the same call again. `ApprovalSeals.redeem_carried` refuses a carried
approval used before, late, or presented for another call, session or person.

The record of used nonces is a `UsedNonces`: in this process by default
(`RememberedNonces`), and in the store when the gateway has one
(`hintgate.store.used_nonces`), so that replicas sharing `HINTGATE_STATE_KEY`
and a database accept a given answer once between them, not once each. A
record that cannot be read refuses the answer (it is asked again).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = [
    "CARRIED_KIND",
    "STATE_KIND",
    "ApprovalSeals",
    "Carried",
    "Redeemed",
    "RememberedNonces",
    "UsedNonces",
    "call_digest",
]

STATE_KIND = "hintgate-approval/v2"
"""What hintgate's approval state says it is, so other states are told apart."""

CARRIED_KIND = "hintgate-approved/v1"
"""What the state of a question asked after the call was approved says it is (it carries that approval)."""


@dataclass(frozen=True, slots=True)
class Redeemed:
    """What an echoed approval state turned out to be.

    Attributes:
        accepted: the answer may be used (this was its first use, in time, by its session).
        late: the question had expired when the answer came.
        refusal: why it was refused, for the client and the record; None when accepted.
    """

    accepted: bool
    late: bool = False
    refusal: str | None = None


@dataclass(frozen=True, slots=True)
class Carried:
    """An approval given in an earlier request of the same call, as its state carried it.

    Attributes:
        accepted: it holds for this call (first use, in time, same call, session and person).
        actor: who approved it (for the record of the call that runs).
        via: how they were asked (`input-required`, `queue`...).
        waited_ms: how long the call waited for them.
        refusal: why it does not hold; None when accepted.
    """

    accepted: bool
    actor: str = ""
    via: str | None = None
    waited_ms: float | None = None
    refusal: str | None = None


def call_digest(tool: str, arguments: Mapping[str, Any] | None) -> str:
    """A digest naming one call exactly: the tool and its arguments (key order aside)."""
    canonical = json.dumps([tool, dict(arguments or {})], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


class UsedNonces(Protocol):
    """Where the nonces of answers already used are kept (`hintgate.store.used_nonces.StoredNonces`)."""

    async def use(self, nonce: str, deadline: float, now: float) -> bool:
        """Record `nonce` as used until `deadline`; True when nobody used it before.

        Raises:
            HintgateError: the record cannot be read or written (the answer is then refused).
        """


class RememberedNonces:
    """Used nonces kept in this process.

    Args:
        remember: most used nonces kept; the oldest go first (they are past
            their deadline long before this many are used in a busy gateway).
    """

    def __init__(self, *, remember: int = 100_000) -> None:
        self._used: dict[str, float] = {}
        self._remember = remember

    async def use(self, nonce: str, deadline: float, now: float) -> bool:
        """Record `nonce` as used until `deadline`; True when it was not used before."""
        # A nonce past its deadline is refused as late anyway; keep the record small.
        for old, until in list(self._used.items()):
            if until > now:
                break
            del self._used[old]
        if nonce in self._used:
            return False
        self._used[nonce] = deadline
        while len(self._used) > self._remember:
            del self._used[next(iter(self._used))]
        return True


class ApprovalSeals:
    """Mints approval states and accepts each answer once.

    Args:
        used: where used nonces are kept (by default in this process).
    """

    def __init__(self, used: UsedNonces | None = None) -> None:
        self.used: UsedNonces = used if used is not None else RememberedNonces()

    def mint(self, session_id: str | None, *, timeout: float, now: float) -> str:
        """The plaintext state for a new question, asked now and open for `timeout` seconds."""
        return json.dumps(
            {"kind": STATE_KIND, "nonce": secrets.token_urlsafe(16), "session": session_id, "deadline": now + timeout},
            separators=(",", ":"),
        )

    @staticmethod
    def is_ours(state: Any) -> bool:
        """Whether an echoed plaintext state is one `mint` made (the transport already checked its seal)."""
        return _parsed(state) is not None

    async def redeem(self, state: Any, session_id: str | None, *, now: float) -> Redeemed:
        """Accept or refuse an answer that echoes `state`; an accepted nonce is used up."""
        claims = _parsed(state)
        if claims is None:
            return Redeemed(False, refusal="the answer does not echo a question hintgate asked")
        nonce, deadline = claims["nonce"], claims["deadline"]
        if not now < deadline:
            return Redeemed(False, late=True, refusal="the answer came after the question expired")
        if claims["session"] != session_id:
            return Redeemed(False, refusal="the answer came from another session than the one asked")
        refusal = await self._first_use(nonce, deadline, now)
        if refusal is not None:
            return Redeemed(False, refusal=refusal)
        return Redeemed(True)

    def carry(
        self,
        *,
        call: str,
        session_id: str | None,
        person: str | None,
        actor: str,
        via: str | None,
        waited_ms: float | None,
        timeout: float,
        now: float,
    ) -> str:
        """The plaintext state of a question asked after the call `call` (`call_digest`) was approved.

        The approval holds for that call only, once, in that session, for that person, for `timeout` seconds.
        """
        claims = {
            "kind": CARRIED_KIND,
            "nonce": secrets.token_urlsafe(16),
            "call": call,
            "session": session_id,
            "person": person,
            "deadline": now + timeout,
            "actor": actor,
            "via": via,
            "waited_ms": waited_ms,
        }
        return json.dumps(claims, separators=(",", ":"))

    @staticmethod
    def carries(state: Any) -> bool:
        """Whether an echoed plaintext state is one `carry` made (the transport already checked its seal)."""
        return _carried(state) is not None

    async def redeem_carried(
        self, state: Any, *, call: str, session_id: str | None, person: str | None, now: float
    ) -> Carried:
        """Accept or refuse the approval `state` carries for this call; an accepted one is used up."""
        claims = _carried(state)
        if claims is None:
            return Carried(False, refusal="the request does not carry an approval hintgate gave")
        nonce, deadline = claims["nonce"], claims["deadline"]
        if not now < deadline:
            return Carried(False, refusal="the approval it carries has expired")
        if claims["call"] != call:
            return Carried(False, refusal="the approval it carries was given for another call")
        if claims["session"] != session_id:
            return Carried(False, refusal="the approval it carries was given in another session")
        if claims["person"] != person:
            return Carried(False, refusal="the approval it carries was given for another person's call")
        refusal = await self._first_use(nonce, deadline, now)
        if refusal is not None:
            return Carried(False, refusal=refusal.replace("this answer", "this approval"))
        waited = claims.get("waited_ms")
        via = claims.get("via")
        return Carried(
            True,
            actor=str(claims.get("actor") or "client"),
            via=via if isinstance(via, str) else None,
            waited_ms=float(waited) if isinstance(waited, int | float) else None,
        )

    async def _first_use(self, nonce: str, deadline: float, now: float) -> str | None:
        """Use up `nonce`; why the answer is refused when it was used before or the record cannot tell."""
        try:
            first = await self.used.use(nonce, deadline, now)
        except Exception as exc:  # a record that cannot say "unused" must not let an answer run twice
            return f"whether this answer was already used cannot be told ({type(exc).__name__}): it is asked again"
        return None if first else "this answer was already used: an approval runs one call, once"


def _claims(state: Any, kind: str, strings: tuple[str, ...]) -> Mapping[str, Any] | None:
    """The claims of a plaintext state `mint` or `carry` wrote as `kind`: a nonce, a deadline, and each of
    `strings` a string or null; None for anything else."""
    if not isinstance(state, str) or not state.startswith("{"):
        return None
    try:
        claims = json.loads(state)
    except ValueError:
        return None
    if not isinstance(claims, dict) or claims.get("kind") != kind:
        return None
    if not isinstance(claims.get("nonce"), str) or not isinstance(claims.get("deadline"), int | float):
        return None
    if any(claims.get(key) is not None and not isinstance(claims[key], str) for key in strings):
        return None
    return claims


def _parsed(state: Any) -> Mapping[str, Any] | None:
    return _claims(state, STATE_KIND, ("session",))


def _carried(state: Any) -> Mapping[str, Any] | None:
    claims = _claims(state, CARRIED_KIND, ("session", "person"))
    return claims if claims is not None and isinstance(claims.get("call"), str) else None
