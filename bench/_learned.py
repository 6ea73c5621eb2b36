"""The learned scan model measured by `scan_learned.py`: a small linear model over windows of words.

Not shipped (`scan_learned.py` says why), but written as it would run in the
gateway: pure Python, without numpy. The rules (`scan.poisoning`) judge what a
sentence asks of whom; this model scores how much a passage reads like the
poisoned texts of the project's blind sets and unlike their honest ones, real
packages' pages and real tools' definitions. `scan_learned.py` trains it
(deterministic, from the sets alone) and writes its weights where `--out` says
(about 180 KB for 40,000 features).

The model: each token (a word, a CJK character, or one of a few marks such as
`<`, `:`, `~`) and each pair of adjacent tokens has an integer weight; a
window is `window` consecutive tokens of one text, its score the bias plus the
weights of its tokens and pairs; a text's score is that of its best window
(an order is usually one passage of a long honest text). A text at or above
the threshold of its kind (a tool's definition, a tool's result) is flagged.
Only a bounded part of each text is read (`TEXT_CHARACTERS` from its start and
as many from its end), and of one result at most `RESULT_CHARACTERS`: the cost
is linear in what is read and bounded whatever the text.

A missing or damaged weights file is an error naming the file (`LearnedModelError`).
"""

from __future__ import annotations

import itertools
import json
import operator
import re
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

FORMAT: Final = "hintgate-learned/1"
DEFINITION: Final = "definition"
"""The kind of text of a tool's definition (its own threshold)."""
RESULT: Final = "result"
"""The kind of text of a tool's result."""
TEXT_CHARACTERS: Final = 4096
"""How much of one text is read from its start, and as much from its end (a longer text's middle is not read)."""
RESULT_CHARACTERS: Final = 32 * 1024
"""How many characters of one result (all its texts) are read at most."""

