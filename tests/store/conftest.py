"""The store's fixtures: every store test runs on SQLite and on a real PostgreSQL server.

The server is started once per test session by `bench/_postgres.py` (shared
with the throughput benchmark) from Debian's `postgresql` binaries, and each
test gets a fresh database on it. Without PostgreSQL installed the
PostgreSQL half is skipped, except under CI, where it fails.
"""

from __future__ import annotations

import sys
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from hintgate.store import CallRecord, RecordingSettings, SessionRecord, Store

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import _postgres  # lives in bench/, put on sys.path just above


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a fresh, empty database on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'hintgate.db'}"
    server: _postgres.PostgresServer = request.getfixturevalue("postgres_server")
    return server.create_database()


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[Store]:
    opened = await Store.open(store_url, RecordingSettings(commit_interval=0.01), replica="test-replica")
    yield opened
    await opened.close()


class Records:
    """Makes session and call records with sensible defaults, times strictly increasing."""

    def __init__(self) -> None:
        self.clock = datetime(2026, 1, 1, tzinfo=UTC)
        self.count = 0

    def tick(self) -> datetime:
        self.clock += timedelta(seconds=1)
        return self.clock

    def session(self, **fields: Any) -> SessionRecord:
        values: dict[str, Any] = {
            "id": str(uuid.uuid4()),
            "client_name": "test-client",
            "client_version": "1.0",
            "started_at": self.tick(),
            "transport": "stdio",
            "replica": "test-replica",
        }
        values.update(fields)
        return SessionRecord(**values)

    def call(self, session_id: str | None, **fields: Any) -> CallRecord:
        self.count += 1
        values: dict[str, Any] = {
            "id": f"call-{self.count}",
            "session_id": session_id,
            "server_id": "time",
            "server_name": "mcp-server-time",
            "tool_name": "time_get_current_time",
            "upstream_tool": "get_current_time",
            "arguments": {"timezone": "Europe/Paris"},
            "response": {"content": [{"type": "text", "text": "It is 12:00 in Paris."}], "isError": False},
            "error": None,
            "started_at": self.tick(),
            "duration_ms": 1.25,
            "request_id": str(self.count),
            "client_name": "test-client",
            "client_version": "1.0",
            "hints": {
                "annotations": {
                    "readOnlyHint": True,
                    "destructiveHint": False,
                    "idempotentHint": True,
                    "openWorldHint": False,
                },
                "provenance": {"readOnlyHint": "declared"},
                "tier": "read-only",
            },
            "tier": "read-only",
        }
        values.update(fields)
        return CallRecord(**values)


@pytest.fixture
def records() -> Records:
    return Records()
