"""The gateway as an OAuth 2.1 protected resource, against a real OpenID provider (npm `oidc-provider`).

The provider runs as a child (tests/peers/oidc_issuer.mjs); the gateway's web app is served by uvicorn on a
real port whose URL is the audience tokens are issued for.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from tests.processes import free_port

from hintgate.config.loading import parse_config
from hintgate.errors import IdentityError
from hintgate.server.face import mcp_routes
from hintgate.server.gateway import Gateway
from hintgate.testing import FakeSource, running_gateway
from hintgate.web.app import create_app
from hintgate.web.identity import IssuerKeys, TokenVerifier
from oidc_peer import OidcIssuer

pytestmark = pytest.mark.anyio

API_TOKEN = "an-api-token-for-automation-0123456789"


def notes_source() -> FakeSource:
    tool = {"name": "get_note", "description": "Get a note.", "inputSchema": {"type": "object"}}
    return FakeSource("notes", tools=[tool], handlers={"get_note": lambda a: "a note"})


class Served:
    def __init__(self, url: str, verifier: TokenVerifier) -> None:
        self.url = url
        self.audience = f"{url}/mcp"
        self.verifier = verifier


@asynccontextmanager
async def serving(issuer: OidcIssuer, *, refresh_every: float = 0.0, **identity: Any) -> AsyncIterator[Served]:
    """The web app with an identity section naming `issuer`, on a real 127.0.0.1 port (not loopback-trusted)."""
    import uvicorn

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    config = parse_config(
        {"mcpServers": {}, "identity": {"issuer": issuer.issuer, "audience": f"{url}/mcp", **identity}}
    )
    assert config.identity is not None
    verifier = TokenVerifier(config.identity, IssuerKeys(config.identity.issuer, refresh_every=refresh_every))
    gateway = Gateway(config, sources={"notes": notes_source()})
    async with gateway, mcp_routes(gateway, host="127.0.0.1") as routes:
        app = create_app(gateway, None, mcp_routes=routes, token=API_TOKEN, loopback=True, identity=verifier)
        server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=port, lifespan="off", log_level="warning", access_log=False)
        )
        serve = asyncio.ensure_future(server.serve())
        try:
            with anyio.fail_after(10):
                while not server.started:
                    if serve.done():
                        await serve
                    await anyio.sleep(0.01)
            yield Served(url, verifier)
        finally:
            server.should_exit = True
            with anyio.fail_after(10):
                await serve


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def b64(data: bytes | dict[str, Any]) -> str:
    raw = json.dumps(data).encode() if isinstance(data, dict) else data
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def claims_for(issuer: OidcIssuer, audience: str, **extra: Any) -> dict[str, Any]:
    now = int(time.time())
    return {"iss": issuer.issuer, "aud": audience, "sub": "mallory", "email": "alice@example.com",
            "iat": now, "exp": now + 300, **extra}  # fmt: skip


async def test_a_person_with_a_token_from_the_issuer_uses_mcp_the_api_and_metrics(issuer: OidcIssuer) -> None:
    # Metrics describe the whole gateway: an auditor (or an admin) reads them, a member does not.
    auditors = {"group": "readers"}
    async with (
        serving(issuer, auditors=auditors) as served,
        httpx.AsyncClient(base_url=served.url, timeout=10) as client,
    ):
        token = issuer.token("alice", served.audience)
        tools = await client.get("/api/tools", headers=bearer(token))
        metrics = await client.get("/metrics", headers=bearer(token))
        bobs_metrics = await client.get("/metrics", headers=bearer(issuer.token("bob", served.audience)))
        mcp = await client.post(
            "/mcp",
            headers={**bearer(token), "Accept": "application/json, text/event-stream"},
            json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        )  # fmt: skip
    assert tools.status_code == 200, tools.text
    assert [t["name"] for t in tools.json()] == ["notes_get_note"]
    assert metrics.status_code == 200
    assert bobs_metrics.status_code == 403
    assert "settings:read" in bobs_metrics.json()["detail"]
    assert mcp.status_code == 200, mcp.text
    principal = await served.verifier.principal(token)
    assert (principal.name, principal.groups) == ("alice@example.com", frozenset({"readers"}))


async def test_a_session_a_person_opened_on_mcp_is_theirs_on_a_views_endpoint_and_no_one_elses(
    issuer: OidcIssuer,
) -> None:
    # `/mcp` is served past the router, through the app's own middleware: one table of session owners for it
    # and `/mcp/NAME` (the session id is the SDK's, valid on both), so the owner goes on and no one else does.
    async with (
        serving(issuer) as served,
        httpx.AsyncClient(base_url=served.url, timeout=10) as client,
    ):
        alice = {**bearer(issuer.token("alice", served.audience)), "Accept": "application/json, text/event-stream"}
        hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
        opened = await client.post("/mcp", headers=alice, json={"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                                                 "params": hello})  # fmt: skip
        session = {"Mcp-Session-Id": opened.headers["mcp-session-id"], "Mcp-Protocol-Version": "2025-11-25"}
        done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert (await client.post("/mcp", headers={**alice, **session}, json=done)).status_code == 202
        listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
        own = await client.post("/mcp/read-only", headers={**alice, **session}, json=listing)
        bob = {**bearer(issuer.token("bob", served.audience)), "Accept": "application/json, text/event-stream"}
        stolen = await client.post("/mcp/read-only", headers={**bob, **session}, json=listing)
    assert opened.status_code == 200, opened.text
    assert own.status_code == 200, own.text
    assert "notes_get_note" in own.text
    assert stolen.status_code == 404


async def test_without_a_token_mcp_answers_401_naming_the_protected_resource_metadata(issuer: OidcIssuer) -> None:
    async with serving(issuer, scopes=["mcp"]) as served, httpx.AsyncClient(base_url=served.url, timeout=10) as client:
        refused = {path: await client.get(path) for path in ("/mcp", "/api/tools", "/metrics")}
        health = await client.get("/api/health")
        challenge = refused["/mcp"].headers["www-authenticate"]
        metadata_url = challenge.split('resource_metadata="', 1)[1].split('"', 1)[0]
        suffixed = await client.get(metadata_url)
        root = await client.get("/.well-known/oauth-protected-resource")
    assert {path: r.status_code for path, r in refused.items()} == dict.fromkeys(refused, 401)
    assert health.status_code == 200, "whether it is up is for anyone"
    assert challenge.startswith("Bearer ")
    assert 'scope="mcp"' in challenge
    assert metadata_url == f"{served.url}/.well-known/oauth-protected-resource/mcp"
    for document in (suffixed.json(), root.json()):
        assert document["resource"] == served.audience
        assert document["authorization_servers"] == [issuer.issuer]
        assert document["scopes_supported"] == ["mcp"]
        assert "none" not in document["resource_signing_alg_values_supported"]


async def test_tokens_for_another_audience_expired_or_not_yet_valid_are_refused(issuer: OidcIssuer) -> None:
    async with serving(issuer, clockSkew=5) as served, httpx.AsyncClient(base_url=served.url, timeout=10) as client:
        now = int(time.time())
        tokens = {
            "another audience": issuer.token("alice", "https://another.example/mcp"),
            "expired": issuer.signed(**claims_for(issuer, served.audience, iat=now - 600, exp=now - 60)),
            "not yet valid": issuer.signed(**claims_for(issuer, served.audience, nbf=now + 120)),
            "no expiry": issuer.signed(**{k: v for k, v in claims_for(issuer, served.audience).items() if k != "exp"}),
            "another issuer": issuer.signed(**claims_for(issuer, served.audience, iss="https://evil.example")),
        }
        answers = {why: await client.get("/api/tools", headers=bearer(t)) for why, t in tokens.items()}
    assert {why: r.status_code for why, r in answers.items()} == dict.fromkeys(tokens, 401)
    said = {why: r.json()["detail"] for why, r in answers.items()}
    assert "not for this gateway" in said["another audience"]
    assert "expired" in said["expired"]
    assert "not valid yet" in said["not yet valid"]
    assert "'exp'" in said["no expiry"]
    assert "not from" in said["another issuer"]
    for r in answers.values():
        assert 'error="invalid_token"' in r.headers["www-authenticate"]


async def test_forged_tokens_are_refused_own_key_alg_none_and_hmac_keyed_with_the_public_key(
    issuer: OidcIssuer,
) -> None:
    async with serving(issuer) as served, httpx.AsyncClient(base_url=served.url, timeout=10) as client:
        claims = claims_for(issuer, served.audience)
        [published] = issuer.jwks()["keys"]
        kid = published["kid"]
        mine = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        own_key = jwt.encode(claims, mine, algorithm="RS256", headers={"kid": kid, "typ": "at+jwt"})
        unsigned = f"{b64({'alg': 'none', 'typ': 'JWT', 'kid': kid})}.{b64(claims)}."
        public_pem = jwt.PyJWK(published).key.public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        signing = f"{b64({'alg': 'HS256', 'typ': 'JWT', 'kid': kid})}.{b64(claims)}"
        mac = hmac.new(public_pem, signing.encode(), hashlib.sha256).digest()
        hmac_public = f"{signing}.{b64(mac)}"
        genuine = issuer.token("alice", served.audience)
        head, body, signature = genuine.split(".")
        payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        altered = f"{head}.{b64({**payload, 'email': 'carol@example.com', 'groups': ['dba']})}.{signature}"
        forged = {"own key": own_key, "alg none": unsigned, "hmac public key": hmac_public, "altered": altered,
                  "garbage": "a.b.c"}  # fmt: skip
        answers = {why: await client.get("/api/tools", headers=bearer(t)) for why, t in forged.items()}
        still = await client.get("/api/tools", headers=bearer(genuine))
    assert {why: r.status_code for why, r in answers.items()} == dict.fromkeys(forged, 401)
    assert "'none'" in answers["alg none"].json()["detail"]
    assert "'HS256'" in answers["hmac public key"].json()["detail"]
    assert "signature" in answers["own key"].json()["detail"]
    assert still.status_code == 200


async def test_keys_rotated_at_the_issuer_are_fetched_when_a_token_names_the_new_key(issuer: OidcIssuer) -> None:
    async with serving(issuer) as served, httpx.AsyncClient(base_url=served.url, timeout=10) as client:
        before = issuer.token("bob", served.audience)
        assert (await client.get("/api/tools", headers=bearer(before))).status_code == 200
        fetched = served.verifier.keys.fetches
        new_kid = issuer.rotate()
        after = issuer.token("bob", served.audience)
        assert jwt.get_unverified_header(after)["kid"] == new_kid
        accepted = await client.get("/api/tools", headers=bearer(after))
        assert served.verifier.keys.fetches == fetched + 1
        # The old key is gone from the issuer's set, and so from the gateway's once it fetched again.
        old_again = await client.get("/api/tools", headers=bearer(before))
    assert accepted.status_code == 200, accepted.text
    assert old_again.status_code == 401


async def test_unknown_key_ids_fetch_the_issuers_keys_at_most_once_per_interval(issuer: OidcIssuer) -> None:
    async with serving(issuer, refresh_every=600) as served, httpx.AsyncClient(base_url=served.url) as client:
        claims = claims_for(issuer, served.audience)
        mine = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        genuine = issuer.token("alice", served.audience)
        assert (await client.get("/api/tools", headers=bearer(genuine))).status_code == 200
        fetched = served.verifier.keys.fetches
        headers = [{"kid": f"k{i}", "typ": "at+jwt"} for i in range(20)]
        made_up = [jwt.encode(claims, mine, algorithm="RS256", headers=h) for h in headers]
        answers = [await client.get("/api/tools", headers=bearer(t)) for t in made_up]
    assert [r.status_code for r in answers] == [401] * 20
    assert served.verifier.keys.fetches == fetched, "fetched a moment ago: no fetch per made-up key id"


async def test_the_api_token_stays_a_separate_principal_for_automation(issuer: OidcIssuer) -> None:
    async with serving(issuer) as served, httpx.AsyncClient(base_url=served.url, timeout=10) as client:
        automation = await client.get("/api/tools", headers=bearer(API_TOKEN))
        wrong = await client.get("/api/tools", headers=bearer("not-the-api-token-0123456789abcdef"))
        dashboard = await client.get("/api/tools", headers={"Cookie": f"hintgate_token={API_TOKEN}"})
    assert automation.status_code == 200
    assert wrong.status_code == 401
    assert dashboard.status_code == 200


async def test_a_token_naming_no_user_is_refused_and_the_user_claims_are_configurable(issuer: OidcIssuer) -> None:
    identity = {"userClaim": ["upn", "sub"], "groupsClaim": "roles", "assignedClaims": ["upn"], "personClaim": "oid"}
    async with serving(issuer, **identity) as served:
        claims = claims_for(issuer, served.audience, upn="dave@corp.example", roles="admins", oid="0f-d4")
        principal = await served.verifier.principal(issuer.signed(**claims))
        keyless = issuer.signed(**{k: v for k, v in claims.items() if k != "oid"})
        nameless = issuer.signed(**{k: v for k, v in claims.items() if k not in ("upn", "sub")})
        async with httpx.AsyncClient(base_url=served.url, timeout=10) as client:
            refused = {
                "keyless": await client.get("/api/tools", headers=bearer(keyless)),
                "nameless": await client.get("/api/tools", headers=bearer(nameless)),
            }
    assert (principal.name, principal.groups) == ("dave@corp.example", frozenset({"admins"}))
    assert principal.key == f"{issuer.issuer}#oid=0f-d4"
    assert {why: r.status_code for why, r in refused.items()} == {"keyless": 401, "nameless": 401}
    assert "no 'oid' claim" in refused["keyless"].json()["detail"]
    assert "names no user" in refused["nameless"].json()["detail"]


async def test_a_person_is_named_by_a_verified_email_or_a_name_that_cannot_pass_for_one(issuer: OidcIssuer) -> None:
    """The name rules and approvers match: an unverified email, a chosen username shaped like an email, and the
    gateway's own names are passed over; the key is the issuer and `sub` whatever the name."""
    async with serving(issuer) as served:

        async def named(**claims: Any) -> tuple[str, str] | str:
            token = issuer.signed(**{**claims_for(issuer, served.audience), **claims})
            try:
                principal = await served.verifier.principal(token)
            except IdentityError as exc:
                return str(exc)
            return principal.name, principal.key

        verified = await named(sub="s1", email="alice@example.com", email_verified=True)
        unverified = await named(sub="s2", email="alice@example.com", email_verified=False, preferred_username="eve")
        said_true = await named(sub="s3", email="carol@example.com", email_verified="true")
        email_username = await named(sub="s4", email=None, preferred_username="alice@example.com")
        token_username = await named(sub="s5", email=None, preferred_username="api-token")
        operator = await named(sub="s6", email=None, preferred_username="Operator:root")
        nothing_left = await named(sub="local", email=None, preferred_username="local")
    key = f"{issuer.issuer}#sub="
    assert verified == ("alice@example.com", f"{key}s1")
    assert unverified == ("eve", f"{key}s2")
    assert said_true == ("carol@example.com", f"{key}s3")
    assert email_username == ("s4", f"{key}s4")
    assert token_username == ("s5", f"{key}s5")
    assert operator == ("s6", f"{key}s6")
    assert isinstance(nothing_left, str)
    assert "names no user" in nothing_left
    assert "'local' is a name the gateway keeps for itself" in nothing_left


