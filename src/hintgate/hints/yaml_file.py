"""Reading a YAML file the linter takes (the expect file, a baseline): what goes wrong names the file and line.

PyYAML is imported only when such a file is read (`hintgate lint` without one never loads it).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

__all__ = ["read_errors"]


@contextlib.contextmanager
def read_errors(path: Path, what: str, error: type[Exception]) -> Iterator[None]:
    """Turn a failure to read `path` (`what`: "the expect file") or to parse its YAML into `error`.

    The message names the file, and for a YAML error the line and column of the problem.
    """
    import yaml

    try:
        yield
    except OSError as exc:
        raise error(f"{path}: cannot read {what}: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise error(f"{where}: not valid YAML: {getattr(exc, 'problem', exc)}") from exc
