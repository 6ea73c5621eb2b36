"""A server that logs in per person: each person's calls carry their own token, and only theirs.

A real gateway (`hintgate serve`) in front of a real MCP server behind a real
OAuth authorization server (tests/fixtures/oauth_server.py, whose `whoami`
names the person the token belongs to), with people from a real OpenID
provider (npm `oidc-provider`).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from hintgate.config.loading import load_config
from hintgate.policy.asking import APPROVAL_KEY
from hintgate.sources.oauth import login
from hintgate.store import Store
from hintgate.store.oauth_tokens import CredentialsVault, vault_key
from hintgate.testing import RunningGateway, running_gateway
from hintgate.web.identity import PERSON_COOKIE
from hintgate.web.person_logins import PER_PERSON
from oauth_peer import OAuthPeer, free_port
from oidc_peer import OidcIssuer
from waiting import until

pytestmark = pytest.mark.anyio

STATE_KEY = "a-test-state-key-with-at-least-32-bytes"
ALICE, BOB, CAROL = "alice@example.com", "bob@example.com", "carol@example.com"


@pytest.fixture
def short_lived() -> Iterator[OAuthPeer]:
    """The upstream's access tokens live 3 s: a person's second call a little later needs a refresh."""
    peer = OAuthPeer(access_ttl=3)
    yield peer
    peer.stop()


def _data() -> Path:
    return Path(os.environ["HINTGATE_DATA_DIR"])


async def _operator_logs_in(config: Path, peer: OAuthPeer) -> None:
    """The shared login the server's tools are listed with, made before the gateway starts."""
    server = load_config(config).servers["tracker"]
    store = await Store.open(f"sqlite:///{_data() / 'hintgate.db'}")
    try:

        async def approve(url: str) -> None:
            # The shared login's tokens live an hour: what is tested with short ones is the people's.
            await anyio.to_thread.run_sync(peer.approve_without_browser, url, "operator", 3600)

        vault = CredentialsVault(store.credentials, vault_key(STATE_KEY, _data()))
        await login(server, vault, show_url=approve, timeout=60)
    finally:
        await store.close()


@asynccontextmanager
async def serving(
    issuer: OidcIssuer, peer: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **policy: Any
) -> Any:
    monkeypatch.setenv("HINTGATE_STATE_KEY", STATE_KEY)
    port = free_port()
    config = tmp_path / "hintgate.json"
    config.write_text(json.dumps({
        "mcpServers": {"tracker": {"url": peer.url, "oauth": {"perUser": True}, "trust": "trusted"}},
        "identity": {"issuer": issuer.issuer, "audience": f"http://127.0.0.1:{port}/mcp"},
        **({"policy": policy} if policy else {}),
    }))  # fmt: skip
    await _operator_logs_in(config, peer)
    with running_gateway("--config", str(config), bind=f"127.0.0.1:{port}") as running:
        yield running


@asynccontextmanager
async def client_of(
    token: str, url: str, *, mode: str = "legacy", elicitation: Any = None, name: str = "agent"
) -> AsyncIterator[Client]:
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60) as http,
        Client(
            streamable_http_client(url, http_client=http),  # type: ignore[arg-type]
            mode=mode,  # type: ignore[arg-type]
            client_info=types.Implementation(name=name, version="1.0"),
            elicitation_callback=elicitation,
        ) as client,
    ):
        yield client


def started(web: httpx.Client, gateway: RunningGateway) -> httpx.Response:
    """Open the gateway's login page (it says who is signed in) and press its button: off to the consent."""
    page = web.get(f"{gateway.base_url}/login/upstream/tracker")
    assert page.status_code == 200, page.text
    start = web.post(f"{gateway.base_url}/login/upstream/tracker", headers={"Origin": gateway.base_url})
    assert start.status_code == 303, start.text
    return start


def consented(web: httpx.Client, start: httpx.Response, peer: OAuthPeer, consents_as: str, base: str) -> str:
    """Press Allow at the upstream's consent: the gateway's callback URL it sends the browser to."""
    consent = web.get(start.headers["location"], follow_redirects=True)
    back = web.post(f"{peer.issuer}/consent", data={"tx": peer.transaction(consent.text), "person": consents_as})
    assert back.status_code == 302
    callback = str(back.headers["location"])
    assert callback.startswith(f"{base}/login/upstream-callback?")
    return callback


def log_in_on_the_web(gateway: RunningGateway, token: str, peer: OAuthPeer, consents_as: str) -> httpx.Response:
    """What a person does in the browser: open the gateway's login page, go on, press Allow, come back."""
    with httpx.Client(timeout=30, cookies={PERSON_COOKIE: token}) as web:
        return web.get(consented(web, started(web, gateway), peer, consents_as, gateway.base_url))


def text_of(result: types.CallToolResult) -> str:
    return " ".join(c.text for c in result.content if isinstance(c, types.TextContent))


async def listed(client: Client) -> None:
    with anyio.fail_after(30):
        while "tracker_whoami" not in {t.name for t in (await client.list_tools()).tools}:
            await anyio.sleep(0.1)


