"""`hintgate overrides set`: hints spelled as the config file spells them; unknown tools refused or warned about."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from hintgate.cli.app import app
from hintgate.cli.common import EXIT_USAGE


def stored(db: str) -> list[tuple[str, str, bool | str]]:
    result = CliRunner().invoke(app, ["overrides", "list", "--format", "json", "--db", db])
    return [(r["tool"], r["hint"], r["value"]) for r in json.loads(result.stdout)]


def test_overrides_set_takes_the_config_files_spellings_of_hints(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'o.db'}"
    result = CliRunner().invoke(
        app,
        [
            "overrides",
            "set",
            "fs_write_file",
            "destructive=true",
            "read_only_hint=false",
            "openWorld=false",
            "--db",
            db,
        ],
    )
    assert result.exit_code == 0, result.output
    assert sorted(stored(db)) == [
        ("fs_write_file", "destructiveHint", True),
        ("fs_write_file", "openWorldHint", False),
        ("fs_write_file", "readOnlyHint", False),
    ]


def test_a_tool_the_store_has_never_seen_is_set_with_a_warning(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'o.db'}"
    first = CliRunner().invoke(app, ["overrides", "set", "no_such_tool", "destructiveHint=true", "--db", db])
    assert first.exit_code == 0, first.output
    assert "warning: no recorded call or override names 'no_such_tool'" in first.output
    again = CliRunner().invoke(app, ["overrides", "set", "no_such_tool", "idempotentHint=true", "--db", db])
    assert "warning" not in again.output  # the store knows it now


def test_with_a_config_an_unknown_tool_is_refused_with_the_nearest_names(tmp_path: Path, demo_cmd: list[str]) -> None:
    config = tmp_path / "hintgate.json"
    config.write_text(json.dumps({"mcpServers": {"notes": {"command": demo_cmd[0], "args": demo_cmd[1:]}}}))
    db = f"sqlite:///{tmp_path / 'o.db'}"
    refused = CliRunner().invoke(
        app, ["overrides", "set", "notes_purge_note", "destructive=true", "--config", str(config), "--db", db]
    )
    assert refused.exit_code == EXIT_USAGE
    assert "'notes_purge_note' is not a tool of this config's catalog; did you mean notes_purge_notes" in refused.output
    assert stored(db) == []
    accepted = CliRunner().invoke(
        app, ["overrides", "set", "notes_purge_notes", "destructive=true", "--config", str(config), "--db", db]
    )
    assert accepted.exit_code == 0, accepted.output
    assert stored(db) == [("notes_purge_notes", "destructiveHint", True)]


def test_a_title_is_set_listed_and_cleared_beside_the_hints(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'o.db'}"
    runner = CliRunner()
    result = runner.invoke(
        app, ["overrides", "set", "fs_write_file", "title=Write a file", "destructive=true", "--db", db]
    )
    assert result.exit_code == 0, result.output
    assert "title='Write a file'" in result.output
    assert stored(db) == [("fs_write_file", "destructiveHint", True), ("fs_write_file", "title", "Write a file")]
    text = runner.invoke(app, ["overrides", "list", "--db", db]).output
    assert "Write a file" in text
    cleared = runner.invoke(app, ["overrides", "clear", "fs_write_file", "title", "--db", db])
    assert cleared.exit_code == 0, cleared.output
    assert "removed 1 override(s)" in cleared.output
    assert stored(db) == [("fs_write_file", "destructiveHint", True)]
    runner.invoke(app, ["overrides", "set", "fs_write_file", "title=Again", "--db", db])
    everything = runner.invoke(app, ["overrides", "clear", "fs_write_file", "--db", db])
    assert "removed 2 override(s)" in everything.output
    assert stored(db) == []


def test_a_bad_title_is_refused_with_usage_and_nothing_is_written(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'o.db'}"
    for bad, message in [("title=", "must not be empty"), ("title=" + "x" * 201, "is at most 200 characters")]:
        result = CliRunner().invoke(app, ["overrides", "set", "fs_write_file", bad, "destructive=true", "--db", db])
        assert result.exit_code == EXIT_USAGE
        assert f"title: a title {message}" in result.output
    assert stored(db) == []


def test_clearing_one_hint_takes_the_config_spelling_and_refuses_unknown_names(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'o.db'}"
    runner = CliRunner()
    runner.invoke(app, ["overrides", "set", "t", "read_only=true", "title=T", "--db", db])
    assert runner.invoke(app, ["overrides", "clear", "t", "read_only", "--db", db]).exit_code == 0
    assert stored(db) == [("t", "title", "T")]
    refused = runner.invoke(app, ["overrides", "clear", "t", "titel", "--db", db])
    assert refused.exit_code == EXIT_USAGE
    assert "'titel' is not a hint or title" in refused.output
