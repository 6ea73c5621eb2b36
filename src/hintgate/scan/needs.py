"""The words a rule needs before it can match: one pass over a text says which rules are worth running.

Pure. A rule of the definition judge (`scan.precedence`, `scan.provenance`) is
a large pattern that most texts give no chance: "drop your earlier
instructions" needs a verb of dropping, "from the conversation" a word for
the conversation. Each rule names the words it needs, in groups (a word of
every group must stand in the text, or begin a word that does: "ignor" meets
"ignoring": wherever it stands, a substring); one pass of a set of literals
(RE2's, whose automaton reads any text in linear time) finds every needed word
a text holds, and only the rules whose groups are all met are run. Without
`google-re2` each word is looked for in turn (the same answer, slower).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any, Generic, TypeVar

from hintgate.scan.re2_options import quiet_options

__all__ = ["Needs"]

K = TypeVar("K")


class Needs(Generic[K]):
    """Rules by key, each with the groups of words it needs ("a|b|c": one of them, lower case)."""

    def __init__(self, needs: Mapping[K, Sequence[str]]) -> None:
        self._groups = {key: tuple(tuple(group.split("|")) for group in groups) for key, groups in needs.items()}
        self._words = sorted({word for groups in self._groups.values() for group in groups for word in group})
        number = {word: at for at, word in enumerate(self._words)}
        # Each group as the numbers of its words in the set's order.
        self._numbered = {
            key: tuple(frozenset(number[word] for word in group) for group in groups)
            for key, groups in self._groups.items()
        }

    @functools.cached_property
    def _set(self) -> Any:
        """RE2's set of every needed word (as literals, found anywhere), or None without RE2."""
        try:
            import re2
        except ImportError:  # pragma: no cover - google-re2 is a dependency
            return None
        literals = re2.Set.SearchSet(quiet_options(max_mem=8 << 20))
        for word in self._words:
            literals.Add(re.escape(word))
        literals.Compile()
        return literals

    def able(self, low: str) -> list[K]:
        """The keys, in their order, whose every group has a word standing in `low` (a lower-cased text)."""
        literals = self._set
        if literals is None:  # pragma: no cover - google-re2 is a dependency
            return [
                key
                for key, groups in self._groups.items()
                if all(any(word in low for word in group) for group in groups)
            ]
        found = frozenset(literals.Match(low) or ())
        if not found:
            return []
        return [key for key, groups in self._numbered.items() if all(not found.isdisjoint(g) for g in groups)]
