"""One typed settings object for the running gateway, with `HINTGATE_*` environment overrides.

Command-line flags override the environment, which overrides the defaults.
Nothing is read at import time: `Settings.from_environ()` reads when called.
docs/settings.md lists every setting; a test keeps it complete.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from hintgate.errors import ConfigError

__all__ = ["DATABASE_FILE", "DEFAULT_REGISTRY", "ENVIRONMENT", "Settings", "registry_url_problem"]

DATABASE_FILE = "hintgate.db"
"""The default database's file name in the data directory."""
DEFAULT_REGISTRY = "https://registry.modelcontextprotocol.io"
"""The official MCP registry."""


def _data_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("hintgate", appauthor=False))


@dataclass(frozen=True, slots=True)
class Settings:
    """How this gateway process runs (what it serves is the config file's business).

    Attributes:
        data_dir: where the default database and the API token live.
        database_url: the store's database; None means the SQLite file in `data_dir`.
        retention: how many sessions (with their calls) the store keeps.
        response_cap: bytes of each call's response kept in its record.
        commit: `"durable"`: a call's result goes back once its record is committed (a kill -9
            loses no call that returned); `"fast"`: records are committed every `commit_interval`.
        commit_interval: in fast mode, seconds between the recorder's commits (the most a kill -9 can lose).
        api_token: the token the REST API, dashboard and MCP endpoint require (on loopback
            unless `require_token` is off); None means generate one on first start and keep it
            in `data_dir`.
        require_token: whether a gateway bound to loopback requires the API token too (the
            default), so other users and processes of the machine, and a model's tools behind
            the gateway, cannot use it. Beyond loopback it is always required.
        replica: this gateway's name among replicas sharing one database.
        record: whether calls and sessions are recorded at all.
        state_key: the secret that seals the `requestState` of 2026-07-28 approval questions;
            replicas behind one load balancer need the same one. None: a key made at start,
            held by this process only.
        tracing: whether calls are traced with OpenTelemetry (needs the `otel` extra).
        max_connections: HTTP connections the gateway holds at once; more are answered 503.
        max_connections_per_peer: HTTP connections one peer address holds at once; more are answered 503.
        head_timeout: seconds an HTTP request's head (request line and headers) may take to arrive.
        body_timeout: seconds an HTTP request's body may take to arrive after its head.
        tokens: how recorded calls' tokens are counted: `"estimate"` (calibrated, flagged as
            estimated, no tokenizer in memory) or `"exact"` (o200k, ~140 MB once loaded).
        registry_url: the MCP registry `hintgate registry` and the dashboard's Add server search
            (the official one unless an organisation runs its own): https, or http on this machine.
    """

    data_dir: Path = field(default_factory=_data_dir)
    database_url: str | None = None
    retention: int = 100
    response_cap: int = 65536
    commit: str = "durable"
    commit_interval: float = 0.05
    api_token: str | None = None
    require_token: bool = True
    replica: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}")
    record: bool = True
    state_key: str | None = None
    tracing: bool = False
    tokens: str = "estimate"
    max_connections: int = 1000
    max_connections_per_peer: int = 200
    head_timeout: float = 10.0
    body_timeout: float = 30.0
    registry_url: str = DEFAULT_REGISTRY

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Defaults, then `HINTGATE_*` variables, then `overrides` (those not None)."""
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for name, (variable, convert) in ENVIRONMENT.items():
            raw = environ.get(variable)
            if raw is None or raw == "":
                continue
            try:
                values[name] = convert(raw)
            except ValueError as exc:
                shown = variable if name in _SECRET else f"{variable}={raw!r}"  # never echo a secret
                raise ConfigError(f"{shown}: {exc}") from None
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    @property
    def store_url(self) -> str:
        """The database the store opens: `database_url`, else the `hintgate.db` SQLite file in `data_dir`."""
        return self.database_url or f"sqlite:///{self.data_dir / DATABASE_FILE}"


def _positive_int(raw: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise ValueError("expected a whole number of at least 1") from None
    if value < 1:
        raise ValueError("expected a whole number of at least 1")
    return value


def _positive_float(raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise ValueError("expected a number of seconds above 0") from None
    if not value > 0:
        raise ValueError("expected a number of seconds above 0")
    return value


def _one_of(*words: str) -> Callable[[str], str]:
    """The parser of a setting that is one of `words`, in any case, blanks around it ignored."""

    def parse(raw: str) -> str:
        lowered = raw.strip().lower()
        if lowered not in words:
            raise ValueError(f"expected {' or '.join(words)}")
        return lowered

    return parse


_commit_mode = _one_of("durable", "fast")
_token_mode = _one_of("estimate", "exact")


def _secret_key(raw: str) -> str:
    if len(raw.encode()) < 32:
        raise ValueError("expected at least 32 bytes of secret randomness, e.g. the output of: openssl rand -hex 32")
    return raw


def _boolean(raw: str) -> bool:
    lowered = raw.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError("expected true or false")


def registry_url_problem(url: str) -> str | None:
    """Why `url` cannot be an MCP registry's base URL (https, or http on this machine only), or None."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    local = host == "localhost" or host.startswith("127.") or host == "::1"
    if parts.scheme not in ("https", "http") or not host:
        return f"expected an https:// URL, got {url!r}"
    if parts.scheme == "http" and not local:
        return f"expected an https:// URL (http:// only on this machine), got {url!r}"
    if parts.query or parts.fragment or parts.username or parts.password:
        return f"a registry URL has no query, fragment or credentials, got {url!r}"
    return None


def _registry_url(raw: str) -> str:
    url = raw.strip().rstrip("/")
    if (problem := registry_url_problem(url)) is not None:
        raise ValueError(problem)
    return url


_SECRET = frozenset({"api_token", "state_key", "database_url"})

ENVIRONMENT: Mapping[str, tuple[str, Any]] = {
    "data_dir": ("HINTGATE_DATA_DIR", Path),
    "database_url": ("HINTGATE_DATABASE_URL", str),
    "retention": ("HINTGATE_RETENTION", _positive_int),
    "response_cap": ("HINTGATE_RESPONSE_CAP", _positive_int),
    "commit": ("HINTGATE_COMMIT", _commit_mode),
    "commit_interval": ("HINTGATE_COMMIT_INTERVAL", _positive_float),
    "api_token": ("HINTGATE_API_TOKEN", str),
    "require_token": ("HINTGATE_REQUIRE_TOKEN", _boolean),
    "replica": ("HINTGATE_REPLICA", str),
    "record": ("HINTGATE_RECORD", _boolean),
    "state_key": ("HINTGATE_STATE_KEY", _secret_key),
    "tracing": ("HINTGATE_TRACING", _boolean),
    "tokens": ("HINTGATE_TOKENS", _token_mode),
    "max_connections": ("HINTGATE_MAX_CONNECTIONS", _positive_int),
    "max_connections_per_peer": ("HINTGATE_MAX_CONNECTIONS_PER_PEER", _positive_int),
    "head_timeout": ("HINTGATE_HEAD_TIMEOUT", _positive_float),
    "body_timeout": ("HINTGATE_BODY_TIMEOUT", _positive_float),
    "registry_url": ("HINTGATE_REGISTRY_URL", _registry_url),
}
"""Setting → (environment variable, parser)."""
