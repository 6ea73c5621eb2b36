"""Stored confirm settings, on SQLite and PostgreSQL: set, replaced, cleared, versioned; bad ones refused."""

from __future__ import annotations

import pytest

from hintgate.errors import StoreError
from hintgate.store import Store

pytestmark = pytest.mark.anyio


async def test_a_confirm_setting_is_set_replaced_and_cleared_each_change_bumping_the_version(store: Store) -> None:
    start = await store.overrides.version()
    await store.overrides.set_confirm("notes_delete_*", "always", actor="api")
    await store.overrides.set_confirm("notes_delete_*", "first", actor="dashboard")
    rows = await store.overrides.confirms()
    assert [(r["tool"], r["confirm"], r["updated_by"]) for r in rows] == [("notes_delete_*", "first", "dashboard")]
    assert await store.overrides.clear_confirm("notes_delete_*") == 1
    assert await store.overrides.clear_confirm("notes_delete_*") == 0
    assert await store.overrides.confirms() == []
    assert await store.overrides.version() == start + 3


@pytest.mark.parametrize(("tool", "confirm", "message"), [("", "always", "tool name"), ("t", "often", "'often'")])
async def test_a_bad_confirm_setting_is_refused_and_nothing_is_stored(
    store: Store, tool: str, confirm: str, message: str
) -> None:
    with pytest.raises(StoreError, match=message):
        await store.overrides.set_confirm(tool, confirm)
    assert await store.overrides.confirms() == []
