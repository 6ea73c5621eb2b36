"""A stdio gateway recording to SQLite answers its first listing from the stored state read ahead, store opened after.

The stored pins and overrides decide what the first `tools/list` says; they are
read with the standard library, and the store (SQLAlchemy, its checks, the
recorder) opens once the listing is out. A call that comes before the store is
open waits for it, then runs under the policy and is recorded, in its session.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from tests.waiting import until

from hintgate.cli.serve import serve_while_store_opens
from hintgate.errors import StoreError
from hintgate.store import Store
from hintgate.store.oauth_tokens import vault_key

pytestmark = pytest.mark.anyio

CHANGING = str(Path(__file__).parents[1] / "fixtures" / "changing_server.py")

# `python -m hintgate ARGS...`, noting in a file, as JSON lines, what the gateway process holds when it serves
# a listing and when a call comes in (the gateway's public `listing_served` and `call_tool`, wrapped).
NOTING_LAUNCHER = textwrap.dedent(
    """
    import json, runpy, sys

    from hintgate.server.first_answer import FirstAnswer
    from hintgate.server.gateway import Gateway

    notes = sys.argv.pop(1)

    def note(what):
        with open(notes, "a") as out:
            out.write(json.dumps(what) + "\\n")

    served = FirstAnswer.listing_served
    called = Gateway.call_tool

    def listing_served(self):
        note({"listing": True, "sqlalchemy": "sqlalchemy" in sys.modules, "store_ready": self.ready})
        served(self)

    async def call_tool(self, ctx, params):
        note({"call": params.get("name"), "store_ready": self.first_answer.ready})
        return await called(self, ctx, params)

    FirstAnswer.listing_served = listing_served
    Gateway.call_tool = call_tool
    runpy.run_module("hintgate", run_name="__main__", alter_sys=True)
    """
)


def _notes(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def _setup(tmp_path: Path) -> tuple[Path, Path, Path, dict[str, str]]:
    spec = tmp_path / "tool.json"
    spec.write_text(json.dumps({"description": "Get the quarterly report.", "annotations": {"readOnlyHint": True}}))
    config = tmp_path / "hintgate.json"
    server = {"command": sys.executable, "args": [CHANGING, str(spec)]}
    config.write_text(json.dumps({"mcpServers": {"r": server}, "policy": {"mode": "bypass"}}))
    env = {"HOME": str(tmp_path), "HINTGATE_DATA_DIR": str(tmp_path / "data")}
    return spec, config, tmp_path / "data" / "calls.db", env


def _serve(config: Path, db: Path, env: dict[str, str], *launcher: str) -> StdioServerParameters:
    command = list(launcher) or ["-m", "hintgate"]
    args = [*command, "serve", "--config", str(config), "--db", f"sqlite:///{db}"]
    return StdioServerParameters(command=sys.executable, args=args, env=env)


async def test_a_stdio_gateway_lists_from_the_stored_pins_and_overrides_before_sqlalchemy_and_records_a_call_at_once(
    tmp_path: Path,
) -> None:
    spec, config, db, env = _setup(tmp_path)
    with anyio.fail_after(60):
        async with Client(_serve(config, db, env), mode="legacy") as client:  # a new database: pins taken
            first = {t.name for t in (await client.list_tools()).tools}
    assert first == {"r_get_report", "r_reload"}
    async with await Store.open(f"sqlite:///{db}", replica="operator") as store:
        await store.overrides.set_title("r_reload", "Reload, as the operator titled it", actor="op")
    spec.write_text(json.dumps({"description": "Get the report and mail it out.", "annotations": {}}))

    # Held for writing: the store cannot open until released, so whatever is answered meanwhile is read ahead.
    lock = sqlite3.connect(db, timeout=10)
    lock.execute("BEGIN IMMEDIATE")
    notes = tmp_path / "notes.jsonl"
    try:
        launcher = ["-c", NOTING_LAUNCHER, str(notes)]
        with anyio.fail_after(60):
            async with Client(_serve(config, db, env, *launcher), mode="legacy") as client:
                listed = {t.name: t for t in (await client.list_tools()).tools}
                result: list[Any] = []

                async def call() -> None:
                    result.append(await client.call_tool("r_reload", {}))

                async with anyio.create_task_group() as group:
                    group.start_soon(call)
                    await anyio.to_thread.run_sync(
                        lambda: until(lambda: any("call" in n for n in _notes(notes)), "the call came in", within=30)
                    )
                    lock.rollback()  # the store opens; the waiting call runs
    finally:
        lock.close()

    # Changed since it was pinned: held, listed as it was accepted (the pins read ahead say which that was).
    assert listed["r_get_report"].description == "Get the quarterly report."
    assert listed["r_reload"].title == "Reload, as the operator titled it"  # the stored override, read ahead
    [listing, *_] = [n for n in _notes(notes) if "listing" in n]
    assert listing == {"listing": True, "sqlalchemy": False, "store_ready": False}
    [came] = [n for n in _notes(notes) if "call" in n]
    assert came == {"call": "r_reload", "store_ready": False}
    assert result[0].is_error is False
    assert result[0].content[0].text == "reloaded"  # type: ignore[union-attr]

    async with await Store.open(f"sqlite:///{db}", replica="reader", recover=False) as store:
        sessions = await store.recent_sessions(10)
        calls = await store.calls()
        pins = {p.tool: p for p in await store.pins.all()}
    assert len(sessions) == 2
    [recorded] = calls
    assert recorded["tool_name"] == "r_reload"
    assert recorded["session_id"] == max(sessions, key=lambda s: s["started_at"])["id"]
    assert pins["get_report"].state.value == "quarantined"  # the pins of the first listing were written after


async def test_a_first_start_with_no_database_lists_before_sqlalchemy_then_creates_it_and_records_the_call(
    tmp_path: Path,
) -> None:
    _, config, db, env = _setup(tmp_path)
    assert not db.parent.exists()  # no data directory yet, let alone a database
    notes = tmp_path / "notes.jsonl"
    with anyio.fail_after(60):
        async with Client(_serve(config, db, env, "-c", NOTING_LAUNCHER, str(notes)), mode="legacy") as client:
            listed = {t.name for t in (await client.list_tools()).tools}
            result = await client.call_tool("r_reload", {})
    assert listed == {"r_get_report", "r_reload"}
    [listing, *_] = [n for n in _notes(notes) if "listing" in n]
    assert listing == {"listing": True, "sqlalchemy": False, "store_ready": False}
    assert result.is_error is False

    async with await Store.open(f"sqlite:///{db}", replica="reader", recover=False) as store:
        [session] = await store.recent_sessions(10)
        [recorded] = await store.calls()
        pins = {p.tool for p in await store.pins.all()}
    assert recorded["tool_name"] == "r_reload"
    assert recorded["session_id"] == session["id"]
    assert pins == {"get_report", "reload"}  # the first listing's tools, pinned once the store was made


async def test_a_server_added_at_run_time_is_served_from_its_sealed_entry_read_ahead_before_sqlalchemy(
    tmp_path: Path,
) -> None:
    spec, config, db, env = _setup(tmp_path)
    with anyio.fail_after(60):
        async with Client(_serve(config, db, env), mode="legacy") as client:  # the database and its key made
            await client.list_tools()
    added = {"command": sys.executable, "args": [CHANGING, str(spec)], "env": {"REPORT_TOKEN": "s3cret"}}
    async with await Store.open(f"sqlite:///{db}", replica="operator") as store:
        await store.server_changes.seal(vault_key(None, Path(env["HINTGATE_DATA_DIR"])))
        await store.server_changes.set("added", "add", added, actor="op")
    assert b"s3cret" not in db.read_bytes()  # kept sealed
    notes = tmp_path / "notes.jsonl"
    with anyio.fail_after(60):
        async with Client(_serve(config, db, env, "-c", NOTING_LAUNCHER, str(notes)), mode="legacy") as client:
            listed = {t.name for t in (await client.list_tools()).tools}
    assert listed == {"r_get_report", "r_reload", "added_get_report", "added_reload"}
    [listing, *_] = [n for n in _notes(notes) if "listing" in n]
    assert listing == {"listing": True, "sqlalchemy": False, "store_ready": False}


def test_a_stdio_gateway_stopped_before_its_store_opened_still_records_its_session(tmp_path: Path) -> None:
    _, config, db, env = _setup(tmp_path)
    db.parent.mkdir()
    anyio.run(_made, db)
    lock = sqlite3.connect(db, timeout=10)
    lock.execute("BEGIN IMMEDIATE")  # the store cannot open yet: what is answered meanwhile is read ahead
    args = [sys.executable, "-m", "hintgate", "serve", "--config", str(config), "--db", f"sqlite:///{db}"]
    with subprocess.Popen(
        args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True
    ) as gateway:
        try:
            assert gateway.stdin is not None
            assert gateway.stdout is not None
            hello = {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "early", "version": "1"},
            }
            for message in (
                {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello},
                {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
            ):
                gateway.stdin.write(json.dumps(message) + "\n")
                gateway.stdin.flush()
            answers = [json.loads(gateway.stdout.readline()) for _ in range(2)]
            assert {t["name"] for t in answers[1]["result"]["tools"]} == {"r_get_report", "r_reload"}
            gateway.send_signal(signal.SIGTERM)
            lock.rollback()  # the store opens now, after the stop
            assert gateway.wait(timeout=60) == 0
        finally:
            lock.close()
            if gateway.poll() is None:
                gateway.kill()
                gateway.wait(timeout=30)
    anyio.run(_check_recorded, db)


async def _check_recorded(db: Path) -> None:
    async with await Store.open(f"sqlite:///{db}", replica="reader", recover=False) as store:
        [session] = await store.recent_sessions(10)
    assert session["client_name"] == "early"
    assert session["status"] == "closed"


@pytest.mark.parametrize("damage", ["newer", "damaged"])
def test_a_database_of_a_newer_schema_or_damaged_still_stops_a_stdio_start_with_the_stores_error(
    tmp_path: Path, damage: str
) -> None:
    _, config, db, env = _setup(tmp_path)
    db.parent.mkdir()
    if damage == "newer":
        anyio.run(_made, db)
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE alembic_version SET version_num = '9999'")
        expected = "Can't locate revision identified by '9999'"
    else:
        db.write_bytes(b"not a database at all" * 200)
        expected = "file is not a database"
    args = [sys.executable, "-m", "hintgate", "serve", "--config", str(config), "--db", f"sqlite:///{db}"]
    done = subprocess.run(args, check=False, input="", capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 3
    assert f"error: cannot open SQLite database {db}: {expected}" in done.stderr


async def _made(db: Path) -> None:
    async with await Store.open(f"sqlite:///{db}", replica="maker"):
        pass


async def test_a_store_that_fails_to_open_after_the_first_listing_stops_serving_with_its_error() -> None:
    served = anyio.Event()
    stopped: list[bool] = []

    async def serving() -> None:
        try:
            served.set()
            await anyio.sleep_forever()
        finally:
            stopped.append(True)

    async def opening() -> None:
        await served.wait()
        raise StoreError("cannot open SQLite database x.db: disk I/O error")

    with anyio.fail_after(10), pytest.raises(StoreError, match="disk I/O error"):
        await serve_while_store_opens(serving(), opening())
    assert stopped == [True]
