"""The sentence judge's patterns: searched by RE2, and only where one of their words stands.

Pure. The judge of orders (`scan.orders`) asks two dozen questions of each
sentence (is the model named, is a secret taken, is the user kept in the
dark, ...), each a large alternation over a dozen languages. Python's engine
tries every alternative at every position: about 0.3 ms a pattern for one
300-character sentence. Two things make it cheap:

- a `Cue` is searched with RE2 when its pattern has no lookaround, with the
  matches, groups and spans Python's engine gives: ASCII text (and text whose
  other characters are punctuation, through a stand-in) by a Latin-1 automaton
  of the pattern as Python reads ASCII (RE2's own `\\b`, `\\w`, `\\d`;
  Python's `\\s`), a few microseconds a sentence; other text by a UTF-8
  automaton of the pattern widened (`\\b` dropped, which RE2 reads in ASCII
  only), which says where a match may start, and Python's engine anchored
  there;
- a *gated* cue (what an order reaches for: a secret, the user's view, the
  approval flow, ...) is searched only where `present` saw one of its words:
  every alternative of such a pattern spells a run of letters, and one search
  of all those words (a literal alternation, which RE2's DFA reads in one pass
  of the lowercased text) tells which gated cues can match at all. An honest
  tool's text usually holds none.

Without `google-re2` every cue is searched by Python's engine (the same
judgement, slower).
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Iterable, Iterator
from typing import Any

from hintgate.scan.deferred import built
from hintgate.scan.patterns import branches, class_end, closing, for_ascii, pieces
from hintgate.scan.re2_options import quiet_options, re2_compiled
from hintgate.scan.reading import replaced, stand_ins

__all__ = ["Cue", "any_match", "present", "spans", "spelled", "stand_in", "warm", "without_lookarounds"]

_ALL: list[Cue] = []


class Cue:
    """A pattern of the judge: searched exactly (`search`, `match`), and gated on its words when `gated`."""

    def __init__(self, pattern: str, flags: int = re.IGNORECASE, *, gated: bool = False) -> None:
        self.pattern = pattern
        self.flags = flags
        self.gated = gated
        self.index = len(_ALL)
        _ALL.append(self)

    @functools.cached_property
    @built
    def _python(self) -> re.Pattern[str]:
        """Python's engine of the cue: what every match is (the engines below find the same, faster)."""
        return re.compile(self.pattern, self.flags)

    @functools.cached_property
    @built
    def _engine(self) -> Any:
        """RE2's engine of the cue's pattern widened (`_wide`; a pattern with lookarounds without them, `_relaxed`:
        a lookaround only narrows a match, and takes no character): every match of the cue starts where one of it
        does, and Python's engine is asked there (`_exact`); Python's engine itself where RE2 has none."""
        pattern = self.pattern if _LOOKAROUND.search(self.pattern) is None else _relaxed(self.pattern, self.flags)
        fast = _re2(_wide(pattern, self.flags), self.flags)
        return self._python if fast is None else fast

    @functools.cached_property
    @built
    def _ascii(self) -> Any:
        """The RE2 engine for ASCII text: the cue's pattern as Python's engine reads ASCII text (`_narrow`, RE2's
        own `\\b`), read as Latin-1 (`patterns.for_ascii`), whose automaton is a fraction of the UTF-8 one's, in
        size and in the memory its states take as it reads; None where there is none (lookaround, or a character
        beyond Latin-1 that folds to ASCII)."""
        if _LOOKAROUND.search(self.pattern) is not None:
            return None
        narrow = _narrow(self.pattern, self.flags)
        pattern = None if narrow is None else for_ascii(narrow)
        return None if pattern is None else _re2(pattern, self.flags, latin1=True)

    @functools.cached_property
    def _line_end(self) -> bool:
        """Whether the pattern holds `$` read at the text's end only: Python's also stands before a last line
        break, RE2's does not (a text ending with one is not read by the ASCII engine)."""
        return not self.flags & re.MULTILINE and any(piece == "$" for _, piece in pieces(self.pattern))

    @functools.cached_property
    @built
    def _utf8_parts(self) -> tuple[Any, ...]:
        """RE2 engines of runs of the top-level branches of `_engine`'s pattern, by which a long text is searched
        for where a match may start (`_exact`); empty where there are none (`_split`)."""
        return _split(self._engine, self.flags, latin1=False)

    @functools.cached_property
    @built
    def _ascii_parts(self) -> tuple[Any, ...]:
        """The same of `_ascii`'s pattern (`_split_matches`)."""
        return _split(self._ascii, self.flags, latin1=True)

    @functools.cached_property
    @built
    def _gate(self) -> Any:
        """For a cue Python's engine searches (its pattern has lookarounds): an RE2 engine for ASCII text of its
        pattern without them (`_relaxed`), which matches wherever the cue does (a lookaround only narrows a match);
        in an ASCII text it finds nothing in, the cue finds nothing, and Python's engine is not run (many times
        slower on a long pattern, and most searches find nothing). None where there is none."""
        if _LOOKAROUND.search(self.pattern) is None:
            return None
        narrow = _narrow(_relaxed(self.pattern, self.flags), self.flags)
        pattern = None if narrow is None else for_ascii(narrow)
        return None if pattern is None else _re2(pattern, self.flags, latin1=True)

    def _parts(self, engine: Any, read: str | bytes) -> tuple[Any, ...]:
        """The parts `read` is searched by with `engine` (one of the cue's): none for a text shorter than
        `SPLIT_LENGTH`, whose states the whole automaton keeps."""
        if len(read) < SPLIT_LENGTH:
            return ()
        return self._ascii_parts if engine is self._ascii else self._utf8_parts

    def _for(self, text: str) -> tuple[Any, str | bytes]:
        """The ASCII engine and the text it reads, for ASCII text and text whose only characters beyond ASCII are
        ones every cue reads as it reads their stand-in (`stand_in`); (None, `text`) for any other text, which
        `_exact` reads."""
        quick = self._ascii
        if quick is not None and not (self._line_end and text.endswith("\n")):
            if text.isascii():
                return quick, text
            stand_in = _stand_in(text)
            if stand_in is not None:
                return quick, stand_in
        return None, text

    def _exact(self, text: str) -> Iterator[Any]:
        """Python's matches of the cue in `text` (`re.finditer`'s), asked of Python's engine only where RE2's
        widened engine (`_engine`, or its parts in a long text) finds that one may start."""
        exact: re.Pattern[str] = self._python
        engine = self._engine
        if engine is exact:
            found: Iterator[re.Match[str]] = exact.finditer(text)
            return found
        try:
            raw = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: RE2 reads none
            return exact.finditer(text)
        parts = self._utf8_parts if len(text) >= SPLIT_LENGTH else ()
        return _confirmed(exact, parts or (engine,), text, raw)

    def search(self, text: str, seen: frozenset[int] | None = None) -> Any:
        """The first match in `text` (an `re.Match` or RE2's: Python's), or None; at once None when `seen` (what
        `present` answered for a text holding this one) says the cue cannot match."""
        if seen is not None and self.index not in seen:
            return None
        if self._ascii is None and text.isascii():
            gate = self._gate
            if gate is not None and not _found(gate, text):
                return None
        engine, read = self._for(text)
        if engine is None:
            return next(self._exact(text), None)
        if not _found(engine, read):
            return None
        parts = self._parts(engine, read)
        if parts:
            return _on(next(_split_matches(engine, parts, read), None), text, read)
        return _on(engine.search(read), text, read)

    def places(self, text: str) -> list[tuple[int, int]] | None:
        """Where in `text` the cue may match any piece of it (a sentence): the spans of its widened engine's matches
        (`_engine`, lookarounds and `\\b` dropped), one search of the whole text; None where there is none (Python's
        engine, or a pattern with `^`, `$`, `\\A` or `\\Z`, read at a piece's edges otherwise than in the text).

        The widened pattern reads no character around its match, so where the cue matches in a piece of `text` from
        some place, the widened one matches in `text` from the same place; and a search from the left whose next
        match would start past that place finds one starting at it or before it instead: some span found holds
        that place (an empty one counted as holding its start). A piece of `text` that overlaps none of the spans
        holds no match of the cue."""
        if self._anchored:
            return None
        engine = self._engine
        if engine is self._python:
            return None
        try:
            return [found.span() for found in engine.finditer(text)]
        except UnicodeEncodeError:  # a lone surrogate: RE2 reads none
            return None

    @functools.cached_property
    def _anchored(self) -> bool:
        """Whether the pattern holds `^`, `$`, `\\A` or `\\Z` (`places` reads none of them)."""
        return any(piece in ("^", "$", "\\A", "\\Z") for _, piece in pieces(self.pattern))

    def match(self, text: str) -> Any:
        """A match at the start of `text`, or None."""
        engine, read = self._for(text)
        if engine is None:
            wide = self._engine
            if wide is not self._python:
                try:
                    if not _starts_at(wide, text.encode("utf-8"), 0):
                        return None
                except UnicodeEncodeError:  # a lone surrogate: RE2 reads none
                    pass
            return self._python.match(text)
        return _on(engine.match(read), text, read)

    def finditer(self, text: str) -> Iterator[Any]:
        """Every match in `text`."""
        engine, read = self._for(text)
        if engine is None:
            return self._exact(text)
        if not _found(engine, read):
            return iter(())
        parts = self._parts(engine, read)
        if parts:
            found = _split_matches(engine, parts, read)
            return found if read is text else (_on(match, text, read) for match in found)
        if read is text:
            return iter(engine.finditer(text))
        return (_on(found, text, read) for found in engine.finditer(read))

    def starts(self, text: str) -> list[int]:
        """Where each match of `finditer(text)` starts, in order: the same matches, the ASCII engine's read by
        RE2's compiled pattern at once (one call a match, where the binding's loop builds a match object of its
        offsets: a log's hundreds of failure words in 100 KB cost milliseconds so)."""
        engine, read = self._for(text)
        regexp = getattr(engine, "_regexp", None)
        if regexp is None or self._parts(engine, read):
            return [found.start() for found in self.finditer(text)]
        # ASCII text or its stand-in: a byte a character, so RE2's offsets are the text's.
        raw = read if isinstance(read, bytes) else read.encode("ascii")
        unanchored = _unanchored()
        end = len(raw)
        pos = 0
        out: list[int] = []
        while True:  # the binding's own loop over bytes (`re2._Regexp._match`)
            start, stop = regexp.Match(unanchored, raw, pos, end)[0]
            if start < 0:
                return out
            out.append(start)
            if pos == end:
                return out
            pos = pos + 1 if pos == stop else stop


