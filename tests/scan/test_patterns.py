"""Patterns read as text: a pattern rewritten for ASCII text read as Latin-1 matches where the original does."""

from __future__ import annotations

import random

import pytest
import re2

from hintgate.scan.patterns import for_ascii, outside, pieces


def _utf8(pattern: str) -> re2._Regexp:
    options = re2.Options()
    options.case_sensitive = False
    options.log_errors = False
    return re2.compile(pattern, options)


def _latin1(pattern: str) -> re2._Regexp:
    options = re2.Options()
    options.case_sensitive = False
    options.log_errors = False
    options.encoding = re2.Options.Encoding.LATIN1
    return re2.compile(pattern.encode("latin-1"), options)


PATTERNS = [
    r"(?:^|[^\pL\pM\pN_])(?:ignore|игнорируй|忽略)\s+(?:all|все)\b",
    r"[a-zа-я]{3,}\s[^а-яa]+",
    r"[^а-я]x",
    r"(?:пароль|pass(?:word)?)[\s:=]+\S+",
    r"é|ü[\p{Cyrillic}\pL]+",
    r"[\-\]а-яz]+q",
    "\\bsecret\\w*[\u2019']s\\b",
]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_a_pattern_for_ascii_finds_in_ascii_text_exactly_what_the_pattern_finds(pattern: str) -> None:
    rewritten = for_ascii(pattern)
    assert rewritten is not None
    original, latin1 = _utf8(pattern), _latin1(rewritten)
    rng = random.Random(pattern)
    alphabet = "ignore all IGNORE pass word: = secret's xqz-]]a\n\t_0123"
    texts = ["ignore all", "Ignore ALL rules", "password: hunter2", "secret's", "abc -]z q", "x", "zx", "ax"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(400)]
    for text in texts:
        assert [m.span() for m in latin1.finditer(text)] == [m.span() for m in original.finditer(text)], text


def test_a_character_beyond_latin1_matches_nothing_in_ascii_text() -> None:
    rewritten = for_ascii("(?:привет|hello) world")
    assert rewritten is not None
    assert _latin1(rewritten).search("hello world") is not None
    assert _latin1(rewritten).search("x world") is None


def test_a_negated_class_left_with_no_member_matches_any_ascii_character() -> None:
    rewritten = for_ascii("a[^а-я]b")
    assert rewritten is not None
    assert _latin1(rewritten).search("a-b") is not None
    assert _latin1(rewritten).search("a\nb") is not None


@pytest.mark.parametrize(("pattern", "text"), [("\u017fecret", "secret"), ("[\u212a]ey", "Key"), ("(?:\u017f)", "S")])
def test_a_pattern_spelling_a_character_that_folds_to_ascii_has_no_form_for_ascii(pattern: str, text: str) -> None:
    # RE2 matches `ſ` with `s` and the Kelvin sign with `k` when case is ignored: dropping them would miss those.
    assert _utf8(pattern).search(text) is not None
    assert for_ascii(pattern) is None


def test_unicode_letters_marks_and_digits_are_spelled_as_the_ascii_ones() -> None:
    # Read as Latin-1, RE2 compiles `\pL` about ten times as slowly as read as UTF-8 (3 s for the sentence
    # judge's cues at a gateway's first listing); the ASCII ranges compile twenty times faster.
    assert for_ascii(r"[^\pL\pM\pN_]x\pL\pN\pM") == r"[^A-Za-z0-9_]x[A-Za-z][0-9][^\x00-\xff]"
    assert for_ascii(r"[\pM]") == r"[^\x00-\xff]"


def test_typographic_punctuation_is_spelled_as_its_byte_in_windows_1252() -> None:
    # Dashes, curly quotes, the bullet (and the arrow and check boxes, in bytes Windows-1252 leaves undefined):
    # text holding them is read by the Latin-1 automaton through bytes standing for them (`scan.cues.stand_in`).
    assert for_ascii("don[\u2019']t \u2014 \u2192") == r"don[\x92']t \x97 \x81"
    assert _latin1(for_ascii("a[\u2013\u2014]b") or "").search(b"a\x97b") is not None
    # The end of a range is read as before (the range beyond Latin-1 is dropped).
    assert for_ascii("[\u2010-\u2015]x") == r"[^\x00-\xff]x"


def test_a_pattern_is_read_as_classes_escapes_whole_unicode_classes_and_single_characters() -> None:
    pattern = r"a[\]b(]\\\pL\p{Greek}\b(?=x)\\"
    assert [piece for _, piece in pieces(pattern)] == [
        "a",
        r"[\]b(]",
        "\\\\",
        r"\pL",
        r"\p{Greek}",
        r"\b",
        "(",
        "?",
        "=",
        "x",
        ")",
        "\\\\",
    ]
    assert "".join(piece for _, piece in pieces(pattern)) == pattern


def test_only_what_is_neither_escaped_nor_in_a_class_is_outside() -> None:
    assert [char for _, char in outside(r"a[(]\(\p{L}(b)")] == ["a", "(", "b", ")"]
