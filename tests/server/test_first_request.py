"""A handshake-era HTTP session that only `initialize`s and makes no request is closed soon, not after 30 minutes.

A real `hintgate serve --http` with `timeouts.sessionFirstRequest: 1` and the
usual idle timeout long (600 s): the silent session's id answers 404 within the
bounded wait, while a session that made a request lives on.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from test_session_idle import WAIT, HandshakeClient
from tests.waiting import until

from hintgate.testing import RunningGateway, running_gateway


@contextmanager
def gateway(tmp_path: Path) -> Iterator[RunningGateway]:
    config = tmp_path / "hintgate.json"
    timeouts = {"sessionIdle": 600, "sessionFirstRequest": 1}
    config.write_text(json.dumps({"mcpServers": {}, "timeouts": timeouts}))
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data")}
    with running_gateway("--config", str(config), "--no-record", env=env) as running:
        yield running


def test_a_session_that_makes_no_request_after_initialize_is_closed_and_one_that_did_is_kept(
    tmp_path: Path,
) -> None:
    with gateway(tmp_path) as running, httpx.Client(timeout=WAIT, headers=running.headers) as http:
        silent = HandshakeClient(http, running.mcp_url, "silent")
        asking = HandshakeClient(http, running.mcp_url, "asking")
        assert asking.post("tools/list").status_code == 200
        nudge = {"jsonrpc": "2.0", "method": "notifications/initialized"}  # a notification is not a request

        def silent_is_gone() -> bool:
            return http.post(running.mcp_url, json=nudge, headers=silent.headers()).status_code == 404

        # Polled less often than the first-request timeout, so the polls themselves cannot keep it open.
        until(silent_is_gone, "the silent session is closed", within=WAIT, every=1.5)
        kept = asking.post("tools/list")
    assert kept.status_code == 200, kept.text
