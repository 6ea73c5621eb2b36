"""tests/peers/oidc_issuer.mjs run as a child: a real OpenID provider (the npm `oidc-provider` package).

People: alice (group readers), bob (devs), carol (dba), each with a verified email NAME@example.com; and
accounts that try to pass for alice or the API token: mallory (no email, username "alice@example.com"), eve
(email "alice@example.com" unverified), trudy (username "api-token"). Each is also a client_credentials
client (id = name, secret = NAME-secret), so a test gets a person's token without a browser; a token's `sub`
is the account's id.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.processes import free_port, stop, wait_ready

PEERS = Path(__file__).parent / "peers"
SCRIPT = PEERS / "oidc_issuer.mjs"


class OidcIssuer:
    """The OpenID provider at `issuer`, until `stop()`."""

    def __init__(self, redirect_uris: tuple[str, ...] = ()) -> None:
        node = shutil.which("node")
        if node is None or not (PEERS / "node_modules" / "oidc-provider").is_dir():
            if os.environ.get("CI"):
                pytest.fail("oidc-provider is missing: scripts/test installs it with npm")
            pytest.skip("oidc-provider not installed (run scripts/test)")
        env = {**os.environ, "OIDC_REDIRECT_URIS": " ".join(redirect_uris)}
        for attempt in (1, 2):  # it listens within a second; a start that hangs (seen once in CI) gets one more
            self.port = free_port()
            self.issuer = f"http://127.0.0.1:{self.port}"
            self.process = subprocess.Popen(
                [node, str(SCRIPT), str(self.port)],
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                env=env,
                cwd=PEERS,
            )
            try:
                wait_ready(self.process, "the OpenID provider")
                break
            except RuntimeError:
                if attempt == 2:
                    raise

    def token(self, person: str, resource: str, scope: str | None = None) -> str:
        """An access token for `person` (client_credentials), issued for `resource`."""
        data = {"grant_type": "client_credentials", "resource": resource}
        if scope:
            data["scope"] = scope
        response = httpx.post(f"{self.issuer}/token", data=data, auth=(person, f"{person}-secret"), timeout=10)
        response.raise_for_status()
        token: str = response.json()["access_token"]
        return token

    def sign_in(self, authorization_url: str, person: str) -> str:
        """Sign `person` in at the provider's own development pages (any password, then consent), as a browser
        would; returns the URL the provider sends the browser back to (the client's redirect, not followed)."""
        from bs4 import BeautifulSoup

        with httpx.Client(timeout=10) as browser:
            response = browser.get(authorization_url)
            for _ in range(12):
                where = response.headers.get("location")
                if where is not None:
                    if not where.startswith(("/", self.issuer)):
                        return str(where)  # leaving the provider: the client's redirect URI
                    response = browser.get(where if where.startswith("http") else f"{self.issuer}{where}")
                    continue
                form = BeautifulSoup(response.text, "html.parser").find("form")
                assert form is not None, response.text[:500]
                fields = {i["name"]: i.get("value", "") for i in form.find_all("input") if i.get("name")}
                if "login" in fields:
                    fields.update(login=person, password="any")
                response = browser.post(str(form["action"]), data=fields)
        raise AssertionError("the provider did not send the browser back")

    def signed(self, header: dict[str, Any] | None = None, **claims: Any) -> str:
        """A JWT with exactly these claims (and `iss`), signed by the provider's current key.

        `header` adds to the header (`alg` RS256, `typ` at+jwt, `kid`) or replaces its fields; None removes one.
        """
        response = httpx.post(f"{self.issuer}/test/sign", json={"claims": claims, "header": header or {}}, timeout=10)
        response.raise_for_status()
        token: str = response.json()["token"]
        return token

    def rotate(self) -> str:
        """Replace the signing key (the old one is no longer published); returns the new key id."""
        response = httpx.post(f"{self.issuer}/test/rotate", timeout=30)
        response.raise_for_status()
        kid: str = response.json()["kid"]
        return kid

    def jwks(self) -> dict[str, Any]:
        keys: dict[str, Any] = httpx.get(f"{self.issuer}/jwks", timeout=10).json()
        return keys

    def stop(self) -> None:
        stop(self.process)
        if self.process.stdout is not None:
            self.process.stdout.close()
