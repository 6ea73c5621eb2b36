"""hintgate serve with its store: sessions and calls recorded end to end, and what survives kill -9."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from tests import configs
from tests.configs import entry
from tests.waiting import until
from typer.testing import CliRunner

from hintgate.cli.app import app
from hintgate.store import CallFilter, Store
from hintgate.testing import running_gateway

pytestmark = pytest.mark.anyio


def config_file(tmp_path: Path, servers: dict[str, Any]) -> Path:
    return configs.config_file(tmp_path, servers, {"mode": "bypass"})


async def test_a_client_session_through_serve_is_recorded_and_closed_with_its_calls(
    tmp_path: Path, time_cmd: list[str], filesystem_cmd: list[str]
) -> None:
    db = tmp_path / "history.db"
    root = Path(filesystem_cmd[-1])
    config = config_file(
        tmp_path,
        {
            "time": entry(time_cmd, trust="trusted"),
            "fs": entry(filesystem_cmd),
        },
    )
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hintgate", "serve", "--config", str(config), "--db", f"sqlite:///{db}"],
        env={"HINTGATE_DATA_DIR": str(tmp_path / "data")},
    )
    with anyio.fail_after(90):
        async with Client(params, mode="legacy") as client:
            await client.call_tool("time_get_current_time", {"timezone": "UTC"})
            await client.call_tool("fs_write_file", {"path": str(root / "a.txt"), "content": "hello"})
            await client.call_tool("fs_read_text_file", {"path": str(root / "a.txt")})
    # The client closed stdin; the gateway drained its recorder and exited.
    async with await Store.open(f"sqlite:///{db}", recover=False) as store:
        [session] = await store.recent_sessions(10)
        calls = await store.calls(CallFilter(session_id=session["id"]))
    assert session["status"] == "closed"
    assert session["ended_at"] is not None
    assert session["client_name"] == "mcp"
    assert session["tool_call_count"] == 3
    assert session["total_tokens"] > 0
    assert [c["tool_name"] for c in calls] == ["time_get_current_time", "fs_write_file", "fs_read_text_file"]
    read_time, write, _ = calls
    assert read_time["hints"]["annotations"]["readOnlyHint"] is True
    assert read_time["hints"]["provenance"]["readOnlyHint"] == "declared"
    assert read_time["tier"] == "read-only"
    assert write["hints"]["tier"] == "destructive"
    assert write["decision"]["verdict"] == "allow"
    assert write["decision"]["source"] == "mode:bypass"
    assert write["arguments"] == {"path": str(root / "a.txt"), "content": "hello"}
    assert write["input_tokens"] > 0


async def test_after_kill_9_the_database_opens_with_every_call_that_returned(
    tmp_path: Path, demo_cmd: list[str]
) -> None:
    db = tmp_path / "history.db"
    config = config_file(tmp_path, {"demo": entry(demo_cmd)})
    returned: list[tuple[float, str]] = []
    killed_at = 0.0

    async def burst(client: Client, worker: int) -> None:
        for n in range(10_000):  # bounded; the kill ends it first
            query = f"w{worker}-{n}"
            try:
                await client.call_tool("demo_search_notes", {"query": query})
            except Exception:
                return
            returned.append((time.monotonic(), query))

    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data")}
    with running_gateway("--config", str(config), "--db", f"sqlite:///{db}", env=env) as gateway:
        with anyio.fail_after(60):
            try:
                async with Client(gateway.mcp_transport(), mode="legacy") as client, anyio.create_task_group() as tasks:
                    for worker in range(4):
                        tasks.start_soon(burst, client, worker)
                    began = time.monotonic()
                    # Kill mid-burst, once calls have been returning for a while.
                    while len(returned) < 100 or time.monotonic() - began < 2.5:
                        await asyncio.sleep(0.01)
                    killed_at = time.monotonic()
                    os.kill(gateway.process.pid, signal.SIGKILL)
                    gateway.process.wait(timeout=10)
            except Exception:
                # The client's connection breaks with the gateway; only a failure before the kill counts.
                if not killed_at:
                    raise

    async with await Store.open(f"sqlite:///{db}", recover=False) as store:
        recorded = await store.calls(limit=100_000)
    queries = {c["arguments"]["query"] for c in recorded}
    # Durable recording (the default): a call's result goes back once its record is committed.
    assert len(returned) >= 100, "the burst was too short to judge"
    missing = [q for _, q in returned if q not in queries]
    assert missing == []
    assert len(recorded) >= len(returned)


def test_the_sessions_calls_and_overrides_commands_read_the_store(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    runner = CliRunner()
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data")}
    set_ = runner.invoke(app, ["overrides", "set", "fs_write_file", "destructiveHint=true", "--db", db], env=env)
    assert set_.exit_code == 0, set_.output
    listed = runner.invoke(app, ["overrides", "list", "--format", "json", "--db", db], env=env)
    assert [(r["tool"], r["hint"], r["value"]) for r in json.loads(listed.stdout)] == [
        ("fs_write_file", "destructiveHint", True)
    ]
    bad = runner.invoke(app, ["overrides", "set", "fs_write_file", "destructive=yes", "--db", db], env=env)
    assert bad.exit_code == 2
    assert "expected HINT=true, HINT=false or title=TEXT" in bad.output
    cleared = runner.invoke(app, ["overrides", "clear", "fs_write_file", "--db", db], env=env)
    assert "removed 1 override" in cleared.stdout
    sessions = runner.invoke(app, ["sessions", "--format", "json", "--db", db], env=env)
    assert json.loads(sessions.stdout) == []
    calls = runner.invoke(app, ["calls", "--format", "json", "--limit", "5", "--db", db], env=env)
    assert json.loads(calls.stdout) == []


def _has_ipv6_loopback() -> bool:
    import socket

    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _has_ipv6_loopback(), reason="this machine has no IPv6 loopback (::1) to bind")
async def test_serve_on_a_bracketed_ipv6_loopback_address_prints_a_url_that_works() -> None:
    import httpx

    with running_gateway("--demo", "--no-record", bind="[::1]:0") as gateway:
        assert gateway.base_url.startswith("http://[::1]:")
        async with httpx.AsyncClient(base_url=gateway.base_url, headers=gateway.headers, timeout=30) as client:
            health = await client.get("/api/health")
        with anyio.fail_after(60):
            async with Client(gateway.mcp_transport(), mode="legacy") as client:
                tools = await client.list_tools()
    assert health.status_code == 200
    assert health.json()["status"] == "ok"
    assert tools.tools


@pytest.mark.parametrize("value", ["::1:8765", "[::1:8765", "[::1]8765"])
def test_serve_refuses_an_ipv6_address_without_brackets_naming_the_form(value: str) -> None:
    result = CliRunner().invoke(app, ["serve", "--demo", "--http", value])
    assert result.exit_code == 2
    assert "[::1]:8765" in result.output
    assert "Traceback" not in result.output


def test_serve_says_at_start_that_a_rule_naming_people_does_nothing_without_an_identity_section(
    tmp_path: Path,
) -> None:
    config = tmp_path / "servers.yaml"
    demo = [sys.executable, "-m", "hintgate.demo"]
    config.write_text(
        f"mcpServers:\n  notes: {{command: {json.dumps(demo[0])}, args: {json.dumps(demo[1:])}}}\n"
        "policy:\n  rules:\n    - deny: {tool: 'notes_*', group: interns}\n"
    )
    with running_gateway("--config", str(config), "--no-record", env={"HINTGATE_DATA_DIR": str(tmp_path / "d")}) as gw:
        log = "".join(gw.log)
    assert f"hintgate: warning: {config}:5:31: policy.rules[0].deny.group: this deny rule names people" in log


async def test_a_negative_list_cursor_is_refused_as_invalid() -> None:
    import base64

    from mcp.shared.exceptions import MCPError

    negative = base64.urlsafe_b64encode(b"-3").decode()
    with running_gateway("--demo", "--no-record") as gateway:
        with anyio.fail_after(60):
            async with Client(gateway.mcp_transport(), mode="legacy") as client:
                everything = await client.list_tools()
                with pytest.raises(MCPError, match="invalid cursor"):
                    await client.list_tools(cursor=negative)
    assert everything.tools


async def _send(process: Any, message: dict[str, Any]) -> None:
    await process.stdin.send(json.dumps(message).encode() + b"\n")


async def _receive_until(process: Any, buffer: bytearray, wanted: Any) -> dict[str, Any]:
    """The next JSON-RPC message on the gateway's stdout for which `wanted(message)` holds."""
    while True:
        while b"\n" in buffer:
            line, _, rest = bytes(buffer).partition(b"\n")
            buffer[:] = rest
            message = json.loads(line)
            if wanted(message):
                return message
        buffer.extend(await process.stdout.receive())


