"""The definitions' scans kept in the store: read under their rules' version, those of another version dropped."""

from __future__ import annotations

import pytest

from hintgate.store import Store

pytestmark = pytest.mark.anyio


async def test_verdicts_are_read_under_the_rules_that_made_them_and_a_new_version_drops_the_old(store: Store) -> None:
    await store.scan_verdicts.save("rules-a", {"k1": '{"findings":[],"words":[]}', "k2": "v2"})
    await store.scan_verdicts.save("rules-a", {"k2": "v2 again"})
    assert await store.scan_verdicts.under("rules-a") == {"k1": '{"findings":[],"words":[]}', "k2": "v2 again"}
    assert await store.scan_verdicts.under("rules-b") == {}
    await store.scan_verdicts.save("rules-b", {"k1": "made under b"})
    assert await store.scan_verdicts.under("rules-b") == {"k1": "made under b"}
    assert await store.scan_verdicts.under("rules-a") == {}  # another version's are gone, not kept beside
