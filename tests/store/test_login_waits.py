"""People's upstream logins waiting for their browser, handed from one replica to another through the store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from hintgate.store import Store

pytestmark = pytest.mark.anyio

ALICE = "https://issuer.example#sub=alice"


async def test_a_redirect_is_handed_over_once_and_its_outcome_read_back_by_any_replica(store_url: str) -> None:
    holder = await Store.open(store_url, replica="holder")
    other = await Store.open(store_url, replica="other")
    later = datetime.now(UTC) + timedelta(minutes=5)
    try:
        await holder.login_waits.start(
            "st-1", server="tracker", person=ALICE, browser="b" * 64, replica="holder", expires_at=later
        )
        row = await other.login_waits.get("st-1")
        assert row is not None
        assert (row["person"], row["replica"], row["answer"], row["outcome"]) == (ALICE, "holder", None, None)
        assert await holder.login_waits.answered("st-1") is None
        assert await other.login_waits.answer("st-1", {"code": "c", "state": "st-1"}) is True
        assert await holder.login_waits.answer("st-1", {"code": "forged", "state": "st-1"}) is False
        assert await holder.login_waits.answered("st-1") == {"code": "c", "state": "st-1"}
        await holder.login_waits.finish("st-1", "done")
        assert (await other.login_waits.get("st-1") or {})["outcome"] == "done"
        await holder.login_waits.start(
            "st-old", server="tracker", person=ALICE, browser="b" * 64, replica="holder",
            expires_at=datetime.now(UTC) - timedelta(seconds=1),
        )  # fmt: skip
        assert await other.login_waits.answer("st-old", {"code": "c"}) is False  # expired: not taken
        await holder.login_waits.start(
            "st-2", server="tracker", person=ALICE, browser="b" * 64, replica="holder", expires_at=later
        )
        assert await other.login_waits.get("st-old") is None  # the next start forgot it
    finally:
        await holder.close()
        await other.close()