async def test_only_access_tokens_open_the_gateway_not_id_tokens_of_the_same_issuer(issuer: OidcIssuer) -> None:
    """An ID token is for the client the person signed in to; its header says `JWT` (or nothing) and it carries
    `nonce` or `at_hash`: none of those is an access token (RFC 9068), whatever its audience."""
    async with serving(issuer) as served, httpx.AsyncClient(base_url=served.url, timeout=10) as client:
        claims = claims_for(issuer, served.audience)
        tokens = {
            "typ JWT": issuer.signed(header={"typ": "JWT"}, **claims),
            "no typ": issuer.signed(header={"typ": None}, **claims),
            "nonce": issuer.signed(**claims, nonce="n-0123"),
            "at_hash": issuer.signed(**claims, at_hash="aGFzaA"),
        }
        answers = {why: await client.get("/api/tools", headers=bearer(t)) for why, t in tokens.items()}
        spelled = issuer.signed(header={"typ": "application/AT+JWT"}, **claims)
        media_type = await client.get("/api/tools", headers=bearer(spelled))
    assert {why: r.status_code for why, r in answers.items()} == dict.fromkeys(tokens, 401)
    said = {why: r.json()["detail"] for why, r in answers.items()}
    assert "typ 'JWT', not 'at+jwt'" in said["typ JWT"]
    assert "requireTokenType: false" in said["typ JWT"]
    assert "typ None" in said["no typ"]
    assert "'nonce': it is an ID token" in said["nonce"]
    assert "'at_hash': it is an ID token" in said["at_hash"]
    assert media_type.status_code == 200, media_type.text


