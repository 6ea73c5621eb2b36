"""The words a text is searched by: split at case changes and separators, lower-cased, stemmed.

Tool names are written `list_directory`, `getFileInfo`, `browser-take-screenshot`
or `S3ListBuckets`; a person asks for "the files in a folder". Both sides go
through the same steps, so a query meets a name word for word: a boundary
between a lower-case letter or digit and an upper-case one (`getFile` → get,
file), and inside a run of capitals before a capitalised word (`HTTPServer` →
http, server); then split at every character that is not a letter or a digit,
lower-cased; English stop words dropped (bm25s's list); each word reduced to
its Snowball stem (PyStemmer), so "listing", "lists" and "listed" meet "list".
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable

__all__ = ["MAX_TEXT", "split_words", "terms"]

MAX_TEXT = 8192
"""Characters of one field read for search: an upstream's 1 MB description costs the index no more than this."""

_LOWER_UPPER = re.compile(r"([a-z0-9])([A-Z])")  # getFile → get File, s3Bucket → s3 Bucket
_CAPS_WORD = re.compile(r"([A-Z]+)([A-Z][a-z])")  # HTTPServer → HTTP Server
_SEPARATORS = re.compile(r"[\W_]+")


def split_words(text: str) -> list[str]:
    """The words of `text`, lower-cased: split at separators and case changes (`getFileInfo` → get, file, info).

    Digits stay with the letters before them (`s3`, `ec2`, `base64`): there they name a thing, not a second word.
    """
    spaced = _CAPS_WORD.sub(r"\1 \2", _LOWER_UPPER.sub(r"\1 \2", text[:MAX_TEXT]))
    return [word.lower() for word in _SEPARATORS.split(spaced) if word]


@functools.cache
def _stemmer() -> Callable[[list[str]], list[str]]:
    import Stemmer  # PyStemmer: loaded with the first index

    return Stemmer.Stemmer("english").stemWords  # type: ignore[no-any-return]


@functools.cache
def _stop_words(full: bool) -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN, STOPWORDS_EN_PLUS

    return frozenset(STOPWORDS_EN_PLUS if full else STOPWORDS_EN)


def terms(texts: Iterable[str], *, stem: bool = True, full_stop: bool = False) -> list[str]:
    """The search terms of `texts`: their words without English stop words, each stemmed unless `stem` is False.

    `full_stop` drops the longer English list (NLTK's 179 words: pronouns, auxiliaries, "what", "which"...)
    instead of the short one (33 articles, prepositions and conjunctions).
    """
    stop = _stop_words(full_stop)
    found = [word for text in texts for word in split_words(text) if word not in stop]
    return _stemmer()(found) if stem and found else found
