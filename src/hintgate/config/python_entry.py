"""Reading the `python` section: one registry of Python tools per entry (`module:attribute`)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from hintgate.config.model import (
    PythonConfig,
    freeze,
)
from hintgate.config.reader import COMMON_KEYS, Reader, spellings
from hintgate.config.yamlpos import Key
from hintgate.hints.trust import TrustFrom, trust_by_origin

__all__ = ["PYTHON_KEYS", "read_python"]

PYTHON_KEYS: Mapping[str, str] = {**spellings("registry", "path", "include", "exclude"), **COMMON_KEYS}
_REGISTRY_RE = re.compile(
    r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*"
)


def read_python(reader: Reader, name: str, value: Any, path: tuple[Key, ...]) -> None:
    if isinstance(value, str):
        value = {"registry": value}
        m: Mapping[str, Any] | None = value
    else:
        m = reader.mapping(value, path, 'a registry ("module:attribute") or a mapping with registry')
    if m is None:
        return
    start = len(reader.problems)
    given = reader.source_keys(m, path, PYTHON_KEYS)

    registry = None
    if "registry" not in given:
        reader.error(path, 'needs "registry": "module:attribute" of a ToolRegistry', key=True)
    elif (
        registry := reader.string(given.value("registry"), given["registry"], empty=False)
    ) is not None and not _REGISTRY_RE.fullmatch(registry):
        reader.error(
            given["registry"],
            f'expected "module:attribute" (e.g. "mytools:registry"), got {json.dumps(registry)}',
        )
    dirs = reader.strings(given.value("path"), given["path"]) if "path" in given else ()
    lists = {s: reader.strings(given.value(s), given[s]) for s in ("include", "exclude") if s in given}
    trust, enabled, prefix, overrides, timeout = reader.common(name, given)
    if len(reader.problems) > start or registry is None or dirs is None:
        return
    if reader.base is not None:
        dirs = tuple(str(reader.base / d) for d in dirs)
    registry_config = PythonConfig(
        name=name,
        registry=registry,
        path=dirs,
        trust=trust or trust_by_origin("python", remote=False),
        trust_from=TrustFrom.ORIGIN if trust is None else TrustFrom.CONFIG,
        enabled=enabled,
        prefix=prefix,
        include=lists.get("include") or (),
        exclude=lists.get("exclude") or (),
        overrides=freeze(overrides),
        call_timeout=timeout or reader.timeouts.call,
    )
    reader.add_source(registry_config, path, given.get("prefix", path))
