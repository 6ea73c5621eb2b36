"""The loopback listener of a login: it takes the redirect once, and says what went wrong otherwise."""

from __future__ import annotations

import anyio
import httpx
import pytest

from hintgate.errors import OAuthLoginError
from hintgate.sources.loopback import listen_for_redirect

pytestmark = pytest.mark.anyio


async def test_the_redirect_hands_over_its_code_and_state_and_the_browser_gets_a_page() -> None:
    async with listen_for_redirect("tracker", None) as redirect, httpx.AsyncClient(timeout=10) as browser:
        assert redirect.redirect_uri.startswith("http://127.0.0.1:")
        redirect.expect_state("st8")
        page = await browser.get(redirect.redirect_uri, params={"code": "c0de", "state": "st8", "iss": "https://as"})
        assert page.status_code == 200
        assert "Logged in to tracker" in page.text
        assert await redirect.wait(5) == {"code": "c0de", "state": "st8", "iss": "https://as"}
        again = await browser.get(redirect.redirect_uri, params={"code": "other"})
        assert again.status_code == 409


async def test_an_error_redirect_fails_the_login_with_the_authorization_servers_words() -> None:
    async with listen_for_redirect("tracker", None) as redirect, httpx.AsyncClient(timeout=10) as browser:
        redirect.expect_state("st8")
        query = {"error": "access_denied", "error_description": "the user said no", "state": "st8"}
        page = await browser.get(redirect.redirect_uri, params=query)
        assert page.status_code == 400
        with pytest.raises(OAuthLoginError, match=r"refused \(access_denied: the user said no\)"):
            await redirect.wait(5)


async def test_other_paths_are_not_served_and_a_missing_redirect_times_out() -> None:
    async with listen_for_redirect("tracker", None) as redirect, httpx.AsyncClient(timeout=10) as browser:
        other = redirect.redirect_uri.replace("/callback", "/admin")
        assert (await browser.get(other)).status_code == 404
        with anyio.fail_after(10), pytest.raises(OAuthLoginError, match="no redirect came back"):
            await redirect.wait(0.2)


async def test_a_configured_port_in_use_is_an_error_naming_it() -> None:
    async with listen_for_redirect("tracker", None) as first:
        with pytest.raises(OAuthLoginError, match=f"cannot listen on 127.0.0.1:{first.port}"):
            async with listen_for_redirect("tracker", first.port):
                pass


async def test_a_redirect_with_another_state_or_none_is_refused_and_the_login_keeps_waiting() -> None:
    async with listen_for_redirect("tracker", None) as redirect, httpx.AsyncClient(timeout=10) as browser:
        early = await browser.get(redirect.redirect_uri, params={"code": "c0de", "state": "st8"})
        assert early.status_code == 400  # before the authorization URL was shown no redirect is expected
        redirect.expect_state("st8")
        for stray in (
            {"code": "evil", "state": "wrong"},
            {"code": "evil"},
            {"error": "access_denied", "state": "wrong"},
            {"error": "access_denied"},
        ):
            page = await browser.get(redirect.redirect_uri, params=stray)
            assert page.status_code == 400, stray
            assert "not the redirect of the login in progress" in page.text
        page = await browser.get(redirect.redirect_uri, params={"code": "c0de", "state": "st8"})
        assert page.status_code == 200
        with anyio.fail_after(5):
            assert await redirect.wait(5) == {"code": "c0de", "state": "st8"}
