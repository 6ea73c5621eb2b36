"""The tool results hintgate builds itself."""

from __future__ import annotations

import pytest

from hintgate.results import (
    ERROR_TEXT_LIMIT,
    WrittenResult,
    error_text,
    result_problem,
    server_down_error,
    tool_error,
)


def test_a_tool_error_is_one_text_block_marked_as_an_error() -> None:
    assert tool_error("no") == {"content": [{"type": "text", "text": "no"}], "isError": True}


def test_an_unavailable_tool_names_the_tool_the_server_and_its_state_once() -> None:
    result = server_down_error("time_now", "time", "is down: exited with 1.")
    assert error_text(result) == "The tool 'time_now' is unavailable: server 'time' is down: exited with 1."


def test_the_error_text_of_a_result_joins_its_texts_and_is_bounded() -> None:
    result = {"content": [{"type": "text", "text": "a" * ERROR_TEXT_LIMIT}, {"type": "image"}, {"type": "text"}]}
    assert error_text(result) == "a" * ERROR_TEXT_LIMIT
    assert error_text({"content": [{"type": "image"}]}) == "the tool reported an error"


@pytest.mark.parametrize(
    ("result", "problem"),
    [
        ([1], "$: expected an object, got list"),
        ({"structuredContent": {}}, "$: no content list"),
        ({"content": "pong"}, "$.content: expected a list, got str"),
        ({"content": [], "isError": "no"}, "$.isError: expected true or false, got str"),
        ({"content": ["pong"]}, "$.content[0]: expected a content block (an object), got str"),
        ({"content": [{"text": "pong"}]}, "$.content[0].type: expected a string, got nothing"),
        ({"content": [{"type": "text", "text": 5}]}, "$.content[0].text: expected a string, got int"),
        ({"content": [{"type": "image", "data": "AA=="}]}, "$.content[0].mimeType: expected a string, got nothing"),
        ({"content": [{"type": "resource", "resource": "x"}]}, "$.content[0].resource: expected an object, got str"),
    ],
)
def test_an_answer_that_is_no_call_tool_result_is_told_with_the_json_path_of_its_fault(
    result: object, problem: str
) -> None:
    assert result_problem(result) == problem


def test_results_of_the_spec_and_answers_of_another_result_type_have_no_fault() -> None:
    assert result_problem(tool_error("no")) is None
    assert result_problem({"content": [{"type": "resource_link", "uri": "file:///a", "name": "a"}]}) is None
    assert result_problem({"resultType": "input_required", "inputRequests": {}}) is None


def test_a_written_result_is_the_result_with_its_json_and_a_copy_is_a_plain_dict() -> None:
    result = {"content": [{"type": "text", "text": "ok"}]}
    written = WrittenResult(result, '{"content":[{"type":"text","text":"ok"}]}')
    assert written == result
    assert written.json == '{"content":[{"type":"text","text":"ok"}]}'
    assert type(dict(written)) is dict  # a changed copy carries no JSON
    assert type({**written, "isError": True}) is dict
