"""The `identity` section: the identity provider whose users may use the gateway."""

from __future__ import annotations

from pathlib import Path

import pytest

from hintgate.config.loading import load_config, parse_config
from hintgate.config.model import SIGNING_ALGORITHMS
from hintgate.errors import ConfigError


def test_an_identity_section_names_the_issuer_and_audience_with_defaults_for_the_rest() -> None:
    config = parse_config({"identity": {"issuer": "https://login.example.com/realms/team",
                                        "audience": "https://hintgate.example.com/mcp"}})  # fmt: skip
    assert config.identity is not None
    assert config.identity.issuer == "https://login.example.com/realms/team"
    assert config.identity.user_claims == ("email", "preferred_username", "sub")
    assert config.identity.groups_claim == "groups"
    assert config.identity.algorithms == SIGNING_ALGORITHMS
    assert config.identity.clock_skew == 60


def test_an_issuer_with_a_trailing_slash_is_kept_as_written_since_iss_must_match_it_exactly() -> None:
    config = parse_config({"identity": {"issuer": "https://tenant.auth0.example/", "audience": "hintgate"}})
    assert config.identity is not None
    assert config.identity.issuer == "https://tenant.auth0.example/"


def test_without_an_identity_section_there_are_no_users() -> None:
    assert parse_config({"mcpServers": {}}).identity is None


def test_every_problem_of_an_identity_section_is_located(tmp_path: Path) -> None:
    path = tmp_path / "hintgate.yaml"
    path.write_text(
        "mcpServers: {}\n"
        "identity:\n"
        "  issuer: http://login.example.com\n"
        "  algorithms: [RS256, HS256, none, XY1]\n"
        "  clockSkew: 3600\n"
        "  userClaim: []\n"
        "  groupClaim: roles\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    lines = str(caught.value).splitlines()
    where = f"{path}:"
    assert any(line.startswith(f"{where}3:3: identity: audience is required") for line in lines)
    assert any(line.startswith(f"{where}3:11: identity.issuer: expected an https:// URL") for line in lines)
    assert any("identity.algorithms[1]" in line and "shared-secret" in line for line in lines)
    assert any("identity.algorithms[2]" in line and "proves nothing" in line for line in lines)
    assert any("identity.algorithms[3]" in line and "not a JWT signature algorithm" in line for line in lines)
    assert any(line.startswith(f"{where}5:14: identity.clockSkew: expected seconds from 0 to 600") for line in lines)
    assert any("identity.userClaim: expected a claim name or a non-empty list" in line for line in lines)
    assert any('identity.groupClaim: unknown key "groupClaim"; did you mean "groupsClaim"' in line for line in lines)


def test_an_issuer_over_plain_http_is_accepted_only_on_this_machine() -> None:
    config = parse_config({"identity": {"issuer": "http://127.0.0.1:8080", "audience": "http://127.0.0.1:7/mcp"}})
    assert config.identity is not None
    with pytest.raises(ConfigError, match="only on this machine"):
        parse_config({"identity": {"issuer": "http://idp.internal", "audience": "x"}})


def test_the_dashboard_client_is_read_when_given() -> None:
    config = parse_config({"identity": {"issuer": "https://idp.example", "audience": "https://h.example/mcp",
                                        "dashboardClient": "hintgate-dashboard"}})  # fmt: skip
    assert config.identity is not None
    assert config.identity.dashboard_client == "hintgate-dashboard"


def test_admins_and_auditors_name_people_and_groups_and_without_admins_config_check_warns() -> None:
    config = parse_config({"identity": {"issuer": "https://idp.example", "audience": "https://h.example/mcp",
                                        "admins": {"user": "ops@example.com", "group": ["platform", "sre"]},
                                        "auditors": {"group": "security"}}})  # fmt: skip
    assert config.identity is not None
    assert config.identity.admins.users == ("ops@example.com",)
    assert config.identity.admins.groups == frozenset({"platform", "sre"})
    assert config.identity.auditors.groups == frozenset({"security"})
    assert not any("admins" in w for w in config.warnings)
    bare = parse_config({"identity": {"issuer": "https://idp.example", "audience": "https://h.example/mcp"}})
    assert bare.identity is not None
    assert bare.identity.admins.users == ()
    [warning] = [w for w in bare.warnings if "admins" in w]
    assert "only the API token changes it" in warning


def test_a_glob_or_an_empty_name_among_admins_is_an_error_at_its_place(tmp_path: Path) -> None:
    path = tmp_path / "hintgate.yaml"
    path.write_text(
        "mcpServers: {}\n"
        "identity:\n"
        "  issuer: https://idp.example\n"
        "  audience: https://h.example/mcp\n"
        "  admins: {user: ['*@example.com'], team: x}\n"
        "  auditors: {}\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    text = str(caught.value)
    assert 'identity.admins.user[0]: "*@example.com" is a glob; name each person exactly, or use a group' in text
    assert 'identity.admins.team: unknown key "team"' in text
    assert "identity.auditors: expected a user and/or a group" in text
