"""The tool results hintgate builds itself."""

from __future__ import annotations

from hintgate.results import ERROR_TEXT_LIMIT, error_text, server_down_error, tool_error


def test_a_tool_error_is_one_text_block_marked_as_an_error() -> None:
    assert tool_error("no") == {"content": [{"type": "text", "text": "no"}], "isError": True}


def test_an_unavailable_tool_names_the_tool_the_server_and_its_state_once() -> None:
    result = server_down_error("time_now", "time", "is down: exited with 1.")
    assert error_text(result) == "The tool 'time_now' is unavailable: server 'time' is down: exited with 1."


def test_the_error_text_of_a_result_joins_its_texts_and_is_bounded() -> None:
    result = {"content": [{"type": "text", "text": "a" * ERROR_TEXT_LIMIT}, {"type": "image"}, {"type": "text"}]}
    assert error_text(result) == "a" * ERROR_TEXT_LIMIT
    assert error_text({"content": [{"type": "image"}]}) == "the tool reported an error"
