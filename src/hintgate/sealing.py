"""Sealing JSON documents kept in the store: AES-256-GCM, one key per purpose, each bound to its row.

The secret is the one OAuth credentials are sealed with (`hintgate.store.oauth_tokens.vault_key`):
`HINTGATE_STATE_KEY`, else the random key kept in the data directory. Each
purpose derives its own AES key from it (HKDF-SHA256, the purpose as `info`),
and each document is bound (as associated data) to the name of the row that
holds it, so a sealed value copied to another row, or another table, does not open.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hintgate.errors import StoreError

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

__all__ = ["KEY_FILE", "SEALED_ENTRY", "Sealer", "kept_key", "server_entries"]

_VERSION = b"hg1"
_NONCE = 12
_TAG = 16


class Sealer:
    """Seals and opens JSON documents for one purpose.

    Args:
        key: the secret (see `hintgate.store.oauth_tokens.vault_key`).
        purpose: what is sealed, bound into the derived key (`b"hintgate oauth credentials v1"`).
        what: how the documents are named in errors ("the OAuth credentials").
        remedy: what to do when one cannot be opened ("log in again").
    """

    def __init__(self, key: str, *, purpose: bytes, what: str, remedy: str) -> None:
        self._key = key
        self._purpose = purpose
        self._loaded: AESGCM | None = None
        self._what = what
        self._remedy = remedy

    @property
    def _aead(self) -> AESGCM:
        # The cryptography (8.7 MB of a gateway's memory) loads with the first document sealed or opened, not
        # with the store: most gateways keep no sealed document.
        if self._loaded is None:
            from cryptography.hazmat.primitives.ciphers.aead import AESGCM
            from cryptography.hazmat.primitives.hashes import SHA256
            from cryptography.hazmat.primitives.kdf.hkdf import HKDF

            derived = HKDF(algorithm=SHA256(), length=32, salt=None, info=self._purpose)
            self._loaded = AESGCM(derived.derive(self._key.encode()))
        return self._loaded

    def seal(self, bound_to: str, document: Any) -> bytes:
        """`document` (JSON-ready) encrypted and authenticated, bound to `bound_to`."""
        nonce = os.urandom(_NONCE)
        plain = json.dumps(document, separators=(",", ":")).encode()
        return _VERSION + nonce + self._aead.encrypt(nonce, plain, bound_to.encode())

    def open(self, bound_to: str, sealed: bytes) -> Any:
        """The document `seal` made for `bound_to`.

        Raises:
            StoreError: it was sealed under another key or for another row, or was altered.
        """
        from cryptography.exceptions import InvalidTag

        if not sealed.startswith(_VERSION) or len(sealed) < len(_VERSION) + _NONCE + _TAG:
            raise StoreError(f"{self._what} kept for {bound_to!r} are not in a format hintgate wrote")
        nonce, body = sealed[len(_VERSION) : len(_VERSION) + _NONCE], sealed[len(_VERSION) + _NONCE :]
        try:
            return json.loads(self._aead.decrypt(nonce, body, bound_to.encode()))
        except InvalidTag:
            raise StoreError(
                f"{self._what} kept for {bound_to!r} cannot be decrypted: they were sealed under "
                f"another key (HINTGATE_STATE_KEY changed?); {self._remedy}"
            ) from None


SEALED_ENTRY = "hintgate/sealed"
"""The one key of a sealed document kept in a JSON column: its value is the sealed document, base64."""


def server_entries(key: str) -> Sealer:
    """The sealer of the entries of runtime server changes (`hintgate.store.server_changes`)."""
    return Sealer(
        key,
        purpose=b"hintgate server changes v1",
        what="the server entry",
        remedy="add the server again (hintgate servers add)",
    )


KEY_FILE = "state.key"
"""The file in the data directory that keeps the key when `HINTGATE_STATE_KEY` is not set (made by
`hintgate.store.oauth_tokens.vault_key`)."""


def kept_key(state_key: str | None, data_dir: Path) -> str | None:
    """The key sealed documents open with: `state_key` when set, else the one kept in `data_dir`; None when
    none is kept yet (`vault_key` makes it)."""
    if state_key:
        return state_key
    try:
        kept = (data_dir / KEY_FILE).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return kept if len(kept) >= 32 else None
