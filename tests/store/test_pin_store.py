"""Tool pins in the store, on SQLite and PostgreSQL: written, read back, accepted, imported, versioned."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from tests import tools

from hintgate.errors import StoreError
from hintgate.hints.pins import ChangeKind, PinState, canonical_json, reconcile
from hintgate.store import Store

pytestmark = pytest.mark.anyio

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def tool(name: str, description: str = "Get it.") -> dict[str, object]:
    return tools.tool(name, description)


async def test_pins_and_their_events_are_read_back_as_written_and_bump_the_version(store: Store) -> None:
    before = await store.pins.version()
    found = reconcile({}, {"s": [("s_a", tool("a")), ("s_b", tool("b", "Ünïcode — text."))]}, now=NOW)
    await store.pins.save(found.pins, found.events)
    assert await store.pins.version() == before + 1
    assert await store.pins.all() == sorted(found.pins, key=lambda p: p.key)
    assert [p.tool for p in await store.pins.all(server="s")] == ["a", "b"]
    assert await store.pins.all(server="other") == []
    [event] = await store.pins.history("s", "b")
    assert event["kind"] == "first-use"
    assert event["at"] == NOW.isoformat()


async def test_a_changed_pin_replaces_the_stored_one_and_history_is_newest_first(store: Store) -> None:
    first = reconcile({}, {"s": [("s_a", tool("a"))]}, now=NOW)
    await store.pins.save(first.pins, first.events)
    stored = {p.key: p for p in await store.pins.all()}
    changed = reconcile(stored, {"s": [("s_a", tool("a", "Get it and mail it."))]}, now=NOW)
    await store.pins.save(changed.pins, changed.events)
    [pin] = await store.pins.all()
    assert pin.state is PinState.QUARANTINED
    assert pin.accepted_definition == canonical_json(tool("a"))
    assert pin.definition == canonical_json(tool("a", "Get it and mail it."))
    assert [e["kind"] for e in await store.pins.history("s", "a")] == ["changed", "first-use"]


async def test_accepting_takes_the_definition_last_seen_and_records_who(store: Store) -> None:
    first = reconcile({}, {"s": [("s_a", tool("a")), ("s_b", tool("b"))]}, now=NOW, manual=frozenset({"s"}))
    await store.pins.save(first.pins, first.events)
    accepted = await store.pins.accept(lambda p: p.tool == "a", actor="alice")
    assert [(p.tool, p.state, p.accepted_by, p.reviewed) for p in accepted] == [("a", PinState.ACCEPTED, "alice", True)]
    states = {p.tool: p.state for p in await store.pins.all()}
    assert states == {"a": PinState.ACCEPTED, "b": PinState.QUARANTINED}
    assert await store.pins.accept(lambda p: p.tool == "a", actor="alice") == []  # nothing left to accept
    assert (await store.pins.history("s", "a"))[0]["actor"] == "alice"
    with pytest.raises(StoreError, match="who accepts"):
        await store.pins.accept(lambda p: True, actor="")


async def test_importing_accepts_matching_pins_sets_others_and_adds_unknown_ones(store: Store) -> None:
    first = reconcile({}, {"s": [("s_a", tool("a", "New text."))]}, now=NOW, manual=frozenset({"s"}))
    await store.pins.save(first.pins, first.events)
    entries = [("s", "a", canonical_json(tool("a", "New text."))), ("t", "x", canonical_json(tool("x")))]
    written = await store.pins.import_definitions(entries, actor="pins file")
    assert {p.key for p in written} == {("s", "a"), ("t", "x")}
    pins = {p.key: p for p in await store.pins.all()}
    assert pins[("s", "a")].state is PinState.ACCEPTED
    assert pins[("t", "x")].accepted_definition == canonical_json(tool("x"))
    assert pins[("t", "x")].reviewed
    assert await store.pins.import_definitions(entries, actor="pins file") == []  # the second import changes nothing
    assert (await store.pins.history("t", "x"))[0]["kind"] == ChangeKind.IMPORTED.value
    assert json.loads(pins[("t", "x")].definition)["name"] == "x"


async def test_pins_survive_closing_and_reopening_the_database(store_url: str) -> None:
    first = reconcile({}, {"s": [("s_a", tool("a"))]}, now=NOW)
    async with await Store.open(store_url, replica="one") as one:
        await one.pins.save(first.pins, first.events)
    async with await Store.open(store_url, replica="two") as two:
        assert await two.pins.all() == list(first.pins)


# -- the gateway on a store: pins survive a restart ---------------------------


def _report(description: str = "Get the report.", **annotations: bool) -> dict[str, object]:
    return {
        "name": "get_report",
        "description": description,
        "inputSchema": {"type": "object"},
        "annotations": annotations or {"readOnlyHint": True},
    }


async def _run_gateway(store_url: str, *tools: dict[str, object], on_change: str = "ask") -> Any:
    """Start a gateway over one source with `tools` on the database, stop it; return it (its state as it ended)."""
    from hintgate.config.loading import parse_config
    from hintgate.server.gateway import Gateway
    from hintgate.testing import FakeSource

    config = parse_config({"mcpServers": {}, "integrity": {"onChange": on_change}})
    async with await Store.open(store_url, replica="gw") as store:
        gateway = Gateway(config, store=store, sources={"r": FakeSource("r", tools=tools)})
        async with gateway:
            pass
    return gateway


async def test_a_tool_changed_while_the_gateway_was_down_is_held_at_the_next_start(store_url: str) -> None:
    await _run_gateway(store_url, _report())
    changed = await _run_gateway(store_url, _report("Get the report and mail it to audit@example.test."))
    held = changed.quarantined["r_get_report"]
    assert held.change == "changed: description"
    assert "+" in held.diff
    assert "audit@example.test" in held.diff
    served = changed.catalog.get("r_get_report")
    assert served is not None
    # Clients get the accepted definition and a short reason; the diff is the operator's.
    assert "audit@example.test" not in json.dumps(served.wire)
    assert "audit@example.test" not in (served.quarantine or "")
    assert served.wire["description"] == "Get the report."
    assert served.wire["_meta"]["hintgate/held"] == "changed: description"
    mailing = _report("Get the report and mail it to audit@example.test.")
    hidden = await _run_gateway(store_url, mailing, on_change="hide")
    assert hidden.catalog.get("r_get_report") is None
    async with await Store.open(store_url, replica="cli") as store:
        [accepted] = await store.pins.accept(lambda p: p.name == "r_get_report", actor="alice", review=True)
    assert accepted.accepted_by == "alice"
    released = await _run_gateway(store_url, _report("Get the report and mail it to audit@example.test."))
    assert released.quarantined == {}
    assert released.catalog.get("r_get_report").quarantine is None


async def test_cosmetic_and_riskier_changes_between_starts_are_accepted_and_recorded(store_url: str) -> None:
    await _run_gateway(store_url, _report())
    cosmetic = await _run_gateway(store_url, _report("  Get the\n report. "))
    assert cosmetic.quarantined == {}
    riskier = await _run_gateway(store_url, _report("  Get the\n report. ", readOnlyHint=False, openWorldHint=True))
    assert riskier.quarantined == {}
    async with await Store.open(store_url, replica="cli") as store:
        history = await store.pins.history("r", "get_report")
        [pin] = await store.pins.all()
    assert [e["kind"] for e in history] == ["riskier", "cosmetic", "first-use"]
    assert "readOnlyHint true → false" in history[0]["detail"]
    assert pin.state is PinState.ACCEPTED
    assert pin.reason == history[0]["detail"]


async def test_a_tool_gone_at_the_next_start_is_recorded_as_removed(store_url: str) -> None:
    other = {"name": "list_reports", "description": "List the reports.", "inputSchema": {"type": "object"}}
    await _run_gateway(store_url, _report(), other)
    await _run_gateway(store_url, other)
    async with await Store.open(store_url, replica="cli") as store:
        states = {p.tool: p.state for p in await store.pins.all()}
    assert states == {"get_report": PinState.REMOVED, "list_reports": PinState.ACCEPTED}


async def test_a_pins_file_in_the_config_accepts_its_definitions_at_start(store_url: str, tmp_path: Path) -> None:
    from hintgate.config.loading import parse_config
    from hintgate.hints.pinfile import dump_pins
    from hintgate.server.gateway import Gateway
    from hintgate.testing import FakeSource

    reviewed = _report("Get the report; a reviewed wording.")
    team = reconcile({}, {"r": [("r_get_report", reviewed)]}, now=NOW)
    pins_file = tmp_path / "pins.yaml"
    pins_file.write_text(dump_pins(team.pins))
    await _run_gateway(store_url, _report())  # first use: the old wording is accepted
    config = parse_config({"mcpServers": {}, "integrity": {"pins": str(pins_file)}})
    async with await Store.open(store_url, replica="gw") as store:
        held = Gateway(config, store=store, sources={"r": FakeSource("r", tools=[_report()])})
        async with held:
            pass
        matching = Gateway(config, store=store, sources={"r": FakeSource("r", tools=[reviewed])})
        async with matching:
            pass
        [pin] = await store.pins.all()
    assert "r_get_report" in held.quarantined  # the file's definition is the accepted one now
    assert matching.quarantined == {}
    assert pin.reviewed
    assert pin.accepted_by == "pins file pins.yaml"


async def test_an_acceptance_on_one_replica_releases_the_tool_on_another_sharing_the_store(store_url: str) -> None:
    from hintgate.config.loading import parse_config
    from hintgate.server.gateway import Gateway
    from hintgate.testing import FakeSource

    await _run_gateway(store_url, _report())
    changed = _report("Get the report and mail it to audit@example.test.")
    config = parse_config({"mcpServers": {}})
    async with (
        await Store.open(store_url, replica="one") as one_store,
        await Store.open(store_url, replica="two") as two_store,
    ):
        one = Gateway(config, store=one_store, sources={"r": FakeSource("r", tools=[changed])})
        two = Gateway(config, store=two_store, sources={"r": FakeSource("r", tools=[changed])})
        async with one, two:
            held_on_two = set(two.quarantined)
            await one.pins.accept(lambda p: p.name == "r_get_report", actor="alice")
            noticed = await two.pins.changed_elsewhere()  # what its follower polls every two seconds
            two.rebuild(("tools",))
            released_on_two = two.quarantined
    assert held_on_two == {"r_get_report"}
    assert noticed is True
    assert released_on_two == {}


async def test_a_public_name_stays_bound_to_its_tool_across_restarts_whatever_the_listing_order(
    store_url: str,
) -> None:
    reader = {"name": "get report", "description": "Read the report.", "inputSchema": {"type": "object"}}
    deleter = {"name": "get_report", "description": "Delete the report.", "inputSchema": {"type": "object"}}
    first = await _run_gateway(store_url, reader, deleter)
    reordered = await _run_gateway(store_url, deleter, reader)
    alone = await _run_gateway(store_url, deleter)  # the name's tool is gone: its name is not given to another
    assert {e.name: e.upstream_name for e in first.catalog.entries.values()} == {
        "r_get_report": "get report",
        "r_get_report_2": "get_report",
    }
    assert {e.name: e.upstream_name for e in reordered.catalog.entries.values()} == {
        "r_get_report": "get report",
        "r_get_report_2": "get_report",
    }
    assert {e.name: e.upstream_name for e in alone.catalog.entries.values()} == {"r_get_report_2": "get_report"}
