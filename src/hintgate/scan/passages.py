"""The passage a redaction removes for a finding: the smallest unit of the text that holds it.

Pure. A finding names the span of its evidence (`start`:`end`); the result guard removes the unit that holds it,
so that an order loses its words and an honest text flagged by mistake loses as little as can be told apart:

- a value written as data (`scan.cells`: a JSON string's value, a quoted CSV field, a log's `key=value`) or a
  Markdown or tab-separated table's cell is a text of its own: nothing outside it is removed;
- in it, the sentence (up to its end mark, its line's end, or a closing tag), when the sentence is of normal
  length (`NORMAL`);
- in a longer one (a minified page, a list or a log without full stops), the smallest of: the text between two
  HTML tags, a CSV row's field, the clause (bounded by `;` `:` a dash or a line break), each never more than the
  sentence; past `LIMIT`, the span of the finding itself.

`Passages(text).holding(start, end)` gives the passage; the text's sentence ends and data values are found once,
on the first question, and each costs a pass over the text.
"""

from __future__ import annotations

import bisect
import csv
import itertools
import re

from hintgate.scan.cells import cells

__all__ = ["LIMIT", "NORMAL", "Passages"]

NORMAL = 300
"""Characters up to which a sentence is removed whole (a long English sentence is about 250)."""
LIMIT = 1000
"""Characters past which no unit is removed whole: only the span of the finding is."""

# Where sentences end: after the mark (the space that follows stays), at every line break (a list's item or a
# table's row is a line, whatever opens the next; in a JSON string, a line break is written `\\n`), or after a
# closing tag.
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|\n|\\n|</[A-Za-z_-]+>")
# Where clauses end: after `;` or `:` and a space (not a URL's colon), at a dash between words, at a line break.
_CLAUSE_END = re.compile(r";|:(?=\s)|\s[\u2014\u2013-]{1,2}\s|\u2014|\n|\\n")
_TAG = re.compile(r"<[A-Za-z/!][^<>]{0,1000}>")
# A table's row: a Markdown row opens (and mostly closes) with a bar; a TSV row has two tabs or more.
_MARKDOWN_ROW = re.compile(r"[ \t]*\|.*\|[ \t]*")


