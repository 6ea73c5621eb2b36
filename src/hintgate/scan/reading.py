"""The text the model reads: a field's text with every disguise undone, as views the scan's rules match on.

Pure. A person reads rendered text; a model reads code points. A server can
therefore write an order so that people (and naive filters) miss it: letters
split by invisible characters (`i\\u00adg\\u00adnore`), fullwidth or Cyrillic
look-alike letters, digits for letters (`1gn0re`), HTML entities, an HTML
comment, or a base64, hex, rot13 or percent-encoded run. `read` returns the
views of one text that the rules are matched on:

- `plain`: NFKC, every invisible or format code point removed (`invisible_spans`
  reports them), always present;
- `lookalike`: plain with Cyrillic and Greek look-alikes folded to Latin, when
  the text has any;
- `leet`: digits standing for letters inside words, when there are any;
- `entities`, `comment`, `base64`, `hex`, `percent`, `rot13`: text decoded
  from the plain view, when it decodes to text.

Every view maps its offsets back to the original text (`View.origin`), so a
finding is reported where a person can see it. Views are built with
`str.translate` and regexes (C loops); the per-character work that maps
offsets runs only for text that NFKC or the removal changes.
"""

from __future__ import annotations

import binascii
import bisect
import functools
import html
import itertools
import re
import sys
import threading
import unicodedata
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from hintgate.hints.names import fold_lookalikes
from hintgate.scan.concealed import Code, concealed, may_conceal
from hintgate.scan.re2_options import quiet_options

if TYPE_CHECKING:
    from hintgate.scan.prefilter import Seen

__all__ = [
    "INVISIBLE_ALLOWED",
    "ROT13_WORDS",
    "SPACED_HINT",
    "View",
    "as_written",
    "disguises",
    "invisible_spans",
    "is_invisible",
    "leet_words",
    "normalized",
    "read",
    "replaced",
    "split_phrases",
    "stand_ins",
]

# Code points that are invisible yet not of category Cf: fillers drawn as nothing (Hangul, braille
# blank), the combining grapheme joiner, Mongolian and other variation selectors, Khmer inherent vowels.
_FILLERS = frozenset(
    [
        *(0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x2800, 0x3164, 0xFFA0),
        *range(0xFE00, 0xFE10),
        *range(0xE0100, 0xE01F0),
    ]
)

INVISIBLE_ALLOWED = (
    "U+200D ZERO WIDTH JOINER between two emoji or symbols (one emoji drawn from several); "
    "U+200C ZERO WIDTH NON-JOINER and U+200D between letters or signs (a virama) of a script that needs them "
    "(Arabic, Persian, Indic); U+FE0E and U+FE0F, one after a symbol (text or emoji presentation); the visible "
    "prepended concatenation marks of Arabic, Syriac and Kaithi (U+0600-U+0605, U+06DD, U+070F, U+0890, U+0891, "
    "U+08E2, U+110BD, U+110CD), which are drawn."
)
_VISIBLE_FORMAT = frozenset([*range(0x0600, 0x0606), 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD])
_JOINERS = frozenset([0x200C, 0x200D])
_PRESENTATION = frozenset([0xFE0E, 0xFE0F])


@functools.cache
def _invisible_table() -> dict[int, None]:
    # Every Cf code point of the running Unicode version, built once on first use (~0.1 s), not at import.
    table: dict[int, None] = {}
    # Planes 0-1 and the tags/selectors plane 14 hold every Cf code point; the rest are unassigned or private.
    for code in [*range(0x20000), *range(0xE0000, 0xE1000)]:
        if code in _FILLERS or (unicodedata.category(chr(code)) == "Cf" and code not in _VISIBLE_FORMAT):
            table[code] = None
    return table


@functools.cache
def _invisible_class() -> re.Pattern[str]:
    codes = sorted(_invisible_table())
    ranges: list[str] = []
    start = prev = codes[0]
    for code in [*codes[1:], -1]:
        if code == prev + 1:
            prev = code
            continue
        ranges.append(re.escape(chr(start)) + (f"-{re.escape(chr(prev))}" if prev != start else ""))
        start = prev = code
    return re.compile(f"[{''.join(ranges)}]+")


def is_invisible(char: str) -> bool:
    """Whether a code point is drawn as nothing (category Cf or a filler), before the allow-list."""
    return ord(char) in _invisible_table()


def invisible_spans(text: str) -> Iterator[tuple[int, int]]:
    """The runs of invisible code points in `text` that the allow-list (`INVISIBLE_ALLOWED`) does not excuse."""
    if text.isascii():
        return
    for match in _invisible_class().finditer(text):
        start, end = match.start(), match.end()
        if end - start == 1 and _allowed(text, start):
            continue
        yield start, end


# What stands between two runs of invisible characters in a text they split: one character (a letter spelled out, a
# space) or one Latin word with the space before it, if any (the invisible character standing for the space after
# it). Latin only: Thai, Khmer, Lao, Burmese and Japanese text separates its words with zero-width spaces.
_SPLIT_GAP = re.compile(r"[^\n]|[ ]?[!-~]{1,24}")
# Three words of letters in a row: a phrase, not a name, a URL or a code broken for wrapping.
_SPLIT_PHRASE = re.compile(r"[^\W\d_]{2,}\s+[^\W\d_]{2,}\s+[^\W\d_]{2,}")
_SPLIT_RUNS = 6


