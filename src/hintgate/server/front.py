"""A stdio client's handshake and first `tools/list` answered before the MCP SDK is imported.

A client that launches the gateway sends `initialize`, `notifications/initialized` and `tools/list`, and waits
for the listing. Importing the SDK's types and its server side took about 0.7 s of the 1.2 s of CPU a stdio
gateway spent before that answer (load 4). `FirstAnswers` answers the handshake-era `initialize` (the answer
the SDK's server gives: `WELCOME`, the protocol version negotiated as it negotiates it) and the first plain
`tools/list` (the catalog's page, as `server.face` pages it for a stdio client) from the gateway's own JSON;
then the SDK's server is built and handed the same messages first (`server.stdio.Replay`), under ids of this
module's own whose answers are not written again, so its connection is initialized as if it had answered
them itself, and opens the client's session there. Everything read after that goes to the SDK as before.

Only what is plainly valid is answered here: anything else the client sends first (a 2026-07-28 request, an
`initialize` whose parameters the SDK might refuse or that declares extensions, a `ping`, a paged or early
`tools/list`, a call) hands over at once, and the SDK answers it and all that follows. `tests/server/
test_front.py` holds the answers here to the SDK's own for the same messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from hintgate import __version__
from hintgate.random_ids import random_hex
from hintgate.server.eras import MODERN_VERSIONS
from hintgate.server.routing import list_page
from hintgate.server.stdio import Read, Replay, Write

if TYPE_CHECKING:
    from hintgate.server.gateway import Gateway

__all__ = ["DESCRIPTION", "HANDOVER_WAIT", "NAME", "WELCOME", "FirstAnswers", "serve_stdio"]

logger = logging.getLogger(__name__)

NAME = "hintgate"
"""The gateway's name (and title) in its answer to `initialize`."""
DESCRIPTION = "An MCP gateway that makes tool annotations complete, explainable and enforced."
"""The gateway's description in its answer to `initialize`."""

WELCOME: dict[str, Any] = {
    "capabilities": {
        "completions": {},
        "logging": {},
        "prompts": {"listChanged": True},
        "resources": {"listChanged": True, "subscribe": True},
        "tools": {"listChanged": True},
    },
    "serverInfo": {"description": DESCRIPTION, "name": NAME, "title": NAME, "version": __version__},
}
"""The answer to a handshake-era `initialize` but its `protocolVersion`: what the SDK's server built by
`server.face.sdk_server` answers, at every handshake version (the extensions it advertises are the 2026-07-28
era's only)."""

HANDOVER_WAIT = 30.0
"""Seconds a stop (SIGTERM) that comes after the opening answered waits for the SDK to take the connection over
(its import and the replayed messages): the client's session opens there, and is recorded, before serving stops."""

_CLIENT_INFO = frozenset({"name", "version", "title", "description", "websiteUrl"})


def _handshake_versions() -> tuple[str, ...]:
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS  # the versions list alone, not the SDK's types

    return HANDSHAKE_PROTOCOL_VERSIONS


def negotiated(requested: str) -> str:
    """The protocol version the SDK answers an `initialize` asking for `requested` with."""
    versions = _handshake_versions()
    return requested if requested in versions else versions[-1]


def _meta_only(params: Any) -> bool:
    """Whether request or notification params are absent, or hold nothing but a `_meta` object."""
    return params is None or (
        isinstance(params, Mapping) and set(params) <= {"_meta"} and isinstance(params.get("_meta", {}), Mapping)
    )


def _plain_capabilities(capabilities: Any) -> bool:
    """Client capabilities the SDK accepts for sure: objects of flags and objects, no extensions declared."""
    if not isinstance(capabilities, Mapping) or "extensions" in capabilities:
        return False
    return all(
        isinstance(value, Mapping) and all(isinstance(inner, bool | Mapping) for inner in value.values())
        for value in capabilities.values()
    )


def plain_initialize(message: Mapping[str, Any]) -> bool:
    """Whether `message` is a handshake-era `initialize` the SDK accepts for sure, declaring no extensions."""
    params = message.get("params")
    if message.get("method") != "initialize" or "id" not in message or not isinstance(params, Mapping):
        return False
    info = params.get("clientInfo")
    return (
        set(params) <= {"protocolVersion", "capabilities", "clientInfo", "_meta"}
        and isinstance(params.get("protocolVersion"), str)
        and params["protocolVersion"] not in MODERN_VERSIONS
        and isinstance(params.get("_meta", {}), Mapping)
        and _plain_capabilities(params.get("capabilities"))
        and isinstance(info, Mapping)
        and set(info) <= _CLIENT_INFO
        and isinstance(info.get("name"), str)
        and isinstance(info.get("version"), str)
        and all(isinstance(value, str) for value in info.values())
    )


