"""A gateway entered with its stored state read ahead: it lists at once, and calls wait for the store it is given."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from tests import tools

from hintgate.config.loading import parse_config
from hintgate.server.gateway import Gateway
from hintgate.store import RecordingSettings, Store
from hintgate.stored_state import read_stored_state
from hintgate.testing import FakeSource

pytestmark = pytest.mark.anyio


def _source() -> FakeSource:
    return FakeSource("s", tools=[tools.tool("get", "Get it.")], handlers={"get": lambda _args: "got"})


async def test_a_call_made_before_the_store_is_given_waits_then_runs_under_what_the_store_holds_and_is_recorded(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'hintgate.db'}"
    async with await Store.open(url, RecordingSettings(commit_interval=0.01), replica="test") as store:
        await store.overrides.set_title("s_get", "Get it, as read ahead", actor="op")
        early = read_stored_state(url)
        assert early is not None
        # Written after the read ahead (another gateway, the CLI): taken before the first call runs.
        await store.overrides.set_title("s_get", "Get it, as changed meanwhile", actor="op")
        config = parse_config({"mcpServers": {}, "policy": {"mode": "bypass"}})
        gateway = Gateway(config, sources={"s": _source()}, early=early)
        async with gateway:
            assert gateway.catalog.entries["s_get"].tool.title == "Get it, as read ahead"
            assert not gateway.first_answer.ready
            results: list[dict[str, object]] = []

            async def call() -> None:
                results.append(await gateway.call_tool(None, {"name": "s_get", "arguments": {}}))

            with anyio.fail_after(30):
                async with anyio.create_task_group() as group:
                    group.start_soon(call)
                    await anyio.wait_all_tasks_blocked()
                    assert results == []  # held: no store yet
                    assert await store.calls() == []
                    await gateway.attach_store(store)
                    assert gateway.first_answer.ready
                    assert gateway.catalog.entries["s_get"].tool.title == "Get it, as changed meanwhile"
            assert results[0]["isError"] is False
        [recorded] = await store.calls()
        pins = await store.pins.all()
    assert recorded["tool_name"] == "s_get"
    assert [p.key for p in pins] == [("s", "get")]  # the first listing's pin, written once the store came


async def test_pins_changed_in_the_store_after_the_read_ahead_are_the_ones_the_gateway_keeps(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'hintgate.db'}"
    async with await Store.open(url, replica="test") as store:
        async with Gateway(parse_config({"mcpServers": {}}), sources={"s": _source()}, store=store):
            pass  # pins s/get as it is listed
        early = read_stored_state(url)
        assert early is not None
        [pin] = await store.pins.all()
        await store.pins.save([pin.accept(actor="op", at=pin.last_seen_at)], [])  # an operator reviewed it
        gateway = Gateway(parse_config({"mcpServers": {}}), sources={"s": _source()}, early=early)
        async with gateway:
            assert not gateway.pins.by_key[("s", "get")].reviewed  # as read ahead: trusted on first use
            await gateway.attach_store(store)
            assert gateway.pins.by_key[("s", "get")].reviewed  # as the store holds it now
        stored = await store.pins.all()
    assert [p.reviewed for p in stored] == [True]
