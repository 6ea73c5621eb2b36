"""Request ids MCP refuses (null, floats, booleans, arrays, objects) get -32600 over HTTP, as on stdio.

A real `hintgate serve --http` with the demo server behind it, spoken to in raw
JSON-RPC, with the fast path on and off (`HINTGATE_HTTP_FAST=0`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from hintgate.testing import running_gateway

pytestmark = pytest.mark.anyio

ERA = "2025-11-25"
HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": ERA}
INIT = {"protocolVersion": ERA, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}


def answers(response: httpx.Response) -> list[dict[str, Any]]:
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        return [json.loads(line[5:]) for line in response.text.splitlines() if line.startswith("data:")]
    return [response.json()]


@pytest.mark.parametrize("fast", ["1", "0"])
async def test_a_request_whose_id_is_not_a_string_or_an_integer_is_answered_invalid_request(
    tmp_path: Path, fast: str
) -> None:
    config = tmp_path / "hintgate.json"
    demo = {"command": sys.executable, "args": ["-m", "hintgate.demo"], "trust": "trusted"}
    config.write_text(json.dumps({"mcpServers": {"demo": demo}}))
    env = {"HINTGATE_HTTP_FAST": fast}
    with running_gateway("--config", str(config), "--no-record", env=env) as gateway:
        async with httpx.AsyncClient(timeout=30, headers={**HEADERS, **gateway.headers}) as http:
            url = gateway.mcp_url
            call = {"name": "demo_search_notes", "arguments": {"query": "x"}}
            for wrong in (1.5, True, None, {}, [1]):
                # Refused before a session is even looked at, like a parse error.
                early = await http.post(url, json={"jsonrpc": "2.0", "id": wrong, "method": "initialize"})
                assert early.status_code == 400
                assert early.json()["error"]["code"] == -32600
            opened = await http.post(url, json={"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": INIT})
            session = {"Mcp-Session-Id": opened.headers["mcp-session-id"]}
            done = await http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=session)
            assert done.status_code == 202
            for wrong in (1.5, True, None, {}, [1]):
                for method, params in (("tools/list", None), ("tools/call", call)):
                    message = {"jsonrpc": "2.0", "id": wrong, "method": method, "params": params}
                    refused = await http.post(url, json=message, headers=session)
                    assert refused.status_code == 400, (wrong, method, refused.text)
                    error = refused.json()
                    assert error["id"] is None
                    assert error["error"]["code"] == -32600
                    assert f"id {json.dumps(wrong)} is not a string or an integer" in error["error"]["message"]
            listed = await http.post(url, json={"jsonrpc": "2.0", "id": 7, "method": "tools/list"}, headers=session)
            assert listed.status_code == 200
            (answer,) = answers(listed)
            assert answer["id"] == 7
            assert any(tool["name"] == "demo_search_notes" for tool in answer["result"]["tools"])
