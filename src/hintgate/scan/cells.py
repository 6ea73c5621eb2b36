"""Values written as data inside a text: each read as a text of its own.

Pure. A tool's text often holds data rather than prose: a CSV or TSV row, a JSON document, a log line's
`key="value"` pairs, a certificate's `O=..., OU=..., CN=...`. A note hidden in one such value has no sentence of its
own there: the quotation mark that opens a cell reads as a quotation opened, the key before `=` runs into its first
word, a JSON string's line breaks are written `\\n`. `cells` finds each such value and gives it as written, decoded
(JSON's escapes, CSV's doubled quotation marks), with its place in the text, so that the scan reads it as it reads
any text and reports what it finds at the value's place in the text.

A value is data by where it stands: a quoted string that opens a line, follows a separator (`,` `;` a tab `|` `[`
`{` `(`), a key and `=`, or a key and `:` (a JSON member's `"key":`, a config's `key:` at its line's start); or an
unquoted value of several words after a key and `=` (`OU=Sales team, CN=...`), up to the next such key or the line's
end. A quotation in a sentence (`he wrote "..."`) is none of these. A quoted value in a table's row has its column's
header (`Headers`), as a value after `key=` has its key.
"""

from __future__ import annotations

import bisect
import csv
import itertools
import re
from collections.abc import Iterator

from hintgate.jsontext import replace_lone_surrogates
from hintgate.scan.spans import line_bounds

__all__ = ["Cell", "Headers", "cells", "key_words", "sample_key", "table_cells", "unescaped"]

# A quoted value in a data position: after a line's break or a separator, after `=`, or after a key and ':' (a JSON
# member's quoted name, or a name at its line's start). Escapes as JSON writes them, or a CSV cell's "". The mark
# before it is matched, not looked behind for: the search then skips text without one at the engine's speed (a text
# is searched with a line break before it, so that its first line starts as every other does).
_QUOTED = re.compile(r'(?:\n[ \t]*[\w.-]+:|:(?<=":)|:(?<=" :)|[\n,;\t|\[{(=])[ \t]{0,8}"((?:[^"\\\n]|\\.|"")*)"')
# A key and `=` and an unquoted value (a certificate's `OU=Sales team`, a record's `note=...`), up to the next key and
# `=`, the end of a sentence (a stop and a capital after it: what follows is the text's own sentence, not the value's)
# or the line's end; one of several words is read (`cells`). Every repeat is bounded or unambiguous: linear time.
_UNQUOTED = re.compile(
    r"[\s,;/][A-Za-z][\w.-]{0,40}=(?![\"=\s])([^\n=\"]*?)"
    r"(?=[,;/ \t]{1,4}[A-Za-z][\w.-]{0,40}=|[ \t,;]{0,4}$|(?<=[.!?])[ \t]+[A-Z])",
    re.MULTILINE,
)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\n", '"': '"', "\\": "\\", "/": "/", "b": " ", "f": " "}
# Shorter values hold no sentence to read.
_SHORTEST = 12
# A key naming its value as a sample of someone else's words (a scanner's payload, a dataset's example): what the
# value says is shown, not said.
_SAMPLE_WORDS = frozenset(
    {"sample", "samples", "example", "examples", "payload", "payloads", "attack", "attacks", "pattern", "patterns"}
    | {"evidence", "signature", "signatures", "indicator", "indicators", "jailbreak", "jailbreaks", "matched"}
)
_SAMPLE_STEMS = ("inject", "detect")
_KEY_WORD = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z]?[a-z]+")


def key_words(key: str) -> list[str]:
    """The words of a data value's key or column header: split at separators and digits, and where a lower-case
    letter meets a capital (`matchedPattern`: `matched`, `Pattern`; `HTTPStatus`: `HTTP`, `Status`)."""
    return _KEY_WORD.findall(key)


def sample_key(key: str) -> bool:
    """Whether `key` names its value as a sample of someone else's words (`payload`, `attack_sample`, `examples`)."""
    for word in key_words(key):
        low = word.lower()
        if low in _SAMPLE_WORDS or low.startswith(_SAMPLE_STEMS):
            return True
    return False


