"""Python tool registries as a source: mounted by config, served alone, called through a real MCP client."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from hintgate.config.model import PythonConfig
from hintgate.errors import ConfigError
from hintgate.sources.base import SourceState
from hintgate.sources.python import PythonSource, import_registry
from isolation import child_env

pytestmark = pytest.mark.anyio

FIXTURES = Path(__file__).parents[1] / "fixtures"
HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


@asynccontextmanager
async def client_of(args: list[str], cwd: Path | None = None) -> AsyncIterator[Client]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "hintgate", *args], env=child_env(), cwd=cwd)
    with anyio.fail_after(60):
        async with Client(params, mode="legacy") as client:
            yield client


def text_of(result: Any) -> str:
    return str(result.content[0].text) if result.content else ""


async def test_a_registry_mounted_by_config_is_listed_with_declared_hints_and_called(tmp_path: Path) -> None:
    config = tmp_path / "hintgate.yaml"
    config.write_text(
        "policy: {mode: bypass}\n"
        "python:\n"
        f"  notes: {{registry: 'python_tools:registry', path: [{json.dumps(str(FIXTURES))}], trust: trusted}}\n"
        "  broken: {registry: 'no_such_module_here:registry'}\n"
    )
    async with client_of(["serve", "--config", str(config)]) as client:
        tools = {t.name: t.model_dump(by_alias=True, exclude_none=True) for t in (await client.list_tools()).tools}
        added = await client.call_tool("notes_add_note", {"text": "buy milk"})
        found = await client.call_tool("notes_search_notes", {"query": "milk"})
        failed = await client.call_tool("notes_explode", {"reason": "testing"})
    assert set(tools) == {"notes_search_notes", "notes_add_note", "notes_explode"}
    search = tools["notes_search_notes"]
    assert search["annotations"]["readOnlyHint"] is True
    assert search["annotations"]["title"] == "Search notes"
    assert search["_meta"]["hintgate/provenance"]["readOnlyHint"] == "declared"
    assert search["_meta"]["hintgate/category"] == "notes"
    assert search["_meta"]["hintgate/tags"] == ["search"]
    assert "hintgate/python" not in search["_meta"]
    assert "hintgate/tags" not in tools["notes_explode"]["_meta"]
    assert search["inputSchema"]["properties"]["query"]["description"] == "words to look for"
    assert set(tools["notes_add_note"]["annotations"]) >= set(HINTS)
    assert tools["notes_add_note"]["_meta"]["hintgate/provenance"]["readOnlyHint"] != "declared"
    assert added.is_error is False
    assert added.structured_content == {"id": 1}
    assert json.loads(text_of(found)) == ["buy milk"]
    assert failed.is_error is True
    assert text_of(failed) == "RuntimeError: boom: testing"


async def test_serve_python_serves_a_registry_alone() -> None:
    async with client_of(["serve", "--python", "python_tools:registry"], cwd=FIXTURES) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        found = await client.call_tool("search_notes", {"query": "x"})
    assert names == {"search_notes", "add_note", "explode"}
    assert found.is_error is False


async def test_an_import_that_fails_marks_the_source_down_with_the_reason() -> None:
    source = PythonSource(PythonConfig(name="broken", registry="no_such_module_here:registry"))
    with anyio.fail_after(10):
        await source.run()
    assert source.status.state is SourceState.DOWN
    assert source.status.reason == (
        "cannot import 'no_such_module_here': ModuleNotFoundError: No module named 'no_such_module_here'"
    )


def test_import_registry_accepts_registries_and_names_what_is_wrong() -> None:
    registry = import_registry("python_tools:registry", path=[str(FIXTURES)])
    assert len(registry) == 3
    with pytest.raises(ConfigError, match="has no attribute 'nothing'"):
        import_registry("python_tools:nothing", path=[str(FIXTURES)])
    with pytest.raises(ConfigError, match="is a str, not a ToolRegistry"):
        import_registry("python_tools:__doc__", path=[str(FIXTURES)])


DOC = Path(__file__).parents[2] / "docs" / "python-tools.md"


async def test_docs_python_tools_shows_what_a_client_is_listed() -> None:
    from hintgate.config.loading import parse_config
    from hintgate.server.gateway import Gateway
    from hintgate.tooldef import MAX_LABEL, MAX_TAGS

    text = DOC.read_text(encoding="utf-8")
    section = text.split("## What clients are listed", 1)[1]
    shown = json.loads(section.split("```json", 1)[1].split("```", 1)[0])
    registry = import_registry("python_tools:registry", path=[str(FIXTURES)])
    config = PythonConfig(name="notes", registry="python_tools:registry", prefix="notes")
    source = PythonSource(config, registry=registry)
    with anyio.fail_after(30):
        async with Gateway(parse_config({"mcpServers": {}}), sources={"notes": source}) as gateway:
            served = dict(gateway.catalog.get(shown["name"]).wire)  # type: ignore[union-attr]
    assert {key: served["_meta"][key] for key in shown["_meta"]} == shown["_meta"]
    assert set(served["_meta"]) & {"hintgate/category", "hintgate/tags"} == set(shown["_meta"])
    assert f"cut to {MAX_LABEL} characters" in section
    assert f"at most {MAX_TAGS} tags" in section
