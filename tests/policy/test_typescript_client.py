"""The TypeScript SDK's client, which cannot be asked, against `hintgate serve --http` and npm's server-filesystem.

`tests/peers/ts_client.mjs` (on npm's `@modelcontextprotocol/sdk`) declares
no elicitation, so a write waits in the approval queue: approved through the
REST API or with `hintgate approvals approve` from another terminal (against
the same `--db`), it runs and the client gets its result; when the client's request
times out first (the SDK then cancels it), the approval is withdrawn and the
file is never written.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.waiting import until as poll_until

from hintgate.testing import RunningGateway, running_gateway
from isolation import child_env

PEERS = Path(__file__).resolve().parents[1] / "peers"
SCRIPT = PEERS / "ts_client.mjs"
WRITE = {"X-Hintgate-Request": "1"}
WAIT = 60.0  # seconds any one step may take
until = partial(poll_until, within=WAIT)  # bounded polls: see tests.waiting


@pytest.fixture
def node() -> str:
    found = shutil.which("node")
    if found is None or not (PEERS / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        if os.environ.get("CI"):
            pytest.fail("node and tests/peers/node_modules are needed: scripts/test installs them")
        pytest.skip("node or the TypeScript MCP SDK is missing (run scripts/test)")
    return found


@contextmanager
def gateway(tmp_path: Path, filesystem_cmd: list[str]) -> Iterator[RunningGateway]:
    """`serve --http` over server-filesystem, recording to its own database; writes ask."""
    config = tmp_path / "hintgate.json"
    fs = {"command": filesystem_cmd[0], "args": filesystem_cmd[1:]}
    config.write_text(json.dumps({"mcpServers": {"fs": fs}, "policy": {"mode": "default"}}))
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data")}
    with running_gateway("--config", str(config), "--db", f"sqlite:///{tmp_path / 'h.db'}", env=env) as running:
        yield running


@contextmanager
def ts_client(node: str, running: RunningGateway, arguments: dict[str, Any], *timeout_ms: str) -> Iterator[Any]:
    """The TypeScript client calling fs_write_file, running in the background."""
    command = [node, str(SCRIPT), running.mcp_url, "fs_write_file", json.dumps(arguments), *timeout_ms]
    env = {**os.environ, "NODE_NO_WARNINGS": "1", **({"MCP_BEARER_TOKEN": running.token} if running.token else {})}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=WAIT)


def printed(process: Any) -> dict[str, Any]:
    """What the client printed, once it exits (bounded)."""
    out, err = process.communicate(timeout=WAIT)
    assert process.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_a_typescript_client_without_elicitation_gets_its_result_once_approved_over_rest(
    tmp_path: Path, node: str, filesystem_cmd: list[str]
) -> None:
    target = Path(filesystem_cmd[-1]) / "from-ts.txt"
    arguments = {"path": str(target), "content": "written by the TypeScript SDK"}
    with (
        gateway(tmp_path, filesystem_cmd) as running,
        httpx.Client(base_url=running.base_url, headers=running.headers, timeout=WAIT) as rest,
        ts_client(node, running, arguments) as process,
    ):
        [pending] = until(lambda: rest.get("/api/approvals").json(), "the call waits for approval")
        assert not target.exists()
        answered = rest.post(f"/api/approvals/{pending['id']}", json={"answer": "approve-once"}, headers=WRITE)
        output = printed(process)
    assert pending["tool"] == "fs_write_file"
    assert pending["client_name"] == "ts-sdk-test"
    assert answered.status_code == 200, answered.text
    assert "error" not in output, output
    assert output["result"].get("isError") in (None, False)
    assert "Successfully wrote" in output["result"]["content"][0]["text"]
    assert target.read_text() == "written by the TypeScript SDK"


def test_a_typescript_client_gets_its_result_once_the_call_is_approved_with_the_cli_against_the_same_db(
    tmp_path: Path, node: str, filesystem_cmd: list[str]
) -> None:
    target = Path(filesystem_cmd[-1]) / "from-ts-cli.txt"
    arguments = {"path": str(target), "content": "approved from a terminal"}
    db = f"sqlite:///{tmp_path / 'h.db'}"
    with (
        gateway(tmp_path, filesystem_cmd) as running,
        httpx.Client(base_url=running.base_url, headers=running.headers, timeout=WAIT) as rest,
        ts_client(node, running, arguments) as process,
    ):
        [pending] = until(lambda: rest.get("/api/approvals").json(), "the call waits for approval")
        assert not target.exists()
        answered = subprocess.run(
            [sys.executable, "-m", "hintgate", "approvals", "approve", pending["id"][:8], "--db", db],
            capture_output=True,
            text=True,
            timeout=WAIT,
            env={**os.environ, **child_env()},
            check=False,
        )
        output = printed(process)
    assert answered.returncode == 0, answered.stderr
    assert "approved once" in answered.stdout
    assert "error" not in output, output
    assert output["result"].get("isError") in (None, False)
    assert "Successfully wrote" in output["result"]["content"][0]["text"]
    assert target.read_text() == "approved from a terminal"


def test_when_the_typescript_clients_request_times_out_its_approval_is_withdrawn_and_nothing_is_written(
    tmp_path: Path, node: str, filesystem_cmd: list[str]
) -> None:
    target = Path(filesystem_cmd[-1]) / "too-late.txt"
    arguments = {"path": str(target), "content": "nobody waits for this"}
    with (
        gateway(tmp_path, filesystem_cmd) as running,
        httpx.Client(base_url=running.base_url, headers=running.headers, timeout=WAIT) as rest,
    ):
        with ts_client(node, running, arguments, "2000") as process:
            output = printed(process)

        def recorded() -> list[dict[str, Any]]:
            return rest.get("/api/calls", params={"tool": "fs_write_file"}).json()  # type: ignore[no-any-return]

        [call] = until(recorded, "the withdrawn call is recorded")
        still_pending = rest.get("/api/approvals").json()
    assert output["error"]["code"] == -32001  # the SDK's request timeout
    assert call["verdict"] == "withdrawn"
    assert call["decision"]["approval"] == "withdrawn"
    assert still_pending == []
    assert not target.exists()
