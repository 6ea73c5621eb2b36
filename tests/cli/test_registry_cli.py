"""`hintgate registry search` and `show` against a registry on 127.0.0.1, the real npm memory server tried."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.processes import free_port
from typer.testing import CliRunner

from hintgate.cli.app import app
from hintgate.cli.common import EXIT_TARGET, EXIT_USAGE
from registry_peer import MEMORY, NODE_MODULES, TIME, WEATHER, RegistryPeer, running_registry


@pytest.fixture
def peer() -> Iterator[RegistryPeer]:
    with running_registry() as running:
        yield running


def run(*args: str, columns: int = 80, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": str(columns), **(env or {})})
    return result.exit_code, result.stdout, result.stderr


def said(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


def test_search_lists_what_matches_at_80_columns_and_as_json(peer: RegistryPeer) -> None:
    code, text, err = run("registry", "search", "modelcontextprotocol", "--registry-url", peer.url)
    assert code == 0, err
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines), text
    assert lines[0].split() == ["server", "version", "via", "description"]
    assert [line.split()[:3] for line in lines[2:]] == [
        [MEMORY, peer.servers[MEMORY]["version"], "npm"],
        [TIME, peer.servers[TIME]["version"], "pypi"],
    ]
    code, out, err = run("registry", "search", "", "--format", "json", "--registry-url", peer.url)
    assert code == 0, err
    document = json.loads(out)
    assert [s["name"] for s in document["servers"]] == [WEATHER, MEMORY, TIME]
    assert document["servers"][0]["remotes"] == [
        {"type": "streamable-http", "url": "https://weather.example/{region}/mcp"}
    ]
    assert (document["registry"], document["more"], document["skipped"]) == (peer.url, False, [])


def test_the_registry_comes_from_the_setting_when_no_flag_names_it(peer: RegistryPeer) -> None:
    code, out, err = run("registry", "search", "weather", "--format", "json", env={"HINTGATE_REGISTRY_URL": peer.url})
    assert code == 0, err
    assert [s["name"] for s in json.loads(out)["servers"]] == [WEATHER]
    code, _, err = run("registry", "search", "x", env={"HINTGATE_REGISTRY_URL": "http://registry.example"})
    assert code == EXIT_USAGE
    assert "HINTGATE_REGISTRY_URL='http://registry.example': expected an https:// URL" in said(err)


def test_errors_say_which_registry_which_name_or_which_json_path(peer: RegistryPeer) -> None:
    gone = f"http://127.0.0.1:{free_port()}"
    code, _, err = run("registry", "search", "x", "--registry-url", gone)
    assert code == EXIT_TARGET
    assert f"cannot reach the registry at {gone}" in said(err)
    code, _, err = run("registry", "show", "io.example/nothing", "--registry-url", peer.url)
    assert code == EXIT_USAGE
    assert f"io.example/nothing not found in the registry at {peer.url}" in said(err)
    code, _, err = run("registry", "show", MEMORY, "--registry-url", "ftp://registry.example")
    assert code == EXIT_USAGE
    assert "--registry-url: expected an https:// URL" in said(err)
    del peer.servers[MEMORY]["packages"][0]["version"]
    code, _, err = run("registry", "show", MEMORY, "--registry-url", peer.url)
    assert code == EXIT_TARGET
    assert "$.server.packages[0].version: no version is not an exact npm version (1.2.3); refused" in said(err)


def show_memory(peer: RegistryPeer, *more: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    if not (NODE_MODULES / "@modelcontextprotocol" / "server-memory").is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"{NODE_MODULES} lacks server-memory: scripts/test installs it with npm")
        pytest.skip("tests/peers/node_modules is not installed (run scripts/test)")
    return run(
        "registry", "show", MEMORY, "--registry-url", peer.url, "--node-modules", str(NODE_MODULES), *more, env=env
    )


def test_show_tries_the_package_and_shows_its_tools_hints_trust_and_findings(peer: RegistryPeer) -> None:
    code, text, err = show_memory(peer)
    assert code == 0, err
    version = peer.servers[MEMORY]["version"]
    assert f"package:0 npm @modelcontextprotocol/server-memory@{version} (stdio) (used)" in said(text)
    assert "${MEMORY_FILE_PATH} environment variable MEMORY_FILE_PATH, optional" in said(text)
    assert f"tried package:0 in a scratch directory: npx --yes @modelcontextprotocol/server-memory@{version}" in said(
        text
    )
    assert "9 tools, hints with provenance" in text
    assert "delete_entities destructive false (declared)" in said(text)
    assert "trust: local (default for a local command)" in said(text)
    assert "no findings" in text
    assert f"hintgate servers add NAME --registry {MEMORY} --use package:0" in said(text)


def test_show_as_json_holds_the_server_json_the_entry_and_the_lint_report(peer: RegistryPeer) -> None:
    code, out, err = show_memory(peer, "--format", "json")
    assert code == 0, err
    document: dict[str, Any] = json.loads(out)
    assert document["server"] == peer.servers[MEMORY]
    assert document["registry"]["status"] == "active"
    (option,) = document["options"]
    assert option["entry"]["args"] == ["-y", f"@modelcontextprotocol/server-memory@{peer.servers[MEMORY]['version']}"]
    assert option["needs"][0]["variable"] == "MEMORY_FILE_PATH"
    lint = document["trial"]["lint"]
    assert lint["trust"]["level"] == "local"
    assert lint["summary"]["tools"] == 9
    tools = {t["name"]: t for t in lint["tools"]}
    assert tools["read_graph"]["provenance"]["readOnlyHint"] == "declared"
    assert document["error"] is None


def test_show_of_a_remote_does_not_contact_it_and_lists_what_it_needs(peer: RegistryPeer) -> None:
    code, out, err = run("registry", "show", WEATHER, "--registry-url", peer.url, "--format", "json")
    assert code == 0, err
    document = json.loads(out)
    assert document["trial"] is None
    assert document["not_tried"].startswith("a remote is not contacted")
    assert [n["variable"] for n in document["options"][0]["needs"] if n["secret"]] == ["X_API_KEY"]


def test_a_trial_that_needs_a_secret_asks_for_it_and_never_takes_it_from_the_environment(
    peer: RegistryPeer, tmp_path: Path
) -> None:
    peer.servers[MEMORY]["packages"][0]["environmentVariables"] = [
        {"name": "MEMORY_TOKEN", "isRequired": True, "isSecret": True, "description": "A token"}
    ]
    code, text, err = show_memory(peer, env={"MEMORY_TOKEN": "in-my-environment"})
    assert code == EXIT_TARGET
    assert "${MEMORY_TOKEN}" in text  # the server.json and entry are still shown
    assert (
        "to start it, give what it requires (your environment is not passed to it): "
        "MEMORY_TOKEN (environment variable MEMORY_TOKEN, secret); e.g. --env NAME=VALUE, or --no-run"
    ) in said(err)
    code, text, err = show_memory(peer, "--env", "MEMORY_TOKEN=for-the-trial")
    assert code == 0, err
    assert "9 tools" in text


def test_show_without_running_prints_the_entry_only(peer: RegistryPeer) -> None:
    code, out, err = run("registry", "show", TIME, "--registry-url", peer.url, "--no-run", "--format", "json")
    assert code == 0, err
    document = json.loads(out)
    assert (document["trial"], document["not_tried"]) == (None, "--no-run")
    assert document["options"][0]["entry"]["command"] == "uvx"
    code, _, err = run("registry", "show", TIME, "--registry-url", peer.url, "--use", "remote:0")
    assert code == EXIT_USAGE
    assert f"--use remote:0: {TIME} has no remote:0 (it has: package:0)" in said(err)
