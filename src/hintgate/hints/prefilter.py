"""One pass over a text that rules out the phrases that cannot match in it and the disguises it cannot hold.

Pure. The poisoning scan tries dozens of phrases and half a dozen decoders on
every text it reads; a 100 KB tool result would cost one pass of the regex
engine per phrase word and per decoder (about 8 ms). Most of those passes find
nothing. This module asks one question of a text instead, in a single pass of
RE2's DFA (`google-re2`, a set of patterns matched together): which of the
phrases *can* match here, which of the strings the phrases need are present,
and which disguises (entities, comments, encoded runs, leetspeak, rot13) the
text can hold. The scan then runs exactly as before, on those only.

The answer must never leave out a phrase that Python's engine would match, or
the prefilter would hide poison. Each phrase's pattern is therefore *relaxed*
into one RE2 can run whose matches include every text the original matches:

- a lookbehind that opens a match becomes text the match consumes before it
  (`(?<=[\\n>])send` is `[\\n>]send`), a lookahead that closes a match text
  it consumes after (the match then exists exactly when the original's does);
  every other lookaround is dropped (a condition removed only lets more in);
- `^` and `$` are dropped, `\\Z` is `\\z`;
- `\\s` and `\\S` spell out Python's ASCII whitespace (RE2's `\\s` has no
  vertical tab or the four separators `\\x1c`-`\\x1f`).

That holds for ASCII text, where Python's Unicode classes and word boundaries
are the ASCII ones RE2 uses: other text is not prefiltered (`seen` returns
None) and is scanned in full. A pattern the relaxation cannot read is left
out of the set and counts as always possible. If RE2 gives up on a text (its
DFA out of memory), a pattern that matches every text is missing from the
answer and the text is scanned in full. Without `google-re2` installed,
nothing is prefiltered; the findings are the same either way, only slower.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from hintgate.hints.anchors import class_end
from hintgate.hints.phrases import ENV_FILES, PHRASES, SECRET_FILES, Phrase

__all__ = ["DISGUISES", "Seen", "relaxed", "seen"]

DISGUISES = ("leet", "entities", "comment", "base64", "hex", "percent", "rot13")
"""What `Seen.may` can answer for: a disguise the text may hold (`rot13`: one of rot13's words)."""

# Python's ASCII whitespace: RE2's `\s` is [\t\n\f\r ].
_SPACE = r"\t-\r\x1c-\x1f "
_TRIGGERS: dict[str, str] = {
    "leet": r"[013457][a-zA-Z]|[a-zA-Z][013457]",
    "entities": r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});",
    "comment": r"<!--",
    "base64": r"[A-Za-z0-9+/_-]{20}",
    "hex": rf"(?:(?:0x)?[0-9A-Fa-f]{{2}}[{_SPACE}:,]?){{12,}}",
    "percent": r"%[0-9A-Fa-f]{2}",
}


@dataclass(frozen=True, slots=True)
class Seen:
    """What one pass over a text ruled out: the phrases that can match, the needed strings present."""

    phrases: frozenset[Phrase]
    """The phrases that may match the text (every one that does is here); phrases the set could not hold too."""
    needs: frozenset[tuple[str, ...]]
    """The `Phrase.needs` and `Phrase.also` tuples one of whose strings the text's lowercase holds."""
    disguises: frozenset[str]
    """The `DISGUISES` the text may hold."""

    def may(self, disguise: str) -> bool:
        """Whether the text may hold `disguise` (one of `DISGUISES`)."""
        return disguise in self.disguises

    def joined(self, other: Seen) -> Seen:
        """What either pass left possible (for texts read in two forms); the strings needed as this one saw them."""
        return Seen(self.phrases | other.phrases, self.needs, self.disguises | other.disguises)


def seen(text: str, *, words: tuple[str, ...] = (), build: bool = False) -> Seen | None:
    """What one RE2 pass over ASCII `text` rules out; None when the text is not ASCII, RE2 is not installed,
    the set is not built yet and `build` is false, or RE2 gave up (scan the text in full then).

    Args:
        text: the text as the phrases are matched on it.
        words: the words whose rot13 form makes a text worth decoding as rot13 (`hints.reading.ROT13_WORDS`).
        build: build the set if it is not built yet (about 50 ms of CPU, once per process). A gateway
            builds it at its first tool result, not before: the definitions of its first listing are read
            without it, so that the listing is not held up.
    """
    if not text.isascii():
        return None
    if words in _BUILT:
        matcher = _BUILT[words]
    elif build:
        matcher = _BUILT[words] = _matcher(words)
    else:
        return None
    return None if matcher is None else matcher.seen(text)


