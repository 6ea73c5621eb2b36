"""One pass over a text that rules out the phrases that cannot match in it and the disguises it cannot hold.

Pure. The poisoning scan tries dozens of phrases and half a dozen decoders on
every text it reads; a 100 KB tool result would cost one pass of the regex
engine per phrase word and per decoder (about 8 ms). Most of those passes find
nothing. This module asks one question of a text instead, in one pass of RE2's
DFA over it per set (`google-re2`: patterns matched together; a few sets of a
few patterns each, whose automata stay small on new text: `_Building`): which of the
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
- `^`, `$`, `\\A` and `\\Z` are dropped (so a text's lines may be read joined); a possessive quantifier is read
  as the greedy one, which matches wherever the possessive one does;
- `\\s` and `\\S` spell out Python's ASCII whitespace (RE2's `\\s` has no
  vertical tab or the four separators `\\x1c`-`\\x1f`).

That holds for ASCII text, where Python's Unicode classes and word boundaries
are the ASCII ones RE2 uses, and for text whose only other characters are
punctuation, symbols and spaces, read through an ASCII stand-in
(`ascii_stand_in`). A long text with letters beyond ASCII (Russian, Chinese,
accented prose) is read by a second set in RE2's UTF-8 mode, its patterns
relaxed for such text (`relaxed_wide`): case spelled out as Python's engine
compares letters, the look-alike and leetspeak views `scan.reading` matches
on spelled in, `\\b` dropped, and triggers for what makes a text's own findings
(invisible characters, a word mixing scripts). A short such text, or one NFKC
changes (fullwidth punctuation), is not prefiltered (`seen` returns None) and
is scanned in full. A pattern the relaxation cannot read is left
out of the set and counts as always possible. If RE2 gives up on a text (its
DFA out of memory), a pattern that matches every text is missing from the
answer and the text is scanned in full. Without `google-re2` installed,
nothing is prefiltered; the findings are the same either way, only slower.
"""

from __future__ import annotations

import bisect
import functools
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hintgate.hints.names import fold_lookalikes
from hintgate.scan.deferred import built
from hintgate.scan.patterns import class_end
from hintgate.scan.phrases import ENV_FILES, PHRASES, SECRET_FILES, Phrase
from hintgate.scan.reading import SPACED_HINT, disguises, is_invisible, replaced, stand_ins

__all__ = [
    "DISGUISES",
    "LONG",
    "WIDE_BUILD",
    "Seen",
    "ascii_stand_in",
    "prepare",
    "relaxed",
    "relaxed_in_place",
    "relaxed_wide",
    "seen",
]

DISGUISES = ("leet", "entities", "comment", "base64", "hex", "percent", "rot13", "invisible", "seam")
"""What `Seen.may` can answer for: a disguise the text may hold (`rot13`: one of rot13's words; `invisible` and
`seam`, in text beyond ASCII: an invisible character, a word mixing scripts)."""