SPLIT_LENGTH = 2048
"""From this length on, a text is searched for a large cue by its parts (`Cue._parts`, `_split_matches`)."""

SPLIT_PATTERN = 4000
"""The shortest cue pattern (RE2's, in characters or bytes) split into parts. A part more is a pass more over the
text: on text whose states the whole automaton keeps (a page read again, a repeated shape) the parts cost more
than the whole, so only the largest cues are split (7 of them, 66 parts for UTF-8)."""

PART_BYTES = 800
"""The most pattern a part of a cue holds (its branches', in bytes; a longer branch is a part alone). RE2's DFA
state for an alternation is the product of its branches' states: a branch that counts the words since a line's
start (`(?:[\\w-]+\\s+){0,3}?`) or reads on to a character (`[^.\\n]{0,60}?`) runs beside all the others, and on
prose the joined automaton of `orders._RESULT_CUES` or `vocatives.CALLED` (92 and 38 branches) meets states it has
not built on every new page: 30-45 ms of CPU a new 100 KB page each, against 2 ms for one it has read. Parts of
a few branches each meet states they have built: the same page read by all of them, 2.6-4.4 ms."""


def _split(engine: Any, flags: int, *, latin1: bool) -> tuple[Any, ...]:
    """RE2 engines, each of a run of the top-level branches of RE2's `engine`'s pattern (together, every branch in
    order), compiled as `engine` is; empty when `engine` is not RE2's, when its pattern is shorter than
    `SPLIT_PATTERN` or has too few branches to split, or when a branch sets a flag for those after it (`(?i)`
    alone: a part would not read them so)."""
    pattern = getattr(engine, "_pattern", None)
    if pattern is None or not hasattr(engine, "_regexp") or len(pattern) < SPLIT_PATTERN:
        return ()
    source = pattern.decode("latin-1") if isinstance(pattern, bytes) else pattern
    if flags & re.MULTILINE:
        source = source[len("(?m:") : -1]
    if _BARE_FLAGS.search(source):
        return ()
    runs: list[str] = []
    for branch in branches(source):
        size = len(branch.encode("utf-8"))
        if runs and len(runs[-1].encode("utf-8")) + 1 + size <= PART_BYTES:
            runs[-1] += "|" + branch
        else:
            runs.append(branch)
    if len(runs) < 2:
        return ()
    parts = tuple(_re2(run, flags, latin1=latin1) for run in runs)
    return () if any(part is None for part in parts) else parts


