"""JSON from another party, read as text: no lone surrogate in what it holds.

JSON may escape half of a UTF-16 surrogate pair on its own (`"\\ud800"`); Python's `json` keeps it as a
character no UTF-8 engine reads or writes. One such string from an upstream once stopped the poisoning scan
(RE2 reads UTF-8) and the gateway's own answer to its client (the SDK writes UTF-8), for every server at once.
What the gateway reads with Python's `json` from an upstream or a client is read through `loads`: each lone
surrogate becomes U+FFFD, one character for one, as the SDK's own reader (which refuses such JSON) never has
to. Valid pairs are one character already and stay as they are. The store's text is mended the same way
(`replace_lone_surrogates`): a database refuses a lone surrogate too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["loads", "readable", "replace_lone_surrogates"]

_ESCAPED_HALF = re.compile(rb"\\u[dD][89abcdefABCDEF]")
_ESCAPED_HALF_TEXT = re.compile(r"\\u[dD][89abcdefABCDEF]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
DEPTH = 64
"""How deep `readable` goes: a value nested deeper is kept as it is (no reader here goes that deep)."""


def loads(data: bytes | str) -> Any:
    """`json.loads(data)`, with every lone surrogate in its strings and keys replaced by U+FFFD.

    Raises what `json.loads` raises. Costs one search of `data` for an escaped surrogate beyond the decoding.
    """
    value = json.loads(data)
    escaped = _ESCAPED_HALF.search(data) if isinstance(data, bytes) else _ESCAPED_HALF_TEXT.search(data)
    return readable(value) if escaped is not None else value


def replace_lone_surrogates(text: str) -> str:
    """`text` with every lone surrogate replaced by U+FFFD (one character for one): `text` itself when it has none,
    which is found without a search when it is ASCII or encodes as UTF-8."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: valid Python, not valid UTF-8
        return _LONE_SURROGATE.sub("\ufffd", text)
    return text


def readable(value: Any, level: int = 0) -> Any:
    """`value` with every lone surrogate in its strings and keys replaced by U+FFFD (one character for one, so an
    offset into a string holds in both); content nested deeper than `DEPTH` is kept as it is."""
    if isinstance(value, str):
        return replace_lone_surrogates(value)
    if level >= DEPTH:
        return value
    if isinstance(value, Mapping):
        return {readable(key, level + 1): readable(item, level + 1) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [readable(item, level + 1) for item in value]
    return value
