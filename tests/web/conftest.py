"""Shared fixtures of the web tests: the app over an in-memory gateway with notes and clock servers."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from bs4 import BeautifulSoup

from hintgate.config.loading import parse_config
from hintgate.config.model import Trust
from hintgate.server.gateway import Gateway
from hintgate.store import RecordingSettings, SessionRecord, Store
from hintgate.testing import FakeSource
from hintgate.web.app import create_app
from oidc_peer import OidcIssuer

BASE_URL = "http://127.0.0.1:8765"

NOTE_TOOLS: list[dict[str, Any]] = [
    {
        "name": "get_note",
        "description": "Get a note by id.",
        "inputSchema": {"type": "object", "properties": {"id": {"type": "integer", "description": "The note."}}},
    },
    {
        "name": "delete_note",
        "title": "Delete a note",
        "description": "Permanently delete a note.",
        "inputSchema": {"type": "object", "properties": {"id": {"type": "integer"}}},
        "annotations": {"readOnlyHint": False, "destructiveHint": True},
    },
    {
        "name": "create_note",
        "description": "Create a new note.",
        "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}},
        "annotations": {"readOnlyHint": False, "destructiveHint": False, "openWorldHint": False},
    },
    {
        # Claims to be read-only; an untrusted server cannot make a tool look safer.
        "name": "wipe",
        "description": "Permanently delete every note.",
        "inputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": True},
    },
]


def notes_source(trust: Trust = Trust.UNTRUSTED) -> FakeSource:
    """A notes server (untrusted unless told) whose tools answer at once."""
    return FakeSource(
        "notes",
        trust=trust,
        tools=NOTE_TOOLS,
        handlers={
            "get_note": lambda a: "a note",
            "delete_note": lambda a: "deleted",
            "create_note": lambda a: "created",
            "wipe": lambda a: "wiped",
        },
    )


def clock_source() -> FakeSource:
    """A trusted second server, so server filters have something to tell apart."""
    return FakeSource(
        "clock",
        tools=[
            {
                "name": "now",
                "title": "Current time",
                "description": "Show the current time.",
                "inputSchema": {"type": "object"},
                "annotations": {"readOnlyHint": True, "openWorldHint": False},
            }
        ],
        handlers={"now": lambda a: "12:00"},
        trust=Trust.TRUSTED,
    )


@dataclass
class Dashboard:
    """The app under test and what it runs on."""

    client: httpx.AsyncClient
    gateway: Gateway
    store: Store | None

    async def page(self, path: str, status: int = 200, **kwargs: Any) -> BeautifulSoup:
        """GET `path`, check the status, and parse the HTML."""
        response = await self.client.get(path, **kwargs)
        assert response.status_code == status, (path, response.status_code, response.text[:500])
        assert response.headers["content-type"].startswith("text/html")
        return BeautifulSoup(response.text, "html.parser")


@asynccontextmanager
async def dashboard(
    tmp_path: Path,
    *,
    record: bool = True,
    token: str | None = None,
    policy: dict[str, Any] | None = None,
    sources: tuple[FakeSource, ...] | None = None,
    notes_trust: Trust = Trust.UNTRUSTED,
    more: tuple[FakeSource, ...] = (),
    registry_url: str | None = None,
) -> AsyncIterator[Dashboard]:
    """The web app over an in-memory gateway (notes, clock, `more`), with a SQLite store unless `record` is off."""
    store = (
        await Store.open(f"sqlite:///{tmp_path / 'web.db'}", RecordingSettings(commit_interval=0.01))
        if record
        else None
    )
    policy = dict(policy or {"approvalTimeout": 10})
    # These tests are about the web app, so the untrusted notes server's get_note runs unasked by a rule:
    # its own word that it only reads would not let it (the policy tests cover that).
    policy.setdefault("rules", [{"allow": {"tool": "notes_get_note"}}])
    config = parse_config({"mcpServers": {}, "policy": policy})
    chosen = (*(sources if sources is not None else (notes_source(notes_trust), clock_source())), *more)
    gateway = Gateway(config, sources={s.name: s for s in chosen}, store=store)
    try:
        async with gateway:
            app = create_app(gateway, store, token=token, registry_url=registry_url)
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE_URL) as client:
                yield Dashboard(client, gateway, store)
    finally:
        if store is not None:
            await store.close()


OpenDashboard = Callable[..., AbstractAsyncContextManager[Dashboard]]


@pytest.fixture
def open_dashboard(tmp_path: Path) -> OpenDashboard:
    """`open_dashboard(record=, token=, policy=, sources=, notes_trust=, more=, registry_url=)`: the app."""

    def opener(**kwargs: Any) -> AbstractAsyncContextManager[Dashboard]:
        return dashboard(tmp_path, **kwargs)

    return opener


@pytest.fixture(scope="module")
def issuer() -> Iterator[OidcIssuer]:
    """A real OpenID provider (npm `oidc-provider`) for the identity tests of one module."""
    provider = OidcIssuer()
    yield provider
    provider.stop()


SeedSessions = Callable[[Store], Awaitable[dict[str, str]]]


async def _seed_sessions(store: Store) -> dict[str, str]:
    """Three recorded sessions: active on replica a, closed on replica a, active on replica b; ids by name."""
    ids = {name: str(uuid.uuid4()) for name in ("a-open", "a-done", "b-open")}
    for name, sid in ids.items():
        store.session_started(
            SessionRecord(sid, name, "1", datetime.now(UTC), transport="http", replica=name.split("-")[0])
        )
    store.session_closed(ids["a-done"], datetime.now(UTC))
    await store.flush()
    return ids


@pytest.fixture
def seed_sessions() -> SeedSessions:
    """Records three sessions in a store: active and closed on replica a, active on replica b (ids by name)."""
    return _seed_sessions