def relaxed(pattern: str) -> str:
    """`pattern` (Python's syntax) as an RE2 pattern that matches, on ASCII text, wherever it matches.

    Raises:
        ValueError: a construct the relaxation does not read (the pattern is then left out of the set).
    """
    try:
        re.compile(pattern)
    except re.error as error:
        raise ValueError(f"not a pattern: {error}") from None
    parser = _Parser(pattern)
    tree = parser.alternation()
    if parser.at < len(pattern):
        raise ValueError(f"unbalanced ')' at {parser.at} in {pattern!r}")
    return _emit_alternation(tree, lead=True, trail=True)


class _Matcher:
    def __init__(self, regex_set: Any, slots: list[tuple[str, Any]], sentinel: int, always: frozenset[Phrase]):
        self._set = regex_set
        self._slots = slots
        self._sentinel = sentinel
        self._always = always

    def seen(self, text: str) -> Seen | None:
        hits = self._set.Match(text.encode("ascii"))
        if not hits or self._sentinel not in hits:
            return None  # RE2 gave up on this text
        phrases: set[Phrase] = set(self._always)
        needs: set[tuple[str, ...]] = set()
        disguises: set[str] = set()
        for hit in hits:
            kind, what = self._slots[hit]
            if kind == "phrase":
                phrases.add(what)
            elif kind == "needs":
                needs.add(what)
            elif kind == "disguise":
                disguises.add(what)
        return Seen(frozenset(phrases), frozenset(needs), frozenset(disguises))


_BUILT: dict[tuple[str, ...], _Matcher | None] = {}


def _matcher(words: tuple[str, ...]) -> _Matcher | None:
    """The set of every phrase, needed string and disguise trigger (~50 ms); None without RE2."""
    try:
        import re2
    except ImportError:
        return None
    options = re2.Options()
    options.log_errors = False
    options.max_mem = 64 << 20
    regex_set = re2.Set.SearchSet(options)
    slots: list[tuple[str, Any]] = []
    always: set[Phrase] = set()

    def add(pattern: str, slot: tuple[str, Any]) -> bool:
        try:
            regex_set.Add(pattern)
        except re2.error:
            return False
        slots.append(slot)
        return True

    phrases = (SECRET_FILES, ENV_FILES, *PHRASES)
    for phrase in phrases:
        try:
            pattern = relaxed(phrase.regex.pattern)
        except ValueError:
            always.add(phrase)
            continue
        flags = "(?i)" if phrase.regex.flags & re.IGNORECASE else ""
        # `^` and `$` are dropped, so MULTILINE changes nothing; another flag is not read.
        unread = phrase.regex.flags & ~(re.IGNORECASE | re.UNICODE | re.MULTILINE)
        if unread or not add(flags + pattern, ("phrase", phrase)):
            always.add(phrase)
    for needed in _needed(phrases):
        if not add("(?i)" + "|".join(_literal(need) for need in needed), ("needs", needed)):
            return None
    triggers = dict(_TRIGGERS)
    if words:
        triggers["rot13"] = "(?i)" + "|".join(_literal(word) for word in words)
    for disguise, pattern in triggers.items():
        if not add(pattern, ("disguise", disguise)):
            return None
    sentinel = len(slots)
    if not add(r"\z", ("sentinel", None)):
        return None
    try:
        regex_set.Compile()
    except re2.error:
        return None
    return _Matcher(regex_set, slots, sentinel, frozenset(always))


def _literal(text: str) -> str:
    """`text` as an RE2 pattern matching it literally."""
    return "".join("\\" + char if char in _SPECIAL else char for char in text)


_SPECIAL = frozenset("\\.+*?()|[]{}^$")


