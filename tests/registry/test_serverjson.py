"""A registry's server.json is read as hostile input: what is missing or refused is named by its JSON path."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from hintgate.errors import ServerJsonError
from hintgate.registry.serverjson import MAX_ITEMS, read_server, shown_text
from registry_peer import MEMORY, TIME, WEATHER, response, server_json


def with_change(name: str, change: Any) -> dict[str, Any]:
    document = copy.deepcopy(server_json()[name])
    change(document)
    return response(document)


def refusal(value: Any) -> str:
    with pytest.raises(ServerJsonError) as caught:
        read_server(value)
    return str(caught.value)


def test_a_registry_answer_is_read_into_packages_remotes_and_what_they_need() -> None:
    memory = read_server(response(server_json()[MEMORY]))
    (package,) = memory.packages
    assert (package.registry_type, package.spec, package.transport) == (
        "npm",
        f"@modelcontextprotocol/server-memory@{memory.version}",
        "stdio",
    )
    assert [(e.name, e.required, e.secret) for e in package.env] == [("MEMORY_FILE_PATH", False, False)]
    assert memory.status == "active"
    time = read_server(response(server_json()[TIME]))
    assert time.packages[0].spec == f"mcp-server-time=={time.version}"
    (arg,) = time.packages[0].arguments
    assert (arg.kind, arg.name, arg.default) == ("named", "--local-timezone", "UTC")
    (remote,) = read_server(response(server_json()[WEATHER])).remotes
    assert [(h.name, h.required, h.secret) for h in remote.headers] == [
        ("X-API-Key", True, True),
        ("X-Units", False, False),
    ]
    assert remote.variables["region"].default == "eu"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("name"), "$.server.name: missing (required)"),
        (lambda d: d.pop("version"), "$.server.version: missing (required)"),
        (lambda d: d.update(description=7), "$.server.description: expected a string, got a number"),
        (lambda d: d.update(name="no-slash"), "$.server.name: 'no-slash' is not a registry server name"),
        (lambda d: d["packages"][0].pop("identifier"), "$.server.packages[0].identifier: missing (required)"),
        (lambda d: d["packages"][0].pop("registryType"), "$.server.packages[0].registryType: missing (required)"),
        (lambda d: d["packages"][0].update(transport={"type": "carrier-pigeon"}), "packages[0].transport.type:"),
        (
            lambda d: d["packages"][0]["environmentVariables"][0].update(name="BAD NAME"),
            "$.server.packages[0].environmentVariables[0].name: 'BAD NAME' is not a valid environment variable name",
        ),
        (lambda d: d.update(packages={"not": "a list"}), "$.server.packages: expected a list, got an object"),
    ],
)
def test_a_missing_or_wrong_field_is_named_by_its_json_path(change: Any, message: str) -> None:
    assert message in refusal(with_change(MEMORY, change))


@pytest.mark.parametrize(
    ("identifier", "version", "why"),
    [
        ("--registry=https://evil.example", "1.0.0", "is not a valid npm package name"),
        ("@scope/UpperCase", "1.0.0", "is not a valid npm package name"),
        ("pkg; rm -rf ~", "1.0.0", "is not a valid npm package name"),
        ("@modelcontextprotocol/server-memory", "latest", "'latest' is not an exact npm version"),
        ("@modelcontextprotocol/server-memory", "^1.2.3", "'^1.2.3' is not an exact npm version"),
        ("@modelcontextprotocol/server-memory", None, "no version is not an exact npm version"),
    ],
)
def test_an_npm_package_that_is_no_exact_npm_package_is_refused_before_anything_runs(
    identifier: str, version: str | None, why: str
) -> None:
    def change(document: dict[str, Any]) -> None:
        document["packages"][0].update(identifier=identifier, version=version)

    message = refusal(with_change(MEMORY, change))
    assert message.startswith("$.server.packages[0].")
    assert why in message


@pytest.mark.parametrize(
    ("identifier", "version", "why"),
    [
        ("-e git+https://evil.example/x.git", "1.0", "is not a valid PyPI project name"),
        ("mcp-server-time", ">=1.0", "'>=1.0' is not an exact PyPI version"),
        ("mcp-server-time", "1.*", "'1.*' is not an exact PyPI version"),
        ("mcp-server-time", "1.0+local", "'1.0+local' is not an exact PyPI version"),
    ],
)
def test_a_pypi_package_that_is_no_exact_pypi_package_is_refused(identifier: str, version: str, why: str) -> None:
    def change(document: dict[str, Any]) -> None:
        document["packages"][0].update(identifier=identifier, version=version)

    assert why in refusal(with_change(TIME, change))


def test_lists_and_texts_are_bounded() -> None:
    many = with_change(MEMORY, lambda d: d["packages"][0].update(environmentVariables=[{"name": "A"}] * 65))
    assert f"more than {MAX_ITEMS} items (65)" in refusal(many)
    long = with_change(MEMORY, lambda d: d.update(description="x" * 5000))
    assert "$.server.description: longer than 4096 characters (5000)" in refusal(long)


def test_texts_shown_to_people_lose_control_and_bidirectional_characters() -> None:
    hostile = "Read files\x1b[2J\u202eexe.txt\u200b and\n\nmore"
    assert shown_text(hostile) == "Read files[2Jexe.txt and more"
    assert shown_text("x" * 400, 20) == "x" * 19 + "…"
