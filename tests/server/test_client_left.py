"""A client that leaves mid-call, against a real `serve --http`: one plain line on stderr, no tracebacks.

The TypeScript SDK, when its request times out, cancels it and ends its
session (DELETE) on the way out. The SDK's transport may then meet the
session's closed stream while it still delivers the cancellation: the gateway
says so in one line, and the call waiting for approval is withdrawn.
"""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from tests.waiting import until as poll_until

from hintgate.server.client_left import ClientLeftGuard
from hintgate.testing import running_gateway

ACCEPT = {"Accept": "application/json, text/event-stream"}
WAIT = 60.0  # seconds any one step may take
until = partial(poll_until, within=WAIT)  # bounded polls: see tests.waiting


def cancel_and_leave(base_url: str, session_headers: dict[str, str], request_id: int) -> list[bytes]:
    """Cancel the request and end the session in one write on one connection, as a client leaving does.

    Both requests are pipelined so the DELETE is served the moment the
    cancellation is answered (202), while the transport still delivers it.
    Returns the status lines of the two answers.
    """
    host, port = base_url.removeprefix("http://").rsplit(":", 1)
    cancel = json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": request_id}})
    common = "".join(f"{name}: {value}\r\n" for name, value in {"Host": f"{host}:{port}", **session_headers}.items())
    pipelined = (
        f"POST /mcp HTTP/1.1\r\n{common}Content-Type: application/json\r\nContent-Length: {len(cancel)}\r\n\r\n"
        f"{cancel}DELETE /mcp HTTP/1.1\r\n{common}Connection: close\r\n\r\n"
    )
    with socket.create_connection((host, int(port)), timeout=WAIT) as connection:
        connection.sendall(pipelined.encode())
        answered = b""
        while chunk := connection.recv(65536):  # the server closes after the DELETE's answer
            answered += chunk
    return [line for line in answered.split(b"\r\n") if line.startswith(b"HTTP/1.1 ")]


def test_a_client_leaving_while_its_call_waits_for_approval_is_one_line_on_stderr_not_tracebacks(
    tmp_path: Path, filesystem_cmd: list[str]
) -> None:
    target = Path(filesystem_cmd[-1]) / "never.txt"
    config = tmp_path / "hintgate.json"
    fs = {"command": filesystem_cmd[0], "args": filesystem_cmd[1:]}
    config.write_text(json.dumps({"mcpServers": {"fs": fs}}))
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data")}
    db = f"sqlite:///{tmp_path / 'h.db'}"
    with (
        running_gateway("--config", str(config), "--db", db, env=env) as gateway,
        httpx.Client(base_url=gateway.base_url, headers=gateway.headers, timeout=WAIT) as rest,
        httpx.Client(base_url=gateway.base_url, headers=gateway.headers, timeout=WAIT) as caller,
    ):
        hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
        opened = rest.post(
            "/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}, headers=ACCEPT
        )
        session = {**ACCEPT, "Mcp-Session-Id": opened.headers["mcp-session-id"], "Mcp-Protocol-Version": "2025-06-18"}
        rest.post("/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=session)
        write = {"name": "fs_write_file", "arguments": {"path": str(target), "content": "nobody waits for this"}}
        call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": write}
        with caller.stream("POST", "/mcp", json=call, headers=session) as waiting:
            until(lambda: rest.get("/api/approvals").json(), "the call waits for approval")
            answers = cancel_and_leave(gateway.base_url, {**session, **gateway.headers}, 7)
            waiting.close()
        until(lambda: [line for line in gateway.log if "client left" in line or "Traceback" in line], "a word")
        [recorded] = until(lambda: rest.get("/api/calls", params={"tool": "fs_write_file"}).json(), "the record")
        # The withdrawn approval leaves the queue just after the record is written: wait for it, bounded.
        until(lambda: rest.get("/api/approvals").json() == [], "the approval withdrawn from the queue")
    log = "".join(gateway.log)
    said = [line for line in gateway.log if "client left" in line]
    assert answers == [b"HTTP/1.1 202 Accepted", b"HTTP/1.1 200 OK"]
    assert "Traceback" not in log
    assert "Exception in ASGI application" not in log
    assert "Error handling POST request" not in log
    assert len(said) == 1
    assert "the session ended before its notifications/cancelled reached it" in said[0]
    assert opened.headers["mcp-session-id"] in said[0]
    assert recorded["verdict"] == "withdrawn"
    assert not target.exists()


def sdk_endpoint(error: Exception) -> Callable[..., Any]:
    """An endpoint that answers 202, then fails the way the SDK's transport does: logged, then raised."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "http.response.start", "status": 202, "headers": []})
        await send({"type": "http.response.body", "body": b""})
        try:
            raise error
        except Exception:
            logging.getLogger("mcp.server.streamable_http").exception("Error handling POST request")
        raise error

    return app


@pytest.mark.anyio
@pytest.mark.parametrize("error", [ValueError("a real bug"), RuntimeError("another")])
async def test_any_other_error_on_that_path_is_still_logged_with_its_traceback_and_raised(
    error: Exception, caplog: pytest.LogCaptureFixture
) -> None:
    guard = ClientLeftGuard(sdk_endpoint(error))
    sent: list[Any] = []

    async def receive() -> Any:
        return {"type": "http.request", "body": b'{"jsonrpc": "2.0", "method": "notifications/cancelled"}'}

    async def send(message: Any) -> None:
        sent.append(message)

    with caplog.at_level(logging.DEBUG), pytest.raises(type(error)):
        await guard({"type": "http", "method": "POST", "headers": []}, receive, send)
    [logged] = [r for r in caplog.records if r.getMessage() == "Error handling POST request"]
    assert logged.exc_info is not None
    assert logged.exc_info[1] is error
    assert not any("client left" in r.getMessage() for r in caplog.records)


@pytest.mark.anyio
async def test_a_closed_stream_the_sdk_did_not_report_on_that_path_is_raised_as_it_is() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise anyio.ClosedResourceError

    async def receive() -> Any:
        return {"type": "http.request", "body": b""}

    async def send(message: Any) -> None:
        pass

    with pytest.raises(anyio.ClosedResourceError):
        await ClientLeftGuard(app)({"type": "http", "method": "POST", "headers": []}, receive, send)
