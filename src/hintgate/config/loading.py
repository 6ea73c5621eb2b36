"""Loading a config file: read it, validate it with positions, and say what deserves a look.

The values it builds are `hintgate.config.model`'s; the validator is
`hintgate.config.reader`, driven by the table of source types in
`hintgate.config.types`.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hintgate.config.model import GatewayConfig
from hintgate.config.reader import Reader, located_error
from hintgate.config.sections import read_file
from hintgate.config.types import SOURCE_TYPES
from hintgate.config.yamlpos import Format, Positions, SyntaxProblem, read_text

__all__ = ["check_config", "load_config", "parse_config"]


def load_config(path: str | Path, *, environ: Mapping[str, str] | None = None) -> GatewayConfig:
    """Read, parse and validate a configuration file.

    The format follows the extension: `.json` is JSON (comments and trailing
    commas allowed), `.yaml`/`.yml` is YAML, anything else is tried as JSON,
    then as YAML.

    Args:
        path: the file.
        environ: the variables `${VAR}` may refer to; `os.environ` when omitted.

    Raises:
        ConfigError: the file is missing, unreadable or invalid; the message
            lists every problem found, one per line.
    """
    file = Path(path)
    name = str(path)
    try:
        text = file.read_text(encoding="utf-8-sig")  # -sig: Windows editors add a BOM
    except FileNotFoundError as exc:
        raise located_error(name, f"{name}: no such file") from exc
    except IsADirectoryError as exc:
        raise located_error(name, f"{name}: is a directory, not a config file") from exc
    except UnicodeDecodeError as exc:
        raise located_error(name, f"{name}: not UTF-8 text (byte {exc.start})") from exc
    except OSError as exc:
        raise located_error(name, f"{name}: cannot read: {exc.strerror or exc}") from exc
    suffix = file.suffix.lower()
    fmt: Format = "json" if suffix == ".json" else "yaml" if suffix in {".yaml", ".yml"} else "auto"
    try:
        data, positions = read_text(text, fmt)
    except SyntaxProblem as exc:
        where = f"{name}:{exc.mark[0]}:{exc.mark[1]}" if exc.mark else name
        raise located_error(name, f"{where}: {exc.message}") from exc
    base = file.resolve().parent
    config = parse_config(
        data,
        source=name,
        environ=os.environ if environ is None else environ,
        positions=positions,
        base_dir=base,
    )
    return dataclasses.replace(config, source=file)


def parse_config(
    data: Any,
    *,
    source: str = "<config>",
    environ: Mapping[str, str] | None = None,
    positions: Positions | None = None,
    base_dir: Path | None = None,
) -> GatewayConfig:
    """Validate already-decoded config data.

    Args:
        data: the decoded file (a mapping at the top).
        source: the name messages use for the file.
        environ: the variables `${VAR}` may refer to; none when omitted, so
            every reference must then carry a default.
        positions: where each key sits, for line numbers in messages.
        base_dir: the config file's directory: a relative `cwd` is taken from
            it, and `${workspaceFolder}` means it (or its parent when it is a
            `.vscode` or `.cursor` folder).

    Raises:
        ConfigError: listing every problem found, one per line.
    """
    return read_file(Reader(source, positions or Positions(), environ or {}, base_dir, SOURCE_TYPES), data)


def check_config(path: str | Path) -> list[str]:
    """Load a file and return what deserves a look although it loads.

    Covers: no servers at all, every server disabled, disabled servers, keys
    real clients write that hintgate ignores although they mean something
    (`autoApprove`, `envFile`, ...), and overrides that can never apply.

    Raises:
        ConfigError: the file does not load.
    """
    config = load_config(path)
    notes = list(config.warnings)
    name = str(path)
    enabled = [s.enabled for s in config.sources.values()]
    if not enabled:
        notes.append(f"{name}: no servers configured; the gateway will serve no tools")
    elif not any(enabled):
        notes.append(f"{name}: every server is disabled; the gateway will serve no tools")
    positions = _positions(Path(path))
    for row in SOURCE_TYPES:
        for entry in config.sources.values():
            if isinstance(entry, row.config):
                mark = next(
                    (m for key in (row.key, *row.aliases) if (m := positions.keys.get((key, entry.name)))), None
                )
                notes.extend(row.check(entry, f"{name}:{mark[0]}:{mark[1]}" if mark else name))
    return notes


def _positions(file: Path) -> Positions:
    """Where each key of a file that loaded sits (none when it cannot be read again)."""
    suffix = file.suffix.lower()
    fmt: Format = "json" if suffix == ".json" else "yaml" if suffix in {".yaml", ".yml"} else "auto"
    try:
        return read_text(file.read_text(encoding="utf-8-sig"), fmt)[1]
    except (OSError, UnicodeDecodeError, SyntaxProblem):
        return Positions()
