"""Connections before any check: caps per gateway and per peer answer 503, and a head that never ends is cut off.

A real `hintgate serve --http` with small limits; the slow clients are raw
sockets that send half a request head and then nothing.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import httpx
from tests.waiting import until

from hintgate.testing import RunningGateway, running_gateway

WAIT = 30.0


@contextmanager
def gateway(**limits: str) -> Iterator[RunningGateway]:
    with running_gateway("--demo", "--no-record", env=limits) as running:
        yield running


def slow(running: RunningGateway, stack: ExitStack, source: str = "127.0.0.1") -> socket.socket:
    """A connection that sends half a request head and then nothing."""
    host, port = running.base_url.removeprefix("http://").rsplit(":", 1)
    sock = stack.enter_context(socket.create_connection((host, int(port)), timeout=WAIT, source_address=(source, 0)))
    sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: " + host.encode() + b"\r\nX-Slow: ")
    return sock


def closed(sock: socket.socket) -> bool:
    """Whether the gateway closed this connection (what it sent before, if anything, is read and dropped)."""
    sock.settimeout(0.2)
    try:
        while chunk := sock.recv(65536):
            if not chunk:
                break
        return True
    except TimeoutError:
        return False
    except ConnectionError:
        return True


def test_past_the_gateways_cap_a_client_gets_503_and_slow_heads_are_closed_by_the_deadline() -> None:
    with gateway(HINTGATE_MAX_CONNECTIONS="8", HINTGATE_HEAD_TIMEOUT="2") as running, ExitStack() as stack:
        stalled = [slow(running, stack) for _ in range(8)]
        with httpx.Client(timeout=WAIT, headers=running.headers) as http:
            busy = http.get(f"{running.base_url}/api/health")
            # Every stalled connection is closed by the head deadline; then the gateway serves again.
            until(lambda: all(closed(sock) for sock in stalled), "the stalled connections are closed", within=WAIT)
            served = http.get(f"{running.base_url}/api/health")
    assert busy.status_code == 503
    assert "connections (its limit)" in busy.json()["detail"]
    assert served.status_code == 200
    assert any("refusing new connections with 503" in line for line in running.log)


def test_one_peer_address_cannot_take_every_connection() -> None:
    with gateway(HINTGATE_MAX_CONNECTIONS_PER_PEER="4", HINTGATE_HEAD_TIMEOUT="60") as running, ExitStack() as stack:
        for _ in range(4):
            slow(running, stack, source="127.0.0.2")
        extra = slow(running, stack, source="127.0.0.2")
        answer = until(lambda: extra.recv(65536), "the fifth connection of 127.0.0.2 is answered", within=WAIT)
        with httpx.Client(timeout=WAIT, headers=running.headers) as http:
            other = http.get(f"{running.base_url}/api/health")
    assert answer.startswith(b"HTTP/1.1 503 ")
    assert b"127.0.0.2 holds 4 connections" in answer
    assert other.status_code == 200


def test_a_body_that_stops_after_its_head_is_cut_off_by_the_body_deadline() -> None:
    with gateway(HINTGATE_BODY_TIMEOUT="2", HINTGATE_HEAD_TIMEOUT="60") as running, ExitStack() as stack:
        host, port = running.base_url.removeprefix("http://").rsplit(":", 1)
        sock = stack.enter_context(socket.create_connection((host, int(port)), timeout=WAIT))
        head = (
            f"POST /mcp HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\nAuthorization: Bearer {running.token}\r\n"
            "Content-Length: 400\r\n\r\n"
        )
        sock.sendall(head.encode() + b'{"jsonrpc": "2.0", ')  # the head is whole; the body stops here
        until(lambda: closed(sock), "the connection with a stalled body is closed", within=WAIT)
        with httpx.Client(timeout=WAIT, headers=running.headers) as http:
            assert http.get(f"{running.base_url}/api/health").status_code == 200
