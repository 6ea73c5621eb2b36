"""The lines `serve` prints to a stderr that is not a terminal, written as given, without Rich.

A stdio gateway's stderr is its MCP client's log, not a person's terminal: Rich would lay nothing out there (no
colour, no wrapping: `hintgate.cli.serve` sets `soft_wrap` off a terminal), yet importing it took 0.03-0.05 s of the
CPU a stdio gateway spends before its first listing. `PlainConsole` writes each line as it is given instead:
square brackets and `:name:` codes in a server's name or a reason stay as they are (Rich read them as markup and
emoji). At a terminal `serve` prints with Rich's `Console` as before; both are a `Lines`.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["Lines", "PlainConsole"]


class PlainConsole:
    """Print lines to this process's stderr (the one `sys.stderr` is when printing), as they are given."""

    def print(
        self,
        *objects: Any,
        highlight: bool | None = None,
        markup: bool | None = None,
        soft_wrap: bool | None = None,
    ) -> None:
        """Write `objects`, separated by spaces, as one line; the options are Rich's and change nothing here."""
        stream = sys.stderr
        stream.write(" ".join(str(each) for each in objects) + "\n")
        stream.flush()


Lines: TypeAlias = "Console | PlainConsole"
"""Where `serve` prints its lines: Rich's `Console` at a terminal, `PlainConsole` otherwise."""
