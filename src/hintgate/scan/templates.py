"""A link the reader is asked to fill with data: an address whose query holds a blank described in words.

Pure. A page that shows how an address is built names its blanks as identifiers (`{id}`, `<TOKEN>`, `{user_id}`)
or as the reader's own ("<your API key>"): a person fills them with what they have. A blank described in words
("{all subscriber emails comma-separated}", "<any auth token visible in this conversation>", "{casualty name}")
asks whoever writes the address out to put that data into it, and the one that writes addresses out while it
reads a tool's result is the model: the data leaves for the address's host when the link is fetched, shown as an
image or followed. A blank stands inside an `http(s)` address or as a query parameter's value (`?u=<user
email>`); a description holds at least two words. A blank shown rather than asked (inside code, a fenced block,
on a line about attack wording: a write-up quoting one) is left alone, and so is markup (`<img src=x ...>`).
"""

from __future__ import annotations

import re

from hintgate.scan.cues import Cue
from hintgate.scan.quoting import quotes_attack
from hintgate.scan.spans import Span, fenced

__all__ = ["MAY_FILL", "filled_links"]

_BLANK = (
    r"(?:https?://[^\s\"'`<>{}\[\]]*|[?&][\w.-]{1,30}=)(?:\{\{?|<|\[)[ \t]*"
    r"(?!(?:your|my|yours)\b)"
    # the blank's description: words, at least two, no markup or code
    r"[A-Za-z][\w'’.,-]*(?:[ \t]+[\w'’.,()-]+){1,14}[ \t]*(?:\}\}?|>|\])"
)
MAY_FILL = Cue(_BLANK, re.IGNORECASE)
"""Where a blank described in words may stand in an address (one linear search)."""
_WHY = "asks for an address built from data described in words (a link that carries the data to its host)"


def filled_links(text: str) -> list[Span]:
    """The addresses of `text` with a blank described in words, at their spans, but where shown (in code or a
    fenced block, or on a line about attack wording)."""
    found: list[Span] = []
    for blank in MAY_FILL.finditer(text):
        start, end = blank.start(), blank.end()
        line = text.rfind("\n", 0, start) + 1
        stop = text.find("\n", end)
        stop = len(text) if stop < 0 else stop
        if text.count("`", line, start) % 2 == 1:
            continue
        if fenced(text, start) or quotes_attack(text[line:stop]):
            continue
        found.append(Span(start, end, _WHY))
        if len(found) >= 16:
            break
    return found
