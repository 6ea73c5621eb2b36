"""Text a client's reader never sees but the model reads: markup that is not drawn, beyond the HTML comment.

Pure. `scan.reading` reads an HTML comment (`<!-- ... -->`) as a view of its
own, hidden from people. The same holds of other markup a renderer drops or
draws as nothing, and a server can put an order there as well:

- a Markdown comment: a link reference definition with no target (`[//]: #
  (...)`, `[comment]: <> "..."`), which CommonMark never draws, its title
  (the words in parentheses or quotes) read by the model only;
- an HTML element styled out of sight (`display:none`, `visibility:hidden`,
  `font-size:0`, `opacity:0`, `color:transparent`) or marked `hidden`;
- text between a terminal's conceal code (`ESC[8m`) and the code that ends it;
- text after padding that pushes it out of a person's view (two hundred
  spaces in a line, or twenty empty lines in a row: `scan.padded`).

`concealed` gives the spans of such text; `may_conceal` is the cheap check
made first (a few substring searches and one linear pass for padding). Every
search is bounded: a body is read up to `_BODY` characters and the next search
starts past it, so a text is read once however many openings it holds.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from hintgate.scan.deferred import built, compiled
from hintgate.scan.re2_options import re2_compiled
from hintgate.scan.spans import fenced

__all__ = ["PADDING", "Code", "concealed", "may_conceal", "padding_ends"]

# Written with the characters themselves (a plain string), which RE2 and Python's engine read alike.
PADDING = "[ \t\u00a0\u2000-\u200a\u3000]{200,}|(?:[ \t]*\n){20,}"
"""Blank room that pushes what follows out of a person's view: two hundred spaces in a line, or twenty empty lines
in a row (`scan.padded` reads a result's sentence after it)."""


@functools.cache
@built
def padding() -> Any:
    """The padding's engine: RE2's (linear however long the text), or Python's where the scan has no RE2."""
    engine = re2_compiled(PADDING)
    return engine if engine is not None else re.compile(PADDING)


_PAD_END = compiled(r"[ \t\u00a0\u2000-\u200a\u3000\n]*")


def padding_ends(text: str) -> Iterator[int]:
    """Where the text after each padding of `text` starts, its blank room skipped."""
    at = 0
    for pad in padding().finditer(text):
        if pad.end() <= at:
            continue
        end = _PAD_END.match(text, pad.end())
        at = end.end() if end is not None else pad.end()
        yield at


_BODY = 4000
"""The most characters of one concealed body that are read (what follows is the page's again)."""

# A link reference definition with no target: its label any short run (`//`, `comment`, `_`), its target `#`, `<>`
# or `//`, then its title in parentheses or quotes, which nothing draws. At most three spaces before it (CommonMark).
_MARKDOWN = re.compile(r"(?m)^[ ]{0,3}\[[^\]\n]{0,40}\]:[ \t]*(?:#|<>|//)[ \t]+([(\"'])")
_TITLE_ENDS = {"(": ")", '"': '"', "'": "'"}
# An HTML element styled or marked out of sight: its name and the attribute that hides it, in its opening tag.
_ELEMENT = re.compile(
    r"<([A-Za-z][A-Za-z0-9]{0,9})\b[^<>]{0,300}?(?:style[ \t]*=[ \t]*[\"'][^\"'<>]{0,300}?"
    r"(?:display[ \t]*:[ \t]*none|visibility[ \t]*:[ \t]*hidden|font-size[ \t]*:[ \t]*0(?:\.0+)?(?:px|pt|em|rem|%)?"
    r"[ \t]*(?:[;\"']|!)|opacity[ \t]*:[ \t]*0(?:\.0+)?[ \t]*(?:[;\"']|!)|color[ \t]*:[ \t]*transparent)"
    r"|[ \t]hidden(?:[ \t]*=[ \t]*[\"']?(?:hidden|true)?[\"']?)?(?=[ \t/>]))[^<>]{0,300}>",
    re.IGNORECASE,
)
# A terminal's conceal code (SGR 8, alone or among others) and what ends it (a reset, SGR 28).
_CONCEAL = re.compile(r"\x1b\[(?:\d{1,3};){0,4}8(?:;\d{1,3}){0,4}m")
_REVEAL = re.compile(r"\x1b\[(?:0|28)?m")
_HINTS = ("]:", "<", "\x1b[")


def may_conceal(text: str) -> bool:
    """Whether `text` may hold concealed text: the opening of a Markdown comment, an HTML tag, a terminal's code, or
    padding (necessary for `concealed` to find any)."""
    return any(hint in text for hint in _HINTS) or next(padding_ends(text), None) is not None


def concealed(text: str) -> Iterator[tuple[int, int]]:
    """The spans of `text` that a client draws as nothing or out of sight, in order of their start; each at most
    `_BODY` characters, and none read twice."""
    found: list[tuple[int, int]] = []
    code = Code(text)
    if "]:" in text:
        found.extend((start, end) for at, start, end in _markdown(text) if not code.shows(at))
    if "<" in text:
        found.extend((start, end) for at, start, end in _elements(text) if not code.shows(at))
    if "\x1b[" in text:
        found.extend((start, end) for at, start, end in _terminal(text) if not code.shows(at))
    found.extend(_padded(text))
    found.sort()
    last = -1
    for start, end in found:
        if start >= last and end > start:
            yield start, end
            last = end


def _markdown(text: str) -> Iterator[tuple[int, int, int]]:
    at = 0
    while (match := _MARKDOWN.search(text, at)) is not None:
        start = match.end()
        close = text.find(_TITLE_ENDS[match.group(1)], start, start + _BODY)
        end = close if close >= 0 else min(len(text), start + _BODY)
        # A title ends at a blank line when it is not closed (CommonMark).
        blank = text.find("\n\n", start, end)
        end = blank if blank >= 0 else end
        yield match.start(), start, end
        at = max(end, match.end())


def _elements(text: str) -> Iterator[tuple[int, int, int]]:
    at = 0
    while (match := _ELEMENT.search(text, at)) is not None:
        start = match.end()
        close = re.compile("</" + re.escape(match.group(1)), re.IGNORECASE).search(text, start, start + _BODY)
        end = close.start() if close is not None else min(len(text), start + _BODY)
        # An element that opens the text is markup given as data (a sample, a piece of evidence), not a page that
        # shows its reader one thing and hides another.
        if text[: match.start()].strip():
            yield match.start(), start, end
        at = max(end, match.end())


def _terminal(text: str) -> Iterator[tuple[int, int, int]]:
    at = 0
    while (match := _CONCEAL.search(text, at)) is not None:
        start = match.end()
        reveal = _REVEAL.search(text, start, start + _BODY)
        end = reveal.start() if reveal is not None else min(len(text), start + _BODY)
        yield match.start(), start, end
        at = max(end, match.end())


_QUOTES = frozenset("\"'`\u2018\u2019\u201c\u201d\u00ab\u00bb\u201e")


class Code:
    """Where `text` shows markup as written rather than drawing it: in a fenced or indented code block, in inline
    code, or quoted (a quotation mark right before it), as a write-up quotes an attack it is about."""

    def __init__(self, text: str) -> None:
        self.text = text

    def shows(self, at: int) -> bool:
        text = self.text
        line = max(text.rfind("\n", 0, at) + 1, at - _BODY)
        if text.startswith(("    ", "\t"), line) or (at > 0 and text[at - 1] in _QUOTES):
            return True
        if text.count("`", line, at) % 2 == 1:
            return True
        return fenced(text, line)


def _padded(text: str) -> Iterator[tuple[int, int]]:
    # The line the text resumes on, when it holds a word: a table's columns padded wide resume on a cell's border.
    for start in padding_ends(text):
        end = text.find("\n", start, start + _BODY)
        end = end if end >= 0 else min(len(text), start + _BODY)
        if _WORD.search(text, start, end) is not None:
            yield start, end


_WORD = re.compile(r"[^\W\d_]{2,}")
