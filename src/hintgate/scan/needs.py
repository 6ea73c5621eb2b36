"""The words a rule needs before it can match: one pass over a text says which rules are worth running.

Pure. A rule of the definition judge (`scan.precedence`, `scan.provenance`) is
a large pattern that most texts give no chance: "drop your earlier
instructions" needs a verb of dropping, "from the conversation" a word for
the conversation. Each rule names the words it needs, in groups (a word of
every group must stand in the text, or begin a word that does: "ignor" meets
"ignoring"); one search finds every needed word a text holds, and only the
rules whose groups are all met are run.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Generic, TypeVar

__all__ = ["Needs"]

K = TypeVar("K")


class Needs(Generic[K]):
    """Rules by key, each with the groups of words it needs ("a|b|c": one of them, lower case)."""

    __slots__ = ("_groups", "_words")

    def __init__(self, needs: Mapping[K, Sequence[str]]) -> None:
        self._groups = {key: tuple(tuple(group.split("|")) for group in groups) for key, groups in needs.items()}
        words = {word for groups in self._groups.values() for group in groups for word in group}
        # At every place the longest word there, so that a need is met by any word it starts.
        self._words = re.compile("(?=(" + "|".join(map(re.escape, sorted(words, key=len, reverse=True))) + "))")

    def able(self, low: str) -> list[K]:
        """The keys, in their order, whose every group has a word standing in `low` (a lower-cased text)."""
        present = frozenset(self._words.findall(low))
        if not present:
            return []
        return [
            key
            for key, groups in self._groups.items()
            if all(any(found.startswith(group) for found in present) for group in groups)
        ]
