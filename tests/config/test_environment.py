"""The gateway's own secrets leave its environment at start: what a stdio child reads of it, and what is recorded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from hintgate.config.environment import wipe
from hintgate.store import Store
from hintgate.testing import running_gateway

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "environ_server.py"
TOKEN = "test-api-token-" + "a1b2c3d4" * 4
STATE_KEY = "test-state-key-" + "e5f6a7b8" * 4

_READ_PARENT = "import os,sys; sys.stdout.buffer.write(open(f'/proc/{os.getppid()}/environ','rb').read())"


def test_a_wiped_variable_is_gone_from_os_environ_and_from_what_a_child_reads_in_proc() -> None:
    script = (
        "import os, subprocess, sys\n"
        "from hintgate.config.environment import wipe\n"
        "print(wipe(['HINTGATE_API_TOKEN', 'NOT_SET_AT_ALL']), file=sys.stderr)\n"
        "assert 'HINTGATE_API_TOKEN' not in os.environ and os.environ['KEPT'] == 'kept-value'\n"
        f"sys.stdout.buffer.write(subprocess.run([sys.executable, '-c', {_READ_PARENT!r}], env={{}},"
        " capture_output=True, check=True).stdout)\n"
    )
    env = {**os.environ, "HINTGATE_API_TOKEN": TOKEN, "KEPT": "kept-value"}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, timeout=60, check=True)
    assert b"['HINTGATE_API_TOKEN']" in done.stderr
    assert TOKEN.encode() not in done.stdout
    assert b"KEPT=kept-value" in done.stdout  # the rest of the block is untouched


def test_wiping_what_is_not_set_changes_nothing() -> None:
    before = dict(os.environ)
    assert wipe(["HINTGATE_NOT_SET_IN_TESTS"]) == []
    assert dict(os.environ) == before


@pytest.mark.anyio
async def test_a_stdio_server_cannot_read_the_gateways_token_or_state_key_and_records_mask_the_token(
    tmp_path: Path,
) -> None:
    db = tmp_path / "history.db"
    config = tmp_path / "hintgate.json"
    config.write_text(
        json.dumps({
            "mcpServers": {"env": {"command": sys.executable, "args": [str(FIXTURE)], "trust": "trusted"}},
            "policy": {"mode": "bypass"},
        })
    )  # fmt: skip
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data"), "HINTGATE_API_TOKEN": TOKEN, "HINTGATE_STATE_KEY": STATE_KEY}
    with running_gateway("--config", str(config), "--db", f"sqlite:///{db}", env=env) as gateway:
        with anyio.fail_after(90):
            async with (
                httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30) as http,
                Client(streamable_http_client(gateway.mcp_url, http_client=http), mode="legacy") as client,  # type: ignore[arg-type]
            ):
                read = await client.call_tool("env_parent_environ", {})
                echoed = await client.call_tool("env_echo", {"text": f"the token is {TOKEN}"})
                failed = await client.call_tool("env_fail", {"text": f"no: {TOKEN}"})
    seen = read.content[0].text  # type: ignore[union-attr]
    assert "HINTGATE_DATA_DIR=" in seen  # it did read the gateway's environment block
    assert TOKEN not in seen
    assert STATE_KEY not in seen
    assert not echoed.is_error
    assert failed.is_error
    async with await Store.open(f"sqlite:///{db}", recover=False) as store:
        calls = await store.calls()
    recorded = json.dumps(calls, default=str)
    by_tool = {c["tool_name"]: c for c in calls}
    assert sorted(by_tool) == ["env_echo", "env_fail", "env_parent_environ"]
    assert TOKEN not in recorded
    assert "***" in json.dumps(by_tool["env_echo"]["response"])
    assert TOKEN in failed.content[0].text  # type: ignore[union-attr]
    assert "***" in json.dumps(by_tool["env_fail"]["response"]) + (by_tool["env_fail"]["error"] or "")
