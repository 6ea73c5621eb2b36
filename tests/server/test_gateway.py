"""hintgate serve, end to end: a real MCP client (the SDK's) in front, real MCP servers behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from tests.configs import config_file, entry

from hintgate.testing import RunningGateway, running_gateway

pytestmark = pytest.mark.anyio

HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
BAD = str(Path(__file__).parents[1] / "fixtures" / "bad_server.py")


def write_config(tmp_path: Path, servers: dict[str, dict[str, Any]], **top: Any) -> Path:
    """A config file; the policy is bypass unless given: these tests are about passing things through."""
    top.setdefault("policy", {"mode": "bypass"})
    return config_file(tmp_path, servers, **top)


def gateway_params(config: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "hintgate", "serve", "--config", str(config)],
        env={"PYTHONUNBUFFERED": "1", "HINTGATE_DATA_DIR": os.environ["HINTGATE_DATA_DIR"]},
    )


@asynccontextmanager
async def through_gateway(config: Path, **client_args: Any) -> AsyncIterator[Client]:
    with anyio.fail_after(60):
        async with Client(gateway_params(config), mode="legacy", **client_args) as client:
            yield client


@contextmanager
def http_gateway(config: Path) -> Iterator[RunningGateway]:
    """Run `hintgate serve --http 127.0.0.1:0` and yield it."""
    with running_gateway("--config", str(config), "--no-record") as gateway:
        yield gateway


def dump(result: Any) -> dict[str, Any]:
    data: dict[str, Any] = result.model_dump(by_alias=True, exclude_none=True, mode="json")
    data.pop("_meta", None)
    return data


async def test_every_tool_of_real_servers_is_listed_with_four_explicit_hints_and_provenance(
    tmp_path: Path, time_cmd: list[str], git_cmd: list[str], filesystem_cmd: list[str], memory_cmd: list[str]
) -> None:
    config = write_config(
        tmp_path,
        {
            "time": entry(time_cmd),
            "git": entry(git_cmd),
            "fs": entry(filesystem_cmd),
            "memory": entry(memory_cmd, env={"MEMORY_FILE_PATH": str(tmp_path / "memory.jsonl")}),
        },
    )
    async with through_gateway(config) as client:
        listed = (await client.list_tools()).tools
    names = {t.name for t in listed}
    assert {"time_get_current_time", "git_git_status", "fs_read_text_file", "memory_read_graph"} <= names
    prefixes = {n.split("_", 1)[0] for n in names}
    assert prefixes == {"time", "git", "fs", "memory"}
    for tool in listed:
        wire = tool.model_dump(by_alias=True, exclude_none=True)
        assert set(wire["annotations"]) >= set(HINTS), tool.name
        assert all(isinstance(wire["annotations"][h], bool) for h in HINTS)
        provenance = wire["_meta"]["hintgate/provenance"]
        assert set(provenance) == set(HINTS)
        assert wire["_meta"]["hintgate/tier"] in {"read-only", "additive-write", "destructive", "unknown"}
        assert len(tool.name) <= 64


async def test_calls_return_exactly_what_the_upstream_returns(tmp_path: Path, demo_cmd: list[str]) -> None:
    config = write_config(tmp_path, {"demo": entry(demo_cmd)})
    arguments = {"query": "milk"}
    with anyio.fail_after(60):
        async with Client(StdioServerParameters(command=demo_cmd[0], args=demo_cmd[1:]), mode="legacy") as direct:
            expected = dump(await direct.call_tool("search_notes", arguments))
            expected_error = dump(await direct.call_tool("get_note", {"note_id": 99}))
    async with through_gateway(config) as client:
        got = dump(await client.call_tool("demo_search_notes", arguments))
        got_error = dump(await client.call_tool("demo_get_note", {"note_id": 99}))
    assert got == expected
    assert "structuredContent" in got
    assert got_error == expected_error
    assert got_error["isError"] is True


async def test_real_time_server_call_through_gateway(tmp_path: Path, time_cmd: list[str]) -> None:
    config = write_config(tmp_path, {"time": entry(time_cmd, trust="trusted")})
    async with through_gateway(config) as client:
        result = await client.call_tool(
            "time_convert_time", {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}
        )
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert result.is_error is False
    assert "21:00" in json.dumps(dump(result))
    annotations = tools["time_get_current_time"].annotations
    assert annotations is not None
    assert annotations.read_only_hint is True


@pytest.mark.parametrize("trust", ["untrusted", None], ids=["untrusted", "local by default"])
async def test_an_untrusted_or_local_servers_lying_hint_does_not_reach_the_client(
    tmp_path: Path, demo_cmd: list[str], trust: str | None
) -> None:
    # Local (no trust key, a local command): strong evidence (the name's verb `purge`) overrules the lie.
    demo = entry(demo_cmd, **({"trust": trust} if trust else {}))
    config = write_config(tmp_path, {"demo": demo})
    async with through_gateway(config) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    purge = tools["demo_purge_notes"].model_dump(by_alias=True, exclude_none=True)
    assert purge["annotations"]["readOnlyHint"] is False
    assert purge["annotations"]["destructiveHint"] is True
    assert purge["_meta"]["hintgate/distrusted"] == {"readOnlyHint": True}


async def test_a_trusted_servers_declared_hints_are_kept(tmp_path: Path, demo_cmd: list[str]) -> None:
    config = write_config(tmp_path, {"demo": entry(demo_cmd, trust="trusted", prefix="")})
    async with through_gateway(config) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    purge = tools["purge_notes"].model_dump(by_alias=True, exclude_none=True)
    assert purge["annotations"]["readOnlyHint"] is True
    assert purge["_meta"]["hintgate/provenance"]["readOnlyHint"] == "declared"


async def test_config_overrides_reach_the_client_with_their_provenance(tmp_path: Path, demo_cmd: list[str]) -> None:
    config = write_config(tmp_path, {"demo": entry(demo_cmd, overrides={"purge_notes": {"readOnlyHint": False}})})
    async with through_gateway(config) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    meta = tools["demo_purge_notes"].model_dump(by_alias=True)["_meta"]
    assert meta["hintgate/provenance"]["readOnlyHint"] == "override"


async def test_include_and_exclude_globs_filter_tools(tmp_path: Path, demo_cmd: list[str]) -> None:
    config = write_config(tmp_path, {"demo": entry(demo_cmd, include=["*_note*"], exclude=["delete_*"])})
    async with through_gateway(config) as client:
        names = {t.name for t in (await client.list_tools()).tools}
    assert "demo_get_note" in names
    assert "demo_delete_note" not in names
    assert "demo_current_time" not in names


async def test_upstream_list_changed_reaches_the_client(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"dyn": entry([sys.executable, BAD, "dynamic"])})
    changed = anyio.Event()

    async def on_message(message: Any) -> None:
        if getattr(getattr(message, "root", message), "method", None) == "notifications/tools/list_changed":
            changed.set()
        if "ToolListChanged" in type(message).__name__ or "tools/list_changed" in repr(message):
            changed.set()

    async with through_gateway(config, message_handler=on_message) as client:
        before = {t.name for t in (await client.list_tools()).tools}
        await client.call_tool("dyn_grow", {})
        with anyio.fail_after(10):
            await changed.wait()
        after = {t.name for t in (await client.list_tools(cache_mode="refresh")).tools}
    assert before == {"dyn_grow"}
    assert after == {"dyn_grow", "dyn_grown_1"}


async def test_an_upstream_killed_mid_call_returns_a_clear_error_at_once(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"dies": entry([sys.executable, BAD, "die-on-call"])})
    async with through_gateway(config) as client:
        with anyio.fail_after(10):
            result = await client.call_tool("dies_boom", {})
        assert result.is_error is True
        text = result.content[0].text  # type: ignore[union-attr]
        assert "exited with code 7" in text
        with anyio.fail_after(10):
            again = await client.call_tool("dies_boom", {})
    assert again.is_error is True
    assert "unavailable" in again.content[0].text  # type: ignore[union-attr]


async def test_an_upstream_that_never_starts_does_not_stop_the_others(tmp_path: Path, demo_cmd: list[str]) -> None:
    config = write_config(
        tmp_path,
        {
            "broken": entry([sys.executable, BAD, "crash"]),
            "ghost": entry(["no-such-mcp-server-anywhere"]),
            "demo": entry(demo_cmd),
        },
    )
    async with through_gateway(config) as client:
        names = {t.name for t in (await client.list_tools()).tools}
    assert names
    assert all(n.startswith("demo_") for n in names)


async def test_an_upstream_answering_malformed_json_rpc_is_marked_down_with_the_reason(tmp_path: Path) -> None:
    config = write_config(
        tmp_path,
        {
            "garbage": entry([sys.executable, BAD, "garbage"]),
            "norpc": entry([sys.executable, BAD, "not-rpc"]),
        },
    )
    completed = subprocess.run(
        [sys.executable, "-m", "hintgate", "tools", "--config", str(config), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )
    assert completed.returncode == 3, completed.stderr  # a server is not up
    servers = {s["name"]: s for s in json.loads(completed.stdout)["servers"]}
    assert servers["garbage"]["status"]["state"] == "down"
    assert "not JSON" in servers["garbage"]["status"]["reason"]
    assert "not a JSON-RPC 2.0 message" in servers["norpc"]["status"]["reason"]


async def test_a_slow_upstream_call_times_out_per_server(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"slow": entry([sys.executable, BAD, "slow"], timeout=1)})
    async with through_gateway(config) as client:
        with anyio.fail_after(15):
            result = await client.call_tool("slow_wait", {"seconds": 5})
    assert result.is_error is True
    assert "did not answer within 1 s" in result.content[0].text  # type: ignore[union-attr]


async def test_unknown_tool_is_a_json_rpc_error(tmp_path: Path, demo_cmd: list[str]) -> None:
    from mcp.shared.exceptions import MCPError

    config = write_config(tmp_path, {"demo": entry(demo_cmd)})
    async with through_gateway(config) as client:
        with pytest.raises(MCPError, match="Unknown tool: nope"):
            await client.call_tool("nope", {})


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_streamable_http_serves_both_protocol_eras(tmp_path: Path, demo_cmd: list[str], mode: str) -> None:
    config = write_config(tmp_path, {"demo": entry(demo_cmd)})
    with http_gateway(config) as gateway:
        with anyio.fail_after(60):
            async with Client(gateway.mcp_transport(), mode=mode) as client:  # type: ignore[arg-type]
                tools = {t.name: t for t in (await client.list_tools()).tools}
                result = await client.call_tool("demo_search_notes", {"query": "tea"})
                version = client.protocol_version
    assert version == ("2026-07-28" if mode != "legacy" else "2025-11-25")
    assert set(tools["demo_get_note"].model_dump(by_alias=True)["annotations"]) >= set(HINTS)
    assert result.is_error is False
    assert "Shopping" in json.dumps(dump(result))


async def test_everything_server_prompts_and_resources_are_proxied(tmp_path: Path, everything_cmd: list[str]) -> None:
    config = write_config(tmp_path, {"every": entry(everything_cmd)})
    async with through_gateway(config) as client:
        prompts = (await client.list_prompts()).prompts
        resources = (await client.list_resources()).resources
        templates = (await client.list_resource_templates()).resource_templates
        assert prompts
        assert all(p.name.startswith("every_") for p in prompts)
        simple = next(p for p in prompts if "simple" in p.name)
        got = await client.get_prompt(simple.name, {})
        assert got.messages
        assert resources or templates
        if resources:
            read = await client.read_resource(str(resources[0].uri))
            assert read.contents
        echo = await client.call_tool("every_echo", {"message": "hello"})
    assert "hello" in json.dumps(dump(echo))


async def test_a_crashed_upstream_is_restarted_and_its_tools_come_back(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"dies": entry([sys.executable, BAD, "die-on-call"])})
    changes = 0
    changed = anyio.Event()

    async def on_message(message: Any) -> None:
        nonlocal changes
        if "tools/list_changed" in repr(message) or "ToolListChanged" in type(message).__name__:
            changes += 1
            changed.set()

    async with through_gateway(config, message_handler=on_message) as client:
        await client.call_tool("dies_boom", {})  # kills it
        names: set[str] = set()
        with anyio.fail_after(20):
            # Down (its tools leave), then restarted after the first backoff (they return).
            while "dies_boom" not in names or changes < 2:
                await changed.wait()
                changed = anyio.Event()
                names = {t.name for t in (await client.list_tools(cache_mode="refresh")).tools}
    assert names == {"dies_boom"}


async def test_upstream_pagination_is_followed_and_the_gateway_paginates_its_own_list(tmp_path: Path) -> None:
    config = write_config(
        tmp_path,
        {
            "pages": entry([sys.executable, BAD, "paginate"]),
            "many": entry([sys.executable, BAD, "many", "1100"]),
        },
        limits={"toolsPerServer": 2000},  # more than the default 1,000 a server may have served
    )
    async with through_gateway(config) as client:
        first = await client.list_tools()
        seen = [t.name for t in first.tools]
        cursor = first.next_cursor
        pages = 1
        while cursor and pages < 10:
            page = await client.list_tools(cursor=cursor)
            seen += [t.name for t in page.tools]
            cursor = page.next_cursor
            pages += 1
    assert pages == 3  # 1105 tools and the gateway's search_tools and call_tool, 500 a page
    assert seen[:5] == ["pages_get_a", "pages_get_b", "pages_delete_c", "pages_create_d", "pages_list_e"]
    assert len(seen) == len(set(seen)) == 1107
    assert seen[-2:] == ["search_tools", "call_tool"]


async def test_progress_from_the_upstream_reaches_the_calling_client(tmp_path: Path, everything_cmd: list[str]) -> None:
    config = write_config(tmp_path, {"every": entry(everything_cmd)})
    updates: list[float] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        updates.append(progress)

    async with through_gateway(config) as client:
        result = await client.call_tool(
            "every_trigger-long-running-operation", {"duration": 0.4, "steps": 4}, progress_callback=on_progress
        )
    assert result.is_error is not True
    assert len(updates) == 4
    assert updates == sorted(updates)


async def test_elicitation_from_the_upstream_is_relayed_to_the_calling_client(
    tmp_path: Path, everything_cmd: list[str]
) -> None:
    import mcp_types as types

    config = write_config(tmp_path, {"every": entry(everything_cmd)})
    asked: list[str] = []

    async def on_elicit(context: Any, params: Any) -> Any:
        asked.append(params.message)
        return types.ElicitResult(action="decline")

    async with through_gateway(config, elicitation_callback=on_elicit) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        assert "every_trigger-elicitation-request" in names
        with anyio.fail_after(20):
            result = await client.call_tool("every_trigger-elicitation-request", {})
    assert asked
    assert "decline" in json.dumps(dump(result)).lower()


async def test_a_call_the_client_cancels_is_cancelled_upstream(tmp_path: Path) -> None:
    record = tmp_path / "received.jsonl"
    config = write_config(tmp_path, {"rec": entry([sys.executable, BAD, "record", str(record)])})
    async with through_gateway(config) as client:
        # The client gives up once the upstream holds the call (under load forwarding can take
        # longer than any fixed delay, and a call never forwarded has nothing to cancel upstream).
        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:
                tg.start_soon(client.call_tool, "rec_hold", {})
                while not record.exists() or "tools/call" not in record.read_text():
                    await anyio.sleep(0.05)
                tg.cancel_scope.cancel()
        # The upstream appends what it receives; wait (bounded) for the cancellation to arrive.
        with anyio.fail_after(30):
            while "notifications/cancelled" not in record.read_text():
                await anyio.sleep(0.05)
    received = [json.loads(line) for line in record.read_text().splitlines()]
    call = next(m for m in received if m.get("method") == "tools/call")
    cancelled = next(m for m in received if m.get("method") == "notifications/cancelled")
    assert cancelled["params"]["requestId"] == call["id"]


async def test_hintgate_tools_and_its_log_never_show_a_secret_a_failing_child_printed(tmp_path: Path) -> None:
    leaky = entry([sys.executable, BAD, "leak", "${LEAK_TOKEN}"], env={"API_KEY": "sk-live-1234567"})
    config = write_config(tmp_path, {"leaky": leaky})
    completed = subprocess.run(
        [sys.executable, "-m", "hintgate", "tools", "--config", str(config), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
        env={**os.environ, "LEAK_TOKEN": "tok-from-env-89"},
    )
    assert completed.returncode == 3, completed.stderr  # a server is not up
    reason = {s["name"]: s for s in json.loads(completed.stdout)["servers"]}["leaky"]["status"]["reason"]
    assert "API_KEY=*** rejected" in reason
    assert "token *** rejected" in reason
    for secret in ("sk-live-1234567", "tok-from-env-89"):
        assert secret not in completed.stdout
        assert secret not in completed.stderr


class Person:
    """One client's human and log window: what questions and logs reached it."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.questions: list[str] = []
        self.logs: list[str] = []

    async def elicit(self, context: Any, params: Any) -> Any:
        import mcp_types as types

        self.questions.append(params.message)
        return types.ElicitResult(action="accept", content={"answer": self.answer})

    async def log(self, params: Any) -> None:
        self.logs.append(str(params.data))