# Python's ASCII whitespace: RE2's `\s` is [\t\n\f\r ].
_SPACE = r"\t-\r\x1c-\x1f "
# A leetspeak word (`scan.reading.leet_words`) has two letters and a digit read as a letter in one run of letters
# and digits: a date's `29T12` has one letter, and is not a trigger.
_LEET_RUN = "[a-zA-Z0-9]*"
_LEET = "|".join(
    _LEET_RUN.join(order)
    for order in (
        ("[a-zA-Z]", "[a-zA-Z]", "[013457]"),
        ("[a-zA-Z]", "[013457]", "[a-zA-Z]"),
        ("[013457]", "[a-zA-Z]", "[a-zA-Z]"),
    )
)
_TRIGGERS: dict[str, str] = {
    "leet": _LEET,
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
    needs: frozenset[tuple[str, ...]] | None
    """The `Phrase.needs` and `Phrase.also` tuples one of whose strings the text's lowercase holds; None when
    not looked at (a short text: its strings are cheaper to look for one by one)."""
    disguises: frozenset[str] | None
    """The `DISGUISES` the text may hold; None when not looked at."""
    spaced: bool | None = None
    """Whether the text may hold letters spelled one by one (`scan.reading.spelled_out` is False where this is);
    None when not looked at."""

    def may(self, disguise: str) -> bool:
        """Whether the text may hold `disguise` (one of `DISGUISES`)."""
        return self.disguises is None or disguise in self.disguises

    def joined(self, other: Seen) -> Seen:
        """What either pass left possible (for texts read in two forms); the strings needed as this one saw them."""
        disguises = None if self.disguises is None or other.disguises is None else self.disguises | other.disguises
        return Seen(self.phrases | other.phrases, self.needs, disguises, self.spaced)


def seen(
    text: str,
    *,
    words: tuple[str, ...] = (),
    build: bool = False,
    whole: bool = False,
    also: Sequence[str] = (),
) -> Seen | None:
    """What one RE2 pass over `text` rules out; None when the text has letters beyond ASCII and is short or
    changed by NFKC, RE2 is not installed, the set is not built yet and `build` is false, or RE2 gave up (scan
    the text in full then).

    One pass of the whole set answers for every phrase, needed string and disguise trigger at once. A short
    text (under `LONG` characters: a tool's descriptions, joined) is read together with the texts `also`
    (each on a line of its own: a tool's property names read as words), and its disguises are then exactly
    those `scan.reading.disguises` finds in them all, each looked for only where its trigger stands.

    Args:
        text: the text as the phrases are matched on it.
        words: the words whose rot13 form makes a text worth decoding as rot13 (`scan.reading.ROT13_WORDS`).
        build: build the set if it is not built yet (about 50 ms of CPU, once per process). A stdio gateway
            builds it at its first tool result, not before: the definitions of its first listing are read
            without it, so that the listing is not held up (an HTTP gateway builds it as it starts).
        whole: a short text's disguises are the triggers the set found (not looked for): a result's strings,
            each asked only whether anything at all can be found in it.
        also: texts read with a short `text` (a long one is read alone).
    """
    short = not whole and len(text) < LONG
    if short and also:
        text = "\n".join([text, *also])
    original = text
    if not text.isascii():
        stand_in = ascii_stand_in(text)
        if stand_in is None:
            return None if short else _seen_beyond_ascii(text, words, build=build)
        text = stand_in
    if build:
        prepare(words)
    matcher = _BUILT.get(words)
    if matcher is None:
        return None
    found = matcher.seen(text)
    if found is None or not short:
        return found
    # The triggers are necessary conditions of `disguises`' own checks: it looks only where one stands.
    return Seen(found.phrases, found.needs, disguises(original, found.disguises), found.spaced)


def prepare(words: tuple[str, ...] = ()) -> bool:
    """Build the prefilter for `words` (as `seen` takes them) if it is not built yet (about 80 ms, once per
    process); whether there is one (not without RE2)."""
    if words not in _BUILT:
        _BUILT[words] = _matcher(words)
    return _BUILT[words] is not None


def ascii_stand_in(text: str) -> str | None:
    """An ASCII text that every phrase and disguise matches wherever it matches `text`; None when there is none.

    Most text that is not ASCII is ASCII but for punctuation, symbols and
    spaces (dashes, curly quotes, arrows, emoji, line separators). Such a
    character is neither a letter nor a digit for Python's engine, and no
    phrase spells it: the phrases can only see it through `.`, `\\W`, `\\S`
    (or `\\s`) and negated classes, and an ASCII control character (or a
    space, for whitespace) is seen through exactly those. Text holding a
    letter or digit beyond ASCII, a character a phrase or a needed string
    spells, an invisible character, a look-alike letter, or anything NFKC
    changes is read as it is, without the prefilter (`scan.reading` reads
    such text through other views than the text as written).
    """
    table = stand_ins(text, _stand_in_for)
    if table is None or not unicodedata.is_normalized("NFKC", text):
        return None
    return replaced(text, table)


def _stand_in_for(char: str) -> str | None:
    """What a character beyond ASCII is read as in the ASCII text (`ascii_stand_in`): a space for a space, else a
    control character; None for one the phrases would read otherwise."""
    if char.isalnum() or char in _spelled() or is_invisible(char) or fold_lookalikes(char) != char:
        return None
    return " " if char.isspace() else "\x00"


def relaxed(pattern: str) -> str | None:
    """`pattern` (Python's syntax) as an RE2 pattern that matches, on ASCII text, wherever it matches; None
    when it cannot match ASCII text at all (every way through it needs a letter beyond ASCII).

    Raises:
        ValueError: a construct the relaxation does not read (the pattern is then left out of the set).
    """
    return _relax(_Parser(pattern))


def relaxed_in_place(pattern: str) -> str | None:
    """`relaxed(pattern)` whose every match starts where one of the pattern's may: a lookbehind that opens the
    match is dropped, not consumed (dropping one only lets more texts in), so that each place where the pattern
    matches ASCII text is a place where this matches (`scan.anchors` reads where a phrase may start).

    Raises:
        ValueError: a construct the relaxation does not read.
    """
    return _relax(_Parser(pattern), lead=False)


def _relax(parser: _Parser, *, lead: bool = True) -> str | None:
    """The parser's pattern parsed and written out as RE2's, each atom as the parser relaxes it; with `lead`, a
    lookbehind that opens the match is consumed."""
    pattern = parser.pattern
    try:
        re.compile(pattern)
    except re.error as error:
        raise ValueError(f"not a pattern: {error}") from None
    tree = parser.alternation()
    if parser.at < len(pattern):
        raise ValueError(f"unbalanced ')' at {parser.at} in {pattern!r}")
    return _emit_alternation(tree, lead=lead, trail=True)


@functools.cache
@built
def _spelled() -> frozenset[str]:
    """Every character beyond ASCII the phrases or their needed strings spell, in either case (on first use)."""
    chars: set[str] = set()
    for phrase in (SECRET_FILES, ENV_FILES, *PHRASES):
        for text in (phrase.regex.pattern, *phrase.needs, *phrase.also):
            chars.update(c for c in text if not c.isascii())
    cased = {variant for c in chars for variant in (c.lower(), c.upper()) if len(variant) == 1}
    return frozenset(chars | cased)


class _Matcher:
    """Compiled sets (`_Building.matcher`): each searched over the text in turn, their hits read together.

    Args:
        parts: each set with the number of slots before its first, its last slot its sentinel.
        slots: what a hit on each pattern means, over every part.
        always: the phrases no set holds.
    """

    def __init__(self, parts: Sequence[tuple[Any, int]], slots: list[tuple[str, Any]], always: frozenset[Phrase]):
        ends = [offset for _, offset in parts[1:]] + [len(slots)]
        pairs = zip(parts, ends, strict=True)
        self._parts = [(regex_set, offset, end - 1 - offset) for (regex_set, offset), end in pairs]
        self._slots = slots
        self._always = always

    def seen(self, text: str) -> Seen | None:
        return self.seen_bytes(text.encode("ascii"))

    def seen_bytes(self, text: bytes) -> Seen | None:
        phrases: set[Phrase] = set(self._always)
        needs: set[tuple[str, ...]] = set()
        disguises: set[str] = set()
        spaced = False
        for regex_set, offset, sentinel in self._parts:
            hits = regex_set.Match(text)
            if not hits or sentinel not in hits:
                return None  # RE2 gave up on this text
            for hit in hits:
                kind, what = self._slots[offset + hit]
                if kind == "phrase":
                    phrases.add(what)
                elif kind == "needs":
                    needs.add(what)
                elif kind == "disguise":
                    disguises.add(what)
                elif kind == "spaced":
                    spaced = True
        return Seen(frozenset(phrases), frozenset(needs), frozenset(disguises), spaced)


_BUILT: dict[tuple[str, ...], _Matcher | None] = {}
LONG = 4096
"""From this many characters on, a text is read by the whole set (`seen`)."""
_MEMORY = 64 << 20
"""RE2's memory budget for the sets of ASCII text, shared out among them (`_SHARES`)."""
_PART_BYTES = 8000
"""How many bytes of pattern each of the sets of ASCII text holds (six sets; see `_Building`): one set of them all
took 30-50 ms a new 100 KB text of manual pages, six 8-12 ms (3 ms either, a text read before)."""
_SHARES = 8
"""Each set of ASCII text's budget is `_MEMORY` over this: 8 MB."""
WIDE_MEMORY = _MEMORY
"""The same for the wide set (UTF-8) built from now on: 64 MB in the gateway's own process, whose memory no limit
bounds; a scan worker, whose address space is bounded (`scan.workers.serve_worker`), raises it to
`WORKER_WIDE_MEMORY` before it builds anything."""

WORKER_WIDE_MEMORY = 128 << 20
"""The wide set's budget in a scan worker: at 64 MB its program leaves too little room for states on long prose,
and on 100 KB of real pages with a few letters beyond ASCII its DFA reset over and over, 0.19-0.62 s a text instead
of 5-11 ms."""
WIDE_PART_BYTES = 48_000
"""How many bytes of pattern each of the wide sets holds (its 655 KB of patterns, the longest 37 KB, make 14 sets;
see `_Building`)."""
WIDE_SHARES = 8
"""Each wide set's budget is `WIDE_MEMORY` over this (16 MB in a worker: a set's program and states, one text's
worth, fit in it; 8 MB each from eight sets on took 15-40 ms a new 100 KB text against 0.3-0.7 s for one set, and
30 % more than 16 MB each)."""


class _Building:
    """RE2 search sets being filled: each pattern added beside what a hit on it means (its slot), the phrases
    it cannot hold gathered in `always`, then compiled into a `_Matcher`.

    With `part_bytes`, the patterns are dealt out in order to sets of at most that many bytes of pattern each
    (a longer pattern alone), each with `memory` bytes: the DFA of one set of every wide pattern builds a state
    for nearly every byte of a 100 KB text it has not read before, whose letters beyond ASCII make each state
    differ (0.3-0.7 s a text; its 128 MB filled within two texts, so the next text's states were built again),
    while sets of a few patterns each find their states again within the text (14 sets: 15-40 ms a new text).

    Args:
        re2: the RE2 module.
        encoding: how a pattern is given to RE2; one it cannot encode is refused like one RE2 refuses.
        latin1: read texts byte for byte (Latin-1) instead of as UTF-8.
        memory: RE2's budget for each set: its program and the DFA states it builds as texts need them.
        part_bytes: how many bytes of pattern a set holds at most; None: one set holds them all.
    """

    def __init__(
        self, re2: Any, encoding: str, *, latin1: bool = False, memory: int, part_bytes: int | None = None
    ) -> None:
        options = re2.Options()
        if latin1:
            options.encoding = re2.Options.Encoding.LATIN1
        options.log_errors = False
        options.max_mem = memory
        self._re2 = re2
        self._options = options
        self._encoding = encoding
        self._part_bytes = part_bytes
        self._parts: list[tuple[Any, int]] = []
        self._filled = 0
        self._slots: list[tuple[str, Any]] = []
        self.always: set[Phrase] = set()
        """The phrases the set cannot rule out: always to be matched in full."""
        self._open()

    def _open(self) -> None:
        self._parts.append((self._re2.Set.SearchSet(self._options), len(self._slots)))
        self._filled = 0

    def add(self, pattern: str, slot: tuple[str, Any]) -> bool:
        """Add `pattern` for `slot`; False when RE2 refuses it (or it cannot be encoded)."""
        try:
            encoded = pattern.encode(self._encoding)
        except UnicodeEncodeError:
            return False
        held = len(self._slots) - self._parts[-1][1]
        if self._part_bytes is not None and held and self._filled + len(encoded) > self._part_bytes:
            if not self._add(rb"\z", ("sentinel", None)):
                return False
            self._open()
        if not self._add(encoded, slot):
            return False
        self._filled += len(encoded)
        return True

    def _add(self, encoded: bytes, slot: tuple[str, Any]) -> bool:
        try:
            self._parts[-1][0].Add(encoded)
        except self._re2.error:
            return False
        self._slots.append(slot)
        return True

    def matcher(self) -> _Matcher | None:
        """The sets compiled, each with a last pattern every text matches at its end (a text RE2 gave up on lacks
        it); None when RE2 refuses a set."""
        if not self._add(rb"\z", ("sentinel", None)):
            return None
        try:
            for regex_set, _ in self._parts:
                regex_set.Compile()
        except self._re2.error:
            return None
        return _Matcher(self._parts, self._slots, frozenset(self.always))


def _matcher(words: tuple[str, ...]) -> _Matcher | None:
    """The set of every phrase, needed string and disguise trigger (~50 ms); None without RE2."""
    try:
        import re2
    except ImportError:
        return None
    # The texts are ASCII (or stand-ins that are): read byte for byte, a class is a byte range, not a UTF-8
    # automaton, and the DFA stays a fraction of the size.
    building = _Building(re2, "ascii", latin1=True, memory=_MEMORY // _SHARES, part_bytes=_PART_BYTES)
    add, always = building.add, building.always
    phrases = (SECRET_FILES, ENV_FILES, *PHRASES)
    for phrase in phrases:
        try:
            pattern = relaxed(phrase.regex.pattern)
        except ValueError:
            always.add(phrase)
            continue
        if pattern is None:
            continue  # it cannot match ASCII text
        flags = "(?i)" if phrase.regex.flags & re.IGNORECASE else ""
        # `^` and `$` are dropped, so MULTILINE changes nothing; another flag is not read.
        unread = phrase.regex.flags & ~(re.IGNORECASE | re.UNICODE | re.MULTILINE)
        if unread or not add(flags + pattern, ("phrase", phrase)):
            always.add(phrase)
    for needed in _needed(phrases):
        # A needed string beyond ASCII is never in ASCII text.
        spelled = [_literal(need) for need in needed if need.isascii()]
        if spelled and not add("(?i)" + "|".join(spelled), ("needs", needed)):
            return None
    triggers = dict(_TRIGGERS)
    if words:
        triggers["rot13"] = "(?i)" + "|".join(_literal(word) for word in words if word.isascii())
    for disguise, pattern in triggers.items():
        if not add(pattern, ("disguise", disguise)):
            return None
    # What letters spelled one by one need (`scan.reading.spelled_out`): one pass answers it with the rest.
    if not add(relaxed(SPACED_HINT) or "", ("spaced", None)):
        return None
    return building.matcher()


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
        self.ignorecase = False  # within `(?i:...)`, or the whole pattern's flag (read by the wide parser)

    def literal(self, char: str) -> str | None:
        if char.isascii():
            return char
        _beyond_ascii(char)  # raises unless it never matches ASCII text
        return None

    def escape(self, char: str) -> str:
        return _escape(char)

    def klass(self, text: str) -> str | None:
        return _class(text)

    def scoped(self) -> str:
        return "i:"

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
            return self.klass(pattern[at:end])
        if char == "\\":
            if at + 1 >= len(pattern):
                raise ValueError(f"a lone backslash ends {pattern!r}")
            self.at = at + 2
            return self.escape(pattern[at + 1])
        if char in "*+?{" and not (char == "{" and not _QUANTIFIER.match(pattern, at)):
            raise ValueError(f"a quantifier with nothing before it at {at} in {pattern!r}")
        self.at = at + 1
        if char in "^$":
            return ""
        return self.literal(char)

    def group(self) -> _Group:
        pattern = self.pattern
        kinds = (("(?:", ":"), ("(?<=", "<="), ("(?<!", "<!"), ("(?=", "="), ("(?!", "!"), ("(?P<", "P"))
        kind, opener = next(((k, o) for o, k in kinds if pattern.startswith(o, self.at)), (":", "("))
        scoped = _SCOPED_FLAGS.match(pattern, self.at)
        ignorecase = self.ignorecase
        if scoped is not None:  # `(?i:...)`: the one scoped flag RE2 reads as Python does
            self.at = scoped.end()
            kind = self.scoped()
            self.ignorecase = True
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
        self.ignorecase = ignorecase
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
        if pattern.startswith("+", self.at) and not match.group().endswith("?"):
            # Possessive: it matches a subset of what the greedy quantifier matches, which the relaxation keeps.
            self.at += 1
        return match.group()


_SCOPED_FLAGS = re.compile(r"\(\?i:")
_QUANTIFIER = re.compile(r"(?:[*+?]|\{\d*(?:,\d*)?\})\??")


def _escape(char: str) -> str:
    if char == "s":
        return f"[{_SPACE}]"
    if char == "S":
        return f"[^{_SPACE}]"
    if char in "AZ":
        return ""  # like `^` and `$`: a text's edges may be where lines of several texts meet
    if char in "wWdDbBnrtfv" or not char.isalnum():
        return "\\" + char
    raise ValueError(f"an escape the relaxation does not read: \\{char}")


def _class(text: str) -> str | None:
    """A character class with `\\s` spelled out and its letters beyond ASCII left out (the text is ASCII);
    `\\S` inside a class, or a range ending beyond ASCII, is not read."""
    if "\\S" in text.replace("\\\\", ""):
        raise ValueError(f"\\S inside a class: {text}")
    if not text.isascii():
        if _RANGE_BEYOND.search(text):
            raise ValueError(f"a range ending beyond ASCII: {text}")
        for char in text:
            if not char.isascii():
                _beyond_ascii(char)
        negated = text.startswith("[^")
        kept = "".join(char for char in text[2 if negated else 1 : -1] if char.isascii())
        if not kept:
            return r"[\x00-\xff]" if negated else None
        text = ("[^" if negated else "[") + kept + "]"
    return text.replace("\\s", _SPACE) if "\\s" in text.replace("\\\\", "") else text


_RANGE_BEYOND = re.compile(r"-[^\x00-\x7f]|[^\x00-\x7f]-")


def _beyond_ascii(char: str) -> None:
    """A letter beyond ASCII in a pattern never matches ASCII text (None), unless its case partner is ASCII."""
    if any(c.isascii() for c in char.lower() + char.upper() + char.casefold()):
        raise ValueError(f"{char!r} matches an ASCII letter when case is ignored")


def _unbounded(quantifier: str) -> str:
    """`quantifier` without its upper bound (`{0,50}?` is `*`): more texts match, and the DFA stays small (a
    bounded repeat of a class is as many states as its bound, for each pattern it is in)."""
    bounds = _BOUNDS.fullmatch(quantifier)
    if bounds is None:
        return quantifier[0]  # `*?`, `+?`, `??`: laziness changes where a match ends, not whether there is one
    low = int(bounds.group(1) or 0)
    return "*" if low == 0 else "+" if low == 1 else f"{{{low},}}"


_BOUNDS = re.compile(r"\{(\d*)(?:,\d*)?\}\??")


# Each emitter returns None for what can never match ASCII text (a letter beyond ASCII, a class of such letters):
# a sequence holding one never matches, an alternation never matches when none of its branches can.


def _emit_alternation(branches: list[list[Any]], *, lead: bool, trail: bool) -> str | None:
    emitted = [_emit_sequence(items, lead=lead, trail=trail) for items in branches]
    possible = [branch for branch in emitted if branch is not None]
    return "|".join(possible) if possible else None


def _emit_sequence(items: list[Any], *, lead: bool, trail: bool) -> str | None:
    out: list[str] = []
    last = len(items) - 1
    for i, item in enumerate(items):
        emitted = _emit(item, lead=lead and i == 0, trail=trail and i == last)
        if emitted is None:
            return None
        out.append(emitted)
    return "".join(out)


def _emit(item: Any, *, lead: bool, trail: bool) -> str | None:
    if item is None or isinstance(item, str):
        return item
    if isinstance(item, _Repeat):
        inner = _emit(item.item, lead=False, trail=False)
        quantifier = _unbounded(item.quantifier)
        if inner is None:  # repeated no times, or never
            return "" if quantifier in ("*", "?") else None
        return f"(?:{inner}){quantifier}" if inner else ""
    kind = item.kind
    if kind in (":", "i:"):
        body = _emit_alternation(item.body, lead=lead, trail=trail)
        return None if body is None else f"(?{kind}{body})"
    # A lookbehind that opens the match, or a lookahead that closes it, is consumed: the match then exists
    # exactly when the original's does. Any other lookaround is dropped, which only lets more texts in.
    if (kind == "<=" and lead) or (kind == "=" and trail):
        body = _emit_alternation(item.body, lead=False, trail=False)
        return None if body is None else f"(?:{body})"
    return ""


# Text with letters beyond ASCII (Cyrillic, Chinese, accented prose) is read by a second set, in RE2's UTF-8 mode,
# built at the first long such text. RE2's classes and case folding are not Python's beyond ASCII, so each phrase
# is relaxed for that text on its own terms (`relaxed_wide`): what Python's engine would match there, on the text as
# written and on its look-alike view (`scan.reading` folds Cyrillic and Greek look-alikes to Latin before matching
# again), RE2 matches too.


def relaxed_wide(pattern: str, *, ignorecase: bool = False, folds: bool = True, in_place: bool = False) -> str | None:
    """`pattern` (Python's syntax) as an RE2 pattern for UTF-8 text that matches wherever Python's matches on the
    text or on the text with its look-alike letters folded (`hints.names.fold_lookalikes`); None when it never can.

    Case is spelled out as Python's engine compares letters (each letter becomes the class of the letters it
    matches), look-alikes are spelled in beside the letter they fold to, `\\w` and `\\W` count every character
    beyond ASCII as either, `\\s` and `\\d` are Python's own classes, and `\\b`, `\\B` are dropped (RE2's are ASCII's).
    The result is matched case-sensitively.

    Args:
        pattern: the pattern, in Python's syntax.
        ignorecase: whether Python's engine matches it with case ignored.
        folds: whether it is matched on the look-alike view too (False: on the text as written only).
        in_place: a lookbehind that opens the match is dropped, not consumed (`relaxed_in_place`).

    Raises:
        ValueError: a construct the relaxation does not read (the pattern is then left out of the set).
    """
    return _relax(_WideParser(pattern, ignorecase=ignorecase, folds=folds), lead=not in_place)


def _seen_beyond_ascii(text: str, words: tuple[str, ...], *, build: bool) -> Seen | None:
    """What the wide set rules out in a long `text` beyond ASCII; None for a short one (cheap to scan in full,
    and each would build DFA states of its own), one NFKC changes (`scan.reading` reads it normalised), or
    when there is no set."""
    if len(text) < LONG or not unicodedata.is_normalized("NFKC", text):
        return None
    if build and words not in _WIDE and len(text) >= WIDE_BUILD:
        _WIDE[words] = _wide_matcher(words)
    matcher = _WIDE.get(words)
    if matcher is None:
        return None
    try:
        encoded = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: not text RE2 reads
        return None
    return matcher.seen_bytes(encoded)


_WIDE: dict[tuple[str, ...], _Matcher | None] = {}
_MAX = 0x10FFFF
WIDE_BUILD = 8192
"""The wide set is built (about 0.3 s of CPU, once per process) by a text at least this long beyond ASCII, which
a gateway scans in a worker process (`scan.workers.INLINE_CHARACTERS`), never on its event loop; a shorter one
is read by it once it is built."""


class _WideParser(_Parser):
    """The parse of `_Parser`, each atom relaxed for UTF-8 text (see `relaxed_wide`)."""

    def __init__(self, pattern: str, *, ignorecase: bool, folds: bool) -> None:
        super().__init__(pattern)
        self.ignorecase = ignorecase  # the whole pattern's flag; `(?i:...)` sets it within
        self.folds = folds

    def literal(self, char: str) -> str | None:
        if char == ".":
            return "."  # any character but a line break, in both engines
        return _render(_variants(char, ignorecase=self.ignorecase, folds=self.folds), negated=False)

    def escape(self, char: str) -> str:
        tables = _tables()
        if char in "sdwSDW":
            return _render(tables.escapes[char], negated=False)
        if char in "bB":
            return ""
        if char in "AZ":
            return ""
        if char in "nrtfv":
            return "\\" + char
        if not char.isalnum():
            return _render([(ord(char), ord(char))], negated=False)
        raise ValueError(f"an escape the relaxation does not read: \\{char}")

    def klass(self, text: str) -> str | None:
        return _wide_class(text, ignorecase=self.ignorecase, folds=self.folds)

    def scoped(self) -> str:
        return ":"  # the case is spelled out; RE2's own folding would add exclusions to a negated class


@dataclass(frozen=True, slots=True)
class _Tables:
    """What the wide relaxation reads Python's engine by, built once from the running Unicode version."""

    lowered: dict[str, set[str]]
    """Per simple lowercase letter, every other letter whose simple lowercase it is."""
    folded: dict[str, set[str]]
    """Per Latin letter (or digit), the look-alikes `fold_lookalikes` folds to it."""
    escapes: dict[str, list[tuple[int, int]]]
    """`\\s`, `\\d`, `\\w` and their negations as code point ranges, on both views (`\\S` is every non-space...)."""
    outside: dict[str, list[tuple[int, int]]]
    """The same, for inside a negated class: what the class may leave out (ASCII only for `\\w`, `\\S`, ...)."""
    seam: list[tuple[int, int]]
    """The letters `scan.poisoning` looks for next to Greek or Cyrillic ones (a word mixing scripts), as ranges."""
    invisible: list[tuple[int, int]]
    """Every code point `scan.reading` reads as invisible."""
    varied: list[int]
    """Every code point with a case partner, a look-alike or an extra case, in order."""


@functools.cache
@built
def _tables() -> _Tables:
    # The planes that hold cased letters, digits, spaces and look-alikes (0 and 1); the rest have none of them.
    chars = "".join(map(chr, range(0x20000)))
    lowered: dict[str, set[str]] = {}
    # `str.lower` is the simple lowercase mapping but for U+0130 (its full one is two code points).
    low = chars.replace("\u0130", "i").lower()
    for char, lower in zip(chars, low, strict=True):
        if char != lower:
            lowered.setdefault(lower, set()).add(char)
    lowered["i"].add("\u0130")
    folded: dict[str, set[str]] = {}
    for char, fold in zip(chars, fold_lookalikes(chars), strict=True):
        if char != fold:
            folded.setdefault(fold, set()).add(char)
    spaces = _runs(r"\s", chars)
    digits = _runs(r"\d", chars)
    digits_folded = _merged([*digits, *((ord(c), ord(c)) for d in "0123456789" for c in folded.get(d, ()))])
    word = [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A), (0x80, _MAX)]
    ascii_word = word[:-1]
    escapes = {
        "s": spaces,
        "S": _complement(spaces),
        "d": digits_folded,
        "D": _merged([*_complement(digits), *((ord(d), ord(d)) for d in _LEET_DIGITS)]),
        "w": word,
        "W": _complement(ascii_word),
    }
    outside = {
        "s": spaces,
        "d": _without(digits, [ord(d) for d in _LEET_DIGITS]),
        "w": ascii_word,
        "S": _within_ascii(_complement(spaces)),
        "D": _within_ascii(_complement(digits)),
        "W": _within_ascii(_complement(ascii_word)),
    }
    greek_cyrillic = r"\u0370-\u03ff\u0400-\u052f"
    seam = [*_runs(rf"[^\W\d_{greek_cyrillic}]", chars), (0x20000, _MAX)]
    planes = [*range(0x20000), *range(0xE0000, 0xE1000)]
    invisible = _merged([(code, code) for code in planes if is_invisible(chr(code))])
    varied = sorted(
        {
            *(ord(c) for group in (lowered, folded) for key, values in group.items() for c in (key, *values)),
            *(code for key, values in _extra_cases().items() for code in (key, *values)),
        }
    )
    return _Tables(lowered, folded, escapes, outside, seam, invisible, varied)


def _runs(pattern: str, chars: str) -> list[tuple[int, int]]:
    """The code point ranges of `chars` (one each, in order) that Python's `pattern` (one character) matches."""
    return [(ord(chars[m.start()]), ord(chars[m.end() - 1])) for m in re.finditer(f"(?:{pattern})+", chars)]


def _merged(ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for low, high in sorted(ranges):
        if out and low <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], high))
        else:
            out.append((low, high))
    return out