async def test_with_require_token_type_off_a_jwt_typed_token_opens_but_an_id_token_still_does_not(
    issuer: OidcIssuer,
) -> None:
    async with serving(issuer, requireTokenType=False) as served, httpx.AsyncClient(base_url=served.url) as client:
        claims = claims_for(issuer, served.audience)
        typed_jwt = await client.get("/api/tools", headers=bearer(issuer.signed(header={"typ": "JWT"}, **claims)))
        untyped = await client.get("/api/tools", headers=bearer(issuer.signed(header={"typ": None}, **claims)))
        id_token = await client.get(
            "/api/tools", headers=bearer(issuer.signed(header={"typ": "JWT"}, **claims, nonce="n-0123"))
        )
    assert (typed_jwt.status_code, untyped.status_code) == (200, 200)
    assert id_token.status_code == 401
    assert "ID token" in id_token.json()["detail"]


async def test_identity_clients_accepts_tokens_of_the_listed_clients_and_the_dashboards_only(
    issuer: OidcIssuer,
) -> None:
    async with (
        serving(issuer, clients=["bob"], dashboardClient="dashboard") as served,
        httpx.AsyncClient(base_url=served.url, timeout=10) as client,
    ):
        claims = claims_for(issuer, served.audience)
        listed = await client.get("/api/tools", headers=bearer(issuer.token("bob", served.audience)))
        other = await client.get("/api/tools", headers=bearer(issuer.token("alice", served.audience)))
        by_azp = await client.get("/api/tools", headers=bearer(issuer.signed(**claims, azp="bob")))
        dashboard = await client.get("/api/tools", headers=bearer(issuer.signed(**claims, client_id="dashboard")))
        unnamed = await client.get("/api/tools", headers=bearer(issuer.signed(**claims)))
    assert (listed.status_code, by_azp.status_code, dashboard.status_code) == (200, 200, 200)
    assert (other.status_code, unnamed.status_code) == (401, 401)
    assert "client 'alice', which identity.clients does not list" in other.json()["detail"]
    assert "names no client" in unnamed.json()["detail"]


