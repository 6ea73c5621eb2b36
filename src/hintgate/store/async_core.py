"""SQLAlchemy's asyncio engine without its ORM: the one place that sets up `sqlalchemy.ext.asyncio` by hand.

The store is built on SQLAlchemy Core's async engine (`AsyncEngine`, `AsyncConnection`), never on its ORM.
Yet `sqlalchemy.ext.asyncio`'s package imports its `AsyncSession` beside the engine, and with it the whole
ORM: 41 modules, about 5.5 MB of a serving gateway's memory for nothing it calls. Imported here first, the
package is set up with its engine and result modules only (`sqlalchemy.ext.asyncio.engine` and `.result`,
which import nothing of the ORM), and the names its `__init__` takes from them; the store's modules take
the engine's names from here, so that it is set up before any of them imports it. Any other name asked of it
(`AsyncSession`, `async_sessionmaker`...) runs the package's own `__init__` on the same module first, so
whoever uses the rest gets the real package, ORM and all (`tests/store/test_async_core.py` checks both).

Reads the package's layout only, no private name: `engine` and `result` are the modules its `__init__`
imports the engine's names from. Greenlet, which the package's `__init__` imports eagerly, is imported by
SQLAlchemy at the first await of the engine instead.
A SQLAlchemy laid out otherwise (its `engine` or `result` module gone, a name moved) gets the package
imported whole instead, ORM and all: more memory, never no store.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
from importlib.abc import Loader
from types import ModuleType
from typing import Any

__all__ = ["ENGINE_NAMES", "RESULT_NAMES", "AsyncConnection", "AsyncEngine", "create_async_engine", "lean_package"]

PACKAGE = "sqlalchemy.ext.asyncio"

ENGINE_NAMES = (
    "AsyncConnection",
    "AsyncEngine",
    "AsyncTransaction",
    "async_engine_from_config",
    "create_async_engine",
    "create_async_pool_from_url",
)
"""The names the package's `__init__` takes from its `engine` module."""

RESULT_NAMES = ("AsyncMappingResult", "AsyncResult", "AsyncScalarResult", "AsyncTupleResult")
"""The names the package's `__init__` takes from its `result` module."""


def lean_package() -> ModuleType:
    """`sqlalchemy.ext.asyncio` with its engine alone, set up now unless it was imported already (then as is)."""
    imported = sys.modules.get(PACKAGE)
    if imported is not None:
        return imported
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or spec.loader is None:  # not installed: the plain import says so
        return importlib.import_module(PACKAGE)
    package = importlib.util.module_from_spec(spec)
    parent = sys.modules["sqlalchemy.ext"]
    before = set(sys.modules)
    sys.modules[PACKAGE] = package
    setattr(parent, "asyncio", package)  # noqa: B010 (the import system's own step, which mypy does not know)
    try:
        engine = importlib.import_module(f"{PACKAGE}.engine")
        result = importlib.import_module(f"{PACKAGE}.result")
        for name in ENGINE_NAMES:
            setattr(package, name, getattr(engine, name))
        for name in RESULT_NAMES:
            setattr(package, name, getattr(result, name))
    except BaseException as exc:
        for module in set(sys.modules) - before:  # the package and what it imported: none of it half set up
            del sys.modules[module]
        delattr(parent, "asyncio")
        if not isinstance(exc, ImportError | AttributeError):
            raise
        # A SQLAlchemy laid out otherwise: the whole package then, ORM and all, rather than no store.
        return importlib.import_module(PACKAGE)
    # Only now: the submodules' own `from . import exc` looks the name up on the package first.
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


# Set up on import, before the names below are imported from the package: the store's modules take them from here.
lean_package()

from sqlalchemy.ext.asyncio.engine import AsyncConnection, AsyncEngine, create_async_engine  # noqa: E402
