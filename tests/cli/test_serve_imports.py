"""What `hintgate serve --http` loads to serve: what it does not need yet is imported when it is first used."""

from __future__ import annotations

import json
import os
import signal
import sys
import textwrap
from pathlib import Path

import anyio
import pytest
from mcp import Client

from hintgate.testing import running_gateway

pytestmark = pytest.mark.anyio

# `python -m hintgate ARGS...`, writing the names of every module it imported to a file as it exits.
SERVE_AND_LIST_MODULES = textwrap.dedent(
    """
    import atexit, json, runpy, sys

    listing = sys.argv.pop(1)

    def write_modules():
        with open(listing, "w") as out:
            json.dump(sorted(sys.modules), out)

    atexit.register(write_modules)
    runpy.run_module("hintgate", run_name="__main__", alter_sys=True)
    """
)

# Loaded with the first page of the dashboard, never by MCP clients.
DASHBOARD = ["jinja2", "hintgate.web.pages"]
# Loaded by the first scrape of /metrics.
SCRAPE = ["prometheus_client", "hintgate.observers.exposition"]
# Loaded only when recording is on.
STORE = ["sqlalchemy", "aiosqlite", "hintgate.store"]
# Never needed: nothing hintgate serves speaks WebSocket.
NEVER = ["websockets"]


async def modules_after_a_listing(tmp_path: Path, time_cmd: list[str], *args: str) -> set[str]:
    """The modules a gateway serving the time server had imported by the time it answered a `tools/list`."""
    config = tmp_path / "hintgate.json"
    server = {"command": time_cmd[0], "args": time_cmd[1:], "trust": "trusted"}
    config.write_text(json.dumps({"mcpServers": {"time": server}}))
    launcher = [sys.executable, "-c", SERVE_AND_LIST_MODULES, str(tmp_path / "modules.json")]
    with running_gateway("--config", str(config), *args, launcher=launcher) as gateway:
        with anyio.fail_after(60):
            async with Client(gateway.mcp_transport(), mode="legacy") as client:
                listed = await client.list_tools()
        assert {tool.name for tool in listed.tools} == {"time_get_current_time", "time_convert_time"}
        gateway.process.send_signal(signal.SIGTERM)
        assert gateway.process.wait(timeout=30) == 0
    return set(json.loads((tmp_path / "modules.json").read_text()))


