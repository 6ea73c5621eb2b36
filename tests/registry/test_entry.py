"""The entry a registry server becomes: its version pinned, what it needs as `${VAR}`, read by the config reader."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from hintgate.config.loading import parse_config
from hintgate.config.model import HttpTransport, StdioTransport
from hintgate.errors import ConfigError
from hintgate.registry.entry import choices, default_choice, entry_for
from hintgate.registry.serverjson import RegistryServer, read_server
from registry_peer import MEMORY, TIME, WEATHER, response, server_json

REGISTRY = "http://127.0.0.1:1"


def server(name: str, change: Any = None) -> RegistryServer:
    document = copy.deepcopy(server_json()[name])
    if change is not None:
        change(document)
    return read_server(response(document))


def built(found: RegistryServer, key: str | None = None) -> tuple[dict[str, Any], list[Any], list[str]]:
    choice = next(c for c in choices(found) if c.key == key) if key else default_choice(found)
    assert choice is not None
    return entry_for(found, choice, registry=REGISTRY)


def test_an_npm_package_becomes_npx_of_its_exact_version_and_an_optional_variable_is_left_out() -> None:
    memory = server(MEMORY)
    entry, needs, notes = built(memory)
    assert entry["command"] == "npx"
    assert entry["args"] == ["-y", f"@modelcontextprotocol/server-memory@{memory.version}"]
    assert "env" not in entry
    assert [(n.name, n.required) for n in needs] == [("MEMORY_FILE_PATH", False)]
    assert entry["x-registry"] == {"registry": REGISTRY, "name": MEMORY, "version": memory.version, "use": "package:0"}
    assert notes == []


def test_a_pypi_package_becomes_uvx_with_its_argument_default_overridable_from_the_environment() -> None:
    time = server(TIME)
    entry, needs, _ = built(time)
    assert entry["command"] == "uvx"
    assert entry["args"] == [f"mcp-server-time=={time.version}", "--local-timezone", "${LOCAL_TIMEZONE:-UTC}"]
    loaded = parse_config({"mcpServers": {"time": entry}}, environ={})
    transport = loaded.servers["time"].transport
    assert isinstance(transport, StdioTransport)
    assert transport.args[-1] == "UTC"
    again = parse_config({"mcpServers": {"time": entry}}, environ={"LOCAL_TIMEZONE": "Europe/Paris"})
    assert again.servers["time"].transport.args[-1] == "Europe/Paris"  # type: ignore[union-attr]
    assert [n.name for n in needs] == ["LOCAL_TIMEZONE"]


def test_a_remote_names_its_secret_header_as_a_variable_and_never_writes_a_value() -> None:
    entry, needs, _ = built(server(WEATHER))
    assert entry["url"] == "https://weather.example/${REGION:-eu}/mcp"
    assert entry["headers"] == {"X-API-Key": "${X_API_KEY}", "X-Units": "${X_UNITS:-metric}"}
    assert [(n.name, n.required, n.secret) for n in needs] == [
        ("REGION", False, False),
        ("X_API_KEY", True, True),
        ("X_UNITS", False, False),
    ]
    with pytest.raises(ConfigError, match="environment variable X_API_KEY is not set"):
        parse_config({"mcpServers": {"weather": entry}}, environ={})
    loaded = parse_config({"mcpServers": {"weather": entry}}, environ={"X_API_KEY": "k-123"})
    transport = loaded.servers["weather"].transport
    assert isinstance(transport, HttpTransport)
    assert (transport.url, dict(transport.headers)) == (
        "https://weather.example/eu/mcp",
        {"X-API-Key": "k-123", "X-Units": "metric"},
    )


def test_a_secret_is_only_ever_a_reference_and_an_optional_one_is_left_out_so_the_entry_loads_without_it() -> None:
    def change(document: dict[str, Any]) -> None:
        document["packages"][0]["environmentVariables"] = [
            {"name": "API_TOKEN", "isSecret": True, "isRequired": True, "value": "published-secret"},
            {"name": "PRICE", "value": "costs $5"},
            {"name": "OPTIONAL_KEY", "isSecret": True},
        ]

    entry, needs, _ = built(server(MEMORY, change))
    assert entry["env"] == {"API_TOKEN": "${API_TOKEN}", "PRICE": "costs $$5"}
    loaded = parse_config({"mcpServers": {"m": entry}}, environ={"API_TOKEN": "mine"})
    assert dict(loaded.servers["m"].transport.env) == {"API_TOKEN": "mine", "PRICE": "costs $5"}  # type: ignore[union-attr]
    assert [(n.name, n.required, n.secret) for n in needs] == [("API_TOKEN", True, True), ("OPTIONAL_KEY", False, True)]


def test_the_runners_own_arguments_are_never_used_and_a_package_of_another_registry_is_not_offered() -> None:
    def change(document: dict[str, Any]) -> None:
        document["packages"][0]["runtimeArguments"] = [
            {"type": "named", "name": "--registry", "value": "https://evil.example"}
        ]
        document["packages"].append(
            {"registryType": "oci", "identifier": "example/memory", "version": "1.0.0", "transport": {"type": "stdio"}}
        )

    found = server(MEMORY, change)
    entry, _, notes = built(found)
    assert "--registry" not in entry["args"]
    assert notes == ["$.server.packages[0].runtimeArguments are not used: hintgate starts the package with npx -y"]
    oci = next(c for c in choices(found) if c.key == "package:1")
    assert oci.unsupported == "hintgate starts npm and PyPI packages, not oci ones"
    with pytest.raises(ValueError, match="not oci ones"):
        entry_for(found, oci, registry=REGISTRY)


def test_a_remote_is_chosen_first_only_when_asked() -> None:
    def change(document: dict[str, Any]) -> None:
        document["remotes"] = [{"type": "sse", "url": "https://memory.example/sse"}]

    found = server(MEMORY, change)
    assert default_choice(found) is not None
    assert default_choice(found).key == "package:0"  # type: ignore[union-attr]
    remote = default_choice(found, remote=True)
    assert remote is not None
    entry, _, _ = entry_for(found, remote, registry=REGISTRY)
    assert entry == {"url": "https://memory.example/sse", "type": "sse", "x-registry": entry["x-registry"]}
