"""A store part's connections: database errors become StoreErrors naming the database and what was being done."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import make_url, text

from hintgate.errors import StoreError
from hintgate.store.engine import async_engine, database_url
from hintgate.store.part import StorePart

pytestmark = pytest.mark.anyio


async def test_a_failed_read_names_the_database_and_the_read(tmp_path: Path) -> None:
    url = make_url(database_url(f"sqlite:///{tmp_path / 'h.db'}"))
    engine = async_engine(url)
    part = StorePart(engine, url)

    async def read() -> None:
        async with part.reading("read the widgets from") as conn:
            await conn.execute(text("select * from widgets"))

    try:
        with pytest.raises(StoreError, match=r"cannot read the widgets from .*h\.db"):
            await read()
    finally:
        await engine.dispose()


async def test_a_failed_write_is_rolled_back_and_named(tmp_path: Path) -> None:
    url = make_url(database_url(f"sqlite:///{tmp_path / 'h.db'}"))
    engine = async_engine(url)
    part = StorePart(engine, url)
    async with part.writing("make the widgets in") as conn:
        await conn.execute(text("create table widgets (name text primary key)"))

    async def add_twice() -> None:
        async with part.writing("add two widgets to") as conn:
            await conn.execute(text("insert into widgets values ('a')"))
            await conn.execute(text("insert into widgets values ('a')"))

    with pytest.raises(StoreError, match=r"cannot add two widgets to .*h\.db"):
        await add_twice()
    async with part.reading("count the widgets in") as conn:
        assert (await conn.execute(text("select count(*) from widgets"))).scalar() == 0
    await engine.dispose()
