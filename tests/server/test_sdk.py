"""The MCP SDK's private parts hintgate reads (`hintgate.server.sdk`), checked against the installed `mcp`.

Every check uses the SDK's real classes and objects. A release that renames or
moves one of these parts fails here, naming the part and the release, instead
of breaking a call path at run time (or, worse, silently doing nothing).
"""

from __future__ import annotations

import ast
import asyncio
import importlib
import inspect
import math
from importlib.metadata import version
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.auth import OAuthClientProvider
from mcp.server.connection import Connection
from mcp.server.lowlevel import Server
from mcp.server.session import ServerSession
from mcp.server.streamable_http import StreamableHTTPServerTransport

from hintgate.server import sdk

pytestmark = pytest.mark.anyio

MCP = version("mcp")
SRC = Path(__file__).resolve().parents[2] / "src" / "hintgate"


def resolve(where: str) -> Any:
    """The SDK object a dotted path names (a module's class, or a class's method)."""
    parts = where.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            found: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            found = getattr(found, part, None)
            assert found is not None, f"mcp {MCP}: {where} is gone (hintgate.server.sdk reads it)"
        return found
    raise AssertionError(f"mcp {MCP}: no module of {where} imports")


def built(where: str) -> Any:
    """A real instance of the SDK class `where`, as the SDK builds it."""
    if where == "mcp.server.session.ServerSession":
        return ServerSession(object(), Connection.from_envelope("2025-11-25", None, None))  # type: ignore[arg-type]
    if where == "mcp.server.lowlevel.server.Server":
        return Server("contract")
    if where == "mcp.server.streamable_http_manager.StreamableHTTPSessionManager":
        server = Server("contract")
        server.streamable_http_app()
        return server.session_manager
    if where == "mcp.server.streamable_http.StreamableHTTPServerTransport":
        return StreamableHTTPServerTransport("contract", idle_timeout=5.0)
    raise AssertionError(f"the contract test cannot build {where}: add it to `built`")


@pytest.mark.parametrize(
    ("where", "attribute"), sdk.RELIED_ON, ids=[f"{w.split('.')[-1]}.{a}" for w, a in sdk.RELIED_ON]
)
def test_the_installed_sdk_has_every_private_part_hintgate_reads(where: str, attribute: str) -> None:
    target = resolve(where)
    if inspect.isfunction(target):
        parameters = inspect.signature(target).parameters
        assert attribute in parameters, f"mcp {MCP}: {where}() takes no keyword {attribute!r} (hintgate.server.sdk)"
    else:
        assert isinstance(target, type), where
        assert hasattr(built(where), attribute), (
            f"mcp {MCP}: {where} has no attribute {attribute!r} (hintgate.server.sdk)"
        )


def _private_or_idle(name: str) -> bool:
    return (name.startswith("_") and not name.startswith("__")) or name == "idle_scope"


def _on_self(node: ast.Attribute) -> bool:
    return isinstance(node.value, ast.Name) and node.value.id == "self"


def test_every_private_part_the_door_reads_is_listed_and_every_listed_part_is_read() -> None:
    tree = ast.parse((SRC / "server" / "sdk.py").read_text(encoding="utf-8"))
    read: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private_or_idle(node.attr) and not _on_self(node):
            read.add(node.attr)
        if isinstance(node, ast.keyword) and node.arg is not None and node.arg.startswith("_"):
            read.add(node.arg)
    assert read == {attribute for _, attribute in sdk.RELIED_ON}


def test_a_session_gives_the_channel_and_the_connection_it_was_built_with() -> None:
    channel = object()
    connection = Connection.from_envelope("2025-11-25", None, None)
    session = ServerSession(channel, connection)  # type: ignore[arg-type]
    assert sdk.request_channel(session) is channel
    assert sdk.connection_of(session) is connection
    # What the gateway reads of a connection: an envelope's needs no handshake and has no HTTP session id.
    assert connection.session_id is None
    assert connection.initialize_accepted is True


def test_the_session_manager_and_its_parts_are_what_the_door_says() -> None:
    server = Server("contract")
    assert sdk.session_manager_of(server) is None  # no HTTP app yet (a stdio gateway)
    server.streamable_http_app()
    manager = sdk.session_manager_of(server)
    assert manager is server.session_manager
    assert sdk.http_transport(manager, "no such session") is None
    assert sdk.owned_session(manager, "no such session") is False
    assert sdk.lifespan_state(manager) is None  # set while the manager runs
    transport = StreamableHTTPServerTransport("contract", idle_timeout=5.0)
    assert sdk.request_streams(transport) == {}
    assert sdk.quiet(transport) is True


