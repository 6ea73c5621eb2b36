"""Tool pins in the store, on SQLite and PostgreSQL: written, read back, accepted, imported, versioned."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from hintgate.errors import StoreError
from hintgate.hints.pins import ChangeKind, PinState, canonical_json, reconcile
from hintgate.store import Store

pytestmark = pytest.mark.anyio

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def tool(name: str, description: str = "Get it.") -> dict[str, object]:
    return {"name": name, "description": description, "inputSchema": {"type": "object"}}


async def test_pins_and_their_events_are_read_back_as_written_and_bump_the_version(store: Store) -> None:
    before = await store.pins_version()
    found = reconcile({}, {"s": [("s_a", tool("a")), ("s_b", tool("b", "Ünïcode — text."))]}, now=NOW)
    await store.save_pins(found.pins, found.events)
    assert await store.pins_version() == before + 1
    assert await store.pins() == sorted(found.pins, key=lambda p: p.key)
    assert [p.tool for p in await store.pins(server="s")] == ["a", "b"]
    assert await store.pins(server="other") == []
    [event] = await store.pin_history("s", "b")
    assert event["kind"] == "first-use"
    assert event["at"] == NOW.isoformat()


async def test_a_changed_pin_replaces_the_stored_one_and_history_is_newest_first(store: Store) -> None:
    first = reconcile({}, {"s": [("s_a", tool("a"))]}, now=NOW)
    await store.save_pins(first.pins, first.events)
    stored = {p.key: p for p in await store.pins()}
    changed = reconcile(stored, {"s": [("s_a", tool("a", "Get it and mail it."))]}, now=NOW)
    await store.save_pins(changed.pins, changed.events)
    [pin] = await store.pins()
    assert pin.state is PinState.QUARANTINED
    assert pin.accepted_definition == canonical_json(tool("a"))
    assert pin.definition == canonical_json(tool("a", "Get it and mail it."))
    assert [e["kind"] for e in await store.pin_history("s", "a")] == ["changed", "first-use"]


async def test_accepting_takes_the_definition_last_seen_and_records_who(store: Store) -> None:
    first = reconcile({}, {"s": [("s_a", tool("a")), ("s_b", tool("b"))]}, now=NOW, manual=frozenset({"s"}))
    await store.save_pins(first.pins, first.events)
    accepted = await store.accept_pins(lambda p: p.tool == "a", actor="alice")
    assert [(p.tool, p.state, p.accepted_by, p.reviewed) for p in accepted] == [("a", PinState.ACCEPTED, "alice", True)]
    states = {p.tool: p.state for p in await store.pins()}
    assert states == {"a": PinState.ACCEPTED, "b": PinState.QUARANTINED}
    assert await store.accept_pins(lambda p: p.tool == "a", actor="alice") == []  # nothing left to accept
    assert (await store.pin_history("s", "a"))[0]["actor"] == "alice"
    with pytest.raises(StoreError, match="who accepts"):
        await store.accept_pins(lambda p: True, actor="")


async def test_importing_accepts_matching_pins_sets_others_and_adds_unknown_ones(store: Store) -> None:
    first = reconcile({}, {"s": [("s_a", tool("a", "New text."))]}, now=NOW, manual=frozenset({"s"}))
    await store.save_pins(first.pins, first.events)
    entries = [("s", "a", canonical_json(tool("a", "New text."))), ("t", "x", canonical_json(tool("x")))]
    written = await store.import_pins(entries, actor="pins file")
    assert {p.key for p in written} == {("s", "a"), ("t", "x")}
    pins = {p.key: p for p in await store.pins()}
    assert pins[("s", "a")].state is PinState.ACCEPTED
    assert pins[("t", "x")].accepted_definition == canonical_json(tool("x"))
    assert pins[("t", "x")].reviewed
    assert await store.import_pins(entries, actor="pins file") == []  # the second import changes nothing
    assert (await store.pin_history("t", "x"))[0]["kind"] == ChangeKind.IMPORTED.value
    assert json.loads(pins[("t", "x")].definition)["name"] == "x"


async def test_pins_survive_closing_and_reopening_the_database(store_url: str) -> None:
    first = reconcile({}, {"s": [("s_a", tool("a"))]}, now=NOW)
    async with await Store.open(store_url, replica="one") as one:
        await one.save_pins(first.pins, first.events)
    async with await Store.open(store_url, replica="two") as two:
        assert await two.pins() == list(first.pins)