@asynccontextmanager
async def http_client(gateway: RunningGateway, person: Person) -> AsyncIterator[Client]:
    async with Client(
        gateway.mcp_transport(), mode="legacy", elicitation_callback=person.elicit, logging_callback=person.log
    ) as client:
        yield client


async def test_an_upstream_question_and_log_whose_client_is_unknown_reach_no_client(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"asker": entry([sys.executable, BAD, "ask", "2"])})
    alice, bob = Person("from alice"), Person("from bob")
    results: dict[str, str] = {}
    with http_gateway(config) as gateway, anyio.fail_after(60):
        async with http_client(gateway, alice) as a, http_client(gateway, bob) as b:

            async def ask(client: Client, tag: str) -> None:
                result = await client.call_tool("asker_ask", {"tag": tag})
                results[tag] = json.dumps(dump(result))

            async with anyio.create_task_group() as tg:
                tg.start_soon(ask, a, "alice-call")
                tg.start_soon(ask, b, "bob-call")
    # Two clients' calls were in flight when the upstream asked and logged: neither gets
    # the other's question or log, and the upstream is told hintgate cannot route them.
    assert alice.questions == bob.questions == []
    assert not any("log for" in line for line in alice.logs + bob.logs)
    assert "cannot tell which client" in results["alice-call"]
    assert "cannot tell which client" in results["bob-call"]


