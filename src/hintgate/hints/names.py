"""Tool names as people read them: one spelling for names that look alike, and globs that match it.

Pure. A server chooses its tools' names, so a name can be built to slip past
an operator's glob: `delete repo` (served as `delete_repo`), `Delete_repo`,
or `dеlete_repo` with a Cyrillic `е`. `skeleton` folds such names to one
spelling (a compact form of the Unicode TR39 skeleton: compatibility forms,
case, and the common Latin look-alikes among Cyrillic and Greek letters), and
`NameGlob` matches a glob against a name's skeleton as well as the name.
"""

from __future__ import annotations

import fnmatch
import functools
import re
import unicodedata
from dataclasses import dataclass, field

__all__ = ["NameGlob", "confusable_letters", "fold_lookalikes", "name_glob", "names_match", "sanitize", "skeleton"]

_INVALID = re.compile(r"[^A-Za-z0-9_.\-]")

# Letters that are drawn like a Latin letter, after casefolding: Cyrillic, then Greek.
_LOOKALIKES = {
    "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "і": "i", "ї": "i", "ј": "j", "к": "k", "м": "m",
    "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "ԁ": "d", "ԛ": "q",
    "ԝ": "w", "ү": "y", "һ": "h", "ӏ": "l", "ь": "b",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "γ": "y", "ω": "w", "ϲ": "c", "ϳ": "j",
}  # fmt: skip
_FOLD = str.maketrans(_LOOKALIKES)
# The same letters in either case, folded without casefolding the rest (lengths stay as they are).
_FOLD_CASED = str.maketrans(
    {**_LOOKALIKES, **{k.upper(): v.upper() for k, v in _LOOKALIKES.items() if len(k.upper()) == 1 and k.upper() != k}}
)


@functools.lru_cache(maxsize=4096)
def skeleton(name: str) -> str:
    """The spelling two names share when people would read them alike.

    NFKC (fullwidth and other compatibility forms become plain letters),
    casefold, then Cyrillic and Greek look-alikes become the Latin letter they
    look like: `skeleton("Dеlete_Repo")` (Cyrillic е) is `"delete_repo"`.
    """
    return unicodedata.normalize("NFKC", name).casefold().translate(_FOLD)


def fold_lookalikes(text: str) -> str:
    """`text` with its Cyrillic and Greek look-alike letters replaced by the Latin ones, case kept, nothing else.

    One character for one, so offsets in the result are offsets in `text`.
    """
    return text.translate(_FOLD_CASED)


def sanitize(name: str) -> str:
    """`name` with every character the MCP spec does not allow in a tool name made `_`, as public names are."""
    return _INVALID.sub("_", name)


def confusable_letters(name: str) -> list[str]:
    """The letters of `name` that are drawn like a Latin letter but are not one (empty when there are none)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return sorted({c for c in folded if c in _LOOKALIKES})


@dataclass(frozen=True, slots=True)
class NameGlob:
    """A glob over tool names that a look-alike spelling cannot escape.

    It matches a name when the glob matches the name as it is, or the glob's
    skeleton matches the name's skeleton: `delete_*` matches `Delete_repo`
    and `dеlete_repo` (Cyrillic е). Callers give every spelling of a name they
    know (as listed, as served) and a match on any of them counts.
    """

    pattern: str
    _plain: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _folded: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _plain_is_folded: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # fnmatch.translate, not fnmatch.fnmatch: compiled once, and the same on every platform.
        folded = skeleton(self.pattern)
        object.__setattr__(self, "_plain", re.compile(fnmatch.translate(self.pattern)))
        object.__setattr__(self, "_folded", re.compile(fnmatch.translate(folded)))
        object.__setattr__(self, "_plain_is_folded", folded == self.pattern)

    def matches(self, *names: str) -> bool:
        """Whether the glob matches any of `names`, as spelled or folded."""
        # This runs for every tool rule on every call: one regex per name when nothing folds.
        for name in names:
            folded = skeleton(name)
            if self._folded.match(folded) is not None:
                return True
            if (folded != name or not self._plain_is_folded) and self._plain.match(name) is not None:
                return True
        return False


@functools.lru_cache(maxsize=1024)
def name_glob(pattern: str) -> NameGlob:
    """`NameGlob(pattern)`, compiled once per pattern."""
    return NameGlob(pattern)


def names_match(patterns: tuple[str, ...] | list[str], name: str, *more: str) -> bool:
    """Whether any glob matches a tool name as listed, as served (sanitized), or folded (`NameGlob`)."""
    forms = [form for n in (name, *more) for form in (n, sanitize(n))]
    return any(name_glob(p).matches(*forms) for p in patterns)
