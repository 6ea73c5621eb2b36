"""The definitions' scans kept in the store: read under their rules' version, those of another version dropped."""

from __future__ import annotations

import pytest

from hintgate.store import Store

pytestmark = pytest.mark.anyio


async def test_verdicts_are_read_under_the_rules_that_made_them_and_a_new_version_drops_the_old(store: Store) -> None:
    await store.scan_verdicts.save("rules-a", {"k1": '{"findings":[],"words":[]}', "k2": "v2"}, at_most=10)
    await store.scan_verdicts.save("rules-a", {"k2": "v2 again"}, at_most=10)
    assert await store.scan_verdicts.under("rules-a") == {"k1": '{"findings":[],"words":[]}', "k2": "v2 again"}
    assert await store.scan_verdicts.under("rules-b") == {}
    await store.scan_verdicts.save("rules-b", {"k1": "made under b"}, at_most=10)
    assert await store.scan_verdicts.under("rules-b") == {"k1": "made under b"}
    assert await store.scan_verdicts.under("rules-a") == {}  # another version's are gone, not kept beside


async def test_the_store_keeps_no_more_verdicts_than_it_is_told_and_the_oldest_written_go_first(store: Store) -> None:
    for batch in range(4):  # an upstream listing new definitions at every start
        await store.scan_verdicts.save("rules-a", {f"k{batch}a": "v", f"k{batch}b": "v"}, at_most=5)
    kept = await store.scan_verdicts.under("rules-a")
    assert len(kept) == 5
    assert {"k3a", "k3b", "k2a", "k2b"} <= set(kept)  # the last two batches whole
    assert not {"k0a", "k0b"} & set(kept)  # the first batch gone


async def test_pruning_deletes_the_verdicts_of_other_rules_and_of_definitions_no_longer_listed(store: Store) -> None:
    await store.scan_verdicts.save("rules-old", {"k1": "old"}, at_most=10)
    assert await store.scan_verdicts.prune("rules-new") == 1  # another version's, with nothing said of what is listed
    assert await store.scan_verdicts.under("rules-old") == {}
    await store.scan_verdicts.save("rules-new", {"k1": "v1", "k2": "v2", "k3": "v3"}, at_most=10)
    assert await store.scan_verdicts.prune("rules-new") == 0  # listed or not, the current version's stay
    assert await store.scan_verdicts.prune("rules-new", {"k1", "k3", "k9"}) == 1
    assert await store.scan_verdicts.under("rules-new") == {"k1": "v1", "k3": "v3"}


async def test_pruning_many_definitions_deletes_them_in_batches_and_keeps_the_listed(store: Store) -> None:
    keys = [f"{n:064x}" for n in range(1_100)]
    await store.scan_verdicts.save("rules-a", dict.fromkeys(keys, "v"), at_most=2_000)
    listed = set(keys[::10])  # 110 still listed, 990 not: two batches and part of a third
    assert await store.scan_verdicts.prune("rules-a", listed) == 990
    assert set(await store.scan_verdicts.under("rules-a")) == listed
