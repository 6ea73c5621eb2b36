"""What a tool's input defaults decide for the model: where data goes, and which secret files go along.

Pure. A `default` (or a `const`) in a tool's input schema is the value the
model sends when the user said nothing about it (JSON Schema's meaning, which
MCP's `inputSchema` keeps). A default that names where data goes (a mail
address in a copy field, an upload URL, a mirror's target) sends the user's
data to an address nobody asked for on every call; a default that names a file
holding secrets (`~/.ssh`, `~/.aws`, `.env`) attaches it to every call. Both
are orders without a sentence: the value does what "bcc every invoice to ..."
would ask.

Honest defaults preset the tool's own things: a dotenv loader's `.env`, an SSH
tool's `~/.ssh/id_ed25519` as its key, an API's base URL to read from, a
placeholder address (`example.com`). So a destination counts only in a field
whose name says data goes there, and a secret file only when neither the
tool's name nor the field's says it works with secrets.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from hintgate.scan.phrases import ENV_FILES, SECRET_FILES

__all__ = ["PRESET_KEYS", "Preset", "field_of", "presets"]

PRESET_KEYS = frozenset({"default", "const"})
"""The schema keywords whose value the model sends unless told otherwise."""

Preset = tuple[int | None, str, str]
"""One finding of `presets`: the value's index in a list (None: the value is no list), the value as written, and
why it reaches beyond the tool's job."""

_MAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}")
_URL = re.compile(r"(?:https?|s3|gs|az|ftp|sftp|wss?)://([^/\s?#:]+)\S*", re.IGNORECASE)
# A host or mail domain kept for documentation and tests (RFC 2606, RFC 6761): a placeholder, not an address.
_PLACEHOLDER = re.compile(
    r"(?:^|[.@])(?:example|localhost|invalid|test|local)(?:\.(?:com|org|net))?$|^(?:127\.|0\.0\.0\.0$|\[?::1\]?$)",
    re.IGNORECASE,
)
# Words of a field's name that say data is sent there: a recipient, a copy, an upload, a mirror, a sink.
_WHERE_DATA_GOES = frozenset(
    {
        "to",
        "cc",
        "bcc",
        "recipient",
        "recipients",
        "deliver",
        "delivery",
        "destination",
        "dest",
        "forward",
        "notify",
        "attendee",
        "attendees",
        "invitee",
        "invitees",
        "participants",
        "guests",
        "mirror",
        "copy",
        "archive",
        "sink",
        "upload",
        "webhook",
        "callback",
        "export",
        "target",
        "send",
        "share",
    }
)
# Words of a tool's or a field's name that say it works with secrets or their files: their path is its own job.
_SECRET_JOB = re.compile(
    r"ssh|key|identity|cred|secret|env|auth|cert|token|pass|config|cfg|vault|kube|aws|docker|npm|git|gcloud|azure|"
    r"gpg|netrc|login|profile|mcp|wallet",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def presets(tool: str | None, field: str, value: Any) -> Iterator[Preset]:
    """What the preset `value` of the input field `field` (its name) of tool `tool` sends beyond the tool's job."""
    strings: Sequence[Any] = value if isinstance(value, list) else [value]
    goes = None
    for i, item in enumerate(strings):
        if not isinstance(item, str) or len(item) > 300:
            continue
        at = i if isinstance(value, list) else None
        text = item.strip()
        if _place(text) is not None:
            if goes is None:
                goes = bool(_WHERE_DATA_GOES.intersection(w.lower() for w in _WORD.findall(field)))
            if goes:
                yield at, item, "sends data to an address the user did not give"
            continue
        secret = ("/" in text or "." in text) and (SECRET_FILES.regex.search(text) or ENV_FILES.regex.search(text))
        if secret and not _SECRET_JOB.search(field) and not _SECRET_JOB.search(tool or ""):
            yield at, item, "attaches a file that holds secrets to every call"


def _place(text: str) -> str | None:
    """The host or mail domain `text` is, when it is wholly an outside address (no placeholder)."""
    mail = _MAIL.fullmatch(text)
    if mail is not None:
        domain = text.rpartition("@")[2]
        return None if _PLACEHOLDER.search(domain) else domain
    url = _URL.fullmatch(text)
    if url is not None:
        host = url.group(1)
        return None if _PLACEHOLDER.search(host) else host
    return None


def field_of(path: str) -> str:
    """The field's name in a schema path (`inputSchema.properties.bcc` -> `bcc`)."""
    if path.endswith("']") or path.endswith('"]'):
        return path[path.rfind("[") + 2 : -2]
    return path.rpartition(".")[2]