async def test_sigterm_mid_call_records_the_call_in_flight_before_the_gateway_exits(
    tmp_path: Path, everything_cmd: list[str]
) -> None:
    db = tmp_path / "history.db"
    config = config_file(tmp_path, {"every": entry(everything_cmd)})
    command = [sys.executable, "-m", "hintgate", "serve", "--config", str(config), "--db", f"sqlite:///{db}"]
    env = {**os.environ, "HINTGATE_DATA_DIR": str(tmp_path / "data")}
    buffer = bytearray()
    with anyio.fail_after(90):
        async with await anyio.open_process(command, env=env, stderr=None) as process:
            await _send(
                process,
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": "2025-11-25",
                        "capabilities": {},
                        "clientInfo": {"name": "sigterm-test", "version": "1"},
                    },
                },
            )
            await _receive_until(process, buffer, lambda m: m.get("id") == 1)
            await _send(process, {"jsonrpc": "2.0", "method": "notifications/initialized"})
            await _send(
                process,
                {
                    "jsonrpc": "2.0",
                    "id": 2,
                    "method": "tools/call",
                    "params": {
                        "name": "every_trigger-long-running-operation",
                        "arguments": {"duration": 60, "steps": 60},
                        "_meta": {"progressToken": "slow"},
                    },
                },
            )
            # The first progress notification: the call is running on the upstream server.
            await _receive_until(process, buffer, lambda m: m.get("method") == "notifications/progress")
            process.send_signal(signal.SIGTERM)
            assert await process.wait() == 0

    async with await Store.open(f"sqlite:///{db}", recover=False) as store:
        [session] = await store.recent_sessions(10)
        [call] = await store.calls(CallFilter(session_id=session["id"]))
    assert session["client_name"] == "sigterm-test"
    assert session["status"] == "closed"
    assert call["tool_name"] == "every_trigger-long-running-operation"
    assert call["arguments"] == {"duration": 60, "steps": 60}
    assert "cancelled" in call["error"]


