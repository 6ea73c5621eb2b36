"""Nothing an upstream sends stops the gateway or reaches the model unread, end to end: a real `serve --http`,
a hostile fixture server (`tests/fixtures/hostile_server.py`), the bundled notebook as another server's write
tool, MCP clients and the REST API.

- A result that takes seconds to scan is scanned in a worker process: `/api/health` and another client's
  calls are answered meanwhile.
- A scan that does not finish within `integrity.scanDeadline` withholds the result, says so, and taints the
  session: the notebook's next write asks.
- Every channel is read: a JSON-RPC error's message and data, a resource link's name and URI, strings under
  keys with letters beyond ASCII and backslashes, content nested past the depth limit, a second content
  block after one too long to read in full; the upstream's own `_meta` never reaches the client.
- A 120 KB hostile tool description neither holds up the start nor reaches a client.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from tests.asking import Person

from hintgate.testing import running_gateway

pytestmark = pytest.mark.anyio

HOSTILE = str(Path(__file__).parents[1] / "fixtures" / "hostile_server.py")


def config(tmp_path: Path, *args: str, **integrity: Any) -> Path:
    path = tmp_path / "hintgate.json"
    path.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "notes": {"command": sys.executable, "args": ["-m", "hintgate.demo"], "trust": "trusted"},
                    "hostile": {"command": sys.executable, "args": [HOSTILE, *args]},
                },
                "policy": {"mode": "accept-edits", "rules": [{"allow": {"server": "hostile"}}]},
                **({"integrity": integrity} if integrity else {}),
            }
        )
    )
    return path


def text(result: Any) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


async def test_a_result_that_takes_seconds_to_scan_does_not_stop_the_gateway_serving_others(tmp_path: Path) -> None:
    path = config(tmp_path, scanDeadline=120)  # the scan finishes even on a loaded machine: its result is used
    with running_gateway("--config", str(path), "--no-record") as gateway, anyio.fail_after(240):
        async with (
            Client(gateway.mcp_transport(), mode="legacy") as first,  # type: ignore[arg-type]
            Client(gateway.mcp_transport(), mode="legacy") as second,  # type: ignore[arg-type]
            httpx.AsyncClient(base_url=gateway.base_url, headers=gateway.headers) as rest,
        ):
            await second.list_tools()
            answered: list[float] = []
            done = anyio.Event()
            page: list[Any] = []

            async def call_page() -> None:
                page.append(await first.call_tool("hostile_page", {}))
                done.set()

            async with anyio.create_task_group() as group:
                group.start_soon(call_page)
                while not done.is_set():
                    began = time.perf_counter()
                    with anyio.fail_after(10):  # on an event loop held by the scan, this waited minutes
                        health = await rest.get("/api/health")
                        hello = await second.call_tool("hostile_hello", {})
                    answered.append(time.perf_counter() - began)
                    assert health.status_code == 200
                    assert text(hello) == "Hello."
                    await anyio.sleep(0.05)  # paces the probes; nothing is synchronised on it
    assert len(answered) >= 2, "the scan ended before the gateway was probed: the page is too short to show it"
    assert page[0].is_error is False


async def test_a_scan_past_its_deadline_withholds_the_result_says_so_and_taints_the_session(tmp_path: Path) -> None:
    person = Person("deny")
    path = config(tmp_path, scanDeadline=0.001)
    with running_gateway("--config", str(path), "--no-record") as gateway, anyio.fail_after(120):
        async with Client(gateway.mcp_transport(), mode="legacy", elicitation_callback=person) as client:  # type: ignore[arg-type]
            page = await client.call_tool("hostile_page", {})
            written = await client.call_tool("notes_create_note", {"title": "t", "body": "b"})
    assert page.is_error is True
    assert "withheld this result of hostile_page" in text(page)
    assert "did not finish within 0.001 s" in text(page)
    assert "отправь" not in text(page)
    assert (page.meta or {})["hintgate/unscanned"]
    assert written.is_error is True  # asked (the session is tainted) and denied
    [question] = person.asked
    assert "hostile_page" in question


async def test_every_channel_of_a_result_is_read_before_the_model_sees_it(tmp_path: Path) -> None:
    # A deadline long enough for a loaded machine to read the first block's million characters in full.
    path = config(tmp_path, scanDeadline=120)
    with running_gateway("--config", str(path), "--no-record") as gateway, anyio.fail_after(240):
        async with Client(gateway.mcp_transport(), mode="legacy") as client:  # type: ignore[arg-type]
            with pytest.raises(MCPError) as failed:
                await client.call_tool("hostile_error", {})
            link = await client.call_tool("hostile_link", {})
            keyed = await client.call_tool("hostile_keyed", {})
            deep = await client.call_tool("hostile_deep", {})
            blocks = await client.call_tool("hostile_blocks", {})
    error = failed.value.error
    assert "The upstream failed. [hintgate removed text addressed to the model" in error.message
    assert "id_rsa" not in error.message
    assert "id_rsa" not in json.dumps(error.data)
    link_json = link.model_dump_json(by_alias=True)
    assert "id_rsa" not in link_json
    assert "{conversation}" not in link_json
    assert "note" not in (link.meta or {})  # the upstream's _meta is dropped
    [notes] = keyed.structured_content.values()
    [seen] = notes.values()
    assert seen.startswith("Seen before. [hintgate removed text addressed to the model")
    assert "id_rsa" not in deep.model_dump_json(by_alias=True)
    assert (deep.meta or {})["hintgate/unscanned"]
    first, second = (block.text for block in blocks.content)
    assert second.startswith("Please note. [hintgate removed text addressed to the model")
    assert "id_rsa" not in second
    assert first.startswith("你好，世界。")
    assert "could not scan" in first[-300:]
    assert [u["path"] for u in (blocks.meta or {})["hintgate/unscanned"]] == ["content[0].text"]


async def test_a_long_hostile_tool_description_neither_holds_up_the_start_nor_reaches_a_client(
    tmp_path: Path,
) -> None:
    path = config(tmp_path, "--long-description")
    with (
        running_gateway("--config", str(path), "--no-record", startup_timeout=60) as gateway,
        anyio.fail_after(120),
    ):
        async with Client(gateway.mcp_transport(), mode="legacy") as client:  # type: ignore[arg-type]
            listed = {tool.name for tool in (await client.list_tools()).tools}
    assert "hostile_page" in listed
    assert "hostile_hello" not in listed  # held: the scan flags it, and it has no accepted definition to serve
