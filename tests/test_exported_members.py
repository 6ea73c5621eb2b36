"""The public API is listed deliberately: `__all__` is sorted and complete."""

from __future__ import annotations

import importlib
import types

import pytest

import hintgate

MODULES = [
    "hintgate",
    "hintgate.hints.annotations",
    "hintgate.hints.catalog",
    "hintgate.hints.lint",
    "hintgate.cli.lint_report",
    "hintgate.cli.reports",
    "hintgate.cli.targets",
    "hintgate.sources.mcp",
    "hintgate.sources.base",
    "hintgate.store",
    "hintgate.store.tables",
    "hintgate.store.recorder",
    "hintgate.store.queries",
    "hintgate.store.tokens",
    "hintgate.testing",
    "hintgate.policy.decide",
    "hintgate.pipeline",
    "hintgate.server.gateway",
    "hintgate.web.api",
]


def isort_key(name: str) -> tuple[int, str]:
    """The order ruff's RUF022 keeps: CONSTANTS, then Classes, then functions."""
    if name.isupper() and len(name) > 1:
        return (0, name)
    if name[:1].isupper():
        return (1, name)
    return (2, name)


@pytest.mark.parametrize("name", MODULES)
def test_all_is_sorted_and_every_name_exists(name: str) -> None:
    module = importlib.import_module(name)
    exported = list(module.__all__)
    assert exported == sorted(exported, key=isort_key)
    for member in exported:
        assert hasattr(module, member), f"{name}.{member}"


def test_package_exports_every_public_name_it_defines() -> None:
    public = {n for n, v in vars(hintgate).items() if not n.startswith("_") and not isinstance(v, types.ModuleType)}
    assert public == set(hintgate.__all__) - {"__version__"}