class FirstAnswers:
    """The opening of a stdio connection (`server.stdio.Opening`): the handshake and first listing, SDK-free.

    Args:
        gateway: entered (its first catalog built).
    """

    def __init__(self, gateway: Gateway) -> None:
        self._gateway = gateway
        self._tag = f"hintgate-opening-{random_hex()}"
        self.handing_over = False
        """Whether the opening answered requests and ended: the SDK is to be handed them before serving stops."""

    def _replayed(self, message: Mapping[str, Any], n: int) -> dict[str, Any]:
        """`message` under an id of this opening's own, which no client sends."""
        return {**message, "id": f"{self._tag}-{n}"}

    def _first_page(self, params: Any) -> dict[str, Any] | None:
        """The first `tools/list` page a stdio client gets, or None when the SDK should answer (an error)."""
        try:
            listing, _view = self._gateway.listing(None)  # a stdio client's view: the gateway's `--view`
            return list_page(listing.wire, "tools", params or {})
        except Exception:
            return None

    async def answer(self, read: Read, write: Write) -> Replay:
        """Answer `initialize` and the first `tools/list` if the client sends them plainly; what the SDK gets."""
        message = await read()
        if message is None:
            return Replay()
        if not plain_initialize(message):
            return Replay([message])
        held = [self._replayed(message, 1)]
        version = negotiated(message["params"]["protocolVersion"])
        await write({"jsonrpc": "2.0", "id": message["id"], "result": {**WELCOME, "protocolVersion": version}})
        initialized = False
        while (message := await read()) is not None:
            method = message.get("method")
            if method == "notifications/initialized" and "id" not in message and not initialized:
                if not _meta_only(message.get("params")):
                    break
                initialized = True
                held.append(message)
                continue
            if not (initialized and method == "tools/list" and "id" in message and _meta_only(message.get("params"))):
                break
            page = self._first_page(message.get("params"))
            if page is None:
                break
            first = self._gateway.first_answer
            first.listing_served()
            await write({"jsonrpc": "2.0", "id": message["id"], "result": page})
            first.answer_written()
            # The SDK lists again under an id of its own (its answer is not written): the session opens there.
            held.append(self._replayed(message, 2))
            self.handing_over = True
            return Replay(held, frozenset(str(m["id"]) for m in held if "id" in m))
        if message is not None:
            held.append(message)
        self.handing_over = True
        return Replay(held, frozenset({held[0]["id"]}))


async def serve_stdio(gateway: Gateway, server: Callable[[], Any]) -> None:
    """Serve a gateway's MCP on this process's stdin and stdout until the client closes them.

    Args:
        gateway: entered.
        server: the SDK's low-level `Server` for it (`server.face.build_server`), asked for once the client's
            handshake and first listing are answered (`FirstAnswers`): the SDK is imported then.

    Cancelled (SIGTERM) once the opening has answered and ended, and before the SDK has taken the connection
    over, serving goes on until it has (for up to `HANDOVER_WAIT` seconds), then stops: the SDK opens the
    client's session as it answers the replayed listing, so a client stopped right after its first listing is
    still recorded, as it was when the SDK answered that listing itself.
    """
    opening = FirstAnswers(gateway)
    handed = asyncio.Event()
    serving = asyncio.ensure_future(_serve(gateway, server, opening, handed.set))
    try:
        await asyncio.shield(serving)
    except asyncio.CancelledError:
        if opening.handing_over and not handed.is_set() and not serving.done():
            waiting = asyncio.ensure_future(handed.wait())
            await asyncio.wait({serving, waiting}, timeout=HANDOVER_WAIT, return_when=asyncio.FIRST_COMPLETED)
            waiting.cancel()
        serving.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await serving
        raise


async def _serve(
    gateway: Gateway, server: Callable[[], Any], opening: FirstAnswers, handed: Callable[[], None]
) -> None:
    from hintgate.server.direct import DirectStdioCalls
    from hintgate.server.stdio import stdio_streams

    direct = DirectStdioCalls(lambda: gateway.stdio_connection, gateway.call_tool, modern_versions=MODERN_VERSIONS)
    written = gateway.first_answer.answer_written
    async with stdio_streams(direct=direct, written=written, opening=opening, handed_over=handed) as streams:
        served = server()
        await served.run(*streams, served.create_initialization_options())
