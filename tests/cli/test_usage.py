"""`hintgate tools --usage`: each tool's recorded calls, errors, last use and median duration, from the store."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
from typer.testing import CliRunner

from hintgate.cli.app import app
from hintgate.config.loading import parse_config
from hintgate.server.gateway import Gateway
from hintgate.store import RecordingSettings, Store


async def _record_calls(config: dict[str, object], db: str) -> None:
    store = await Store.open(db, RecordingSettings(commit_interval=0.01))
    try:
        with anyio.fail_after(60):
            async with Gateway(parse_config(config), store=store) as gateway:
                for note_id in (1, 2, 99):  # 99 does not exist: an error
                    await gateway.call_tool(None, {"name": "notes_get_note", "arguments": {"note_id": note_id}})
                await store.flush()
    finally:
        await store.close()


def test_tools_usage_lists_every_tool_with_its_recorded_calls(tmp_path: Path, demo_cmd: list[str]) -> None:
    config = {"mcpServers": {"notes": {"command": demo_cmd[0], "args": demo_cmd[1:]}}, "policy": {"mode": "bypass"}}
    path = tmp_path / "hintgate.json"
    path.write_text(json.dumps(config))
    db = f"sqlite:///{tmp_path / 'usage.db'}"
    anyio.run(_record_calls, config, db)
    result = CliRunner().invoke(app, ["tools", "--config", str(path), "--usage", "--db", db, "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = {row["tool"]: row for row in json.loads(result.stdout)}
    got = rows["notes_get_note"]
    assert (got["calls"], got["errors"]) == (3, 1)
    assert got["last_used"] is not None
    assert got["p50_ms"] is not None
    assert rows["notes_create_note"] == {
        "tool": "notes_create_note",
        "tier": rows["notes_create_note"]["tier"],
        "calls": 0,
        "errors": 0,
        "denied": 0,
        "expired": 0,
        "last_used": None,
        "p50_ms": None,
    }
    text = CliRunner().invoke(app, ["tools", "--config", str(path), "--usage", "--db", db, "--wide"])
    assert text.exit_code == 0
    assert "never" in text.stdout
