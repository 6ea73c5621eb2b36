"""`hintgate call`: a tool of a running gateway called from a terminal over MCP, its result printed."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest

from hintgate.cli.call import hint_words, parse_arguments, print_result
from hintgate.testing import running_gateway
from isolation import child_env


def hintgate(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run the CLI in a child process, as a person in another terminal would."""
    return subprocess.run(
        [sys.executable, "-m", "hintgate", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **child_env(), "COLUMNS": "100", **(env or {})},
        check=False,
    )


def test_key_value_arguments_read_as_json_when_they_can_and_lay_over_the_json_object() -> None:
    given = parse_arguments(["note_id=3", "title=Plan for May", 'tags=["a"]', 'quoted="3"'], '{"body": "x"}')
    assert given == {"body": "x", "note_id": 3, "title": "Plan for May", "tags": ["a"], "quoted": "3"}
    with pytest.raises(ValueError, match="'oops': write an argument as KEY=VALUE"):
        parse_arguments(["oops"], None)
    with pytest.raises(ValueError, match="--json: expected a JSON object"):
        parse_arguments([], "[1]")


def test_a_text_result_is_printed_as_the_tool_wrote_it_however_narrow_the_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    text = json.dumps({"body": "word " * 30, "note": "[bold]kept[/bold] :smile:"})
    print_result({"content": [{"type": "text", "text": text}]})
    assert capsys.readouterr().out == text + "\n"


@pytest.mark.parametrize(
    ("annotations", "shown"),
    [
        ({"readOnlyHint": True, "idempotentHint": True, "openWorldHint": False}, "read-only idempotent"),
        ({"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False, "openWorldHint": False}, "write"),
        ({"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True}, "write idempotent"),
        ({"readOnlyHint": False, "destructiveHint": True, "openWorldHint": True}, "destructive open-world"),
        ({"readOnlyHint": False}, "destructive"),
        ({}, "no hints"),
        (None, "no hints"),
    ],
)
def test_the_hints_cell_of_a_listed_tool_is_never_empty(annotations: object, shown: str) -> None:
    assert hint_words(annotations) == shown


def test_call_lists_the_demo_tools_calls_one_with_arguments_and_exits_1_on_a_tool_error() -> None:
    with running_gateway("--demo", "--no-record") as gateway:
        listed = hintgate("call", "--list", "--url", gateway.base_url)
        listed_json = hintgate("call", "--list", "--format", "json", "--url", gateway.base_url)
        created = hintgate(
            "call",
            "notes_create_note",
            "title=From the terminal",
            "--json",
            '{"body": "hello"}',
            "--url",
            gateway.base_url,
        )
        found = hintgate("call", "notes_search_notes", "query=terminal", "--url", gateway.mcp_url)
        as_json = hintgate("call", "notes_get_note", "note_id=1", "--format", "json", "--url", gateway.base_url)
        missing = hintgate("call", "notes_get_note", "note_id=999", "--url", gateway.base_url)
    assert listed.returncode == 0, listed.stderr
    assert "notes_create_note" in listed.stdout
    assert "read-only" in listed.stdout
    [archive] = [line for line in listed.stdout.splitlines() if line.startswith("notes_archive_note ")]
    assert archive.split()[1] == "write", "an additive tool that may not be repeated still shows its hints"
    names = {tool["name"] for tool in json.loads(listed_json.stdout)}
    assert {"notes_get_note", "notes_purge_notes", "web_fetch_page"} <= names
    assert created.returncode == 0, created.stderr
    assert "From the terminal" in created.stdout
    assert found.returncode == 0, found.stderr
    assert "From the terminal" in found.stdout
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout)["isError"] is False
    assert missing.returncode == 1
    assert "999" in missing.stdout


def test_call_without_a_gateway_exits_3_naming_where_it_looked() -> None:
    result = hintgate("call", "notes_get_note", "note_id=1", "--url", "http://127.0.0.1:9")
    assert result.returncode == 3
    assert "cannot call http://127.0.0.1:9/mcp" in result.stderr
    assert "no gateway answers at http://127.0.0.1:9 (from --url)" in result.stderr
    assert "with --url URL (or HINTGATE_URL)" in result.stderr


def test_call_says_the_address_it_found_nothing_at_came_from_hintgate_url() -> None:
    with socket.socket() as taken:  # a port nobody listens on: bound, never listening
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        result = hintgate("call", "--list", env={"HINTGATE_URL": f"http://127.0.0.1:{port}"})
    assert result.returncode == 3
    assert f"no gateway answers at http://127.0.0.1:{port} (from HINTGATE_URL)" in result.stderr


def test_call_without_a_tool_or_list_is_a_usage_error() -> None:
    result = hintgate("call")
    assert result.returncode == 2
    assert "--list" in result.stderr
