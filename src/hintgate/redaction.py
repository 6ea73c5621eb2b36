"""Hiding configured secrets from whatever hintgate shows.

A source's config holds credentials: a stdio child's `env`, a remote server's
`headers` and URL, an OpenAPI source's auth, and any value `${VAR}` brought in
from the environment. An upstream can echo any of them back (a child printing
its API key to stderr before it dies, an error message quoting a header), and
hintgate shows upstream text in status reasons, errors and its log. Every such
text goes through `Redactor` where it enters hintgate.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import unquote, unquote_plus, urlsplit

__all__ = ["MIN_SECRET_LENGTH", "REDACTED", "Redactor", "secret_values", "url_secrets"]

REDACTED = "***"
"""What a secret is replaced with."""

MIN_SECRET_LENGTH = 6
"""Shorter configured values (`env: {DEBUG: "1"}`, `LOG: info`) are settings, not secrets: hiding them would
blank ordinary words in every message."""


def secret_values(values: Iterable[str]) -> tuple[str, ...]:
    """The values long enough to be secrets, each once, longest first."""
    return tuple(sorted({v for v in values if len(v) >= MIN_SECRET_LENGTH}, key=len, reverse=True))


def url_secrets(url: str) -> tuple[str, ...]:
    """The credentials a URL carries, as written and decoded: its password and query values (API keys go there)."""
    parts = urlsplit(url)
    found: list[str] = []
    for item in parts.query.split("&"):
        value = item.partition("=")[2]
        found += [value, unquote_plus(value)]
    if parts.password:
        found += [parts.password, unquote(parts.password)]
    return tuple(found)


class Redactor:
    """Replaces every one of a set of secret strings by `***`, longest first.

    Longest first, so a secret that contains another (a basic-auth pair and its
    password) is hidden whole rather than leaving its remainder readable.
    """

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self.secrets: tuple[str, ...] = tuple(sorted({s for s in secrets if s}, key=len, reverse=True))

    def __bool__(self) -> bool:
        return bool(self.secrets)

    def text(self, text: str) -> str:
        """`text` with every secret replaced."""
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, REDACTED)
        return text

    def value(self, value: Any) -> Any:
        """A JSON value with every secret replaced in its strings (keys included)."""
        if not self.secrets:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.value(k): self.value(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.value(v) for v in value]
        return value
