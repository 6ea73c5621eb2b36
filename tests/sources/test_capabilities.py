from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from hintgate.config.model import OpenApiConfig, PythonConfig, ServerConfig, StdioTransport
from hintgate.sources.base import Source
from hintgate.sources.capabilities import ConvertsDocument, Forwards, LogsIn, Resolves, RunsTasks, ServesPrompts
from hintgate.sources.mcp import McpUpstream
from hintgate.sources.openapi.source import OpenApiSource
from hintgate.sources.python import PythonSource
from hintgate.testing import FakeSource

SRC = Path(__file__).resolve().parents[2] / "src" / "hintgate"
CAPABILITIES = (Forwards, ServesPrompts, Resolves, RunsTasks, LogsIn)
KINDS_OF_SOURCE = {"McpUpstream", "OpenApiSource", "PythonSource", "ConfiguredSource"}


def _mcp() -> McpUpstream:
    return McpUpstream(ServerConfig(name="local", transport=StdioTransport(command=sys.executable)), env={})


def test_an_mcp_server_has_every_capability() -> None:
    upstream = _mcp()
    assert [c.__name__ for c in CAPABILITIES if not isinstance(upstream, c)] == []
    assert not upstream.logs_in_per_person
    assert not upstream.offers_resolution
    assert not upstream.offers_tasks


@pytest.mark.parametrize(
    "source",
    [
        OpenApiSource(OpenApiConfig(name="api", document="openapi.json", base_url="http://127.0.0.1:9")),
        PythonSource(PythonConfig(name="functions", registry="no_such_module_here:registry")),
    ],
    ids=["openapi", "python"],
)
def test_an_openapi_document_and_a_python_registry_have_tools_only(source: Source) -> None:
    assert [c.__name__ for c in CAPABILITIES if isinstance(source, c)] == []


def test_only_an_openapi_source_converts_a_document() -> None:
    openapi = OpenApiSource(OpenApiConfig(name="api", document="openapi.json", base_url="http://127.0.0.1:9"))
    python = PythonSource(PythonConfig(name="functions", registry="no_such_module_here:registry"))
    assert isinstance(openapi, ConvertsDocument)
    assert openapi.toolset is None
    assert not isinstance(_mcp(), ConvertsDocument)
    assert not isinstance(python, ConvertsDocument)
    assert not isinstance(FakeSource("fake"), ConvertsDocument)


def test_the_test_double_forwards_and_lists_prompts_but_logs_in_to_nothing() -> None:
    fake = FakeSource("fake")
    assert isinstance(fake, ServesPrompts)
    assert isinstance(fake, Resolves)
    assert not isinstance(fake, LogsIn)
    assert not isinstance(fake, RunsTasks)


def _kinds_named(path: Path) -> set[str]:
    named: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            named |= {alias.name for alias in node.names} & KINDS_OF_SOURCE
        elif isinstance(node, ast.Name | ast.Attribute):
            name = node.id if isinstance(node, ast.Name) else node.attr
            if name in KINDS_OF_SOURCE:
                named.add(name)
    return named


def test_no_module_outside_the_sources_names_a_kind_of_source() -> None:
    # Callers ask a source for a capability (`sources.capabilities`); only the sources and their builders
    # know the classes.
    offenders = {
        str(path.relative_to(SRC)): sorted(kinds)
        for path in SRC.rglob("*.py")
        if "sources" not in path.relative_to(SRC).parts[:1] and (kinds := _kinds_named(path))
    }
    assert offenders == {}
