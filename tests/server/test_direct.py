"""tools/call taken off the stdio pipe (`hintgate.server.direct`): the same gateway call as any other way in."""

from __future__ import annotations

from typing import Any

import pytest
from mcp.server.connection import Connection

from hintgate.config.model import Trust
from hintgate.server.direct import DirectStdioCalls
from hintgate.server.eras import MODERN_VERSIONS
from hintgate.testing import FakeSource, in_memory_gateway

pytestmark = pytest.mark.anyio

TOOL = {"name": "get_note", "description": "Get a note by id.", "inputSchema": {"type": "object"}}


async def test_a_call_taken_off_the_stdio_pipe_keeps_its_session_busy_while_it_runs_and_not_after() -> None:
    connection = Connection.from_envelope("2025-11-25", None, None)
    busy: list[int] = []

    def get_note(arguments: Any) -> str:
        busy.extend(s.in_flight for s in gateway.sessions if s.connection is connection)
        return "note 1"

    source = FakeSource("notes", tools=[TOOL], handlers={"get_note": get_note}, trust=Trust.TRUSTED)
    written: list[dict[str, Any]] = []

    async def write(message: dict[str, Any]) -> None:
        written.append(message)

    async with in_memory_gateway(source) as (gateway, _):
        direct = DirectStdioCalls(lambda: connection, gateway.call_tool, modern_versions=frozenset(MODERN_VERSIONS))
        request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "notes_get_note"}}
        answer = await direct.call(request, write)
        after = [s.in_flight for s in gateway.sessions if s.connection is connection]
    assert answer["result"]["content"] == [{"type": "text", "text": "note 1"}]
    assert busy == [1]  # the gateway counts the call on its session, as it does the SDK's
    assert after == [0]
    assert written == []  # no progress asked for, none sent
