"""The gateway's configuration file: loading, validation, and the values others read.

The file is the `mcpServers` object that Claude Desktop, Cursor, VS Code, Cline
and Windsurf write, taken as is, with hintgate's own keys beside the standard
ones. docs/config.md is the reference of every key.

Every problem in a file is collected and reported at once, one per line, each
as `FILE:LINE:COL: key.path: what was expected, got what`, in a single
`ConfigError`. Values of environment variables, `env` and `headers` never
appear in a message or in `ServerConfig.redacted()`.
"""

from __future__ import annotations

import difflib
import fnmatch
import hashlib
import json
import os
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Literal, Protocol
from urllib.parse import urlsplit, urlunsplit

from hintgate.discovery.served import SearchSettings
from hintgate.discovery.views import View
from hintgate.hints.annotations import Hint
from hintgate.hints.names import names_match
from hintgate.hints.trust import Trust, TrustFrom
from hintgate.policy.roles import People, Roles
from hintgate.policy.rules import PolicySettings, Rule
from hintgate.redaction import REDACTED, secret_values, url_secrets

__all__ = [
    "DEFAULT_ENV_ALLOW",
    "OPENAPI_METHODS",
    "SIGNING_ALGORITHMS",
    "ApiAuth",
    "GatewayConfig",
    "HttpTransport",
    "IdentityConfig",
    "OAuthConfig",
    "OpenApiConfig",
    "OpenApiNaming",
    "OperationFilter",
    "PythonConfig",
    "ServerConfig",
    "SourceConfig",
    "SourceTraits",
    "StdioTransport",
    "Timeouts",
    "ToolOverride",
    "Trust",
    "TrustFrom",
    "child_environment",
    "match_override",
    "trust_words",
]

DEFAULT_ENV_ALLOW: tuple[str, ...] = (
    # POSIX: who and where the user is, how to find programs, locale and time.
    "HOME", "PATH", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ",
    # Windows: what programs and runtimes need to start at all.
    "APPDATA", "LOCALAPPDATA", "PROGRAMDATA", "PROGRAMFILES", "PROGRAMFILES(X86)", "COMSPEC", "PATHEXT",
    "SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "TEMP", "TMP", "USERNAME", "USERPROFILE", "HOMEDRIVE",
    "HOMEPATH", "PROCESSOR_ARCHITECTURE",
    # Where extra CA certificates are: paths, not secrets, and without them a
    # server behind a TLS-inspecting proxy fails in ways that are hard to trace.
    "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "NODE_EXTRA_CA_CERTS",
)  # fmt: skip
"""The variables a stdio child inherits from the gateway's environment.

Proxy variables (`HTTPS_PROXY` ...) are left out on purpose: their URLs often
carry credentials. Add them, or anything else, with `env: {allow: [...]}`.
"""

PREFIX_RE = re.compile(r"[A-Za-z0-9_.-]*")
GLOB_CHARS = frozenset("*?[")


@dataclass(frozen=True)
class StdioTransport:
    """A server run as a child process speaking MCP on its stdin and stdout."""

    command: str
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None


@dataclass(frozen=True)
class OAuthConfig:
    """How hintgate logs in to a remote server with OAuth 2.1; every field may be left to discovery.

    Attributes:
        client_id: a client registered with the authorization server beforehand; None to register
            dynamically, which needs a server that offers registration.
        client_secret: that client's secret, for a confidential client.
        scopes: the scopes to ask for; empty to ask for what the server advertises.
        redirect_port: the loopback port the login's redirect comes back to; None for any free port.
        per_user: each person (from the `identity` section) logs in on their own, and their calls
            carry their own token; the shared login then only lists the server's tools.
    """

    client_id: str | None = None
    client_secret: str | None = None
    scopes: tuple[str, ...] = ()
    redirect_port: int | None = None
    per_user: bool = False

    def redacted(self) -> dict[str, Any]:
        """A JSON-ready description, the client secret as `***`."""
        return {
            "client_id": self.client_id,
            "client_secret": REDACTED if self.client_secret else None,
            "scopes": list(self.scopes),
            "redirect_port": self.redirect_port,
            "per_user": self.per_user,
        }


