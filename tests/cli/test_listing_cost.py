"""`hintgate tools` says what `tools/list` costs a client in each search mode, in bytes and tokens."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from hintgate.cli.app import app


def run(*args: str, tmp_path: Path) -> str:
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data"), "HOME": str(tmp_path), "COLUMNS": "80"}
    result = CliRunner().invoke(app, list(args), env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_tools_json_gives_each_search_modes_tools_bytes_and_tokens(tmp_path: Path) -> None:
    document = json.loads(run("tools", "--demo", "--format", "json", tmp_path=tmp_path))
    costs = {row["mode"]: row for row in document["listing"]}
    catalog = len(document["tools"])
    assert set(costs) == {"auto", "always", "only", "off"}
    assert [m for m, row in costs.items() if row["current"]] == ["auto"]
    assert costs["off"]["tools"] == costs["auto"]["tools"] == catalog  # the demo has fewer than 51 tools
    assert costs["always"]["tools"] == catalog + 2
    assert costs["only"]["tools"] == 2
    assert costs["only"]["bytes"] < costs["off"]["bytes"] < costs["always"]["bytes"]
    assert 0 < costs["only"]["tokens"] < costs["off"]["tokens"] < costs["always"]["tokens"]


def test_tools_text_shows_the_costs_in_80_columns_with_the_mode_in_force(tmp_path: Path) -> None:
    text = run("tools", "--demo", tmp_path=tmp_path)
    table = text[text.index("tools/list per search mode") :]
    assert all(len(line.rstrip()) <= 80 for line in table.splitlines())
    assert "auto (in force)" in table
    assert {"always", "only", "off"} <= set(table.split())
