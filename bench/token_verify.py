"""What checking a person's bearer token costs the gateway per request, the issuer's keys cached.

A real OpenID provider (tests/peers/oidc_issuer.mjs, the npm `oidc-provider`
package) issues an RS256 access token; `hintgate.web.identity.TokenVerifier`
checks it N times: once with the verified-token memory emptied before every
check (the signature verified each time: a client's first request), once as
requests come (the memory holding it: every later request of that client).
Beside them, PyJWT's `jwt.decode` alone with the same key, the floor of a
signature check in Python. Numbers only; nothing here asserts timings.

Usage: python bench/token_verify.py [--checks N]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import socket
import subprocess
import time
from pathlib import Path

import httpx
import jwt

from hintgate.config.model import IdentityConfig
from hintgate.web.identity import TokenVerifier

PEERS = Path(__file__).resolve().parent.parent / "tests" / "peers"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


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

    def per_check(seconds: float) -> float:
        return seconds / checks * 1e6

    start = time.perf_counter()
    for _ in range(checks):
        verifier.accepted.clear()
        await verifier.principal(token)
    signature = per_check(time.perf_counter() - start)
    start = time.perf_counter()
    for _ in range(checks):
        await verifier.principal(token)
    remembered = per_check(time.perf_counter() - start)
    start = time.perf_counter()
    for _ in range(checks):
        jwt.decode(token, key, algorithms=["RS256"], audience=audience, issuer=issuer)
    floor = per_check(time.perf_counter() - start)
    print(f"token checks: {checks}, RS256 2048-bit key, keys cached")
    print(f"  signature verified each time   {signature:8.1f} µs per check")
    print(f"  verified token remembered      {remembered:8.1f} µs per check")
    print(f"  PyJWT jwt.decode alone         {floor:8.1f} µs per check  (ratio hintgate/PyJWT {signature / floor:.2f})")


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
