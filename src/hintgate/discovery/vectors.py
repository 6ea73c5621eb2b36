"""Static word vectors: what a text means, as one vector, from a table shipped with the package.

A query such as "make a note that the meeting moved" shares no word with
`add_observations`; BM25 (`hintgate.discovery.index`) cannot see that they
mean the same. A sentence model can, but running one per query needs a deep
learning runtime and milliseconds of CPU. The table in
`data/search_vectors.npz` holds one vector per token of the vocabulary of the
sentence model all-MiniLM-L6-v2 (Apache-2.0), distilled from it once
(`scripts/distill_search_vectors.py`): each token's vector is where that
model puts the token on average in real sentences, trained further so that
the mean of a text's token vectors points where the model puts the whole
text. A text's vector here is that mean, made unit length: a table look-up
and a sum in numpy, exact (`StaticVectors`), the same on every run and every
machine, nothing fetched.

The table (int8, each row at its own power of two) is read at the first search, in the
thread that builds the index, and kept for the life of the process.
`data/search_vectors.md` says what model, texts and steps made it.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hintgate.discovery.wordpiece import WordPiece

if TYPE_CHECKING:
    import numpy as np

__all__ = ["MAX_SHIFT", "MAX_TOKENS", "TABLE", "UNIT", "StaticVectors", "is_loaded", "load", "read"]

TABLE = "search_vectors.npz"
"""The table's file name under `hintgate/discovery/data/`."""
MAX_TOKENS = 2048
"""Tokens of one text summed: a tool's 8 KiB fields cost no more than this (and every sum stays below 2**53)."""
MAX_SHIFT = 15
"""The largest power of two a row is stored at: 127 * 2**15 * 2048 tokens is below 2**53."""
UNIT = 2.0**15
"""A text's vector has this length, in whole steps."""

_lock = threading.Lock()
_loaded: list[StaticVectors] = []  # the table, once read


@dataclass(frozen=True, slots=True)
class StaticVectors:
    """A static vector table and the tokenizer of its vocabulary.

    Every vector is computed exactly, in integers held by float64 (all below 2**53, so every sum is exact in any
    order, BLAS's included): a text's vector and its similarity to another are the same bits on every machine, and
    two tools with the same text tie exactly (the ranking then keeps catalog order).

    Attributes:
        tokenizer: cuts a text into the table's tokens.
        vectors: one row per token (int8); the row's values are `vectors[i] * 2**shifts[i]`, up to one scale for
            the whole table (a cosine does not see it).
        shifts: each row's power of two (0 to `MAX_SHIFT`).
        about: what made the table (model, licence, texts, dimensions), as stored beside it.
    """

    tokenizer: WordPiece
    vectors: Any
    shifts: Any
    about: str

    @property
    def dimensions(self) -> int:
        """The length of each vector."""
        return int(self.vectors.shape[1])

    def tokens(self, text: str) -> list[int]:
        """The rows `text` is the mean of: its known tokens, the first `MAX_TOKENS`."""
        unknown = self.tokenizer.unknown
        return [i for i in self.tokenizer.encode(text) if i != unknown][:MAX_TOKENS]

    def embed(self, text: str) -> np.ndarray:
        """The vector of `text`: the sum of its tokens' rows at unit length, in steps of 2**-15 (float64 holding
        integers over 2**15); zeros for a text with no known token. The dot product of two is their cosine
        times 2**30, exactly."""
        import numpy as np

        ids = self.tokens(text)
        if not ids:
            return np.zeros(self.dimensions, dtype=np.float64)
        # Each distinct token's row once, weighted by its count: a long text costs its vocabulary, not its length.
        distinct, counts = np.unique(np.asarray(ids, dtype=np.intp), return_counts=True)
        weights = counts * np.exp2(self.shifts[distinct].astype(np.float64))
        total = weights @ self.vectors[distinct].astype(np.float64)  # integers below 2**53: exact
        norm = math.sqrt(math.fsum((total * total).tolist()))  # each square rounded alike, summed exactly
        if norm == 0:
            return np.zeros(self.dimensions, dtype=np.float64)
        steps: np.ndarray = np.rint(total * (UNIT / norm))
        return steps

    def embed_all(self, texts: Iterable[str]) -> np.ndarray:
        """The vectors of `texts` (as `embed` makes them), one row each."""
        import numpy as np

        rows = [self.embed(text) for text in texts]
        return np.stack(rows) if rows else np.zeros((0, self.dimensions), dtype=np.float64)

    def cosines(self, rows: np.ndarray, text: str) -> np.ndarray:
        """The cosine of `text` with each of `rows` (vectors `embed` made), exactly the same on every machine."""
        import numpy as np

        # numpy's own loop, not BLAS: one thread, no worker to wake on a loaded machine (the sums are exact anyway).
        dots: np.ndarray = np.einsum("ij,j->i", rows, self.embed(text))
        return dots / (UNIT * UNIT)


def read(path: Path | None = None) -> StaticVectors:
    """A table from its file (`search_vectors.npz` beside this module by default), read now.

    Raises:
        OSError: the file cannot be read.
        ValueError: it is not such a table (the sizes of its parts disagree).
    """
    import numpy as np

    with np.load(path or Path(__file__).parent / "data" / TABLE, allow_pickle=False) as stored:
        vocabulary = bytes(stored["vocabulary"]).decode("utf-8").split("\n")
        vectors = np.ascontiguousarray(stored["vectors"], dtype=np.int8)
        shifts = np.asarray(stored["shifts"], dtype=np.uint8)
        about = bytes(stored["about"]).decode("utf-8")
    if vectors.ndim != 2 or vectors.shape[0] != len(vocabulary) or shifts.shape != (len(vocabulary),):
        raise ValueError(
            f"{TABLE}: {vectors.shape[0]} vectors and {shifts.shape[0]} shifts for {len(vocabulary)} tokens"
        )
    if shifts.size and int(shifts.max()) > MAX_SHIFT:
        raise ValueError(f"{TABLE}: a row's shift is {int(shifts.max())}, at most {MAX_SHIFT}")
    return StaticVectors(WordPiece(vocabulary), vectors, shifts, about)


def load() -> StaticVectors:
    """The table, read at the first call (about 20 ms: call it off the event loop) and kept."""
    if not _loaded:
        with _lock:
            if not _loaded:
                _loaded.append(read())
    return _loaded[0]


def is_loaded() -> bool:
    """Whether the table was read already (then `load()` costs nothing)."""
    return bool(_loaded)