def split_phrases(text: str, runs: Sequence[tuple[int, int]]) -> Iterator[tuple[int, int, str]]:
    """The stretches of `text` whose letters or words its invisible `runs` (from `invisible_spans`, in order) split
    one by one, each with the phrase it reads as: at least six runs in a row with one character or one Latin word
    between each two, reading as three words or more ("A<ZWSP>l<ZWSP>w<ZWSP>a<ZWSP>y<ZWSP>s ...",
    "call<ZWSP>the<ZWSP>tool<ZWSP>now"). No writing system puts an invisible character after every letter, nor
    one in place of every space between Latin words: such a stretch is hidden from people and filters, not drawn for
    them."""
    chain: list[tuple[int, int]] = []
    for run in [*runs, (-1, -1)]:
        if chain and run[0] >= 0 and _SPLIT_GAP.fullmatch(text, chain[-1][1], run[0]) is not None:
            chain.append(run)
            continue
        if len(chain) >= _SPLIT_RUNS:
            gaps = [text[a[1] : b[0]] for a, b in itertools.pairwise(chain)]
            joiner = "" if sum(len(gap) == 1 for gap in gaps) * 2 > len(gaps) else " "
            phrase = joiner.join(gap.strip() if joiner else gap for gap in gaps)
            if _SPLIT_PHRASE.search(phrase) is not None:
                yield chain[0][0], chain[-1][1], phrase
        chain = [run]


def _allowed(text: str, at: int) -> bool:
    code = ord(text[at])
    before = text[at - 1] if at > 0 else ""
    after = text[at + 1] if at + 1 < len(text) else ""
    if code in _PRESENTATION:
        return bool(before) and _is_symbol(before)
    if code in _JOINERS and before and after:
        if code == 0x200D and _is_symbol(before) and (_is_symbol(after) or after in "\u2640\u2642"):
            return True
        return _script_letter(before) and _script_letter(after)
    return False


def _script_letter(char: str) -> bool:
    """Whether `char` is a letter beyond ASCII or a sign of a script's own (an Indic virama, a vowel sign): a joiner
    after a virama picks a letter's half form. A generic combining mark (an accent put on any letter) is not one."""
    if char.isascii():
        return False
    if char.isalpha():
        return True
    return unicodedata.category(char).startswith("M") and not unicodedata.name(char, "").startswith("COMBINING")


def _is_symbol(char: str) -> bool:
    return unicodedata.category(char) in ("So", "Sk") or ord(char) >= 0x1F000 or ord(char) in _PRESENTATION


class View(NamedTuple):
    """One reading of a text: `text` as matched, `how` it was derived, `hidden` when it undid a disguise.

    `origin(start, end)` gives the span of the original text the view's
    `start`:`end` came from. (A named tuple: the scan makes one or more per text it reads, and a frozen
    dataclass costs several times as much to make.)
    """

    text: str
    how: str
    hidden: bool
    # Segments (offset here, start in the parent, end in the parent, whether offsets inside run one to one);
    # empty when offsets are the parent's. The parent is the view this one was decoded from (None: the original).
    segments: tuple[tuple[int, int, int, bool], ...] = ()
    parent: View | None = None

    def origin(self, start: int, end: int) -> tuple[int, int]:
        """The original text's span for the view's `start`:`end`."""
        first, last = self._at(start, end=False), self._at(max(start, end - 1), end=True)
        if self.parent is None:
            return first, last
        return self.parent.origin(first, last)

    def _at(self, index: int, *, end: bool) -> int:
        if not self.segments:
            return index + (1 if end else 0)
        i = max(0, bisect.bisect_right(self.segments, (index, sys.maxsize)) - 1)
        view_start, parent_start, parent_end, one_to_one = self.segments[i]
        if one_to_one:
            return min(parent_start + index - view_start + (1 if end else 0), parent_end)
        return parent_end if end else parent_start


def read(text: str, *, decode: bool = True, seen: Seen | None = None) -> list[View]:
    """The views of `text` the rules are matched on: `plain` first, then every disguise undone.

    Args:
        text: the original text.
        decode: also decode entities, comments and encoded runs (results are
            read with it too; it costs a few regex passes).
        seen: what the prefilter saw in a text holding this one: the
            disguises it ruled out are not looked for, as long as the text
            is read as written (no character removed, normalised or folded).
    """
    # The phrases and the sentence judge read each text of a tool in turn: the second reading is the first's.
    last = getattr(_LAST, "read", None)
    if last is not None and last[0] is text and last[1] == decode:
        return list(last[2])
    views = _read(text, decode=decode, seen=seen)
    _LAST.read = (text, decode, tuple(views))
    return views


# The last text `read` read in this thread, and its views (a seen disguise ruled out changes nothing of them).
_LAST = threading.local()


