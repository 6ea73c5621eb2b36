"""Where in a text a phrase can start: the words the poisoning scan tries its anchored phrases at.

Pure. Most phrases of `scan.phrases` start with one of a few words ("ignore",
"you", "before", ...), so the scan tries each only where such a word starts
(`Phrase.first`). A short text (a tool's description) is walked word by word.
A long text (a tool's result: a web page, a file, a log) would cost a Python
step for every word and a regex call for every common one ("you", "in",
"run"), most of which start nothing; it is gated instead, in C:

- RE2 names the places where one of the phrases may match (`places`: each
  phrase relaxed so that every place it matches is among them, one pass of
  its automaton over the text), and only the words standing there are read;
  where RE2 cannot say, the words of the lowercased text are read in one
  pass; each distinct word's phrases and gate are looked up once;
- where a word that some phrase can start with stands, its gate (the
  alternatives that can start with it, lowercased) is matched on the
  lowercased text;
- only those places (few, in honest text) are handed back to the scan, which
  matches each phrase there exactly as it would have in the word walk.

The phrases a long text is searched for whole (a secret file's name, a tag) are
searched lowercased on its lowercase (`searched`): case-insensitive matching
keeps the regex engine from skipping to where a literal's first character
stands; and only from the places RE2 names for it. A gate is compiled once per
word, on first use. The gate and RE2's places are necessary conditions: every
place where a phrase matches passes both, so gating changes what is found in
no text. Text whose lowercase has a different length, or
letters that case-insensitive matching folds differently from `str.lower`
(dotless i, long s, final sigma, ...), is walked word by word.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterable, Iterator
from typing import Any

from hintgate.scan.deferred import built
from hintgate.scan.patterns import branches, closing
from hintgate.scan.phrases import PHRASES, Phrase
from hintgate.scan.prefilter import ascii_stand_in, relaxed_in_place, relaxed_wide, seen
from hintgate.scan.re2_options import re2_compiled
from hintgate.scan.reading import ROT13_WORDS

__all__ = ["GATED_LENGTH", "anchors", "lowered", "places", "searched", "starting", "starts", "warm"]

GATED_LENGTH = 4096
"""Texts at least this long are gated; shorter ones are walked word by word (cheaper than a search per word)."""

_WORD = re.compile(r"[^\W_]+")
# Every ASCII character but letters and digits becomes a space: `split` then yields exactly the `_WORD` runs.
_SPLIT_ASCII = str.maketrans({c: " " for c in map(chr, range(128)) if not c.isalnum()})
_STARTING: dict[str, tuple[Phrase, ...]] = {}


def starting(word: str) -> tuple[Phrase, ...]:
    """The phrases that can start with `word` (lowercase), remembered per word (a dict lookup on the hot path)."""
    found = _STARTING.get(word)
    if found is None:
        found = tuple(p for p in PHRASES if p.first is not None and p.first.fullmatch(word))
        if len(_STARTING) < 65536:  # words are bounded by the languages; text that invents words is not kept
            _STARTING[word] = found
    return found


def anchors(text: str, tried: Collection[Phrase]) -> Iterator[tuple[int, tuple[Phrase, ...]]]:
    """Every place in `text`, in order, where a word starts that a phrase can start with, and those phrases.

    A long text yields only the places where the gate of one of the `tried`
    phrases lets the word through (see the module's description), with those
    phrases only; every place where one of them matches is among them. A short
    text yields every place, with every phrase that can start there: the
    caller skips those it does not try.
    """
    gated = lowered(text)
    if gated is not None:
        yield from _gated(gated, tried, places(text, tried))
        return
    low = text.lower()
    if len(low) != len(text):  # a letter whose lowercase is longer (İ): positions must come from the text itself
        low = text
    lookup = _STARTING.get
    # The words are listed in C; a word's place is looked up only when a phrase can start with it.
    cursor = 0
    for word in _WORD.findall(low):
        phrases = lookup(word)
        if phrases is None:
            phrases = starting(word.lower())
        if phrases:
            at = _standing(low, word, cursor)
            cursor = at + len(word)
            yield at, phrases


def lowered(text: str) -> str | None:
    """`text` in lowercase when it is long enough to be gated and matching its lowercase case-sensitively is
    matching it case-insensitively; else None."""
    if len(text) < GATED_LENGTH:
        return None
    low = text.lower()
    if len(low) != len(text) or not (low.isascii() or not _folds_apart(text)):
        return None
    return low


def searched(phrase: Phrase, text: str, low: str) -> Iterator[re.Match[str]]:
    """The matches of `phrase` in a long `text`, as `phrase.regex.finditer(text)` gives them.

    The phrase is searched, lowercased, on the text's lowercase (`lowered`):
    without case-insensitive matching the engine can skip to where a literal's
    first character stands. Each match is matched again on the text itself,
    so that what it holds is what the text says. Where RE2 can say where the
    lowercased phrase may match (`starts`), it is matched there only, in the
    order and with the overlaps `finditer` gives: Python's engine read the whole
    text once per phrase (about 7 ms for 100 KB of prose, 7 phrases a text).
    """
    search = _lowercase(phrase)
    if search is None:
        yield from phrase.regex.finditer(text)
        return
    at = starts(low, ((search.pattern, search.flags),))
    if at is None:
        found: Iterator[re.Match[str]] = search.finditer(low)
    else:
        found = _found_at(search, low, at)
    for match in found:
        again = phrase.regex.match(text, match.start())
        if again is not None:
            yield again


def _found_at(search: re.Pattern[str], low: str, places: list[int]) -> Iterator[re.Match[str]]:
    """`search.finditer(low)`, given `places` holding every place where `search` matches: the next match is the one
    at the first place from the end of the last."""
    end = 0
    for at in places:
        if at < end:
            continue
        match = search.match(low, at)
        if match is None:
            continue
        if match.end() == match.start():  # an empty match: `finditer`'s own rule for what may follow it
            yield from search.finditer(low, end)
            return
        yield match
        end = match.end()


@functools.cache
@built
def _lowercase(phrase: Phrase) -> re.Pattern[str] | None:
    if phrase.regex.flags & ~(re.IGNORECASE | re.UNICODE) or not phrase.regex.flags & re.IGNORECASE:
        return None
    return re.compile(_lowered(phrase.regex.pattern))


def _standing(low: str, word: str, cursor: int) -> int:
    """Where `word` next stands alone (not inside a longer word) in `low`, from `cursor` on."""
    while True:
        at = low.index(word, cursor)
        end = at + len(word)
        if (at == 0 or not low[at - 1].isalnum()) and (end == len(low) or not low[end].isalnum()):
            return at
        cursor = at + 1


def places(text: str, tried: Collection[Phrase]) -> list[int] | None:
    """Every place in a long `text`, in order, where one of the `tried` phrases may match (`starts`), of the phrases
    the prefilter's set leaves possible; None when RE2 cannot say.

    The places where a phrase's gate lets a word through number thousands in 100 KB of prose ("a", "is", "in"
    start phrases), each a Python step and a match of the gate: 25-45 ms a text. Those where a phrase may match
    number a few dozen.
    """
    if len(tried) > 1:
        read = _read(text)
        quick = seen(text if read is None else read, words=ROT13_WORDS)
        if quick is not None:
            tried = [phrase for phrase in tried if phrase in quick.phrases]
    return starts(text, [(phrase.regex.pattern, phrase.regex.flags) for phrase in tried])


def starts(text: str, patterns: Iterable[tuple[str, int]]) -> list[int] | None:
    """Every place in `text`, in order, where one of `patterns` (Python's syntax, with its flags) may match: one RE2
    pass over the text for each, reading it relaxed in place (`prefilter.relaxed_in_place`, `prefilter.relaxed_wide`:
    every place where the pattern matches is among them). ASCII text, and text whose only other characters are
    punctuation and symbols, is read through its ASCII stand-in (`prefilter.ascii_stand_in`) byte for byte; other
    text as UTF-8. None when RE2 cannot say (a pattern the relaxation does not read, text UTF-8 cannot spell, no
    RE2).
    """
    if _unanchored() is None:
        return None
    read = _read(text)
    wide = read is None
    try:
        raw = text.encode("utf-8") if read is None else read.encode("ascii")
    except UnicodeEncodeError:  # a lone surrogate
        return None
    anywhere, end = _unanchored(), len(raw)
    found: set[int] = set()
    for pattern, flags in patterns:
        engine = _engine(pattern, flags, wide=wide)
        if engine is None:
            return None
        if engine is _NEVER:
            continue
        at = read_over = 0
        while at <= end:
            start, stop = engine.Match(anywhere, raw, at, end)[0]
            if start < 0:
                break
            # Each search reads on to its match's end: matches that overlap far (a run to the end of a long
            # line, from each of its places) would read the text again and again; past `_READS` passes RE2 does
            # not say, and the words are walked (linear).
            read_over += stop - at
            if read_over > _READS * (end + 1):
                return None
            found.add(start)
            at = start + 1
    return _characters(raw, sorted(found)) if wide else sorted(found)


_READS = 4
"""How many times over one pattern's searches may read the text before `starts` gives up."""


_LAST_READ: list[tuple[str, str | None]] = []


def _read(text: str) -> str | None:
    """`text` as RE2 reads it byte for byte: itself when ASCII, else its ASCII stand-in, or None; the last answer
    kept (a text's phrases are searched one after the other)."""
    if text.isascii():
        return text
    last = _LAST_READ[-1] if _LAST_READ else None
    if last is not None and last[0] is text:
        return last[1]
    read = ascii_stand_in(text)
    _LAST_READ[:] = [(text, read)]
    return read


def _characters(raw: bytes, starts: list[int]) -> list[int]:
    """The offsets in characters of `starts`, offsets in the UTF-8 bytes `raw` where characters start."""
    out: list[int] = []
    char = byte = 0
    for start in starts:
        char += len(raw[byte:start].decode("utf-8"))
        byte = start
        out.append(char)
    return out


_NEVER = object()
"""The engine of a phrase that cannot match the text it would read."""


@functools.lru_cache(maxsize=1024)  # the phrases and their lowercase forms, for either text: a few hundred
@built
def _engine(source: str, flags: int, *, wide: bool) -> Any:
    """RE2's compiled pattern of `source` relaxed in place, for ASCII text (Latin-1) or, `wide`, UTF-8 text;
    `_NEVER` when it cannot match such text; None when the relaxation does not read it or RE2 refuses it."""
    if flags & ~(re.IGNORECASE | re.UNICODE | re.MULTILINE):
        return None  # `^` and `$` are dropped, so MULTILINE changes nothing; another flag is not read
    ignorecase = bool(flags & re.IGNORECASE)
    try:
        if wide:
            pattern = relaxed_wide(source, ignorecase=ignorecase, folds=False, in_place=True)
        else:
            pattern = relaxed_in_place(source)
    except ValueError:
        return None
    if pattern is None:
        return _NEVER
    # Wide, case spelt out (`relaxed_wide` spells it as Python's engine compares letters); else a byte a character.
    written: str | bytes = pattern if wide else pattern.encode("latin-1")
    engine = re2_compiled(written, latin1=not wide, case_sensitive=wide or not ignorecase, max_mem=_MEMORY)
    # The compiled RE2 itself, searched from any place of the bytes as `cues` does (the binding's search encodes
    # the whole text and counts its offsets again at every call); None, and no places, if the binding moves it.
    return getattr(engine, "_regexp", None)


_MEMORY = 16 << 20
"""RE2's budget for one phrase's engine: its program and the DFA states long prose builds."""


@functools.cache
@built
def _unanchored() -> Any:
    """RE2's flag for a search anywhere in the text; None without RE2."""
    try:
        from re2 import _re2  # type: ignore[attr-defined]  # the compiled binding, missing from the stubs
    except ImportError:  # pragma: no cover - google-re2 is a dependency
        return None
    return _re2.RE2.Anchor.UNANCHORED


def _gated(low: str, tried: Collection[Phrase], at: list[int] | None) -> Iterator[tuple[int, tuple[Phrase, ...]]]:
    # One pass over the text's words, or over the words standing at the places `at` where a phrase may match: each
    # distinct word's phrases and gate are looked up once, and a word that some phrase can start with is tried where
    # it stands (a search of the whole text for each such word cost 40 ms for 100 KB of real prose, which holds a
    # few hundred of them).
    gates: dict[str, tuple[tuple[Phrase, ...], re.Pattern[str] | None]] = {}
    words = _WORD.finditer(low) if at is None else _standing_at(low, at)
    for word in words:
        found = gates.get(word.group())
        if found is None:
            phrases = tuple(p for p in starting(word.group()) if p in tried)
            found = gates[word.group()] = (phrases, _gate(word.group(), phrases) if phrases else None)
        if found[1] is not None and found[1].match(low, word.start()) is not None:
            yield word.start(), found[0]


def _standing_at(low: str, places: list[int]) -> Iterator[re.Match[str]]:
    """The words of `low` that start at one of `places` (in order)."""
    for at in places:
        if at < len(low) and low[at].isalnum() and (at == 0 or not low[at - 1].isalnum()):
            word = _WORD.match(low, at)
            if word is not None:
                yield word


@functools.lru_cache(maxsize=1024)  # a few hundred after the corpus and every blind set; bounded whatever the text
def _gate(word: str, phrases: tuple[Phrase, ...]) -> re.Pattern[str] | None:
    """What one of the `phrases`' alternatives that can start with `word` matches, from where the word stands;
    None when none can."""
    alternatives: list[str] = []
    for phrase in phrases:
        if phrase.regex.flags & ~(re.IGNORECASE | re.UNICODE) or not phrase.regex.flags & re.IGNORECASE:
            # A case-sensitive phrase (a role marker in capitals) cannot be matched on lowercased text:
            # every place the word stands alone passes.
            alternatives = [""]
            break
        for leads, lowered in _branches(phrase):
            if leads is None or any(word.startswith(lead) for lead in leads):
                alternatives.append(lowered)
    if not alternatives:
        return None
    return re.compile("|".join(f"(?:{a})" for a in alternatives))


@functools.cache  # one entry a phrase
@built
def _branches(phrase: Phrase) -> tuple[tuple[tuple[str, ...] | None, str], ...]:
    """Each branch of the `phrase`'s alternatives, in order: the letters it must start with (`_leads`) and its
    pattern lowercased (`_lowered`), read once a phrase rather than once a gate (a new word's gate read them all
    again: 60 ms a gate on 100 KB of pages a worker had not read before)."""
    return tuple(
        (_leads(branch), _lowered(branch)) for alternative in phrase.alternatives for branch in branches(alternative)
    )


def _leads(branch: str) -> tuple[str, ...] | None:
    """The lowercase letters every match of `branch` must start with, one string per way it can start.

    None when that cannot be read off the pattern (a group that is optional, a
    lookbehind, a class): the branch is then tried after every word.
    """
    body = branch[2:] if branch.startswith(r"\b") else branch
    if body.startswith("(?:"):
        end = closing(body)
        if end is None or body[end + 1 : end + 2] in ("?", "*", "{"):
            return None
        items = branches(body[3:end])
    else:
        items = [body]
    leads = []
    for item in items:
        lead = _lead(item)
        if not lead:
            return None
        leads.append(lead.lower())
    return tuple(leads)


def _lead(item: str) -> str:
    """The letters and digits `item` starts with that no quantifier makes optional."""
    out = []
    for i, char in enumerate(item):
        if not char.isalnum():
            break
        if item[i + 1 : i + 2] in ("?", "*", "{"):
            break
        out.append(char)
    return "".join(out)


def _lowered(pattern: str) -> str:
    """`pattern` with its literal letters lowercased, escapes (`\\S`, `\\W`, `\\D`, `\\B`) kept as written."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern[i] == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        out.append(pattern[i].lower())
        i += 1
    return "".join(out)


@functools.cache
@built
def _apart() -> re.Pattern[str]:
    # Letters whose `str.lower` is not what case-insensitive matching compares them as: their case partner
    # lowercases to another letter (ſ, ı, ς, ϐ, µ, ẛ, ...), or the lowercase depends on the letters around
    # (capital sigma). Built once, on first use, from the running Unicode version (~0.1 s).
    codes = [
        code
        for code in range(0x80, 0x20000)
        if len((char := chr(code)).upper()) == 1 and char.lower() != char.upper().lower()
    ]
    # Letters whose uppercase is several letters, matched as one another (ΐ and ΐ, ΰ and ΰ, ﬅ and ﬆ).
    codes.extend((0x0390, 0x1FD3, 0x03B0, 0x1FE3, 0xFB05, 0xFB06, 0x03A3))
    return re.compile("[" + "".join(re.escape(chr(code)) for code in sorted(set(codes))) + "]")


def _folds_apart(text: str) -> bool:
    return _apart().search(text) is not None


def warm() -> None:
    """Build now the letters whose case folds apart, read at the first long text beyond ASCII
    (`hintgate.cli.serve.warm_result_scan`, on a thread of its own)."""
    _apart()
