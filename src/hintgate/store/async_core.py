"""SQLAlchemy's asyncio engine without its ORM: the one place that sets up `sqlalchemy.ext.asyncio` by hand.

The store is built on SQLAlchemy Core's async engine (`AsyncEngine`, `AsyncConnection`), never on its ORM.
Yet `sqlalchemy.ext.asyncio`'s package imports its `AsyncSession` beside the engine, and with it the whole
ORM: 41 modules, about 5.5 MB of a serving gateway's memory for nothing it calls. Imported here first, the
package is set up (`hintgate.lean_packages`) with its engine and result modules only
(`sqlalchemy.ext.asyncio.engine` and `.result`, which import nothing of the ORM), and the names its
`__init__` takes from them; the store's modules take the engine's names from here, so that it is set up
before any of them imports it. Any other name asked of it (`AsyncSession`, `async_sessionmaker`...) runs the
package's own `__init__` on the same module first, so whoever uses the rest gets the real package, ORM and
all (`tests/store/test_async_core.py` checks both).

Greenlet, which the package's `__init__` imports eagerly, is imported by SQLAlchemy at the first await of
the engine instead. A SQLAlchemy laid out otherwise (its `engine` or `result` module gone, a name moved)
gets the package imported whole instead, ORM and all: more memory, never no store.
"""

from __future__ import annotations

from types import ModuleType

from hintgate.lean_packages import lean_package as _lean

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
    return _lean(PACKAGE, {"engine": ENGINE_NAMES, "result": RESULT_NAMES})


# Set up on import, before the names below are imported from the package: the store's modules take them from here.
lean_package()

from sqlalchemy.ext.asyncio.engine import AsyncConnection, AsyncEngine, create_async_engine  # noqa: E402
