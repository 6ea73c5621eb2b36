"""Policy settings changed at run time, on SQLite and PostgreSQL: kept in the store over the config file.

They outlast a restart, reach another gateway sharing the store (PostgreSQL
wakes it with a notification, SQLite by its poll: both then re-read the
store), and a reset puts the file's value back.
"""

from __future__ import annotations

import asyncio
import linecache
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import pytest

from hintgate.config.loading import parse_config
from hintgate.errors import StoreError
from hintgate.policy.rules import Mode
from hintgate.server.gateway import Gateway
from hintgate.server.overrides import StoredOverrides
from hintgate.store import RecordingSettings, Store
from hintgate.store.notify import OVERRIDES
from hintgate.testing import FakeSource

pytestmark = pytest.mark.anyio

TOOLS = [{"name": "read_it", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}}]


@asynccontextmanager
async def gateway_on(url: str, policy: dict[str, Any], replica: str = "r1") -> AsyncIterator[Gateway]:
    """A gateway over one fake server whose config file's policy is `policy`, on the store at `url`."""
    async with await Store.open(url, RecordingSettings(commit_interval=0.01), replica=replica) as store:
        config = parse_config({"mcpServers": {}, "policy": policy})
        async with Gateway(config, store=store, sources={"s": FakeSource("s", tools=TOOLS)}) as gateway:
            yield gateway


async def test_policy_settings_are_stored_replaced_and_cleared_each_change_bumping_the_version(store: Store) -> None:
    start = await store.overrides.version()
    await store.overrides.set_policy_settings({"mode": "read-only", "preferences.showHintWarnings": False}, actor="api")
    await store.overrides.set_policy_settings({"mode": "accept-edits"}, actor="dashboard")
    rows = {r["setting"]: (r["value"], r["updated_by"]) for r in await store.overrides.policy_settings()}
    assert rows == {"mode": ("accept-edits", "dashboard"), "preferences.showHintWarnings": (False, "api")}
    assert await store.overrides.clear_policy_settings(["mode"]) == 1
    assert await store.overrides.clear_policy_settings() == 1
    assert await store.overrides.policy_settings() == []
    assert await store.overrides.version() == start + 4


async def test_an_unknown_policy_setting_is_refused_and_nothing_is_stored(store: Store) -> None:
    with pytest.raises(StoreError, match="unknown policy setting 'moed'"):
        await store.overrides.set_policy_settings({"moed": "bypass"})
    assert await store.overrides.policy_settings() == []


async def test_a_mode_changed_at_run_time_outlasts_a_restart_and_a_reset_brings_back_the_files(
    store_url: str,
) -> None:
    with anyio.fail_after(60):
        async with gateway_on(store_url, {"mode": "accept-edits"}) as gateway:
            await gateway.policy.set({"mode": "read-only", "preferences.autoApproveReadOnly": False}, actor="api")
            assert gateway.calls.settings.mode is Mode.READ_ONLY
        async with gateway_on(store_url, {"mode": "accept-edits"}) as restarted:
            assert restarted.calls.settings.mode is Mode.READ_ONLY
            assert restarted.calls.settings.auto_approve_read_only is False
            assert restarted.policy.file_settings.mode is Mode.ACCEPT_EDITS
            assert await restarted.policy.reset(["mode"], actor="cli") == ["mode"]
            assert restarted.calls.settings.mode is Mode.ACCEPT_EDITS
            assert restarted.calls.settings.auto_approve_read_only is False  # not reset: still stored
        async with gateway_on(store_url, {"mode": "accept-edits"}) as again:
            assert again.calls.settings.mode is Mode.ACCEPT_EDITS


async def test_a_value_equal_to_the_files_is_not_kept_so_the_setting_follows_the_file_again(store_url: str) -> None:
    with anyio.fail_after(60):
        async with gateway_on(store_url, {"mode": "accept-edits"}) as gateway:
            await gateway.policy.set({"mode": "bypass"}, actor="api")
            assert set(gateway.overrides.policy) == {"mode"}
            await gateway.policy.set({"mode": "acceptEdits"}, actor="api")  # the file's, spelled otherwise
            assert gateway.overrides.policy == {}
            assert gateway.store is not None
            assert await gateway.store.overrides.policy_settings() == []