def _read(text: str, *, decode: bool, seen: Seen | None) -> list[View]:
    plain = _plain(text)
    views = [plain]
    if plain.text is not text:
        seen = None  # the prefilter read the text as written, not this
    if not plain.text.isascii():
        folded = fold_lookalikes(plain.text)
        if folded != plain.text:
            seen = None
            views.append(View(folded, "lookalike", True, parent=plain))
    base = views[-1]
    leetish = (seen is None or seen.may("leet")) and _DIGIT_BY_LETTER.search(base.text)
    leet = _unleet_text(base.text) if leetish else base.text
    if leet != base.text:
        views.append(View(leet, "leet", True, parent=plain))
    if not text.isascii() and _TAGS.search(text):
        # Unicode tag characters mirror ASCII invisibly: what they spell is read as text of its own.
        for match in _TAGS.finditer(text):
            spelled = "".join(chr(ord(c) - 0xE0000) for c in match.group())
            views.append(View(spelled, "tags", True, ((0, match.start(), match.end(), False),)))
    if not decode or len(plain.text) < 12:
        return views
    source = plain.text
    if (seen is None or seen.may("entities")) and "&" in source and ";" in source:
        decoded = _rewrite(source, _ENTITY, lambda m: html.unescape(m.group()))
        if decoded is not None:
            views.append(View(decoded[0], "entities", True, decoded[1], plain))
            source = decoded[0]
    if "<!--" in source:
        parent = views[-1] if source is not plain.text else plain
        code = Code(source)
        for match in _COMMENT.finditer(source):
            if _not_hidden(text, parent, match) or code.shows(match.start()):
                continue
            views.append(View(match.group(1), "comment", True, ((0, match.start(1), match.end(1), True),), parent))
    if may_conceal(plain.text):
        # Markup drawn as nothing or out of sight (a Markdown comment, an element styled hidden, a terminal's
        # conceal code, text after padding: `scan.concealed`) is read as a comment is: hidden from people.
        for start, end in concealed(plain.text):
            if plain.text[start:end].strip():
                views.append(View(plain.text[start:end], "comment", True, ((0, start, end, True),), plain))
    hint = _SPACED_HINT.search(source)
    if hint is not None and _spaced_from(source, max(0, hint.start() - 24)):
        # Letters spelled one by one ("R U N   c u r l"): read as the words they spell.
        for match in _SPACED.finditer(source, max(0, hint.start() - 24)):
            spelled = _GAP.sub("\0", match.group()).replace(" ", "").replace("\0", " ")
            views.append(View(spelled, "spaced", True, ((0, match.start(), match.end(), False),), plain))
    budget = [DECODED_BUDGET + 4 * len(plain.text)]
    views.extend(_decoded(plain, 1, budget, seen))
    if seen is not None and not seen.may("rot13"):
        return views
    rot13 = _rot13(plain)
    if rot13 is not None:
        views.append(rot13)
    return views


def _not_hidden(text: str, parent: View, match: re.Match[str]) -> bool:
    """Whether a comment is no text kept from people: its opening written as entities (`&lt;!--`, which a page
    shows as written), or a record of `key: value` lines (what a page's tools read: when a function was added,
    what changed in which version), read as the page's own text by the plain view like the rest of it."""
    if parent.how == "entities" and text[slice(*parent.origin(match.start(), match.start() + 4))] != "<!--":
        return True
    return _is_record(match.group(1))


def _is_record(body: str) -> bool:
    """Whether a comment's `body` is a record: after an optional one-word label (`YAML`), lines of `key: value`
    or `key=value` (a list's `- key: value` too), a line indented past its key's continuing that key's value; no
    key or label naming the model or its instructions."""
    lines = [line for line in body.splitlines() if line.strip()]
    if lines and _RECORD_LABEL.fullmatch(lines[0]):
        if _RECORD_FOR_MODEL.search(lines[0]):
            return False
        lines = lines[1:]
    indent: int | None = None
    for line in lines:
        depth = len(line) - len(line.lstrip())
        key = _RECORD_KEY.match(line)
        if key is not None:
            if _RECORD_FOR_MODEL.search(key.group(1)):
                return False
            indent = depth
        elif indent is None or depth <= indent:
            return False
    return indent is not None


DECODE_DEPTH = 3
"""How many encodings deep a run is decoded (base64 of base64 of hex is three)."""
DECODED_BUDGET = 64 * 1024
"""Characters of decoded text a text may yield beyond four times its own length; past it, the runs left are not
decoded but given as an `UNREAD` view each (the scan treats them as flagged), as is a run still encoded past
`DECODE_DEPTH`."""
UNREAD = "unread"
"""The `how` of a view standing for an encoded run left undecoded (its text empty): the decoding budget ran out."""


