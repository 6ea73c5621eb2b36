"""A person's own preferences make their own calls ask more, never less: against a real `hintgate serve --http`.

Everyone's policy lets destructive tools run unasked in accept-edits (`alwaysConfirmDestructive: false`); bob
turns it on for himself, through the REST API with his own token from the npm `oidc-provider` peer.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from test_identity_operators import as_person, call
from tests.configs import config_file, entry
from tests.processes import free_port

from hintgate.testing import RunningGateway, running_gateway
from oidc_peer import OidcIssuer

pytestmark = pytest.mark.anyio

POLICY = {"mode": "accept-edits", "preferences": {"alwaysConfirmDestructive": False}, "approvalTimeout": 1}


@pytest.fixture
def gateway(issuer: OidcIssuer, tmp_path: Path, demo_cmd: list[str]) -> Iterator[RunningGateway]:
    port = free_port()
    identity = {"issuer": issuer.issuer, "audience": f"http://127.0.0.1:{port}/mcp"}
    config = config_file(tmp_path, {"notes": entry(demo_cmd, trust="trusted")}, POLICY, identity=identity)
    with running_gateway("--config", str(config), bind=f"127.0.0.1:{port}") as running:
        yield running


async def test_a_person_turns_on_always_confirm_destructive_for_their_own_calls_and_cannot_turn_it_off(
    issuer: OidcIssuer, gateway: RunningGateway
) -> None:
    url = gateway.mcp_url
    bob, carol = issuer.token("bob", url), issuer.token("carol", url)
    async with httpx.AsyncClient(base_url=gateway.base_url, timeout=60) as http:

        async def note(token: str) -> int:
            created = await call(http, url, token, "notes_create_note", {"title": "t", "body": "b"})
            assert not created.get("isError"), created
            number: int = json.loads(created["content"][0]["text"])["id"]
            return number

        before = await call(http, url, bob, "notes_delete_note", {"note_id": await note(bob)})
        kept = await http.patch(
            "/api/me/preferences", json={"preferences": {"alwaysConfirmDestructive": True}}, headers=as_person(bob)
        )
        mine = (await http.get("/api/me/preferences", headers=as_person(bob))).json()
        asked = await call(http, url, bob, "notes_delete_note", {"note_id": await note(bob)})
        carols = await call(http, url, carol, "notes_delete_note", {"note_id": await note(carol)})
        looser = await http.patch(
            "/api/me/preferences", json={"preferences": {"alwaysConfirmDestructive": False}}, headers=as_person(bob)
        )
        mode = await http.patch("/api/me/preferences", json={"preferences": {"mode": True}}, headers=as_person(bob))
        policy = (await http.get("/api/policy", headers=gateway.headers)).json()
    assert not before.get("isError"), "everyone's policy runs a destructive tool unasked in accept-edits"
    assert kept.status_code == 200, kept.text
    assert mine["preferences"]["alwaysConfirmDestructive"] == {
        "mine": True,
        "everyone": False,
        "in_force": True,
        "strict": True,
    }
    assert asked.get("isError"), asked
    assert "no one answered in 1 s" in json.dumps(asked), "bob's own call asked, and nobody answered within 1 s"
    assert not carols.get("isError"), "carol keeps everyone's policy"
    assert looser.status_code == 422
    assert "only makes their calls ask more" in looser.json()["detail"]
    assert mode.status_code == 422
    assert "not a preference a person keeps" in mode.json()["detail"]
    assert policy["preferences"]["alwaysConfirmDestructive"] is False, "everyone's setting is untouched"
