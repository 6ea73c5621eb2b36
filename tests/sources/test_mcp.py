from __future__ import annotations

import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import anyio.lowlevel
import pytest

from hintgate.config.model import DEFAULT_ENV_ALLOW, StdioTransport
from hintgate.errors import (
    UpstreamClosed,
    UpstreamProtocolError,
    UpstreamRequestError,
    UpstreamStartError,
)
from hintgate.sources.connection import connect

pytestmark = pytest.mark.anyio

BAD = str(Path(__file__).parents[1] / "fixtures" / "bad_server.py")


def stdio(cmd: list[str]) -> StdioTransport:
    return StdioTransport(command=cmd[0], args=tuple(cmd[1:]), env={}, cwd=None)


def env() -> dict[str, str]:
    return {k: os.environ[k] for k in DEFAULT_ENV_ALLOW if k in os.environ}


def bad(mode: str) -> StdioTransport:
    return stdio([sys.executable, BAD, mode])


async def test_lists_the_tools_of_the_real_time_server(time_cmd: list[str]) -> None:
    with anyio.fail_after(30):
        async with connect(stdio(time_cmd), server="time", env=env()) as connection:
            tools = await connection.list_all("tools/list", "tools", timeout=10)
    assert {t["name"] for t in tools} == {"get_current_time", "convert_time"}
    assert connection.info is not None
    assert connection.info.name == "mcp-time"


async def test_calls_a_tool_and_returns_the_raw_result(time_cmd: list[str]) -> None:
    with anyio.fail_after(30):
        async with connect(stdio(time_cmd), server="time", env=env()) as connection:
            result = await connection.request(
                "tools/call", {"name": "get_current_time", "arguments": {"timezone": "UTC"}}, timeout=10
            )
    assert result["isError"] is False
    assert "UTC" in result["content"][0]["text"]


async def test_keeps_non_standard_annotation_keys_and_bad_types_as_sent() -> None:
    with anyio.fail_after(20):
        async with connect(bad("bad-hints"), server="bad", env=env()) as connection:
            tools = await connection.list_all("tools/list", "tools", timeout=5)
    assert tools[0]["annotations"] == {"readOnlyHint": "yes"}
    assert tools[1]["annotations"] == {"readOnlyHint": True, "costHint": "high"}


async def test_follows_pagination_cursors_to_the_end() -> None:
    with anyio.fail_after(20):
        async with connect(bad("paginate"), server="pages", env=env()) as connection:
            tools = await connection.list_all("tools/list", "tools", timeout=5)
    assert [t["name"] for t in tools] == ["get_a", "get_b", "delete_c", "create_d", "list_e"]


async def test_a_command_that_does_not_exist_fails_to_start_naming_it() -> None:
    with (
        anyio.fail_after(10),
        pytest.raises(UpstreamStartError, match="'no-such-mcp-server' was not found on PATH"),
    ):
        async with connect(stdio(["no-such-mcp-server"]), server="ghost", env=env()):
            pass


async def test_a_server_that_crashes_at_start_reports_exit_code_and_stderr() -> None:
    with anyio.fail_after(20), pytest.raises(UpstreamStartError) as caught:
        async with connect(bad("crash"), server="crashy", env=env()):
            pass
    message = str(caught.value)
    assert "crashy" in message
    assert "exited with code 3" in message
    assert "fatal: missing API key" in message


async def test_a_server_that_never_answers_times_out_at_start() -> None:
    with (
        anyio.fail_after(20),
        pytest.raises(UpstreamStartError, match=r"did not answer initialize within 1 s"),
    ):
        async with connect(bad("hang"), server="hang", env=env(), startup_timeout=1):
            pass


async def test_a_line_that_is_not_json_fails_the_waiting_request_at_once() -> None:
    with anyio.fail_after(20):
        async with connect(bad("garbage"), server="garbage", env=env()) as connection:
            with pytest.raises(UpstreamProtocolError, match="not JSON: 'Traceback"):
                await connection.request("tools/list", None, timeout=15)


async def test_json_that_is_not_json_rpc_is_a_protocol_error() -> None:
    with anyio.fail_after(20):
        async with connect(bad("not-rpc"), server="x", env=env()) as connection:
            with pytest.raises(UpstreamProtocolError, match=r"not a JSON-RPC 2\.0 message"):
                await connection.request("tools/list", None, timeout=15)


async def test_a_result_that_is_not_an_object_is_a_protocol_error() -> None:
    with anyio.fail_after(20):
        async with connect(bad("no-result"), server="x", env=env()) as connection:
            with pytest.raises(UpstreamProtocolError, match="without a result object"):
                await connection.request("tools/list", None, timeout=15)