def _decoded(parent: View, depth: int, budget: list[int], seen: Seen | None = None) -> list[View]:
    """The views of the encoded runs in `parent`'s text, and of the runs encoded inside those, `DECODE_DEPTH` deep.

    A run that decodes to words is a view (and may hold more runs, or be rot13); one that decodes to another
    encoded run is decoded again without being a view itself (the hex inside base64 is not words). Each decoded
    text is taken from `budget` (one counter for the whole text); once it runs out, a run is an `UNREAD` view.
    """
    views: list[View] = []
    text = parent.text
    for how, pattern, decoder in _ENCODINGS:
        # What the prefilter saw was in a text holding this one (a tool's texts): this one is checked too.
        if (seen is not None and depth == 1 and not seen.may(how)) or not _may_hold(how, text):
            continue
        matches = list(pattern.finditer(text))
        if depth == 1 and len(matches) >= _MANY_RUNS:
            flat = _flat(parent, how, matches, decoder, budget)
            if flat is not None:
                views.extend(flat)
                continue
        for match in matches:
            segments = ((0, match.start(), match.end(), False),)
            if budget[0] <= 0:
                views.append(View("", UNREAD, True, segments, parent))
                continue
            out = decoder(match.group())
            if out is None:
                continue
            budget[0] -= len(out)
            view = View(out, how, True, segments, parent)
            words = _is_text(out)
            if words:
                views.append(view)
            if depth < DECODE_DEPTH and (words or _holds_encoding(out)):
                views.extend(_decoded(view, depth + 1, budget))
            elif depth == DECODE_DEPTH and _mostly_encoded(out):
                views.append(View("", UNREAD, True, segments, parent))  # encoded deeper than it is decoded
            rot13 = _rot13(view) if words else None
            if rot13 is not None:
                views.append(rot13)
    return views


# From this many runs of one encoding in a text, they are first decoded together (`_flat`).
_MANY_RUNS = 8


def _flat(
    parent: View, how: str, matches: list[re.Match[str]], decoder: Callable[[str], str | None], budget: list[int]
) -> list[View] | None:
    """The views of `matches` (runs encoded as `how` in `parent`'s text) when their decoded texts, looked at
    together, hold no run encoded again and no word rot13 spells: each is then a view when it reads as words, and
    nothing more (what `_decoded` makes of them one by one). None when they may hold one, or when the budget runs
    out among them: `_decoded` reads them one by one then."""
    left = budget[0]
    outs: list[str | None] = []
    for match in matches:
        if left <= 0:
            return None
        out = decoder(match.group())
        if out is not None:
            left -= len(out)
        outs.append(out)
    decoded = "\n".join(out for out in outs if out is not None)
    low = decoded.lower()
    if any(_may_hold(encoding, decoded) for encoding, _, _ in _ENCODINGS) or any(w in low for w in ROT13_WORDS):
        return None
    budget[0] = left
    return [
        View(out, how, True, ((0, match.start(), match.end(), False),), parent)
        for match, out in zip(matches, outs, strict=True)
        if out is not None and _is_text(out)
    ]


def _rot13(view: View) -> View | None:
    """`view`'s text in rot13, when it has a word rot13 spells and none as written."""
    low = view.text.lower()
    if any(word in low for word in ROT13_WORDS) and not any(word in low for word in _PLAIN_WORDS):
        return View(view.text.translate(_ROT13), "rot13", True, parent=view)
    return None


def _mostly_encoded(text: str) -> bool:
    """Whether decoded text is, for the most part, one more encoded run (an encoding nested deeper still)."""
    if len(text) < 20:
        return False
    return any(
        match.end() - match.start() >= len(text) * 0.8
        for _, pattern, _ in _ENCODINGS
        for match in pattern.finditer(text)
    )


def _holds_encoding(text: str) -> bool:
    """Whether decoded text that is not words is itself (mostly) an encoded run worth decoding again."""
    return len(text) >= 20 and any(_may_hold(how, text) for how, _, _ in _ENCODINGS)


def spelled_out(text: str) -> bool:
    """Whether `text` holds letters spelled one by one ("R U N   c u r l"), which `read` reads as words."""
    hint = _SPACED_HINT.search(text)
    return hint is not None and _spaced_from(text, max(0, hint.start() - 24))


def _spaced_from(text: str, start: int) -> bool:
    """Whether `_SPACED` matches in `text` from `start` on: in ASCII text by one pass of RE2's DFA over the same
    runs (Python's engine tries `_SPACED` at every character, about 20 ns each: 2 ms for 100 KB of prose)."""
    finder = _spaced_finder() if text.isascii() else None
    if finder is None:
        return _SPACED.search(text, start) is not None
    # The match's first run must follow a space (or open the text): the space before `start` is read from there.
    opening, inside = finder
    raw = text.encode("ascii")
    if start == 0:
        return opening.search(raw) is not None
    return inside.search(raw, start - 1) is not None


@functools.cache
def _spaced_finder() -> tuple[Any, Any] | None:
    """`_SPACED` for ASCII text in RE2 (no lookarounds): the edges it looks at become a space it consumes, or the
    text's start or end; one pattern for a search from the text's start, one for a search from after a space."""
    try:
        import re2
    except ImportError:  # pragma: no cover - google-re2 is a dependency
        return None
    space = r"\t\n\x0b\x0c\r\x1c-\x1f "  # Python's whitespace in ASCII: RE2's `\s` lacks \x0b and \x1c-\x1f
    run = rf"(?:[^{space}](?: |[{space}]{{2,6}})){{11,}}[^{space}](?:[{space}]|$)"
    options = quiet_options(latin1=True)
    return (
        re2.compile(rf"(?:^|[{space}]){run}".encode("ascii"), options),
        re2.compile(rf"[{space}]{run}".encode("ascii"), options),
    )


