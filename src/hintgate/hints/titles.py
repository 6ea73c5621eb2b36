"""A title for every tool, with where it came from.

People see titles (the dashboard, approval questions, `hintgate tools`); a raw
name such as ``update_note`` reads badly in "Allow update_note?". Every tool
gets a title, first match wins:

| provenance | source |
|---|---|
| ``override`` | the operator's title: set through the API, CLI or dashboard, else the config file's ``title`` |
| ``declared`` | ``Tool.title``, else ``annotations.title``, as the source listed them |
| ``openapi`` | the OpenAPI operation's ``summary`` (its ``operationId`` words when there is none) |
| ``derived`` | the tool's name in sentence case |

A derived title is the name's words in sentence case: ``update_note`` →
"Update note", ``getURLInfo`` → "Get URL info"; upper-case acronyms of two
letters or more are kept as written (unless the whole name is upper case).

One reordering, for names in noun-verb style: when the name's only action
word is its last word, at least two words come before it, and that word is
a plain verb rather than one as often a noun (``export``, ``status``,
``search``, ``check``...), the verb moves to the front: ``acr_registry_list``
→ "List acr registry", while ``shop_order_search`` stays "Shop order
search". With one word before it the name is usually a command of a tool
(``git_add``, ``kubectl_get``) and keeps its order. The verbs are those of
the inference lexicon (`hintgate.hints.inference.naming`). Words are never
inflected ("registry" stays singular): a title says what the name says, in
the order a sentence would.
"""

from __future__ import annotations

import enum
import re
import unicodedata

from hintgate.hints.inference.naming import VERBS, noun_like

__all__ = ["MAX_TITLE_LENGTH", "TitleOrigin", "title_from_name", "title_problem"]

MAX_TITLE_LENGTH = 200
"""The longest title an operator may set (a title is a short label, not a description)."""


class TitleOrigin(enum.StrEnum):
    """Where a tool's title came from, highest precedence first."""

    OVERRIDE = "override"
    DECLARED = "declared"
    OPENAPI = "openapi"
    DERIVED = "derived"


_SPLIT = re.compile(r"[^A-Za-z0-9]+")
_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+[0-9]*|[A-Z]+[0-9]*|[0-9]+")


def title_from_name(name: str) -> str:
    """A sentence-case title made of the words of a tool name (the name itself when it has none)."""
    words: list[str] = []
    shouting = not any(c.islower() for c in name)  # GET_USERS: no acronyms to keep
    for part in _SPLIT.split(name):
        for word in _WORDS.findall(part):
            letters = word.rstrip("0123456789")
            keep = not shouting and len(letters) > 1 and letters.isupper()
            words.append(word if keep else word.lower())
    if not words:
        return name
    if _verb_last(words):
        words.insert(0, words.pop())
    first = words[0]
    words[0] = first[:1].upper() + first[1:]
    return " ".join(words)


def _verb_last(words: list[str]) -> bool:
    """Whether a name is in noun-verb style with a plain verb last (``acr_registry_list``)."""
    if len(words) < 3:
        return False
    last = words[-1].lower()
    if last not in VERBS or noun_like(last):
        return False
    return not any(w.lower() in VERBS for w in words[:-1])


def title_problem(title: object) -> str | None:
    """What is wrong with a title an operator wants to set, or None when it is fine.

    A title is text, not blank, at most `MAX_TITLE_LENGTH` characters, and has no
    control characters (a newline or escape would break the one-line places it shows).
    """
    if not isinstance(title, str):
        return f"a title is text, got {type(title).__name__}"
    if not title.strip():
        return "a title must not be empty"
    if len(title) > MAX_TITLE_LENGTH:
        return f"a title is at most {MAX_TITLE_LENGTH} characters, got {len(title)}"
    bad = next((c for c in title if unicodedata.category(c) == "Cc"), None)
    if bad is not None:
        return f"a title must not contain control characters, found {bad!r} at {title.index(bad)}"
    return None