_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+|[<>\[\]{{}}!:@#$/~|*]")
# The same tokens in ASCII text, found faster (lowercasing ASCII first changes no token's bounds).
_ASCII_TOKEN = re.compile(r"[A-Za-z0-9_]+|[<>\[\]{}!:@#$/~|*]")
# Weights are stored offset by this much so that every one is a small cached int (0..255): the table holds only
# its keys' memory, not one int object per feature.
_OFFSET = 128
_START = "^"


def tokens(text: str) -> list[str]:
    """The tokens of `text` the model reads, lowercased: words, CJK characters, a few marks."""
    if text.isascii():
        return _ASCII_TOKEN.findall(text.lower())
    return list(map(str.lower, _TOKEN.findall(text)))


def features(toks: Sequence[str]) -> Iterator[tuple[str, str]]:
    """Per token: the token itself and the pair it ends (`"^ word"` for the first)."""
    return zip(toks, map(" ".join, zip(itertools.chain((_START,), toks), toks, strict=False)), strict=True)


def parts(text: str) -> list[tuple[int, str]]:
    """The (offset, text) parts of `text` the model reads: all of it, or its start and its end."""
    if len(text) <= 2 * TEXT_CHARACTERS:
        return [(0, text)]
    return [(0, text[:TEXT_CHARACTERS]), (len(text) - TEXT_CHARACTERS, text[-TEXT_CHARACTERS:])]


@dataclass(frozen=True, slots=True)
class LearnedModelError(Exception):
    """The model's weights file is missing or damaged (the message names it)."""


@dataclass(frozen=True, slots=True)
class Passage:
    """A text's best window: its score and where it is (character offsets in the text)."""

    score: int
    start: int
    end: int


class LearnedModel:
    """Integer weights per token and pair, a bias, a window length and a threshold per kind of text."""

    def __init__(self, weights: dict[str, int], *, bias: int, window: int, thresholds: dict[str, int]) -> None:
        self._weights = {key: value + _OFFSET for key, value in weights.items()}
        self.bias = bias
        self.window = window
        self.thresholds = thresholds

    def __len__(self) -> int:
        return len(self._weights)

    def score(self, text: str) -> int:
        """The score of `text`'s best window (the bias alone for a text without tokens); `text` is read whole."""
        return self.best(tokens(text))[0]

    def passage(self, text: str, offset: int = 0) -> Passage | None:
        """The best window of `text` (read whole; offsets shifted by `offset`), None when it has no token."""
        matches = list(_TOKEN.finditer(text))
        if not matches:
            return None
        score, first = self.best([m.group().lower() for m in matches])
        last = min(first + self.window, len(matches)) - 1
        return Passage(score, offset + matches[first].start(), offset + matches[last].end())

    def best(self, toks: Sequence[str]) -> tuple[int, int]:
        """(score, first token) of the best window of `toks`."""
        n = len(toks)
        if not n:
            return self.bias, 0
        get = self._weights.get
        pairs = map(" ".join, zip(itertools.chain((_START,), toks), toks, strict=False))
        if n <= self.window:  # one window: no running sums (most texts of a definition)
            own = sum(map(get, toks, itertools.repeat(_OFFSET))) + sum(map(get, pairs, itertools.repeat(_OFFSET)))
            return self.bias + own - 2 * _OFFSET * n, 0
        own_and_pair = map(
            operator.add, map(get, toks, itertools.repeat(_OFFSET)), map(get, pairs, itertools.repeat(_OFFSET))
        )
        sums = list(itertools.accumulate(own_and_pair, initial=0))
        spans = list(map(operator.sub, sums[self.window :], sums))
        top = max(spans)
        return self.bias + top - 2 * _OFFSET * self.window, spans.index(top)


def load(path: Path) -> LearnedModel:
    """The model in `path`; `LearnedModelError` naming the file when it is missing or damaged."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise LearnedModelError(f"{path}: the learned scan model's weights cannot be read: {exc.strerror}") from exc
    try:
        head, _, body = zlib.decompress(raw).decode("utf-8").partition("\n")
        meta = json.loads(head)
        if meta.get("format") != FORMAT:
            raise ValueError(f"format {meta.get('format')!r}, expected {FORMAT!r}")
        weights: dict[str, int] = {}
        for number, line in enumerate(body.splitlines(), start=2):
            key, tab, value = line.rpartition("\t")
            if not tab or not key:
                raise ValueError(f"line {number} is not 'feature<TAB>weight'")
            weight = int(value)
            if not -_OFFSET <= weight < _OFFSET:
                raise ValueError(f"line {number}: weight {weight} is outside -128..127")
            weights[key] = weight
        if len(weights) != meta["features"]:
            raise ValueError(f"{len(weights)} features, the header says {meta['features']}")
        thresholds = {kind: int(meta["thresholds"][kind]) for kind in (DEFINITION, RESULT)}
        return LearnedModel(weights, bias=int(meta["bias"]), window=int(meta["window"]), thresholds=thresholds)
    except (zlib.error, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise LearnedModelError(f"{path}: the learned scan model's weights are damaged: {exc}") from exc


def pieces(texts: Iterable[str], characters: int | None = None) -> Iterator[tuple[int, int, str]]:
    """(index of the text, offset, part) of what the model reads of `texts`: each text's `parts`, and with
    `characters` no more than that many characters in all."""
    left = characters
    for index, text in enumerate(texts):
        for offset, part in parts(text):
            if left is not None:
                if left <= 0:
                    return
                part = part[:left]  # noqa: PLW2901 - the part as read
                left -= len(part)
            yield index, offset, part


def stream(texts: Iterable[str], characters: int | None = None) -> str:
    """What the model reads of `texts` as one text (one token stream per tool or result): the `pieces`, in
    order, a line apart."""
    return "\n".join(part for _, _, part in pieces(texts, characters))


def read(
    learned: LearnedModel, texts: Iterable[str], kind: str, *, characters: int | None = None
) -> list[tuple[int, Passage]]:
    """(index, best passage) of each of `texts` the model flags as `kind`, reading what `pieces` gives."""
    threshold = learned.thresholds[kind]
    best: dict[int, Passage] = {}
    for index, offset, part in pieces(texts, characters):
        # Scored from its tokens alone; where the passage is, only for a part that is flagged (offsets cost more).
        if learned.best(tokens(part))[0] < threshold:
            continue
        found = learned.passage(part, offset)
        if found is not None and (index not in best or found.score > best[index].score):
            best[index] = found
    return sorted(best.items())