def disguises(text: str, possible: frozenset[str] | None = None) -> frozenset[str]:
    """The disguises `read` may find in `text` or in any text it holds (`scan.prefilter.DISGUISES`): each
    looked for with the same cheap check `read` makes first.

    Args:
        text: the text.
        possible: the disguises a pass of the prefilter's triggers over `text` (or its ASCII stand-in) left
            possible, None when there was none: the others are not looked for. Each trigger is found wherever the
            check here succeeds (for hex, in ASCII text only: text beyond ASCII is always checked for hex, and
            every text for entities, whose trigger asks for more than the `&` and `;` looked for here).
    """
    found = {
        how
        for how, _, _ in _ENCODINGS
        if (possible is None or how in possible or (how == "hex" and not text.isascii())) and _may_hold(how, text)
    }
    if (possible is None or "leet" in possible) and leet_words(text):
        found.add("leet")
    if "&" in text and ";" in text:
        found.add("entities")
    if ((possible is None or "comment" in possible) and "<!--" in text) or _conceals(text):
        found.add("comment")
    if possible is None or "rot13" in possible:
        low = text.lower()
        if any(word in low for word in ROT13_WORDS):
            found.add("rot13")
    return frozenset(found)


def as_written(text: str, possible: frozenset[str]) -> bool:
    """Whether `read` gives `text` no view but the text as written, by the cheap checks it makes first: the text is
    ASCII, spells no letters out, opens no comment, and holds none of the disguises `possible` (what a pass of the
    prefilter left possible in a text holding this one, `disguises` of it: one ruled out there is in none of its
    parts)."""
    return (
        text.isascii()
        and "<!--" not in text
        and _SPACED_HINT.search(text) is None
        and not _hides(text, possible)
        and not _conceals(text)
    )


def _conceals(text: str) -> bool:
    """Whether `read` gives `text` a view of markup drawn as nothing or out of sight (`scan.concealed`), besides
    its HTML comments: checked in every text, whatever the prefilter saw (as entities are)."""
    return may_conceal(text) and any(text[start:end].strip() for start, end in concealed(text))


def _hides(text: str, possible: frozenset[str]) -> bool:
    """Whether `disguises(text, possible)` finds any, for ASCII `text`: the same checks, stopping at the first (most
    texts of a definition are short, and most of them hold none)."""
    if "&" in text and ";" in text:
        return True
    if not possible:
        return False
    if any(how in possible and _may_hold(how, text) for how, _, _ in _ENCODINGS):
        return True
    if "leet" in possible and leet_words(text):
        return True
    # A comment is ruled out by the caller; rot13 last: it lowers the text.
    if "rot13" in possible:
        low = text.lower()
        return any(word in low for word in ROT13_WORDS)
    return False


def leet_words(text: str) -> bool:
    """Whether `read` gives `text` a leetspeak view: a word in it reads otherwise with its digits as letters (a
    date's `29T12`, an id's `v2` or a hash do not)."""
    return _DIGIT_BY_LETTER.search(text) is not None and any(
        _unleet(word) is not word for word in _LEET_WORD.findall(text)
    )


def _plain(text: str) -> View:
    if text.isascii():
        return View(text, "plain", False)
    table = _invisible_table()
    if unicodedata.is_normalized("NFKC", text) and _invisible_class().search(text) is None:
        return View(text, "plain", False)  # one search: `str.translate` costs 4 ms on 100 KB of such text
    # Each distinct character that changes (invisible, or NFKC makes it another), and what it becomes: the runs
    # between them are kept as they are, a segment each (a step per character cost 0.15 s for 100 KB).
    changed: dict[str, str] = {}
    for char in set(text):
        if ord(char) in table:
            changed[char] = ""
        elif not char.isascii():
            folded = unicodedata.normalize("NFKC", char).translate(table)
            if folded != char:
                changed[char] = folded
    # Map each output character to the original one it came from (only for text that changes).
    out: list[str] = []
    segments: list[tuple[int, int, int, bool]] = []
    size = last = 0
    for match in re.finditer("[" + "".join(map(re.escape, changed)) + "]", text) if changed else ():
        at = match.start()
        if at > last:
            out.append(text[last:at])
            segments.append((size, last, at, True))
            size += at - last
        last = at + 1
        folded = changed[match.group()]
        if folded:
            out.append(folded)
            segments.append((size, at, last, len(folded) == 1))
            size += len(folded)
    if last < len(text):
        out.append(text[last:])
        segments.append((size, last, len(text), True))
    return View("".join(out), "plain", False, tuple(_merge(segments)))


def replaced(text: str, table: dict[int, str]) -> str:
    """`text.translate(table)`; for a few characters, a pass of `str.replace` each (`str.translate` is about 40
    times slower per character on text beyond ASCII, and one pass for each of many characters would be too),
    unless a replacement holds a character the table replaces (a later pass would replace it again)."""
    if len(table) > _FEW or any(ord(char) in table for stand in table.values() for char in stand):
        return text.translate(table)
    for code, stand in table.items():
        text = text.replace(chr(code), stand)
    return text


_FEW = 16
"""The most characters `replaced` replaces by a pass each."""