LINGERING = str(Path(__file__).parents[1] / "fixtures" / "lingering_server.py")


async def test_sigterm_while_a_stdio_gateway_stops_after_its_client_left_still_writes_what_it_recorded(
    tmp_path: Path,
) -> None:
    # An MCP client closes the gateway's stdin, then SIGTERMs it while it still stops its upstreams (here one slow
    # to close). Fast commits every 60 s: the call and the session's end are written only as the store closes.
    db = tmp_path / "history.db"
    notes = tmp_path / "upstream.txt"
    config = config_file(tmp_path, {"slow": entry([sys.executable, LINGERING, str(notes)], trust="trusted")})
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "HINTGATE_DATA_DIR": str(tmp_path / "data"),
        "HINTGATE_COMMIT": "fast",
        "HINTGATE_COMMIT_INTERVAL": "60",
    }
    command = [sys.executable, "-m", "hintgate", "serve", "--config", str(config), "--db", f"sqlite:///{db}"]
    buffer = bytearray()
    with anyio.fail_after(90):
        async with await anyio.open_process(command, env=env, stderr=None) as process:
            hello = {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "leaving", "version": "1"},
            }
            await _send(process, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello})
            await _receive_until(process, buffer, lambda m: m.get("id") == 1)
            await _send(process, {"jsonrpc": "2.0", "method": "notifications/initialized"})
            call = {"name": "slow_noop", "arguments": {}}
            await _send(process, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call})
            answer = await _receive_until(process, buffer, lambda m: m.get("id") == 2)
            assert answer["result"]["content"] == [{"type": "text", "text": "done"}], answer
            await process.stdin.aclose()  # the client leaves
            # The gateway has stopped serving and waits for its upstream to leave: the client's SIGTERM comes now.
            await anyio.to_thread.run_sync(lambda: until(notes.exists, "the upstream's stdin closed", within=30))
            process.send_signal(signal.SIGTERM)
            status = await process.wait()

    async with await Store.open(f"sqlite:///{db}", recover=False) as store:
        sessions = await store.recent_sessions(10)
        recorded = await store.calls()
    assert (len(sessions), len(recorded)) == (1, 1)
    [session] = sessions
    assert session["client_name"] == "leaving"
    assert session["status"] == "closed"
    assert recorded[0]["tool_name"] == "slow_noop"
    assert status == 0


