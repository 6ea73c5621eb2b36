"""Tables that fit a width: columns drop, least important first, before anything wraps.

A terminal table that wraps cells splits words and names over several lines
(a UUID over four). Here each column has a priority; when the table is wider
than the console, the least important columns go first, then cuttable text
is cut with an ellipsis. Nothing wraps: a tool name is shown whole or its
column is not there at all. `wide` shows every column at full width.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

__all__ = ["Column", "Trimmed", "counted", "fit_table", "short_arguments", "short_id", "when"]

_GAP = 3  # a column separator and one space of padding on each side of it
_ELLIPSIS_MIN = 8  # a cut column keeps at least this many cells, or it is dropped


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a fitted table.

    Attributes:
        header: the heading.
        priority: 0 is never dropped; higher numbers drop first.
        cut: whether cells may be cut with an ellipsis (free text) or must be whole (names, ids).
        justify: "left" or "right".
        wrap: whether a cut column wraps its text between words instead of cutting it.
        minimum: the least width a cut column is worth showing at (else it is dropped).
    """

    header: str
    priority: int = 0
    cut: bool = False
    justify: str = "left"
    wrap: bool = False
    minimum: int = _ELLIPSIS_MIN


def _natural(header: str, cells: Sequence[Text]) -> int:
    widest = cell_len(header)
    for cell in cells:
        for line in cell.plain.splitlines() or [""]:
            widest = max(widest, cell_len(line))
    return widest


def fit_table(
    columns: Sequence[Column],
    rows: Sequence[Sequence[str | Text]],
    *,
    width: int,
    wide: bool = False,
    title: str | None = None,
) -> RenderableType:
    """A table of `rows` no wider than `width` (unless `wide`), with a note naming dropped columns.

    Args:
        columns: the columns, in display order.
        rows: one sequence of cells per row, in the columns' order.
        width: the console's width.
        wide: show every column untruncated, however wide.
        title: a heading above the table.
    """
    texts = [[cell if isinstance(cell, Text) else Text(cell) for cell in row] for row in rows]
    natural = [_natural(c.header, [row[i] for row in texts]) for i, c in enumerate(columns)]
    # An empty column of free text (no errors, say) is noise at a narrow width.
    keep = [i for i, c in enumerate(columns) if wide or not c.cut or any(row[i].plain for row in texts)]

    def least(i: int) -> int:
        column = columns[i]
        return natural[i] if not column.cut else min(natural[i], max(column.minimum, cell_len(column.header)))

    def needed(kept: list[int]) -> int:
        return sum(least(i) for i in kept) + _GAP * (len(kept) - 1)

    if not wide:
        while needed(keep) > width:
            droppable = [i for i in keep if columns[i].priority > 0]
            if not droppable:
                break
            # The least important goes first; among equals, the rightmost.
            keep.remove(max(droppable, key=lambda i: (columns[i].priority, i)))
    widths = {i: natural[i] for i in keep}
    if not wide:
        widths = {i: least(i) for i in keep}
        spare = width - needed(keep)
        for i in sorted(keep, key=lambda i: (columns[i].priority, i)):
            grow = min(spare, natural[i] - widths[i])
            widths[i] += max(grow, 0)
            spare -= max(grow, 0)
    table = Table(
        title=title,
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        expand=False,
        header_style="bold",
        title_justify="left",
    )
    for i in keep:
        column = columns[i]
        table.add_column(
            column.header,
            width=widths[i],
            no_wrap=not (column.cut and column.wrap and not wide),
            overflow="ellipsis",
            justify="right" if column.justify == "right" else "left",
        )
    for row in texts:
        table.add_row(*(row[i] for i in keep))
    hidden = [columns[i].header for i in range(len(columns)) if i not in keep and any(row[i].plain for row in texts)]
    if not hidden:
        return Trimmed(table)
    note = Text(f"(hidden: {', '.join(hidden)}; --wide shows all)", style="dim")
    return Trimmed(Group(table, note))


class Trimmed:
    """A renderable whose every line ends at its last visible character.

    Rich pads an indented paragraph and a centred title with spaces to the full
    width; in a terminal they are invisible, but a copied report, a file or a
    diff carries them. Spaces with a background colour are kept (they show).
    """

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in console.render_lines(self.renderable, options, pad=False):
            yield from _rstrip(line)
            yield Segment.line()


def _rstrip(line: list[Segment]) -> list[Segment]:
    """A rendered line without the plain spaces at its end."""
    kept = list(line)
    while kept:
        last = kept[-1]
        shows = last.control is not None or (last.style is not None and last.style.bgcolor is not None)
        text = last.text.rstrip(" ")
        if shows or text:
            if not shows and text != last.text:
                kept[-1] = Segment(text, last.style, last.control)
            break
        kept.pop()
    return kept


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """`1 tool`, `3 tools`: a count with its noun in the number it takes (`plural` where `s` is not it)."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def short_id(value: object) -> str:
    """The first 8 characters of an id: enough to tell rows apart (`--session` takes such a prefix)."""
    return str(value or "")[:8]


def short_arguments(arguments: object, *, value_width: int = 24, sep: str = " ") -> str:
    """A call's arguments for people: `key=value` pairs joined by `sep`, each value cut to `value_width`."""
    if arguments in (None, "", {}):
        return "-"
    if not isinstance(arguments, dict):
        return _cut(json.dumps(arguments, ensure_ascii=False, default=str), value_width)
    pairs = []
    for key, value in arguments.items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
        pairs.append(f"{key}={_cut(' '.join(str(text).split()), value_width)}")
    return sep.join(pairs)


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def when(value: object, *, now: datetime | None = None) -> str:
    """A stored timestamp for people: "42 s ago", "3 min ago", today's local time, or a local date and time."""
    if value in (None, ""):
        return ""
    try:
        moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)  # the store keeps UTC
    now = now or datetime.now(UTC)
    seconds = (now - moment).total_seconds()
    if 0 <= seconds < 60:
        return f"{int(seconds)} s ago"
    if 0 <= seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    local = moment.astimezone()
    if local.date() == now.astimezone().date():
        return local.strftime("%H:%M:%S")
    return local.strftime("%Y-%m-%d %H:%M:%S")