@dataclass(frozen=True)
class HttpTransport:
    """A remote server reached over streamable HTTP or the older SSE transport.

    `oauth` is set when the server sits behind OAuth 2.1 and hintgate logs in to it.
    """

    url: str
    headers: Mapping[str, str] = field(default_factory=dict)
    kind: Literal["streamable-http", "sse"] = "streamable-http"
    oauth: OAuthConfig | None = None


@dataclass(frozen=True)
class ToolOverride:
    """The operator's values for some hints of a tool; a hint not in `hints` is left alone."""

    hints: Mapping[Hint, bool]
    title: str | None = None


SIGNING_ALGORITHMS: tuple[str, ...] = (
    "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA",
)  # fmt: skip
"""The JWT signature algorithms `identity.algorithms` may name: public-key ones only.

`none` proves nothing, and an HMAC algorithm (`HS256` ...) would verify with
a shared secret: given the issuer's *public* key as that secret, anyone could
sign a token the gateway accepts.
"""


@dataclass(frozen=True)
class IdentityConfig:
    """The company's identity provider, whose users may use the gateway (the `identity` section).

    With it, the gateway is an OAuth 2.1 protected resource: `/mcp`, `/api` and
    `/metrics` take `Authorization: Bearer JWT` from `issuer` for `audience`.

    Attributes:
        issuer: the OpenID issuer; its keys come from `{issuer}/.well-known/openid-configuration`.
        audience: the resource tokens must be issued for (`aud`): the gateway's public `/mcp` URL.
        user_claims: the claims that name a user, first present wins.
        groups_claim: the claim listing a user's groups (a list of strings, or one string).
        algorithms: the signature algorithms accepted (public-key ones only, `SIGNING_ALGORITHMS`).
        clock_skew: seconds of difference between the issuer's clock and ours tolerated on `exp`, `nbf`, `iat`.
        scopes: the scopes a client should ask for, advertised in the protected-resource metadata.
        dashboard_client: the client id the dashboard signs people in with (authorization code and
            PKCE, a public client whose redirect is `{audience origin}/login/identity/callback`); None:
            the dashboard takes the API token only.
        require_token_type: a token's header must say `typ: at+jwt` (RFC 9068), which tells an access
            token from an ID token; off for issuers that do not write it (then ID tokens are still told
            apart by their `nonce` and `at_hash`).
        clients: the client ids whose tokens are accepted (`client_id`, else `azp`, else `appid`), besides
            `dashboard_client`; empty: any client of the issuer.
        admins: the people who operate the gateway besides the API token (`identity.admins`); nobody
            named: only the API token changes the gateway (`hintgate.policy.roles`).
        auditors: the people who read every session and call and change nothing (`identity.auditors`).
        person_claim: the claim whose value the issuer never gives another person and never changes,
            which with the issuer keys everything a person owns (Entra's `oid`); None: `sub`.
        assigned_claims: the user claims whose values the issuer assigns (a person cannot choose them),
            so that they may name a person even when they look like an email address; `email` counts
            only with `email_verified: true`, and any other claim's value with an `@` is passed over.
    """

    issuer: str
    audience: str
    user_claims: tuple[str, ...] = ("email", "preferred_username", "sub")
    groups_claim: str = "groups"
    algorithms: tuple[str, ...] = SIGNING_ALGORITHMS
    clock_skew: float = 60.0
    scopes: tuple[str, ...] = ()
    dashboard_client: str | None = None
    require_token_type: bool = True
    clients: tuple[str, ...] = ()
    admins: People = field(default_factory=People)
    auditors: People = field(default_factory=People)

    @property
    def roles(self) -> Roles:
        """Whom this section names for each role on the management plane."""
        return Roles(people=True, admins=self.admins, auditors=self.auditors)

    person_claim: str | None = None
    assigned_claims: tuple[str, ...] = ("sub",)


