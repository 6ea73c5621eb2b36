"""One-time sign-in links: a URL printed at start that signs one browser in to the dashboard, once.

As notebook servers do, `hintgate serve` prints a dashboard link carrying a
code; opening it trades the code for the dashboard's session cookie, and the
code is spent: the link in a terminal's scrollback, a shell history or a
browser's history signs nobody in again. Each start issues a new one; the API
token itself never appears in a URL.
"""

from __future__ import annotations

import hmac
import secrets

__all__ = ["SignInLinks"]


class SignInLinks:
    """The one-time sign-in codes a gateway issued and that are not spent yet.

    Args:
        kept: at most this many unspent codes are kept; issuing more forgets the oldest.
    """

    def __init__(self, kept: int = 16) -> None:
        self._codes: list[str] = []
        self._kept = kept

    def issue(self) -> str:
        """A new code, good for one sign-in."""
        code = secrets.token_urlsafe(32)
        self._codes.append(code)
        del self._codes[: -self._kept]
        return code

    def redeem(self, presented: str) -> bool:
        """Whether `presented` is an unspent code; it is spent now (compared in constant time)."""
        if not presented:
            return False
        for code in self._codes:
            if hmac.compare_digest(code.encode(), presented.encode()):
                self._codes.remove(code)
                return True
        return False
