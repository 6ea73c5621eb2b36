"""Words put out of a person's sight by padding, in a tool's result: what follows them is said to the model.

Pure. A person reads a result as it is drawn: a line goes on to the right
edge and the page down to the fold. Two hundred spaces in one line, or twenty
empty lines in a row, push what follows out of that view, where only a
machine reading code points still sees it. Honest text never needs so much
blank room before a sentence (a table's columns, a log's alignment and a
page's paragraphs take a few), so the sentence right after such padding is
hidden from the person and placed for the model. It is flagged when it speaks
to its reader: it names the user (only the model that called the tool answers
a "user"), calls the model by its role (`scan.vocatives`), is framed by the
passing on of the result ("when presenting", `scan.scripted`) or opens with a
heading in capitals that names who runs the service or sets the model's rules
("ADMIN:", "SYSTEM OPERATOR:"). A sentence after padding that does none of
these (a footer, a total) is left to the other rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from hintgate.scan.concealed import padding
from hintgate.scan.deferred import compiled
from hintgate.scan.scripted import relaying
from hintgate.scan.spans import SENTENCE_PAST_NAMES, Span
from hintgate.scan.vocatives import called

__all__ = ["may_pad", "padded", "speaks"]


def _padding() -> Any:
    """The padding's engine (`scan.concealed.padding`)."""
    return padding()


def may_pad(text: str) -> bool:
    """Whether `text` holds padding: two hundred spaces in a line, or twenty empty lines in a row."""
    return _padding().search(text) is not None


_PAD_END = compiled(r"[ \t\u00a0\u2000-\u200a\u3000\n]*")
# The model's user named, in the sentence after the padding.
_USER = compiled(r"\b(?:the|your|this|our)\s+(?:end[\s-])?users?\b", re.IGNORECASE)
# A heading in capitals that names one who runs the service or sets the model's rules, at the sentence's start: a
# notice's speaker ("ADMIN (root):", "SYSTEM OPERATOR:", "VENDOR NOTICE:"), not a label of data ("TOTAL:", "NOTE:").
_HEADING = compiled(
    r"(?:[A-Z&/-]+[ \t]+){0,2}(?:SYSTEM|OPERATOR|ADMIN|ADMINISTRATOR|DEVELOPER|PLATFORM|VENDOR|OWNER|MANAGEMENT)"
    r"(?:[ \t]+(?:\([\w -]{1,20}\)|[A-Z&/-]+)){0,2}[ \t]*:"
)


def padded(text: str) -> Iterator[Span]:
    """The sentences of `text` (a tool's result) that padding hides from a person and that speak to their reader."""
    at = 0
    for pad in _padding().finditer(text):
        if pad.end() <= at:
            continue  # within the sentence just read
        end = _PAD_END.match(text, pad.end())
        start = end.end() if end is not None else pad.end()
        sentence = SENTENCE_PAST_NAMES.match(text, start)
        at = max(start, pad.end())
        if sentence is None:
            continue
        if speaks(sentence.group()):
            yield Span(sentence.start(), sentence.end(), "speaks to the model after padding that hides it from people")
        at = sentence.end()


def speaks(said: str, *, vocative: bool = True) -> bool:
    """Whether a sentence speaks to its reader: it names the user, calls the model by its role (unless `vocative`
    is false: a label's "AI plan:" is no call), is framed by the passing on of a result, or opens with a heading in
    capitals that names who runs the service."""
    if _USER.search(said) or relaying(said) or _HEADING.match(said):
        return True
    return vocative and called(said) is not None