async def test_sigterm_to_an_http_gateway_mid_call_records_the_call_before_it_exits(
    tmp_path: Path, everything_cmd: list[str]
) -> None:
    db = tmp_path / "history.db"
    config = config_file(tmp_path, {"every": entry(everything_cmd)})
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data")}
    running = anyio.Event()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        running.set()

    async def slow_call(client: Client) -> None:
        with contextlib.suppress(Exception):  # the gateway may go before it answers
            await client.call_tool(
                "every_trigger-long-running-operation", {"duration": 4, "steps": 8}, progress_callback=on_progress
            )

    with running_gateway("--config", str(config), "--db", f"sqlite:///{db}", env=env) as gateway:
        with anyio.fail_after(60):
            with contextlib.suppress(Exception):  # the connection breaks as the gateway stops
                async with Client(gateway.mcp_transport(), mode="legacy") as client, anyio.create_task_group() as tasks:
                    tasks.start_soon(slow_call, client)
                    await running.wait()
                    gateway.process.send_signal(signal.SIGTERM)
                    await anyio.to_thread.run_sync(gateway.process.wait, 30)
            assert gateway.process.wait(timeout=30) == 0

    async with await Store.open(f"sqlite:///{db}", recover=False) as store:
        calls = await store.calls()
    assert [c["tool_name"] for c in calls] == ["every_trigger-long-running-operation"]


COUNTER = str(Path(__file__).parents[1] / "fixtures" / "launch_counter.py")


def counted_time_server(tmp_path: Path, time_cmd: list[str]) -> tuple[Path, Path]:
    """A config whose one server (the time server) writes each launch's pid to a file; (config, that file)."""
    launches = tmp_path / "launches"
    entry = {"command": sys.executable, "args": [COUNTER, str(launches), *time_cmd], "trust": "trusted"}
    return config_file(tmp_path, {"time": entry}), launches


async def test_a_stdio_gateway_talks_to_the_upstream_it_started_ahead_and_starts_it_once(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    config, launches = counted_time_server(tmp_path, time_cmd)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hintgate", "serve", "--config", str(config), "--no-record"],
        env={"HINTGATE_DATA_DIR": str(tmp_path / "data"), "HOME": str(tmp_path)},
    )
    with anyio.fail_after(90):
        async with Client(params, mode="legacy") as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            result = await client.call_tool("time_get_current_time", {"timezone": "UTC"})
    assert "time_get_current_time" in tools
    assert result.is_error is False
    assert len(launches.read_text().split()) == 1


async def test_a_call_made_right_after_start_is_recorded(tmp_path: Path, time_cmd: list[str]) -> None:
    db = tmp_path / "calls.db"
    config = config_file(tmp_path, {"time": {"command": time_cmd[0], "args": time_cmd[1:], "trust": "trusted"}})
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hintgate", "serve", "--config", str(config), "--db", f"sqlite:///{db}"],
        env={"HINTGATE_DATA_DIR": str(tmp_path / "data"), "HOME": str(tmp_path)},
    )
    with anyio.fail_after(90):
        async with Client(params, mode="legacy") as client:  # the first request after the handshake is the call
            result = await client.call_tool("time_get_current_time", {"timezone": "UTC"})
    assert result.is_error is False
    async with await Store.open(f"sqlite:///{db}", recover=False) as store:
        [session] = await store.recent_sessions(10)
        [call] = await store.calls(CallFilter(session_id=session["id"]))
    assert call["tool_name"] == "time_get_current_time"


