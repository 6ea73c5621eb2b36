"""Packages set up without running their `__init__` until a name of theirs is asked: a smaller process.

Some of hintgate's dependencies have a package `__init__` that imports far more than hintgate uses, only to
offer short names: the MCP SDK's `mcp`, `mcp.client` and `mcp.server` import its whole client and server sides,
the high-level `MCPServer` with its managers among them (3 MB of a serving gateway's memory), and
`sqlalchemy.ext.asyncio` imports the ORM beside its engine (`hintgate.store.async_core`). Set up here, such a
package is an empty module with its `__path__`: its submodules import as usual, the names given are taken from
them now as its `__init__` would, and any other name asked of it (`from mcp import Client`, `mcp.server.Server`,
`dir` does not count) runs the package's own `__init__` on the same module first, once, so whoever uses the
rest gets the real package. A package imported already is left as it is.

Reads the package's layout only, no private name. A package laid out otherwise (a submodule gone, a name moved)
is imported whole instead: more memory, never a missing name.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # `importlib.abc` imports `importlib.resources`: 0.02 s of CPU before a gateway spawns its upstreams
    from importlib.abc import Loader

__all__ = ["lean_package"]


def lean_package(name: str, names: Mapping[str, Sequence[str]] | None = None) -> ModuleType:
    """The package `name` with its `__init__` not run yet, set up now unless it was imported already (then as is).

    Args:
        name: the package's dotted name; a parent package is imported (or set up before, the same way).
        names: per submodule (its name relative to the package), the names the package's `__init__` takes from
            it: set on the package now.

    Returns:
        The package's module.

    Raises:
        ImportError: the package is not installed.
    """
    imported = sys.modules.get(name)
    if imported is not None:
        return imported
    spec = importlib.util.find_spec(name)  # imports the parent package, if any
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return importlib.import_module(name)  # not installed or not a package: the plain import says what it is
    package = importlib.util.module_from_spec(spec)
    parent_name, _, child = name.rpartition(".")
    parent = sys.modules[parent_name] if parent_name else None
    before = set(sys.modules)
    sys.modules[name] = package
    if parent is not None:
        setattr(parent, child, package)
    try:
        for submodule, taken in (names or {}).items():
            module = importlib.import_module(f"{name}.{submodule}")
            for each in taken:
                setattr(package, each, getattr(module, each))
    except BaseException as exc:
        for module_name in set(sys.modules) - before:  # the package and what it imported: none of it half set up
            del sys.modules[module_name]
        if parent is not None:
            delattr(parent, child)
        if not isinstance(exc, ImportError | AttributeError):
            raise
        return importlib.import_module(name)  # laid out otherwise: the whole package rather than a missing name
    # Only now: the submodules' own `from . import x` looks the name up on the package first.
    package.__getattr__ = _completing(package, spec.loader)  # type: ignore[method-assign]
    return package


def _completing(package: ModuleType, loader: Loader) -> Any:
    """The package's `__getattr__`: a name it does not have yet runs its own `__init__` on it, once, first."""
    lock = threading.Lock()

    def __getattr__(name: str) -> Any:
        with lock:
            if package.__dict__.get("__getattr__") is __getattr__:
                del package.__getattr__
                loader.exec_module(package)
        return getattr(package, name)

    return __getattr__
