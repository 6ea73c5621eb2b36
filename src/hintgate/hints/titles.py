"""A title for every tool, with where it came from.

People see titles (the dashboard, approval questions, `hintgate tools`); a raw
name such as ``update_note`` reads badly in "Allow update_note?". Every tool
gets a title, first match wins:

| provenance | source |
|---|---|
| ``override`` | the operator's ``title`` in the config file |
| ``declared`` | ``Tool.title``, else ``annotations.title``, as the source listed them |
| ``openapi`` | the OpenAPI operation's ``summary`` (its ``operationId`` words when there is none) |
| ``derived`` | the tool's name in sentence case |

A derived title keeps the name's words in their order and only changes their
case: ``update_note`` → "Update note", ``acr_registry_list`` → "Acr registry
list", ``getURLInfo`` → "Get URL info". Reordering words into a sentence
("List ACR registries") would invent grammar the name does not state and
could misread which word is the action; upper-case acronyms of two letters
or more are kept as written (unless the whole name is upper case).
"""

from __future__ import annotations

import enum
import re

__all__ = ["TitleOrigin", "title_from_name"]


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
    first = words[0]
    words[0] = first[:1].upper() + first[1:]
    return " ".join(words)