def stand_ins(text: str, stand_in: Callable[[str], str | None]) -> dict[int, str] | None:
    """What `stand_in` puts for each character of `text` beyond ASCII, by code point (a table for `replaced`), or
    None when it has none for one of them. The first such character is asked before the others are gathered:
    prose in another script says so at once."""
    first = _NOT_ASCII.search(text)
    if first is None:
        return {}
    if stand_in(first.group()) is None:
        return None
    table: dict[int, str] = {}
    for char in set(_NOT_ASCII.findall(text)):
        stand = stand_in(char)
        if stand is None:
            return None
        table[ord(char)] = stand
    return table


_NOT_ASCII = re.compile(r"[^\x00-\x7f]")


def normalized(text: str) -> str:
    """`text` with each character NFKC-normalised on its own, as the `plain` view reads it, but with its invisible
    characters kept: a pass the prefilter can read where the text as written (fullwidth punctuation, a
    no-break space) is not what the rules match on.

    Linear in the text: the characters NFKC changes are found with one search each and replaced wherever they
    stand; text with more than a few distinct ones is mapped character by character (`str.translate`).
    """
    if text.isascii() or unicodedata.is_normalized("NFKC", text):
        return text  # NFKC leaves each character of a normalised text as it is
    basic, beyond = _changing()
    # A search for characters beyond U+FFFF costs more than the one for those below: made only when there are any.
    wide = len(text.encode("utf-16-le")) > 2 * len(text)
    out = text
    steps = 0
    for changing in (basic, beyond) if wide else (basic,):
        at = 0
        while (match := changing.search(out, at)) is not None:
            steps += 1
            if steps > _FEW_CHANGED:
                return text.translate(_changed_table())
            char = match.group()
            new = unicodedata.normalize("NFKC", char)
            if new == char:  # in a block beyond U+FFFF that holds some, not changed itself
                at = match.end()
                continue
            # What NFKC makes of one character NFKC leaves as it is: the replaced text needs no second look.
            out = out.replace(char, new)
            at = match.start() + len(new)
    return out


# Distinct characters NFKC changes that `normalized` replaces one by one (each a pass of `str.replace`).
_FEW_CHANGED = 16
# Every code point NFKC changes lies below U+30000 (planes 0 to 2) in the Unicode versions Python ships.
_CHANGING_PLANES = 0x30000


@functools.cache
def _changed_table() -> dict[int, str]:
    # Built once, on first use (~20 ms).
    table: dict[int, str] = {}
    for code in range(_CHANGING_PLANES):
        char = chr(code)
        new = unicodedata.normalize("NFKC", char)
        if new != char:
            table[code] = new
    return table


@functools.cache
def _changing() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The characters NFKC changes up to U+FFFF, exactly; and beyond it, the blocks holding them (a class of
    ranges beyond U+FFFF is tested range by range by Python's engine: a few wide ones keep it fast)."""
    basic: list[tuple[int, int]] = []
    beyond: list[tuple[int, int]] = []
    for code in sorted(_changed_table()):
        ranges, gap = (basic, 1) if code <= 0xFFFF else (beyond, 0x400)
        if ranges and code <= ranges[-1][1] + gap:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))

    def klass(ranges: list[tuple[int, int]]) -> str:
        return "[" + "".join(re.escape(chr(a)) + (f"-{re.escape(chr(b))}" if b != a else "") for a, b in ranges) + "]"

    return re.compile(klass(basic)), re.compile(klass(beyond))


def _merge(segments: list[tuple[int, int, int, bool]]) -> Iterator[tuple[int, int, int, bool]]:
    # Consecutive one-to-one characters become one segment: the map stays small for mostly-ASCII text.
    current: tuple[int, int, int, bool] | None = None
    for seg in segments:
        if (
            current is not None
            and current[3]
            and seg[3]
            and seg[1] == current[2]
            and seg[0] == current[0] + (current[2] - current[1])
        ):
            current = (current[0], current[1], seg[2], True)
            continue
        if current is not None:
            yield current
        current = seg
    if current is not None:
        yield current


def _rewrite(
    text: str, pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str]
) -> tuple[str, tuple[tuple[int, int, int, bool], ...]] | None:
    """`text` with each match replaced, and segments from the new text to the old; None when nothing changed."""
    out: list[str] = []
    segments: list[tuple[int, int, int, bool]] = []
    size = last = 0
    for match in pattern.finditer(text):
        new = replace(match)
        if new == match.group():
            continue
        if match.start() > last:
            segments.append((size, last, match.start(), True))
            out.append(text[last : match.start()])
            size += match.start() - last
        segments.append((size, match.start(), match.end(), False))
        out.append(new)
        size += len(new)
        last = match.end()
    if not out:
        return None
    segments.append((size, last, len(text), True))
    out.append(text[last:])
    return "".join(out), tuple(segments)