def _needed(phrases: Iterable[Phrase]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for phrase in phrases:
        for needed in (phrase.needs, phrase.also):
            if needed and needed not in out:
                out.append(needed)
    return out


# A small parse of Python's pattern syntax, as much of it as the phrases use: alternation, sequences, groups
# (plain, capturing, named, lookarounds), quantifiers, classes, escapes. Anything else raises ValueError.


@dataclass(frozen=True, slots=True)
class _Group:
    kind: str  # ":" (plain or capturing), "i:" (case-insensitive), "=", "!", "<=", "<!"
    body: list[list[Any]]


@dataclass(frozen=True, slots=True)
class _Repeat:
    item: Any
    quantifier: str


class _Parser:
    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.at = 0

    def alternation(self) -> list[list[Any]]:
        branches = [self.sequence()]
        while self.at < len(self.pattern) and self.pattern[self.at] == "|":
            self.at += 1
            branches.append(self.sequence())
        return branches

    def sequence(self) -> list[Any]:
        items: list[Any] = []
        pattern = self.pattern
        while self.at < len(pattern) and pattern[self.at] not in "|)":
            item = self.atom()
            quantifier = self.quantifier()
            items.append(_Repeat(item, quantifier) if quantifier else item)
        return items

    def atom(self) -> Any:
        pattern, at = self.pattern, self.at
        char = pattern[at]
        if char == "(":
            return self.group()
        if char == "[":
            end = class_end(pattern, at)
            self.at = end
            return _class(pattern[at:end])
        if char == "\\":
            if at + 1 >= len(pattern):
                raise ValueError(f"a lone backslash ends {pattern!r}")
            self.at = at + 2
            return _escape(pattern[at + 1])
        if char in "*+?{" and not (char == "{" and not _QUANTIFIER.match(pattern, at)):
            raise ValueError(f"a quantifier with nothing before it at {at} in {pattern!r}")
        self.at = at + 1
        if char in "^$":
            return ""
        return char

    def group(self) -> _Group:
        pattern = self.pattern
        kinds = (("(?:", ":"), ("(?<=", "<="), ("(?<!", "<!"), ("(?=", "="), ("(?!", "!"), ("(?P<", "P"))
        kind, opener = next(((k, o) for o, k in kinds if pattern.startswith(o, self.at)), (":", "("))
        scoped = _SCOPED_FLAGS.match(pattern, self.at)
        if scoped is not None:  # `(?i:...)`: the one scoped flag RE2 reads as Python does
            self.at = scoped.end()
            kind = "i:"
        elif kind == "P":
            close = pattern.find(">", self.at)
            if close < 0:
                raise ValueError(f"an unnamed named group at {self.at} in {pattern!r}")
            self.at, kind = close + 1, ":"
        elif opener == "(" and pattern.startswith("(?", self.at):
            raise ValueError(f"a group kind the relaxation does not read at {self.at} in {pattern!r}")
        else:
            self.at += len(opener)
        body = self.alternation()
        if self.at >= len(pattern) or pattern[self.at] != ")":
            raise ValueError(f"an unclosed group in {pattern!r}")
        self.at += 1
        return _Group(kind, body)

    def quantifier(self) -> str:
        pattern, at = self.pattern, self.at
        if at >= len(pattern):
            return ""
        match = _QUANTIFIER.match(pattern, at)
        if match is None:
            return ""
        self.at = match.end()
        if pattern.startswith("+", self.at):
            raise ValueError(f"a possessive quantifier at {at} in {pattern!r}")
        return match.group()


_SCOPED_FLAGS = re.compile(r"\(\?i:")
_QUANTIFIER = re.compile(r"(?:[*+?]|\{\d*(?:,\d*)?\})\??")


def _escape(char: str) -> str:
    if char == "s":
        return f"[{_SPACE}]"
    if char == "S":
        return f"[^{_SPACE}]"
    if char == "Z":
        return r"\z"
    if char in "wWdDbBAnrtfv" or not char.isalnum():
        return "\\" + char
    raise ValueError(f"an escape the relaxation does not read: \\{char}")


def _class(text: str) -> str:
    """A character class with `\\s` spelled out; `\\S` inside a class is not read."""
    if "\\S" in text.replace("\\\\", ""):
        raise ValueError(f"\\S inside a class: {text}")
    return text.replace("\\s", _SPACE) if "\\s" in text.replace("\\\\", "") else text


def _emit_alternation(branches: list[list[Any]], *, lead: bool, trail: bool) -> str:
    return "|".join(_emit_sequence(items, lead=lead, trail=trail) for items in branches)


def _emit_sequence(items: list[Any], *, lead: bool, trail: bool) -> str:
    out: list[str] = []
    last = len(items) - 1
    for i, item in enumerate(items):
        out.append(_emit(item, lead=lead and i == 0, trail=trail and i == last))
    return "".join(out)


def _emit(item: Any, *, lead: bool, trail: bool) -> str:
    if isinstance(item, str):
        return item
    if isinstance(item, _Repeat):
        inner = _emit(item.item, lead=False, trail=False)
        return f"(?:{inner}){item.quantifier}" if inner else ""
    kind = item.kind
    if kind in (":", "i:"):
        return f"(?{kind}{_emit_alternation(item.body, lead=lead, trail=trail)})"
    # A lookbehind that opens the match, or a lookahead that closes it, is consumed: the match then exists
    # exactly when the original's does. Any other lookaround is dropped, which only lets more texts in.
    if (kind == "<=" and lead) or (kind == "=" and trail):
        return f"(?:{_emit_alternation(item.body, lead=False, trail=False)})"
    return ""