_BARE_FLAGS = re.compile(r"\(\?[a-zA-Z-]*\)")


def _split_matches(engine: Any, parts: tuple[Any, ...], read: str | bytes) -> Iterator[Any]:
    """What `engine.finditer(read)` yields, the same matches (RE2's binding's own loop, its spans and offsets),
    with each search from a position made by `parts`: the leftmost start any part matches at from there (each
    part's next start kept while it lies ahead), then `engine`'s match anchored at that start. The union of the
    parts is `engine`'s pattern, so a match starts nowhere before that start, and RE2's match there is the one its
    search from the position would give (the leftmost start, and the branch it prefers there)."""
    import re2
    from re2 import _re2  # type: ignore[attr-defined]  # the compiled binding, missing from the stubs

    match: Any = re2._Match  # the binding's match (its constructor typed apart in the stubs)
    unanchored, anchored = _re2.RE2.Anchor.UNANCHORED, _re2.RE2.Anchor.ANCHOR_START
    wide = isinstance(read, str)
    raw = read.encode("utf-8") if isinstance(read, str) else read
    end = len(raw)
    none = end + 1  # a part that matches nowhere from where it was searched
    ahead = [-1] * len(parts)  # each part's leftmost start from where it was last searched (valid while >= pos)
    pos = 0
    decoded = {0: 0}
    last = 0
    while True:
        start = _leftmost(parts, ahead, raw, pos, unanchored)
        if start == none:
            return
        spans = engine._regexp.Match(anchored, raw, start, end)
        if spans[0] == _NULL_SPAN:  # pragma: no cover - a part matches there, so the whole does
            spans = engine._regexp.Match(unanchored, raw, pos, end)
            if spans[0] == _NULL_SPAN:
                return
        if wide:
            offsets = sorted(set(itertools.chain(*spans)))
            if offsets[0] == -1:
                offsets = offsets[1:]
            decoded = {last: decoded[last]}
            for offset in offsets:
                decoded[offset] = decoded[last] + _re2.BytesToCharLen(raw, last, offset)
                last = offset
            yield match(engine, read, 0, len(read), [_decoded(span, decoded) for span in spans])
        else:
            yield match(engine, read, pos, len(read), spans)  # (the binding's loop over bytes gives its position)
        if pos == end:
            return
        if pos == spans[0][1]:
            pos += _re2.CharLenToBytes(raw, pos, 1) if wide else 1
        else:
            pos = spans[0][1]


_NULL_SPAN = (-1, -1)


def _leftmost(engines: tuple[Any, ...], ahead: list[int], raw: bytes, pos: int, unanchored: Any) -> int:
    """The leftmost start from `pos` (in bytes) at which one of RE2's `engines` matches in `raw`, `len(raw) + 1`
    where none does (`unanchored`: the binding's anchor for a search). `ahead` holds each engine's start from where it
    was last searched and is kept up to date: a start at or after `pos` is still each one's leftmost, so only those
    behind `pos` are searched again."""
    end = len(raw)
    none = end + 1
    start = none
    for i, engine in enumerate(engines):
        if ahead[i] < pos:
            ahead[i] = engine._regexp.Match(unanchored, raw, pos, end)[0][0]
            if ahead[i] < 0:
                ahead[i] = none
        start = min(start, ahead[i])
    return start


