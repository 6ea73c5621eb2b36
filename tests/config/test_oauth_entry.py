"""A remote server's `oauth` block: every key optional, each spelling read, every mistake named."""

from __future__ import annotations

from pathlib import Path

import pytest

from hintgate.config.loading import load_config
from hintgate.config.model import HttpTransport, OAuthConfig
from hintgate.errors import ConfigError


def _load(tmp_path: Path, block: str) -> OAuthConfig | None:
    path = tmp_path / "servers.yaml"
    path.write_text(f"mcpServers:\n  remote:\n    url: https://example.com/mcp\n{block}")
    transport = load_config(path).servers["remote"].transport
    assert isinstance(transport, HttpTransport)
    return transport.oauth


def _error(tmp_path: Path, text: str) -> str:
    path = tmp_path / "servers.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    return str(info.value)


def test_an_empty_oauth_block_leaves_everything_to_discovery(tmp_path: Path) -> None:
    assert _load(tmp_path, "    oauth: {}\n") == OAuthConfig()


def test_a_server_without_an_oauth_block_does_not_log_in(tmp_path: Path) -> None:
    assert _load(tmp_path, "") is None


def test_hintgates_own_spellings_are_read(tmp_path: Path) -> None:
    block = "    oauth:\n      client_id: hg\n      client_secret: s3cret-value\n      scopes: [read, write]\n"
    block += "      redirect_port: 8765\n"
    assert _load(tmp_path, block) == OAuthConfig("hg", "s3cret-value", ("read", "write"), 8765)


def test_claude_code_spellings_and_a_space_separated_scope_are_read(tmp_path: Path) -> None:
    block = "    oauth: {clientId: cc, callbackPort: 9000, scope: 'a b'}\n"
    assert _load(tmp_path, block) == OAuthConfig("cc", None, ("a", "b"), 9000)


def test_an_unknown_key_in_the_oauth_block_is_an_error_with_a_suggestion(tmp_path: Path) -> None:
    text = "mcpServers:\n  remote:\n    url: https://example.com/mcp\n    oauth: {client_di: x}\n"
    message = _error(tmp_path, text)
    assert "servers.yaml:4:13: mcpServers.remote.oauth.client_di" in message
    assert 'unknown key "client_di"' in message
    assert "client_id" in message


def test_a_bad_port_and_a_scope_with_spaces_are_both_reported(tmp_path: Path) -> None:
    text = "mcpServers:\n  remote:\n    url: https://example.com/mcp\n    oauth:\n      redirect_port: 70000\n"
    text += "      scopes: ['read write']\n"
    message = _error(tmp_path, text)
    assert "mcpServers.remote.oauth.redirect_port: expected a port number from 1 to 65535, got 70000" in message
    assert "mcpServers.remote.oauth.scopes[0]" in message


def test_the_client_secret_never_appears_in_an_error_or_the_redacted_config(tmp_path: Path) -> None:
    text = "mcpServers:\n  remote:\n    url: https://example.com/mcp\n    oauth: {client_secret: 12345}\n"
    assert "12345" not in _error(tmp_path, text)
    path = tmp_path / "ok.yaml"
    entry = "    oauth: {client_id: a, client_secret: topsecretvalue}\n"
    path.write_text("mcpServers:\n  remote:\n    url: https://example.com/mcp\n" + entry)
    server = load_config(path).servers["remote"]
    assert "topsecretvalue" not in repr(server.redacted())
    assert server.redacted()["transport"]["oauth"]["client_secret"] == "***"
    assert "topsecretvalue" in server.secrets()


def test_oauth_on_a_stdio_server_is_an_error(tmp_path: Path) -> None:
    message = _error(tmp_path, "mcpServers:\n  local:\n    command: echo\n    oauth: {}\n")
    assert "mcpServers.local.oauth" in message
    assert "remote servers only" in message


def test_oauth_beside_a_static_authorization_header_is_an_error(tmp_path: Path) -> None:
    text = "mcpServers:\n  remote:\n    url: https://example.com/mcp\n    headers: {Authorization: Bearer x}\n"
    message = _error(tmp_path, text + "    oauth: {}\n")
    assert "sends its own Authorization header" in message


def test_a_login_per_person_is_read_beside_an_identity_section(tmp_path: Path) -> None:
    path = tmp_path / "servers.yaml"
    path.write_text(
        "identity: {issuer: 'https://login.example.com', audience: 'https://hintgate.example.com/mcp'}\n"
        "mcpServers:\n  remote:\n    url: https://example.com/mcp\n    oauth: {perUser: true}\n"
    )
    transport = load_config(path).servers["remote"].transport
    assert isinstance(transport, HttpTransport)
    assert transport.oauth == OAuthConfig(per_user=True)


def test_a_login_per_person_without_an_identity_section_is_an_error_at_its_line(tmp_path: Path) -> None:
    text = "mcpServers:\n  remote:\n    url: https://example.com/mcp\n    oauth:\n      perUser: true\n"
    message = _error(tmp_path, text)
    assert "servers.yaml:5:" in message
    assert "mcpServers.remote.oauth.perUser" in message
    assert "identity section" in message


def test_per_user_must_be_true_or_false(tmp_path: Path) -> None:
    text = "mcpServers:\n  remote:\n    url: https://example.com/mcp\n    oauth: {perUser: 'yes'}\n"
    assert "expected true or false" in _error(tmp_path, text)
