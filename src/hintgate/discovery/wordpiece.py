"""WordPiece: a text as the sub-word tokens of a BERT vocabulary (lower-cased, accents stripped).

The search's static word vectors (`hintgate.discovery.vectors`) are one row per
token of the vocabulary of the sentence model they were distilled from
(all-MiniLM-L6-v2, an uncased BERT vocabulary of 30,522 tokens), so a text is
cut the way that model's tokenizer cuts it:

1. characters that are not text (NUL, U+FFFD, control and format characters)
   are dropped, every kind of space becomes a space, and each CJK ideograph
   stands as a word of its own;
2. lower-cased, decomposed (NFD) and stripped of combining marks (`São` → `sao`);
3. split at spaces and around every punctuation character (ASCII symbols
   count as punctuation, as in BERT);
4. each word cut greedily into the longest tokens of the vocabulary from its
   start, the pieces after the first written `##piece` (`chargebacks` →
   `charge`, `##back`, `##s`); a word that cannot be cut, or is over 100
   characters, is the unknown token.

The same text gives the same tokens as the model's own tokenizer (checked on
the corpus's tools and task-phrased queries when the vectors were made);
pure Python, no dependency.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence

__all__ = ["MAX_WORD", "WordPiece"]

MAX_WORD = 100
"""Characters of the longest word cut into pieces; a longer one is the unknown token (as in BERT)."""

# The CJK Unified Ideographs blocks BERT puts spaces around (not Hangul, Hiragana or Katakana).
_CJK = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B820, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)


# ASCII text, the common case, the same steps in C: control characters dropped (tab and line ends are spaces),
# then runs of letters and digits, and each other visible character on its own (all are punctuation in BERT).
_ASCII_CONTROL = dict.fromkeys([*range(0, 9), 11, 12, *range(14, 32), 127])
_ASCII_WORDS = re.compile(r"[a-z0-9]+|[!-/:-@\[-`{-~]")


def _is_cjk(code: int) -> bool:
    return any(low <= code <= high for low, high in _CJK)


# Each character's part in a text, decided once per character (at most 4,096 kept): texts that are not ASCII are
# read a character at a time.
@functools.lru_cache(maxsize=4096)
def _cleaned(char: str) -> str:
    """What `char` becomes: dropped (not text), a space (any space), spaced apart (a CJK ideograph), or itself."""
    code = ord(char)
    if code in (0, 0xFFFD):
        return ""
    category = unicodedata.category(char)
    if char in "\t\n\r" or category == "Zs":
        return " "
    if category in ("Cc", "Cf"):
        return ""
    if _is_cjk(code):
        return f" {char} "
    return char


@functools.lru_cache(maxsize=4096)
def _unmarked(char: str) -> str:
    """`char` of a decomposed (NFD) text without its combining marks."""
    return "" if unicodedata.category(char) == "Mn" else char


@functools.lru_cache(maxsize=4096)
def _spaced(char: str) -> str:
    """`char` spaced apart when it is punctuation: every ASCII symbol, and Unicode's punctuation."""
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return f" {char} "
    return f" {char} " if unicodedata.category(char).startswith("P") else char


class WordPiece:
    """The tokenizer of one vocabulary (its tokens in id order; `##` marks a piece inside a word).

    Args:
        vocabulary: the tokens, the id of each its position; it must hold `[UNK]`.

    Raises:
        ValueError: the vocabulary has no `[UNK]` token.
    """

    def __init__(self, vocabulary: Sequence[str]) -> None:
        self.ids: dict[str, int] = {}
        for position, token in enumerate(vocabulary):
            self.ids.setdefault(token, position)
        if "[UNK]" not in self.ids:
            raise ValueError("a WordPiece vocabulary needs the token [UNK]")
        self.unknown = self.ids["[UNK]"]
        # Words recur (in descriptions, in queries): each is cut once per process, at most 65,536 kept.
        self._cut = functools.lru_cache(maxsize=65536)(self._cut_word)

    def words(self, text: str) -> list[str]:
        """The words of `text` before cutting: cleaned, lower-cased, accents stripped, split at punctuation."""
        if not text.isascii():
            text = "".join(map(_cleaned, text)).lower()
            if not text.isascii():
                text = "".join(map(_unmarked, unicodedata.normalize("NFD", text)))
                if not text.isascii():
                    return "".join(map(_spaced, text)).split()
        return _ASCII_WORDS.findall(text.translate(_ASCII_CONTROL).lower())

    def _cut_word(self, word: str) -> tuple[int, ...]:
        if len(word) > MAX_WORD:
            return (self.unknown,)
        pieces: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = self.ids.get(piece)
                if found is not None:
                    break
                end -= 1
            if found is None:
                return (self.unknown,)
            pieces.append(found)
            start = end
        return tuple(pieces)

    def encode(self, text: str) -> list[int]:
        """The token ids of `text`, in order (the unknown token's id for a word that cannot be cut)."""
        return [token for word in self.words(text) for token in self._cut(word)]
