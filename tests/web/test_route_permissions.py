"""Every route of the app needs a declared permission, and each role gets exactly what it may do.

The real web app (`create_app`) with an `identity` section naming a real OpenID provider (npm
`oidc-provider`), people signing in with its tokens: alice (group readers) is a member, bob (devs) an
auditor, carol (dba) an admin; the API token is the operator. The routes walked are read from the app
itself, so a route added without a permission fails here.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute

from hintgate.config.loading import parse_config
from hintgate.server.gateway import Gateway
from hintgate.store import RecordingSettings, Store
from hintgate.testing import FakeSource
from hintgate.web.app import create_app, routers
from hintgate.web.identity import TokenVerifier
from hintgate.web.permissions import ROUTES
from oidc_peer import OidcIssuer

pytestmark = pytest.mark.anyio

BASE_URL = "http://127.0.0.1:8765"

API_TOKEN = "an-api-token-for-the-operator-0123456789"
AUDIENCE = f"{BASE_URL}/mcp"
SAFE = {"GET", "HEAD", "OPTIONS"}

# What a member may change: answer an approval (the approvers decide which), log in to and forget their own
# upstream login, keep their own preferences (which only ask more), end their own sessions, and sign in
# (switching person when they say so). Written out here, not read from the permission table, so the table
# cannot grant more unseen.
A_MEMBERS_WRITES = {
    ("POST", "/api/approvals/{approval_id}"),
    ("PATCH", "/api/me/preferences"),
    ("DELETE", "/api/sessions/{session_id}"),
    ("DELETE", "/api/servers/{name}/login/mine"),
    ("POST", "/login/upstream/{name}"),
    ("POST", "/login"),
    ("POST", "/login/identity/switch"),
}
# What a member may read beyond their own: nothing of the gateway's settings and nobody else's history.
A_MEMBERS_READS = {
    ("GET", "/api/health"),
    ("GET", "/api/me"),
    ("GET", "/api/me/preferences"),
    ("GET", "/api/tools"),
    ("GET", "/api/tools/{name}"),
    ("GET", "/api/servers"),
    ("GET", "/api/sessions"),
    ("GET", "/api/sessions/{session_id}"),
    ("GET", "/api/calls"),
    ("GET", "/api/calls/{call_id}"),
    ("GET", "/api/approvals"),
    ("GET", "/api/servers/{name}/login/mine"),
    ("GET", "/"),
    ("GET", "/tools/{name}"),
    ("GET", "/sessions"),
    ("GET", "/sessions/{session_id}"),
    ("GET", "/calls"),
    ("GET", "/approvals"),
    ("GET", "/settings"),
    ("GET", "/fragments/my-preferences"),
    ("GET", "/fragments/servers"),
    ("GET", "/fragments/tools/{name}/hints"),
    ("GET", "/fragments/sessions/{session_id}/calls"),
    ("GET", "/fragments/calls/{call_id}"),
    ("GET", "/fragments/approvals"),
    ("GET", "/fragments/approval-count"),
    ("GET", "/login"),
    ("GET", "/login/identity"),
    ("GET", "/login/identity/callback"),
    ("GET", "/login/upstream/{name}"),
    ("GET", "/login/upstream-callback"),
}


def app_routes(app: Any) -> set[tuple[str, str]]:
    """(method, path template) of every route the app answers besides MCP, the docs and static files: its own
    and those of every router it includes (`hintgate.web.app.routers`)."""
    routes = [*app.routes, *(route for router in routers() for route in router.routes)]
    return {(method, route.path) for route in routes if isinstance(route, APIRoute) for method in route.methods}


@asynccontextmanager
async def team_app(issuer: OidcIssuer, tmp_path: Path) -> AsyncIterator[tuple[Any, httpx.AsyncClient]]:
    """The app with people: readers are members, devs auditors, dba admins; recording to SQLite."""
    config = parse_config({
        "mcpServers": {},
        "identity": {"issuer": issuer.issuer, "audience": AUDIENCE,
                     "admins": {"group": "dba"}, "auditors": {"group": "devs"}},
        "policy": {"approvalTimeout": 10},
    })  # fmt: skip
    assert config.identity is not None
    store = await Store.open(f"sqlite:///{tmp_path / 'team.db'}", RecordingSettings(commit_interval=0.01))
    notes = FakeSource(
        "notes",
        tools=[
            {"name": "get_note", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}},
            {"name": "delete_note", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": True}},
        ],
        handlers={"get_note": lambda a: "a note", "delete_note": lambda a: "deleted"},
    )
    gateway = Gateway(config, sources={"notes": notes}, store=store)
    try:
        async with gateway:
            app = create_app(gateway, store, token=API_TOKEN, identity=TokenVerifier(config.identity))
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE_URL) as client:
                yield app, client
    finally:
        await store.close()


def filled(template: str) -> str:
    """A path of the template with every parameter made up: the permission is checked before it is looked up."""
    return re.sub(r"\{[^}]+\}", "made-up", template)


async def send(client: httpx.AsyncClient, method: str, template: str, token: str) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}", "X-Hintgate-Request": "1", "Accept": "application/json"}
    body = None if method in SAFE else {}
    return await client.request(method, filled(template), headers=headers, json=body)


def test_every_route_of_the_app_declares_a_permission_and_the_table_names_no_route_that_is_gone() -> None:
    app = create_app(Gateway(parse_config({"mcpServers": {}}), sources={"x": FakeSource("x")}), None)
    routes = app_routes(app)
    assert sorted(routes - set(ROUTES)) == [], "routes without a permission in hintgate.web.permissions.ROUTES"
    assert sorted(set(ROUTES) - routes) == [], "permissions of routes the app no longer has"


async def test_every_mutating_route_refuses_a_member_and_an_auditor_and_lets_an_admin_through(
    issuer: OidcIssuer, tmp_path: Path
) -> None:
    async with team_app(issuer, tmp_path) as (app, client):
        tokens = {person: issuer.token(person, AUDIENCE) for person in ("alice", "bob", "carol")}
        writes = sorted(r for r in app_routes(app) if r[0] not in SAFE)
        assert len(writes) >= 20, writes
        answers = {
            (route, person): await send(client, *route, token) for route in writes for person, token in tokens.items()
        }
    for route in writes:
        member, auditor, admin = (answers[route, person] for person in ("alice", "bob", "carol"))
        if route in A_MEMBERS_WRITES:
            assert member.status_code != 403 or "permission" not in member.text, (route, member.text)
            continue
        for who, answer in (("member", member), ("auditor", auditor)):
            assert answer.status_code == 403, (route, who, answer.status_code, answer.text)
            detail = answer.json()["detail"]
            assert "needs permission gateway:operate" in detail, (route, detail)
            assert f"is a {who}" in detail
        assert admin.status_code != 403, (route, admin.text)


async def test_a_member_reads_only_what_is_theirs_to_use_and_an_auditor_reads_everything(
    issuer: OidcIssuer, tmp_path: Path
) -> None:
    async with team_app(issuer, tmp_path) as (app, client):
        alice, bob = issuer.token("alice", AUDIENCE), issuer.token("bob", AUDIENCE)
        reads = sorted(r for r in app_routes(app) if r[0] in SAFE)
        answers = {(route, who): await send(client, *route, token) for route in reads for who, token in
                   (("member", alice), ("auditor", bob))}  # fmt: skip
    for route in reads:
        member, auditor = answers[route, "member"], answers[route, "auditor"]
        needs = ROUTES[route]
        if route in A_MEMBERS_READS:
            assert member.status_code != 403, (route, member.text)
        else:
            assert member.status_code == 403, (route, member.status_code, member.text)
        if needs.value == "gateway:operate":  # the hint editor is an admin's
            assert auditor.status_code == 403, (route, auditor.text)
        else:
            assert auditor.status_code != 403, (route, auditor.status_code, auditor.text)


async def test_me_says_who_the_caller_is_their_role_and_what_they_may_do(issuer: OidcIssuer, tmp_path: Path) -> None:
    async with team_app(issuer, tmp_path) as (_app, client):
        me = {
            who: (await send(client, "GET", "/api/me", token)).json()
            for who, token in (
                ("alice", issuer.token("alice", AUDIENCE)),
                ("carol", issuer.token("carol", AUDIENCE)),
                ("token", API_TOKEN),
            )
        }
    alice, carol, token = me["alice"], me["carol"], me["token"]
    assert (alice["name"], alice["kind"], alice["role"], alice["groups"]) == (
        "alice@example.com",
        "user",
        "member",
        ["readers"],
    )
    assert "gateway:operate" not in alice["permissions"]
    assert "history:own" in alice["permissions"]
    assert (carol["role"], "gateway:operate" in carol["permissions"]) == ("admin", True)
    assert "servers:command" not in carol["permissions"]
    assert (token["name"], token["kind"], token["role"]) == ("api-token", "token", "operator")
    assert "servers:command" in token["permissions"]


async def test_a_refused_page_tells_a_person_in_a_browser_which_permission_it_needs(
    issuer: OidcIssuer, tmp_path: Path
) -> None:
    from bs4 import BeautifulSoup

    async with team_app(issuer, tmp_path) as (_app, client):
        headers = {"Authorization": f"Bearer {issuer.token('alice', AUDIENCE)}", "Accept": "text/html"}
        page = await client.get("/changes", headers=headers)
    assert page.status_code == 403
    assert page.headers["content-type"].startswith("text/html")
    text = BeautifulSoup(page.text, "html.parser").get_text(" ", strip=True)
    assert "needs permission settings:read" in text
    assert "alice@example.com is a member" in text


async def test_a_member_answers_and_sees_only_approvals_that_name_them_and_an_admin_those_naming_nobody(
    issuer: OidcIssuer, tmp_path: Path
) -> None:
    import asyncio

    import anyio

    from hintgate.policy.principal import Approvers

    async with team_app(issuer, tmp_path) as (app, client):
        queue = app.state.gateway.calls.approvals
        asked = {
            what: asyncio.ensure_future(
                queue.wait(
                    tool="notes_delete_note",
                    title="Delete",
                    server="notes",
                    arguments={"id": what},
                    reason="asks",
                    warnings=[],
                    session_id=None,
                    client_name=None,
                    timeout=30,
                    caller="eve@example.com",
                    approvers=approvers,
                )
            )
            for what, approvers in (("readers", Approvers(groups=frozenset({"readers"}))), ("nobody", None))
        }
        with anyio.fail_after(10):
            while len(queue.pending()) < 2:
                await anyio.sleep(0.01)
        ids = {p.arguments["id"]: p.id for p in queue.pending()}
        alice, carol = issuer.token("alice", AUDIENCE), issuer.token("carol", AUDIENCE)
        seen = (await send(client, "GET", "/api/approvals", alice)).json()
        counted = {
            who: (await send(client, "GET", "/fragments/approval-count", token)).text
            for who, token in (("alice", alice), ("carol", carol))
        }
        headers = {"Authorization": f"Bearer {alice}", "X-Hintgate-Request": "1"}
        unnamed = await client.post(f"/api/approvals/{ids['nobody']}", json={"answer": "approve-once"}, headers=headers)
        named = await client.post(f"/api/approvals/{ids['readers']}", json={"answer": "deny"}, headers=headers)
        by_admin = await client.post(
            f"/api/approvals/{ids['nobody']}",
            json={"answer": "deny"},
            headers={"Authorization": f"Bearer {carol}", "X-Hintgate-Request": "1"},
        )
        outcomes = {what: await task for what, task in asked.items()}
    assert [a["arguments"] for a in seen] == [{"id": "readers"}], "another person's call she may not answer is hidden"
    assert '<span class="count-number">1</span>' in counted["alice"], "the nav counts what she sees"
    assert '<span class="count-number">2</span>' in counted["carol"]
    assert unnamed.status_code == 403, unnamed.text
    assert "gateway:operate" in unnamed.json()["detail"]
    assert (named.status_code, by_admin.status_code) == (200, 200), (named.text, by_admin.text)
    assert (outcomes["readers"].actor, outcomes["nobody"].actor) == ("alice@example.com", "carol@example.com")


async def test_the_dashboard_leaves_out_what_a_role_may_not_do_and_shows_a_members_own_preferences(
    issuer: OidcIssuer, tmp_path: Path
) -> None:
    from bs4 import BeautifulSoup

    async def page(client: httpx.AsyncClient, path: str, token: str) -> BeautifulSoup:
        answer = await client.get(path, headers={"Authorization": f"Bearer {token}", "Accept": "text/html"})
        assert answer.status_code == 200, (path, answer.status_code, answer.text[:300])
        return BeautifulSoup(answer.text, "html.parser")

    async with team_app(issuer, tmp_path) as (_app, client):
        seen = {
            who: {
                path: await page(client, path, issuer.token(who, AUDIENCE))
                for path in ("/", "/tools/notes_delete_note", "/settings")
            }
            for who in ("alice", "bob", "carol")
        }
    member, auditor, admin = seen["alice"], seen["bob"], seen["carol"]
    controls = {
        "/": ["#add-server", "button.disable", "button.remove"],
        "/tools/notes_delete_note": ["#hint-editor", "#title-editor", "#confirm-editor"],
    }
    for path, selectors in controls.items():
        for selector in selectors:
            assert member[path].select(selector) == [], (path, selector)
            assert auditor[path].select(selector) == [], (path, selector)
            assert admin[path].select(selector), (path, selector)
    assert [a.get_text(strip=True) for a in member["/"].select("nav a")][:3] == ["Catalog", "Sessions", "Calls"]
    assert member["/"].select('nav a[href="/changes"]') == []
    assert admin["/"].select('nav a[href="/changes"]')
    # Settings: a member sees only their own preferences; an auditor reads everyone's; an admin changes them.
    assert member["/settings"].select("#mine fieldset[data-mine]")
    assert member["/settings"].select("#settings") == []
    assert auditor["/settings"].select("#settings fieldset[disabled]")
    assert auditor["/settings"].select("#save-settings") == []
    assert admin["/settings"].select("#save-settings")
    [strict] = member["/settings"].select('input[id="mine-preferences-alwaysConfirmDestructive-strict"]')
    assert strict["value"] == "true"
