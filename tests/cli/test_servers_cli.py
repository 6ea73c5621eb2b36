"""`hintgate servers`: the entry its options make, and what it says before any gateway answers."""

from __future__ import annotations

import socket

import pytest
from typer.testing import CliRunner

from hintgate.cli.app import app
from hintgate.cli.common import OutputFormat
from hintgate.cli.servers import EntryOptions, report_change


def entry(command: list[str] | None = None, **options: object) -> dict[str, object]:
    return EntryOptions(command, **options).body()  # type: ignore[arg-type]


def test_a_command_after_the_double_dash_is_a_local_server_with_its_env() -> None:
    made = entry(["uvx", "mcp-server-time", "--local-timezone", "UTC"], env=["TZ=UTC", "KEY=${KEY}"], trusted=True)
    assert made == {
        "command": "uvx",
        "args": ["mcp-server-time", "--local-timezone", "UTC"],
        "env": {"TZ": "UTC", "KEY": "${KEY}"},
        "trust": "trusted",
    }


def test_a_lone_url_is_a_remote_server_with_its_headers() -> None:
    made = entry(["https://docs.example/mcp"], header=["Authorization=Bearer ${T}"], prefix="", disabled=True)
    assert made == {
        "url": "https://docs.example/mcp",
        "headers": {"Authorization": "Bearer ${T}"},
        "prefix": "",
        "enabled": False,
    }
    assert entry(server_url="https://old.example/sse", sse=True) == {"url": "https://old.example/sse", "type": "sse"}


def test_a_whole_entry_is_taken_as_json() -> None:
    assert entry(entry='{"command": "node", "include": ["read_*"]}') == {"command": "node", "include": ["read_*"]}


@pytest.mark.parametrize(
    ("command", "options", "message"),
    [
        (None, {}, "give exactly one of"),
        (["node"], {"server_url": "https://x.example"}, "give exactly one of"),
        (["node"], {"header": ["A=b"]}, "--header and --sse are for a remote server"),
        (None, {"server_url": "https://x.example", "env": ["A=b"]}, "--env is for a local server"),
        (["node"], {"env": ["novalue"]}, "expected NAME=VALUE"),
        (None, {"entry": "[1]"}, "must be a JSON object"),
        (None, {"entry": "{"}, "--entry is not JSON"),
        (["node"], {"entry": "{}"}, "--entry gives the whole entry"),
    ],
)
def test_options_that_contradict_each_other_are_usage_errors(
    command: list[str] | None, options: dict[str, object], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as ended:
        entry(command, **options)
    assert ended.value.code == 2
    assert message in capsys.readouterr().err.replace("\n", " ")


def test_a_gateway_that_does_not_answer_is_exit_3_naming_its_url() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound, never listening: connections are refused
        url = f"http://127.0.0.1:{port}"
        result = CliRunner().invoke(app, ["servers", "disable", "time", "--url", url, "--token", "t" * 40])
    assert result.exit_code == 3
    assert f"cannot reach the gateway at {url}" in result.output


def test_a_change_the_gateway_does_not_keep_is_said_to_last_until_it_stops_naming_every_cause(
    capsys: pytest.CaptureFixture[str],
) -> None:
    unchanged = {"added": [], "removed": [], "changed": [], "unchanged": ["notes"]}
    report_change({"server": None, "diff": unchanged, "persisted": False}, "added", "extra", OutputFormat.TEXT)
    said = capsys.readouterr().out
    assert "lasts until the gateway stops" in said
    assert all(cause in said for cause in ("--demo", "--python", "--no-record"))
