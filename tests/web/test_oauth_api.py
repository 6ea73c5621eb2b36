"""The REST API's OAuth logins: started for a server behind OAuth, followed to the end, refused with a reason."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from hintgate.config.loading import parse_config
from hintgate.server.gateway import Gateway
from hintgate.store import Store
from hintgate.store.oauth_tokens import CredentialsVault
from hintgate.web.app import create_app
from oauth_peer import OAuthPeer

pytestmark = pytest.mark.anyio

WRITE = {"X-Hintgate-Request": "1"}


@asynccontextmanager
async def api(servers: dict[str, Any], store: Store | None) -> AsyncIterator[httpx.AsyncClient]:
    credentials = CredentialsVault(store.credentials, "k" * 40) if store is not None else None
    gateway = Gateway(parse_config({"mcpServers": servers}), store=store, credentials=credentials)
    async with gateway:
        transport = httpx.ASGITransport(app=create_app(gateway, store))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8765", timeout=60) as client:
            yield client


async def state_of(client: httpx.AsyncClient, name: str) -> dict[str, Any]:
    [server] = [s for s in (await client.get("/api/servers")).json() if s["name"] == name]
    status: dict[str, Any] = server["status"]
    return status


async def test_a_login_started_through_the_api_ends_with_the_server_up(tmp_path: Path, oauth_peer: OAuthPeer) -> None:
    store = await Store.open(f"sqlite:///{tmp_path / 'h.db'}", replica="t")
    try:
        async with api({"tracker": {"url": oauth_peer.url, "oauth": {}}}, store) as client:
            before = await state_of(client, "tracker")
            assert (before["state"], before["reason"]) == ("needs_login", "no one has logged in to it yet")
            assert (await client.get("/api/servers/tracker/login")).json()["state"] == "none"

            started = await client.post("/api/servers/tracker/login", headers=WRITE)
            assert started.status_code == 202, started.text
            url = started.json()["authorization_url"]
            assert url.startswith(f"{oauth_peer.issuer}/authorize?")
            assert (await client.get("/api/servers/tracker/login")).json()["state"] == "waiting"

            await anyio.to_thread.run_sync(oauth_peer.approve_without_browser, url)
            with anyio.fail_after(30):
                while (await client.get("/api/servers/tracker/login")).json()["state"] == "waiting":
                    await asyncio.sleep(0.1)  # bounded poll of the login's progress
                while (await state_of(client, "tracker"))["state"] != "up":
                    await asyncio.sleep(0.1)
            assert (await client.get("/api/servers/tracker/login")).json() == {
                "server": "tracker",
                "state": "done",
                "error": None,
            }
            answers = (await client.get("/api/servers")).text + (await client.get("/api/servers/tracker")).text
            kept = await CredentialsVault(store.credentials, "k" * 40).load("tracker")
            assert kept is not None
            assert kept["tokens"]["access_token"] not in answers
            assert kept["tokens"]["refresh_token"] not in answers

            logout = await client.delete("/api/servers/tracker/login", headers=WRITE)
            assert logout.json() == {"server": "tracker", "forgotten": True}
            with anyio.fail_after(30):
                while (await state_of(client, "tracker"))["state"] != "needs_login":
                    await asyncio.sleep(0.1)
            assert (await state_of(client, "tracker"))["reason"] == "it was logged out: its tokens were forgotten"
            again = await client.delete("/api/servers/tracker/login", headers=WRITE)
            assert again.json() == {"server": "tracker", "forgotten": False}
    finally:
        await store.close()


async def test_a_login_is_refused_for_an_unknown_server_one_without_oauth_and_a_gateway_without_a_store(
    oauth_peer: OAuthPeer,
) -> None:
    servers = {"tracker": {"url": oauth_peer.url, "oauth": {}}, "plain": {"url": oauth_peer.url}}
    async with api(servers, None) as client:
        unknown = await client.post("/api/servers/nope/login", headers=WRITE)
        assert (unknown.status_code, unknown.json()["detail"]) == (404, "no server named 'nope'")
        plain = await client.post("/api/servers/plain/login", headers=WRITE)
        assert plain.status_code == 409
        assert "no oauth block" in plain.json()["detail"]
        storeless = await client.post("/api/servers/tracker/login", headers=WRITE)
        assert storeless.status_code == 409
        assert "runs without one" in storeless.json()["detail"]
        status = await state_of(client, "tracker")
        assert status["state"] == "needs_login"
        assert "this gateway runs without one" in status["reason"]


async def test_a_server_behind_oauth_added_at_run_time_is_connected_without_a_restart(
    tmp_path: Path, oauth_peer: OAuthPeer
) -> None:
    store = await Store.open(f"sqlite:///{tmp_path / 'h.db'}", replica="t")
    try:
        async with api({}, store) as client:
            added = await client.post(
                "/api/servers", headers=WRITE, json={"name": "tracker", "url": oauth_peer.url, "oauth": {}}
            )
            assert added.status_code == 201, added.text
            assert (await state_of(client, "tracker"))["state"] == "needs_login"
            started = await client.post("/api/servers/tracker/login", headers=WRITE)
            await anyio.to_thread.run_sync(oauth_peer.approve_without_browser, started.json()["authorization_url"])
            with anyio.fail_after(30):
                while (await state_of(client, "tracker"))["state"] != "up":
                    await asyncio.sleep(0.1)  # bounded poll: the server connects once the login is kept
            tools = {tool["name"] for tool in (await client.get("/api/tools", params={"server": "tracker"})).json()}
            assert tools == {"tracker_echo", "tracker_whoami"}
    finally:
        await store.close()