async def test_a_bad_value_changes_nothing(store_url: str) -> None:
    with anyio.fail_after(60):
        async with gateway_on(store_url, {}) as gateway:
            with pytest.raises(ValueError, match=r"preferences\.showHintWarnings: expected true or false"):
                await gateway.policy.set({"mode": "bypass", "preferences.showHintWarnings": "yes"}, actor="api")
            assert gateway.calls.settings.mode is Mode.DEFAULT
            assert gateway.store is not None
            assert await gateway.store.overrides.policy_settings() == []


async def test_a_change_made_on_one_gateway_reaches_another_sharing_the_store(store_url: str) -> None:
    with anyio.fail_after(60):
        async with gateway_on(store_url, {}, "r1") as one, gateway_on(store_url, {}, "r2") as two:
            await one.policy.set({"mode": "read-only"}, actor="dashboard")
            while two.calls.settings.mode is not Mode.READ_ONLY:  # bounded by fail_after
                await anyio.sleep(0.05)
            await one.policy.reset(None, actor="dashboard")
            while two.calls.settings.mode is not Mode.DEFAULT:
                await anyio.sleep(0.05)


async def test_the_stored_setting_stays_over_a_reloaded_config_file(store_url: str) -> None:
    with anyio.fail_after(60):
        async with gateway_on(store_url, {"mode": "default"}) as gateway:
            await gateway.policy.set({"mode": "read-only"}, actor="api")
            reloaded = parse_config({"mcpServers": {}, "policy": {"mode": "accept-edits", "approvalTimeout": 7}})
            await gateway.apply_config(reloaded)
            assert gateway.calls.settings.mode is Mode.READ_ONLY
            assert gateway.calls.settings.approval_timeout == 7
            await gateway.policy.reset(None, actor="api")
            assert gateway.calls.settings.mode is Mode.ACCEPT_EDITS


def waiting_for_a_change(task: asyncio.Task[None]) -> bool:
    """Whether a gateway's overrides follower is suspended in its wait for a notified change (not in a read)."""
    frames = task.get_stack()
    return bool(frames) and "changed.wait()" in linecache.getline(frames[-1].f_code.co_filename, frames[-1].f_lineno)


async def test_a_gateway_stops_though_a_change_is_notified_just_as_it_stops(store_url: str) -> None:
    with anyio.fail_after(60):
        async with gateway_on(store_url, {}) as gateway:
            assert gateway.store is not None
            notifications = gateway.store.notifications
            if not notifications.available:
                pytest.skip("only PostgreSQL notifies a change; SQLite's gateways poll")
            follower = next(task for task in asyncio.all_tasks() if task.get_name() == "overrides")
            while not waiting_for_a_change(follower):  # bounded by fail_after
                await anyio.sleep(0.01)
            notifications._dispatch(None, 0, OVERRIDES, "")  # a change notified...
            follower.cancel()  # ...as the gateway stops following: in one step of the loop
            await asyncio.wait((follower,), timeout=10)
            assert follower.cancelled()


async def test_a_reread_of_the_store_that_overlaps_a_change_made_here_does_not_undo_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    overrides = StoredOverrides(store)
    await store.overrides.set_policy_settings({"mode": "read-only"}, actor="another replica")
    read = store.overrides.person_preferences
    reading, answered = asyncio.Event(), asyncio.Event()

    async def answered_late() -> list[dict[str, Any]]:  # the re-read's last table comes back late
        rows = await read()
        reading.set()
        await answered.wait()
        return rows

    monkeypatch.setattr(store.overrides, "person_preferences", answered_late)
    with anyio.fail_after(30):
        follower = asyncio.get_running_loop().create_task(overrides.changed_elsewhere())
        await reading.wait()
        reset = asyncio.get_running_loop().create_task(overrides.apply_policy({}, ["mode"], actor="api"))
        await asyncio.wait((reset,), timeout=1)  # the reset here, done at once unless it waits its turn
        answered.set()
        await asyncio.gather(follower, reset)
        assert overrides.policy == {}
        assert await store.overrides.policy_settings() == []
        assert not await overrides.changed_elsewhere()  # what is held here is the store's latest