@dataclass(frozen=True)
class Timeouts:
    """Gateway-wide time limits in seconds: per call, per server start, per tools/list, per idle HTTP session."""

    call: float = 60.0
    startup: float = 30.0
    list: float = 30.0
    session_idle: float = 1800.0
    """An HTTP session with no request in flight for this long is closed (both protocol eras)."""
    session_first_request: float = 60.0
    """A handshake-era HTTP session that has made no request since `initialize` is closed after this long."""


@dataclass(frozen=True)
class ListingLimits:
    """How much of a server's listing the gateway serves (`limits`): a hostile server must not stop it.

    Attributes:
        tools_per_server: tools served per server; those listed after them are not served.
        text_length: characters of any one text of a tool (description, title, a schema's words); a tool with a
            longer one is not served.
    """

    tools_per_server: int = 1000
    text_length: int = 32768


class SourceTraits(Protocol):
    """What a source and its config entry both say of it: name, type, trust, prefix, call timeout, which tools.

    A source (`hintgate.sources.base.Source`) answers these as its config
    entry (`SourceConfig`) sets them, or as they were changed at runtime.
    """

    @property
    def name(self) -> str:
        """The source's name (its key in the config)."""

    @property
    def kind(self) -> str:
        """What type of source it is: "mcp", "openapi", "python" (a `SourceType`'s kind)."""

    @property
    def trust(self) -> Trust:
        """How far its declared hints are believed."""

    @property
    def trust_from(self) -> TrustFrom:
        """Where its trust level came from (the config file, the default for where it runs, a runtime change)."""

    @property
    def prefix(self) -> str:
        """What its tools' names are prefixed with in the gateway ("" for none)."""

    @property
    def call_timeout(self) -> float:
        """Seconds a call may take."""

    def wants(self, tool_name: str) -> bool:
        """Whether one of its tools is served (the include / exclude globs)."""


class SourceConfig(SourceTraits, Protocol):
    """What every source's config entry offers, whatever its type (mcpServers, openapi and python entries).

    The config reader keeps entries of every type in one mapping and the
    sources are built from them through this protocol alone; each type's
    dataclass (`ServerConfig`, `OpenApiConfig`, `PythonConfig`) satisfies it.
    """

    @property
    def enabled(self) -> bool:
        """Whether it runs."""

    def override_for(self, tool_name: str) -> ToolOverride | None:
        """The config's overrides for a tool."""


@dataclass(frozen=True, kw_only=True)
class _SourceEntry:
    """What every source's config entry sets, whatever its type: the settings `SourceConfig` reads.

    Keyword-only, so that each type's own fields, its name first, come first in its constructor.
    """

    trust: Trust = Trust.UNTRUSTED
    trust_from: TrustFrom = TrustFrom.CONFIG
    """Where `trust` came from: the entry's `trust` key, the default for where it runs, or a runtime change."""
    enabled: bool = True
    prefix: str = ""
    overrides: Mapping[str, ToolOverride] = field(default_factory=dict)
    call_timeout: float = Timeouts.call


