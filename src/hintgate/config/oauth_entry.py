"""Reading a remote server's `oauth` block: how hintgate logs in to it with OAuth 2.1.

Every key is optional (`oauth: {}` leaves all to discovery and dynamic client
registration); the spellings Claude Code and Cursor write are accepted beside
hintgate's own. An unknown key is an error.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from hintgate.config.model import OAuthConfig
from hintgate.config.reader import Reader, shown, spellings
from hintgate.config.yamlpos import Key

__all__ = ["OAUTH_KEYS", "read_oauth"]

OAUTH_KEYS: Mapping[str, str] = {
    **spellings("client_id", "client_secret", "scopes", "redirect_port", "per_user"),
    "scope": "scopes",
    "callbackPort": "redirect_port",
}
"""Spelling → setting."""


def read_oauth(reader: Reader, value: Any, path: tuple[Key, ...]) -> OAuthConfig | None:
    """The `oauth` block at `path`, or None after reporting its problems."""
    if value is None or value is True:
        return OAuthConfig()  # `oauth:` or `oauth: true`: everything from discovery
    m = reader.mapping(value, path, "a mapping (client_id, client_secret, scopes, redirect_port, perUser) or true")
    if m is None:
        return None
    start = len(reader.problems)
    given = reader.source_keys(m, path, OAUTH_KEYS)

    def text(setting: str, *, secret: bool = False) -> str | None:
        if setting not in given:
            return None
        return reader.string(given.value(setting), given[setting], secret=secret, empty=False)

    client_id = text("client_id")
    client_secret = text("client_secret", secret=True)
    scopes: tuple[str, ...] = ()
    if "scopes" in given:
        raw = given.value("scopes")
        if isinstance(raw, str):  # the wire form: "read write"
            written = reader.string(raw, given["scopes"])
            scopes = tuple((written or "").split())
        else:
            scopes = reader.strings(raw, given["scopes"]) or ()
            for i, scope in enumerate(scopes):
                if not scope or any(c.isspace() for c in scope):
                    reader.error((*given["scopes"], i), f"a scope is one word, got {json.dumps(scope)}")
    port: int | None = None
    if "redirect_port" in given:
        raw = given.value("redirect_port")
        if isinstance(raw, int) and not isinstance(raw, bool) and 1 <= raw <= 65535:
            port = raw
        else:
            reader.error(given["redirect_port"], f"expected a port number from 1 to 65535, got {shown(raw)}")
    per_user = False
    if "per_user" in given:
        raw = given.value("per_user")
        if isinstance(raw, bool):
            per_user = raw
        else:
            reader.error(given["per_user"], f"expected true or false, got {shown(raw)}")
        if per_user:
            reader.per_user.append(given["per_user"])
    if client_secret is not None and client_id is None and "client_id" not in given:
        reader.error(given["client_secret"], "a client secret needs the client_id it belongs to", key=True)
    if len(reader.problems) > start:
        return None
    return OAuthConfig(
        client_id=client_id, client_secret=client_secret, scopes=scopes, redirect_port=port, per_user=per_user
    )
