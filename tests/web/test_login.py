"""Beyond loopback, a browser asking for a page gets the sign-in form; programs get a JSON 401."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from bs4 import BeautifulSoup
from test_auth import notes_source, serving

from hintgate.config.loading import parse_config
from hintgate.server.gateway import Gateway
from hintgate.web.app import create_app

pytestmark = pytest.mark.anyio

TOKEN = "s3cret-token-for-the-login-tests"
HTML = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


async def test_a_browser_asking_for_a_page_is_sent_to_sign_in_and_back_to_that_page() -> None:
    async with serving(TOKEN) as base, httpx.AsyncClient(base_url=base) as client:
        page = await client.get("/tools/notes_get_note?x=1", headers=HTML)
        form = await client.get(page.headers["location"], headers=HTML)
    assert page.status_code == 303
    location = urlsplit(page.headers["location"])
    assert location.path == "/login"
    assert parse_qs(location.query) == {"next": ["/tools/notes_get_note?x=1"]}
    assert form.status_code == 200
    soup = BeautifulSoup(form.text, "html.parser")
    field = soup.select_one("form#login[method=post][action='/login'] input#login-token")
    assert field is not None
    assert (field["type"], field["name"]) == ("password", "token")
    hidden = soup.select_one("input[type=hidden][name=next]")
    assert hidden is not None
    assert hidden["value"] == "/tools/notes_get_note?x=1"
    assert soup.select("nav, #pending-count, .tool-card") == []  # nothing about the gateway before the token


@pytest.mark.parametrize(
    ("method", "path", "headers"),
    [
        ("GET", "/api/tools", {}),
        ("GET", "/api/tools", {"Accept": "application/json"}),
        ("GET", "/fragments/approval-count", {**HTML, "HX-Request": "true"}),  # htmx swaps what it gets
        ("POST", "/mcp", HTML),
        ("GET", "/metrics", {}),
    ],
)
async def test_programs_and_fragment_requests_still_get_a_json_401(
    method: str, path: str, headers: dict[str, str]
) -> None:
    async with serving(TOKEN) as base, httpx.AsyncClient(base_url=base) as client:
        response = await client.request(method, path, headers=headers)
    assert response.status_code == 401
    assert response.headers["content-type"] == "application/json"
    assert "API token is required" in response.json()["detail"]


async def test_the_sign_in_form_sets_a_strict_http_only_cookie_and_goes_where_it_was_asked() -> None:
    async with serving(TOKEN) as base, httpx.AsyncClient(base_url=base) as client:
        wrong = await client.post("/login", data={"token": "guess", "next": "/settings"})
        right = await client.post("/login", data={"token": TOKEN, "next": "/settings"})
        client.cookies.set("hintgate_token", TOKEN)
        settings = await client.get("/settings", headers=HTML)
    assert wrong.status_code == 401
    assert "set-cookie" not in wrong.headers
    alert = BeautifulSoup(wrong.text, "html.parser").select_one("[role=alert]")
    assert alert is not None
    assert "not this gateway's" in alert.get_text()
    assert right.status_code == 303
    assert right.headers["location"] == "/settings"
    cookie = right.headers["set-cookie"]
    assert f"hintgate_token={TOKEN}" in cookie
    assert "HttpOnly" in cookie
    assert "samesite=strict" in cookie.lower()
    assert "secure" not in cookie.lower()  # plain http: a Secure cookie would never come back
    assert settings.status_code == 200


@pytest.mark.parametrize("next_page", ["//evil.example/", "https://evil.example/", "/\\evil.example", "settings"])
async def test_signing_in_never_leads_off_the_gateway(next_page: str) -> None:
    async with serving(TOKEN) as base, httpx.AsyncClient(base_url=base) as client:
        response = await client.post("/login", data={"token": TOKEN, "next": next_page})
    assert response.status_code == 303
    assert response.headers["location"] == "/"


async def test_a_sign_in_posted_from_another_site_is_refused() -> None:
    async with serving(TOKEN) as base, httpx.AsyncClient(base_url=base) as client:
        response = await client.post("/login", data={"token": TOKEN}, headers={"Origin": "http://evil.example"})
    assert response.status_code == 403
    assert "set-cookie" not in response.headers


async def test_over_https_the_cookie_is_secure_too() -> None:
    gateway = Gateway(parse_config({"mcpServers": {}}), sources={"notes": notes_source()})
    async with gateway:
        app = create_app(gateway, None, token=TOKEN)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="https://gateway.example") as client:
            response = await client.post("/login", data={"token": TOKEN})
    assert response.status_code == 303
    assert "secure" in response.headers["set-cookie"].lower()


def test_the_sign_in_page_of_a_gateway_bound_to_loopback_says_it_listens_on_this_machine_only() -> None:
    from hintgate.testing import running_gateway

    with running_gateway("--demo", "--no-record") as gateway:
        form = httpx.get(f"{gateway.base_url}/login", headers=HTML, timeout=30)
    text = " ".join(BeautifulSoup(form.text, "html.parser").select_one("main").get_text().split())  # type: ignore[union-attr]
    assert form.status_code == 200
    assert "reachable beyond this machine" not in text
    assert "This gateway listens on this machine only, and still needs its API token" in text
    assert "kept in the gateway's data directory, in api-token" in text


async def test_the_sign_in_page_of_a_gateway_reachable_beyond_loopback_says_so() -> None:
    async with serving(TOKEN) as base, httpx.AsyncClient(base_url=base) as client:
        form = await client.get("/login", headers=HTML)
    assert "This gateway is reachable beyond this machine, so it needs its API token." in form.text