async def test_a_json_rpc_error_is_raised_with_its_code() -> None:
    with anyio.fail_after(20):
        async with connect(bad("error"), server="x", env=env()) as connection:
            with pytest.raises(UpstreamRequestError, match="database offline") as caught:
                await connection.request("tools/list", None, timeout=15)
    assert caught.value.code == -32000


async def test_a_call_in_flight_when_the_server_dies_fails_at_once() -> None:
    with anyio.fail_after(20):
        async with connect(bad("die-on-call"), server="dies", env=env()) as connection:
            with pytest.raises(UpstreamClosed, match="exited with code 7"):
                await connection.request("tools/call", {"name": "boom", "arguments": {}}, timeout=15)
            assert connection.closed is not None


async def test_the_child_gets_only_the_allow_listed_environment(tmp_path: Path) -> None:
    script = tmp_path / "env_server.py"
    script.write_text(
        "import json, os, sys\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    if 'id' not in r: continue\n"
        "    res = {'protocolVersion': '2025-11-25', 'capabilities': {}, 'serverInfo': {'name': 'e', 'version': '1'}}\n"
        "    if r['method'] != 'initialize': res = {'tools': [], 'env': sorted(os.environ)}\n"
        "    print(json.dumps({'jsonrpc': '2.0', 'id': r['id'], 'result': res}), flush=True)\n"
    )
    child_env = {**env(), "ONLY_THIS": "1"}
    with anyio.fail_after(20):
        async with connect(stdio([sys.executable, str(script)]), server="env", env=child_env) as connection:
            result = await connection.request("tools/list", None, timeout=5)
    assert "ONLY_THIS" in result["env"]
    assert not set(result["env"]) - set(child_env) - {"LC_CTYPE", "PWD", "SHLVL", "_"}


async def test_a_cancelled_request_is_cancelled_upstream(tmp_path: Path) -> None:
    record = tmp_path / "received.jsonl"
    spec = stdio([sys.executable, BAD, "record", str(record)])
    with anyio.fail_after(20):
        async with connect(spec, server="rec", env=env()) as connection:
            with anyio.move_on_after(0.5):
                await connection.request("tools/call", {"name": "hold", "arguments": {}}, timeout=30)
            # The cancellation is written before the request returns; the child appends it
            # when it reads it, so poll the file a bounded number of times.
            for _ in range(100):
                received = [json.loads(line) for line in record.read_text().splitlines()]
                if any(m.get("method") == "notifications/cancelled" for m in received):
                    break
                await anyio.sleep(0.05)
    call = next(m for m in received if m.get("method") == "tools/call")
    cancelled = next(m for m in received if m.get("method") == "notifications/cancelled")
    assert cancelled["params"]["requestId"] == call["id"]


async def test_a_timed_out_request_is_cancelled_upstream_and_raises(tmp_path: Path) -> None:
    from hintgate.errors import UpstreamTimeout

    record = tmp_path / "received.jsonl"
    with anyio.fail_after(20):
        async with connect(stdio([sys.executable, BAD, "record", str(record)]), server="rec", env=env()) as connection:
            with pytest.raises(UpstreamTimeout, match=r"tools/call got no answer within 0\.3 s"):
                await connection.request("tools/call", {"name": "hold"}, timeout=0.3)
            for _ in range(100):
                if "notifications/cancelled" in record.read_text():
                    break
                await anyio.sleep(0.05)
    assert "notifications/cancelled" in record.read_text()


async def test_requests_with_longer_and_shorter_timeouts_at_once_time_out_in_the_order_of_their_deadlines(
    tmp_path: Path,
) -> None:
    from hintgate.errors import UpstreamTimeout

    record = tmp_path / "received.jsonl"
    failures: list[tuple[str, str]] = []

    async def hold(connection: Any, label: str, timeout: float) -> None:
        try:
            await connection.request("tools/call", {"name": "hold"}, timeout=timeout)
        except UpstreamTimeout as exc:
            failures.append((label, str(exc)))

    with anyio.fail_after(20):
        async with connect(stdio([sys.executable, BAD, "record", str(record)]), server="rec", env=env()) as connection:
            async with anyio.create_task_group() as tg:
                tg.start_soon(hold, connection, "long", 1.5)
                tg.start_soon(hold, connection, "long again", 1.5)
                tg.start_soon(hold, connection, "short", 0.3)  # after two that end later
                tg.start_soon(hold, connection, "long last", 1.6)
            answered = await connection.request("tools/list", None, timeout=5)  # the connection still works
    assert failures == [
        ("short", "server 'rec': tools/call got no answer within 0.3 s"),
        ("long", "server 'rec': tools/call got no answer within 1.5 s"),
        ("long again", "server 'rec': tools/call got no answer within 1.5 s"),
        ("long last", "server 'rec': tools/call got no answer within 1.6 s"),
    ]
    assert isinstance(answered, dict)