def _confirmed(exact: re.Pattern[str], engines: tuple[Any, ...], text: str, raw: bytes) -> Iterator[re.Match[str]]:
    """What `exact.finditer(text)` yields (`raw`: `text` in UTF-8): from the last match's end, the leftmost place
    where one of RE2's `engines` starts a match (together they match wherever `exact` does, from where it starts,
    and perhaps elsewhere: `_wide`), each start kept while it lies ahead; there `exact`'s match anchored, or the
    next such place when it has none there. Python's engine reads one place a candidate, RE2 the text between."""
    from re2 import _re2  # type: ignore[attr-defined]  # the compiled binding, missing from the stubs

    unanchored = _re2.RE2.Anchor.UNANCHORED
    end = len(raw)
    none = end + 1
    ahead = [-1] * len(engines)
    pos = 0  # in bytes
    known = (0, 0)  # a byte offset and its character offset, at or before every offset still to be read
    while True:
        start = _leftmost(engines, ahead, raw, pos, unanchored)
        if start == none:
            return
        at = known[1] + _re2.BytesToCharLen(raw, known[0], start)
        known = (start, at)
        found = exact.match(text, at)
        if found is None:
            if start == end:
                return
            pos = start + _re2.CharLenToBytes(raw, start, 1)
            continue
        if found.end() == at:  # empty: Python's engine then asks the next match at the same place for more
            yield from (later for later in exact.finditer(text) if later.start() >= at)
            return
        yield found
        pos = start + _re2.CharLenToBytes(raw, start, found.end() - at)


def _starts_at(engine: Any, raw: bytes, pos: int) -> bool:
    """Whether RE2's `engine` matches in `raw` (UTF-8) at `pos`."""
    from re2 import _re2  # type: ignore[attr-defined]  # the compiled binding, missing from the stubs

    return bool(engine._regexp.Match(_re2.RE2.Anchor.ANCHOR_START, raw, pos, len(raw))[0] != _NULL_SPAN)


def _decoded(span: tuple[int, int], decoded: dict[int, int]) -> tuple[int, int]:
    return span if span == _NULL_SPAN else (decoded[span[0]], decoded[span[1]])


def _found(engine: Any, read: str | bytes) -> bool:
    """Whether the ASCII engine `engine` matches somewhere in `read` (ASCII text, or a stand-in), asked of RE2's
    compiled pattern at once: most searches find nothing, and the binding's search spends more on its own steps
    (the text encoded, its offsets counted, a generator made) than RE2 spends reading the text. True when the
    binding keeps its pattern elsewhere (the search then answers)."""
    regexp = getattr(engine, "_regexp", None)
    if regexp is None:  # pragma: no cover - the binding's layout since 1.0
        return True
    raw = read if isinstance(read, bytes) else read.encode("ascii")
    return bool(regexp.Match(_unanchored(), raw, 0, len(raw))[0] != (-1, -1))


@functools.cache
@built
def _unanchored() -> Any:
    """RE2's flag for a search anywhere in the text (the binding is imported where an engine is first built)."""
    from re2 import _re2  # type: ignore[attr-defined]  # the compiled binding, missing from the stubs

    return _re2.RE2.Anchor.UNANCHORED


def any_match(cues: tuple[Cue, ...], text: str) -> bool:
    """Whether one of `cues` matches in `text`: in text their ASCII engines read (ASCII, or its stand-in), one pass
    of RE2's set of those engines' patterns instead of one search each (a long text none of them matches is read
    once, not once a cue); otherwise, or when the set gives up, each cue is searched in turn."""
    matcher = _any_set(cues)
    if matcher is not None and not (text.endswith("\n") and any(cue._line_end for cue in cues)):
        read = text.encode("ascii") if text.isascii() else _stand_in(text)
        if read is not None:
            hits = matcher.Match(read)
            if hits and 0 in hits:  # the sentinel matches every text's end: without it, RE2 gave up
                return len(hits) > 1
    return any(cue.search(text) is not None for cue in cues)


@functools.cache
def _any_set(cues: tuple[Cue, ...]) -> Any:
    """RE2's set (Latin-1) of a sentinel matching every text at its end and each cue's ASCII engine's pattern with
    its options (`Cue._ascii`); None without RE2, when a cue has no ASCII engine or reads case apart from the
    others, or when RE2 refuses the set.

    The sentinel matches at the end only: one matching everywhere (the empty pattern) makes every state of the
    automaton a matching one, whose matches are gathered at each character (0.31 instead of 0.15 ms for 100 KB
    and no cue)."""
    if not cues or any(cue._ascii is None for cue in cues):
        return None
    ignore_case = {bool(cue.flags & re.IGNORECASE) for cue in cues}
    if len(ignore_case) > 1 or any(cue.flags & re.MULTILINE for cue in cues):
        return None
    import re2

    options = quiet_options(latin1=True, case_sensitive=not ignore_case.pop(), max_mem=ASCII_MEMORY)
    regex_set = re2.Set.SearchSet(options)
    try:
        regex_set.Add(rb"\z")
        for cue in cues:
            narrow = _narrow(cue.pattern, cue.flags)
            pattern = None if narrow is None else for_ascii(narrow)
            if pattern is None:  # pragma: no cover - the cue has an ASCII engine
                return None
            regex_set.Add(pattern.encode("latin-1"))
        regex_set.Compile()
    except re2.error:  # pragma: no cover - each pattern compiled alone
        return None
    return regex_set


def _on(found: Any, text: str, read: str | bytes) -> Any:
    """RE2's match `found` in `read` as the same match in `text` (`read` its stand-in: a byte a character, the
    same spans), or `found` itself when `read` is `text`."""
    if found is None or read is text:
        return found
    spans = [found.span(group) for group in range(found.re.groups + 1)]
    return type(found)(found.re, text, found.pos, found.endpos, spans)


def stand_in(text: str) -> bytes | None:
    """`text` as bytes the cues' ASCII engines read (Latin-1) as their UTF-8 engines read `text`: each character
    beyond ASCII as a byte every atom of every cue reads as it reads the character (`_stand_in_for`: a dash,
    a curly quote or the bullet as its byte in `patterns.PAGE`, an emoji or an arrow no cue spells as NUL);
    None when one has none (a letter, a digit or a mark beyond ASCII; a character some cue spells that no byte
    stands for) or RE2 is not installed.

    Each character is one byte, so every match keeps its span: the ASCII engine's automaton, a fraction of the
    UTF-8 one's in size and in the memory its states take, reads English written with typographic punctuation,
    and the UTF-8 engines are compiled only for text that needs them.
    """
    table = stand_ins(text, _stand_in_for)
    return None if table is None else replaced(text, table).encode("latin-1")


