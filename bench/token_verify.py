"""What checking a person's bearer token costs the gateway per request, the issuer's keys cached.

A real OpenID provider (tests/peers/oidc_issuer.mjs, the npm `oidc-provider`
package) issues an RS256 access token; `hintgate.web.identity.TokenVerifier`
checks it N times: once with the verified-token memory emptied before every
check (the signature verified each time: a client's first request), once as
requests come (the memory holding it: every later request of that client).
Beside them, PyJWT's `jwt.decode` alone with the same key (what the gateway
used before it checked the signature with `cryptography` directly), and an
ES256 token checked against a P-256 key; and what a request to /mcp pays
for identity with its token remembered (the bearer check and the
session-owner check around an app that does nothing). Each is timed on its own:
p50 and mean. Numbers only; nothing here asserts timings.

Usage: python bench/token_verify.py [--checks N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import socket
import statistics
import subprocess
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
import jwt
from cryptography.hazmat.primitives.asymmetric import ec
from starlette.types import Message, Receive, Scope, Send

from hintgate.config.model import IdentityConfig
from hintgate.web.app import Checked
from hintgate.web.identity import IssuerKeys, SessionOwners, TokenVerifier, identity_middleware

PEERS = Path(__file__).resolve().parent.parent / "tests" / "peers"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def timings(check: Callable[[], Awaitable[object]], checks: int) -> tuple[float, float]:
    """(p50, mean) µs of `checks` runs of `check`, each timed on its own."""
    took = []
    for _ in range(checks):
        start = time.perf_counter()
        await check()
        took.append((time.perf_counter() - start) * 1e6)
    return statistics.median(took), statistics.fmean(took)


def line(label: str, p50: float, mean: float, extra: str = "") -> None:
    print(f"  {label:<38} p50 {p50:7.1f} µs   mean {mean:7.1f} µs{extra}")


async def measure(issuer: str, checks: int) -> None:
    audience = "https://hintgate.example.com/mcp"
    response = httpx.post(
        f"{issuer}/token",
        data={"grant_type": "client_credentials", "resource": audience},
        auth=("alice", "alice-secret"),
        timeout=10,
    )
    token = response.json()["access_token"]
    verifier = TokenVerifier(IdentityConfig(issuer=issuer, audience=audience))
    await verifier.principal(token)  # the keys fetched once
    key = verifier.keys.keys[jwt.get_unverified_header(token)["kid"]].key

    async def first() -> object:
        verifier.accepted.clear()
        return await verifier.principal(token)

    async def pyjwt() -> object:
        return jwt.decode(token, key, algorithms=["RS256"], audience=audience, issuer=issuer)

    print(f"token checks: {checks} each, keys cached")
    signature = await timings(first, checks)
    line("RS256 2048-bit, signature verified", *signature)
    line("RS256, verified token remembered", *await timings(lambda: verifier.principal(token), checks))
    floor = await timings(pyjwt, checks)
    line("RS256, PyJWT jwt.decode alone", *floor, f"   (p50 ratio hintgate/PyJWT {signature[0] / floor[0]:.2f})")
    await _middleware(verifier, token, checks)
    es256, es_verifier = await _es256(audience)

    async def first_es() -> object:
        es_verifier.accepted.clear()
        return await es_verifier.principal(es256)

    line("ES256 P-256, signature verified", *await timings(first_es, checks))


async def _middleware(verifier: TokenVerifier, token: str, checks: int) -> None:
    """What a request to /mcp pays for identity around the app, its token remembered: the bearer check
    and the session-owner check, against the same request through a bare app."""

    async def app(_scope: Scope, _receive: Receive, _send: Send) -> None:
        return None

    owners = SessionOwners(app)
    guarded = Checked(owners, check=identity_middleware(verifier, None))
    principal = await verifier.principal(token)
    owners.owners["session-1"] = principal.name
    headers = [
        (b"host", b"127.0.0.1:8000"),
        (b"accept", b"application/json, text/event-stream"),
        (b"content-type", b"application/json"),
        (b"mcp-protocol-version", b"2025-11-25"),
        (b"mcp-session-id", b"session-1"),
        (b"authorization", f"Bearer {token}".encode()),
    ]
    scope: Scope = {"type": "http", "path": "/mcp", "method": "POST", "headers": headers, "query_string": b""}

    async def receive() -> Message:
        return {"type": "http.request", "body": b""}

    async def send(_message: Message) -> None:
        return None

    bare = await timings(lambda: app(dict(scope), receive, send), checks)
    line("a request to /mcp, no identity", *bare)
    line("the same through identity + owners", *await timings(lambda: guarded(dict(scope), receive, send), checks))


async def _es256(audience: str) -> tuple[str, TokenVerifier]:
    """An ES256 token and a verifier holding its key (a key set served in-process: the provider signs RS256)."""
    private = ec.generate_private_key(ec.SECP256R1())
    jwk = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(private.public_key()))
    issuer = "https://issuer.example"
    documents = {
        f"{issuer}/.well-known/openid-configuration": {"issuer": issuer, "jwks_uri": f"{issuer}/jwks"},
        f"{issuer}/jwks": {"keys": [{**jwk, "kid": "es", "alg": "ES256", "use": "sig"}]},
    }

    async def get(url: str) -> object:
        return documents[url]

    verifier = TokenVerifier(IdentityConfig(issuer=issuer, audience=audience), IssuerKeys(issuer, get=get))
    now = int(time.time())
    claims = {"iss": issuer, "aud": audience, "sub": "alice", "iat": now, "exp": now + 3600}
    token = jwt.encode(claims, private, algorithm="ES256", headers={"kid": "es"})
    await verifier.principal(token)
    return token, verifier


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checks", type=int, default=5000)
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None or not (PEERS / "node_modules" / "oidc-provider").is_dir():
        raise SystemExit("needs node and tests/peers/node_modules/oidc-provider (scripts/test installs them)")
    port = free_port()
    process = subprocess.Popen(
        [node, str(PEERS / "oidc_issuer.mjs"), str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=PEERS,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        if process.stdout.readline().strip() != "ready":
            raise SystemExit("the OpenID provider did not start")
        asyncio.run(measure(f"http://127.0.0.1:{port}", args.checks))
    finally:
        process.kill()
        process.wait(10)


if __name__ == "__main__":
    main()
