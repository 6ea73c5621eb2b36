"""Pins files: accepted tool definitions written for git (`hintgate pins export`) and read back.

A pins file is YAML or JSON:

```yaml
version: 1
pins:
- server: github
  tool: create_issue
  sha256: 3f1c...            # of the canonical form of `definition`; checked on import
  definition:                # name, title, description, inputSchema, outputSchema, annotations
    name: create_issue
    description: Create an issue.
    inputSchema: {type: object}
```

Entries are sorted by server and tool and every mapping by key, so two
exports of the same pins are the same bytes and a change is a small diff.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from hintgate.config.yamlpos import format_path, read_text
from hintgate.errors import ConfigError
from hintgate.hints.pins import Pin, canonical_json, pin_hash

__all__ = ["PINS_FILE_VERSION", "dump_pins", "parse_pins", "read_pins_file"]

PINS_FILE_VERSION = 1


def dump_pins(pins: Iterable[Pin], *, fmt: str = "yaml") -> str:
    """The accepted definitions of `pins` as a pins file (`yaml` or `json`); pins never accepted are left out."""
    entries = [
        {
            "server": p.server,
            "tool": p.tool,
            "sha256": p.accepted_sha256,
            "definition": json.loads(p.accepted_definition),
        }
        for p in sorted(pins, key=lambda p: p.key)
        if p.accepted_definition is not None and p.accepted_sha256 is not None
    ]
    document = {"version": PINS_FILE_VERSION, "pins": entries}
    if fmt == "json":
        return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    import yaml

    return str(yaml.safe_dump(document, sort_keys=True, allow_unicode=True, width=100))


def parse_pins(text: str, *, source: str, fmt: str = "auto") -> list[tuple[str, str, str]]:
    """The (server, tool, canonical form) entries of a pins file.

    Raises:
        ConfigError: the text is not a pins file; the message names the entry and field.
    """
    try:
        data, _ = read_text(text, "json" if fmt == "json" else "yaml" if fmt == "yaml" else "auto")
    except Exception as exc:  # the parsers' own errors, each with a line
        raise ConfigError(f"not valid YAML or JSON: {exc}", file=source) from None
    if not isinstance(data, dict) or not isinstance(data.get("pins"), list):
        raise ConfigError("expected a mapping with a list under 'pins' (see hintgate pins export)", file=source)
    version = data.get("version", PINS_FILE_VERSION)
    if version != PINS_FILE_VERSION:
        raise ConfigError(f"version {version!r} is not supported; expected {PINS_FILE_VERSION}", file=source)
    out: list[tuple[str, str, str]] = []
    seen: set[tuple[str, str]] = set()
    for i, entry in enumerate(data["pins"]):
        where = format_path(("pins", i))
        if not isinstance(entry, dict):
            raise ConfigError(f"expected a mapping, got {type(entry).__name__}", file=source, path=where)
        values: dict[str, Any] = {}
        for field in ("server", "tool"):
            value = entry.get(field)
            if not isinstance(value, str) or not value:
                raise ConfigError(f"'{field}' must be a non-empty string", file=source, path=where)
            values[field] = value
        definition = entry.get("definition")
        if not isinstance(definition, dict):
            raise ConfigError("'definition' must be a tool definition (a mapping)", file=source, path=where)
        if definition.get("name") != values["tool"]:
            raise ConfigError(
                f"the definition's name {definition.get('name')!r} is not the tool {values['tool']!r}",
                file=source,
                path=where,
            )
        form = canonical_json(definition)
        sha = entry.get("sha256")
        if sha is not None and sha != pin_hash(form):
            raise ConfigError(
                "'sha256' does not match the definition (edited by hand? remove sha256 to accept it as it is)",
                file=source,
                path=where,
            )
        key = (values["server"], values["tool"])
        if key in seen:
            raise ConfigError(f"{values['server']}/{values['tool']} is pinned twice", file=source, path=where)
        seen.add(key)
        out.append((values["server"], values["tool"], form))
    return out


def read_pins_file(path: Path) -> list[tuple[str, str, str]]:
    """`parse_pins` of a file.

    Raises:
        ConfigError: the file cannot be read, or is not a pins file.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read the pins file: {exc.strerror or exc}", file=str(path)) from None
    fmt = "json" if path.suffix == ".json" else "auto"
    return parse_pins(text, source=str(path), fmt=fmt)