class Cell:
    """A value written as data in a text: its text as read (`value`), its span in the text as written, and the text
    just before it (its key or its row, for context)."""

    __slots__ = ("_text", "end", "start", "value")

    def __init__(self, value: str, start: int, end: int, text: str) -> None:
        self.value = value
        self.start = start
        self.end = end
        self._text = text

    @property
    def before(self) -> str:
        """The text just before the value (its key, or its row's first cells), up to 80 characters."""
        opened = self.start - 1 if self._text[self.start - 1 : self.start] == '"' else self.start
        return self._text[max(0, opened - 80) : opened]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The span in the text of the value's characters `start`:`end`."""
        raw = self._text[self.start : self.end]
        if raw == self.value:
            return self.start + start, self.start + max(end, start + 1)
        places: list[int] = []  # where each character of the value stands in `raw`
        at = 0
        for escape in _CELL_ESCAPE.finditer(raw):
            places.extend(range(at, escape.start()))
            places.append(escape.start())
            at = escape.end()
        places.extend(range(at, len(raw)))
        if not places:
            return self.start, self.end
        first = places[min(max(start, 0), len(places) - 1)]
        last = places[min(max(end, 1), len(places)) - 1] + 1
        return self.start + first, self.start + max(last, first + 1)


# An escape in a quoted value: JSON's (`\\n`, `\\"`, a character by its code `\\u00e9`) or a CSV cell's doubled
# quotation mark; each is one character of the value.
_CELL_ESCAPE = re.compile(r'\\(?:u[0-9a-fA-F]{4}|.)|""')


def _read_escape(match: re.Match[str]) -> str:
    escape = match.group()
    if escape == '""':
        return '"'
    code = escape[1:]
    return chr(int(code[1:], 16)) if code[0] == "u" and len(code) == 5 else _ESCAPES.get(code, code)


# An escape as JSON writes one in a string: a line break, a tab, a quotation mark, a character by its code.
_ESCAPE = re.compile(r'\\(?:u[0-9a-fA-F]{4}|[nrt"\\/])')


def _unescape(match: re.Match[str]) -> str:
    code = match.group()[1:]
    return chr(int(code[1:], 16)) if code[0] == "u" else _ESCAPES[code]


def unescaped(text: str) -> str | None:
    """`text` with the escapes JSON writes in a string read (`\\n` a line break, `\\u00e9` an é), or None when
    it holds none: what a JSON document written in a text says, read as a whole."""
    if "\\" not in text or _ESCAPE.search(text) is None:
        return None
    return replace_lone_surrogates(_ESCAPE.sub(_unescape, text))


def cells(text: str) -> Iterator[Cell]:
    """Each value written as data in `text` (see above) of `_SHORTEST` characters or more, in order; together they
    hold at most the text's own characters, so reading them all costs as much as reading the text once more."""
    lined = "\n" + text if '"' in text else ""
    for match in _QUOTED.finditer(lined):
        raw = match.group(1)
        if len(raw) < _SHORTEST or (" " not in raw and "\t" not in raw and "\\" not in raw):
            continue  # a word, an identifier or a number: no sentence
        value = raw if "\\" not in raw and '""' not in raw else _CELL_ESCAPE.sub(_read_escape, raw)
        start = match.start(1) - 1
        yield Cell(replace_lone_surrogates(value), start, start + len(raw), text)
    if "=" not in text:
        return
    for match in _UNQUOTED.finditer("\n" + text):
        raw = match.group(1)
        if len(raw.strip()) < _SHORTEST or " " not in raw.strip():
            continue
        start = match.start(1) - 1
        yield Cell(raw, start, match.end(1) - 1, text)  # less the line break put before the text


# What separates a table's cells: a CSV's comma, a TSV's tab, a semicolon, a Markdown table's bar.
_SEPARATORS = (",", "\t", ";", "|")
# A column's header: a name of a few words, not a sentence.
_HEADER = re.compile(r"[A-Za-z][\w.-]{0,40}(?: [\w.-]{1,20}){0,3}")
# A blank line: a table's block of lines ends there.
_BLANK = re.compile(r"\n[ \t]*(?=\n)")
# How much of a row before a value is read to count its column; past it, its column is not told.
_ROW_READ = 4000


