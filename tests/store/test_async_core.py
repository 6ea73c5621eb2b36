"""SQLAlchemy's asyncio engine without its ORM: a store leaves the ORM out; whoever asks for the rest gets it whole.

Each check runs in a fresh interpreter: this one imported the whole package already (other store tests import
`create_async_engine` from it).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

# Opens a store at the URL given, records a session, reads it back, and prints whether the ORM was imported.
RECORD_AND_REPORT = textwrap.dedent(
    """
    import asyncio, sys, uuid
    from datetime import UTC, datetime

    from hintgate.store import SessionRecord, RecordingSettings, Store

    async def main(url):
        store = await Store.open(url, RecordingSettings(commit_interval=0.01), replica="one")
        try:
            record = SessionRecord(str(uuid.uuid4()), "client", "1", datetime.now(UTC), "http", "one")
            store.session_started(record)
            await store.flush()
            assert (await store.session(record.id)) is not None
        finally:
            await store.close()

    asyncio.run(main(sys.argv[1]))
    print("sqlalchemy.orm" in sys.modules)
    """
)

# What `sqlalchemy.ext.asyncio` offers, by name and the module each object comes from, printed as JSON: set up by
# the store, once every name was asked for, or imported plainly.
NAMES = textwrap.dedent(
    """
    import json, sys

    if sys.argv[1] == "store":
        import hintgate.store.async_core
    import sqlalchemy.ext.asyncio as package

    if sys.argv[1] == "store":
        from sqlalchemy.ext.asyncio import AsyncSession  # a name the store does not set up: the rest loads
    names = {name: getattr(getattr(package, name), "__module__", None) for name in dir(package)}
    print(json.dumps({n: m for n, m in names.items() if not n.startswith("__")}))
    """
)


def _run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, "-c", script, *args], check=True, capture_output=True, text=True, timeout=60)
    return done.stdout.strip()


@pytest.mark.anyio
async def test_a_store_records_and_reads_without_importing_sqlalchemys_orm(store_url: str) -> None:
    assert _run(RECORD_AND_REPORT, store_url) == "False"


def test_the_store_sets_up_the_engines_names_as_the_package_does() -> None:
    from hintgate.store.async_core import ENGINE_NAMES, RESULT_NAMES

    plain = json.loads(_run(NAMES, "plain"))
    for name in ENGINE_NAMES:
        assert plain[name] == "sqlalchemy.ext.asyncio.engine", name
    for name in RESULT_NAMES:
        assert plain[name] == "sqlalchemy.ext.asyncio.result", name


def test_any_other_name_of_the_package_loads_the_rest_of_it_as_a_plain_import_would() -> None:
    assert json.loads(_run(NAMES, "store")) == json.loads(_run(NAMES, "plain"))


# The package's `result` module fails to import once, as in a SQLAlchemy laid out otherwise; then the store's module
# is imported and a name of the package is used. Prints whether the ORM was imported and the engine's module.
LAID_OUT_OTHERWISE = textwrap.dedent(
    """
    import importlib.abc, sys

    class Once(importlib.abc.MetaPathFinder):
        failed = False

        def find_spec(self, name, path=None, target=None):
            if name == "sqlalchemy.ext.asyncio.result" and not Once.failed:
                Once.failed = True
                raise ImportError("laid out otherwise")
            return None

    sys.meta_path.insert(0, Once())
    from hintgate.store.async_core import AsyncEngine, create_async_engine
    from sqlalchemy.ext.asyncio import AsyncSession

    assert Once.failed
    print("sqlalchemy.orm" in sys.modules, AsyncEngine.__module__, AsyncSession.__module__)
    """
)


def test_a_sqlalchemy_laid_out_otherwise_gets_the_whole_package_instead_of_no_store() -> None:
    assert _run(LAID_OUT_OTHERWISE).split() == [
        "True",
        "sqlalchemy.ext.asyncio.engine",
        "sqlalchemy.ext.asyncio.session",
    ]
