"""One pass over a text that says whether a family of rules can find anything in any part of it.

Pure. A rule family of the scan (the sentences that steer the model, say)
reads a text sentence by sentence, and in each sentence tries its patterns.
Splitting the text and asking each sentence costs more than the answer is
worth when no pattern of the family can match anywhere in the text. A
`Screen` asks that once of the whole text, with RE2's filter (a pass of the
strings each pattern cannot match without, then a search of each pattern
whose strings are there: an honest text is rarely searched at all): each
pattern relaxed (lookarounds, anchors and word boundaries dropped), so a pattern
that matches a part of the text (a sentence, a clause, a window) matches the
relaxed one somewhere in the whole. No match of any relaxed pattern: no
pattern of the family can match any part of the text, and the family has
nothing to find there.

The answer is exact in that direction only, and only where it is given: it
is "may" (True) for text beyond ASCII, for every text when a pattern has flags
or constructs RE2 does not read (`Screen.built` is then False), without
`google-re2`, and when the filter gives up on a text.
"""

from __future__ import annotations

import bisect
import functools
import re
from typing import Any, Protocol

from hintgate.scan.patterns import for_ascii, pieces
from hintgate.scan.re2_options import quiet_options

__all__ = ["Screen", "prepare"]

# The flags a screened pattern may carry: case ignored and `.` across lines are spelled in; the others change
# nothing in ASCII text once anchors are dropped.
_KEPT_FLAGS = re.IGNORECASE | re.DOTALL | re.UNICODE | re.MULTILINE | re.ASCII


class _Pattern(Protocol):
    @property
    def pattern(self) -> str: ...

    @property
    def flags(self) -> int: ...


class Screen:
    """Whether any of a family's patterns (`re.Pattern`s, `scan.cues.Cue`s) may match in some part of a text."""

    def __init__(self, *patterns: _Pattern, longest: int | None = None) -> None:
        """A screen of `patterns`, for texts of at most `longest` characters (a longer one is not screened: the
        strings a pattern needs are held by more of such a text, and each pattern whose strings are there is
        searched, which can cost more than the family's own reading)."""
        self._patterns = patterns
        self._longest = longest
        _SCREENS.append(self)

    @property
    def built(self) -> bool:
        """Whether the screen can answer "no" at all (RE2 read every pattern); it is built if it was not."""
        return self._matcher is not None

    def may(self, text: str) -> bool:
        """Whether a pattern of the family may match in `text` or any part of it; False only when none can, and
        always True before `prepare` (or `built`) built the screen."""
        matcher = self.__dict__.get("_matcher")
        if matcher is None or (self._longest is not None and len(text) > self._longest) or not text.isascii():
            return True
        hits = matcher.Match(text.encode("ascii") + _MARK)
        if not hits or 0 not in hits:  # the mark is always there: without it, the filter gave up
            return True
        return len(hits) > 1

    @functools.cached_property
    def _matcher(self) -> Any:
        """RE2's filter of the mark and each pattern relaxed (`_relaxed`): one pass of the strings each pattern
        cannot match without, then a search of each pattern whose strings are there; None without RE2 or when a
        pattern cannot be screened (the answer is then always "may")."""
        try:
            import re2
        except ImportError:  # pragma: no cover - google-re2 is a dependency
            return None
        options = quiet_options(latin1=True)
        regex_filter = re2.Filter()
        try:
            regex_filter.Add(re.escape(_MARK.decode("ascii")), options)
            for pattern in self._patterns:
                loose = _relaxed(pattern.pattern, pattern.flags)
                if loose is None:
                    return None
                regex_filter.Add(loose, options)
            regex_filter.Compile()
        except re2.error:
            return None
        return regex_filter


def prepare() -> None:
    """Build every screen that is not built yet (about 70 ms of CPU, once per process). The scan builds them with
    its prefilter (`scan.prefilter.prepare`): a stdio gateway's first listing is read without either, so that it
    is not held up; until then every text passes every screen."""
    for screen in _SCREENS:
        _ = screen.built


_SCREENS: list[Screen] = []
_MARK = b"\nhintgate screen mark"
"""Read after every text: the filter always finds it, unless it gave up."""


