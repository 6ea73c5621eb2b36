"""`hintgate trust SERVER` against a running gateway: the step an ask's reason names, and what it changes."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client
from tests.asking import Person

from hintgate.testing import running_gateway

pytestmark = pytest.mark.anyio


async def test_an_untrusted_servers_read_asks_naming_hintgate_trust_and_runs_unasked_once_trusted(
    tmp_path: Path, demo_cmd: list[str]
) -> None:
    config = tmp_path / "hintgate.json"
    servers = {"notes": {"command": demo_cmd[0], "args": demo_cmd[1:], "trust": "untrusted"}}
    config.write_text(json.dumps({"mcpServers": servers}))
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data")}
    db = f"sqlite:///{tmp_path / 'store.db'}"
    person = Person()
    with running_gateway("--config", str(config), "--db", db, env=env) as gateway, anyio.fail_after(120):
        noted = [line.rstrip() for line in gateway.log if "server notes: untrusted (set in the config file): " in line]
        assert noted, gateway.log
        assert noted[0].endswith("hintgate trust notes")
        async with Client(gateway.mcp_transport(), mode="legacy", elicitation_callback=person) as client:  # type: ignore[arg-type]
            asked = await client.call_tool("notes_search_notes", {"query": "milk"})
            assert asked.is_error is True
            [question] = person.asked
            assert question.rstrip().endswith("To believe the hints its server declares: hintgate trust notes.")

        argv = [sys.executable, "-m", "hintgate", "trust", "notes", "--url", gateway.base_url]
        done = await anyio.run_process(argv, env={**os.environ, **env, "COLUMNS": "100"}, check=False)
        output = (done.stdout + done.stderr).decode()
        assert done.returncode == 0, output
        assert "trust trusted: server 'notes': up" in output

        async with Client(gateway.mcp_transport(), mode="legacy", elicitation_callback=person) as client:  # type: ignore[arg-type]
            found = await client.call_tool("notes_search_notes", {"query": "milk"})
        assert found.is_error is False, found.content
        assert len(person.asked) == 1


def test_an_unknown_trust_level_is_a_usage_error() -> None:
    from typer.testing import CliRunner

    from hintgate.cli.app import app

    result = CliRunner().invoke(app, ["trust", "notes", "--url", "http://127.0.0.1:9", "--level", "sure"])
    assert result.exit_code == 2
    assert "--level 'sure': expected one of trusted, local, untrusted" in result.output
