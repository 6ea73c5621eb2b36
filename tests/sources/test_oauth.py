"""An upstream behind a real OAuth 2.1 authorization server: needs login, logs in, refreshes, loses its grant.

The server is tests/fixtures/oauth_server.py: the SDK's authorization-server
routes over an in-memory provider, in front of an MCP server that checks the
bearer token. Consent is given here over HTTP the way a browser would (the
browser itself drives it in tests/web/test_oauth_browser.py).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import parse_qs, urlsplit

import anyio
import httpx
import pytest
from tests.processes import free_port

from hintgate.config.model import HttpTransport, OAuthConfig, ServerConfig
from hintgate.errors import OAuthLoginError, UpstreamError
from hintgate.sources.base import SourceState
from hintgate.sources.mcp import McpUpstream
from hintgate.sources.oauth import NOT_LOGGED_IN, login, login_state
from oauth_peer import OAuthPeer

pytestmark = pytest.mark.anyio


class MemoryCredentials:
    """Credentials kept in a dict (the store's vault is tested in tests/store)."""

    def __init__(self) -> None:
        self.documents: dict[str, dict[str, Any]] = {}
        self.written: dict[str, int] = {}  # server → its document's writes so far
        self.opened = 0  # documents loaded (what the vault decrypts)
        self.version_read = anyio.Event()

    async def load(self, server: str) -> dict[str, Any] | None:
        self.opened += 1
        return self.documents.get(server)

    async def version(self, server: str) -> object | None:
        self.version_read.set()
        return self.written.get(server) if server in self.documents else None

    async def save(self, server: str, document: dict[str, Any]) -> None:
        self.documents[server] = json.loads(json.dumps(document))
        self.written[server] = self.written.get(server, 0) + 1

    async def forget(self, server: str) -> bool:
        return self.documents.pop(server, None) is not None


class Client:
    @property
    def session_key(self) -> object:
        return self

    async def progress(self, progress: float, total: float | None, message: str | None) -> None:
        pass

    async def client_request(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        raise AssertionError(f"unexpected {method}")

    async def client_notify(self, method: str, params: dict[str, Any] | None) -> None:
        pass


def server_config(peer: OAuthPeer, oauth: OAuthConfig | None = None) -> ServerConfig:
    transport = HttpTransport(url=peer.url, oauth=oauth or OAuthConfig())
    return ServerConfig(name="remote", transport=transport, startup_timeout=10, call_timeout=10)


class Watched:
    def __init__(self, config: ServerConfig, credentials: MemoryCredentials, **options: Any) -> None:
        self.changed = anyio.Event()
        self.upstream = McpUpstream(config, env={}, listener=self._heard, login_poll=0.2, **options)
        self.upstream.credentials = credentials

    async def _heard(self, name: str, what: str) -> None:
        self.changed.set()

    async def until(self, state: SourceState) -> None:
        with anyio.fail_after(30):
            while self.upstream.status.state is not state:
                await self.changed.wait()
                self.changed = anyio.Event()

    async def whoami(self) -> dict[str, Any]:
        return await self.upstream.call_tool("whoami", {}, meta=None, context=Client())


async def log_in(
    peer: OAuthPeer, config: ServerConfig, credentials: MemoryCredentials, *, stray: bool = False
) -> list[str]:
    """Log in, approving as a browser would; with `stray`, a request with a wrong state reaches the listener first."""
    shown: list[str] = []

    async def show(url: str) -> None:
        shown.append(url)
        if stray:
            redirect_uri = parse_qs(urlsplit(url).query)["redirect_uri"][0]
            async with httpx.AsyncClient(timeout=10) as other:
                page = await other.get(redirect_uri, params={"code": "forged", "state": "wrong"})
            assert page.status_code == 400
        await anyio.to_thread.run_sync(peer.approve_without_browser, url)

    with anyio.fail_after(60):
        await login(config, credentials, show_url=show, timeout=30)
    return shown


async def test_a_server_behind_oauth_needs_login_until_one_happens_and_then_serves_calls(
    oauth_peer: OAuthPeer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    credentials = MemoryCredentials()
    config = server_config(oauth_peer)
    watched = Watched(config, credentials)
    async with anyio.create_task_group() as tg:
        tg.start_soon(watched.upstream.run)
        await watched.until(SourceState.NEEDS_LOGIN)
        assert watched.upstream.status.reason == NOT_LOGGED_IN
        assert watched.upstream.tools == []
        with pytest.raises(UpstreamError, match=r"needs an OAuth login .* `hintgate auth login remote`"):
            await watched.whoami()

        shown = await log_in(oauth_peer, config, credentials, stray=True)
        assert shown[0].startswith(f"{oauth_peer.issuer}/authorize?")
        assert "code_challenge_method=S256" in shown[0]
        assert oauth_peer.stats()["registered"] == 1  # dynamic client registration

        await watched.until(SourceState.UP)  # seen in the credentials, without being told
        assert {tool["name"] for tool in watched.upstream.tools} == {"echo", "whoami"}
        assert "authorized" in str(await watched.whoami())
        tg.cancel_scope.cancel()

    document = credentials.documents["remote"]
    state = await login_state(config, credentials)
    assert state.logged_in
    assert state.refreshable
    assert state.registered_client
    for secret in (document["tokens"]["access_token"], document["tokens"]["refresh_token"]):
        assert secret not in caplog.text
        assert secret not in repr(state.to_json())
        assert secret not in repr(watched.upstream.status.to_json())


async def test_a_short_lived_token_is_refreshed_before_it_expires_and_no_call_fails() -> None:
    peer = OAuthPeer(access_ttl=3)
    try:
        credentials = MemoryCredentials()
        config = server_config(peer)
        await log_in(peer, config, credentials)
        watched = Watched(config, credentials)
        async with anyio.create_task_group() as tg:
            tg.start_soon(watched.upstream.run)
            await watched.until(SourceState.UP)
            calls = 0
            with anyio.fail_after(30):
                while peer.stats()["refresh_token"] < 2:
                    assert "authorized" in str(await watched.whoami())
                    calls += 1
            tg.cancel_scope.cancel()
        stats = peer.stats()
        assert stats["refused"] == 0  # no request went out with an expired token
        assert stats["authorization_code"] == 1  # refreshed, never logged in again
        assert calls > 2
    finally:
        peer.stop()


async def test_a_revoked_grant_turns_the_server_to_needs_login_with_the_reason(oauth_peer: OAuthPeer) -> None:
    credentials = MemoryCredentials()
    config = server_config(oauth_peer, OAuthConfig(redirect_port=free_port()))
    await log_in(oauth_peer, config, credentials)
    watched = Watched(config, credentials)
    async with anyio.create_task_group() as tg:
        tg.start_soon(watched.upstream.run)
        await watched.until(SourceState.UP)
        oauth_peer.revoke_all()
        with pytest.raises(UpstreamError, match="refused to refresh"):
            await watched.whoami()
        await watched.until(SourceState.NEEDS_LOGIN)
        reason = watched.upstream.status.reason or ""
        assert "the authorization server refused to refresh the token (HTTP 400, invalid_grant" in reason
        assert "log in again" in reason
        assert watched.upstream.tools == []

        await log_in(oauth_peer, config, credentials)  # logging in again brings it back
        await watched.until(SourceState.UP)
        assert "authorized" in str(await watched.whoami())
        tg.cancel_scope.cancel()
    assert oauth_peer.stats()["registered"] == 1  # the same redirect port: the registered client was reused


async def test_a_configured_confidential_client_is_used_instead_of_registering(oauth_peer: OAuthPeer) -> None:
    port = free_port()
    oauth_peer.add_client("preset", f"http://127.0.0.1:{port}/callback", secret="preset-secret-value")
    credentials = MemoryCredentials()
    oauth = OAuthConfig(client_id="preset", client_secret="preset-secret-value", scopes=("mcp",), redirect_port=port)
    config = server_config(oauth_peer, oauth)
    shown = await log_in(oauth_peer, config, credentials)
    assert "client_id=preset" in shown[0]
    assert "scope=mcp" in shown[0]
    stats = oauth_peer.stats()
    assert (stats["registered"], stats["authorization_code"]) == (0, 1)
    assert "client" not in credentials.documents["remote"]  # the config's client is not copied to the store
    state = await login_state(config, credentials)
    assert state.logged_in
    assert not state.registered_client


async def test_a_login_refused_by_the_authorization_server_says_so(oauth_peer: OAuthPeer) -> None:
    config = server_config(oauth_peer, OAuthConfig(client_id="unknown-to-the-server"))

    async def show(url: str) -> None:
        pass

    with anyio.fail_after(30), pytest.raises(OAuthLoginError) as info:
        await login(config, MemoryCredentials(), show_url=show, timeout=5)
    assert "login to 'remote'" in str(info.value)


async def test_a_login_that_gets_no_redirect_in_time_says_so_and_keeps_what_was_stored(oauth_peer: OAuthPeer) -> None:
    credentials = MemoryCredentials()
    config = server_config(oauth_peer)
    await credentials.save("remote", {"tokens": {"access_token": "old-access", "token_type": "Bearer"}})

    async def ignore(url: str) -> None:
        pass

    with anyio.fail_after(30), pytest.raises(OAuthLoginError, match=r"no redirect came back .* within 0.5 s"):
        await login(config, credentials, show_url=ignore, timeout=0.5)
    assert credentials.documents["remote"]["tokens"]["access_token"] == "old-access"


async def test_a_server_behind_oauth_without_an_oauth_block_is_down_saying_to_add_one(oauth_peer: OAuthPeer) -> None:
    config = ServerConfig(name="remote", transport=HttpTransport(url=oauth_peer.url), startup_timeout=10)
    upstream = McpUpstream(config, env={})
    async with anyio.create_task_group() as tg:
        tg.start_soon(upstream.run)
        await upstream.wait_started(30)
        tg.cancel_scope.cancel()
    assert upstream.status.state is SourceState.DOWN
    assert upstream.status.reason is not None
    assert "asks for an OAuth login: add oauth: {} to its entry" in upstream.status.reason


@asynccontextmanager
async def connected(peer: OAuthPeer, *, ping_interval: float) -> AsyncIterator[tuple[Watched, MemoryCredentials]]:
    """A server behind OAuth, logged in and up, pinged every `ping_interval` seconds."""
    credentials = MemoryCredentials()
    config = server_config(peer)
    await log_in(peer, config, credentials)
    watched = Watched(config, credentials, ping_interval=ping_interval)
    async with anyio.create_task_group() as tg:
        tg.start_soon(watched.upstream.run)
        await watched.until(SourceState.UP)
        yield watched, credentials
        tg.cancel_scope.cancel()


async def test_a_logout_in_another_process_turns_a_connected_server_to_needs_login(oauth_peer: OAuthPeer) -> None:
    async with connected(oauth_peer, ping_interval=0.2) as (watched, credentials):
        await credentials.forget("remote")  # what `hintgate auth logout` does to the shared store
        await watched.until(SourceState.NEEDS_LOGIN)
    assert watched.upstream.status.reason == "it was logged out: its tokens were forgotten"


async def pings(credentials: MemoryCredentials, count: int) -> None:
    """Wait for `count` liveness checks of the stored login."""
    with anyio.fail_after(30):
        for _ in range(count):
            credentials.version_read = anyio.Event()
            await credentials.version_read.wait()


async def test_a_connected_servers_stored_login_is_opened_again_only_when_it_was_written_since(
    oauth_peer: OAuthPeer,
) -> None:
    async with connected(oauth_peer, ping_interval=0.1) as (watched, credentials):
        await pings(credentials, 2)
        opened = credentials.opened
        await pings(credentials, 3)
        unchanged = credentials.opened
        await credentials.save("remote", credentials.documents["remote"])  # a refresh, say
        await pings(credentials, 2)
        rewritten = credentials.opened
        await credentials.save("remote", {**credentials.documents["remote"], "tokens": None})
        await watched.until(SourceState.NEEDS_LOGIN)
    assert unchanged == opened
    assert rewritten == opened + 1
    assert watched.upstream.status.reason == NOT_LOGGED_IN


async def test_a_server_waiting_for_a_login_opens_the_stored_one_only_when_it_was_written_since(
    oauth_peer: OAuthPeer,
) -> None:
    credentials = MemoryCredentials()
    config = server_config(oauth_peer)
    watched = Watched(config, credentials)
    async with anyio.create_task_group() as tg:
        tg.start_soon(watched.upstream.run)
        await watched.until(SourceState.NEEDS_LOGIN)
        opened_at_start = credentials.opened
        await pings(credentials, 3)  # nothing stored: nothing to open
        nothing_stored = credentials.opened
        await credentials.save("remote", {"tokens": None, "refused": "the user said no"})
        await pings(credentials, 3)
        refused = credentials.opened
        await log_in(oauth_peer, config, credentials)
        await watched.until(SourceState.UP)
        tg.cancel_scope.cancel()
    assert nothing_stored == opened_at_start
    assert refused == opened_at_start + 1  # opened once, not at every poll


async def test_two_replicas_on_one_stored_login_take_each_others_refreshed_tokens_instead_of_spending_them() -> None:
    """The fixture rotates refresh tokens: the replica that refreshes second, with a spent one, would be refused."""
    peer = OAuthPeer(access_ttl=3)
    try:
        credentials = MemoryCredentials()
        config = server_config(peer)
        await log_in(peer, config, credentials)
        first, second = Watched(config, credentials), Watched(config, credentials)
        async with anyio.create_task_group() as tg:
            for replica in (first, second):
                tg.start_soon(replica.upstream.run)
                await replica.until(SourceState.UP)
            with anyio.fail_after(30):
                while peer.stats()["refresh_token"] < 3:
                    for replica in (first, second):
                        assert "authorized" in str(await replica.whoami())
            tg.cancel_scope.cancel()
        assert "refused" not in (credentials.documents["remote"].get("refused") or "")
        assert credentials.documents["remote"]["tokens"]
    finally:
        peer.stop()


class MeetingCredentials(MemoryCredentials):
    """Once `meet` is called, the next two loads of a document wait for each other (at most 10 s), so that
    two replicas read the same kept login before either has refreshed it."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting = 0
        self.met = anyio.Event()

    def meet(self) -> None:
        self.waiting, self.met = 2, anyio.Event()

    async def load(self, server: str) -> dict[str, Any] | None:
        if self.waiting:
            self.waiting -= 1
            if not self.waiting:
                self.met.set()
            with anyio.move_on_after(10):
                await self.met.wait()
        return await super().load(server)


async def test_two_replicas_refreshing_one_stored_login_at_once_both_go_on_and_nobody_is_logged_out() -> None:
    """The fixture rotates refresh tokens: of two refreshes with the same one, the second is refused."""
    peer = OAuthPeer(access_ttl=2)
    try:
        credentials = MeetingCredentials()
        config = server_config(peer)
        await log_in(peer, config, credentials)
        first, second = Watched(config, credentials), Watched(config, credentials)
        answers: list[str] = []

        async def whoami(replica: Watched) -> None:
            answers.append(str(await replica.whoami()))

        async with anyio.create_task_group() as tg:
            for replica in (first, second):
                tg.start_soon(replica.upstream.run)
                await replica.until(SourceState.UP)
            with anyio.fail_after(30):
                expires_at = credentials.documents["remote"]["expires_at"]
                while time.time() <= expires_at:  # both replicas hold the same expired token
                    await anyio.sleep(0.05)
                refreshed = peer.stats()["refresh_token"]
                credentials.meet()
                async with anyio.create_task_group() as both:
                    for replica in (first, second):
                        both.start_soon(whoami, replica)
                assert credentials.met.is_set()  # both read the kept login before either refreshed it
                assert peer.stats()["refresh_token"] == refreshed + 1  # the other one, with the spent token, refused
                for replica in (first, second):
                    await whoami(replica)
            tg.cancel_scope.cancel()
        assert all("authorized" in answer for answer in answers), answers
        assert len(answers) == 4
        assert credentials.documents["remote"].get("refused") is None
        assert credentials.documents["remote"]["tokens"]
    finally:
        peer.stop()
