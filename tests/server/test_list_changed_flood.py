"""A server that changes its tools in a loop: listings coalesced, history counted, clients told at a bounded rate."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from hintgate.store import Store
from hintgate.testing import running_gateway

pytestmark = pytest.mark.anyio

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "flipping_server.py"
FLOOD_SECONDS = 4.0


async def test_a_server_flipping_its_tool_in_a_loop_costs_a_listing_a_second_two_history_lines_and_few_notifications(
    tmp_path: Path,
) -> None:
    db = tmp_path / "history.db"
    config = tmp_path / "hintgate.json"
    config.write_text(
        json.dumps({
            "mcpServers": {"flip": {"command": sys.executable, "args": [str(FIXTURE)]}},
            "policy": {"mode": "bypass"},
        })
    )  # fmt: skip
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data"), "HINTGATE_API_TOKEN": "flood-test-token-" + "0" * 16}
    told = 0

    async def on_message(message: Any) -> None:
        nonlocal told
        if "ToolListChanged" in type(message).__name__ or "tools/list_changed" in repr(message):
            told += 1

    with running_gateway("--config", str(config), "--db", f"sqlite:///{db}", env=env) as gateway:
        with anyio.fail_after(120):
            headers = {"Authorization": f"Bearer {env['HINTGATE_API_TOKEN']}"}
            async with (
                _client(gateway.mcp_url, headers, on_message) as idle,
                _client(gateway.mcp_url, headers, None) as caller,
            ):
                await idle.list_tools()
                began = time.monotonic()
                flipped = await caller.call_tool("flip_flip", {"seconds": FLOOD_SECONDS})
                sent = int(flipped.content[0].text.split()[1])  # type: ignore[union-attr]
                # The last listing wins: the tool added after the flood is served, within a bounded wait.
                while "flip_flipped" not in {t.name for t in (await caller.list_tools(cache_mode="refresh")).tools}:
                    await anyio.sleep(0.1)
                elapsed = time.monotonic() - began
    async with await Store.open(f"sqlite:///{db}", recover=False) as store:
        history = await store.pins.history("flip", "get_report", limit=10_000)
    print(
        f"flood: {sent} list_changed upstream in {elapsed:.1f} s; {len(history)} history lines "
        f"({sum(e.get('repeats', 1) for e in history)} events); {told} told to the idle client"
    )
    assert sent > 100, "the flood was too small to judge"
    # One listing a second at most: each change is a history line only the first time, then a count on it.
    assert len(history) <= 4, [(e["kind"], e.get("repeats", 1)) for e in history]
    assert sum(e.get("repeats", 1) for e in history) <= elapsed + 3
    # The idle client is told at most once a second, not once per upstream notification.
    assert 1 <= told <= elapsed + 3, (told, sent, elapsed)


def _client(url: str, headers: dict[str, str], on_message: Any) -> Any:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    class _Session:
        async def __aenter__(self) -> Client:
            self._http = httpx2.AsyncClient(headers=headers, timeout=60)
            await self._http.__aenter__()
            self._client = Client(
                streamable_http_client(url, http_client=self._http),  # type: ignore[arg-type]
                mode="legacy",
                message_handler=on_message,
            )
            return await self._client.__aenter__()

        async def __aexit__(self, *exc: object) -> None:
            await self._client.__aexit__(*exc)
            await self._http.__aexit__(*exc)

    return _Session()
