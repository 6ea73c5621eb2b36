"""`hintgate policy stored` and `policy reset`: the settings changed at run time, listed and put back to the file's."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
from typer.testing import CliRunner

from hintgate.cli.app import app
from hintgate.cli.common import EXIT_USAGE
from hintgate.store import Store


async def _store_settings(db: str) -> None:
    async with await Store.open(db, replica="dashboard") as store:
        await store.overrides.set_policy_settings(
            {"mode": "bypass", "preferences.showHintWarnings": False}, actor="dashboard"
        )


def stored(db: str) -> dict[str, object]:
    result = CliRunner().invoke(app, ["policy", "stored", "--format", "json", "--db", db])
    assert result.exit_code == 0, result.output
    return {row["setting"]: row["value"] for row in json.loads(result.stdout)}


def test_policy_stored_lists_and_policy_reset_removes_settings_changed_at_run_time(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'p.db'}"
    anyio.run(_store_settings, db)
    assert stored(db) == {"mode": "bypass", "preferences.showHintWarnings": False}
    text = CliRunner().invoke(app, ["policy", "stored", "--db", db], env={"COLUMNS": "80"})
    assert "bypass" in text.stdout
    assert "dashboard" in text.stdout

    one = CliRunner().invoke(app, ["policy", "reset", "mode", "--db", db])
    assert one.exit_code == 0, one.output
    assert "reset 1 policy setting(s) (mode)" in one.stdout
    assert stored(db) == {"preferences.showHintWarnings": False}
    every = CliRunner().invoke(app, ["policy", "reset", "--db", db])
    assert every.exit_code == 0, every.output
    assert stored(db) == {}
    empty = CliRunner().invoke(app, ["policy", "stored", "--db", db])
    assert "every one follows the config file" in empty.stdout


def test_policy_reset_refuses_a_name_that_is_no_setting(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'p.db'}"
    result = CliRunner().invoke(app, ["policy", "reset", "moed", "--db", db])
    assert result.exit_code == EXIT_USAGE
    assert "'moed' is not a policy setting" in result.output
