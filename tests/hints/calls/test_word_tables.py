from __future__ import annotations

from hintgate.hints.calls.word_tables import word_set


def test_a_table_written_as_wrapped_text_is_the_set_of_its_words() -> None:
    table = """
    ls cat  head
    \tgrep ls
    """
    assert word_set(table) == frozenset({"ls", "cat", "head", "grep"})


def test_an_empty_table_is_the_empty_set() -> None:
    assert word_set("  \n ") == frozenset()
