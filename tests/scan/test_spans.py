"""The sentences a sentence rule reads (`hintgate.scan.spans`)."""

from __future__ import annotations

import re

from hintgate.scan.spans import sentences_with


def test_sentences_with_gives_each_sentence_the_cue_finds_something_in_with_its_words() -> None:
    text = "Read the file. Never tell the user! Then stop"
    found = [(sentence.start(), said) for sentence, said in sentences_with(re.compile(r"\btell\b"), text)]
    assert found == [(14, " Never tell the user")]


def test_sentences_with_gives_nothing_when_the_cue_finds_nothing_in_the_whole_text() -> None:
    asked: list[str] = []

    class Counting:
        def search(self, text: str, /) -> object:
            asked.append(text)
            return None

    assert list(sentences_with(Counting(), "One. Two. Three.")) == []
    assert asked == ["One. Two. Three."]
