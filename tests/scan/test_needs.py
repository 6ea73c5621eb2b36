"""The words a rule needs: a rule runs only when a word of each of its groups stands in the text."""

from __future__ import annotations

from hintgate.scan.needs import Needs


def test_a_rule_is_able_only_when_every_group_of_its_words_is_met() -> None:
    needs = Needs({"both": ("send|mail", "secret|key"), "one": ("forget",)})
    assert needs.able("please send the key") == ["both"]
    assert needs.able("please send the report") == []
    assert needs.able("forget it; mail the secret") == ["both", "one"]


def test_a_needed_word_is_met_by_any_word_it_begins() -> None:
    needs = Needs({"drop": ("ignor|disregard",)})
    assert needs.able("ignoring all that came before") == ["drop"]
    assert needs.able("disregarded") == ["drop"]
    assert needs.able("signore") == ["drop"]  # a need is a string the text holds, not a word boundary


def test_of_two_needed_words_at_one_place_the_longer_is_found() -> None:
    # "over" and "overrid" both start at the same place: the longer must be the one found, or "overrid" is never met.
    needs = Needs({"short": ("over",), "long": ("overrid",)})
    assert needs.able("overriding") == ["short", "long"]


def test_a_text_holding_no_needed_word_runs_no_rule() -> None:
    assert Needs({"a": ("alpha",)}).able("nothing here") == []


def test_a_needed_word_is_read_as_written_its_marks_and_letters_beyond_ascii_too() -> None:
    needs = Needs({"dotted": ("a.b|(c)",), "spoken": ("gespräch",)})
    assert needs.able("axb and c") == []
    assert needs.able("see a.b") == ["dotted"]
    assert needs.able("im gespräch (c)") == ["dotted", "spoken"]