@functools.lru_cache(maxsize=8)
def _stand_in(text: str) -> bytes | None:
    """`stand_in`, remembered for the last texts asked (each cue of the judge asks for the same sentence)."""
    return stand_in(text)


@functools.lru_cache(maxsize=4096)
def _stand_in_for(char: str) -> str | None:
    """A Latin-1 character, neither a word character nor a line end, that every atom of every cue with an ASCII
    engine (a class, a literal, an escape, `.`; with case ignored and not) matches in its ASCII form exactly when
    Python's engine matches `char` with it; None when there is none, or `char` is a letter, a digit or a mark
    (which `\\b` and `\\w` read apart from every such character)."""
    if unicodedata.category(char)[0] in "LMN" or unicodedata.category(char) == "Cs":
        return None  # (a lone surrogate: no UTF-8 engine reads it either)
    atoms = _atoms(len(_ALL))
    if atoms is None:
        return None
    wide, stand_ins = atoms
    return stand_ins.get(frozenset(i for i, atom in enumerate(wide) if atom.fullmatch(char)))


@functools.lru_cache(maxsize=1)
@built
def _atoms(count: int) -> tuple[list[re.Pattern[str]], dict[frozenset[int], str]] | None:
    """Every distinct atom of the first `count` cues that have an ASCII engine, compiled by Python's engine, with
    case ignored and not; and for each set of those atoms a byte (neither a word character nor a line end) matches
    whole in their ASCII forms (`_narrow`, `patterns.for_ascii`, read as Latin-1 by RE2), the first such byte as a
    character. None without RE2, or when an atom that is not an operator cannot be read alone (no character then
    has a stand-in)."""
    try:
        import re2
    except ImportError:  # pragma: no cover - google-re2 is a dependency
        return None
    atoms: set[str] = set()
    for cue in _ALL[:count]:
        narrow_cue = _narrow(cue.pattern, cue.flags) if _LOOKAROUND.search(cue.pattern) is None else None
        if narrow_cue is not None and for_ascii(narrow_cue) is not None:
            atoms.update(piece for _, piece in pieces(cue.pattern))
    wide: list[re.Pattern[str]] = []
    narrow = re2.Set.FullMatchSet(quiet_options(latin1=True))
    for atom in sorted(atoms):
        for flags in (0, re.IGNORECASE):
            try:
                wide.append(re.compile(atom, flags))
            except re.error:
                if atom in _OPERATORS:
                    break
                return None
            narrow_atom = _narrow(atom, flags)
            ascii_atom = None if narrow_atom is None else for_ascii(narrow_atom)
            try:
                narrow.Add((("(?i)" if flags else "") + (ascii_atom or "")).encode("latin-1"))
            except (re2.error, UnicodeEncodeError):
                return None
    try:
        narrow.Compile()
    except re2.error:  # pragma: no cover - every atom was read above
        return None
    stand_ins: dict[frozenset[int], str] = {}
    for code in range(0x100):
        char = chr(code)
        if char not in {"\n", "_"} and not (char.isascii() and char.isalnum()):
            stand_ins.setdefault(_hits(narrow, bytes([code])), char)
    return wide, stand_ins


def _hits(regex_set: Any, text: bytes) -> frozenset[int]:
    """The patterns of RE2's set `regex_set` that match `text`."""
    return frozenset(regex_set.Match(text) or ())


_OPERATORS = frozenset("()*+?")
"""The pieces of a pattern that are no atom and Python's engine cannot read alone."""


def present(text: str, low: str | None = None, *, potential: bool = False) -> frozenset[int]:
    """The cues that can match in `text` (their `index`): every cue not gated, and each gated one that RE2's
    filter says can (ASCII text: the strings each cue cannot match without are looked for, then the cues
    whose strings are there are tried), or, in other text, one of whose words the text holds (`low`: the text
    lowercased, when the caller has it)."""
    if text.isascii():
        filtered = _filter()
        if filtered is not None:
            regex_filter, gated, always_ascii = filtered
            hits = regex_filter.Match(text.encode("ascii") + _MARK, potential)
            if hits and 0 in hits:  # the mark is always there: without it, the filter gave up
                return always_ascii | frozenset(gated[hit] for hit in hits if hit)
    return spelled(text, low)


def spelled(text: str, low: str | None = None) -> frozenset[int]:
    """The cues that can match in `text` by their words: every cue not gated, and each gated one of whose words
    the text holds one (one pass of a set of literals, whose automaton stays small on any text)."""
    finder, words, always = _words()
    low = text.lower() if low is None else low
    if isinstance(finder, re.Pattern):
        hits: Iterable[Any] = {words.index(w) for w in finder.findall(low)}  # pragma: no cover - without RE2
    else:
        hits = finder.Match(low) or ()
    found = set(always)
    for hit in hits:
        found.update(_CUES_OF[hit])
    return frozenset(found)


_SPANS_LENGTH = 8192
"""The longest text `spans` reads in one pattern: past it, a relaxed cue that fails to end where it started may
read on to the text's end from every place it starts (quadratic: 0.35 s for 80 KB of unended image links)."""


