"""`hintgate auth`: log in from a terminal, see the login, use it in `hintgate tools`, log out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from tests import configs
from typer.testing import CliRunner

from hintgate.cli.app import app
from oauth_peer import OAuthPeer

runner = CliRunner()
STATE_KEY = "a-test-state-key-with-at-least-32-bytes"


@pytest.fixture
def environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    data = tmp_path / "data"
    monkeypatch.setenv("HINTGATE_DATA_DIR", str(data))
    monkeypatch.setenv("HINTGATE_STATE_KEY", STATE_KEY)
    return {**os.environ, "HINTGATE_DATA_DIR": str(data), "HINTGATE_STATE_KEY": STATE_KEY}


def config_file(tmp_path: Path, peer: OAuthPeer) -> Path:
    servers = {"tracker": {"url": peer.url, "oauth": {}}, "plain": {"url": peer.url}}
    return configs.config_file(tmp_path, servers, name="servers.json")


def login_in_child(config: Path, peer: OAuthPeer, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`hintgate auth login` as a user runs it: the URL is printed, the user approves, the command ends."""
    process = subprocess.Popen(
        [sys.executable, "-m", "hintgate", "auth", "login", "tracker", "--config", str(config), "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    url: list[str] = []

    def approve() -> None:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        url.append(line)
        if line.startswith("http"):
            peer.approve_without_browser(line)

    approver = threading.Thread(target=approve, daemon=True)
    approver.start()
    approver.join(60)
    try:
        stdout, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert url, stderr
    assert url[0].startswith(f"{peer.issuer}/authorize?"), stderr
    return subprocess.CompletedProcess(process.args, process.returncode, url[0] + stdout, stderr)


def status(config: Path) -> list[dict[str, Any]]:
    result = runner.invoke(app, ["auth", "status", "--config", str(config), "--format", "json"])
    assert result.exit_code == 0, result.output
    rows: list[dict[str, Any]] = json.loads(result.stdout)
    return rows


def test_login_status_tools_and_logout_from_the_terminal(
    tmp_path: Path, oauth_peer: OAuthPeer, environment: dict[str, str]
) -> None:
    config = config_file(tmp_path, oauth_peer)
    [before] = status(config)
    assert (before["server"], before["state"], before["reason"]) == (
        "tracker",
        "needs_login",
        "no one has logged in to it yet",
    )

    result = runner.invoke(app, ["tools", "--config", str(config)])
    assert result.exit_code == 3
    assert "needs_login" in result.output
    assert "tracker needs an OAuth login: no one has logged in to it yet; run: hintgate auth login tracker" in (
        " ".join(result.output.split())
    )

    done = login_in_child(config, oauth_peer, environment)
    assert done.returncode == 0, done.stderr
    assert "Logged in to 'tracker'" in done.stderr
    [after] = status(config)
    assert after["state"] == "logged_in"
    assert after["refreshable"] is True
    text = runner.invoke(app, ["auth", "status", "--config", str(config)]).output
    assert "tracker" in text
    assert "logged_in" in text

    listing = runner.invoke(app, ["tools", "--config", str(config), "--format", "json"])
    names = {tool["name"] for tool in json.loads(listing.stdout)["tools"]}
    assert {"tracker_whoami", "tracker_echo"} <= names

    logout = runner.invoke(app, ["auth", "logout", "tracker"])
    assert logout.exit_code == 0
    assert "Logged out of 'tracker'" in logout.output
    assert status(config)[0]["state"] == "needs_login"


def test_login_names_a_server_that_is_missing_or_not_behind_oauth(tmp_path: Path, oauth_peer: OAuthPeer) -> None:
    config = config_file(tmp_path, oauth_peer)
    missing = runner.invoke(app, ["auth", "login", "trackr", "--config", str(config), "--no-browser"])
    assert missing.exit_code == 2
    assert "no server 'trackr' in the config" in missing.output
    assert "tracker" in missing.output
    plain = runner.invoke(app, ["auth", "login", "plain", "--config", str(config), "--no-browser"])
    assert plain.exit_code == 2
    assert "server 'plain' has no oauth block" in plain.output
