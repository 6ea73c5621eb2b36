"""The store's public API is listed deliberately: `__all__` sorted (RUF022 order) and complete."""

from __future__ import annotations

import importlib

import pytest

MODULES = [
    "hintgate.store",
    "hintgate.store.tables",
    "hintgate.store.recorder",
    "hintgate.store.queries",
    "hintgate.tokens",
]


def isort_key(name: str) -> tuple[int, str]:
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
