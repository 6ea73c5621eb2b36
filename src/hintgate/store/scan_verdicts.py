"""The poisoning scans of tool definitions kept in the store: `Store.scan_verdicts`.

Written by the gateway that scanned the definitions, read by its next start under the same version of the scan's
rules (`hintgate.scan.verdicts`): only this table is read for them, never anything imported or given by a client.
The verdicts of other versions are deleted as new ones are written, and beyond the number the writer gives
(`hintgate.scan.verdicts.KEPT_AT_MOST`) the oldest written go first. `prune` deletes, besides those of other
versions, the verdicts of definitions no server lists any more (the gateway says which it listed).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import UTC, datetime

from sqlalchemy import delete, func, select

from hintgate.store.part import StorePart
from hintgate.store.tables import scan_verdicts, upsert

__all__ = ["ScanVerdicts"]

_DELETED_AT_ONCE = 500
"""Keys named in one `DELETE ... IN (...)`: well under SQLite's 32,766 bound parameters, and PostgreSQL's."""


class ScanVerdicts(StorePart):
    """Scan verdicts by definition key (`hintgate.scan.verdicts.definition_key`), under one rules version.

    Made with the store's engine and URL (`StorePart`).
    """

    async def under(self, rules: str) -> dict[str, str]:
        """The stored verdicts made under `rules`, by definition key.

        Raises:
            StoreError: the database cannot be read.
        """
        query = select(scan_verdicts.c.key, scan_verdicts.c.verdict).where(scan_verdicts.c.rules == rules)
        async with self.reading("read scan verdicts from") as conn:
            return {str(key): str(verdict) for key, verdict in (await conn.execute(query)).all()}

    async def save(self, rules: str, verdicts: Mapping[str, str], *, at_most: int) -> None:
        """Keep `verdicts` (by definition key) as made under `rules`; those of every other version are deleted, and
        beyond `at_most` the oldest written.

        Raises:
            StoreError: the database cannot be written.
        """
        if not verdicts:
            return
        now = datetime.now(UTC)
        async with self.writing("write scan verdicts to") as conn:
            await conn.execute(delete(scan_verdicts).where(scan_verdicts.c.rules != rules))
            for key, verdict in verdicts.items():
                insert = upsert(scan_verdicts, conn.dialect.name).values(
                    key=key, rules=rules, verdict=verdict, scanned_at=now
                )
                changed = {"rules": rules, "verdict": verdict, "scanned_at": now}
                await conn.execute(insert.on_conflict_do_update(index_elements=[scan_verdicts.c.key], set_=changed))
            count = (await conn.execute(select(func.count()).select_from(scan_verdicts))).scalar_one()
            if count > at_most:
                oldest = (
                    select(scan_verdicts.c.key)
                    .order_by(scan_verdicts.c.scanned_at, scan_verdicts.c.key)
                    .limit(count - at_most)
                    .scalar_subquery()
                )
                await conn.execute(delete(scan_verdicts).where(scan_verdicts.c.key.in_(oldest)))

    async def prune(self, rules: str, listed: Collection[str] | None = None) -> int:
        """Delete the verdicts made under rules other than `rules` and, with `listed`, those of every definition
        whose key is not in it (no server lists it any more); how many were deleted.

        Raises:
            StoreError: the database cannot be written.
        """
        async with self.writing("prune scan verdicts in") as conn:
            deleted = (await conn.execute(delete(scan_verdicts).where(scan_verdicts.c.rules != rules))).rowcount
            if listed is not None:
                keys = (await conn.execute(select(scan_verdicts.c.key))).scalars().all()
                gone = [key for key in keys if key not in listed]
                for start in range(0, len(gone), _DELETED_AT_ONCE):
                    batch = gone[start : start + _DELETED_AT_ONCE]
                    deleted += (
                        await conn.execute(delete(scan_verdicts).where(scan_verdicts.c.key.in_(batch)))
                    ).rowcount
        return max(deleted, 0)
