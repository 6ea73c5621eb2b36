"""The runtime layer over the config file: entries validated like the file's, changes laid over it in order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from hintgate.config.layering import InvalidEntry, ServerChange, lay_over, read_entry
from hintgate.config.loading import parse_config
from hintgate.config.model import HttpTransport, ServerConfig, StdioTransport

FILE = parse_config(
    {
        "mcpServers": {
            "time": {"command": "uvx", "args": ["mcp-server-time"]},
            "off": {"url": "http://localhost:1/mcp", "enabled": False},
        },
        "timeouts": {"call": 7},
    }
)
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def change(name: str, action: str, config: dict[str, object] | None = None, minutes: int = 0) -> ServerChange:
    return ServerChange(name, action, config, T0 + timedelta(minutes=minutes), "test")  # type: ignore[arg-type]


def test_an_entry_is_read_like_the_files_with_its_defaults_and_variables() -> None:
    server, warnings = read_entry(
        "api",
        {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
        base=FILE,
        environ={"TOKEN": "s3cret-value"},
    )
    assert isinstance(server.transport, HttpTransport)
    assert server.transport.headers["Authorization"] == "Bearer s3cret-value"
    assert server.call_timeout == 7  # the file's timeouts are the defaults
    assert "s3cret-value" in server.secrets()
    assert warnings == ()


def test_every_problem_of_an_entry_is_named_by_its_json_path() -> None:
    with pytest.raises(InvalidEntry) as caught:
        read_entry(
            "x", {"command": "", "args": [1], "env": {"A": 2}, "trust": "yes", "oauth": {}}, base=FILE, environ={}
        )
    found = {(p.loc, p.message) for p in caught.value.problems}
    assert (("args", 0), "expected a string, got 1; quote it") in found
    assert dict(found)[("env", "A")].startswith("expected a string, got a number")
    assert (("command",), "must not be empty") in found
    assert any(loc == ("trust",) for loc, _ in found)
    assert any(loc == ("oauth",) for loc, _ in found)
    assert "body.args[0]: expected a string" in str(caught.value)
    assert "2" not in dict(found)[("env", "A")]  # env values are never echoed


def test_a_name_in_the_body_must_be_the_servers_and_the_name_must_be_usable() -> None:
    with pytest.raises(InvalidEntry, match=r'body\.name: is "b" but the server is "a"'):
        read_entry("a", {"name": "b", "command": "x"}, base=FILE, environ={})
    with pytest.raises(InvalidEntry, match=r"body\.name"):
        read_entry("a/b", {"command": "x"}, base=FILE, environ={})
    assert read_entry("a", {"name": "a", "command": "x"}, base=FILE, environ={})[0].name == "a"


def test_changes_are_laid_over_the_file_oldest_first() -> None:
    layered = lay_over(
        FILE,
        [
            change("new", "add", {"command": "node", "args": ["server.js"]}, minutes=1),
            change("time", "disable", minutes=2),
            change("off", "remove", minutes=3),
            change("new", "disable", {"command": "node", "args": ["server.js"]}, minutes=4),
        ],
        environ={},
    )
    sources = layered.config.sources
    assert list(sources) == ["time", "new"]
    assert not sources["time"].enabled
    assert not sources["new"].enabled
    new = sources["new"]
    assert isinstance(new, ServerConfig)
    assert isinstance(new.transport, StdioTransport)
    assert layered.origin("new") == "runtime"
    assert layered.origin("time") == "config"
    assert layered.problems == ()
    assert FILE.sources["time"].enabled  # the file's config is never changed


def test_a_change_that_no_longer_applies_is_skipped_and_said() -> None:
    layered = lay_over(
        FILE,
        [change("gone", "enable"), change("api", "add", {"url": "https://example.com/${MISSING}"})],
        environ={},
    )
    assert set(layered.config.sources) == {"time", "off"}
    assert len(layered.problems) == 2
    assert "no longer has that server" in layered.problems[0]
    assert "MISSING is not set" in layered.problems[1]
