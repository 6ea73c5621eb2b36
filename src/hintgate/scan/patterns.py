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

from collections.abc import Iterator

__all__ = ["branches", "class_end", "closing", "outside"]


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


def outside(pattern: str, start: int = 0) -> Iterator[tuple[int, str]]:
    """Each character of `pattern` from `start` that is neither escaped nor inside a character class, with its
    index."""
    i = start
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
        elif char == "[":
            i = class_end(pattern, i)
        else:
            yield i, char
            i += 1


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
