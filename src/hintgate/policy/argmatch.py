"""Rules that match a call's arguments: globs on the values found at JSON paths (`args: {path: "/etc/**"}`).

Pure. A path names where in the arguments to look: keys joined by dots
(`metadata.namespace`), `[N]` for a list's element, `[*]` for any element and
`*` for any key (`items[*].name`, `*.path`). A condition holds when any value
found there matches its glob (`fnmatch`, case-sensitive: `*` matches `/` too,
so `/etc/**` and `/etc/*` both reach every file under /etc). Values are
strings as given; numbers and booleans are matched as their JSON text. A
value that looks like a file path (it holds a `/`) is matched as given and
normalized (`/etc/../etc/passwd`, `//etc/passwd` and `/./etc/passwd` are all
`/etc/passwd`), so no spelling of a path escapes a rule written for it. A
path that is not in the arguments matches nothing.
"""

from __future__ import annotations

import fnmatch
import json
import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ArgPattern", "path_problem"]

_STEP = re.compile(r"\[(\*|\d+)\]|\.?([^.\[\]]+)")
_MAX_VALUES = 1000  # values a path may reach in one call's arguments: a huge list is not walked whole


def path_problem(path: str) -> str | None:
    """Why `path` is not a path into a call's arguments, or None when it is one."""
    if not path or path.startswith(".") or path.endswith("."):
        return "expected a path into the arguments: keys joined by dots, [N] or [*] for list elements"
    at = 0
    for found in _STEP.finditer(path):
        if found.start() != at:
            break
        at = found.end()
    if at != len(path):
        return f"cannot read the path after {path[:at]!r}: keys joined by dots, [N] or [*] for list elements"
    return None


@dataclass(frozen=True, slots=True)
class ArgPattern:
    """One `path: glob` condition of a rule.

    Attributes:
        path: where to look in the arguments.
        globs: what a value found there may match (any of them).
    """

    path: str
    globs: tuple[str, ...]
    _steps: tuple[tuple[str, str], ...] = field(init=False, repr=False, compare=False)
    _res: tuple[re.Pattern[str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        steps: list[tuple[str, str]] = []
        for found in _STEP.finditer(self.path):
            index, key = found.group(1), found.group(2)
            steps.append(("index", index) if index is not None else ("key", key))
        object.__setattr__(self, "_steps", tuple(steps))
        object.__setattr__(self, "_res", tuple(re.compile(fnmatch.translate(g)) for g in self.globs))

    def describe(self) -> str:
        """`path=glob` (or `path=glob|glob`), as a rule's description shows it."""
        return f"{self.path}={'|'.join(self.globs)}"

    def matches(self, arguments: Mapping[str, Any] | None) -> bool:
        """Whether a value at the path matches one of the globs."""
        if not arguments:
            return False
        for count, value in enumerate(self._values(arguments)):
            if count >= _MAX_VALUES:
                return False
            for text in _spellings(value):
                if any(pattern.match(text) is not None for pattern in self._res):
                    return True
        return False

    def _values(self, arguments: Mapping[str, Any]) -> Iterator[Any]:
        found: list[Any] = [arguments]
        for kind, name in self._steps:
            following: list[Any] = []
            for value in found:
                if kind == "key" and isinstance(value, Mapping):
                    following.extend(value.values() if name == "*" else [value[name]] if name in value else [])
                elif kind == "index" and isinstance(value, list):
                    if name == "*":
                        following.extend(value)
                    elif int(name) < len(value):
                        following.append(value[int(name)])
                if len(following) > _MAX_VALUES:
                    break
            found = following
        for value in found:
            # A list at the end of the path: any of its elements (`args: {command: "rm"}` over an argv).
            if isinstance(value, list):
                yield from value
            else:
                yield value


def _spellings(value: Any) -> tuple[str, ...]:
    """The texts a value is matched as: itself, and a path-like text normalized too."""
    if isinstance(value, str):
        text = value
    elif isinstance(value, bool | int | float) or value is None:
        text = json.dumps(value)
    else:
        return ()
    if "/" not in text:
        return (text,)
    normal = posixpath.normpath(text)
    if text.startswith("//") and not text.startswith("///"):
        normal = "/" + normal.lstrip("/")  # POSIX keeps a leading //; the file it names is the same
    return (text, normal) if normal != text else (text,)
