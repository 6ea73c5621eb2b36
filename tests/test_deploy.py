"""The container image and docs/deploy.md name only what exists: files, settings, config keys, routes, flags."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hintgate.config.loading import parse_config
from hintgate.config.settings import ENVIRONMENT

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
DEPLOY = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")


def instructions(keyword: str) -> list[str]:
    """The arguments of every Dockerfile instruction of one kind, continuation lines joined."""
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    return [m.group(1).strip() for m in re.finditer(rf"^{keyword}\s+(.+)$", joined, re.MULTILINE)]


def test_every_file_the_dockerfile_copies_exists_in_the_repository() -> None:
    copied = [source for args in instructions("COPY") for source in args.split()[:-1]]
    assert copied
    assert [source for source in copied if not (ROOT / source).exists()] == []


def test_the_image_runs_as_a_user_other_than_root() -> None:
    users = instructions("USER")
    assert users
    assert users[-1] not in ("root", "0")


def test_the_exposed_port_is_the_one_served_and_health_checked() -> None:
    (port,) = instructions("EXPOSE")
    (entrypoint,) = instructions("ENTRYPOINT")
    (healthcheck,) = instructions("HEALTHCHECK")
    assert json.loads(entrypoint)[:4] == ["hintgate", "serve", "--http", f"0.0.0.0:{port}"]
    assert f"127.0.0.1:{port}/api/health" in healthcheck


def test_the_health_check_path_is_a_route_of_the_rest_api() -> None:
    from hintgate.web.api import router

    assert "/api/health" in {getattr(route, "path", None) for route in router.routes}


def command_line_variables() -> set[str]:
    """The environment variables the command line's options read (`hintgate approvals --url`: HINTGATE_URL)."""
    import typer

    from hintgate.cli.app import app

    found: set[str] = set()
    commands: list[Any] = [typer.main.get_command(app)]
    while commands:
        command = commands.pop()
        commands.extend(getattr(command, "commands", {}).values())  # a group's subcommands
        for param in command.params:
            envvar = getattr(param, "envvar", None)
            found.update([envvar] if isinstance(envvar, str) else envvar or [])
    return found


def test_every_environment_variable_in_the_image_and_the_deploy_guide_is_a_setting_or_an_option() -> None:
    named = set(re.findall(r"\bHINTGATE_[A-Z_]+\b", DOCKERFILE + DEPLOY))
    known = {variable for variable, _ in ENVIRONMENT.values()} | command_line_variables()
    assert {"HINTGATE_STATE_KEY", "HINTGATE_URL"} <= named
    assert "HINTGATE_URL" in command_line_variables()
    assert named - known == set()


def test_every_serve_flag_in_the_deploy_guide_exists() -> None:
    from typer.testing import CliRunner

    from hintgate.cli.app import app

    shown = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200", "NO_COLOR": "1"}).output
    flags = set(re.findall(r"hintgate serve[^\n`]*", DEPLOY))
    used = {flag for line in flags for flag in re.findall(r"--[a-z][a-z-]*", line)}
    assert used
    assert {flag for flag in used if flag not in shown} == set()


def test_the_session_idle_timeout_the_guide_sets_is_a_config_key() -> None:
    assert "timeouts.sessionIdle" in DEPLOY
    config = parse_config({"mcpServers": {}, "timeouts": {"sessionIdle": 600}})
    assert config.timeouts.session_idle == 600
