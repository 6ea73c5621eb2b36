"""The record of used approval answers, shared by every replica: on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from hintgate.store import Store
from hintgate.store.used_nonces import PRUNE_EVERY

pytestmark = pytest.mark.anyio


async def test_a_nonce_is_used_once_whichever_store_handle_uses_it_and_old_ones_are_forgotten(store_url: str) -> None:
    one = await Store.open(store_url, replica="one")
    two = await Store.open(store_url, replica="two")
    try:
        assert await one.used_nonces.use("n-1", deadline=100.0, now=1.0) is True
        assert await two.used_nonces.use("n-1", deadline=100.0, now=2.0) is False
        assert await one.used_nonces.use("n-1", deadline=100.0, now=3.0) is False
        at_once = await asyncio.gather(*(s.used_nonces.use("n-2", deadline=100.0, now=4.0) for s in (one, two) * 4))
        assert sorted(at_once) == [False] * 7 + [True]
        for i in range(PRUNE_EVERY):  # past n-1's deadline: the next prune forgets it
            await two.used_nonces.use(f"later-{i}", deadline=1000.0, now=200.0)
        assert await two.used_nonces.use("n-1", deadline=1000.0, now=200.0) is True
    finally:
        await one.close()
        await two.close()