async def test_a_verified_token_remembered_by_the_gateway_is_refused_once_it_expires(
    issuer: OidcIssuer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second presentation of a token is answered from memory, without a signature check: the memory must
    still hold the token to its `exp` (plus the clock skew)."""
    audience = "https://gw.example/mcp"
    config = parse_config({"mcpServers": {}, "identity": {"issuer": issuer.issuer, "audience": audience,
                                                          "clockSkew": 5}}).identity  # fmt: skip
    assert config is not None
    verifier = TokenVerifier(config)
    now = time.time()
    token = issuer.signed(**claims_for(issuer, audience, sub="alice", iat=int(now), exp=int(now) + 120))
    assert (await verifier.principal(token)).subject == "alice"
    assert token in verifier.accepted
    assert (await verifier.principal(token)).subject == "alice"  # from memory, still in date
    monkeypatch.setattr(time, "time", lambda: now + 120 + 5 + 1)
    with pytest.raises(IdentityError, match="expired"):
        await verifier.principal(token)


def test_the_issuers_key_set_is_read_over_https_only_http_on_this_machine() -> None:
    issuer = "https://issuer.example"
    seen: list[str] = []

    def keys_at(jwks_uri: str) -> IssuerKeys:
        async def get(url: str) -> Any:
            seen.append(url)
            if url.endswith("openid-configuration"):
                return {"issuer": issuer, "jwks_uri": jwks_uri}
            return {"keys": []}

        return IssuerKeys(issuer, get=get)

    async def refreshed(jwks_uri: str) -> str | None:
        try:
            await keys_at(jwks_uri).refresh()
        except IdentityError as exc:
            return str(exc)
        return None

    async def main() -> dict[str, str | None]:
        return {
            uri: await refreshed(uri)
            for uri in ("http://issuer.example/jwks", "http://10.0.0.7/jwks", "https://issuer.example/jwks",
                        "http://127.0.0.1:9/jwks", "http://[::1]:9/jwks")
        }  # fmt: skip

    problems = anyio.run(main)
    assert "not https" in (problems["http://issuer.example/jwks"] or "")
    assert "not https" in (problems["http://10.0.0.7/jwks"] or "")
    assert [u for u, why in problems.items() if why is None] == [
        "https://issuer.example/jwks", "http://127.0.0.1:9/jwks", "http://[::1]:9/jwks"
    ]  # fmt: skip
    assert "http://issuer.example/jwks" not in seen, "refused before a byte is read from it"


class _Tokens:
    """Where the SDK's OAuth provider keeps its tokens: in memory, for one test."""

    def __init__(self) -> None:
        self.tokens: Any = None
        self.client: Any = None

    async def get_tokens(self) -> Any:
        return self.tokens

    async def set_tokens(self, tokens: Any) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> Any:
        return self.client

    async def set_client_info(self, client_info: Any) -> None:
        self.client = client_info


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_python_sdk_client_finds_the_issuer_gets_a_token_and_uses_hintgate_serve(
    issuer: OidcIssuer, tmp_path: Path, demo_cmd: list[str], mode: str
) -> None:
    import httpx2
    from mcp import Client
    from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
    from mcp.client.streamable_http import streamable_http_client

    port = free_port()
    audience = f"http://127.0.0.1:{port}/mcp"
    config = tmp_path / "hintgate.json"
    config.write_text(json.dumps({
        "mcpServers": {"demo": {"command": demo_cmd[0], "args": demo_cmd[1:], "trust": "trusted"}},
        "identity": {"issuer": issuer.issuer, "audience": audience, "scopes": ["mcp"]},
    }))  # fmt: skip
    with running_gateway("--config", str(config), bind=f"127.0.0.1:{port}") as gateway:
        assert gateway.mcp_url == audience
        async with httpx.AsyncClient(timeout=10) as plain:
            assert (await plain.post(audience, json={})).status_code == 401
        provider = ClientCredentialsOAuthProvider(
            server_url=audience, storage=_Tokens(), client_id="bob", client_secret="bob-secret",
            scope="mcp", issuer=issuer.issuer,
        )  # fmt: skip
        async with (
            httpx2.AsyncClient(auth=provider, timeout=30) as http,
            Client(streamable_http_client(audience, http_client=http), mode=mode) as client,  # type: ignore[arg-type]
        ):
            listed = await client.list_tools()
            found = await client.call_tool("demo_search_notes", {"query": "x"})
    assert "demo_search_notes" in {tool.name for tool in listed.tools}
    assert not found.is_error
    assert jwt.decode(provider.context.current_tokens.access_token, options={"verify_signature": False})["aud"] == (
        audience
    )


async def test_time_claims_that_are_not_finite_numbers_are_refused_even_when_signed() -> None:
    """A signed token whose `exp` is NaN or infinite would compare as never expired; one with a `crit` extension
    asks for processing the gateway does not do."""
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(private.public_key()))
    issuer, audience = "https://issuer.example", "https://gw.example/mcp"
    documents = {
        f"{issuer}/.well-known/openid-configuration": {"issuer": issuer, "jwks_uri": f"{issuer}/jwks"},
        f"{issuer}/jwks": {"keys": [{**jwk, "kid": "k1", "alg": "RS256", "use": "sig"}]},
    }

    async def get(url: str) -> Any:
        return documents[url]

    config = parse_config({"mcpServers": {}, "identity": {"issuer": issuer, "audience": audience}}).identity
    assert config is not None
    verifier = TokenVerifier(config, IssuerKeys(issuer, get=get))
    now = int(time.time())
    good = {"iss": issuer, "aud": audience, "sub": "alice", "iat": now, "exp": now + 300}

    def signed(headers: dict[str, Any] | None = None, **claims: Any) -> str:
        header = {"kid": "k1", "typ": "at+jwt", **(headers or {})}
        return jwt.encode({**good, **claims}, private, algorithm="RS256", headers=header)

    assert (await verifier.principal(signed())).name == "alice"
    refused = {}
    for why, token in {
        "exp NaN": signed(exp=float("nan")),
        "exp infinite": signed(exp=float("inf")),
        "nbf a string": signed(nbf="0"),
        "iat true": signed(iat=True),
        "crit": signed(headers={"crit": ["exp"]}, extra=1),
    }.items():
        with pytest.raises(IdentityError) as caught:
            await verifier.principal(token)
        refused[why] = str(caught.value)
    assert "'exp' claim is not a number" in refused["exp NaN"]
    assert "'exp' claim is not a number" in refused["exp infinite"]
    assert "'nbf' claim is not a number" in refused["nbf a string"]
    assert "'iat' claim is not a number" in refused["iat true"]
    assert "critical header extensions" in refused["crit"]
