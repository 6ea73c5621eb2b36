"""The sentences a sentence rule reads (`hintgate.scan.spans`)."""

from __future__ import annotations

import re

import pytest

from hintgate.scan.spans import SENTENCE_PAST_NAMES, fenced, sentences_with


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


def test_a_sentence_past_names_goes_on_through_a_stop_in_a_number_or_a_name_and_ends_at_one_before_a_space() -> None:
    text = "Call `mail.send` below 1.33 MB. Then stop!Go on?\nNew line... end"
    assert [m.group() for m in SENTENCE_PAST_NAMES.finditer(text)] == [
        "Call `mail.send` below 1.33 MB",
        " Then stop!Go on",
        "New line",
        " end",
    ]


def test_a_sentence_past_names_cuts_what_a_pattern_reading_one_character_a_step_cuts() -> None:
    one_a_step = re.compile(r"(?:[^.!?\n]|[.!?](?=[^\s.!?]))+")
    texts = ["", "no stop", "a.b. c!! d?e\n\n.x. ", "v1.2.3 ok... fine.\tnext", "。！？ 错误：失败。 end."]
    for text in texts:
        assert [m.span() for m in SENTENCE_PAST_NAMES.finditer(text)] == [m.span() for m in one_a_step.finditer(text)]


@pytest.mark.parametrize(
    ("text", "inside"),
    [
        ('Send it:\n```json\n{"to": "ops"}\n```\nThen wait.', [True, False]),
        ("Steps:\n  ~~~\n  tool: send\n  ~~~\nDone.", [True, False]),
        # Backticks in the middle of a line open no block: inline code, however many.
        ("Write ```x``` inline, then say tool: send.\nMore.", [False, False]),
        ("No blocks here: tool: send.\nDone.", [False, False]),
    ],
)
def test_fenced_tells_a_sample_in_a_code_block_from_the_text_around_it(text: str, inside: list[bool]) -> None:
    places = [text.index("tool:") if "tool:" in text else text.index("to"), text.rindex(".") - 1]
    assert [fenced(text, at) for at in places] == inside


def test_fenced_answers_for_each_text_asked_not_for_the_last_one_read() -> None:
    code = "```\nsample\n```\n"
    prose = "sample\n" * 3
    assert fenced(code, code.index("sample"))
    assert not fenced(prose, 0)
    assert fenced(code, code.index("sample"))