def _relaxed(pattern: str, flags: int) -> str | None:
    """`pattern` as an RE2 pattern that matches, in ASCII text, wherever `pattern` matches in a part of the text (and
    perhaps elsewhere); None when it cannot be screened (flags or a construct RE2 does not read).

    Lookarounds, anchors and word boundaries only narrow where a match stands: they are dropped, so a match in a
    part of a text (whose edges they would see as the text's) is a match in the whole. What Python's engine reads
    differently from RE2's in ASCII text is spelled out: `\\s` (Python's has the vertical tab and `\\x1c`-`\\x1f`),
    and the letters beyond ASCII whose case Python folds onto ASCII ones. Bounded repeats are read unbounded (a
    smaller automaton), and the pattern is read as Latin-1 (`patterns.for_ascii`).
    """
    if flags & ~_KEPT_FLAGS:
        return None
    out: list[str] = []
    pattern_text = _UNICODE_ESCAPE.sub(_unescaped, pattern)
    items = list(pieces(pattern_text))
    i = 0
    while i < len(items):
        piece = items[i][1]
        if piece == "(" and _at(items, i + 1) == "?" and _is_lookaround(items, i):
            i = _group_end(items, i)
            continue
        repeat = _REPEAT.match(pattern_text, items[i][0]) if piece == "{" else None
        if repeat is not None:
            # A bounded repeat as an unbounded one: the automaton of `{0,200}` is two hundred copies of its atom.
            out.append("+" if int(repeat.group(1)) else "*")
            i = bisect.bisect_left(items, (repeat.end(), ""))
            continue
        if piece in _DROPPED:
            pass
        elif piece[0] == "[":
            if "\\S" in piece:
                return None
            out.append(piece.replace("\\s", _SPACE).translate(_FOLDED_IN_CLASS))
        elif piece == "\\s":
            out.append(f"[{_SPACE}]")
        elif piece == "\\S":
            out.append(f"[^{_SPACE}]")
        else:
            out.append(piece.translate(_FOLDED))
        i += 1
    spelled = ("i" if flags & re.IGNORECASE else "") + ("s" if flags & re.DOTALL else "")
    narrow = for_ascii("".join(out))
    if narrow is None:  # pragma: no cover - the letters that fold onto ASCII ones are spelled as those above
        return None
    loose = "".join(_ascii_only(piece) for _, piece in pieces(narrow))
    return f"(?{spelled}:{loose})" if spelled else f"(?:{loose})"


def _ascii_only(piece: str) -> str:
    """A piece of a Latin-1 pattern as it reads ASCII text, spelled in ASCII: a character beyond ASCII matches
    nothing there, and a class loses such members (RE2's filter looks for the strings a pattern needs as UTF-8)."""
    if piece.isascii():
        return piece
    if piece[0] != "[":
        return _NOTHING
    kept = "".join(char for char in piece if char.isascii())
    if kept == "[^]":
        return _ANY
    return _NOTHING if kept == "[]" else kept


# A class no ASCII character is in, and one every ASCII character is in.
_NOTHING = "[^\\x00-\\x7f]"
_ANY = "[\\x00-\\x7f]"


def _at(items: list[tuple[int, str]], i: int) -> str:
    """The piece at `items[i]`, or "" past the end."""
    return items[i][1] if i < len(items) else ""


def _is_lookaround(items: list[tuple[int, str]], i: int) -> bool:
    """Whether the group opening at `items[i]` is a lookahead or a lookbehind."""
    kind = "".join(piece for _, piece in items[i + 2 : i + 4])
    return kind[:1] in ("=", "!") or kind in ("<=", "<!")


def _group_end(items: list[tuple[int, str]], i: int) -> int:
    """The index past the `)` closing the group opening at `items[i]`."""
    depth = 0
    while i < len(items):
        piece = items[i][1]
        depth += piece == "("
        depth -= piece == ")"
        i += 1
        if depth == 0:
            break
    return i


_DROPPED = frozenset({"^", "$", "\\b", "\\B", "\\A", "\\Z", "\\z"})
# Python's ASCII whitespace: RE2's `\s` is [\t\n\f\r ].
_SPACE = r"\t-\r\x1c-\x1f "
_UNICODE_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")


def _unescaped(escape: re.Match[str]) -> str:
    """A `\\uXXXX` escape as RE2 reads it: an ASCII code point as `\\x{..}`, any other as the character itself, so
    that it is read as Latin-1 as a character written out is (one beyond Latin-1 cannot match in ASCII text and is
    read as a byte that stands for it; as `\\x{..}` it made RE2 refuse the whole family's screen)."""
    code = int(escape.group(1), 16)
    return f"\\x{{{escape.group(1)}}}" if code < 0x80 else chr(code)


_REPEAT = re.compile(r"\{(\d+)(?:,(\d*))?\}")
# Letters beyond ASCII that Python's engine, ignoring case, matches with ASCII letters: as those letters (in ASCII
# text they can only match those; a pattern not ignoring case then reads a little more than it should).
_FOLDS = {"\u0131": "iI", "\u0130": "iI", "\u017f": "sS", "\u212a": "kK"}
_FOLDED = str.maketrans({char: f"[{letters}]" for char, letters in _FOLDS.items()})
_FOLDED_IN_CLASS = str.maketrans(_FOLDS)