class Headers:
    """The column headers of the tables written in a text (a CSV, a TSV, a Markdown table): the header of a quoted
    value is the cell of its column in the first line of its block of lines (no blank line between), that line split
    by the separator it holds most of, the value's row split as it is up to the value."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._blocks: list[int] | None = None  # where each block of lines starts
        self._split: dict[int, tuple[str, list[str]] | None] = {}  # a block's separator and header line, by its start

    def of(self, cell: Cell) -> str | None:
        """The header of `cell`'s column, or None: the cell is not quoted, not in a table's row, or its column's
        header is no name."""
        text = self._text
        opened = cell.start - 1  # its opening quotation mark
        if opened < 0 or text[opened] != '"':
            return None
        line = text.rfind("\n", 0, opened) + 1
        if opened - line > _ROW_READ:
            return None
        if self._blocks is None:
            self._blocks = [0, *(blank.end() + 1 for blank in _BLANK.finditer(text))]
        block = self._blocks[bisect.bisect_right(self._blocks, line) - 1]
        if block == line:
            return None  # the value is in the header line itself
        if block not in self._split:
            self._split[block] = _header_line(text, block)
        split = self._split[block]
        if split is None:
            return None
        separator, header = split
        row = text[line:opened]
        if row.strip():
            if not row.rstrip(" ").endswith(separator):
                return None
            try:
                column = len(next(csv.reader([row], delimiter=separator))) - 1
            except (csv.Error, StopIteration):
                return None
        else:
            column = 0
        if column >= len(header):
            return None
        name = header[column].strip().strip('"').strip()
        return name if _HEADER.fullmatch(name) else None


def _header_line(text: str, start: int) -> tuple[str, list[str]] | None:
    """The separator of the header line that starts at `start` and its cells, or None when it holds no separator."""
    end = text.find("\n", start)
    line = text[start : end if end >= 0 else len(text)]
    if len(line) > _ROW_READ:
        return None
    counts = [(line.count(separator), separator) for separator in _SEPARATORS]
    count, separator = max(counts, key=lambda pair: pair[0])
    if not count:
        return None
    try:
        return separator, next(csv.reader([line], delimiter=separator))
    except (csv.Error, StopIteration):
        return None


# A Markdown table's delimiter row under its header row: `|---|:---:|`, the outer bars optional.
_DELIMITER = re.compile(r"[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)+\|?[ \t]*")
# A bar that separates a row's cells (an escaped one, `\|`, is a cell's character).
_BAR = re.compile(r"(?<!\\)\|")


def table_cells(text: str) -> Iterator[tuple[int, int, str]]:
    """Each cell of the Markdown tables written in `text` (a header row, a delimiter row, then rows, the outer bars
    optional), unquoted as such a table writes them: its span (the spaces around it left out) and the header of its
    column. A table ends at the first line without a bar."""
    if "|" not in text or "---" not in text:
        return
    lines = line_bounds(text)
    i = 1
    while i < len(lines):
        start, end = lines[i]
        if not _DELIMITER.fullmatch(text, start, end):
            i += 1
            continue
        names = [text[a:b] for a, b in _row(text, *lines[i - 1])]
        i += 1
        while i < len(lines) and "|" in text[lines[i][0] : lines[i][1]]:
            for column, (a, b) in enumerate(_row(text, *lines[i])):
                if column < len(names) and a < b:
                    yield a, b, names[column]
            i += 1


def _row(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of a table row's cells, the spaces around each left out."""
    bars = [m.start() for m in _BAR.finditer(text, start, end)]
    line = text[start:end]
    edges = [start - 1, *bars, end]
    spans = list(itertools.pairwise(edges))
    if line.lstrip().startswith("|"):
        spans = spans[1:]
    if line.rstrip().endswith("|") and spans:
        spans = spans[:-1]
    out = []
    for before, after in spans:
        first, last = before + 1, after
        while first < last and text[first] in " \t":
            first += 1
        while last > first and text[last - 1] in " \t":
            last -= 1
        out.append((first, last))
    return out