def _complement(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    at = 0
    for low, high in _merged(ranges):
        if low > at:
            out.append((at, low - 1))
        at = high + 1
    if at <= _MAX:
        out.append((at, _MAX))
    return out


def _within_ascii(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(low, min(high, 0x7F)) for low, high in ranges if low <= 0x7F]


def _equivalents(char: str) -> set[str]:
    """The letters Python's engine matches `char` with when case is ignored (its simple lowercase, and the few
    letters `re` adds by hand: dotless i and long s, ...)."""
    tables = _tables()
    lower = char.lower()
    lower = lower[0] if lower else char
    group = {lower, *(chr(code) for code in _extra_cases().get(ord(lower), ()))}
    out = {char}
    for letter in group:
        out.add(letter)
        out.update(tables.lowered.get(letter, ()))
    return out


@functools.cache
@built
def _extra_cases() -> dict[int, tuple[int, ...]]:
    # The letters `re` matches as one another although their lowercase differs (i and dotless i, s and long s,
    # ...): its own table, read where this Python keeps it.
    try:
        from re import _casefix  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - every supported Python has it
        return {}
    return dict(_casefix._EXTRA_CASES)


def _variants(char: str, *, ignorecase: bool, folds: bool = True) -> list[tuple[int, int]]:
    """Every character a text may hold where Python's engine matches `char`, on the text or (`folds`) its
    look-alike view."""
    matched = _equivalents(char) if ignorecase else {char}
    out = set(matched)
    if folds:
        # The look-alike view folds a letter to Latin (and `з` to `3`), the leetspeak view reads that view's
        # digits as letters: a character is possible where either view turns it into one matched.
        out.update(digit for digit, letter in _LEET_DIGITS.items() if letter in matched)
        folded = _tables().folded
        for letter in list(out):
            out.update(folded.get(letter, ()))
    return _merged((ord(c), ord(c)) for c in out)


_LEET_DIGITS = {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t"}


def _wide_class(text: str, *, ignorecase: bool, folds: bool) -> str:
    """A character class (Python's syntax) relaxed for UTF-8 text: a class spelled out with every letter's
    variants, or a negated class leaving out only what Python's engine leaves out on both views."""
    negated = text.startswith("[^")
    body = text[2 if negated else 1 : -1]
    members: list[tuple[int, int]] = []
    escapes: list[str] = []
    i = 0

    def one(at: int) -> tuple[int, int]:
        if body[at] != "\\":
            return ord(body[at]), at + 1
        char = body[at + 1]
        if char.isalnum() and char not in "nrtfv":
            raise ValueError(f"an escape the relaxation does not read in a class: {text}")
        return ord({"n": "\n", "r": "\r", "t": "\t", "f": "\f", "v": "\v"}.get(char, char)), at + 2

    while i < len(body):
        if body[i] == "\\" and body[i + 1 : i + 2] and body[i + 1] in "sSwWdD":
            escapes.append(body[i + 1])
            i += 2
            continue
        low, i = one(i)
        if body[i : i + 1] == "-" and i + 1 < len(body):
            high, i = one(i + 1)
            members.append((low, high))
        else:
            members.append((low, low))
    tables = _tables()
    if not negated:
        ranges = list(members)
        for low, high in members:
            # The members with variants (a case partner, a look-alike): looked up by range in the table of them.
            first = bisect.bisect_left(tables.varied, low)
            last = bisect.bisect_right(tables.varied, high)
            for code in tables.varied[first:last]:
                ranges.extend(_variants(chr(code), ignorecase=ignorecase, folds=folds))
        for escape in escapes:
            ranges.extend(tables.escapes[escape])
        return _render(_merged(ranges), negated=False)
    # Left out: what Python's engine leaves out whichever view it reads, so a member a look-alike folds away from
    # (a Cyrillic letter that reads as Latin on the folded view) stays possible.
    away = _images(tables) if folds else {}
    kept: list[tuple[int, int]] = []
    for low, high in members:
        start = low
        for code in sorted(c for c in away if low <= c <= high):
            if not all(any(a <= image <= b for a, b in members) for image in away[code]):
                if code > start:
                    kept.append((start, code - 1))
                start = code + 1
        if start <= high:
            kept.append((start, high))
    for escape in escapes:
        kept.extend(tables.outside[escape])
    if not kept:
        return _render([(0, _MAX)], negated=False)
    return _render(_merged(kept), negated=True)


def _images(tables: _Tables) -> dict[int, set[int]]:
    """Per character the look-alike or leetspeak view changes, what it becomes there."""
    images: dict[int, set[int]] = {}
    for fold, chars in tables.folded.items():
        for char in chars:
            images.setdefault(ord(char), set()).update({ord(fold), ord(_LEET_DIGITS.get(fold, fold))})
    for digit, letter in _LEET_DIGITS.items():
        images.setdefault(ord(digit), set()).add(ord(letter))
    return images


def _without(ranges: list[tuple[int, int]], codes: list[int]) -> list[tuple[int, int]]:
    return _complement(_merged([*_complement(ranges), *((code, code) for code in codes)]))


def _render(ranges: list[tuple[int, int]], *, negated: bool) -> str:
    """Code point ranges as an RE2 class (a single character as itself, escaped)."""
    if not negated and len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return _char(ranges[0][0])
    body = "".join(_char(low) if low == high else f"{_char(low)}-{_char(high)}" for low, high in ranges)
    return f"[{'^' if negated else ''}{body}]"


def _char(code: int) -> str:
    char = chr(code)
    if char.isascii() and (char.isalnum() or char in " _"):
        return char
    return f"\\x{{{code:x}}}"


def _wide_matcher(words: tuple[str, ...]) -> _Matcher | None:
    """The wide set: every phrase, needed string and disguise trigger relaxed for UTF-8 text, and what makes a
    text's findings of its own (invisible characters, a word mixing scripts); None without RE2."""
    try:
        import re2
    except ImportError:
        return None
    building = _Building(re2, "utf-8", memory=WIDE_MEMORY // WIDE_SHARES, part_bytes=WIDE_PART_BYTES)
    add, always = building.add, building.always
    phrases = (SECRET_FILES, ENV_FILES, *PHRASES)
    for phrase in phrases:
        unread = bool(phrase.regex.flags & ~(re.IGNORECASE | re.UNICODE | re.MULTILINE))
        try:
            ignorecase = bool(phrase.regex.flags & re.IGNORECASE)
            pattern = None if unread else relaxed_wide(phrase.regex.pattern, ignorecase=ignorecase)
        except ValueError:
            pattern, unread = None, True
        if unread or (pattern is not None and not add(pattern, ("phrase", phrase))):
            always.add(phrase)
    for needed in _needed(phrases):
        # Looked for in the text's lowercase: as Python's engine would with case ignored, on either view.
        spelled = "|".join(relaxed_wide(re.escape(need), ignorecase=True) or "" for need in needed)
        if not add(f"(?:{spelled})", ("needs", needed)):
            return None
    tables = _tables()
    triggers = {
        # Leetspeak as `scan.reading` looks for it in text it reads as written (in text with look-alikes, it reads
        # the leetspeak of their view unasked: the phrases and needed strings above cover that view).
        "leet": relaxed_wide(_LEET, folds=False),
        "entities": _TRIGGERS["entities"],
        "comment": _TRIGGERS["comment"],
        "base64": _TRIGGERS["base64"],
        # What `scan.reading` checks first in text beyond ASCII: `0x`, or three pairs with Python's spaces.
        "hex": relaxed_wide(r"0x|[0-9A-Fa-f]{2}[\s:,]?[0-9A-Fa-f]{2}[\s:,]?[0-9A-Fa-f]{2}", folds=False),
        "percent": _TRIGGERS["percent"],
        "invisible": _render(tables.invisible, negated=False),
        "seam": f"{_render(tables.seam, negated=False)}[\\x{{370}}-\\x{{52f}}]|[\\x{{370}}-\\x{{52f}}]"
        f"{_render(tables.seam, negated=False)}",
    }
    if words:
        triggers["rot13"] = relaxed_wide("|".join(re.escape(word) for word in words), ignorecase=True, folds=False)
    for disguise, pattern in triggers.items():
        if pattern is None or not add(pattern, ("disguise", disguise)):
            return None
    return building.matcher()
