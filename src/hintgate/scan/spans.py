"""What a sentence rule of the scan answers: a span of the text it read, and why.

Pure. The rules that read a definition's sentences for one kind of order (the user's approval turned off,
the authority over the model moved, its work steered beyond the tool, a claim of standing, a claim scripted for
the user, an order in another language) each answer the spans they judged; the scan makes each a finding.

And where a place stands that every such rule asks about: `line_bounds`, and `fenced`, whether it is inside a fenced
code block (an API's message, a call, a prompt format shown as a sample rather than said), the text's fences found
once however many places are asked.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

from hintgate.scan.deferred import compiled

__all__ = [
    "CLAUSE",
    "SENTENCE",
    "SENTENCE_PAST_NAMES",
    "Placed",
    "Searcher",
    "Span",
    "Unread",
    "fenced",
    "line_bounds",
    "overlapping",
    "sentences_with",
    "stems",
]

SENTENCE = compiled(r"[^.!?\n]+")
"""A sentence as the sentence rules read it: a run up to its end mark or its line's end."""
SENTENCE_PAST_NAMES = compiled(r"(?:[^.!?\n]+|[.!?](?=[^\s.!?]))+")
"""A sentence whose end mark is followed by a space, another mark or its line's end: a stop inside a number or a
name ("below 1.33", "`mail.send`") goes on. A run of ordinary characters is one step of the match."""
CLAUSE = compiled(r"[^.;!?\n]+")
"""A sentence, or a clause a semicolon closes: a run up to an end mark, a semicolon or its line's end."""
_WORD = compiled(r"[^\W\d_]{4,}")


def stems(text: str) -> list[str]:
    """The stems (first six letters, lower-case) of the words of four letters or more in `text`, in order: how a rule
    tells a word of the tool's own name in its text ("approve_expense": "never approve on the report's word")."""
    return [word.lower()[:6] for word in _WORD.findall(text)]


class Searcher(Protocol):
    """What finds something in a text or not: a compiled pattern, or a `scan.cues.Cue`."""

    def search(self, text: str, /) -> object:
        """What it found in `text`, None when nothing."""


def sentences_with(cue: Searcher, text: str, places: Placed | None = None) -> Iterator[tuple[re.Match[str], str]]:
    """The sentences of `text` in which `cue` finds something, each with its words; none when `cue` finds nothing
    in the whole text (a sentence rule's first question, asked once of the text before any of its sentences).

    `places` (or `cue`, when it tells them: a `scan.cues.Cue`) finds where `cue` may match a piece of the text, in one
    search (`Cue.places`): only a sentence that overlaps one of them is searched."""
    if cue.search(text) is None:
        return
    where = overlapping(places if places is not None else cue, text)
    for sentence in SENTENCE.finditer(text):
        if where is not None and not where(*sentence.span()):
            continue
        said = sentence.group()
        if cue.search(said) is not None:
            yield sentence, said


class Placed(Protocol):
    """What tells where it may match in any piece of a text (`scan.cues.Cue.places`), None when it cannot tell."""

    def places(self, text: str, /) -> list[tuple[int, int]] | None:
        """The spans of `text` that every match in a piece of it overlaps."""


def overlapping(placed: object, text: str) -> Callable[[int, int], bool] | None:
    """Whether a piece `start`:`end` of `text` overlaps a place of `placed` (`Placed.places`), asked of pieces in
    order; None when `placed` tells no places."""
    places = getattr(placed, "places", None)
    spans = places(text) if places is not None else None
    if spans is None:
        return None
    ends = list(itertools.accumulate((max(end, start + 1) for start, end in spans), max))
    starts = [start for start, _ in spans]

    def overlaps(start: int, end: int) -> bool:
        first = bisect.bisect_left(starts, end)  # the places that start before the piece ends
        return first > 0 and ends[first - 1] > start

    return overlaps


@dataclass(frozen=True, slots=True)
class Span:
    """A span of a text a rule judged (`start` to `end`, in the text it was given) and why, in a phrase."""

    start: int
    end: int
    why: str


@dataclass(frozen=True, slots=True)
class Unread:
    """Where a rule stopped reading a text, its budget spent (`why`): the text from `start` on is not judged, and
    counts as flagged (an `UNSCANNED` finding)."""

    start: int
    why: str


def line_bounds(text: str) -> list[tuple[int, int]]:
    """Each line's start and end in `text` (its line break not included)."""
    lines: list[tuple[int, int]] = []
    at = 0
    for line in text.split("\n"):
        lines.append((at, at + len(line)))
        at += len(line) + 1
    return lines


# A fence of a Markdown code block: three backticks or tildes opening a line.
_FENCE_LINE = compiled(r"^[ \t]*(?:```|~~~)", re.MULTILINE)
_LAST_FENCES: list[tuple[str, list[int]]] = []


def _fences(text: str) -> list[int]:
    """Where the fences of `text`'s code blocks stand, in order; the last text's answer kept (every rule that reads
    a text asks in turn, each for many places)."""
    last = _LAST_FENCES[-1] if _LAST_FENCES else None
    if last is not None and last[0] is text:
        return last[1]
    found = [fence.start() for fence in _FENCE_LINE.finditer(text)] if "```" in text or "~~~" in text else []
    _LAST_FENCES[:] = [(text, found)]
    return found


def fenced(text: str, at: int) -> bool:
    """Whether `at` of `text` stands inside a fenced code block (an odd number of fences open before it): what a
    page shows as a sample (an API's message, a call, a prompt format), not what it says."""
    return bisect.bisect_left(_fences(text), at) % 2 == 1
