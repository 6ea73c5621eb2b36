"""The source-type table: every row is read, built, checked and documented as it says."""

from __future__ import annotations

from pathlib import Path

import pytest

from hintgate.config.loading import parse_config
from hintgate.config.types import SOURCE_TYPES, SourceType, source_type
from hintgate.errors import ConfigError
from hintgate.sources import build_sources
from hintgate.sources.builders import BUILDERS

DOCS = Path(__file__).parents[2] / "docs"
FIXTURES = Path(__file__).parents[1] / "fixtures"

ONE_OF_EACH = {
    "mcpServers": {"clock": {"command": "mcp-server-time"}},
    "openapi": {"things": {"document": str(FIXTURES / "openapi" / "methods.oas31.yaml"), "prefix": "api"}},
    "python": {"pytools": {"registry": "python_tools:registry", "path": [str(FIXTURES)]}},
}


@pytest.mark.parametrize("row", SOURCE_TYPES, ids=lambda row: row.kind)
def test_every_source_type_has_its_config_section_documented(row: SourceType) -> None:
    docs_file, heading = row.docs
    text = (DOCS / docs_file).read_text(encoding="utf-8")
    assert f"\n## {heading}\n" in text
    assert f"`{row.key}`" in text


def test_every_source_type_is_read_from_its_key_and_built_as_its_kind() -> None:
    config = parse_config(ONE_OF_EACH)
    assert {name: entry.kind for name, entry in config.sources.items()} == {
        "clock": "mcp",
        "things": "openapi",
        "pytools": "python",
    }
    built = build_sources(config, environ={})
    assert {name: source.kind for name, source in built.items()} == {
        "clock": "mcp",
        "things": "openapi",
        "pytools": "python",
    }


def test_every_source_type_has_a_builder_and_every_builder_a_source_type() -> None:
    assert list(BUILDERS) == [row.kind for row in SOURCE_TYPES]


def test_a_name_used_by_two_source_types_is_reported_at_the_later_section() -> None:
    data = {**ONE_OF_EACH, "python": {"things": {"registry": "python_tools:registry"}}}
    with pytest.raises(ConfigError, match=r'python\.things: the name "things" is also used in openapi'):
        parse_config(data)


def test_a_prefix_taken_by_another_source_type_names_that_source() -> None:
    data = {**ONE_OF_EACH, "python": {"pytools": {"registry": "python_tools:registry", "prefix": "api"}}}
    with pytest.raises(ConfigError, match=r'prefix "api" is also the prefix of OpenAPI source "things"'):
        parse_config(data)


def test_an_unknown_kind_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="mcp, openapi, python"):
        source_type("graphql")


def test_a_source_without_a_trust_key_gets_the_default_for_where_it_runs() -> None:
    data = {**ONE_OF_EACH, "mcpServers": {**ONE_OF_EACH["mcpServers"], "far": {"url": "https://example.com/mcp"}}}
    config = parse_config(data)
    assert {name: (entry.trust.value, entry.trust_from.value) for name, entry in config.sources.items()} == {
        "clock": ("local", "origin"),
        "far": ("untrusted", "origin"),
        "things": ("local", "origin"),
        "pytools": ("trusted", "origin"),
    }


def test_a_trust_key_wins_over_the_default_and_local_can_be_written() -> None:
    data = {
        "mcpServers": {"clock": {"command": "mcp-server-time", "trust": "untrusted"}},
        "openapi": {"things": {**ONE_OF_EACH["openapi"]["things"], "trust": "trusted"}},
        "python": {"pytools": {**ONE_OF_EACH["python"]["pytools"], "trust": "local"}},
    }
    config = parse_config(data)
    assert {name: (entry.trust.value, entry.trust_from.value) for name, entry in config.sources.items()} == {
        "clock": ("untrusted", "config"),
        "things": ("trusted", "config"),
        "pytools": ("local", "config"),
    }
