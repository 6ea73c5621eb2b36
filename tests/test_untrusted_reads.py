"""Tools of an untrusted server that say they only read, end to end: `hintgate serve` over a real MCP server.

The server is reached by URL, so it is untrusted by default; the same server launched from a local
command is `local`, and its declared read-only hint counts (its lie would gain it nothing it could not
do with the operator's rights anyway).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from tests.asking import Person
from tests.processes import free_port, stop

pytestmark = pytest.mark.anyio

NAMED = str(Path(__file__).parent / "fixtures" / "named_server.py")


@asynccontextmanager
async def serving(tmp_path: Path, config: dict[str, Any], person: Person) -> AsyncIterator[Client]:
    path = tmp_path / "hintgate.json"
    path.write_text(json.dumps(config))
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hintgate", "serve", "--config", str(path), "--no-record"],
        env={"HINTGATE_DATA_DIR": os.environ["HINTGATE_DATA_DIR"]},
    )
    with anyio.fail_after(60):
        async with Client(params, mode="legacy", elicitation_callback=person) as client:
            yield client


@pytest.fixture
async def notes_url(tmp_path: Path) -> AsyncIterator[str]:
    """The note server over streamable HTTP: a server reached by URL."""
    port = free_port()
    env = {**os.environ, "NOTE_WIPED_FILE": str(tmp_path / "wiped"), "NOTE_RUNS_FILE": str(tmp_path / "runs")}
    process = subprocess.Popen([sys.executable, NAMED, "note", str(port)], env=env, stderr=subprocess.DEVNULL)
    try:
        with anyio.fail_after(30):
            while True:
                try:
                    stream = await anyio.connect_tcp("127.0.0.1", port)
                except OSError:
                    assert process.poll() is None, "the note server exited"
                    await anyio.sleep(0.05)  # polling for a port: nothing to wait on instead
                    continue
                await stream.aclose()
                break
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        stop(process)


def notes(tmp_path: Path, **extra: Any) -> dict[str, Any]:
    env = {"NOTE_WIPED_FILE": str(tmp_path / "wiped"), "NOTE_RUNS_FILE": str(tmp_path / "runs")}
    return {"command": sys.executable, "args": [NAMED, "note"], "env": env, **extra}


async def test_an_untrusted_get_note_declared_read_only_asks_before_it_runs(tmp_path: Path, notes_url: str) -> None:
    person = Person("deny")
    async with serving(tmp_path, {"mcpServers": {"notes": {"url": notes_url}}}, person) as client:
        result = await client.call_tool("notes_get_note", {})
    assert result.is_error is True
    assert not (tmp_path / "wiped").exists()
    [question] = person.asked
    assert "Its server is untrusted, and that this tool only reads rests on" in question


async def test_a_trusted_server_or_an_allow_rule_lets_a_read_only_tool_run_unasked(
    tmp_path: Path, notes_url: str
) -> None:
    person = Person("deny")
    config = {
        "mcpServers": {"notes": {"url": notes_url}},
        "policy": {"rules": [{"allow": {"tool": "notes_get_note"}}]},
    }
    async with serving(tmp_path, config, person) as client:
        result = await client.call_tool("notes_get_note", {})
    assert result.is_error is False
    assert person.asked == []


async def test_an_untrusted_read_only_tool_that_times_out_is_not_run_again(tmp_path: Path, notes_url: str) -> None:
    config = {
        "mcpServers": {"notes": {"url": notes_url, "timeout": 1}},
        "policy": {"rules": [{"allow": {"tool": "notes_slow_get_total"}}]},
    }
    async with serving(tmp_path, config, Person("deny")) as client:
        with anyio.fail_after(30):
            result = await client.call_tool("notes_slow_get_total", {})
    assert result.is_error is True
    assert "did not answer within 1 s" in result.content[0].text  # type: ignore[union-attr]
    assert (tmp_path / "runs").read_text() == "ran\n"


async def test_the_same_server_launched_from_a_local_command_is_local_and_its_declared_read_runs_unasked(
    tmp_path: Path,
) -> None:
    person = Person("deny")
    async with serving(tmp_path, {"mcpServers": {"notes": notes(tmp_path)}}, person) as client:
        result = await client.call_tool("notes_get_note", {})
    assert result.is_error is False
    assert person.asked == []
