"""What a new user meets: the six reference servers, no `trust` keys, a first call of each tool in each mode.

Launched from local commands, the servers are `local` by default: their
declared hints count unless strong evidence disagrees. So default mode asks
only for writes, accept-edits only for destructive tools, read-only mode runs
the reads and denies the writes, and no server's writes run while its reads
ask. The verdicts are counted from `hintgate policy explain` (a real gateway
over the real servers, without running destructive tools); a few real calls
go through a running gateway too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from tests.asking import Person

from hintgate.testing import running_gateway

pytestmark = pytest.mark.anyio

GIT_WRITES = {"git_git_add", "git_git_commit", "git_git_reset", "git_git_create_branch", "git_git_checkout"}


def pypi_config(tmp_path: Path, time_cmd: list[str], git_cmd: list[str], **policy: Any) -> Path:
    fetch = str(Path(sys.executable).parent / "mcp-server-fetch")
    servers = {
        "time": {"command": time_cmd[0], "args": time_cmd[1:]},
        "git": {"command": git_cmd[0], "args": git_cmd[1:]},
        "fetch": {"command": fetch, "env": {"npm_config_cache": str(tmp_path / "npm-cache")}},
    }
    path = tmp_path / "hintgate.json"
    path.write_text(json.dumps({"mcpServers": servers, **({"policy": policy} if policy else {})}))
    return path


def npm_config(tmp_path: Path, filesystem_cmd: list[str], memory_cmd: list[str], everything_cmd: list[str]) -> Path:
    servers = {
        "fs": {"command": filesystem_cmd[0], "args": filesystem_cmd[1:]},
        "memory": {
            "command": memory_cmd[0],
            "args": memory_cmd[1:],
            "env": {"MEMORY_FILE_PATH": str(tmp_path / "memory.jsonl")},
        },
        "everything": {"command": everything_cmd[0], "args": everything_cmd[1:]},
    }
    path = tmp_path / "npm.json"
    path.write_text(json.dumps({"mcpServers": servers}))
    return path


def explained(config: Path) -> list[dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-m", "hintgate", "policy", "explain", "--config", str(config), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "COLUMNS": "200"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rows: list[dict[str, Any]] = json.loads(done.stdout)
    return rows


def verdicts(rows: list[dict[str, Any]], mode: str, verdict: str) -> set[str]:
    return {row["tool"] for row in rows if row["decisions"][mode]["verdict"] == verdict}


def assert_no_write_runs_while_a_read_asks(rows: list[dict[str, Any]]) -> None:
    rank = {"read-only": 0, "additive-write": 1, "destructive": 2, "unknown": 3}
    for mode in ("default", "accept-edits", "read-only"):
        for server in {row["server"] for row in rows}:
            tools = [row for row in rows if row["server"] == server]
            asking = [rank[row["tier"]] for row in tools if row["decisions"][mode]["verdict"] == "ask"]
            running = [rank[row["tier"]] for row in tools if row["decisions"][mode]["verdict"] == "allow"]
            if asking and running:
                assert max(running) <= min(asking), (mode, server)


def test_the_pypi_servers_without_trust_keys_ask_only_for_the_git_writes(
    tmp_path: Path, time_cmd: list[str], git_cmd: list[str]
) -> None:
    rows = explained(pypi_config(tmp_path, time_cmd, git_cmd))
    tools = {row["tool"] for row in rows}
    assert tools >= GIT_WRITES
    assert {row["trust"] for row in rows} == {"local"}
    assert {row["trust_from"] for row in rows} == {"origin"}
    assert verdicts(rows, "default", "ask") == GIT_WRITES
    assert verdicts(rows, "default", "allow") == tools - GIT_WRITES
    assert verdicts(rows, "accept-edits", "ask") == {"git_git_reset"}
    assert verdicts(rows, "read-only", "allow") == tools - GIT_WRITES
    assert verdicts(rows, "read-only", "deny") == GIT_WRITES
    assert_no_write_runs_while_a_read_asks(rows)


def test_the_npm_servers_without_trust_keys_ask_only_for_writes_and_in_accept_edits_only_for_destructive_ones(
    tmp_path: Path, filesystem_cmd: list[str], memory_cmd: list[str], everything_cmd: list[str]
) -> None:
    rows = explained(npm_config(tmp_path, filesystem_cmd, memory_cmd, everything_cmd))
    tier = {row["tool"]: row["tier"] for row in rows}
    reads = {t for t, v in tier.items() if v == "read-only"}
    writes = set(tier) - reads
    destructive = {t for t, v in tier.items() if v in ("destructive", "unknown")}
    assert {"memory_read_graph", "fs_read_text_file", "everything_echo"} <= reads
    assert {"memory_create_entities", "fs_create_directory"} <= writes - destructive
    assert {"fs_write_file", "memory_delete_entities"} <= destructive
    assert verdicts(rows, "default", "ask") == writes
    assert verdicts(rows, "accept-edits", "ask") == destructive
    assert verdicts(rows, "read-only", "allow") == reads
    assert verdicts(rows, "read-only", "deny") == writes
    assert_no_write_runs_while_a_read_asks(rows)


async def test_first_calls_through_a_running_gateway_run_reads_and_additive_writes_and_ask_for_the_rest(
    tmp_path: Path, time_cmd: list[str], git_cmd: list[str]
) -> None:
    person = Person()
    repo = Path(git_cmd[-1])
    (repo / "notes.txt").write_text("first\n")
    who = ["-c", "user.name=Test", "-c", "user.email=test@example.com"]
    subprocess.run(["git", "-C", str(repo), "add", "notes.txt"], check=True, timeout=30)
    subprocess.run(["git", "-C", str(repo), *who, "commit", "-q", "-m", "first"], check=True, timeout=30)
    config = pypi_config(tmp_path, time_cmd, git_cmd, mode="accept-edits")
    with running_gateway("--config", str(config), "--no-record") as gateway, anyio.fail_after(120):
        async with Client(gateway.mcp_transport(), mode="legacy", elicitation_callback=person) as client:  # type: ignore[arg-type]
            now = await client.call_tool("time_get_current_time", {"timezone": "UTC"})
            status = await client.call_tool("git_git_status", {"repo_path": git_cmd[-1]})
            branch = await client.call_tool("git_git_create_branch", {"repo_path": git_cmd[-1], "branch_name": "topic"})
            assert person.asked == []
            reset = await client.call_tool("git_git_reset", {"repo_path": git_cmd[-1]})
    assert now.is_error is False, now.content
    assert status.is_error is False, status.content
    assert branch.is_error is False, branch.content
    assert "topic" in str(branch.content)
    assert reset.is_error is True
    [question] = person.asked
    assert "git_git_reset" in question
    assert "To run it without asking: the allow rule {allow: {tool: git_git_reset}}." in question
