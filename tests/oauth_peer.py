"""tests/fixtures/oauth_server.py run as a child: an MCP server behind a real OAuth authorization server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
from tests.processes import free_port, stop, wait_ready

SCRIPT = str(Path(__file__).parent / "fixtures" / "oauth_server.py")


class OAuthPeer:
    """The authorization server at `issuer` and the MCP server at `url`, until `stop()`."""

    def __init__(self, access_ttl: int = 3600) -> None:
        self.as_port, self.mcp_port = free_port(), free_port()
        self.issuer = f"http://127.0.0.1:{self.as_port}"
        self.url = f"http://127.0.0.1:{self.mcp_port}/mcp"
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, SCRIPT, str(self.as_port), str(self.mcp_port), str(access_ttl)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        wait_ready(self.process, "the OAuth fixture server")

    def stats(self) -> dict[str, Any]:
        stats: dict[str, Any] = httpx.get(f"{self.issuer}/test/stats", timeout=10).json()
        return stats

    def revoke_all(self, person: str | None = None) -> None:
        """Revoke every token (only `person`'s, when given)."""
        params = {"person": person} if person else {}
        httpx.post(f"{self.issuer}/test/revoke", params=params, timeout=10).raise_for_status()

    def add_client(self, client_id: str, redirect_uri: str, secret: str | None = None) -> None:
        body = {"client_id": client_id, "redirect_uri": redirect_uri, "client_secret": secret}
        httpx.post(f"{self.issuer}/test/clients", json=body, timeout=10).raise_for_status()

    def approve_without_browser(
        self, authorization_url: str, person: str | None = None, ttl: int | None = None
    ) -> None:
        """What a person does in the browser: open the URL, press Allow, follow the redirect home.

        `person` names who consents; `ttl` sets how long their access tokens live (seconds).
        """
        with httpx.Client(timeout=10, follow_redirects=True) as client:
            page = client.get(authorization_url)
            page.raise_for_status()
            form = {"tx": self.transaction(page.text), **({"person": person} if person else {})}
            if ttl is not None:
                form["ttl"] = str(ttl)
            client.post(f"{self.issuer}/consent", data=form).raise_for_status()

    @staticmethod
    def transaction(consent_page: str) -> str:
        """The consent page's transaction, which its Allow form posts back."""
        return consent_page.split('name="tx" value="', 1)[1].split('"', 1)[0]

    def stop(self) -> None:
        stop(self.process)
        if self.process.stdout is not None:
            self.process.stdout.close()