def spans(cues: tuple[Cue, ...], text: str, literals: tuple[str, ...] = ()) -> list[tuple[int, int]] | None:
    """Where in ASCII `text` one of `cues` may match, or one of `literals` stands, in one pass of RE2: each cue
    relaxed as the filter reads it (`scan.prefilter.relaxed`), so the spans hold every place a cue matches and
    perhaps a few more. None for other text, text longer than `_SPANS_LENGTH`, or when a cue cannot be relaxed
    (search each cue then)."""
    if len(text) > _SPANS_LENGTH or not text.isascii():
        return None
    finder = _finder(cues, literals)
    if finder is None:
        return None
    read = text.encode("ascii")
    if not _found(finder, read):
        return []
    return [(match.start(), match.end()) for match in finder.finditer(read)]


@functools.cache
def _finder(cues: tuple[Cue, ...], literals: tuple[str, ...]) -> Any:
    """One RE2 pattern, read as Latin-1, of every cue of `cues` relaxed and every literal; None without RE2 or
    when a cue cannot be relaxed."""
    from hintgate.scan.prefilter import relaxed

    parts: list[str] = []
    for cue in cues:
        try:
            pattern = relaxed(cue.pattern)
        except ValueError:
            return None
        if pattern is not None:
            parts.append(f"(?:{pattern})")
    parts.extend(re.escape(literal) for literal in literals)
    # Case ignored: a superset of a case-sensitive cue's matches is what is asked. (Each part was read by the filter.)
    return re2_compiled("|".join(parts).encode("ascii"), latin1=True, case_sensitive=False, max_mem=ASCII_MEMORY)


_CUES_OF: list[frozenset[int]] = []
_MARK = b"\x00hintgate cues mark"


@functools.cache
@built
def _filter() -> tuple[Any, list[int], frozenset[int]] | None:
    """RE2's filter of every gated cue as ASCII text can match it (`scan.prefilter.relaxed`), read as Latin-1
    (a byte a character: the automaton stays small); the cue of each of its patterns; the cues it cannot read
    (tried wherever asked). None without RE2."""
    try:
        import re2
    except ImportError:  # pragma: no cover - google-re2 is a dependency
        return None
    from hintgate.scan.prefilter import relaxed

    options = quiet_options(latin1=True, max_mem=ASCII_MEMORY)
    regex_filter = re2.Filter()
    regex_filter.Add(re.escape(_MARK.decode("ascii")).encode("ascii"), options)
    gated: list[int] = [-1]
    always: set[int] = set()
    for cue in _ALL:
        if not cue.gated:
            always.add(cue.index)
            continue
        try:
            pattern = relaxed(cue.pattern)
        except ValueError:
            always.add(cue.index)
            continue
        if pattern is None:
            continue  # it cannot match ASCII text
        flags = "(?i)" if cue.flags & re.IGNORECASE else ""
        try:
            regex_filter.Add((flags + pattern).encode("ascii"), options)
        except re2.error:
            always.add(cue.index)
            continue
        gated.append(cue.index)
    try:
        regex_filter.Compile()
    except re2.error:  # pragma: no cover - every pattern was read above
        return None
    return regex_filter, gated, frozenset(always)


@functools.cache
@built
def _words() -> tuple[Any, list[str], frozenset[int]]:
    """One matcher of the words of every gated cue (an RE2 set of literals: one pass answers all of them), the
    words in its order (`_CUES_OF` says whose each is), and the cues searched wherever asked (not gated, or with
    an alternative that needs no word)."""
    by_word: dict[str, set[int]] = {}
    always: set[int] = set()
    for cue in _ALL:
        needs = _needs(cue.pattern) if cue.gated else None
        if needs is None:
            always.add(cue.index)
            continue
        for word in needs:
            by_word.setdefault(word, set()).add(cue.index)
    words = sorted(by_word, key=len, reverse=True)
    _CUES_OF[:] = [frozenset(by_word[word]) for word in words]
    return _literal_set(words), words, frozenset(always)


def _literal_set(words: list[str]) -> Any:
    try:
        import re2
    except ImportError:  # pragma: no cover - google-re2 is a dependency
        return re.compile("|".join(re.escape(word) for word in words))
    literals = re2.Set.SearchSet(quiet_options(max_mem=ASCII_MEMORY))
    for word in words:
        literals.Add(re.escape(word))
    literals.Compile()
    return literals


def _needs(pattern: str) -> set[str] | None:
    """Lowercase words one of which every match of `pattern` holds; None when some match may hold none."""
    out: set[str] = set()
    for branch in branches(pattern):
        needs = _sequence_needs(branch)
        if needs is None:
            return None
        out |= needs
    return out


def _sequence_needs(sequence: str) -> set[str] | None:
    """The rarest words (longest shortest word) that one item of `sequence` that must match needs."""
    best: set[str] | None = None
    for item, optional in _items(sequence):
        if optional:
            continue
        if item.startswith("("):
            needs = None if _LOOKAROUND.match(item) else _needs(_GROUP_OPENING.sub("", item[:-1], count=1))
        else:
            needs = {item.lower()} if len(item) >= _SHORTEST else None
        if needs and (best is None or _rarity(needs) > _rarity(best)):
            best = needs
    return best


def _rarity(words: set[str]) -> int:
    """How rarely a text holds one of `words`: the shortest, a common word of English counting as one letter."""
    return min(1 if word in _COMMON else len(word) for word in words)


# Words most English text holds (and short pieces of many): a gate on one of them passes nearly everything.
_COMMON = frozenset(
    [
        "a",
        "an",
        "and",
        "any",
        "all",
        "are",
        "as",
        "at",
        "be",
        "by",
        "call",
        "can",
        "code",
        "config",
        "context",
        "date",
        "dire",
        "dis",
        "do",
        "don",
        "file",
        "filter",
        "for",
        "from",
        "get",
        "id",
        "if",
        "in",
        "is",
        "it",
        "key",
        "need",
        "nc",
        "no",
        "not",
        "number",
        "of",
        "on",
        "only",
        "or",
        "output",
        "pat",
        "result",
        "required",
        "sent",
        "set",
        "so",
        "the",
        "this",
        "time",
        "to",
        "turn",
        "use",
        "user",
        "you",
        "your",
        "act",
        "api",
        "ask",
        "cat",
        "base",
        "ed",
        "ws",
        "lie",
        "omit",
        "location",
        "conte",
        "data",
        "name",
        "list",
        "value",
    ]
)


