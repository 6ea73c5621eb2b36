"""A policy for the model written as settings: the user's confirmation switched off beside what the user is told.

Pure. Per the MCP spec a client should ask the user before a call that acts, and what the model tells its user
follows from the call's data. A block of settings (JSON, YAML, `key: value` lines) can say in keys what a sentence
would: a key that names the user's confirmation or the asking of the user (`confirmation_required`,
`user_confirmation`, `confirm_with_user`, `ask_user`, `user_prompt`) set to a value that turns it off (`false`,
`"skip"`, `"not required"`, `"implicit"`, `"suppress"`), beside a key that sets the words the user is told (`say`,
`say_to_user`, `user_facing_summary`, `user_message_template`: a wording of two words or more) or that keeps
something from them (`show_fee: false`, `report_cost: "never"`, `log_to_user: false`, `disclosure: "none"`). Both
together are the call made without the user and reported as the text chose, whatever it did.

One of them alone is honest: an API's own field (`"confirm": false` for a preview, `"confirmation_required": false`
in a payment's record), a message for the user in an error (`"user_message": "Session expired"`), a flag that hides a
column. In a tool's result only a key that names the user's own asking counts as the confirmation (`ask_user`,
`user_confirmation`, `confirm_with_user`): an API's record there may carry a `confirmation_required` of its own.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from hintgate.scan.deferred import compiled
from hintgate.scan.spans import Span

__all__ = ["MAY_SET", "set_off", "set_off_in_result"]

# Every gap is bounded (`\w{0,30}` for a key's other words): a long word is read in time linear in it.
# A key's end and its value's start: `"key": "`, `key: `, `key=`.
_IS = r"[\"']?\s*[:=]\s*[\"']?"
# What turns the confirmation off as a key's value.
_OFF = (
    r"(?:false|no|none|never|skip(?:ped)?|suppress(?:ed)?|implicit|not[\s_-]*(?:required|needed)|off|disabled|"
    r"pre[\s_-]?approved)\b"
)
# A key that names the asking of the user: `ask_user`, `user_confirmation`, `confirm_with_user`, `user_prompt`.
_USER_ASKED = r"\b(?:ask_(?:the_)?user|prompt_(?:the_)?user|user_(?:confirmation|prompt|approval)|confirm_with_user)"
# ... or, in a definition, any key of the confirmation but the bare flag of an API (`confirm`, `confirmed`):
# `confirmation_required`, `confirmation_policy`, `confirm_before_render`.
_CONFIRMING = r"|\b(?!confirm(?:ed)?\b)\w{0,30}confirm\w{0,30}"
_OFF_IN_RESULT = compiled(_USER_ASKED + _IS + _OFF, re.IGNORECASE)
_OFF_IN_DEFINITION = compiled(r"(?:" + _USER_ASKED + _CONFIRMING + r")" + _IS + _OFF, re.IGNORECASE)
# A key that sets the words the user is told, with a wording of two words or more as its value.
_TOLD = compiled(
    r"\b\w{0,30}(?:say|tell|reply|answer|message|summary|wording|template|display_text)\w{0,30}[\"']?\s*[:=]\s*[\"“']"
    r"[^\"”'\n]{0,40}?\w[\s,]+\w",
    re.IGNORECASE,
)
# A key that keeps something from the user: shown, reported, logged, disclosed, mentioned never.
_HIDDEN = compiled(
    r"\b(?:show|report|display|log|disclos|mention|notify|tell)\w{0,30}" + _IS + r"(?:false|never|none|no|off)\b",
    re.IGNORECASE,
)
# How far from the confirmation switched off the other key is looked for: one block of settings.
_BLOCK = 400
MAY_SET = compiled(
    r"ask_(?:the_)?user|prompt_(?:the_)?user|user_(?:confirmation|prompt|approval)|confirm", re.IGNORECASE
)
"""The words `set_off` cannot be without, as literal words: the keys' own pattern tried at every word of a long text
would cost it more than the rest of its reading."""


_MOST = 64
"""The most blocks read in one text: a text of thousands of them is flagged by its first, and each one found costs the
redaction a reading of its clause."""


def set_off(text: str, *, result: bool = False) -> Iterator[Span]:
    """The blocks of settings in `text` (a definition's, or a tool's `result`) that switch the user's confirmation off
    and set what the user is told or kept from: from the confirmation's key to the end of the other key's match (the
    first `_MOST` of them).

    The other keys are found once over the text, each block's nearest looked up by bisection, so a text dense with
    switched-off confirmations is read in linear time, not once more for each."""
    switch = _OFF_IN_RESULT if result else _OFF_IN_DEFINITION
    done, found = -1, 0
    others: list[tuple[int, int]] | None = None
    for off in switch.finditer(text):
        if off.start() < done:
            continue
        if others is None:
            others = sorted({(m.start(), m.end()) for pattern in (_TOLD, _HIDDEN) for m in pattern.finditer(text)})
        lo, hi = max(0, off.start() - _BLOCK), min(len(text), off.end() + _BLOCK)
        at = bisect.bisect_left(others, (lo, -1))
        while at < len(others) and others[at][0] < hi and others[at][1] > hi:
            at += 1
        if at == len(others) or others[at][0] >= hi:
            continue
        other_start, other_end = others[at]
        start, end = min(off.start(), other_start), max(off.end(), other_end)
        done = end
        yield Span(start, end, "switches the user's confirmation off and sets what the user is told")
        found += 1
        if found == _MOST:
            return


def set_off_in_result(text: str) -> Iterator[Span]:
    """`set_off` of a tool's result."""
    return set_off(text, result=True)
