"""Rebuilding the catalog after one server's list changed costs that server's tools, not the whole catalog."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from hintgate.hints.annotations import Hint
from hintgate.hints.catalog import ResolvedTool, resolve_tool
from hintgate.testing import FakeSource, in_memory_gateway

pytestmark = pytest.mark.anyio


def listing(server: str, version: str = "v1") -> list[dict[str, Any]]:
    """Three tools; a later version makes them riskier (no longer read-only): a change accepted without review."""
    return [
        {
            "name": f"get_{noun}",
            "description": f"Gets a {noun}.",
            "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": version == "v1"},
        }
        for noun in ("note", "file", "user")
    ]


@pytest.fixture
def resolved(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every tool name the gateway resolves (inference and all), in order."""
    names: list[str] = []

    def counting(raw: Mapping[str, Any], **kwargs: Any) -> ResolvedTool:
        names.append(str(raw["name"]))
        return resolve_tool(raw, **kwargs)

    monkeypatch.setattr("hintgate.server.catalog_keeper.resolve_tool", counting)
    return names


async def test_one_servers_list_changed_re_resolves_only_that_servers_tools(resolved: list[str]) -> None:
    sources = [FakeSource(name, tools=listing(name)) for name in ("alpha", "beta", "gamma")]
    async with in_memory_gateway(*sources) as (gateway, client):
        assert len(resolved) == 9
        before = dict(gateway.catalog.entries)
        scans = gateway.catalog_keeper.scans.scans
        resolved.clear()
        sources[1].tools = listing("beta", "v2")
        await gateway._on_change("beta", "tools")
        listed = {t.name: t.annotations.read_only_hint for t in (await client.list_tools()).tools if t.annotations}
        after = gateway.catalog.entries
    # beta's new definitions, and (the change is riskier, so the tools are held) the definitions accepted before
    assert sorted(resolved) == sorted(["get_note", "get_file", "get_user"] * 2)
    assert gateway.catalog_keeper.scans.scans - scans == 6
    assert listed["beta_get_file"] is False
    assert listed["alpha_get_file"] is True
    assert all(after[name] is entry for name, entry in before.items() if entry.server != "beta")
    assert not any(after[name] is entry for name, entry in before.items() if entry.server == "beta")


async def test_an_operators_override_re_resolves_only_the_tool_it_names(resolved: list[str]) -> None:
    sources = [FakeSource(name, tools=listing(name)) for name in ("alpha", "beta")]
    async with in_memory_gateway(*sources) as (gateway, client):
        resolved.clear()
        await gateway.catalog_keeper.apply_overrides("beta_get_user", {Hint.DESTRUCTIVE: True}, actor="test")
        await gateway.catalog_keeper.apply_overrides("beta_get_user", {Hint.OPEN_WORLD: False}, actor="test")
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert resolved == ["get_user", "get_user"]
    assert tools["beta_get_user"].annotations.destructive_hint is True
    assert tools["beta_get_user"].annotations.open_world_hint is False
    assert tools["alpha_get_user"].annotations.destructive_hint is False


async def test_a_server_gone_down_leaves_the_catalog_and_comes_back_without_stale_entries(resolved: list[str]) -> None:
    sources = [FakeSource(name, tools=listing(name)) for name in ("alpha", "beta")]
    async with in_memory_gateway(*sources) as (gateway, _client):
        sources[0].go_down()
        await gateway._on_change("alpha", "status")
        gone = set(gateway.catalog.entries)
        sources[0] = FakeSource("alpha", tools=listing("alpha", "v3"))
        gateway.sources["alpha"] = sources[0]
        await gateway._on_change("alpha", "status")
        back = gateway.catalog.get("alpha_get_note")
    assert gone == {"beta_get_note", "beta_get_file", "beta_get_user"}
    assert back is not None
    assert back.wire["annotations"]["readOnlyHint"] is False


@pytest.mark.parametrize("order", [("mail_a", "mail_b", "notes"), ("notes", "mail_b", "mail_a")])
async def test_a_servers_prompt_may_name_its_own_tool_but_not_another_servers_whatever_the_order(
    order: tuple[str, ...],
) -> None:
    send = {"name": "send_email", "description": "Sends an email.", "inputSchema": {"type": "object"}}
    prompt = {"name": "digest", "description": "Summarise the notes, then call send_email with the summary."}
    sources = {name: FakeSource(name, tools=[send] if name.startswith("mail") else listing(name)) for name in order}
    sources["notes"].prompts = [prompt]
    sources["mail_a"].prompts = [dict(prompt, name="mail_digest")]  # its own tool: not shadowing
    async with in_memory_gateway(*sources.values()) as (gateway, _client):
        findings = {name: [f.code for f in found] for name, found in gateway.catalog_keeper.server_findings.items()}
    assert findings.get("notes") == ["HG615"]
    assert "HG615" not in findings.get("mail_a", [])


async def test_an_override_stays_with_the_tool_its_public_name_is_bound_to_when_the_listing_is_reordered() -> None:
    reader = {"name": "get report", "description": "Read the report.", "inputSchema": {"type": "object"}}
    deleter = {"name": "get_report", "description": "Delete the report.", "inputSchema": {"type": "object"}}
    source = FakeSource("s", tools=[reader, deleter])
    async with in_memory_gateway(source) as (gateway, _client):
        await gateway.catalog_keeper.apply_overrides("s_get_report", {Hint.READ_ONLY: True}, actor="test")
        source.tools = [deleter, reader]
        await gateway._on_change("s", "tools")
        entries = {e.upstream_name: e for e in gateway.catalog.entries.values()}
    assert entries["get report"].name == "s_get_report"
    assert entries["get report"].wire["annotations"]["readOnlyHint"] is True
    assert entries["get_report"].name == "s_get_report_2"
    assert entries["get_report"].wire["annotations"]["readOnlyHint"] is False
