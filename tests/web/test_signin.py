"""Signing in to the dashboard with the identity provider is bound to the browser that started it.

A real `hintgate serve --http` with `identity.dashboardClient`, a real OpenID provider (npm `oidc-provider`,
its development sign-in pages driven over HTTP as a browser would), and browsers as `httpx` clients with
their own cookie jars. Cookies are per host, not per port, so one jar also reaches a second replica on
127.0.0.1, as one browser behind a load balancer does.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.processes import free_port

from hintgate.testing import RunningGateway, running_gateway
from oidc_peer import OidcIssuer

HTML = {"Accept": "text/html,application/xhtml+xml"}


@pytest.fixture
def ports() -> tuple[int, int]:
    return free_port(), free_port()


@pytest.fixture
def provider(ports: tuple[int, int]) -> Iterator[OidcIssuer]:
    """The provider, which sends browsers back to the first replica's callback (the audience's origin)."""
    issuer = OidcIssuer(redirect_uris=(f"http://127.0.0.1:{ports[0]}/login/identity/callback",))
    yield issuer
    issuer.stop()


@pytest.fixture
def config(provider: OidcIssuer, ports: tuple[int, int], tmp_path: Path, demo_cmd: list[str]) -> Path:
    path = tmp_path / "hintgate.json"
    path.write_text(json.dumps({
        "mcpServers": {"notes": {"command": demo_cmd[0], "args": demo_cmd[1:], "trust": "trusted"}},
        "identity": {"issuer": provider.issuer, "audience": f"http://127.0.0.1:{ports[0]}/mcp",
                     "dashboardClient": "dashboard", "admins": {"group": "dba"}},
    }))  # fmt: skip
    return path


@pytest.fixture
def gateway(config: Path, ports: tuple[int, int]) -> Iterator[RunningGateway]:
    with running_gateway("--config", str(config), bind=f"127.0.0.1:{ports[0]}") as running:
        yield running


def browser() -> httpx.Client:
    return httpx.Client(timeout=30, headers=HTML)


def leave_for_the_provider(web: httpx.Client, base: str, next_page: str = "/approvals") -> str:
    """Start a sign-in in this browser: the provider's URL the gateway sends it to."""
    start = web.get(f"{base}/login/identity", params={"next": next_page})
    assert start.status_code == 303, start.text
    location = start.headers["location"]
    assert not location.startswith(base)
    return location


def signed_in(web: httpx.Client, provider: OidcIssuer, base: str, person: str) -> None:
    """Sign this browser in as `person`, all the way."""
    back = web.get(provider.sign_in(leave_for_the_provider(web, base), person))
    assert back.status_code == 303, back.text
    assert back.headers["location"] == "/approvals"


def who(web: httpx.Client, base: str) -> Any:
    """Who this browser is to the gateway (`/api/me`), or the status it gets."""
    me = web.get(f"{base}/api/me", headers={"Accept": "application/json"})
    return me.json()["name"] if me.status_code == 200 else me.status_code


def test_a_callback_of_someone_elses_sign_in_signs_the_browser_in_as_nobody(
    provider: OidcIssuer, gateway: RunningGateway
) -> None:
    """Login CSRF: mallory signs in up to the provider's redirect and hands alice the link instead of opening it."""
    base = gateway.base_url
    with browser() as mallory, browser() as alice, browser() as fresh:
        handed = provider.sign_in(leave_for_the_provider(mallory, base), "mallory")
        signed_in(alice, provider, base, "alice")
        taken_by_alice = alice.get(handed)
        taken_by_fresh = fresh.get(handed)
        assert who(alice, base) == "alice@example.com"
        assert who(fresh, base) == 401
        own = mallory.get(handed)  # the browser that started it finishes it
        assert who(mallory, base) == "mallory"
    for taken in (taken_by_alice, taken_by_fresh):
        assert taken.status_code == 400, taken.text
        assert "did not start here" in taken.text
        assert "hintgate_person" not in taken.headers.get("set-cookie", "")
    assert own.status_code == 303


def test_a_browser_signed_in_as_one_person_is_asked_before_it_becomes_another(
    provider: OidcIssuer, gateway: RunningGateway
) -> None:
    base = gateway.base_url
    with browser() as web:
        signed_in(web, provider, base, "alice")
        asked = web.get(provider.sign_in(leave_for_the_provider(web, base), "bob"))
        still = who(web, base)
        switched = web.post(f"{base}/login/identity/switch", data={"next": "/approvals"}, headers={"Origin": base})
        after = who(web, base)
        again = web.post(f"{base}/login/identity/switch", data={"next": "/"}, headers={"Origin": base})
    assert asked.status_code == 200, asked.text
    assert "signed in to hintgate as alice@example.com" in asked.text
    assert "Switch to bob@example.com" in asked.text
    assert "hintgate_person=" not in asked.headers.get("set-cookie", "")
    assert still == "alice@example.com"
    assert switched.status_code == 303
    assert after == "bob@example.com"
    assert again.status_code == 400  # the waiting token was spent by the switch


def test_the_switch_is_refused_from_another_site(provider: OidcIssuer, gateway: RunningGateway) -> None:
    base = gateway.base_url
    with browser() as web:
        signed_in(web, provider, base, "alice")
        web.get(provider.sign_in(leave_for_the_provider(web, base), "bob"))
        forged = web.post(
            f"{base}/login/identity/switch", data={"next": "/"}, headers={"Origin": "https://evil.example"}
        )
        assert who(web, base) == "alice@example.com"
    assert forged.status_code == 403


def test_a_thousand_sign_ins_started_elsewhere_do_not_push_out_one_in_progress(
    provider: OidcIssuer, gateway: RunningGateway
) -> None:
    base = gateway.base_url
    with browser() as alice, browser() as flood:
        leaving = leave_for_the_provider(alice, base)
        for _ in range(1025):
            assert flood.get(f"{base}/login/identity").status_code == 303
        back = alice.get(provider.sign_in(leaving, "alice"))
        assert who(alice, base) == "alice@example.com"
    assert back.status_code == 303, back.text


def test_a_sign_in_started_on_one_replica_finishes_on_another(
    provider: OidcIssuer, gateway: RunningGateway, config: Path, ports: tuple[int, int]
) -> None:
    base = gateway.base_url
    with running_gateway("--config", str(config), bind=f"127.0.0.1:{ports[1]}") as second, browser() as web:
        handed = provider.sign_in(leave_for_the_provider(web, base), "carol")
        on_second = handed.replace(base, second.base_url)
        assert on_second != handed
        back = web.get(on_second)
        assert who(web, second.base_url) == "carol@example.com"
        assert who(web, base) == "carol@example.com"
    assert back.status_code == 303, back.text
