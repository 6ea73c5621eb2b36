from __future__ import annotations

import json
from pathlib import Path

import pytest

from hintgate.cli.targets import parse_target, read_tools_file
from hintgate.config.model import HttpTransport, StdioTransport
from hintgate.errors import TargetError, ToolsFileError
from hintgate.hints.trust import Trust


def test_words_after_the_options_are_a_stdio_command() -> None:
    target = parse_target(["npx", "-y", "@modelcontextprotocol/server-memory"])
    assert target.transport == StdioTransport(
        command="npx", args=("-y", "@modelcontextprotocol/server-memory"), env={}, cwd=None
    )


def test_an_http_url_is_a_streamable_http_target() -> None:
    target = parse_target(["https://example.com/mcp"])
    assert isinstance(target.transport, HttpTransport)
    assert target.transport.url == "https://example.com/mcp"


def test_a_json_file_is_a_tools_file_target(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text('{"tools": []}')
    assert parse_target([str(path)]).file == path


def test_no_target_is_a_usage_error() -> None:
    with pytest.raises(TargetError, match="no TARGET"):
        parse_target([])


def test_config_and_server_go_together() -> None:
    with pytest.raises(TargetError, match="--config and --server go together"):
        parse_target([], config="x.yaml")


def test_config_target_names_the_known_servers_when_the_server_is_missing(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"mcpServers": {"time": {"command": "mcp-server-time"}}}))
    with pytest.raises(TargetError, match=r"no server named 'git' \(servers: time\)"):
        parse_target([], config=str(path), server="git")
    target = parse_target([], config=str(path), server="time")
    assert target.server is not None
    assert not target.trusted


@pytest.mark.parametrize(
    "document",
    [
        {"tools": [{"name": "a"}]},
        {"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a"}]}},
        [{"name": "a"}],
        {"server": "x", "tools": [{"name": "a"}]},
    ],
)
def test_tools_files_in_every_common_shape_are_read(tmp_path: Path, document: object) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(document))
    assert read_tools_file(path) == [{"name": "a"}]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"tools": [', r"tools.json:1:\d+: not valid JSON"),
        ('{"items": []}', r"\$: expected a tools/list result with a 'tools' list"),
        ('{"tools": {"a": 1}}', r"\$.tools: expected a list of tools, got dict"),
        ('{"tools": [{"name": "a"}, 3]}', r"\$.tools\[1\]: expected a tool object, got int"),
        ('{"tools": [{"title": "a"}]}', r"\$.tools\[0\].name: every tool needs a string name"),
    ],
)
def test_bad_tools_files_name_the_file_and_json_path(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "tools.json"
    path.write_text(text)
    with pytest.raises(ToolsFileError, match=message):
        read_tools_file(path)


def test_a_bare_target_is_linted_with_the_trust_the_gateway_gives_its_origin(tmp_path: Path) -> None:
    command = parse_target(["mcp-server-time"]).gateway_trust()
    assert (command.level, command.source) == (Trust.LOCAL, "default for a local command")
    url = parse_target(["https://mcp.example.com/mcp"]).gateway_trust()
    assert (url.level, url.source) == (Trust.UNTRUSTED, "default for a URL")
    tools = tmp_path / "tools.json"
    tools.write_text('{"tools": []}')
    assert parse_target([str(tools)]).gateway_trust().level is Trust.LOCAL
    config = tmp_path / "c.json"
    config.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "time": {"command": "mcp-server-time", "trust": "trusted"},
                    "clock": {"command": "mcp-server-time"},
                    "web": {"url": "https://mcp.example.com/mcp"},
                }
            }
        )
    )
    time = parse_target([], config=str(config), server="time").gateway_trust()
    assert (time.level, time.source) == (Trust.TRUSTED, "set in the config file")
    clock = parse_target([], config=str(config), server="clock").gateway_trust()
    assert (clock.level, clock.source) == (Trust.LOCAL, "the default for where it runs")
    assert parse_target([], config=str(config), server="web").gateway_trust().level is Trust.UNTRUSTED