_TAGS = re.compile("[\U000e0020-\U000e007e]+")
# A run of single characters each followed by one space, words apart by two or more (or a line break): letters
# spelled out so that no word of them matches. Twelve characters at least; one pass, linear.
_SPACED = re.compile(r"(?<!\S)(?:\S(?: |\s{2,6})){11,}\S(?!\S)")
_GAP = re.compile(r"\s{2,6}")
# Three single characters a space apart, which any run `_SPACED` finds holds: a literal-led pass, several times
# cheaper than `_SPACED` on prose, that it starts from.
_SPACED_HINT = re.compile(r" \S \S \S")
SPACED_HINT = _SPACED_HINT.pattern
"""What `spelled_out` needs in a text before it looks for letters spelled one by one (the prefilter's set looks for
it in the same pass as the phrases: `scan.prefilter.Seen.spaced`)."""
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_COMMENT = re.compile(r"<!--(.*?)(?:-->|$)", re.DOTALL)
# A record's lines: a label alone on the first, then keys (a list item's too) with a colon and a space or the line's
# end after them, or an equals sign.
_RECORD_LABEL = re.compile(r"\s*[A-Za-z][\w-]{0,30}\s*")
_RECORD_KEY = re.compile(r"[ \t]*(?:-[ \t]+)?([A-Za-z_][\w.-]{0,40})[ \t]*(?::(?:[ \t]|$)|=)")
# A key or a label that names the model or what it is told: a record for the model, not for a page's tools.
_RECORD_FOR_MODEL = re.compile(
    r"(?:^|[_.-])(?:ai|llm|gpt|assistants?|agents?|models?|bots?|prompts?|system|instructions?)(?:$|[_.-])",
    re.IGNORECASE,
)
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{20,}={0,2}(?![A-Za-z0-9+/=_-])")
_HEX = re.compile(r"(?<![0-9A-Fa-f])(?:(?:0x)?[0-9A-Fa-f]{2}[\s:,]?){12,}(?![0-9A-Fa-f])")
# A run starts where its characters start: every match does (the trailing run is greedy), and a run of letters
# with no `%` after it is then read once, not once from each of its letters (quadratic on `"%41 " + "a" * n`).
_PERCENT = re.compile(r"(?<![A-Za-z0-9._~+-])[A-Za-z0-9._~+-]*(?:%[0-9A-Fa-f]{2}[A-Za-z0-9._~+-]*){3,}")
_LEET_WORD = re.compile(r"(?<![\w$])(?=[a-zA-Z0-9]*[a-zA-Z])(?=[a-zA-Z0-9]*[013457])[a-zA-Z0-9]{3,}")
# A digit leetspeak uses, next to a letter. The digit comes first so that the engine skips to digits.
_DIGIT_BY_LETTER = re.compile(r"[013457](?:(?<=[a-zA-Z].)|(?=[a-zA-Z]))")
_ROT13 = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", "NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm"
)
# Words an order or a secret is hardly written without: rot13 is decoded only when the text has one in rot13
# (and none as written, so that plain text is not read twice).
_PLAIN_WORDS = ("ignore", "instruction", "previous", "the user", " you ", ".ssh", "id_rsa", "password", "secret")
# The words an order to the model is put together with, whatever it asks (the model by its role, "the", "and", "do
# not"): in rot13 they are no word of any language ("nffvfgnag", " gur ", " naq "), so they only make a text worth
# decoding; as written they are every English text's, and say nothing of whether the text is plain.
_ORDER_WORDS = ("assistant", " the ", " and ", " do not ")
ROT13_WORDS = tuple(word.translate(_ROT13) for word in (*_PLAIN_WORDS, *_ORDER_WORDS))
"""The words whose rot13 form makes a text worth decoding as rot13 (lowercase)."""

# What an encoded run cannot be without, per encoding: checked before the run's own (slower) pattern is searched.
# Plain ASCII text is first mapped to one letter per class of character, so that the check is a literal search.
_BASE64_RUN = re.compile(r"[A-Za-z0-9+/_-]{20}")
_HEX_PAIRS = re.compile(r"[0-9A-Fa-f]{2}[\s:,]?[0-9A-Fa-f]{2}[\s:,]?[0-9A-Fa-f]{2}")
_PERCENT_PAIR = re.compile(r"%[0-9A-Fa-f]{2}")
_ASCII = [chr(code) for code in range(128)]
_AS_BASE64 = str.maketrans({c: "b" if re.fullmatch(r"[A-Za-z0-9+/_-]", c) else "." for c in _ASCII})
_AS_HEX = str.maketrans(
    {
        c: "h" if re.fullmatch(r"[0-9A-Fa-f]", c) else "s" if re.fullmatch(r"[\s:,]", c) else "x" if c == "x" else "."
        for c in _ASCII
    }
)
# The same maps for ASCII text as bytes: `bytes.translate` looks each byte up in a table, where `str.translate` looks
# each character up in a dict (a tool's every text is asked whether it can hold a run).
_AS_BASE64_BYTES = bytes(ord(chr(code).translate(_AS_BASE64)) for code in range(128)) + b"." * 128
_AS_HEX_BYTES = bytes(ord(chr(code).translate(_AS_HEX)) for code in range(128)) + b"." * 128
# Twelve pairs, each but the first perhaps written `0x..` (`_HEX` less its boundaries and first prefix).
_HEX_PAIRS_MAPPED = re.compile(rb"hhs?(?:(?:hx)?hhs?){11}")


def _may_hold(how: str, text: str) -> bool:
    """Whether `text` can hold a run encoded as `how` (a necessary condition, cheap to check)."""
    if how == "percent":
        return "%" in text and _PERCENT_PAIR.search(text) is not None
    if how == "base64":
        if len(text) < 20:
            return False
        if text.isascii():
            return b"b" * 20 in text.encode("ascii").translate(_AS_BASE64_BYTES)
        return _BASE64_RUN.search(text) is not None
    if len(text) < 24:  # twelve pairs
        return False
    if text.isascii():
        return _HEX_PAIRS_MAPPED.search(text.encode("ascii").translate(_AS_HEX_BYTES)) is not None
    return "0x" in text or _HEX_PAIRS.search(text) is not None