def _python_path() -> dict[str, str]:
    """`PYTHONPATH`, when it is set, to hand to a gateway launched with an environment of its own."""
    return {"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {}


def loaded(modules: set[str], packages: list[str]) -> list[str]:
    """The modules of `packages` (each with its submodules) among `modules`."""
    return sorted(m for m in modules if any(m == p or m.startswith(f"{p}.") for p in packages))


async def test_serving_without_recording_imports_neither_the_store_nor_the_dashboard(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    modules = await modules_after_a_listing(tmp_path, time_cmd, "--no-record")
    assert "hintgate.server.gateway" in modules
    assert loaded(modules, STORE) == []
    assert loaded(modules, DASHBOARD) == []
    assert loaded(modules, SCRAPE) == []
    assert loaded(modules, NEVER) == []


async def test_serving_with_recording_to_sqlite_imports_the_store_but_not_the_dashboard_nor_postgresql(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    modules = await modules_after_a_listing(tmp_path, time_cmd, "--db", f"sqlite:///{tmp_path / 'calls.db'}")
    assert "hintgate.store" in modules
    assert "aiosqlite" in modules
    assert loaded(modules, DASHBOARD) == []
    assert loaded(modules, SCRAPE) == []
    assert loaded(modules, ["sqlalchemy.dialects.postgresql", "asyncpg"]) == []
    assert loaded(modules, NEVER) == []


async def test_a_stdio_gateway_answers_its_first_listing_without_argument_checker_store_typer_or_other_commands(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    from mcp.client.stdio import StdioServerParameters

    config = tmp_path / "hintgate.json"
    server = {"command": time_cmd[0], "args": time_cmd[1:], "trust": "trusted"}
    config.write_text(json.dumps({"mcpServers": {"time": server}}))
    listing = tmp_path / "modules.json"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", SERVE_AND_LIST_MODULES, str(listing), "serve", "--config", str(config), "--no-record"],
        # The tree under test, when it is not the installed one (the client passes on only a few variables).
        env={"HOME": str(tmp_path), "HINTGATE_DATA_DIR": str(tmp_path / "data"), **_python_path()},
    )
    with anyio.fail_after(60):
        async with Client(params, mode="legacy") as client:
            listed = await client.list_tools()
    assert {tool.name for tool in listed.tools} == {"time_get_current_time", "time_convert_time"}
    modules = set(json.loads(listing.read_text()))  # written as the gateway exited, once stdin closed
    assert "hintgate.server.stdio" in modules
    # Checking a call's arguments needs jsonschema: the first call imports it, not the start.
    assert loaded(modules, ["jsonschema"]) == []
    assert loaded(modules, STORE) == []
    assert loaded(modules, DASHBOARD) == []
    # `serve` runs on a command line of its own: the whole one, and the other commands' modules, are not read.
    assert loaded(modules, ["hintgate.cli.app", "hintgate.cli.approvals", "hintgate.cli.servers"]) == []
    # Its arguments in their plain forms are read without Typer.
    assert loaded(modules, ["typer", "hintgate.cli.common", "hintgate.cli.serve_command"]) == []


# `python -m hintgate ARGS...`, writing the names of the modules it had imported to a file as it answers its first
# `tools/list` (`FirstAnswer.listing_served`: the answer is on its way out).
SERVE_AND_LIST_MODULES_AT_FIRST_ANSWER = textwrap.dedent(
    """
    import json, runpy, sys

    from hintgate.server.first_answer import FirstAnswer

    listing = sys.argv.pop(1)
    served = FirstAnswer.listing_served

    def listing_served(self):
        if not self._listing_served:
            with open(listing, "w") as out:
                json.dump(sorted(sys.modules), out)
        served(self)

    FirstAnswer.listing_served = listing_served
    runpy.run_module("hintgate", run_name="__main__", alter_sys=True)
    """
)


@pytest.mark.parametrize("recording", ["existing", "first", "off"])
async def test_a_stdio_gateway_answers_its_first_listing_before_it_imports_pydantic_or_rich(
    tmp_path: Path, time_cmd: list[str], recording: str
) -> None:
    """Nothing before the first listing needs pydantic (the SDK's models, the HTTP path's JSON reader): imported,
    it took about 0.1 s of a stdio start's CPU; nor Rich, off a terminal (0.03-0.05 s); nor PyYAML and `platform`
    (15-17 and about 2 ms). An existing database is read ahead; a first start makes one."""
    from mcp.client.stdio import StdioServerParameters

    config = tmp_path / "hintgate.json"
    server = {"command": time_cmd[0], "args": time_cmd[1:], "trust": "trusted"}
    config.write_text(json.dumps({"mcpServers": {"time": server}}))
    database = f"sqlite:///{tmp_path / 'calls.db'}"
    store = {"existing": ["--db", database], "first": [], "off": ["--no-record"]}[recording]
    listing = tmp_path / "modules.json"
    env = {"HOME": str(tmp_path), "HINTGATE_DATA_DIR": str(tmp_path / "data"), **_python_path()}
    starts = 2 if recording == "existing" else 1  # the first start makes the database, the second reads it ahead
    for _ in range(starts):
        params = StdioServerParameters(
            command=sys.executable,
            args=["-c", SERVE_AND_LIST_MODULES_AT_FIRST_ANSWER, str(listing), "serve", "--config", str(config), *store],
            env=env,
        )
        with anyio.fail_after(60):
            async with Client(params, mode="legacy") as client:
                listed = await client.list_tools()
        assert {tool.name for tool in listed.tools} == {"time_get_current_time", "time_convert_time"}
    modules = set(json.loads(listing.read_text()))
    assert "hintgate.server.front" in modules
    if recording == "existing":
        assert "hintgate.stored_state" in modules  # the state was read ahead
    assert loaded(modules, ["pydantic", "pydantic_core", "mcp_types._types", "mcp_types._wire_base"]) == []
    assert loaded(modules, ["rich"]) == []
    # A JSON config that loads is read without PyYAML; identifiers are made without `uuid`, which imports `platform`.
    assert loaded(modules, ["yaml", "uuid", "platform"]) == []


async def test_a_stdio_gateway_relaunched_on_the_scans_its_store_keeps_lists_before_it_imports_the_scan(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    """The first start scans the time server's two definitions and keeps the scans in its new database; the next
    takes them from there (`hintgate.scan.verdicts`) and answers its first listing without the scan's modules and
    patterns (about 0.25 s of CPU), which load after it."""
    from mcp.client.stdio import StdioServerParameters

    config = tmp_path / "hintgate.json"
    server = {"command": time_cmd[0], "args": time_cmd[1:], "trust": "trusted"}
    config.write_text(json.dumps({"mcpServers": {"time": server}}))
    env = {"HOME": str(tmp_path), "HINTGATE_DATA_DIR": str(tmp_path / "data"), **_python_path()}
    modules = []
    for start in ("first", "relaunch"):
        listing = tmp_path / f"{start}.json"
        serve = ["serve", "--config", str(config), "--db", f"sqlite:///{tmp_path / 'calls.db'}"]
        params = StdioServerParameters(
            command=sys.executable, args=["-c", SERVE_AND_LIST_MODULES_AT_FIRST_ANSWER, str(listing), *serve], env=env
        )
        with anyio.fail_after(60):
            async with Client(params, mode="legacy") as client:
                listed = await client.list_tools()
        assert {tool.name for tool in listed.tools} == {"time_get_current_time", "time_convert_time"}
        modules.append(set(json.loads(listing.read_text())))
    first, relaunch = modules
    assert "hintgate.scan.poisoning" in first  # nothing kept yet: the definitions were scanned
    assert "hintgate.stored_state" in relaunch
    assert loaded(relaunch, ["hintgate.scan.poisoning", "hintgate.scan.phrases", "re2"]) == []


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_what_imports_the_sdk_waits_until_the_background_imports_are_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two threads importing one package at once can each get the other's half-initialised module.

    A start-up imports the SDK on a thread while its upstreams start; the gateway, which imports the
    SDK too, is built only after `done()`, which waits for that thread.
    """
    import threading
    import types

    from hintgate.cli.serve import BackgroundImports

    gate = types.ModuleType("hintgate_test_import_gate")
    gate.opened = threading.Event()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, gate.__name__, gate)
    (tmp_path / "slow_to_import.py").write_text(f"import {gate.__name__} as gate\ngate.opened.wait(30)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "slow_to_import", raising=False)

    entered = anyio.Event()
    async with BackgroundImports(["slow_to_import"]) as imports:

        async def build() -> None:
            await imports.done()
            entered.set()

        async with anyio.create_task_group() as group:
            group.start_soon(build)
            with anyio.fail_after(10):
                while "slow_to_import" not in sys.modules:  # the thread is inside the import
                    await anyio.sleep(0.01)
            await anyio.wait_all_tasks_blocked()
            assert not entered.is_set()
            gate.opened.set()  # type: ignore[attr-defined]
            with anyio.fail_after(10):
                await entered.wait()
    monkeypatch.delitem(sys.modules, "slow_to_import", raising=False)


def test_every_module_a_start_up_imports_ahead_exists() -> None:
    """The background imports stop at the first that fails: a module renamed away would leave the rest to be
    imported after the upstreams' first listing (anyio's backend is named by its private module)."""
    import importlib.util

    from hintgate.cli.serve import STDIO_MODULES, WEB_MODULES

    missing = [name for name in (*STDIO_MODULES, *WEB_MODULES) if importlib.util.find_spec(name) is None]
    assert missing == []


# The cryptography, and the two modules that import it: the SDK's requestState boundary and PyJWT.
CRYPTOGRAPHY = ["cryptography", "mcp.server.request_state", "jwt"]


async def test_a_gateway_without_identity_loads_no_cryptography_for_calls_that_ask_nothing(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    """Sealing a 2026-07-28 question's requestState, reading an issuer's keys, a sealed secret: until one of them
    comes, calls of both protocol eras (recorded) go by without the cryptography loaded."""
    config = tmp_path / "hintgate.json"
    server = {"command": time_cmd[0], "args": time_cmd[1:], "trust": "trusted"}
    config.write_text(json.dumps({"mcpServers": {"time": server}}))
    launcher = [sys.executable, "-c", SERVE_AND_LIST_MODULES, str(tmp_path / "modules.json")]
    store = ("--db", f"sqlite:///{tmp_path / 'calls.db'}")
    with running_gateway("--config", str(config), *store, launcher=launcher) as gateway:
        for mode in ("legacy", "2026-07-28"):
            with anyio.fail_after(60):
                async with Client(gateway.mcp_transport(), mode=mode) as client:  # type: ignore[arg-type]
                    answered = await client.call_tool("time_get_current_time", {"timezone": "UTC"})
            assert answered.is_error is False, (mode, answered)
        gateway.process.send_signal(signal.SIGTERM)
        assert gateway.process.wait(timeout=30) == 0
    modules = set(json.loads((tmp_path / "modules.json").read_text()))
    assert "hintgate.server.state_boundary" in modules
    assert loaded(modules, CRYPTOGRAPHY) == []