def test_a_database_that_cannot_be_used_stops_the_upstreams_started_ahead(tmp_path: Path, time_cmd: list[str]) -> None:
    config, launches = counted_time_server(tmp_path, time_cmd)
    missing = tmp_path / "no-such-dir" / "calls.db"
    env = {**os.environ, "HINTGATE_DATA_DIR": str(tmp_path / "data"), "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "hintgate", "serve", "--config", str(config), "--db", f"sqlite:///{missing}"],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=90,
    )
    assert done.returncode == 2, done.stderr
    assert "does not exist" in done.stderr
    for pid in (int(line) for line in launches.read_text().split()) if launches.exists() else ():
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_the_start_sequence_opens_the_store_before_the_gateway_unless_the_state_was_read_ahead(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    import io

    from rich.console import Console

    from hintgate.cli.serve import read_ahead, starting
    from hintgate.config.loading import parse_config
    from hintgate.config.settings import Settings
    from hintgate.sources.base import SourceState

    server = {"command": time_cmd[0], "args": time_cmd[1:], "trust": "trusted", "prefix": ""}
    config = parse_config({"mcpServers": {"time": server}}, source="test")
    settings = Settings(data_dir=tmp_path / "data", database_url=f"sqlite:///{tmp_path / 'calls.db'}")
    said = io.StringIO()
    with anyio.fail_after(60):
        async with starting(config, settings, imports=(), console=Console(file=said)) as started:
            assert started.late is None
            assert started.store is not None
            assert started.gateway.store is started.store  # open before the gateway was built
            assert started.gateway.sources["time"].status.state is SourceState.UP
        early = read_ahead(config, settings)
        assert early is not None
        async with starting(config, settings, imports=(), console=Console(file=said), early=early) as started:
            assert started.store is None
            assert started.gateway.store is None  # the first listing is answered without it
            assert started.late is not None
            assert started.late.store is None  # it opens once that listing is out (`LateStore.opened`)
            assert "get_current_time" in started.gateway.catalog.entries
    assert said.getvalue().count("server 'time' is up") == 2


def test_the_start_counts_one_tool_in_the_singular() -> None:
    import io
    from types import SimpleNamespace

    from rich.console import Console

    from hintgate.cli.serve import report_start

    for tools, said in (([{"name": "only"}], "serving 1 tool\n"), ([{}, {}], "serving 2 tools\n")):
        console = Console(record=True, width=80, file=io.StringIO())
        gateway = SimpleNamespace(servers=lambda: [], tools=lambda tools=tools: tools)
        report_start(gateway, console)  # type: ignore[arg-type]
        assert console.export_text().endswith(said)


def test_the_start_report_off_a_terminal_shows_a_servers_name_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    """A stdio gateway's stderr is its client's log: the lines go there as they are, brackets and `:name:` codes
    in a name or a reason included (Rich read them as markup and emoji, and dropped or replaced them)."""
    from types import SimpleNamespace

    from hintgate.cli.plain_console import PlainConsole
    from hintgate.cli.serve import report_start
    from hintgate.hints.trust import Trust, TrustFrom
    from hintgate.sources.base import SourceState

    status = SimpleNamespace(state=SourceState.DOWN, reason="exited: [bold]oops[/bold] :warning:")
    server = SimpleNamespace(name="[red]web", status=status, trust=Trust.TRUSTED, trust_from=next(iter(TrustFrom)))
    gateway = SimpleNamespace(servers=lambda: [server], tools=lambda: [])
    report_start(gateway, PlainConsole())  # type: ignore[arg-type]
    said = capsys.readouterr().err.splitlines()
    assert said[0] == "hintgate: server '[red]web' is down: exited: [bold]oops[/bold] :warning:"
    assert said[-1] == "hintgate: serving 0 tools"