_SHORTEST = 2
_GROUP_OPENING = re.compile(r"^\((?:\?(?:[a-zA-Z-]*:|P<\w+>))?")
_QUANTIFIER = re.compile(r"(?:[?*+]|\{(\d*)(?:,\d*)?\})\??")


def _items(sequence: str) -> Iterator[tuple[str, bool]]:
    """The items of a sequence with no top-level `|`: groups, runs of letters (a quantified last letter on its
    own), and other atoms (as ""), each with whether it may match nothing."""
    i = 0
    while i < len(sequence):
        char = sequence[i]
        if char == "\\":
            item, i = "", i + (sequence.find("}", i) + 1 - i if sequence[i + 1 : i + 3] in ("p{", "P{", "x{") else 2)
        elif char == "[":
            item, i = "", class_end(sequence, i)
        elif char == "(":
            end = _group_end(sequence, i)
            item, i = sequence[i:end], end
        elif _is_letter(char):
            end = i
            while end < len(sequence) and _is_letter(sequence[end]):
                end += 1
            quantified = _QUANTIFIER.match(sequence, end) is not None
            if quantified and end - i > 1:
                yield sequence[i : end - 1], False
                i = end - 1
                continue
            item, i = sequence[i:end], end
        else:
            item, i = "", i + 1
        quantifier = _QUANTIFIER.match(sequence, i)
        optional = False
        if quantifier is not None:
            optional = quantifier.group()[0] in "?*" or quantifier.group(1) in ("", "0")
            i = quantifier.end()
        yield item, optional


def _is_letter(char: str) -> bool:
    return char.isalpha() or unicodedata.category(char).startswith("M")


UTF8_MEMORY = 32 << 20
"""RE2's budget for a cue's UTF-8 engine built from now on: its program and the DFA states it builds as texts need
them. In the gateway's own process, which reads only short texts (a result's JSON of at most 1 KB, a definition of
at most 8 KB) and whose memory no limit bounds, 32 MB; a scan worker, whose address space is bounded
(`scan.workers.serve_worker`), raises it to `WORKER_UTF8_MEMORY` before it builds anything."""

WORKER_UTF8_MEMORY = 256 << 20
"""The same budget in a scan worker. A large cue's program (each `\\pL` a UTF-8 automaton) leaves 32 MB too little
room for states on long prose: the DFA then resets every few hundred bytes and gives way to the NFA, and one pass of
a cue over 100 KB of prose with a few letters beyond ASCII cost 0.2-1.1 s instead of 0.6-2.7 ms."""

ASCII_MEMORY = 32 << 20
"""RE2's budget for the ASCII (Latin-1) engines and sets of the cues built from now on: 32 MB in the gateway's own
process, which reads only short texts; a scan worker raises it to `WORKER_ASCII_MEMORY` before it builds anything."""

WORKER_ASCII_MEMORY = 128 << 20
"""The same budget in a scan worker. At 32 MB the largest cues' DFAs (`orders._RESULT_CUES`, `vocatives.CALLED`, each
a program of thousands of instructions searched over a whole result) fill their cache within a few texts of prose and
reset it from then on: a pass of `CALLED` over 100 KB of real prose it had read before cost 70-90 ms instead of
1.3-1.8 ms (it needs 64 MB on `bench/scan_shapes.py --real`'s results; 48 MB still resets), and those 16 results of
100 KB 6.2-7.1 s of CPU in all instead of 3.8-4.5 s. The states are built as texts need them: the RSS after every
real result grew by about 20 MB."""


def _re2(pattern: str, flags: int, *, latin1: bool = False) -> Any:
    if flags & re.MULTILINE:
        pattern = f"(?m:{pattern})"
    return re2_compiled(
        pattern.encode("latin-1") if latin1 else pattern,
        latin1=latin1,
        case_sensitive=not flags & re.IGNORECASE,
        max_mem=ASCII_MEMORY if latin1 else UTF8_MEMORY,
    )


_LOOKAROUND = re.compile(r"\(\?<?[=!]")


def _relaxed(pattern: str, flags: int) -> str:
    """`pattern` (Python's syntax) without its lookarounds, matching wherever `pattern` does (a lookaround only
    narrows a match): also, without `re.MULTILINE`, where its `$` stands before a last line break (read by
    `_narrow`, as Python's engine reads ASCII text)."""
    out: list[str] = []
    for _, piece in pieces(without_lookarounds(pattern)):
        if piece in ("\\A", "\\Z"):
            continue
        if piece == "$" and not flags & re.MULTILINE:
            out.append("(?:\\n?$)")
        else:
            out.append(piece)
    return "".join(out)


_SPACE = "\\t\\n\\v\\f\\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
"""Python's whitespace (`\\s` of a str pattern), as members of an RE2 class: RE2's `\\s` is `[\\t\\n\\f\\r ]`."""

_SPACE_LATIN1 = "\\t\\n\\v\\f\\r\x1c-\x20\xa0"
"""The same in Latin-1 text, less U+0085: its byte stands for the ellipsis there (`patterns.PAGE`)."""

_WORD = "\\pL\\pN_"
"""Python's word characters (`\\w` of a str pattern: letters, numbers, the underscore; not marks), as members of an
RE2 class."""

