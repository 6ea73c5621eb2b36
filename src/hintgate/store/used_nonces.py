"""The answers to 2026-07-28 approval questions already used, shared by every replica: `Store.used_nonces`.

An approval question's state (and the state carrying an approval past a
login question) holds a one-time nonce (`hintgate.policy.seals`). Replicas
sharing `HINTGATE_STATE_KEY` open each other's states, so the record of used
nonces must be shared too, or each replica would run the same answer once.
`use` inserts the nonce, doing nothing on a conflict: the one insert that
wrote the row is the answer's one use, whichever replica it reached. Rows past
their deadline are deleted now and then (an answer after its deadline is
refused as late anyway).
"""

from __future__ import annotations

from sqlalchemy import URL, delete

from hintgate.policy.seals import UsedNonces
from hintgate.store.async_core import AsyncEngine
from hintgate.store.part import StorePart
from hintgate.store.tables import upsert, used_nonces

__all__ = ["PRUNE_EVERY", "StoredNonces"]

PRUNE_EVERY = 256
"""Uses between two deletions of the nonces past their deadline."""


class StoredNonces(StorePart, UsedNonces):
    """Used nonces kept in a database (`hintgate.policy.seals.UsedNonces`).

    Made with the store's engine and URL (`StorePart`).
    """

    def __init__(self, engine: AsyncEngine, url: URL) -> None:
        super().__init__(engine, url)
        self._uses = 0

    async def use(self, nonce: str, deadline: float, now: float) -> bool:
        """Record `nonce` as used until `deadline`; True when no replica used it before.

        Raises:
            StoreError: the database cannot be read or written.
        """
        self._uses += 1
        async with self.writing("record a used approval in") as conn:
            if self._uses % PRUNE_EVERY == 1:
                await conn.execute(delete(used_nonces).where(used_nonces.c.deadline < now))
            insert = upsert(used_nonces, conn.dialect.name).values(nonce=nonce, deadline=deadline)
            written = await conn.execute(insert.on_conflict_do_nothing(index_elements=[used_nonces.c.nonce]))
        return bool(written.rowcount)