async def test_an_upstream_question_and_log_reach_the_one_client_with_calls_in_flight(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"asker": entry([sys.executable, BAD, "ask", "2"])})
    alice = Person("from alice")
    results: dict[str, str] = {}
    with http_gateway(config) as gateway, anyio.fail_after(60):
        async with http_client(gateway, alice) as a:

            async def ask(tag: str) -> None:
                results[tag] = json.dumps(dump(await a.call_tool("asker_ask", {"tag": tag})))

            async with anyio.create_task_group() as tg:
                tg.start_soon(ask, "first")
                tg.start_soon(ask, "second")
    assert sorted(alice.questions) == ["question for first", "question for second"]
    assert "from alice" in results["first"]
    assert "from alice" in results["second"]
    with anyio.fail_after(10):
        while len([line for line in alice.logs if "log for" in line]) < 2:
            await anyio.sleep(0.05)  # logs are notifications: they may trail the results a little


NAMED = str(Path(__file__).parents[1] / "fixtures" / "named_server.py")


def cli(*args: str) -> Any:
    from typer.testing import CliRunner

    from hintgate.cli.app import app

    return CliRunner().invoke(app, ["quarantine", *args], catch_exceptions=False)


@pytest.mark.parametrize("on_change", ["ask", "hide"])
async def test_a_poisoned_tool_is_quarantined_until_an_operator_accepts_it_through_the_api(
    tmp_path: Path, on_change: str
) -> None:
    import httpx

    asked: list[str] = []

    async def person(context: Any, params: Any) -> Any:
        import mcp_types as types

        asked.append(params.message)
        return types.ElicitResult(action="decline")

    poisoned = entry([sys.executable, NAMED, "poisoned"], trust="trusted")
    config = write_config(tmp_path, {"p": poisoned}, integrity={"onChange": on_change}, policy={"mode": "bypass"})
    with running_gateway("--config", str(config), "--no-record") as gateway, anyio.fail_after(60):
        async with (
            Client(gateway.mcp_transport(), mode="legacy", elicitation_callback=person) as client,
            httpx.AsyncClient(base_url=gateway.base_url, headers=gateway.headers) as rest,
        ):
            listed = {t.name for t in (await client.list_tools()).tools}
            [held] = (await rest.get("/api/quarantine")).json()
            held_call = await client.call_tool("p_add_numbers", {"a": 1, "b": 2})
            clean = await client.call_tool("p_get_status", {})
            if on_change == "ask":
                accepted = await rest.post("/api/quarantine/p_add_numbers/accept", headers={"X-Hintgate-Request": "1"})
                assert accepted.status_code == 200
            else:  # the CLI, which goes through the same API
                listing = await anyio.to_thread.run_sync(cli, "list", "--url", gateway.base_url)
                assert "HG613 secret-file-reference at description:" in listing.stdout
                accepted_cli = await anyio.to_thread.run_sync(cli, "accept", "p_add_numbers", "--url", gateway.base_url)
                assert accepted_cli.exit_code == 0, accepted_cli.output
                assert "accepted p_add_numbers" in accepted_cli.stdout
            after = {t.name for t in (await client.list_tools(cache_mode="refresh")).tools}
            runs = await client.call_tool("p_add_numbers", {"a": 1, "b": 2})
            still_held = (await rest.get("/api/quarantine")).json()
    assert held["name"] == "p_add_numbers"
    assert held["hidden"] is True  # flagged on first sight: no accepted definition to serve in its place
    spans = {(f["code"], f["path"]) for f in held["findings"]}
    assert {("HG611", "description"), ("HG612", "description"), ("HG613", "description")} <= spans
    assert held_call.is_error is True
    assert clean.is_error is False
    assert "p_add_numbers" in after
    assert runs.is_error is False
    assert runs.content[0].text == "3"  # type: ignore[union-attr]
    assert still_held == []
    assert "p_add_numbers" not in listed  # its flagged text never reaches the model
    assert "id_rsa" not in held_call.content[0].text  # type: ignore[union-attr]
    assert asked == []


