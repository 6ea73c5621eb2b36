"""What hintgate holds to log in to servers behind OAuth, encrypted at rest.

Per server (and per person and server, for a server that logs in per person),
one JSON document (its tokens, its client registration, the authorization
server's metadata) is sealed with AES-256-GCM under a key
derived (HKDF-SHA256) from `HINTGATE_STATE_KEY`, the server's name bound in as
associated data so a row copied to another server does not open. Without
`HINTGATE_STATE_KEY` the key is a random one kept in `state.key` (mode 0600)
in the data directory, made on first use. Nothing but the sealed bytes and the
time they were written reaches the database.

A person's login (`oauth.perUser`) is sealed under a key of its own purpose,
bound to the server and the person: a row copied to another person, or into
the shared table, does not open. A person is their key (the issuer and their
`sub`, `hintgate.policy.principal.Principal.key`), never their name, which
two accounts could share; the name they had when they last logged in is kept
beside it for listings.
"""

from __future__ import annotations

import base64
import os
import secrets
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import delete, insert, select, update

from hintgate.config.permissions import private_directory
from hintgate.errors import StoreError
from hintgate.sealing import KEY_FILE, Sealer
from hintgate.store.part import StorePart
from hintgate.store.tables import oauth_credentials, person_credentials

__all__ = ["KEY_FILE", "CredentialsVault", "PersonVault", "SealedCredentials", "vault_key"]


class SealedCredentials(StorePart):
    """The sealed OAuth credentials kept in a database: `Store.credentials` (sealed and opened by a vault).

    The shared login of each server: `get`, `put`, `delete`, `written`; a person's own
    login to a server (`oauth.perUser`): `get_person`, `put_person`, `delete_person`, `people`.


    Made with the store's engine and URL (`StorePart`).
    """

    async def get(self, server: str) -> bytes | None:
        """The sealed document kept for `server`, or None."""
        async with self.reading("read OAuth credentials from") as conn:
            row = (
                await conn.execute(select(oauth_credentials.c.sealed).where(oauth_credentials.c.server == server))
            ).first()
        return None if row is None else bytes(row[0])

    async def put(self, server: str, sealed: bytes) -> None:
        """Keep `sealed` for `server`, replacing what was kept; committed on return."""
        now = datetime.now(UTC)
        async with self.writing("write OAuth credentials to") as conn:
            changed = await conn.execute(
                update(oauth_credentials)
                .where(oauth_credentials.c.server == server)
                .values(sealed=sealed, updated_at=now)
            )
            if changed.rowcount == 0:
                await conn.execute(insert(oauth_credentials).values(server=server, sealed=sealed, updated_at=now))

    async def delete(self, server: str) -> bool:
        """Forget what is kept for `server`; whether there was anything."""
        async with self.writing("remove OAuth credentials from") as conn:
            gone = await conn.execute(delete(oauth_credentials).where(oauth_credentials.c.server == server))
        return bool(gone.rowcount)

    async def written(self) -> dict[str, datetime]:
        """Server → when its credentials were last written, for every server that has some."""
        async with self.reading("read OAuth credentials from") as conn:
            rows = await conn.execute(select(oauth_credentials.c.server, oauth_credentials.c.updated_at))
            return {row.server: row.updated_at for row in rows}

    async def get_person(self, server: str, person: str) -> bytes | None:
        """The sealed document the person whose key is `person` keeps for `server`, or None."""
        row_of = (person_credentials.c.server == server) & (person_credentials.c.person == person)
        async with self.reading("read OAuth credentials from") as conn:
            row = (await conn.execute(select(person_credentials.c.sealed).where(row_of))).first()
        return None if row is None else bytes(row[0])

    async def put_person(self, server: str, person: str, sealed: bytes, *, name: str | None = None) -> None:
        """Keep `sealed` for `person` (a key; `name` as shown) and `server`, replacing what was kept."""
        now = datetime.now(UTC)
        row_of = (person_credentials.c.server == server) & (person_credentials.c.person == person)
        values: dict[str, Any] = {"sealed": sealed, "updated_at": now}
        if name is not None:
            values["name"] = name
        async with self.writing("write OAuth credentials to") as conn:
            changed = await conn.execute(update(person_credentials).where(row_of).values(values))
            if changed.rowcount == 0:
                await conn.execute(
                    insert(person_credentials).values(server=server, person=person, name=name, sealed=sealed,
                                                      updated_at=now)
                )  # fmt: skip

    async def delete_person(self, server: str, person: str) -> bool:
        """Forget what `person` (a key) keeps for `server`; whether there was anything."""
        row_of = (person_credentials.c.server == server) & (person_credentials.c.person == person)
        async with self.writing("remove OAuth credentials from") as conn:
            gone = await conn.execute(delete(person_credentials).where(row_of))
        return bool(gone.rowcount)

    async def people(self, server: str) -> dict[str, tuple[str | None, datetime]]:
        """Person's key → (their name at their last login, when it was written), for everyone with a login."""
        c = person_credentials.c
        async with self.reading("read OAuth credentials from") as conn:
            rows = await conn.execute(select(c.person, c.name, c.updated_at).where(c.server == server))
            return {row.person: (row.name, row.updated_at) for row in rows}