@dataclass(frozen=True, kw_only=True)
class _ToolFilter(_SourceEntry):
    """A source entry that lists tools by name (a server, a Python registry): its globs, `wants` and
    `override_for`."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def wants(self, tool_name: str) -> bool:
        """Whether a tool is served: matches an `include` glob (any, if empty) and no `exclude` glob."""
        # As listed or as served, case and look-alike letters folded: `delete repo` cannot escape `delete_*`.
        if self.include and not names_match(self.include, tool_name):
            return False
        return not names_match(self.exclude, tool_name)

    def override_for(self, tool_name: str) -> ToolOverride | None:
        """The override that applies to a tool, if any (see `match_override`)."""
        return match_override(self.overrides, tool_name)


@dataclass(frozen=True)
class ServerConfig(_ToolFilter):
    """One upstream MCP server and what hintgate does with its tools.

    Tool names in `include`, `exclude` and `overrides` are the server's own
    names, before `prefix` is applied.
    """

    kind: ClassVar[str] = "mcp"
    """The type of source this configures."""

    name: str
    transport: StdioTransport | HttpTransport
    startup_timeout: float = Timeouts.startup
    from_environment: tuple[str, ...] = ()
    """The values `${VAR}` took from the environment in this entry: kept secret, wherever they went."""
    pin: str = "auto"
    """`auto`: the first sight of a tool is accepted (trust on first use); `manual`: new tools wait for an operator."""

    @property
    def launch(self) -> str:
        """A fingerprint of how the operator's entry starts or reaches the server: its command, `args`,
        `cwd` and the names of its `env` variables, or its URL without credentials or query.

        The tool pins keep it: tools listed after it changed are the operator's change (`hints.pins`).
        `env` values are left out: they are secrets, and the hash of a short one can be guessed.
        """
        t = self.transport
        if isinstance(t, StdioTransport):
            given: list[Any] = ["stdio", t.command, list(t.args), t.cwd, sorted(t.env)]
        else:
            parts = urlsplit(t.url)
            given = [t.kind, parts.scheme, parts.hostname, parts.port, parts.path]
        return hashlib.sha256(json.dumps(given).encode("utf-8", "surrogatepass")).hexdigest()

    def secrets(self) -> tuple[str, ...]:
        """Every configured value never to show: `env` and header values, URL credentials, `${VAR}` values."""
        t = self.transport
        if isinstance(t, StdioTransport):
            values = [*t.env.values()]
        else:
            values = [*t.headers.values(), *url_secrets(t.url)]
            if t.oauth is not None and t.oauth.client_secret:
                values.append(t.oauth.client_secret)
        return secret_values([*values, *self.from_environment])

    def redacted(self) -> dict[str, Any]:
        """A JSON-ready description with `env` and `headers` values, and URL credentials, as `***`.

        `args` are shown as written: keep secrets in `env`, not on the command line.
        """
        transport: dict[str, Any]
        if isinstance(self.transport, StdioTransport):
            transport = {
                "type": "stdio",
                "command": self.transport.command,
                "args": list(self.transport.args),
                "env": dict.fromkeys(self.transport.env, REDACTED),
                "cwd": self.transport.cwd,
            }
        else:
            transport = {
                "type": self.transport.kind,
                "url": redact_url(self.transport.url),
                "headers": dict.fromkeys(self.transport.headers, REDACTED),
            }
            if self.transport.oauth is not None:
                transport["oauth"] = self.transport.oauth.redacted()
        return {
            "name": self.name,
            "transport": transport,
            "trust": self.trust.value,
            "trust_from": self.trust_from.value,
            "enabled": self.enabled,
            "prefix": self.prefix,
            "include": list(self.include),
            "exclude": list(self.exclude),
            "overrides": {
                pattern: {
                    **({"title": o.title} if o.title is not None else {}),
                    **{hint.value: value for hint, value in o.hints.items()},
                }
                for pattern, o in self.overrides.items()
            },
            "call_timeout": self.call_timeout,
            "startup_timeout": self.startup_timeout,
            "pin": self.pin,
        }

    def describe(self) -> str:
        """One line for people, secrets hidden: `github: stdio npx -y ... (untrusted, prefix "github")`."""
        t = self.transport
        if isinstance(t, StdioTransport):
            how = " ".join(["stdio", t.command, *t.args])
            secret_keys = sorted(t.env)
        else:
            how = f"{t.kind} {redact_url(t.url)}" + (" with OAuth" if t.oauth is not None else "")
            secret_keys = sorted(t.headers)
        parts = [trust_words(self.trust, self.trust_from), f"prefix {json.dumps(self.prefix)}"]
        if secret_keys:
            parts.append(", ".join(f"{k}={REDACTED}" for k in secret_keys))
        if not self.enabled:
            parts.append("disabled")
        return f"{self.name}: {how} ({'; '.join(parts)})"


def match_override(overrides: Mapping[str, ToolOverride], tool_name: str) -> ToolOverride | None:
    """The override of `overrides` that applies to a tool, if any.

    An exact name beats every glob. Among matching globs the longest
    pattern wins, taken as the most specific; between equally long ones,
    the first in the file. Overrides are not merged: one entry applies.
    """
    exact = overrides.get(tool_name)
    if exact is not None and GLOB_CHARS.isdisjoint(tool_name):
        return exact
    best: tuple[int, ToolOverride] | None = None
    for pattern, override in overrides.items():
        if GLOB_CHARS.isdisjoint(pattern):
            if pattern == tool_name:
                return override
            continue
        if fnmatch.fnmatchcase(tool_name, pattern) and (best is None or len(pattern) > best[0]):
            best = (len(pattern), override)
    return best[1] if best else None


@dataclass(frozen=True)
class ApiAuth:
    """How an OpenAPI source authenticates: a bearer token, an API key, or HTTP basic.

    Attributes:
        kind: "bearer", "apiKey" or "basic".
        value: the bearer token or the API key.
        name: the API key's header, query parameter or cookie name.
        location: where the API key goes: "header", "query" or "cookie".
        username: the basic-auth user name.
        password: the basic-auth password.
    """

    kind: Literal["bearer", "apiKey", "basic"]
    value: str = ""
    name: str = ""
    location: Literal["header", "query", "cookie"] = "header"
    username: str = ""
    password: str = ""

    def secrets(self) -> tuple[str, ...]:
        """Every string that must never be shown (the raw values and their encoded forms)."""
        import base64

        if self.kind == "basic":
            pair = f"{self.username}:{self.password}"
            return tuple(s for s in (self.password, pair, base64.b64encode(pair.encode()).decode()) if len(s) >= 4)
        return (self.value,) if len(self.value) >= 4 else ()

    def describe(self) -> str:
        """The scheme without its secret: `bearer ***`, `apiKey header X-API-Key=***`."""
        if self.kind == "bearer":
            return f"bearer {REDACTED}"
        if self.kind == "basic":
            return f"basic {self.username}:{REDACTED}"
        return f"apiKey {self.location} {self.name}={REDACTED}"


OPENAPI_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
"""The HTTP methods an OpenAPI path item may hold operations for, in document order (those a filter's `methods`
may name)."""

OpenApiNaming = Literal["operationId", "method-path"]
"""How an OpenAPI source names its tools: by operationId (else method and path), or by method and path."""


@dataclass(frozen=True)
class OperationFilter:
    """Which operations of a document a filter names: by tag, path glob, method, or tool-name glob.

    Attributes:
        tags: operation tags.
        paths: `fnmatch` globs over path templates (`/pet/*`).
        methods: HTTP methods, upper case.
        tools: globs over tool names and operationIds.
    """

    tags: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    methods: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()

    def criteria(self, method: str, path: str, tags: Collection[str], names: Collection[str]) -> list[bool]:
        """For each criterion given, whether the operation meets it."""
        out: list[bool] = []
        if self.tags:
            out.append(any(t in self.tags for t in tags))
        if self.paths:
            out.append(any(fnmatch.fnmatchcase(path, p) for p in self.paths))
        if self.methods:
            out.append(method.upper() in self.methods)
        if self.tools:
            out.append(any(names_match(self.tools, n) for n in names))
        return out


@dataclass(frozen=True)
class OpenApiConfig(_SourceEntry):
    """One OpenAPI document served as tools.

    Attributes:
        name: its key in the config.
        document: the document's file path (absolute) or http(s) URL.
        base_url: where calls go; the document's first server when None.
        auth: credentials sent with every call, if any.
        headers: extra headers sent with every call (values may be secrets).
        include: an operation is served only if it meets every criterion given (empty: all).
        exclude: an operation meeting any criterion given is not served.
        naming: "operationId" (else method and path) or "method-path".
    """

    kind: ClassVar[str] = "openapi"
    """The type of source this configures."""

    name: str
    document: str
    base_url: str | None = None
    auth: ApiAuth | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    include: OperationFilter = field(default_factory=OperationFilter)
    exclude: OperationFilter = field(default_factory=OperationFilter)
    naming: OpenApiNaming = "operationId"
    startup_timeout: float = Timeouts.startup
    from_environment: tuple[str, ...] = ()  # what `${VAR}` took from the environment: secret

    def selects(self, method: str, path: str, tags: Collection[str]) -> bool:
        """Whether include / exclude let an operation through by its tags, path and method."""
        include = OperationFilter(self.include.tags, self.include.paths, self.include.methods)
        exclude = OperationFilter(self.exclude.tags, self.exclude.paths, self.exclude.methods)
        return all(include.criteria(method, path, tags, ())) and not any(exclude.criteria(method, path, tags, ()))

    def wants(self, tool_name: str, operation_id: str | None = None) -> bool:
        """Whether include / exclude let a tool through by its name or operationId."""
        names = (tool_name, operation_id) if operation_id else (tool_name,)
        include, exclude = OperationFilter(tools=self.include.tools), OperationFilter(tools=self.exclude.tools)
        return all(include.criteria("", "", (), names)) and not any(exclude.criteria("", "", (), names))

    def override_for(self, tool_name: str, operation_id: str | None = None) -> ToolOverride | None:
        """The override for a tool, looked up by its tool name, then by its operationId."""
        found = match_override(self.overrides, tool_name)
        if found is None and operation_id and operation_id != tool_name:
            found = match_override(self.overrides, operation_id)
        return found

    def secrets(self) -> tuple[str, ...]:
        """Every credential value this source holds, for scrubbing messages and results."""
        values = [*(self.auth.secrets() if self.auth else ()), *(v for v in self.headers.values() if len(v) >= 4)]
        values += secret_values([*url_secrets(self.base_url or ""), *self.from_environment])
        return tuple(sorted(set(values), key=len, reverse=True))

    def describe(self) -> str:
        """One line for people, secrets hidden."""
        parts = [trust_words(self.trust, self.trust_from), f"prefix {json.dumps(self.prefix)}"]
        if self.auth:
            parts.append(self.auth.describe())
        if not self.enabled:
            parts.append("disabled")
        return f"{self.name}: openapi {redact_url(self.document)} ({'; '.join(parts)})"


@dataclass(frozen=True)
class PythonConfig(_ToolFilter):
    """A registry of Python tools served in the gateway.

    Attributes:
        name: its key in the config.
        registry: `module:attribute` of a `hintgate.tooldef.ToolRegistry` (or a list of `ToolDefinition`s).
        path: directories put on `sys.path` before importing (relative ones from the config file's directory).
    """

    kind: ClassVar[str] = "python"
    """The type of source this configures."""

    name: str
    registry: str
    path: tuple[str, ...] = ()


@dataclass(frozen=True)
class GatewayConfig:
    """A whole configuration file, validated.

    Attributes:
        sources: every configured source by name (disabled ones included),
            section by section in source-type order, each section in file order.
        inference_profile: the name of the inference profile to use.
        timeouts: the gateway-wide default time limits.
        env_allow: variable names stdio children inherit beyond `DEFAULT_ENV_ALLOW`.
        on_change: what happens to a quarantined tool (`integrity.onChange`): `ask` on every call, or `hide`.
        on_result_finding: what reaches the client when a tool result speaks to the model
            (`integrity.onResultFinding`): `mark`, `redact` or `block`.
        pins_file: a pins file (`integrity.pins`) whose definitions are accepted at start.
        scan_deadline: seconds of wall-clock time the poisoning scan of one long result or definition may take
            off the event loop (`integrity.scanDeadline`); what it has not read by then counts as flagged.
        source: the file it came from, if any.
        warnings: things that load but deserve a look, located like errors.
        identity: the identity provider whose users may use the gateway, or None: one operator, no users.
        metrics_by_user: `/metrics` counts calls by person too (`metrics.byUser`: a `user` label, one
            series per person, so off unless asked for).
        search: when the gateway lists its own `search_tools` and `call_tool` (`search`).
        views: the views the config defines (`views`), by name; the built-in ones are not here.
        limits: how much of each server's listing is served (`limits`).
    """

    sources: Mapping[str, SourceConfig] = field(default_factory=dict)
    inference_profile: str = "conservative"
    timeouts: Timeouts = field(default_factory=Timeouts)
    limits: ListingLimits = field(default_factory=ListingLimits)
    env_allow: tuple[str, ...] = ()
    on_change: str = "ask"
    on_result_finding: str = "redact"
    scan_deadline: float = 10.0
    pins_file: Path | None = None
    source: Path | None = None
    warnings: tuple[str, ...] = ()
    policy: tuple[PolicySettings, tuple[Rule, ...]] = (PolicySettings(), ())
    identity: IdentityConfig | None = None
    metrics_by_user: bool = False
    search: SearchSettings = field(default_factory=SearchSettings)
    views: Mapping[str, View] = field(default_factory=dict)

    @property
    def roles(self) -> Roles:
        """Whom the config names for each role on the management plane; without people, no one but the operator."""
        return self.identity.roles if self.identity is not None else Roles()

    @property
    def servers(self) -> Mapping[str, ServerConfig]:
        """The upstream MCP servers by name, in file order."""
        return MappingProxyType({n: c for n, c in self.sources.items() if isinstance(c, ServerConfig)})

    @property
    def openapi(self) -> Mapping[str, OpenApiConfig]:
        """The OpenAPI documents served as tools, by name."""
        return MappingProxyType({n: c for n, c in self.sources.items() if isinstance(c, OpenApiConfig)})

    @property
    def python(self) -> Mapping[str, PythonConfig]:
        """The Python tool registries served, by name."""
        return MappingProxyType({n: c for n, c in self.sources.items() if isinstance(c, PythonConfig)})


def redact_url(url: str) -> str:
    """Hide a password in the URL and every query value (API keys travel there)."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, host = netloc.rpartition("@")
        user = userinfo.split(":", 1)[0]
        netloc = f"{user}:{REDACTED}@{host}" if ":" in userinfo else f"{REDACTED}@{host}"
    query = "&".join(f"{item.split('=', 1)[0]}={REDACTED}" if "=" in item else item for item in parts.query.split("&"))
    return urlunsplit((parts.scheme, netloc, parts.path, query if parts.query else "", parts.fragment))


def trust_words(trust: Trust, trust_from: TrustFrom) -> str:
    """`local` or `local by default`: a trust level as config descriptions show it."""
    return f"{trust.value} by default" if trust_from is TrustFrom.ORIGIN else trust.value


def child_environment(server: ServerConfig, config: GatewayConfig, environ: Mapping[str, str]) -> dict[str, str]:
    """The complete environment for a stdio server's child process.

    The allow-listed variables (`DEFAULT_ENV_ALLOW` plus the config's
    `env.allow`) that are set in `environ`, then the server's own `env` on
    top. Nothing else from `environ` passes: a gateway holds many servers'
    secrets and each child gets only its own.
    """
    allowed = (*DEFAULT_ENV_ALLOW, *config.env_allow)
    if os.name == "nt":  # Windows variable names are case-insensitive
        by_upper = {k.upper(): k for k in environ}
        names = [by_upper[n.upper()] for n in allowed if n.upper() in by_upper]
    else:
        names = [n for n in allowed if n in environ]
    # A value starting "()" is an exported bash function: code, not data.
    env = {n: environ[n] for n in names if not environ[n].startswith("()")}
    if isinstance(server.transport, StdioTransport):
        env.update(server.transport.env)
    return env


def closest(word: str, choices: Collection[str]) -> str:
    """`; did you mean "x"?` naming the nearest of `choices`, or "" when none is near."""
    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f'; did you mean "{found[0]}"?' if found else ""


def freeze(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    """A read-only copy, so a frozen config stays frozen all the way down."""
    return MappingProxyType(dict(mapping))
