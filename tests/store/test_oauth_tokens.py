"""OAuth credentials are kept sealed: only ciphertext reaches the database, and only the right key opens it."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from hintgate.errors import StoreError
from hintgate.store import Store, database_url
from hintgate.store.oauth_tokens import KEY_FILE, CredentialsVault, vault_key

pytestmark = pytest.mark.anyio

KEY = "k" * 40
DOCUMENT = {"tokens": {"access_token": "at-plaintext-4242", "refresh_token": "rt-plaintext-4242"}, "expires_at": 1.0}


async def _raw_rows(url: str) -> list[tuple[str, bytes]]:
    engine = create_async_engine(database_url(url))
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(sa.text("SELECT server, sealed FROM oauth_credentials"))
            return [(server, bytes(sealed)) for server, sealed in rows]
    finally:
        await engine.dispose()


async def test_a_saved_document_comes_back_and_the_database_holds_no_token_in_clear(
    store: Store, store_url: str
) -> None:
    vault = CredentialsVault(store.credentials, KEY)
    await vault.save("remote", DOCUMENT)
    assert await vault.load("remote") == DOCUMENT
    rows = await _raw_rows(store_url)
    assert [server for server, _ in rows] == ["remote"]
    assert b"plaintext-4242" not in rows[0][1]
    assert list(await vault.written()) == ["remote"]


async def test_saving_again_replaces_and_forgetting_removes(store: Store) -> None:
    vault = CredentialsVault(store.credentials, KEY)
    await vault.save("remote", DOCUMENT)
    await vault.save("remote", {"tokens": None})
    assert await vault.load("remote") == {"tokens": None}
    assert await vault.forget("remote") is True
    assert await vault.load("remote") is None
    assert await vault.forget("remote") is False


async def test_the_version_of_a_login_changes_at_every_write_and_is_none_when_forgotten(store: Store) -> None:
    vault = CredentialsVault(store.credentials, KEY)
    assert await vault.version("remote") is None
    await vault.save("remote", DOCUMENT)
    first = await vault.version("remote")
    assert first is not None
    assert await vault.version("remote") == first
    await vault.save("remote", DOCUMENT)  # the same document written again is still a write
    assert await vault.version("remote") not in (None, first)
    await vault.forget("remote")
    assert await vault.version("remote") is None


async def test_another_key_cannot_open_the_credentials_and_says_so(store: Store) -> None:
    await CredentialsVault(store.credentials, KEY).save("remote", DOCUMENT)
    with pytest.raises(StoreError, match="sealed under another key") as info:
        await CredentialsVault(store.credentials, "z" * 40).load("remote")
    assert "plaintext" not in str(info.value)


async def test_credentials_sealed_for_one_server_do_not_open_as_another(store: Store) -> None:
    vault = CredentialsVault(store.credentials, KEY)
    await vault.save("a", DOCUMENT)
    sealed = await store.credentials.get("a")
    assert sealed is not None
    await store.credentials.put("b", sealed)
    with pytest.raises(StoreError, match="'b'"):
        await vault.load("b")


def test_without_a_state_key_one_private_key_file_is_made_and_reused(tmp_path: Path) -> None:
    first = vault_key(None, tmp_path)
    assert vault_key(None, tmp_path) == first
    assert len(first) >= 32
    assert stat.S_IMODE(os.stat(tmp_path / KEY_FILE).st_mode) == 0o600
    assert vault_key("s" * 32, tmp_path) == "s" * 32


def test_a_key_file_that_holds_no_key_is_an_error_that_names_it(tmp_path: Path) -> None:
    (tmp_path / KEY_FILE).write_text("short\n")
    with pytest.raises(StoreError, match=KEY_FILE):
        vault_key(None, tmp_path)


ALICE, BOB, MALLORY = (f"https://issuer.example#sub={who}" for who in ("alice", "bob", "mallory"))
"""People's keys (`Principal.key`): a person's login is kept under who they are, not their name."""


async def test_each_persons_login_is_their_own_row_sealed_and_not_the_shared_one(store: Store, store_url: str) -> None:
    vault = CredentialsVault(store.credentials, KEY)
    alice, bob = vault.person(ALICE, "alice@example.com"), vault.person(BOB, "bob@example.com")
    await alice.save("tracker", DOCUMENT)
    assert await alice.load("tracker") == DOCUMENT
    assert await bob.load("tracker") is None
    assert await vault.load("tracker") is None  # the shared login is another row
    engine = create_async_engine(database_url(store_url))
    try:
        async with engine.connect() as conn:
            rows = list(await conn.execute(sa.text("SELECT server, person, name, sealed FROM person_credentials")))
    finally:
        await engine.dispose()
    assert [(server, person, name) for server, person, name, _ in rows] == [("tracker", ALICE, "alice@example.com")]
    assert b"plaintext-4242" not in bytes(rows[0][3])
    assert list(await store.credentials.people("tracker")) == [ALICE]


async def test_a_persons_sealed_login_copied_to_another_person_does_not_open(store: Store) -> None:
    vault = CredentialsVault(store.credentials, KEY)
    await vault.person(ALICE).save("tracker", DOCUMENT)
    stolen = await store.credentials.get_person("tracker", ALICE)
    assert stolen is not None
    await store.credentials.put_person("tracker", MALLORY, stolen)
    with pytest.raises(StoreError, match="cannot be decrypted"):
        await vault.person(MALLORY).load("tracker")
    assert await vault.person(ALICE).forget("tracker") is True
    assert await vault.person(ALICE).load("tracker") is None
