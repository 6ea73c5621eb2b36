"""People's upstream logins waiting for their browser, shared by every replica: `Store.login_waits`.

A person's login to a server that logs in per person runs on the replica
where they started it (`hintgate.web.person_logins`): it holds the PKCE
verifier and the client registration, and trades the code for tokens. The
authorization server's redirect may come back through any replica behind the
load balancer. So a login waiting for its redirect is a row here, keyed by
the request's `state`: the replica the redirect reaches checks the browser
and the person against the row, hands the redirect's parameters over
(`answer`, once: a second redirect with the same state finds it taken), and
the replica holding the login picks them up (`answered`), trades the code and
writes how it went (`finish`), which the first replica shows the person.
Rows past their expiry are deleted by the next login started anywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, select, update

from hintgate.store.part import StorePart
from hintgate.store.tables import login_waits

__all__ = ["LoginWaits"]


class LoginWaits(StorePart):
    """The logins waiting for a browser, in a database.


    Made with the store's engine and URL (`StorePart`).
    """

    async def start(
        self, state: str, *, server: str, person: str, browser: str, replica: str, expires_at: datetime
    ) -> None:
        """Keep a login waiting for the redirect that echoes `state`; forget every expired one.

        Raises:
            StoreError: the database cannot take it.
        """
        now = datetime.now(UTC)
        row = {
            "state": state,
            "server": server,
            "person": person,
            "browser": browser,
            "replica": replica,
            "started_at": now,
            "expires_at": expires_at,
        }
        async with self.writing("keep a login in") as conn:
            await conn.execute(delete(login_waits).where(login_waits.c.expires_at < now))
            await conn.execute(login_waits.insert().values(row))

    async def get(self, state: str) -> dict[str, Any] | None:
        """The login waiting for `state` (its columns), or None when there is none."""
        async with self.reading("read a login from") as conn:
            row = (await conn.execute(select(login_waits).where(login_waits.c.state == state))).first()
        return None if row is None else dict(row._mapping)

    async def answer(self, state: str, answer: Mapping[str, str]) -> bool:
        """Hand the redirect's parameters to the login waiting for `state`: True the first time, before expiry."""
        now = datetime.now(UTC)
        c = login_waits.c
        taken = update(login_waits).where(c.state == state, c.answer.is_(None), c.outcome.is_(None), c.expires_at > now)
        async with self.writing("answer a login in") as conn:
            done = await conn.execute(taken.values(answer=dict(answer)))
        return bool(done.rowcount)

    async def answered(self, state: str) -> Mapping[str, str] | None:
        """The redirect's parameters, once another replica handed them over; None while it waits."""
        row = await self.get(state)
        found = row.get("answer") if row is not None else None
        return found if isinstance(found, Mapping) else None

    async def finish(self, state: str, outcome: str, detail: str | None = None) -> None:
        """Say how the login ended: `done`, or `failed` with why."""
        async with self.writing("finish a login in") as conn:
            await conn.execute(
                update(login_waits).where(login_waits.c.state == state).values(outcome=outcome, detail=detail)
            )

    async def forget(self, state: str) -> None:
        """Remove the login waiting for `state` (it ended, or its holder gave up)."""
        async with self.writing("remove a login from") as conn:
            await conn.execute(delete(login_waits).where(login_waits.c.state == state))