async def test_a_childs_secret_printed_to_stderr_is_hidden_in_its_status_reason(tmp_path: Path) -> None:
    from hintgate.config.loading import load_config
    from hintgate.sources.base import SourceState
    from hintgate.sources.mcp import McpUpstream

    path = tmp_path / "hintgate.json"
    server = {"command": sys.executable, "args": [BAD, "leak", "${LEAK_TOKEN}"], "env": {"API_KEY": "sk-live-1234567"}}
    path.write_text(json.dumps({"mcpServers": {"leaky": server}}))
    config = load_config(path, environ={**os.environ, "LEAK_TOKEN": "tok-from-env-89"})
    upstream = McpUpstream(config.servers["leaky"], env={**env(), "API_KEY": "sk-live-1234567"})
    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:
            tg.start_soon(upstream.run)
            await upstream.wait_started(20)
            tg.cancel_scope.cancel()
    status = upstream.status
    assert status.state is SourceState.DOWN
    assert status.reason is not None
    assert "exited with code 3" in status.reason
    assert "API_KEY=*** rejected" in status.reason
    assert "token *** rejected" in status.reason
    assert "sk-live-1234567" not in json.dumps(status.to_json())
    assert "tok-from-env-89" not in json.dumps(status.to_json())


class CountingClient:
    """A calling client that counts what reaches it, each message taking a turn of the event loop as a send would."""

    def __init__(self) -> None:
        self.logs = 0
        self.progress_reports: list[float] = []

    @property
    def session_key(self) -> object:
        return self

    async def progress(self, progress: float, total: float | None, message: str | None) -> None:
        await anyio.lowlevel.checkpoint()
        self.progress_reports.append(progress)

    async def client_request(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        raise AssertionError(f"unexpected {method}")

    async def client_notify(self, method: str, params: dict[str, Any] | None) -> None:
        await anyio.lowlevel.checkpoint()
        self.logs += 1


async def test_a_notification_flood_is_bounded_and_counted_and_other_upstreams_keep_working(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from hintgate.config.model import ServerConfig
    from hintgate.sources.base import SourceState
    from hintgate.sources.mcp import McpUpstream

    # Listen on the queue's own logger: earlier tests may have changed how hintgate's loggers propagate.
    notifications_log = logging.getLogger("hintgate.sources.notifications")
    notifications_log.addHandler(caplog.handler)
    caplog.set_level(logging.WARNING, logger=notifications_log.name)
    flood = McpUpstream(
        ServerConfig(name="flood", transport=stdio([sys.executable, BAD, "flood", "100000"]), call_timeout=120),
        env=env(),
    )
    other = McpUpstream(ServerConfig(name="other", transport=bad("slow"), call_timeout=60), env=env())
    client = CountingClient()
    results: dict[str, Any] = {}
    with anyio.fail_after(90):  # generous: it is a bound, not a timing
        async with anyio.create_task_group() as tg:
            tg.start_soon(flood.run)
            tg.start_soon(other.run)
            await flood.wait_started(30)
            await other.wait_started(30)
            assert flood.status.state is SourceState.UP
            assert other.status.state is SourceState.UP

            async def call_flood() -> None:
                results["flood"] = await flood.call_tool("flood", {}, meta={"progressToken": "mine"}, context=client)

            tg.start_soon(call_flood)
            results["other"] = await other.call_tool("wait", {"seconds": 0}, meta=None, context=CountingClient())
            while "flood" not in results:
                await anyio.sleep(0.05)  # the flood's call runs in its own task; nothing to wait on
            tg.cancel_scope.cancel()
    assert results["flood"]["content"][0]["text"] == "flooded 100000"
    assert results["other"]["content"][0]["text"] == "done"
    dropped = flood.status.notifications_dropped
    assert dropped > 0
    assert client.logs + len(client.progress_reports) + dropped <= 200_000
    assert client.logs < 100_000
    assert flood.status.to_json()["notifications_dropped"] == dropped
    notifications_log.removeHandler(caplog.handler)
    # A record reaches caplog's handler once or twice (directly, and through propagation): count it once.
    found = {id(r): r for r in caplog.records if "notifications faster than they could be handled" in r.getMessage()}
    warnings = list(found.values())
    assert warnings
    assert sum(int(r.getMessage().split(": ")[1].split()[0]) for r in warnings) == dropped
