"""`askVia: deny-unattended`: a gateway that has nobody to ask denies at once, saying how to set someone up.

A real `hintgate serve` over stdio (no dashboard, recording off) in front of
npm's server-filesystem, and the MCP SDK's client, which declares no
elicitation: a write is refused straight away (well inside an approval
timeout of an hour) and the file is never written. With the dashboard served,
the same setting queues the call for a person instead.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from tests import configs
from tests.configs import entry

from hintgate.testing import running_gateway
from isolation import child_env

pytestmark = pytest.mark.anyio

WRITE = {"X-Hintgate-Request": "1"}
POLICY = {"askVia": "deny-unattended", "approvalTimeout": 3600}


def config_file(tmp_path: Path, filesystem_cmd: list[str]) -> Path:
    return configs.config_file(tmp_path, {"fs": entry(filesystem_cmd)}, POLICY)


def text_of(result: Any) -> str:
    return " ".join(block.text for block in result.content if hasattr(block, "text"))


async def test_over_stdio_with_nobody_to_ask_a_write_is_denied_at_once_and_never_runs(
    tmp_path: Path, filesystem_cmd: list[str]
) -> None:
    target = Path(filesystem_cmd[-1]) / "note.txt"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hintgate", "serve", "--config", str(config_file(tmp_path, filesystem_cmd)), "--no-record"],
        env=child_env(),
    )
    # An approval timeout of an hour: only an immediate denial ends the call within this bound.
    with anyio.fail_after(90):
        async with Client(params, mode="legacy") as client:
            result = await client.call_tool("fs_write_file", {"path": str(target), "content": "nobody asked"})
    text = " ".join(text_of(result).split())
    assert result.is_error is True
    assert "askVia: deny-unattended" in text
    assert "hintgate serve --dashboard HOST:PORT" in text
    assert "hintgate approvals" in text
    assert "Why it asked:" in text
    assert not target.exists()


async def test_with_the_dashboard_served_the_same_setting_queues_the_call_for_a_person(
    tmp_path: Path, filesystem_cmd: list[str]
) -> None:
    target = Path(filesystem_cmd[-1]) / "note.txt"
    config = config_file(tmp_path, filesystem_cmd)
    results: list[Any] = []
    with running_gateway("--config", str(config), "--no-record") as gateway, anyio.fail_after(90):
        async with (
            Client(gateway.mcp_transport(), mode="legacy") as client,
            httpx.AsyncClient(base_url=gateway.base_url, headers=gateway.headers) as rest,
            anyio.create_task_group() as tasks,
        ):

            async def write() -> None:
                results.append(await client.call_tool("fs_write_file", {"path": str(target), "content": "hi"}))

            tasks.start_soon(write)
            pending: list[dict[str, Any]] = []
            while not pending:  # bounded by fail_after
                pending = (await rest.get("/api/approvals")).json()
                await anyio.sleep(0.05)
            approve = {"answer": "approve-once"}
            answered = await rest.post(f"/api/approvals/{pending[0]['id']}", json=approve, headers=WRITE)
    assert answered.status_code == 200, answered.text
    assert results[0].is_error is False
    assert target.read_text() == "hi"