# Letters beyond ASCII that Python's engine, ignoring case, matches with `i` and `I` (and one another); RE2 does not.
_DOTTED = "\u0130\u0131"
_DOTTED_ALL = "iI" + _DOTTED


def _class_members(piece: str) -> tuple[bool, list[str]]:
    """A character class (`[...]`, Python's syntax) as whether it is negated and its members: each escape
    (`\\s`) whole, each other character alone."""
    negated = piece.startswith("[^")
    body = piece[2 if negated else 1 : -1]
    members: list[str] = []
    i = 0
    while i < len(body):
        end = i + 2 if body[i] == "\\" else i + 1
        members.append(body[i:end])
        i = end
    return negated, members


def _narrow(pattern: str, flags: int) -> str | None:
    """`pattern` (Python's syntax) as an RE2 pattern that, read as Latin-1, matches ASCII text (and the stand-ins of
    `stand_in`, which are neither word characters nor digits) exactly where Python's engine matches it: `\\b`,
    `\\w`, `\\d` and their negations RE2's own (ASCII's, as Python's are in ASCII text), `\\s` Python's, and
    `\u0130` and `\u0131` the `i` and `I` they match when case is ignored. None when there is none (`\\S` in a
    class)."""
    folded = bool(flags & re.IGNORECASE)
    out: list[str] = []
    for _, piece in pieces(pattern):
        if piece[0] == "[" and len(piece) > 1:
            negated, members = _class_members(piece)
            if "\\S" in members:
                return None
            kept = [
                _SPACE_LATIN1 if member == "\\s" else "iI" if folded and member in _DOTTED else member
                for member in members
            ]
            out.append(("[^" if negated else "[") + "".join(kept) + "]")
        elif piece == "\\s":
            out.append(f"[{_SPACE_LATIN1}]")
        elif piece == "\\S":
            out.append(f"[^{_SPACE_LATIN1}]")
        elif folded and piece in _DOTTED:
            out.append("[iI]")
        else:
            out.append(piece)
    return "".join(out)


def _wide(pattern: str, flags: int) -> str:
    """`pattern` (Python's syntax) as an RE2 pattern, read as UTF-8, that matches wherever Python's engine matches
    it and perhaps elsewhere, starting where it starts: `\\b` and `\\B` dropped (RE2's are ASCII's), `$` at any
    line's end, `\\w`, `\\s`, `\\d` Python's, a class holding `\\W`, `\\S` or `\\D` read wider, and `i` the
    letters Python's engine matches with it when case is ignored. Each match is then asked of Python's engine
    (`Cue._exact`)."""
    folded = bool(flags & re.IGNORECASE)
    out: list[str] = []
    opening = 0  # the end of a group's opening (`(?-i:`, `(?P<name>`), whose letters are no atoms
    for at, piece in pieces(pattern):
        if at < opening:
            out.append(piece)
            continue
        if piece == "(":
            spelled = _OPENING.match(pattern, at)
            opening = at if spelled is None else spelled.end()
        if piece[0] == "[" and len(piece) > 1:
            out.append(_wide_class(piece, folded))
        elif piece in ("\\b", "\\B"):
            continue
        elif piece == "$" and not flags & re.MULTILINE:
            out.append("(?m:$)")
        elif folded and piece in _DOTTED_ALL:
            out.append(f"[{_DOTTED_ALL}]")
        else:
            out.append(_WIDE_ESCAPES.get(piece, piece))
    return "".join(out)


_OPENING = re.compile(r"\(\?(?:P<\w+>|P=\w+|[a-zA-Z-]+(?=[:)])|<?[=!]|#)")
"""What opens a group after its `(`: a name, flags, a lookaround, a comment."""

_WIDE_ESCAPES = {
    "\\w": f"[{_WORD}]",
    "\\W": f"[^{_WORD}]",
    "\\s": f"[{_SPACE}]",
    "\\S": f"[^{_SPACE}]",
    "\\d": "\\p{Nd}",
    "\\D": "\\P{Nd}",
}
_WIDE_IN_CLASS = {"\\w": _WORD, "\\s": _SPACE, "\\d": "\\p{Nd}"}
# A negated escape in a negated class: the class is within what the escape negates.
_WITHIN = {"\\W": f"[{_WORD}]", "\\S": f"[{_SPACE}]", "\\D": "\\p{Nd}"}


def _wide_class(piece: str, folded: bool) -> str:
    negated, members = _class_members(piece)
    within = [member for member in members if member in _WITHIN]
    if within:
        return _WITHIN[within[0]] if negated else "(?s:.)"
    wide = [_WIDE_IN_CLASS.get(member, member) for member in members]
    if folded and not negated and any(re.fullmatch(piece, char, re.IGNORECASE) for char in _DOTTED_ALL):
        wide.insert(members[:1] == ["]"], _DOTTED_ALL)  # (not after a `-`, which would make it a range)
    return ("[^" if negated else "[") + "".join(wide) + "]"


def without_lookarounds(pattern: str) -> str:
    """`pattern` less every lookaround group."""
    out: list[str] = []
    skip_to = 0
    for i, piece in pieces(pattern):
        if i < skip_to:
            continue
        if piece == "(" and _LOOKAROUND.match(pattern, i):
            skip_to = _group_end(pattern, i)
            continue
        out.append(piece)
    return "".join(out)


def _group_end(pattern: str, start: int) -> int:
    """The index just past the group that opens at `start`."""
    end = closing(pattern, start)
    return len(pattern) if end is None else end + 1


def warm() -> None:
    """Build now what the cues build at a text's first need: the gated cues' filter and words
    (`hintgate.cli.serve.warm_result_scan`, on a thread of its own). The atoms that give typographic punctuation
    its stand-ins (2.3 MB) are still built at the first text that has some."""
    _filter()
    _words()
