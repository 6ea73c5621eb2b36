"""The config keys of tool pins: a server's `pin`, and `integrity.pins`."""

from __future__ import annotations

from pathlib import Path

import pytest

from hintgate.config.loading import load_config, parse_config
from hintgate.errors import ConfigError


def test_a_server_is_pinned_on_first_use_unless_it_says_manual() -> None:
    config = parse_config(
        {"mcpServers": {"a": {"command": "a"}, "b": {"command": "b", "pin": "manual"}}},
    )
    assert config.servers["a"].pin == "auto"
    assert config.servers["b"].pin == "manual"
    assert config.servers["b"].redacted()["pin"] == "manual"


def test_an_unknown_pin_mode_is_an_error_naming_the_server_and_the_choices() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config({"mcpServers": {"a": {"command": "a", "pin": "never"}}})
    assert "mcpServers.a.pin" in str(caught.value)
    assert 'expected "auto" or "manual", got "never"' in str(caught.value)


def test_the_pins_file_is_relative_to_the_config_file(tmp_path: Path) -> None:
    path = tmp_path / "gw" / "hintgate.yaml"
    path.parent.mkdir()
    path.write_text("mcpServers: {}\nintegrity:\n  onChange: hide\n  pins: pins/team.yaml\n")
    config = load_config(path)
    assert config.pins_file == tmp_path / "gw" / "pins" / "team.yaml"
    assert config.on_change == "hide"
    assert parse_config({"mcpServers": {}}).pins_file is None


def test_an_empty_pins_path_is_an_error() -> None:
    with pytest.raises(ConfigError, match=r"integrity\.pins"):
        parse_config({"mcpServers": {}, "integrity": {"pins": ""}})


def test_what_reaches_the_client_of_a_result_that_speaks_to_the_model_is_redact_unless_set() -> None:
    assert parse_config({"mcpServers": {}}).on_result_finding == "redact"
    marked = parse_config({"mcpServers": {}, "integrity": {"onResultFinding": "mark"}})
    assert marked.on_result_finding == "mark"
    with pytest.raises(ConfigError) as caught:
        parse_config({"mcpServers": {}, "integrity": {"onResultFinding": "drop"}})
    assert "integrity.onResultFinding" in str(caught.value)
    assert 'expected "mark", "redact" or "block", got "drop"' in str(caught.value)
