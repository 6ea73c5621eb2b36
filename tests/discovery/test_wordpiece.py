"""WordPiece: texts cut into the tokens of the search vectors' vocabulary, as the sentence model cuts them."""

from __future__ import annotations

import pytest

from hintgate.discovery.vectors import load
from hintgate.discovery.wordpiece import MAX_WORD, WordPiece

VOCABULARY = ["[PAD]", "[UNK]", "charge", "##back", "##s", "list", "file", "sao", "paulo", "'", "?", "文", "."]


def tokens(tokenizer: WordPiece, text: str) -> list[str]:
    by_id = {i: t for t, i in tokenizer.ids.items()}
    return [by_id[i] for i in tokenizer.encode(text)]


def test_a_word_is_cut_into_the_longest_pieces_of_the_vocabulary_from_its_start() -> None:
    assert tokens(WordPiece(VOCABULARY), "chargebacks") == ["charge", "##back", "##s"]


def test_a_word_that_cannot_be_cut_or_is_too_long_is_the_unknown_token() -> None:
    tokenizer = WordPiece(VOCABULARY)
    assert tokens(tokenizer, "chargeable files") == ["[UNK]", "file", "##s"]
    assert tokens(tokenizer, "s" * (MAX_WORD + 1)) == ["[UNK]"]


def test_text_is_lower_cased_stripped_of_accents_and_split_at_punctuation() -> None:
    assert WordPiece(VOCABULARY).words("São Paulo's list?") == ["sao", "paulo", "'", "s", "list", "?"]


def test_control_characters_are_dropped_spaces_of_any_kind_split_and_ideographs_stand_alone() -> None:
    tokenizer = WordPiece(VOCABULARY)
    assert tokenizer.words("li\x00st\u200b\u00a0file\u3000文件") == ["list", "file", "文", "件"]
    assert tokenizer.words("li\x01st\tfile") == ["list", "file"]  # the same, ASCII


def test_a_vocabulary_without_the_unknown_token_is_refused() -> None:
    with pytest.raises(ValueError, match=r"\[UNK\]"):
        WordPiece(["[PAD]", "list"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # What the sentence model's own tokenizer (Hugging Face `tokenizers`) gives for each text.
        ("Show any chargebacks we've received", "show any charge ##backs we ' ve received"),
        (
            "If it's 3pm in London, what hour is it in São Paulo?",
            "if it ' s 3 ##pm in london , what hour is it in sao paulo ?",
        ),
        (
            "getFileInfo: kubectl_rollout\u00a0restart — now",
            "get ##fi ##lein ##fo : ku ##be ##ct ##l _ roll ##out restart — now",
        ),
        ("读取文件 naïve café", "[UNK] [UNK] 文 [UNK] naive cafe"),
    ],
)
def test_the_shipped_vocabulary_cuts_a_text_as_the_sentence_models_tokenizer_does(text: str, expected: str) -> None:
    assert tokens(load().tokenizer, text) == expected.split()
