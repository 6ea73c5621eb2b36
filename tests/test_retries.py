"""Retries on record: the gateway's own retry after a transient failure, and the client's identical retry."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from typer.testing import CliRunner

from hintgate.cli.app import app
from hintgate.config.loading import parse_config
from hintgate.server.face import build_server
from hintgate.server.gateway import Gateway
from hintgate.store import RecordingSettings, Store

FLAKY = Path(__file__).parent / "fixtures" / "flaky_server.py"


def _config(tmp_path: Path, mode: str = "default") -> dict[str, Any]:
    server = {"command": sys.executable, "args": [str(FLAKY), str(tmp_path / "crashed")], "trust": "trusted"}
    return {"mcpServers": {"gauge": server}, "policy": {"mode": mode}}


async def _calls(tmp_path: Path, mode: str, *calls: tuple[str, dict[str, Any]]) -> tuple[str, list[Any]]:
    """Make `calls` in one client session through a gateway recording to SQLite; the db URL and the results."""
    db = f"sqlite:///{tmp_path / 'calls.db'}"
    store = await Store.open(db, RecordingSettings(commit_interval=0.01))
    results = []
    try:
        with anyio.fail_after(90):
            async with Gateway(parse_config(_config(tmp_path, mode)), store=store) as gateway:
                async with Client(build_server(gateway), mode="legacy") as client:
                    for name, arguments in calls:
                        results.append(await client.call_tool(name, arguments))
                await store.flush()
    finally:
        await store.close()
    return db, results


def _recorded(db: str) -> list[dict[str, Any]]:
    """`hintgate calls --format json`, oldest first."""
    result = CliRunner().invoke(app, ["calls", "--db", db, "--format", "json"])
    assert result.exit_code == 0, result.output
    return sorted(json.loads(result.stdout), key=lambda row: row["started_at"])


def test_a_read_retried_after_its_server_crashed_is_two_calls_on_record_the_retry_naming_the_first(
    tmp_path: Path,
) -> None:
    db, (result,) = anyio.run(_calls, tmp_path, "default", ("gauge_get_reading", {}))
    assert result.is_error is False
    assert result.content[0].text == "42"
    first, retry = _recorded(db)
    assert (first["execution_type"], first["parent_call_id"]) == ("direct", None)
    assert first["error"] is not None
    assert first["error"].endswith("(retried)")
    assert (retry["execution_type"], retry["parent_call_id"]) == ("retry", first["id"])
    assert (retry["error"], retry["tool_name"]) == (None, "gauge_get_reading")
    assert first["session_id"] == retry["session_id"]


def test_the_clients_identical_call_of_an_idempotent_tool_is_a_client_retry_of_the_earlier_one(
    tmp_path: Path,
) -> None:
    calls = [("gauge_set_level", {"level": 3}), ("gauge_set_level", {"level": 3}), ("gauge_set_level", {"level": 4})]
    db, results = anyio.run(_calls, tmp_path, "acceptEdits", *calls)
    assert [r.is_error for r in results] == [False, False, False]
    first, again, other = _recorded(db)
    assert (first["execution_type"], first["parent_call_id"]) == ("direct", None)
    assert (again["execution_type"], again["parent_call_id"]) == ("client_retry", first["id"])
    assert (other["execution_type"], other["parent_call_id"]) == ("direct", None)
