"""The state a 2026-07-28 approval question carries, and the one-time use of its answer.

Pure. On the 2026-07-28 protocol a question goes out in an `InputRequiredResult`
and the answer comes back on a new request, echoing the question's
`requestState`. The transport seals that state (encrypted and authenticated,
bound to the tool and its arguments); what is inside is minted here: which
session asked, a one-time nonce, and the moment the question expires
(`approvalTimeout` after it was asked). `ApprovalSeals.redeem` accepts an
answer once, from the session that was asked, before its deadline; a replayed
answer, one from another session or a late one is refused.

The record of used nonces is kept in memory, per gateway process: replicas
that share `HINTGATE_STATE_KEY` each accept a given answer once.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["STATE_KIND", "ApprovalSeals", "Redeemed"]

STATE_KIND = "hintgate-approval/v2"
"""What hintgate's approval state says it is, so other states are told apart."""


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


class ApprovalSeals:
    """Mints approval states and accepts each answer once.

    Args:
        remember: most used nonces kept; the oldest go first (they are past
            their deadline long before this many are used in a busy gateway).
    """

    def __init__(self, *, remember: int = 100_000) -> None:
        self._used: dict[str, float] = {}
        self._remember = remember

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

    def redeem(self, state: Any, session_id: str | None, *, now: float) -> Redeemed:
        """Accept or refuse an answer that echoes `state`; an accepted nonce is used up."""
        claims = _parsed(state)
        if claims is None:
            return Redeemed(False, refusal="the answer does not echo a question hintgate asked")
        self._forget_expired(now)
        nonce, deadline = claims["nonce"], claims["deadline"]
        if nonce in self._used:
            return Redeemed(False, refusal="this answer was already used: an approval runs one call, once")
        if not now < deadline:
            return Redeemed(False, late=True, refusal="the answer came after the question expired")
        if claims["session"] != session_id:
            return Redeemed(False, refusal="the answer came from another session than the one asked")
        self._used[nonce] = deadline
        while len(self._used) > self._remember:
            del self._used[next(iter(self._used))]
        return Redeemed(True)

    def _forget_expired(self, now: float) -> None:
        # A nonce past its deadline is refused as late anyway; keep the record small.
        for nonce, deadline in list(self._used.items()):
            if deadline > now:
                break
            del self._used[nonce]


def _parsed(state: Any) -> Mapping[str, Any] | None:
    if not isinstance(state, str) or not state.startswith("{"):
        return None
    try:
        claims = json.loads(state)
    except ValueError:
        return None
    if not isinstance(claims, dict) or claims.get("kind") != STATE_KIND:
        return None
    if not isinstance(claims.get("nonce"), str) or not isinstance(claims.get("deadline"), int | float):
        return None
    if claims.get("session") is not None and not isinstance(claims["session"], str):
        return None
    return claims
