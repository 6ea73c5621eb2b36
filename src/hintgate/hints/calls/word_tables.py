"""Tables of words written as text: the argument judges' lists of names (programs, subcommands, procedures, methods).

Pure. A table of many short names reads best wrapped like prose, in a
string; `word_set` makes it the set a judge looks names up in.
"""

from __future__ import annotations

__all__ = ["word_set"]


def word_set(text: str) -> frozenset[str]:
    """The words of a table written as text (split at any white space, line breaks included), one set."""
    return frozenset(text.split())