async def test_a_title_patched_over_rest_reaches_an_mcp_clients_next_tools_list(tmp_path: Path) -> None:
    import httpx

    changed = anyio.Event()

    async def on_message(message: Any) -> None:
        if "ToolListChanged" in type(message).__name__ or "tools/list_changed" in repr(message):
            changed.set()

    data = {"HINTGATE_DATA_DIR": str(tmp_path / "data")}
    with running_gateway("--demo", env=data) as gateway, anyio.fail_after(60):
        async with (
            Client(gateway.mcp_transport(), mode="legacy", message_handler=on_message) as client,
            httpx.AsyncClient(base_url=gateway.base_url, headers=gateway.headers) as rest,
        ):
            before = {t.name: t for t in (await client.list_tools()).tools}
            patched = await rest.patch(
                "/api/tools/notes_create_note/overrides",
                json={"title": "Write a new note"},
                headers={"X-Hintgate-Request": "1"},
            )
            assert patched.status_code == 200, patched.text
            await changed.wait()
            after = {t.name: t for t in (await client.list_tools(cache_mode="refresh")).tools}
            listed = {t["name"]: t for t in (await rest.get("/api/tools")).json()}
    assert before["notes_create_note"].title != "Write a new note"
    assert after["notes_create_note"].title == "Write a new note"
    annotations = after["notes_create_note"].annotations
    assert annotations is not None
    assert annotations.title == "Write a new note"
    assert listed["notes_create_note"]["title_provenance"] == "override"
    assert after["notes_get_note"].title == before["notes_get_note"].title  # only that tool changed