class CredentialsVault:
    """Seals and opens each server's credentials document in a `SealedCredentials`.

    Args:
        store: where the sealed documents are kept.
        key: the secret the encryption key is derived from (see `vault_key`).
    """

    def __init__(self, store: SealedCredentials, key: str) -> None:
        self._sealer = Sealer(
            key, purpose=b"hintgate oauth credentials v1", what="the OAuth credentials", remedy="log in again"
        )
        self._store = store
        self._key = key

    def seal(self, server: str, document: dict[str, Any]) -> bytes:
        """`document` encrypted and authenticated for `server`."""
        return self._sealer.seal(server, document)

    def open(self, server: str, sealed: bytes) -> dict[str, Any]:
        """The document `seal` made for `server`.

        Raises:
            StoreError: it was sealed under another key or for another server, or was altered.
        """
        document: dict[str, Any] = self._sealer.open(server, sealed)
        return document

    async def load(self, server: str) -> dict[str, Any] | None:
        """The credentials document of `server`, or None when none is kept."""
        sealed = await self._store.get(server)
        return None if sealed is None else self.open(server, sealed)

    async def version(self, server: str) -> bytes | None:
        """The sealed document of `server`, unopened: each `save` seals with a new nonce, so it changes."""
        return await self._store.get(server)

    async def save(self, server: str, document: dict[str, Any]) -> None:
        """Keep `document` for `server`, sealed."""
        await self._store.put(server, self.seal(server, document))

    async def forget(self, server: str) -> bool:
        """Remove what is kept for `server`; whether there was anything."""
        return await self._store.delete(server)

    async def written(self) -> dict[str, datetime]:
        """Server → when its credentials were last written."""
        return await self._store.written()

    def person(self, key: str, name: str | None = None) -> PersonVault:
        """The logins of the person whose key is `key` (`name`: how they are called, kept for listings)."""
        return PersonVault(self._store, self._key, key, name)

    async def people(self, server: str) -> dict[str, tuple[str | None, datetime]]:
        """Person's key → (their name, when their own login to `server` was last written), for everyone."""
        return await self._store.people(server)


class PersonVault:
    """One person's logins to servers that log in per person (`oauth.perUser`), sealed.

    It is a `hintgate.sources.oauth.Credentials` like `CredentialsVault`, so the
    same login and token handling serve a person as the shared login; only the
    rows differ (`person_credentials`, one per person and server).

    Args:
        store: where the sealed documents are kept.
        key: the secret the encryption key is derived from (see `vault_key`).
        person: who the person is (`Principal.key`): the rows are theirs.
        name: how they are called, written beside their logins for listings (None: left as it was).
    """

    def __init__(self, store: SealedCredentials, key: str, person: str, name: str | None = None) -> None:
        self._sealer = Sealer(
            key, purpose=b"hintgate oauth person credentials v2", what="the OAuth credentials", remedy="log in again"
        )
        self._store = store
        self._key = key
        self.person_key = person
        self.name = name

    def person(self, key: str, name: str | None = None) -> PersonVault:
        """Another person's logins, in the same store and under the same key."""
        return PersonVault(self._store, self._key, key, name)

    def _row(self, server: str) -> str:
        # Server and person bound together: a line break is in neither a server name nor a key (the issuer's
        # URL and an identifier the verifier refuses with control characters).
        return f"{server}\n{self.person_key}"

    async def load(self, server: str) -> dict[str, Any] | None:
        """This person's credentials document for `server`, or None when none is kept."""
        sealed = await self._store.get_person(server, self.person_key)
        if sealed is None:
            return None
        document: dict[str, Any] = self._sealer.open(self._row(server), sealed)
        return document

    async def version(self, server: str) -> bytes | None:
        """The sealed document, unopened: each `save` seals with a new nonce, so it changes."""
        return await self._store.get_person(server, self.person_key)

    async def save(self, server: str, document: dict[str, Any]) -> None:
        """Keep `document` for this person and `server`, sealed."""
        sealed = self._sealer.seal(self._row(server), document)
        await self._store.put_person(server, self.person_key, sealed, name=self.name)

    async def forget(self, server: str) -> bool:
        """Remove what this person keeps for `server`; whether there was anything."""
        return await self._store.delete_person(server, self.person_key)


def vault_key(state_key: str | None, data_dir: Path) -> str:
    """The secret credentials are sealed with: `state_key` when set, else the one kept in `data_dir`.

    The kept key is made on first use (32 random bytes, mode 0600); every
    hintgate process with the same data directory finds the same one.
    """
    if state_key:
        return state_key
    path = data_dir / KEY_FILE
    try:
        kept = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        kept = ""
    except (OSError, UnicodeDecodeError) as exc:
        raise StoreError(f"cannot read the credentials key {path}: {exc}") from exc
    if len(kept) >= 32:
        return kept
    if kept:
        raise StoreError(f"{path} holds no key hintgate wrote; remove it (stored OAuth logins are then lost)")
    private_directory(data_dir)
    key = base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(key + "\n")
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(temporary, path)  # never over a key another process just made
        except FileExistsError:
            return vault_key(None, data_dir)
    finally:
        temporary.unlink(missing_ok=True)
    return key