def _unleet_text(text: str) -> str:
    """`text` with each leetspeak word's digits read as letters (`_unleet`)."""
    # Split at the words (one C pass), each word judged by a few `bytes.translate`s (a table lookup a byte, where
    # `str.translate` looks each character up in a dict): `re.sub` with a callback that counted the word's letters
    # with `str.translate` cost about 6 us a word on a text of thousands of them (base64-looking tokens). ASCII text
    # is split as bytes and joined once, not each word encoded and decoded (a third less on such tokens).
    if text.isascii():
        pieces = _LEET_SPLIT_ASCII.split(text.encode("ascii"))
        pieces[1::2] = map(_unleet_bytes, pieces[1::2])
        return b"".join(pieces).decode("ascii")
    parts = _LEET_SPLIT.split(text)
    parts[1::2] = map(_unleet, parts[1::2])
    return "".join(parts)


def _unleet(word: str) -> str:
    """`word` (ASCII letters and digits, a match of `_LEET_WORD`) with its digits read as letters when it is
    leetspeak; `word` itself otherwise."""
    data = word.encode("ascii")
    read = _unleet_bytes(data)
    return word if read is data else read.decode("ascii")


def _unleet_bytes(data: bytes) -> bytes:
    """`_unleet` of a word as ASCII bytes: `data` itself when it is no leetspeak."""
    letters = len(data.translate(None, b"0123456789"))
    # A word mostly of letters with a few digits is leetspeak; `sha256`, `v2` and hex ids are not.
    if letters < 2 or 3 * letters < len(data) or not data.translate(None, b"0123456789abcdefABCDEF"):
        return data
    return data.translate(_LEET_BYTES)


_LEET_SPLIT = re.compile(f"({_LEET_WORD.pattern})")
# The same on ASCII text as bytes: `\w` is then ASCII's, as it is wherever the text is ASCII.
_LEET_SPLIT_ASCII = re.compile(_LEET_SPLIT.pattern.encode("ascii"))
_LEET_BYTES = bytes.maketrans(b"013457", b"oieast")


def _base64(run: str) -> str | None:
    if len(run) % 4 == 1 or run.isalpha() or run.isdigit():
        return None
    if "-" in run or "_" in run:  # the URL-safe alphabet (`base64.b64decode` with `altchars=b"-_"`)
        run = run.translate(_URL_SAFE)
    try:
        raw = binascii.a2b_base64(run + "=" * (-len(run) % 4))
    except (binascii.Error, ValueError):
        return None
    return _utf8(raw)


_URL_SAFE = str.maketrans("-_", "+/")


def _hex(run: str) -> str | None:
    # The separators and `0x` prefixes out: without a prefix, by `str.split` (Python's whitespace, as `\s`) and two
    # replaces, several times cheaper than `re.sub` on a long run.
    digits = re.sub(r"0x|[\s:,]", "", run) if "0x" in run else "".join(run.split()).replace(":", "").replace(",", "")
    if len(digits) % 2:
        return None
    try:
        return _utf8(bytes.fromhex(digits))
    except ValueError:
        return None


def _percent(run: str) -> str | None:
    if "%" not in run:
        return None
    try:
        return urllib.parse.unquote(run, errors="strict")
    except UnicodeDecodeError:  # bytes of another encoding (`caf%E9`): not text the model reads as words
        return None


def _utf8(raw: bytes) -> str | None:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _is_text(decoded: str) -> bool:
    """Whether decoded bytes read as words: printable, mostly letters and spaces (binary and ids are not)."""
    if len(decoded) < 8:
        return False
    if decoded.isascii():  # most decoded text: its characters counted by class in C (a byte table)
        classes = decoded.encode("ascii").translate(_CLASSES)
        if b"n" in classes:  # a control character other than a line break: not printable
            return False
        wordish, letters = len(decoded) - classes.count(b"x"), classes.count(b"a")
    else:
        if not decoded.replace("\n", " ").isprintable():
            return False
        wordish = sum(c.isalnum() or c in _WORDISH for c in decoded)
        letters = sum(map(str.isalpha, decoded))
    return wordish >= len(decoded) * 0.85 and letters >= len(decoded) * 0.5


_WORDISH = frozenset(" /._~:-,'\"!?()@<>=")
# Each ASCII character as its class: `a` a letter, `w` another character of words (a digit, `_WORDISH`), `n` one
# that is not printable (but a line break), `x` any other.
_CLASSES = bytes(
    ord("a" if c.isalpha() else "w" if c.isalnum() or c in _WORDISH else "x" if c.isprintable() or c == "\n" else "n")
    for c in map(chr, range(256))
)
_ENCODINGS: tuple[tuple[str, re.Pattern[str], Callable[[str], str | None]], ...] = (
    ("base64", _BASE64, _base64),
    ("hex", _HEX, _hex),
    ("percent", _PERCENT, _percent),
)
