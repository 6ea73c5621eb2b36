"""Servers changed while the gateway runs: only the difference is applied, real upstreams behind."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import anyio
import pytest
from tests.configs import entry

from hintgate.config.layering import InvalidEntry
from hintgate.config.loading import load_config, parse_config
from hintgate.policy.approvals import Answer
from hintgate.policy.rules import Confirm
from hintgate.server.gateway import Gateway
from hintgate.server.live import ServerChangeRefused, UnknownServer
from hintgate.sources.base import Source
from hintgate.sources.builders import BUILDERS
from hintgate.store import Store

pytestmark = pytest.mark.anyio


def child_pids() -> dict[int, str]:
    """This process's children and their command lines (Linux /proc)."""
    found: dict[int, str] = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid == os.getpid():
                found[int(proc.name)] = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, ValueError, IndexError):
            continue
    return found


def pids_of(word: str) -> set[int]:
    return {pid for pid, cmdline in child_pids().items() if word in cmdline}


def names(gateway: Gateway) -> set[str]:
    return set(gateway.catalog.entries)


async def test_adding_disabling_enabling_and_removing_a_server_changes_only_that_server(
    time_cmd: list[str], memory_cmd: list[str], tmp_path: Path
) -> None:
    config = parse_config({"mcpServers": {"time": entry(time_cmd)}, "policy": {"mode": "bypass"}})
    memory = entry(memory_cmd, env={"MEMORY_FILE_PATH": str(tmp_path / "memory.jsonl")})
    with anyio.fail_after(120):
        async with Gateway(config) as gateway:
            time_source = gateway.sources["time"]
            time_pids = pids_of("mcp-server-time")
            assert len(time_pids) == 1
            assert names(gateway) == {"time_get_current_time", "time_convert_time"}

            result = await gateway.server_set.add("memory", memory, actor="test")
            assert result.diff.added == ("memory",)
            assert result.diff.unchanged == ("time",)
            assert "memory_create_entities" in names(gateway)
            assert gateway.sources["time"] is time_source
            assert pids_of("mcp-server-time") == time_pids
            assert gateway.server_set.origin("memory") == "runtime"
            called = await gateway.call_tool(None, {"name": "memory_read_graph", "arguments": {}})
            assert not called.get("isError"), called

            result = await gateway.server_set.set_enabled("memory", False, actor="test")
            assert result.diff.removed == ("memory",)
            assert not any(n.startswith("memory_") for n in names(gateway))
            assert gateway.sources["memory"].status.state.value == "disabled"
            gone = await gateway.call_tool(None, {"name": "memory_read_graph", "arguments": {}})
            assert gone["isError"]
            assert "disabled" in gone["content"][0]["text"]

            result = await gateway.server_set.set_enabled("memory", True, actor="test")
            assert result.diff.added == ("memory",)
            assert "memory_read_graph" in names(gateway)

            result = await gateway.server_set.remove("memory", actor="test")
            assert result.diff.removed == ("memory",)
            assert "memory" not in gateway.sources
            assert names(gateway) == {"time_get_current_time", "time_convert_time"}
            assert gateway.server_set.change("memory") is None  # it was never in the file: nothing is left
            assert pids_of("mcp-server-time") == time_pids
            assert gateway.sources["time"] is time_source


async def test_editing_a_server_restarts_it_and_leaves_the_other_running(
    time_cmd: list[str], memory_cmd: list[str], tmp_path: Path
) -> None:
    memory = entry(memory_cmd, env={"MEMORY_FILE_PATH": str(tmp_path / "memory.jsonl")})
    config = parse_config({"mcpServers": {"time": entry(time_cmd), "memory": memory}})
    with anyio.fail_after(120):
        async with Gateway(config) as gateway:
            time_pids, memory_pids = pids_of("mcp-server-time"), pids_of("mcp-server-memory")
            edited = {**entry([*time_cmd[:-1], "Europe/Paris"]), "prefix": "clock"}
            result = await gateway.server_set.edit("time", edited, actor="test")
            assert result.diff.restarted == ("time",)
            assert result.diff.unchanged == ("memory",)
            assert "clock_get_current_time" in names(gateway)
            assert "time_get_current_time" not in names(gateway)
            assert pids_of("mcp-server-memory") == memory_pids
            new_time = pids_of("mcp-server-time")
            assert len(new_time) == 1
            assert new_time != time_pids
            change = gateway.server_set.change("time")
            assert change is not None
            assert change.action == "edit"

            await gateway.server_set.reset("time", actor="test")
            assert "time_get_current_time" in names(gateway)
            assert gateway.server_set.origin("time") == "config"


async def test_a_bad_entry_or_a_taken_name_changes_nothing(time_cmd: list[str]) -> None:
    config = parse_config({"mcpServers": {"time": entry(time_cmd)}})
    with anyio.fail_after(60):
        async with Gateway(config) as gateway:
            before = dict(gateway.sources)
            with pytest.raises(InvalidEntry) as bad:
                await gateway.server_set.add("x", {"command": "x", "args": "not a list", "oauth": {}}, actor="test")
            assert {p.loc for p in bad.value.problems} == {("args",), ("oauth",)}
            assert "body.args: expected a list of strings" in str(bad.value)
            with pytest.raises(InvalidEntry, match='prefix: "time" is also the prefix of server "time"'):
                await gateway.server_set.add("other", {"command": "x", "prefix": "time"}, actor="test")
            with pytest.raises(ServerChangeRefused, match="exists"):
                await gateway.server_set.add("time", entry(time_cmd), actor="test")
            with pytest.raises(UnknownServer):
                await gateway.server_set.remove("nope", actor="test")
            with pytest.raises(UnknownServer):
                await gateway.server_set.set_enabled("nope", True, actor="test")
            assert gateway.sources == before
            assert gateway.server_set.layered.changes == {}