class Passages:
    """The passages of one text that hold findings (see the module's docstring)."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._sentence_ends: list[int] | None = None
        self._data_values: list[tuple[int, int]] | None = None

    @property
    def _ends(self) -> list[int]:
        """Where the text's sentences end, in order."""
        if self._sentence_ends is None:
            found = _SENTENCE_END.finditer(self._text)
            self._sentence_ends = [m.end() if m.group()[0] in "<\\" else m.start() + 1 for m in found]
        return self._sentence_ends

    @property
    def _cells(self) -> list[tuple[int, int]]:
        """The spans of the text's data values (`scan.cells`), in order."""
        if self._data_values is None:
            self._data_values = sorted((cell.start, cell.end) for cell in cells(self._text))
        return self._data_values

    def holding(self, start: int, end: int) -> tuple[int, int]:
        """The smallest unit of the text holding `text[start:end]`, never more than its sentence."""
        text = self._text
        low, high = self._data_value(start, end)
        first, last = self._sentence(start, end, low, high)
        if last - first > NORMAL:
            for unit in (_element, _field, _clause):
                first, last = unit(text, start, end, first, last)
                if last - first <= NORMAL:
                    break
            if last - first > LIMIT:
                return start, end
        while first < start and text[first].isspace():  # the space before a passage stays with the text before
            first += 1
        return first, last

    def parts(self, start: int, end: int, *, clauses: bool = False) -> list[tuple[int, int]]:
        """The sentences, data values and HTML elements' texts (with `clauses`, the clauses too) `text[start:end]`
        runs across, in order (one part when it holds none of their edges): a finding that long may be one of them
        read as a sentence."""
        text, ends = self._text, self._ends
        cuts = {start, end}
        cuts.update(ends[bisect.bisect_right(ends, start) : bisect.bisect_left(ends, end)])
        for low, high in self._cells:
            cuts.update(at for at in (low, high) if start < at < end)
        if clauses:
            cuts.update(mark.end() for mark in _CLAUSE_END.finditer(text, start, end))
        for tag in _TAG.finditer(text, start, end):
            cuts.update((tag.start(), tag.end()))
        edges = sorted(cuts)
        return [(a, b) for a, b in itertools.pairwise(edges) if text[a:b].strip()]

    def _data_value(self, start: int, end: int) -> tuple[int, int]:
        """The data value or table cell holding the span (the whole text when none does)."""
        text = self._text
        # The innermost value holding the span: the last that starts at or before it and ends after it.
        i = bisect.bisect_right(self._cells, (start, len(text) + 1))
        for low, high in reversed(self._cells[max(0, i - 64) : i]):  # the innermost is among the last to open
            if end <= high:
                return low, high
        line_start, line_end = _line(text, start, end)
        line = text[line_start:line_end]
        bar = _MARKDOWN_ROW.fullmatch(line) is not None and line.count("|") >= 3
        if bar or line.count("\t") >= 2:
            separator = "|" if bar else "\t"
            low = text.rfind(separator, line_start, start)
            high = text.find(separator, end, line_end)
            if low >= 0 and high >= 0:
                return low + 1, high
        return 0, len(text)

    def _sentence(self, start: int, end: int, low: int, high: int) -> tuple[int, int]:
        """The sentence (or sentences) holding `text[start:end]`, within `low`:`high`."""
        text = self._text
        ends = self._ends
        i = bisect.bisect_right(ends, start) - 1
        first = max(ends[i] if i >= 0 else 0, low)
        if end > 0 and text[end - 1] in ".!?>":  # a finding that ends a sentence or a tag ends the passage
            last = end
        else:
            j = bisect.bisect_left(ends, end)
            last = ends[j] if j < len(ends) else len(text)
        return first, max(min(last, high), end)


def _line(text: str, start: int, end: int) -> tuple[int, int]:
    """The start and end of the line (or lines) holding `text[start:end]`, line breaks left out."""
    line_end = text.find("\n", end)
    return text.rfind("\n", 0, start) + 1, len(text) if line_end < 0 else line_end


def _element(text: str, start: int, end: int, first: int, last: int) -> tuple[int, int]:
    """The text between the last tag before the span and the first after it, within `first`:`last`."""
    if "<" not in text[first:last]:
        return first, last
    before = [m.end() for m in _TAG.finditer(text, first, start) if m.end() <= start]
    after = _TAG.search(text, end, last)
    return (before[-1] if before else first), (after.start() if after else last)


def _field(text: str, start: int, end: int, first: int, last: int) -> tuple[int, int]:
    """A CSV row's field holding the span, when the passage is a row of several fields, within `first`:`last`."""
    line_start, line_end = _line(text, start, end)
    row = text[line_start:line_end]
    if row.count(",") < 2 or '"' in row:  # a quoted field is a data value, found before
        return first, last
    try:
        fields = next(csv.reader([row]))
    except (csv.Error, StopIteration):
        return first, last
    if len(fields) < 3:
        return first, last
    at = line_start
    for field in fields:  # unquoted: each field stands in the row as read
        if at <= start and end <= at + len(field):
            return max(at, first), min(at + len(field), last)
        at += len(field) + 1
    return first, last


def _clause(text: str, start: int, end: int, first: int, last: int) -> tuple[int, int]:
    """The clause (or clauses) holding the span, within `first`:`last`."""
    low, high = first, last
    for mark in _CLAUSE_END.finditer(text, first, start):
        low = mark.end()
    after = _CLAUSE_END.search(text, max(start, end - 1), last)  # a span that ends its clause ends the passage
    if after is not None:
        high = after.start() + 1 if text[after.start()] in ";:" else after.start()
    return min(low, start), max(high, end)