def past(expires_at: float) -> None:
    """Wait (bounded) until a kept access token has expired."""
    until(lambda: time.time() > expires_at, "the access token expires", within=10)


def people_seen(peer: OAuthPeer) -> list[str]:
    """Whose tokens the upstream accepted, in order, without the operator's (the shared listing and pings)."""
    return [person for person in peer.stats()["seen"] if person != "operator"]


def sealed_rows() -> list[tuple[str, str, bytes]]:
    """The per-person logins kept: (server, the person's name at their login, the sealed document)."""
    with sqlite3.connect(_data() / "hintgate.db") as db:
        rows = db.execute("SELECT server, name, sealed FROM person_credentials ORDER BY name").fetchall()
    return [(server, user, bytes(sealed)) for server, user, sealed in rows]


async def kept_login(person: str) -> dict[str, Any]:
    """The login the gateway keeps for `person` (a name), opened with the state key."""
    store = await Store.open(f"sqlite:///{_data() / 'hintgate.db'}")
    try:
        vault = CredentialsVault(store.credentials, vault_key(STATE_KEY, _data()))
        [key] = [k for k, (name, _) in (await vault.people("tracker")).items() if name == person]
        document = await vault.person(key).load("tracker")
    finally:
        await store.close()
    assert document is not None
    return document


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_each_person_calls_with_their_own_token_and_one_not_logged_in_gets_the_login_link(
    issuer: OidcIssuer, oauth_peer: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    async with serving(issuer, oauth_peer, tmp_path, monkeypatch) as gateway:
        url = gateway.mcp_url
        alice_token, bob_token = issuer.token("alice", url), issuer.token("bob", url)
        page = f"{gateway.base_url}/login/upstream/tracker"
        async with client_of(alice_token, url, mode=mode) as alice, client_of(bob_token, url, mode=mode) as bob:
            await listed(alice)
            refused = await bob.call_tool("tracker_whoami", {})
            assert refused.is_error
            assert page in text_of(refused)
            assert f"{BOB} is not logged in to server 'tracker'" in text_of(refused)
            assert people_seen(oauth_peer) == []  # nothing went upstream for bob: not even the operator's token

            done = await anyio.to_thread.run_sync(log_in_on_the_web, gateway, alice_token, oauth_peer, "alice")
            assert done.status_code == 200, done.text
            assert f"{ALICE} is logged in to tracker" in done.text
            assert text_of(await alice.call_tool("tracker_whoami", {})) == "authorized as alice"
            before = people_seen(oauth_peer)
            assert set(before) == {"alice"}  # her connection's requests (initialize, the call...) with her token
            still = await bob.call_tool("tracker_whoami", {})
            assert still.is_error
            assert page in text_of(still)
            assert people_seen(oauth_peer) == before  # bob's call sent no token at all, alice's least of all

            await anyio.to_thread.run_sync(log_in_on_the_web, gateway, bob_token, oauth_peer, "bob")
            for _ in range(2):
                assert text_of(await bob.call_tool("tracker_whoami", {})) == "authorized as bob"
                assert text_of(await alice.call_tool("tracker_whoami", {})) == "authorized as alice"
        assert set(people_seen(oauth_peer)) == {"alice", "bob"}
        rows = sealed_rows()
        assert [(server, user) for server, user, _ in rows] == [("tracker", ALICE), ("tracker", BOB)]
        for person, (_, _, sealed) in zip((ALICE, BOB), rows, strict=True):
            tokens = (await kept_login(person))["tokens"]
            assert tokens["access_token"].encode() not in sealed
            assert tokens["refresh_token"].encode() not in sealed


@pytest.mark.parametrize("impostor", ["mallory", "eve"])
async def test_an_account_spelling_a_persons_address_never_calls_with_her_upstream_login(
    issuer: OidcIssuer, oauth_peer: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, impostor: str
) -> None:
    """mallory's username is alice's address, eve has it as an unverified email: neither is alice, so neither
    reaches her connection or her kept login; each is asked to log in as themselves."""
    async with serving(issuer, oauth_peer, tmp_path, monkeypatch) as gateway:
        url = gateway.mcp_url
        alice_token, impostor_token = issuer.token("alice", url), issuer.token(impostor, url)
        await anyio.to_thread.run_sync(log_in_on_the_web, gateway, alice_token, oauth_peer, "alice")
        async with client_of(alice_token, url) as alice, client_of(impostor_token, url) as other:
            await listed(other)
            assert text_of(await alice.call_tool("tracker_whoami", {})) == "authorized as alice"
            seen = people_seen(oauth_peer)
            taken = await other.call_tool("tracker_whoami", {})
            assert people_seen(oauth_peer) == seen  # nothing went upstream with alice's token for them
        assert taken.is_error, text_of(taken)
        assert "authorized as alice" not in text_of(taken)
        assert f"{impostor} is not logged in to server 'tracker'" in text_of(taken)
        assert [name for _, name, _ in sealed_rows()] == [ALICE]


async def test_a_client_that_opens_urls_is_sent_to_the_login_page_and_its_call_runs_once_the_person_logged_in(
    issuer: OidcIssuer, oauth_peer: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The handshake era: `elicitation/create` in URL mode during the call, which then runs."""
    async with serving(issuer, oauth_peer, tmp_path, monkeypatch) as gateway:
        url = gateway.mcp_url
        carol_token = issuer.token("carol", url)
        asked: list[Any] = []
        logins: list[threading.Thread] = []

        async def person(_context: Any, params: Any) -> types.ElicitResult:
            asked.append(params)
            # The person opens the page in their browser while the client says yes to the gateway.
            login_thread = threading.Thread(
                target=log_in_on_the_web, args=(gateway, carol_token, oauth_peer, "carol"), daemon=True
            )
            login_thread.start()
            logins.append(login_thread)
            return types.ElicitResult(action="accept")

        async with client_of(carol_token, url, elicitation=person) as carol:
            await listed(carol)
            with anyio.fail_after(60):
                result = await carol.call_tool("tracker_whoami", {})
        assert text_of(result) == "authorized as carol"
        [question] = asked
        assert question.mode == "url"
        assert question.url == f"{gateway.base_url}/login/upstream/tracker"
        assert question.elicitation_id
        assert CAROL in question.message
        for login_thread in logins:
            login_thread.join(30)


def calls_recorded(person: str) -> list[tuple[str, str | None]]:
    """The calls of `tracker_whoami` on record for `person`: (the verdict, the error)."""
    with sqlite3.connect(_data() / "hintgate.db") as db:
        return db.execute(
            "SELECT verdict, error FROM tool_calls WHERE tool_name = 'tracker_whoami' AND user_name = ?", (person,)
        ).fetchall()


async def test_a_2026_client_that_opens_urls_is_asked_in_the_result_and_its_answer_runs_the_call_once_logged_in(
    issuer: OidcIssuer, oauth_peer: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No request reaches a 2026-07-28 client during a call: the login page goes out as an InputRequiredResult."""
    async with serving(issuer, oauth_peer, tmp_path, monkeypatch) as gateway:
        url = gateway.mcp_url
        carol_token = issuer.token("carol", url)
        async with client_of(carol_token, url, elicitation=_never_asked, mode="2026-07-28") as carol:
            await listed(carol)
            with anyio.fail_after(60):
                first = await carol.session.call_tool("tracker_whoami", {}, allow_input_required=True)
            assert isinstance(first, types.InputRequiredResult), first
            [(key, request)] = first.input_requests.items()
            assert request.method == "elicitation/create"
            question = request.params
            assert question.mode == "url"
            assert question.url == f"{gateway.base_url}/login/upstream/tracker"
            assert question.elicitation_id is None  # removed at 2026-07-28: no completion notice follows
            assert CAROL in question.message
            assert people_seen(oauth_peer) == []
            assert calls_recorded(CAROL) == []  # the question is not a call on record: the answered call is

            done = await anyio.to_thread.run_sync(log_in_on_the_web, gateway, carol_token, oauth_peer, "carol")
            assert done.status_code == 200, done.text
            with anyio.fail_after(60):
                answered = await carol.session.call_tool(
                    "tracker_whoami",
                    {},
                    input_responses={key: types.ElicitResult(action="accept")},
                    request_state=first.request_state,
                    allow_input_required=True,
                )
        assert isinstance(answered, types.CallToolResult), answered
        assert text_of(answered) == "authorized as carol"
        until(lambda: calls_recorded(CAROL) != [], "the answered call is recorded", within=10)
        assert calls_recorded(CAROL) == [("allow", None)]


async def test_a_2026_client_that_declines_the_login_page_gets_the_tool_error_naming_it(
    issuer: OidcIssuer, oauth_peer: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """And again on its next call: a declined question does not stop the gateway asking the next time."""
    async with serving(issuer, oauth_peer, tmp_path, monkeypatch) as gateway:
        url = gateway.mcp_url
        page = f"{gateway.base_url}/login/upstream/tracker"
        async with client_of(issuer.token("carol", url), url, elicitation=_never_asked, mode="2026-07-28") as carol:
            await listed(carol)
            for _ in range(2):
                with anyio.fail_after(60):
                    first = await carol.session.call_tool("tracker_whoami", {}, allow_input_required=True)
                    assert isinstance(first, types.InputRequiredResult), first
                    [key] = first.input_requests
                    answered = await carol.session.call_tool(
                        "tracker_whoami",
                        {},
                        input_responses={key: types.ElicitResult(action="decline")},
                        request_state=first.request_state,
                        allow_input_required=True,
                    )
                assert isinstance(answered, types.CallToolResult), answered
                assert answered.is_error
                assert page in text_of(answered)
                assert "then call the tool again" in text_of(answered)
        assert people_seen(oauth_peer) == []


ASKS = {"rules": [{"ask": {"tool": "tracker_whoami"}}], "selfApproval": True}
"""The policy asks about every call of `tracker_whoami`, and the person calling may answer."""


async def approved_then_sent_to_log_in(carol: Client) -> types.InputRequiredResult:
    """Carol's call asks: she approves it, and the answer is the login question (what the call needs next)."""
    first = await carol.session.call_tool("tracker_whoami", {}, allow_input_required=True)
    assert isinstance(first, types.InputRequiredResult), first
    assert list(first.input_requests) == [APPROVAL_KEY]
    second = await carol.session.call_tool(
        "tracker_whoami",
        {},
        input_responses={APPROVAL_KEY: types.ElicitResult(action="accept", content={"decision": "approve-once"})},
        request_state=first.request_state,
        allow_input_required=True,
    )
    assert isinstance(second, types.InputRequiredResult), second
    [login_question] = second.input_requests.values()
    assert login_question.params.mode == "url"  # type: ignore[union-attr]
    return second


async def logged_in_answer(carol: Client, login_question: types.InputRequiredResult, state: str | None) -> Any:
    [key] = login_question.input_requests
    return await carol.session.call_tool(
        "tracker_whoami",
        {},
        input_responses={key: types.ElicitResult(action="accept")},
        request_state=state,
        allow_input_required=True,
    )


async def test_a_2026_call_the_policy_asks_about_is_approved_once_and_runs_after_the_login_without_asking_again(
    issuer: OidcIssuer, oauth_peer: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The approval given before the login question travels in that question's sealed requestState."""
    async with serving(issuer, oauth_peer, tmp_path, monkeypatch, **ASKS) as gateway:
        url = gateway.mcp_url
        carol_token = issuer.token("carol", url)
        async with client_of(carol_token, url, elicitation=_never_asked, mode="2026-07-28") as carol:
            await listed(carol)
            with anyio.fail_after(60):
                login_question = await approved_then_sent_to_log_in(carol)
            assert people_seen(oauth_peer) == []
            assert calls_recorded(CAROL) == []
            done = await anyio.to_thread.run_sync(log_in_on_the_web, gateway, carol_token, oauth_peer, "carol")
            assert done.status_code == 200, done.text
            with anyio.fail_after(60):
                answered = await logged_in_answer(carol, login_question, login_question.request_state)
        assert isinstance(answered, types.CallToolResult), answered
        assert text_of(answered) == "authorized as carol"
        until(lambda: calls_recorded(CAROL) != [], "the answered call is recorded", within=10)
        assert calls_recorded(CAROL) == [("approved", None)]


def decisions_recorded(person: str) -> list[dict[str, Any]]:
    with sqlite3.connect(_data() / "hintgate.db") as db:
        rows = db.execute(
            "SELECT decision FROM tool_calls WHERE tool_name = 'tracker_whoami' AND user_name = ?", (person,)
        ).fetchall()
    return [json.loads(decision) for (decision,) in rows]


async def test_a_2026_call_approved_in_the_queue_runs_after_the_login_without_waiting_in_the_queue_again(
    issuer: OidcIssuer, oauth_peer: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The approval is the operator's, given on the REST API: the call that runs is recorded with it."""
    async with serving(
        issuer, oauth_peer, tmp_path, monkeypatch, **ASKS, askVia="queue", approvalTimeout=15
    ) as gateway:
        url = gateway.mcp_url
        carol_token = issuer.token("carol", url)
        async with (
            client_of(carol_token, url, elicitation=_never_asked, mode="2026-07-28") as carol,
            httpx.AsyncClient(base_url=gateway.base_url, headers=gateway.headers, timeout=30) as rest,
        ):
            await listed(carol)
            with anyio.fail_after(60):
                async with anyio.create_task_group() as group:
                    asked: list[Any] = []

                    async def call() -> None:
                        asked.append(await carol.session.call_tool("tracker_whoami", {}, allow_input_required=True))

                    group.start_soon(call)
                    while not (pending := (await rest.get("/api/approvals")).json()):
                        await anyio.sleep(0.05)
                    [approval] = pending
                    approved = await rest.post(
                        f"/api/approvals/{approval['id']}",
                        json={"answer": "approve-once"},
                        headers={"X-Hintgate-Request": "1"},
                    )
                    assert approved.status_code == 200, approved.text
            [login_question] = asked
            assert isinstance(login_question, types.InputRequiredResult), login_question
            assert list(login_question.input_requests) != [APPROVAL_KEY]
            await anyio.to_thread.run_sync(log_in_on_the_web, gateway, carol_token, oauth_peer, "carol")
            with anyio.fail_after(60):
                answered = await logged_in_answer(carol, login_question, login_question.request_state)
            still_pending = (await rest.get("/api/approvals")).json()
        assert isinstance(answered, types.CallToolResult), answered
        assert text_of(answered) == "authorized as carol"
        assert still_pending == []
        until(lambda: calls_recorded(CAROL) != [], "the answered call is recorded", within=10)
        [decision] = decisions_recorded(CAROL)
        assert (decision["approver"], decision["asked_via"], decision["approval"]) == ("api-token", "queue", "once")


def asks_for_approval(result: Any) -> bool:
    return isinstance(result, types.InputRequiredResult) and list(result.input_requests) == [APPROVAL_KEY]


async def test_a_carried_approval_runs_one_call_once_and_only_in_its_own_session_for_its_own_person(
    issuer: OidcIssuer, oauth_peer: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Presented by another person, from another session, or a second time, it is asked about again."""
    async with serving(issuer, oauth_peer, tmp_path, monkeypatch, **ASKS) as gateway:
        url = gateway.mcp_url
        carol_token, bob_token = issuer.token("carol", url), issuer.token("bob", url)
        async with (
            client_of(carol_token, url, elicitation=_never_asked, mode="2026-07-28") as carol,
            client_of(bob_token, url, elicitation=_never_asked, mode="2026-07-28") as bob,
        ):
            await listed(carol)
            with anyio.fail_after(60):
                login_question = await approved_then_sent_to_log_in(carol)
                state = login_question.request_state
                as_bob = await logged_in_answer(bob, login_question, state)
            await anyio.to_thread.run_sync(log_in_on_the_web, gateway, carol_token, oauth_peer, "carol")
            # Another client of hers (another name): another session.
            async with client_of(
                carol_token, url, elicitation=_never_asked, mode="2026-07-28", name="other-agent"
            ) as elsewhere:
                with anyio.fail_after(60):
                    from_elsewhere = await logged_in_answer(elsewhere, login_question, state)
            with anyio.fail_after(60):
                answered = await logged_in_answer(carol, login_question, state)
                ran = people_seen(oauth_peer)
                replayed = await logged_in_answer(carol, login_question, state)
        assert asks_for_approval(as_bob), as_bob
        assert asks_for_approval(from_elsewhere), from_elsewhere
        assert isinstance(answered, types.CallToolResult), answered
        assert text_of(answered) == "authorized as carol"
        assert asks_for_approval(replayed), replayed
        assert "carol" in ran
        assert people_seen(oauth_peer) == ran  # the replay reached nobody upstream
        until(lambda: calls_recorded(CAROL) != [], "the answered call is recorded", within=10)
        assert calls_recorded(CAROL) == [("approved", None)]
        assert calls_recorded(BOB) == []


async def test_a_carried_approval_altered_or_sent_with_other_arguments_is_refused_as_invalid_request_state(
    issuer: OidcIssuer, oauth_peer: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with serving(issuer, oauth_peer, tmp_path, monkeypatch, **ASKS) as gateway:
        url = gateway.mcp_url
        carol_token = issuer.token("carol", url)
        async with client_of(carol_token, url, elicitation=_never_asked, mode="2026-07-28") as carol:
            await listed(carol)
            with anyio.fail_after(60):
                login_question = await approved_then_sent_to_log_in(carol)
            state = login_question.request_state
            assert state is not None
            middle = len(state) // 2
            altered = state[:middle] + ("A" if state[middle] != "A" else "B") + state[middle + 1 :]
            [key] = login_question.input_requests
            refusals = []
            for arguments, sent in (({}, altered), ({"as": "someone else"}, state)):
                with anyio.fail_after(60), pytest.raises(MCPError) as refused:
                    await carol.session.call_tool(
                        "tracker_whoami",
                        arguments,
                        input_responses={key: types.ElicitResult(action="accept")},
                        request_state=sent,
                        allow_input_required=True,
                    )
                refusals.append(refused.value)
        assert [(e.error.code, e.error.message) for e in refusals] == [(-32602, "Invalid or expired requestState")] * 2
        assert people_seen(oauth_peer) == []
        assert calls_recorded(CAROL) == []


async def _never_asked(_context: Any, _params: Any) -> types.ElicitResult:
    raise AssertionError("a 2026-07-28 client is asked in the call's result, never by a request during it")


async def test_a_refresh_keeps_a_person_going_and_a_revoked_login_asks_only_that_person_to_log_in_again(
    issuer: OidcIssuer, short_lived: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    peer = short_lived
    async with serving(issuer, peer, tmp_path, monkeypatch) as gateway:
        url = gateway.mcp_url
        alice_token, bob_token = issuer.token("alice", url), issuer.token("bob", url)
        await anyio.to_thread.run_sync(log_in_on_the_web, gateway, alice_token, peer, "alice")
        await anyio.to_thread.run_sync(log_in_on_the_web, gateway, bob_token, peer, "bob")
        async with client_of(alice_token, url) as alice, client_of(bob_token, url) as bob:
            await listed(alice)
            assert text_of(await alice.call_tool("tracker_whoami", {})) == "authorized as alice"
            kept = await kept_login(ALICE)
            first, expires_at = kept["tokens"]["access_token"], kept["expires_at"]
            refreshes = peer.stats()["refresh_token"]
            # The access token lives 3 s: once it is past, the next call refreshes it first.
            await anyio.to_thread.run_sync(lambda: until(lambda: time.time() > expires_at, "expiry", within=10))
            assert text_of(await alice.call_tool("tracker_whoami", {})) == "authorized as alice"
            assert peer.stats()["refresh_token"] > refreshes
            assert (await kept_login(ALICE))["tokens"]["access_token"] != first

            peer.revoke_all("alice")
            revoked = await alice.call_tool("tracker_whoami", {})
            assert revoked.is_error
            assert f"{ALICE} is not logged in to server 'tracker'" in text_of(revoked)
            assert "log in again" in text_of(revoked)
            assert f"{gateway.base_url}/login/upstream/tracker" in text_of(revoked)
            assert text_of(await bob.call_tool("tracker_whoami", {})) == "authorized as bob"


async def test_a_login_link_followed_by_another_person_is_refused_and_the_login_waits_for_its_own(
    issuer: OidcIssuer, oauth_peer: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with serving(issuer, oauth_peer, tmp_path, monkeypatch) as gateway:
        url = gateway.mcp_url
        alice_token, bob_token = issuer.token("alice", url), issuer.token("bob", url)

        def started_by_alice_and_followed_by_others() -> list[httpx.Response]:
            with httpx.Client(timeout=30, cookies={PERSON_COOKIE: alice_token}) as alice_web:
                callback = consented(alice_web, started(alice_web, gateway), oauth_peer, "alice", gateway.base_url)
                with httpx.Client(timeout=30, cookies={PERSON_COOKIE: bob_token}) as bob_web:
                    as_bob = bob_web.get(callback)
                with httpx.Client(timeout=30) as nobody:
                    as_nobody = nobody.get(callback, headers={"Authorization": f"Bearer {gateway.token}"})
                return [as_bob, as_nobody, alice_web.get(callback)]

        as_bob, as_nobody, as_alice = await anyio.to_thread.run_sync(started_by_alice_and_followed_by_others)
        assert (as_bob.status_code, as_nobody.status_code) == (403, 403)
        assert "another person" in as_bob.text
        assert as_alice.status_code == 200, as_alice.text
        assert [user for _, user, _ in sealed_rows()] == [ALICE]
        async with client_of(bob_token, url) as bob, client_of(alice_token, url) as alice:
            await listed(bob)
            assert (await bob.call_tool("tracker_whoami", {})).is_error
            assert text_of(await alice.call_tool("tracker_whoami", {})) == "authorized as alice"


async def test_the_login_page_says_who_is_signed_in_before_sending_anyone_to_the_servers_consent(
    issuer: OidcIssuer, oauth_peer: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A browser signed in as someone else (a sign-in slipped to it) would keep the person's upstream account
    under that other name: the page names who is signed in, and only its button goes on."""
    async with serving(issuer, oauth_peer, tmp_path, monkeypatch) as gateway:
        token = issuer.token("mallory", gateway.mcp_url)

        def opened() -> tuple[httpx.Response, httpx.Response]:
            with httpx.Client(timeout=30, cookies={PERSON_COOKIE: token}) as web:
                page = web.get(f"{gateway.base_url}/login/upstream/tracker")
                forged = web.post(
                    f"{gateway.base_url}/login/upstream/tracker", headers={"Origin": "https://evil.example"}
                )
                return page, forged

        page, forged = await anyio.to_thread.run_sync(opened)
    assert page.status_code == 200, page.text
    assert "You are signed in to hintgate as mallory." in page.text
    assert "keeps your tracker account for mallory" in page.text
    assert 'method="post" action="/login/upstream/tracker"' in page.text
    assert page.headers["x-frame-options"] == "DENY"
    assert forged.status_code == 403  # another site cannot press the button for them
    assert people_seen(oauth_peer) == []


async def test_an_upstream_login_finishes_only_in_the_browser_that_started_it(
    issuer: OidcIssuer, oauth_peer: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same person signed in in another browser (or a browser handed the link) does not finish it."""
    async with serving(issuer, oauth_peer, tmp_path, monkeypatch) as gateway:
        alice_token = issuer.token("alice", gateway.mcp_url)

        def followed_elsewhere() -> tuple[httpx.Response, httpx.Response]:
            with httpx.Client(timeout=30, cookies={PERSON_COOKIE: alice_token}) as first:
                callback = consented(first, started(first, gateway), oauth_peer, "alice", gateway.base_url)
                with httpx.Client(timeout=30, cookies={PERSON_COOKIE: alice_token}) as other:
                    elsewhere = other.get(callback)
                return elsewhere, first.get(callback)

        elsewhere, own = await anyio.to_thread.run_sync(followed_elsewhere)
    assert elsewhere.status_code == 403, elsewhere.text
    assert "did not start here" in elsewhere.text
    assert own.status_code == 200, own.text
    assert f"{ALICE} is logged in to tracker" in own.text


async def test_an_upstream_login_started_on_one_replica_finishes_on_another(
    issuer: OidcIssuer, oauth_peer: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Behind a load balancer the redirect may reach any replica: it hands it to the one holding the login."""
    async with serving(issuer, oauth_peer, tmp_path, monkeypatch) as first:
        with running_gateway("--config", str(tmp_path / "hintgate.json")) as second:
            alice_token = issuer.token("alice", first.mcp_url)  # both replicas serve the one audience

            def started_on_first_finished_on_second() -> httpx.Response:
                with httpx.Client(timeout=60, cookies={PERSON_COOKIE: alice_token}) as web:
                    callback = consented(web, started(web, first), oauth_peer, "alice", first.base_url)
                    return web.get(callback.replace(first.base_url, second.base_url))

            done = await anyio.to_thread.run_sync(started_on_first_finished_on_second)
            assert done.status_code == 200, done.text
            assert f"{ALICE} is logged in to tracker" in done.text
            async with client_of(alice_token, first.mcp_url) as one, client_of(alice_token, second.mcp_url) as two:
                await listed(one)
                await listed(two)
                for replica in (one, two):
                    assert text_of(await replica.call_tool("tracker_whoami", {})) == "authorized as alice"


async def test_a_person_starting_many_logins_pushes_out_only_their_own_oldest(
    issuer: OidcIssuer, oauth_peer: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with serving(issuer, oauth_peer, tmp_path, monkeypatch) as gateway:
        alice_token, bob_token = issuer.token("alice", gateway.mcp_url), issuer.token("bob", gateway.mcp_url)

        def bursts() -> tuple[httpx.Response, httpx.Response]:
            with httpx.Client(timeout=60, cookies={PERSON_COOKIE: alice_token}) as alice:
                pending = consented(alice, started(alice, gateway), oauth_peer, "alice", gateway.base_url)
                with httpx.Client(timeout=60, cookies={PERSON_COOKIE: bob_token}) as bob:
                    first = consented(bob, started(bob, gateway), oauth_peer, "bob", gateway.base_url)
                    for _ in range(PER_PERSON):
                        started(bob, gateway)
                    pushed_out = bob.get(first)
                return alice.get(pending), pushed_out

        alice_done, bobs_oldest = await anyio.to_thread.run_sync(bursts)
    assert alice_done.status_code == 200, alice_done.text
    assert bobs_oldest.status_code == 400, bobs_oldest.text
    assert "has ended" in bobs_oldest.text


async def test_a_person_who_logs_out_is_asked_to_log_in_again_and_their_connection_closes(
    issuer: OidcIssuer, oauth_peer: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with serving(issuer, oauth_peer, tmp_path, monkeypatch) as gateway:
        url = gateway.mcp_url
        alice_token = issuer.token("alice", url)
        mine = f"{gateway.base_url}/api/servers/tracker/login/mine"
        bearer = {"Authorization": f"Bearer {alice_token}"}
        await anyio.to_thread.run_sync(log_in_on_the_web, gateway, alice_token, oauth_peer, "alice")
        async with httpx.AsyncClient(timeout=30, headers=bearer) as api:
            state = (await api.get(mine)).json()
            assert (state["person"], state["logged_in"]) == (ALICE, True)
            assert "access_token" not in json.dumps(state)
            async with client_of(alice_token, url) as alice:
                await listed(alice)
                assert text_of(await alice.call_tool("tracker_whoami", {})) == "authorized as alice"
                gone = await api.delete(mine)
                assert gone.status_code == 200, gone.text
                again = await alice.call_tool("tracker_whoami", {})
                assert again.is_error
                assert f"{gateway.base_url}/login/upstream/tracker" in text_of(again)
            assert (await api.get(mine)).json()["logged_in"] is False
            operator = await api.get(mine, headers={"Authorization": f"Bearer {gateway.token}"})
            assert operator.status_code == 403
        assert sealed_rows() == []


def my_row(gateway: RunningGateway, token: str, path: str = "/fragments/servers") -> Any:
    """The tracker's row of the dashboard's server list, as the person signed in with `token` gets it."""
    from bs4 import BeautifulSoup

    with httpx.Client(timeout=30, cookies={PERSON_COOKIE: token}) as web:
        page = web.get(gateway.base_url + path)
    assert page.status_code == 200, page.text
    return BeautifulSoup(page.text, "html.parser").select_one('tr[data-server="tracker"]')


async def test_the_dashboards_server_list_shows_a_person_their_own_login_with_a_link_to_log_in_and_a_log_out(
    issuer: OidcIssuer, oauth_peer: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with serving(issuer, oauth_peer, tmp_path, monkeypatch) as gateway:
        url = gateway.mcp_url
        alice_token, bob_token = issuer.token("alice", url), issuer.token("bob", url)
        before = await anyio.to_thread.run_sync(my_row, gateway, alice_token, "/")
        assert before.select_one("[data-my-login]")["data-my-login"] == "out"
        assert before.select_one("a.my-login-link")["href"] == "/login/upstream/tracker"
        assert before.select_one("button.my-logout") is None

        await anyio.to_thread.run_sync(log_in_on_the_web, gateway, alice_token, oauth_peer, "alice")
        alice = await anyio.to_thread.run_sync(my_row, gateway, alice_token)
        bob = await anyio.to_thread.run_sync(my_row, gateway, bob_token)
        assert alice.select_one("[data-my-login]")["data-my-login"] == "in"
        assert alice.select_one("a.my-login-link") is None
        logout = alice.select_one("button.my-logout")
        assert logout["hx-delete"] == "/api/servers/tracker/login/mine"
        # Alice's login is hers alone: Bob is still offered his own.
        assert bob.select_one("[data-my-login]")["data-my-login"] == "out"

        # What the button sends (htmx, with the person's cookie) logs Alice out, and the list says so.
        async with httpx.AsyncClient(timeout=30, cookies={PERSON_COOKIE: alice_token}) as web:
            gone = await web.delete(gateway.base_url + logout["hx-delete"], headers={"HX-Request": "true"})
        assert gone.status_code == 200, gone.text
        after = await anyio.to_thread.run_sync(my_row, gateway, alice_token)
        assert after.select_one("[data-my-login]")["data-my-login"] == "out"
        # The operator's API token is no person: no login of its own to show.
        with httpx.Client(timeout=30, headers={"Authorization": f"Bearer {gateway.token}"}) as web:
            operator = web.get(gateway.base_url + "/fragments/servers")
        assert operator.status_code == 200, operator.text
        assert "data-my-login" not in operator.text
        assert 'data-server="tracker"' in operator.text


def hintgate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hintgate", *args],
        check=False, capture_output=True, text=True, timeout=60, env={**os.environ, "COLUMNS": "200"},
    )  # fmt: skip


async def test_the_operator_sees_who_is_logged_in_and_logs_one_person_out_from_another_process(
    issuer: OidcIssuer, oauth_peer: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with serving(issuer, oauth_peer, tmp_path, monkeypatch) as gateway:
        config = str(tmp_path / "hintgate.json")
        url = gateway.mcp_url
        alice_token, bob_token = issuer.token("alice", url), issuer.token("bob", url)
        for token, name in ((alice_token, "alice"), (bob_token, "bob")):
            await anyio.to_thread.run_sync(log_in_on_the_web, gateway, token, oauth_peer, name)
        status = await anyio.to_thread.run_sync(hintgate, "auth", "status", "--config", config, "--format", "json")
        assert status.returncode == 0, status.stderr
        rows = json.loads(status.stdout)
        assert [(r["server"], r["person"], r["state"]) for r in rows] == [
            ("tracker", None, "logged_in"),
            ("tracker", ALICE, "logged_in"),
            ("tracker", BOB, "logged_in"),
        ]
        assert [r["person_key"] for r in rows] == [None, f"{issuer.issuer}#sub=alice", f"{issuer.issuer}#sub=bob"]
        kept = (await kept_login(ALICE))["tokens"]
        assert kept["access_token"] not in status.stdout
        async with client_of(alice_token, url) as alice, client_of(bob_token, url) as bob:
            await listed(alice)
            assert text_of(await alice.call_tool("tracker_whoami", {})) == "authorized as alice"
            out = await anyio.to_thread.run_sync(hintgate, "auth", "logout", "tracker", "--user", ALICE)
            assert out.returncode == 0, out.stderr
            assert f"Logged {ALICE} out of 'tracker'" in out.stderr
            # Her connection was open with her tokens in memory: the next call still finds the login gone.
            after = await alice.call_tool("tracker_whoami", {})
            assert after.is_error
            assert f"{gateway.base_url}/login/upstream/tracker" in text_of(after)
            assert text_of(await bob.call_tool("tracker_whoami", {})) == "authorized as bob"


async def test_two_replicas_share_a_persons_login_and_a_refresh_on_one_does_not_spend_the_other(
    issuer: OidcIssuer, short_lived: OAuthPeer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The upstream rotates refresh tokens: a replica refreshing with one the other already spent would be
    refused, and the person logged out everywhere."""
    peer = short_lived
    async with serving(issuer, peer, tmp_path, monkeypatch) as first:
        config = str(tmp_path / "hintgate.json")
        with running_gateway("--config", config) as second:
            alice_token = issuer.token("alice", first.mcp_url)  # both replicas serve the one audience
            await anyio.to_thread.run_sync(log_in_on_the_web, first, alice_token, peer, "alice")
            async with client_of(alice_token, first.mcp_url) as one, client_of(alice_token, second.mcp_url) as two:
                await listed(one)
                await listed(two)
                for replica in (one, two):
                    assert text_of(await replica.call_tool("tracker_whoami", {})) == "authorized as alice"
                for _ in range(2):
                    kept = await kept_login(ALICE)
                    assert kept.get("refused") is None
                    await anyio.to_thread.run_sync(past, kept["expires_at"])
                    for replica in (one, two):
                        assert text_of(await replica.call_tool("tracker_whoami", {})) == "authorized as alice"
        assert peer.stats()["refresh_token"] >= 2
