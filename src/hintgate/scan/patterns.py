"""A regular expression's source read as text: where a class or group ends, and its top-level branches.

Pure. The scan reads its own patterns (Python's syntax) to derive faster
forms of them: the words a phrase can start with (`scan.anchors`), what RE2
can search for a cue (`scan.cues`), the relaxed patterns of the prefilter
(`scan.prefilter`). Each of those walks a pattern skipping escapes and
character classes; the walks live here once. The patterns are the scan's
own, which Python's engine compiled: what these answer for a pattern that
does not compile is not specified.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

__all__ = ["PAGE", "branches", "class_end", "closing", "for_ascii", "outside", "pieces"]


def class_end(pattern: str, start: int) -> int:
    """The index just past the character class of `pattern` (Python's syntax) that opens at `start`."""
    i = start + 1
    if pattern[i : i + 1] == "^":
        i += 1
    if pattern[i : i + 1] == "]":  # a `]` first in a class is a literal
        i += 1
    while i < len(pattern):
        if pattern[i] == "\\":
            i += 2
            continue
        if pattern[i] == "]":
            return i + 1
        i += 1
    return i


def pieces(pattern: str, start: int = 0) -> Iterator[tuple[int, str]]:
    """`pattern`'s atoms from `start`, each with its index: a character class (`[...]`), an escape (`\\b`, and a
    Unicode class whole: `\\pL`, `\\p{Greek}`), or one character."""
    i = start
    while i < len(pattern):
        char = pattern[i]
        if char == "[":
            end = class_end(pattern, i)
        elif char == "\\" and i + 1 < len(pattern):
            end = i + 2
            if pattern[i + 1] in "pP" and end < len(pattern):
                end = (pattern.find("}", end) + 1 or len(pattern)) if pattern[end] == "{" else end + 1
        else:
            end = i + 1
        yield i, pattern[i:end]
        i = end


def outside(pattern: str, start: int = 0) -> Iterator[tuple[int, str]]:
    """Each character of `pattern` from `start` that is neither escaped nor inside a character class, with its
    index."""
    for i, piece in pieces(pattern, start):
        if piece[0] not in "\\[":
            yield i, piece


def closing(pattern: str, start: int = 0) -> int | None:
    """The index of the `)` closing the group that opens at `start`, None when it is not closed."""
    depth = 0
    for i, char in outside(pattern, start):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return i
    return None


def branches(pattern: str) -> list[str]:
    """`pattern` split at the `|` outside every group and class: its top-level alternatives."""
    parts: list[str] = []
    depth = start = 0
    for i, char in outside(pattern):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
    parts.append(pattern[start:])
    return parts


def for_ascii(pattern: str) -> str | None:
    """`pattern` (RE2's syntax, read as UTF-8) as an RE2 pattern read as Latin-1 that matches ASCII text exactly
    where `pattern` does; None when there is none (a character beyond Latin-1 that RE2 matches with an ASCII letter
    when case is ignored: `ſ`, the Kelvin sign).

    Unicode letters, marks and digits (`\\pL`, `\\pM`, `\\pN`) are the ASCII ones: a few byte ranges, where UTF-8
    needs an automaton of thousands of instructions. The typographic punctuation Windows-1252 puts at 0x80-0x9F
    (dashes, curly quotes, the bullet, the ellipsis; and the arrow and the check boxes: `PAGE`) is spelled as
    those bytes, which Latin-1 gives to no printable character, so that text holding them can be read by the
    same automaton through a stand-in (`scan.cues.stand_in`). Any other character beyond U+00FF, which Latin-1
    cannot spell and ASCII text does not hold, matches nothing; a class loses it (a negated class left with no
    member matches any character).
    """
    if any(chr(code) in pattern for code in _FOLDS_TO_ASCII):
        return None
    out: list[str] = []
    for _, piece in pieces(pattern):
        if piece[0] == "[":
            out.append(_class_for_ascii(piece))
        elif piece in _ASCII_MEMBERS:
            members = _ASCII_MEMBERS[piece]
            out.append(f"[{members}]" if members else _NO_ASCII)
        elif piece[0] == "\\" and len(piece) > 1:
            out.append(_beyond_latin1(piece[1]) if ord(piece[1]) > _LATIN1 else piece)
        else:
            out.append(_beyond_latin1(piece) if ord(piece) > _LATIN1 else piece)
    return "".join(out)


def _beyond_latin1(char: str) -> str:
    """A character beyond Latin-1 outside a class, read as Latin-1: its byte in `PAGE`, or nothing at all."""
    code = PAGE.get(char)
    return _NO_ASCII if code is None else f"\\x{code:02x}"


PAGE: dict[str, int] = {
    **{
        char: code
        for code in range(0x80, 0xA0)
        for char in [bytes([code]).decode("cp1252", errors="ignore")]
        if char and unicodedata.category(char)[0] not in "LMN"
    },
    # Three bytes Windows-1252 leaves undefined: the arrow and the check boxes that lists and labels write.
    "\N{RIGHTWARDS ARROW}": 0x81,
    "\N{BALLOT BOX}": 0x8D,
    "\N{BALLOT BOX WITH CHECK}": 0x8F,
}
"""The punctuation Windows-1252 puts at 0x80-0x9F (not its letters), and the arrow and the check boxes in three
of the bytes it leaves undefined, by their byte: `for_ascii` spells each as it."""


_LATIN1 = 0xFF
# The characters beyond Latin-1 that RE2 matches with ASCII letters when case is ignored.
_FOLDS_TO_ASCII = (0x17F, 0x212A)
# A class no character of ASCII text is in.
_NO_ASCII = "[^\\x00-\\xff]"
# Unicode classes as the ASCII characters in them: read as Latin-1, RE2 takes about ten times as long to compile
# `\\pL` as read as UTF-8 (3 s for the sentence judge's cues), and a few ASCII ranges twenty times less.
_ASCII_MEMBERS = {"\\pL": "A-Za-z", "\\pN": "0-9", "\\pM": ""}


def _class_for_ascii(klass: str) -> str:
    """A character class (RE2's syntax) without its members beyond Latin-1 (see `for_ascii`)."""
    negated = klass.startswith("[^")
    body = klass[2 if negated else 1 : -1]
    kept: list[str] = []
    i = 0

    def one(at: int, *, high: bool = False) -> tuple[str, int | None, int]:
        """The member at `at`, its code point (None for a class escape: `\\w`, `\\pL`), where the next starts;
        `high`: it ends a range."""
        if body[at] != "\\" or at + 1 >= len(body):
            code = PAGE.get(body[at])
            if code is not None and not high and not (body[at + 1 : at + 2] == "-" and at + 2 < len(body)):
                return f"\\x{code:02x}", code, at + 1  # a member alone; a range's end is read as before
            return body[at], ord(body[at]), at + 1
        if body[at : at + 3] in _ASCII_MEMBERS:
            return _ASCII_MEMBERS[body[at : at + 3]], None, at + 3
        if body[at + 1] in "pP" and body[at + 2 : at + 3] == "{":
            close = body.index("}", at)
            return body[at : close + 1], None, close + 1
        escaped = body[at + 1]
        return body[at : at + 2], (None if escaped.isascii() and escaped.isalnum() else ord(escaped)), at + 2

    while i < len(body):
        item, low, i = one(i)
        if low is not None and body[i : i + 1] == "-" and i + 1 < len(body):
            last, high, after = one(i + 1, high=True)
            if high is not None:
                i = after
                if low <= _LATIN1:
                    kept.append(item + "-" + (last if high <= _LATIN1 else "\\xff"))
                continue
        if (low is None or low <= _LATIN1) and item:
            kept.append(item)
    if negated:
        return "[^" + "".join(kept) + "]" if kept else "[\\x00-\\xff]"
    return "[" + "".join(kept) + "]" if kept else _NO_ASCII
