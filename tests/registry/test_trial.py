"""A registry package tried before it is added: the real npm and PyPI servers, in a scratch directory, with only
the allow-listed environment."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import anyio
import pytest

from hintgate.config.loading import parse_config
from hintgate.errors import PackageInstallError, UpstreamError
from hintgate.registry.entry import default_choice, entry_for
from hintgate.registry.serverjson import Package, RegistryServer, read_server
from hintgate.registry.trial import Trial, tried
from registry_peer import MEMORY, NODE_MODULES, TIME, response, server_json

pytestmark = pytest.mark.anyio


def server(name: str, change: Any = None) -> RegistryServer:
    document = copy.deepcopy(server_json()[name])
    if change is not None:
        change(document)
    return read_server(response(document))


async def trial(
    found: RegistryServer, given: dict[str, str], environ: dict[str, str], **kwargs: Any
) -> tuple[Package, Trial]:
    choice = default_choice(found)
    assert choice is not None
    assert choice.package is not None
    entry, _, _ = entry_for(found, choice, registry="http://127.0.0.1:1")
    config = parse_config({"mcpServers": {"tried": entry}}, environ=given).servers["tried"]
    return choice.package, await tried(choice.package, config, environ=environ, **kwargs)


def npm_installed() -> Path:
    if not (NODE_MODULES / "@modelcontextprotocol" / "server-memory").is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"{NODE_MODULES} lacks server-memory: scripts/test installs it with npm")
        pytest.skip("tests/peers/node_modules is not installed (run scripts/test)")
    return NODE_MODULES


async def test_an_npm_package_installed_at_its_version_is_started_and_lists_its_tools(tmp_path: Path) -> None:
    installed = npm_installed()
    with anyio.fail_after(90):
        package, done = await trial(server(MEMORY), {}, dict(os.environ), node_modules=installed)
    assert sorted(t["name"] for t in done.tools) == [
        "add_observations",
        "create_entities",
        "create_relations",
        "delete_entities",
        "delete_observations",
        "delete_relations",
        "open_nodes",
        "read_graph",
        "search_nodes",
    ]
    assert done.server is not None
    assert done.server.startswith("memory-server")
    assert done.command == f"npx --yes {package.spec}"


def probe_package(root: Path, version: str) -> Path:
    """node_modules holding `hg-env-probe@VERSION`: a program that writes its environment and working directory
    to the file its first argument names, then exits (it is no MCP server)."""
    modules = root / "node_modules"
    package = modules / "hg-env-probe"
    package.mkdir(parents=True)
    (package / "package.json").write_text(
        json.dumps({"name": "hg-env-probe", "version": version, "bin": {"hg-env-probe": "probe.js"}})
    )
    (package / "probe.js").write_text(
        "#!/usr/bin/env node\n"
        "require('fs').writeFileSync(process.argv[2], JSON.stringify({env: process.env, cwd: process.cwd()}));\n"
    )
    (package / "probe.js").chmod(0o755)
    (modules / ".bin").mkdir()
    (modules / ".bin" / "hg-env-probe").symlink_to("../hg-env-probe/probe.js")
    return modules


async def test_a_tried_package_gets_the_allow_list_and_the_values_given_never_the_users_secrets(
    tmp_path: Path,
) -> None:
    modules = probe_package(tmp_path, "1.0.0")
    report = tmp_path / "seen.json"

    def change(document: dict[str, Any]) -> None:
        document["packages"][0].update(
            identifier="hg-env-probe",
            version="1.0.0",
            packageArguments=[{"type": "positional", "value": str(report)}],
            environmentVariables=[
                {"name": "PROBE_TOKEN", "isRequired": True, "isSecret": True},
                {"name": "GITHUB_TOKEN", "isRequired": False, "isSecret": True},
            ],
        )

    environ = {**os.environ, "GITHUB_TOKEN": "users-own-secret", "AWS_SECRET_ACCESS_KEY": "also-secret"}
    with anyio.fail_after(60), pytest.raises(UpstreamError):  # it exits: no MCP server
        await trial(server(MEMORY, change), {"PROBE_TOKEN": "given-for-the-trial"}, environ, node_modules=modules)
    seen = json.loads(report.read_text())
    env = seen["env"]
    assert env["PROBE_TOKEN"] == "given-for-the-trial"
    assert "GITHUB_TOKEN" not in env
    assert "AWS_SECRET_ACCESS_KEY" not in env
    assert env["npm_config_ignore_scripts"] == "true"
    assert env["PATH"].endswith(os.environ["PATH"])  # npx puts its own directories first
    assert Path(seen["cwd"]).name.startswith("hintgate-trial-")
    assert not Path(seen["cwd"]).exists()  # the scratch directory is gone


@pytest.mark.timeout(300)
async def test_a_pypi_package_is_installed_from_wheels_in_a_temporary_venv_and_lists_its_tools() -> None:
    # Installs mcp-server-time and its dependencies from PyPI (or the pip configuration's index): ~40 s.
    with anyio.fail_after(280):
        package, done = await trial(server(TIME), {}, dict(os.environ), install_timeout=240)
    assert sorted(t["name"] for t in done.tools) == ["convert_time", "get_current_time"]
    assert done.command == "mcp-server-time --local-timezone UTC"
    assert package.spec.startswith("mcp-server-time==")


@pytest.mark.timeout(240)
async def test_a_pypi_package_that_cannot_be_installed_says_what_pip_said() -> None:
    def change(document: dict[str, Any]) -> None:
        document["packages"][0].update(identifier="hintgate-no-such-package-xyz", version="0.0.1")

    with anyio.fail_after(200), pytest.raises(PackageInstallError) as caught:
        await trial(server(TIME, change), {}, dict(os.environ), install_timeout=150)
    message = str(caught.value)
    assert message.startswith("pip install hintgate-no-such-package-xyz==0.0.1: ")
    assert "exited with" in message
