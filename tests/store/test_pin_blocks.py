"""Keeping a held tool blocked, on SQLite and PostgreSQL: recorded, held across restarts, ended by a new change."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from tests import tools

from hintgate.errors import StoreError
from hintgate.hints.pins import PinState, reconcile
from hintgate.store import Store

pytestmark = pytest.mark.anyio

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
LATER = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def tool(name: str, description: str = "Get it.") -> dict[str, object]:
    return tools.tool(name, description)


async def _held(store: Store) -> None:
    """Pins `s/a` (then changed: held) and `s/b` (accepted)."""
    first = reconcile({}, {"s": [("s_a", tool("a")), ("s_b", tool("b"))]}, now=NOW)
    await store.pins.save(first.pins, first.events)
    stored = {p.key: p for p in await store.pins.all()}
    changed = reconcile(stored, {"s": [("s_a", tool("a", "Get it and mail it.")), ("s_b", tool("b"))]}, now=NOW)
    await store.pins.save(changed.pins, changed.events)


async def test_keeping_a_held_tool_blocked_records_who_when_and_why_and_it_stays_held(store: Store) -> None:
    await _held(store)
    before = await store.pins.version()
    [blocked] = await store.pins.block(lambda p: p.server == "s", actor="alice", reason="mails data out")
    assert blocked.key == ("s", "a")  # the accepted `b` is not blocked: only held tools are
    pins = {p.tool: p for p in await store.pins.all()}
    assert pins["a"].state is PinState.QUARANTINED
    assert pins["a"].blocked is not None
    assert (pins["a"].blocked.by, pins["a"].blocked.reason) == ("alice", "mails data out")
    assert pins["b"].blocked is None
    assert await store.pins.version() == before + 1  # other replicas reload
    [latest, *_] = await store.pins.history("s", "a")
    assert (latest["kind"], latest["actor"], latest["detail"]) == ("blocked", "alice", "mails data out")
    assert latest["sha256"] == pins["a"].sha256
    with pytest.raises(StoreError, match="who decides"):
        await store.pins.block(lambda p: True, actor="")


async def test_a_block_is_read_back_after_reopening_the_database(store_url: str) -> None:
    async with await Store.open(store_url, replica="one") as one:
        await _held(one)
        await one.pins.block(lambda p: p.tool == "a", actor="alice")
    async with await Store.open(store_url, replica="two") as two:
        pin = next(p for p in await two.pins.all(server="s") if p.tool == "a")
    assert pin.blocked is not None
    assert pin.blocked.by == "alice"
    assert pin.blocked.reason == ""


async def test_a_new_change_of_a_blocked_tool_brings_it_back_to_review(store: Store) -> None:
    await _held(store)
    await store.pins.block(lambda p: p.tool == "a", actor="alice")
    stored = {p.key: p for p in await store.pins.all()}
    again = reconcile(stored, {"s": [("s_a", tool("a", "Get it, mail it, delete it.")), ("s_b", tool("b"))]}, now=LATER)
    assert [p.blocked for p in again.pins] == [None]
    await store.pins.save(again.pins, again.events)
    pin = next(p for p in await store.pins.all() if p.tool == "a")
    assert pin.state is PinState.QUARANTINED
    assert pin.blocked is None
    assert [e["kind"] for e in await store.pins.history("s", "a")][:2] == ["changed", "blocked"]


async def test_accepting_a_blocked_tool_ends_the_block(store: Store) -> None:
    await _held(store)
    await store.pins.block(lambda p: p.tool == "a", actor="alice")
    [accepted] = await store.pins.accept(lambda p: p.tool == "a", actor="bob")
    assert accepted.blocked is None
    pin = next(p for p in await store.pins.all() if p.tool == "a")
    assert (pin.state, pin.blocked) == (PinState.ACCEPTED, None)


async def test_a_blocked_tool_is_still_held_by_the_gateway_at_its_next_start(store_url: str) -> None:
    from hintgate.config.loading import parse_config
    from hintgate.server.gateway import Gateway
    from hintgate.testing import FakeSource

    config = parse_config({"mcpServers": {}, "integrity": {"onChange": "hide"}})
    changed = tool("a", "Get it and mail it.")
    async with await Store.open(store_url, replica="gw") as store:
        await _held(store)
        await store.pins.block(lambda p: p.tool == "a", actor="alice", reason="no")
        gateway = Gateway(config, store=store, sources={"s": FakeSource("s", tools=[changed, tool("b")])})
        async with gateway:
            held = set(gateway.quarantined)
            listed = gateway.catalog.get("s_a")
            pin = gateway.pins.by_key[("s", "a")]
    assert held == {"s_a"}
    assert listed is None
    assert pin.blocked is not None
    assert pin.blocked.by == "alice"


async def test_a_block_on_one_replica_is_seen_by_another_sharing_the_store(store_url: str) -> None:
    from hintgate.config.loading import parse_config
    from hintgate.server.gateway import Gateway
    from hintgate.testing import FakeSource

    config = parse_config({"mcpServers": {}})
    listing = [tool("a", "Get it and mail it."), tool("b")]
    async with (
        await Store.open(store_url, replica="one") as one_store,
        await Store.open(store_url, replica="two") as two_store,
    ):
        await _held(one_store)
        one = Gateway(config, store=one_store, sources={"s": FakeSource("s", tools=listing)})
        two = Gateway(config, store=two_store, sources={"s": FakeSource("s", tools=listing)})
        async with one, two:
            before = two.pins.by_key[("s", "a")].blocked
            await one.pins.block(lambda p: p.tool == "a", actor="alice", reason="mails out")
            noticed = await two.pins.changed_elsewhere()  # what its follower polls every two seconds
            after = two.pins.by_key[("s", "a")].blocked
            held_on_two = set(two.quarantined)
    assert before is None
    assert noticed is True
    assert after is not None
    assert (after.by, after.reason) == ("alice", "mails out")
    assert held_on_two == {"s_a"}
