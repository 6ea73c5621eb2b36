"""`hintgate calls` and `sessions` with `--names mcpproxy`, and the config file each call was served by.

A real gateway (`serve --config` over stdio, recording to a SQLite file) in
front of the real `mcp-server-time` serves the calls; the commands read them
back from that file.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from typer.testing import CliRunner

from hintgate.cli.app import app
from hintgate.cli.common import EXIT_USAGE

# The fields of MCPProxy's tool-call record, as its data model writes them.
MCPPROXY_CALL = {
    "id",
    "server_id",
    "server_name",
    "tool_name",
    "arguments",
    "response",
    "error",
    "duration",
    "timestamp",
    "config_path",
    "request_id",
    "metrics",
    "parent_call_id",
    "execution_type",
    "mcp_session_id",
    "mcp_client_name",
    "mcp_client_version",
    "annotations",
}
MCPPROXY_SESSION = {
    "id",
    "client_name",
    "client_version",
    "status",
    "start_time",
    "end_time",
    "tool_call_count",
    "total_tokens",
}


def run(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), env={"HINTGATE_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "80"})
    return result.exit_code, result.stdout, result.stderr


def listed(tmp_path: Path, *args: str) -> list[dict[str, Any]]:
    code, out, err = run(tmp_path, *args)
    assert code == 0, err
    rows: list[dict[str, Any]] = json.loads(out)
    return rows


@pytest.fixture
def served(tmp_path: Path, time_cmd: list[str]) -> tuple[str, Path]:
    """Two calls through a stdio gateway over mcp-server-time: the database's URL and the config file."""
    config = tmp_path / "conf" / "servers.json"
    config.parent.mkdir()
    config.write_text(json.dumps({"mcpServers": {"time": {"command": time_cmd[0], "args": time_cmd[1:]}}}))
    db = f"sqlite:///{tmp_path / 'calls.db'}"
    params = StdioServerParameters(
        command=sys.executable,
        # A relative path: what is recorded is the file's absolute path.
        args=["-m", "hintgate", "serve", "--config", "conf/servers.json", "--db", db],
        cwd=str(tmp_path),
        env={"HINTGATE_DATA_DIR": os.environ["HINTGATE_DATA_DIR"], "HOME": os.environ["HOME"]},
    )
    info = types.Implementation(name="moving-client", version="2.1")

    async def calls() -> tuple[Any, Any]:
        with anyio.fail_after(90):
            async with Client(params, mode="legacy", client_info=info) as client:
                first = await client.call_tool("time_get_current_time", {"timezone": "UTC"})
                second = await client.call_tool("time_convert_time", {"source_timezone": "UTC", "time": "12:00"})
        return first, second

    # The commands run their own event loop: the calls are made before, in one of their own.
    first, second = anyio.run(calls)
    assert first.is_error is not True
    assert second.is_error is True  # no target time zone: the server says so
    return db, config


def test_each_recorded_call_carries_the_absolute_path_of_the_config_that_served_it(
    tmp_path: Path, served: tuple[str, Path]
) -> None:
    db, config = served
    rows = listed(tmp_path, "calls", "--format", "json", "--db", db)
    assert [row["tool_name"] for row in rows] == ["time_convert_time", "time_get_current_time"]
    assert {row["config_path"] for row in rows} == {str(config.resolve())}


def test_calls_with_mcpproxy_names_write_its_tool_call_record(tmp_path: Path, served: tuple[str, Path]) -> None:
    db, config = served
    ours = listed(tmp_path, "calls", "--format", "json", "--db", db)
    theirs = listed(tmp_path, "calls", "--format", "json", "--names", "mcpproxy", "--db", db)
    assert len(theirs) == 2
    failed, ok = theirs
    for row, mine in zip(theirs, ours, strict=True):
        assert set(row) <= MCPPROXY_CALL
        assert row["id"] == mine["id"]
        assert row["server_name"] == "time"
        assert row["config_path"] == str(config.resolve())
        assert row["mcp_session_id"] == mine["session_id"]
        assert (row["mcp_client_name"], row["mcp_client_version"]) == ("moving-client", "2.1")
        assert row["timestamp"] == mine["started_at"].replace("+00:00", "Z")
        assert row["duration"] == round(mine["duration_ms"] * 1_000_000)  # nanoseconds, as Go's time.Duration
        assert row["execution_type"] == "direct"
        metrics = row["metrics"]
        assert metrics["total_tokens"] == metrics["input_tokens"] + metrics["output_tokens"] > 0
    assert ok["tool_name"] == "get_current_time"  # the server's own name, beside server_name
    assert ok["arguments"] == {"timezone": "UTC"}
    assert ok["error"] == ""
    assert ok["annotations"]["readOnlyHint"] is True
    assert set(ok["annotations"]) <= {"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
    assert failed["tool_name"] == "convert_time"
    assert failed["error"]


def test_sessions_with_mcpproxy_names_write_start_time_and_the_counts(tmp_path: Path, served: tuple[str, Path]) -> None:
    db, _ = served
    (ours,) = listed(tmp_path, "sessions", "--format", "json", "--db", db)
    (theirs,) = listed(tmp_path, "sessions", "--format", "json", "--names", "mcpproxy", "--db", db)
    assert set(theirs) <= MCPPROXY_SESSION
    assert theirs["id"] == ours["id"]
    assert theirs["start_time"] == ours["started_at"].replace("+00:00", "Z")
    assert (theirs["client_name"], theirs["tool_call_count"]) == ("moving-client", 2)
    assert theirs["status"] == ours["status"]
    assert ("end_time" in theirs) == (ours["status"] == "closed")


def test_other_names_are_for_json_only_and_an_unknown_one_is_refused(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'empty.db'}"
    code, _, err = run(tmp_path, "calls", "--names", "mcpproxy", "--db", db)
    assert code == EXIT_USAGE
    assert "--names mcpproxy names the fields of JSON: give --format json too" in " ".join(err.split())
    code, _, err = run(tmp_path, "sessions", "--format", "json", "--names", "gram", "--db", db)
    assert code == EXIT_USAGE
    assert "'gram' is not one of 'hintgate', 'mcpproxy'" in " ".join(err.replace("│", " ").split())