async def test_removing_a_server_withdraws_the_approvals_waiting_on_its_tools(demo_cmd: list[str]) -> None:
    config = parse_config(
        {
            "mcpServers": {"demo": entry(demo_cmd)},
            "policy": {"mode": "default", "askVia": "queue"},
        }
    )
    with anyio.fail_after(60):
        async with Gateway(config) as gateway:
            call = asyncio.ensure_future(
                gateway.call_tool(None, {"name": "demo_delete_note", "arguments": {"note_id": 1}})
            )
            while not gateway.calls.approvals.pending():
                await asyncio.sleep(0.01)
            [pending] = gateway.calls.approvals.pending()
            await gateway.server_set.remove("demo", actor="test")
            result = await call
            assert result["isError"]
            assert "withdrawn" in result["content"][0]["text"]
            assert "was removed" in result["content"][0]["text"]
            assert not gateway.calls.approvals.answer(pending.id, Answer.APPROVE_ONCE, actor="api")
            ended = gateway.calls.approvals.ended(pending.id)
            assert ended is not None
            assert ended.state == "withdrawn"


async def test_stored_changes_are_laid_over_the_file_at_the_next_start_and_each_server_is_built_once(
    time_cmd: list[str], memory_cmd: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    file = tmp_path / "hintgate.json"
    file.write_text(json.dumps({"mcpServers": {"time": entry(time_cmd)}}))
    config = load_config(file)
    memory = entry(memory_cmd, env={"MEMORY_FILE_PATH": str(tmp_path / "memory.jsonl")})
    with anyio.fail_after(120):
        async with await Store.open(url) as store, Gateway(config, store=store) as gateway:
            await gateway.server_set.add("memory", memory, actor="test")
            await gateway.server_set.set_enabled("time", False, actor="test")
        built: list[str] = []
        build_mcp = BUILDERS["mcp"]

        def counted(server: Any, *args: Any) -> Source:
            built.append(server.name)
            return build_mcp(server, *args)

        monkeypatch.setitem(BUILDERS, "mcp", counted)
        async with await Store.open(url) as store, Gateway(config, store=store) as gateway:
            assert sorted(built) == ["memory", "time"]  # the file with its changes laid over, built once
            assert set(gateway.sources) == {"time", "memory"}
            assert gateway.sources["time"].status.state.value == "disabled"
            assert gateway.server_set.origin("memory") == "runtime"
            assert gateway.server_set.origin("time") == "config"
            change = gateway.server_set.change("time")
            assert change is not None
            assert change.action == "disable"
            assert change.changed_by == "test"
            assert {n.split("_")[0] for n in names(gateway)} == {"memory"}


async def test_without_a_config_file_changes_are_not_stored(demo_cmd: list[str], tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    config = parse_config({"mcpServers": {}})  # what --demo and --python serve: no file to lay changes over
    with anyio.fail_after(60):
        async with await Store.open(url) as store, Gateway(config, store=store) as gateway:
            result = await gateway.server_set.add("demo", entry(demo_cmd), actor="test")
            assert result.persisted is False
            assert "demo_search_notes" in names(gateway)
            assert await store.server_changes.all() == []


async def test_a_replica_sharing_the_store_catches_up_with_a_change_made_through_another(
    time_cmd: list[str], demo_cmd: list[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    file = tmp_path / "hintgate.json"
    file.write_text(json.dumps({"mcpServers": {"time": entry(time_cmd)}}))
    config = load_config(file)
    with anyio.fail_after(120):
        async with await Store.open(url, replica="a") as store_a, await Store.open(url, replica="b") as store_b:
            a, b = Gateway(config, store=store_a), Gateway(config, store=store_b)
            b.server_set.follow_interval = 3600  # caught up by hand below, not by its timer
            async with a, b:
                await _replicas(a, b, demo_cmd)


async def _replicas(a: Gateway, b: Gateway, demo_cmd: list[str]) -> None:
    time_b = b.sources["time"]
    await a.server_set.add("demo", entry(demo_cmd), actor="test")
    assert "demo_search_notes" not in names(b)
    diff = await b.server_set.catch_up()
    assert diff is not None
    assert diff.added == ("demo",)
    assert "demo_search_notes" in names(b)
    assert b.sources["time"] is time_b
    assert await b.server_set.catch_up() is None  # nothing new: nothing applied
    assert await a.server_set.catch_up() is None  # its own change is no news to it


async def test_a_config_reload_keeps_the_confirm_settings_stored_through_the_api(
    time_cmd: list[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    file = tmp_path / "hintgate.json"
    file.write_text(json.dumps({"mcpServers": {"time": entry(time_cmd)}, "policy": {"mode": "default"}}))
    with anyio.fail_after(120):
        async with await Store.open(url) as store, Gateway(load_config(file), store=store) as gateway:
            await gateway.policy.set_confirm("time_*", Confirm.ALWAYS, actor="test")
            file.write_text(json.dumps({"mcpServers": {"time": entry(time_cmd)}, "policy": {"mode": "bypass"}}))
            await gateway.apply_config(load_config(file))
            assert gateway.calls.settings.mode == "bypass"
            stored = [rule for rule in gateway.calls.rules if rule.stored]
            assert [(rule.tool, rule.confirm) for rule in stored] == [("time_*", Confirm.ALWAYS)]