async def test_a_held_session_keeps_its_idle_clock_stopped_and_a_quiet_one_can_be_ended_sooner() -> None:
    transport = StreamableHTTPServerTransport("contract", idle_timeout=600.0)
    async with transport.connect():
        idle = sdk.idle_scope(transport)
        assert isinstance(idle, anyio.CancelScope)  # made when the session starts, as the manager enters it
        with sdk.ServingHold(transport):
            assert idle.deadline == math.inf
            assert not sdk.quiet(transport)
            sdk.shorten_idle(transport, 1.0)
            assert idle.deadline == math.inf  # a request holds it
        now = asyncio.get_running_loop().time()
        assert now < idle.deadline <= now + 600.0
        sdk.shorten_idle(transport, 1.0)
        assert idle.deadline <= anyio.current_time() + 1.0
        await transport.terminate()


def _hooks(path: Path) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """(name, override) for every method of `path` that calls the same private method on `super()`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if not node.name.startswith("_") or node.name.startswith("__"):
            continue
        for inner in ast.walk(node):
            if (
                isinstance(inner, ast.Attribute)
                and inner.attr == node.name
                and isinstance(inner.value, ast.Call)
                and isinstance(inner.value.func, ast.Name)
                and inner.value.func.id == "super"
            ):
                found.append((node.name, node))
                break
    return found


def test_the_oauth_client_hooks_hintgate_overrides_are_still_the_sdks_with_the_same_parameters() -> None:
    hooks = _hooks(SRC / "sources" / "oauth.py")
    assert {name for name, _ in hooks} >= {"_initialize", "_auth_flow"}  # the test still sees the overrides
    for name, override in hooks:
        sdk_hook = getattr(OAuthClientProvider, name, None)
        assert sdk_hook is not None, f"mcp {MCP}: OAuthClientProvider.{name} is gone (sources/oauth.py overrides it)"
        theirs = [p for p in inspect.signature(sdk_hook).parameters if p != "self"]
        ours = [a.arg for a in override.args.args if a.arg != "self"]
        assert ours == theirs, f"mcp {MCP}: OAuthClientProvider.{name} takes {theirs}, sources/oauth.py passes {ours}"


def test_wire_models_made_after_the_deferral_build_their_validators_at_first_use(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mcp_types._wire_base import WireModel
    from pydantic import ValidationError

    monkeypatch.setitem(WireModel.model_config, "defer_build", False)  # undone after the test
    sdk.defer_wire_validators()

    class Shape(WireModel):
        count: int

    assert Shape.__pydantic_complete__ is False  # no validator yet
    assert Shape.model_validate({"count": 2}).count == 2
    assert Shape.__pydantic_complete__ is True
    with pytest.raises(ValidationError):
        Shape.model_validate({"count": "two"})


_ERA_CHECKS = """
import sys
from hintgate.server.sdk import defer_wire_validators
if sys.argv[1] == "deferred":
    defer_wire_validators()
import mcp_types._v2026_07_28 as modern
from mcp_types.methods import parse_client_request, serialize_server_result
print(modern.ListToolsRequest.__pydantic_complete__)
tool = {"name": "t", "inputSchema": {"type": "object"}, "extra": 1}
meta = {"io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/protocolVersion": "2026-07-28"}
call = {"name": "t", "arguments": {"a": 1}, "_meta": meta}
listing = {"tools": [tool], "cacheScope": "private", "resultType": "complete", "ttlMs": 1000}
for era in ("2025-11-25", "2026-07-28"):
    for check in (
        lambda: parse_client_request("tools/list", era, {"_meta": meta}).method,
        lambda: parse_client_request("tools/call", era, call).params.name,
        lambda: parse_client_request("tools/call", era, {"arguments": {"a": 1}, "_meta": meta}),
        lambda: serialize_server_result("tools/list", era, listing),
        lambda: serialize_server_result("tools/list", era, {"tools": [{"inputSchema": {}}], "cacheScope": "public"}),
    ):
        try:
            print(era, repr(check()))
        except Exception as error:
            print(era, type(error).__name__, str(error).splitlines()[:2])
"""


def test_with_wire_validators_deferred_each_era_checks_its_messages_as_before() -> None:
    import subprocess
    import sys

    def run(mode: str) -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", _ERA_CHECKS, mode], capture_output=True, text=True, timeout=120, check=True
        )
        return done.stdout.splitlines()

    deferred, built_at_once = run("deferred"), run("at-once")
    assert (deferred[0], built_at_once[0]) == ("False", "True")  # the other era's validators not built yet
    assert deferred[1:] == built_at_once[1:]
    assert len(deferred) == 11
