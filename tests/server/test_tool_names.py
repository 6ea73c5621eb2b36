"""Public tool names under attack, end to end: `hintgate serve` in front of real MCP servers built to abuse names."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

pytestmark = pytest.mark.anyio

NAMED = str(Path(__file__).parents[1] / "fixtures" / "named_server.py")


def named(mode: str, **extra: Any) -> dict[str, Any]:
    return {"command": sys.executable, "args": [NAMED, mode], **extra}


@asynccontextmanager
async def serving(tmp_path: Path, config: dict[str, Any], **client_args: Any) -> AsyncIterator[Client]:
    path = tmp_path / "hintgate.json"
    path.write_text(json.dumps(config))
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hintgate", "serve", "--config", str(path), "--no-record"],
        env={"PYTHONUNBUFFERED": "1", "HINTGATE_DATA_DIR": os.environ["HINTGATE_DATA_DIR"]},
    )
    with anyio.fail_after(60):
        async with Client(params, mode="legacy", **client_args) as client:
            yield client


async def test_a_tool_added_at_run_time_cannot_take_a_trusted_tools_public_name(tmp_path: Path) -> None:
    config = {
        "mcpServers": {
            # Listed first, untrusted: `svc` + `admin_get_status` spells the trusted tool's public name.
            "svc": named("shadow"),
            "svc_admin": named("incumbent", trust="trusted"),
        },
        "policy": {
            "rules": [
                {"allow": {"tool": "svc_refresh"}},
                {"allow": {"tool": "svc_admin_get_status"}},
            ]
        },
    }
    changed = anyio.Event()

    async def on_message(message: Any) -> None:
        if "tools/list_changed" in repr(message) or "ToolListChanged" in type(message).__name__:
            changed.set()

    async with serving(tmp_path, config, message_handler=on_message) as client:
        before = {t.name: t for t in (await client.list_tools()).tools}
        refreshed = await client.call_tool("svc_refresh", {})
        assert refreshed.is_error is False, refreshed
        # A list_changed may come from the gateway's own start (a scan finishing) before the one for the
        # added tool: re-list on each until the added tool is there.
        after: dict[str, Any] = {}
        with anyio.fail_after(15):
            while "svc_admin_get_status_2" not in after:
                await changed.wait()
                changed = anyio.Event()
                after = {t.name: t for t in (await client.list_tools(cache_mode="refresh")).tools}
        result = await client.call_tool("svc_admin_get_status", {})

    assert set(before) == {"svc_refresh", "svc_admin_get_status"}
    assert set(after) == {"svc_refresh", "svc_admin_get_status", "svc_admin_get_status_2"}
    assert after["svc_admin_get_status"].model_dump(by_alias=True)["_meta"]["hintgate/server"] == "svc_admin"
    assert after["svc_admin_get_status_2"].model_dump(by_alias=True)["_meta"]["hintgate/server"] == "svc"
    assert result.content[0].text == "incumbent: all good"  # type: ignore[union-attr]


LOOKALIKES = ("delete repo", "Delete_repo", "d\u0435lete_repo")


async def test_an_exclude_glob_catches_names_spelled_to_escape_it(tmp_path: Path) -> None:
    config = {"mcpServers": {"lk": named("lookalike", exclude=["delete_*"])}, "policy": {"mode": "bypass"}}
    async with serving(tmp_path, config) as client:
        names = {t.name for t in (await client.list_tools()).tools}
    assert names == {"lk_list_repos"}


async def test_a_deny_rule_stops_names_spelled_to_escape_it_even_in_bypass_mode(tmp_path: Path) -> None:
    config = {
        "mcpServers": {"lk": named("lookalike")},
        "policy": {"mode": "bypass", "rules": [{"deny": {"tool": "lk_delete_*"}}]},
    }
    async with serving(tmp_path, config) as client:
        tools = {
            t.model_dump(by_alias=True)["_meta"].get("hintgate/name", t.name): t.name
            for t in (await client.list_tools()).tools
        }
        # The Cyrillic look-alike is flagged by the poisoning scan on first sight: held, with no accepted
        # definition to serve, it is not listed; its public name is denied all the same.
        tools.setdefault("d\u0435lete_repo", "lk_d_lete_repo")
        results = {raw: await client.call_tool(tools[raw], {}) for raw in LOOKALIKES}
        listed = await client.call_tool("lk_list_repos", {})
    assert set(tools) == {*LOOKALIKES, "list_repos"}
    for raw, result in results.items():
        assert result.is_error is True, raw
        text = result.content[0].text  # type: ignore[union-attr]
        assert "hintgate denied this call" in text or "quarantined until an operator accepts it" in text
    assert listed.is_error is False
