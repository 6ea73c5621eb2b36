"""Runtime server changes in the store: one per server, replaced, cleared, validated."""

from __future__ import annotations

import pytest

from hintgate.errors import StoreError
from hintgate.store import Store

pytestmark = pytest.mark.anyio


async def test_a_server_change_is_kept_replaced_and_cleared(store: Store) -> None:
    entry = {"command": "uvx", "args": ["mcp-server-time"], "env": {"TOKEN": "${TOKEN}"}}
    await store.set_server_change("time", "add", entry, actor="api")
    await store.set_server_change("fs", "disable", None, actor="cli")
    await store.set_server_change("time", "disable", entry, actor="dashboard")
    rows = await store.server_changes()
    assert [(r["name"], r["action"], r["config"], r["changed_by"]) for r in rows] == [
        ("fs", "disable", None, "cli"),
        ("time", "disable", entry, "dashboard"),
    ]
    assert rows[0]["changed_at"] <= rows[1]["changed_at"]
    assert await store.clear_server_change("time") == 1
    assert await store.clear_server_change("time") == 0
    assert [r["name"] for r in await store.server_changes()] == ["fs"]


async def test_an_unknown_action_or_an_empty_name_is_refused(store: Store) -> None:
    with pytest.raises(StoreError, match="unknown server change 'rename'"):
        await store.set_server_change("time", "rename", None)
    with pytest.raises(StoreError, match="needs a server name"):
        await store.set_server_change("", "remove", None)
    assert await store.server_changes() == []
