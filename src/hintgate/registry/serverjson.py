"""A registry's server.json, read as hostile input: every field checked, every problem named by its JSON path.

The MCP Registry API (`/v0.1/servers`) answers `ServerResponse` objects: the
publisher's `server` (the server.json: `name`, `description`, `version`,
`packages`, `remotes`...) and the registry's `_meta` (its status). `read_server`
turns one into a `RegistryServer`, or raises `ServerJsonError` naming the JSON
path of the first problem. What hintgate would run is held to more than the
schema asks: an npm or PyPI package name must be a valid name of that registry
and its version an exact one (no range, no tag), so a package named like an
option (`--registry=...`) or a moving target (`latest`) is refused before
anything runs. Lengths and counts are bounded, and the texts people are shown
go through `shown_text`, which drops control characters and bidirectional
overrides a terminal or a page would act on.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hintgate.errors import ServerJsonError

__all__ = [
    "MAX_ITEMS",
    "MAX_TEXT",
    "NAME_RE",
    "Argument",
    "EnvInput",
    "Package",
    "RegistryServer",
    "Remote",
    "read_server",
    "shown_text",
]

MAX_TEXT = 4096
"""The longest string accepted in a server.json (descriptions, values, URLs)."""
MAX_ITEMS = 64
"""The most items accepted in any one list of a server.json (packages, arguments, variables...)."""

NAME_RE = re.compile(r"[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+")
"""A server's name: reverse-DNS namespace, one slash, name (the registry's own pattern), 3 to 200 characters."""

# npm: lower case, URL-safe, optionally scoped, at most 214 characters, never starting with . or _ (npm's rules).
_NPM_NAME = re.compile(r"(?:@[a-z0-9~-][a-z0-9._~-]*/)?[a-z0-9~-][a-z0-9._~-]*")
# An exact semantic version, as npm publishes them (no range, no tag such as `latest`).
_NPM_VERSION = re.compile(
    r"\d+\.\d+\.\d+(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?"
)
# PyPI: a PEP 508 distribution name (letters, digits, `.`, `_`, `-`; starting and ending with a letter or digit).
_PYPI_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")
# A PEP 440 public version (epoch, release, pre, post, dev), no local part, no wildcard.
_PYPI_VERSION = re.compile(
    r"(?:\d+!)?\d+(?:\.\d+)*(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?\d*)?"
    r"(?:-\d+|[-_.]?(?:post|rev|r)[-_.]?\d*)?(?:[-_.]?dev[-_.]?\d*)?",
    re.IGNORECASE,
)
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # an HTTP token (RFC 9110)
_FLAG = re.compile(r"-{1,2}[A-Za-z0-9][A-Za-z0-9._-]*")

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
_SPACES = re.compile(r"\s+")


def shown_text(text: str | None, limit: int = 300) -> str:
    """`text` safe to show a person: control and bidirectional formatting characters removed, spaces collapsed,
    at most `limit` characters (an ellipsis marks a cut)."""
    if not text:
        return ""
    clean = _SPACES.sub(" ", _CONTROL.sub("", unicodedata.normalize("NFC", text))).strip()
    return clean if len(clean) <= limit else clean[: limit - 1] + "…"


@dataclass(frozen=True, slots=True)
class EnvInput:
    """An environment variable a package reads, or a header a remote takes (a registry `KeyValueInput`).

    Attributes:
        name: the variable's or header's name.
        description: what it is for, as the publisher says.
        required: whether the server needs it.
        secret: whether it holds a secret (a token, a password): never written into an entry, only `${VAR}`.
        value: a fixed value the publisher gives (never a secret one).
        default: the value to use when none is given.
        choices: the values allowed, if the publisher lists them.
    """

    name: str
    description: str = ""
    required: bool = False
    secret: bool = False
    value: str | None = None
    default: str | None = None
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Argument:
    """A command-line argument of a package: positional (`value_hint`) or named (`name`, a flag).

    Attributes:
        kind: `positional` or `named`.
        name: the flag, for a named argument.
        value_hint: what a positional argument is (`target_dir`), for people and for a `${VAR}` name.
        value: its value as given (may hold `{variable}` references to `variables`).
        default: the value when none is given.
        required: whether the server needs it.
        secret: whether it holds a secret.
        variables: `{name}` references in `value`, each an input of its own.
        description: what it is for.
    """

    kind: str
    name: str | None = None
    value_hint: str | None = None
    value: str | None = None
    default: str | None = None
    required: bool = False
    secret: bool = False
    variables: Mapping[str, EnvInput] = field(default_factory=dict)
    description: str = ""


@dataclass(frozen=True, slots=True)
class Package:
    """One way to run the server locally: a package of a package registry.

    Attributes:
        path: its JSON path in the registry's answer (`$.server.packages[0]`).
        registry_type: `npm`, `pypi`, `oci`, `nuget`, `mcpb`... (hintgate runs `npm` and `pypi`).
        identifier: the package's name (checked for npm and PyPI).
        version: the exact version (checked for npm and PyPI).
        registry_base_url: the package registry the publisher names (hintgate uses the user's own configuration).
        runtime_hint: the runner the publisher suggests (`npx`, `uvx`...).
        transport: `stdio`, `streamable-http` or `sse`.
        arguments: the package's own arguments (`packageArguments`).
        runtime_arguments: arguments for the runner (`runtimeArguments`): shown, never used.
        env: the environment variables it reads.
    """

    path: str
    registry_type: str
    identifier: str
    version: str | None
    registry_base_url: str | None = None
    runtime_hint: str | None = None
    transport: str = "stdio"
    arguments: tuple[Argument, ...] = ()
    runtime_arguments: tuple[Argument, ...] = ()
    env: tuple[EnvInput, ...] = ()

    @property
    def spec(self) -> str:
        """The package at its version as its registry's tools write it (`pkg@1.2.3`, `pkg==1.2.3`)."""
        if self.version is None:
            return self.identifier
        return (
            f"{self.identifier}=={self.version}"
            if self.registry_type == "pypi"
            else f"{self.identifier}@{self.version}"
        )


@dataclass(frozen=True, slots=True)
class Remote:
    """One way to reach the server over the network.

    Attributes:
        path: its JSON path in the registry's answer.
        transport: `streamable-http` or `sse`.
        url: the URL (a template: `{variable}` references to `variables`).
        headers: the headers it takes.
        variables: the URL's variables.
    """

    path: str
    transport: str
    url: str
    headers: tuple[EnvInput, ...] = ()
    variables: Mapping[str, EnvInput] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RegistryServer:
    """A server as a registry describes it (its server.json) and the registry's word on it.

    Attributes:
        name: its registry name (`io.github.owner/server`).
        description: what it does, as its publisher says.
        version: the server's version.
        title: its display name, if any.
        website: its website, if any.
        repository: its source repository's URL, if any.
        packages: the packages that run it locally.
        remotes: the URLs that serve it.
        status: `active`, `deprecated` or `deleted` (the registry's `_meta`), None when not said.
        status_message: why, for a deprecated or deleted one.
        published_at: when it was first published, as the registry says (RFC 3339).
        raw: the server.json as received (for `--format json`).
    """

    name: str
    description: str
    version: str
    title: str | None = None
    website: str | None = None
    repository: str | None = None
    packages: tuple[Package, ...] = ()
    remotes: tuple[Remote, ...] = ()
    status: str | None = None
    status_message: str | None = None
    published_at: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict)


class _Reader:
    """Reads one `ServerResponse`; every check names the JSON path of what it checks."""

    def __init__(self, root: str) -> None:
        self.root = root

    @staticmethod
    def fail(path: str, message: str) -> ServerJsonError:
        return ServerJsonError(path, message)

    def obj(self, value: Any, path: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(path, f"expected an object, got {_kind(value)}")
        return value

    def text(self, m: Mapping[str, Any], key: str, path: str, *, required: bool = False, limit: int = MAX_TEXT) -> Any:
        here = f"{path}.{key}"
        if key not in m or m[key] is None:
            if required:
                raise self.fail(here, "missing (required)")
            return None
        value = m[key]
        if not isinstance(value, str):
            raise self.fail(here, f"expected a string, got {_kind(value)}")
        if "\x00" in value:
            raise self.fail(here, "holds a NUL character")
        if len(value) > limit:
            raise self.fail(here, f"longer than {limit} characters ({len(value)})")
        if required and not value.strip():
            raise self.fail(here, "empty (required)")
        return value

    def flag(self, m: Mapping[str, Any], key: str, path: str) -> bool:
        value = m.get(key, False)
        if value is None:
            return False
        if not isinstance(value, bool):
            raise self.fail(f"{path}.{key}", f"expected true or false, got {_kind(value)}")
        return value

    def items(self, m: Mapping[str, Any], key: str, path: str) -> list[tuple[str, Any]]:
        value = m.get(key)
        if value is None:
            return []
        here = f"{path}.{key}"
        if not isinstance(value, list):
            raise self.fail(here, f"expected a list, got {_kind(value)}")
        if len(value) > MAX_ITEMS:
            raise self.fail(here, f"more than {MAX_ITEMS} items ({len(value)})")
        return [(f"{here}[{i}]", item) for i, item in enumerate(value)]

    def input(self, value: Any, path: str, *, name_pattern: re.Pattern[str] | None, what: str) -> EnvInput:
        m = self.obj(value, path)
        name = self.text(m, "name", path, required=name_pattern is not None, limit=128) or ""
        if name_pattern is not None and not name_pattern.fullmatch(name):
            raise self.fail(f"{path}.name", f"{shown_text(name, 60)!r} is not a valid {what} name")
        secret = self.flag(m, "isSecret", path)
        fixed = self.text(m, "value", path)
        choices = tuple(
            self.text({"c": item}, "c", here, required=True, limit=256) for here, item in self.items(m, "choices", path)
        )
        return EnvInput(
            name=name,
            description=self.text(m, "description", path) or "",
            required=self.flag(m, "isRequired", path),
            secret=secret,
            value=fixed,
            default=self.text(m, "default", path),
            choices=choices,
        )

    def variables(self, m: Mapping[str, Any], path: str) -> dict[str, EnvInput]:
        given = m.get("variables")
        if given is None:
            return {}
        here = f"{path}.variables"
        found = self.obj(given, here)
        if len(found) > MAX_ITEMS:
            raise self.fail(here, f"more than {MAX_ITEMS} variables ({len(found)})")
        out: dict[str, EnvInput] = {}
        for key, value in found.items():
            if not isinstance(key, str) or not _ENV_NAME.fullmatch(key) or len(key) > 128:
                raise self.fail(here, f"{shown_text(str(key), 60)!r} is not a variable name (letters, digits, _)")
            out[key] = self.input(value, f"{here}.{key}", name_pattern=None, what="variable")
        return out

    def argument(self, value: Any, path: str) -> Argument:
        m = self.obj(value, path)
        kind = self.text(m, "type", path, required=True, limit=32)
        if kind not in ("positional", "named"):
            raise self.fail(f"{path}.type", f'expected "positional" or "named", got {shown_text(kind, 40)!r}')
        name = self.text(m, "name", path, required=kind == "named", limit=128)
        if kind == "named" and not _FLAG.fullmatch(name):
            raise self.fail(f"{path}.name", f"{shown_text(name, 60)!r} is not a command-line flag (-x, --name)")
        hint = self.text(m, "valueHint", path, limit=128)
        fixed = self.text(m, "value", path)
        if kind == "positional" and hint is None and fixed is None:
            raise self.fail(path, "a positional argument needs a value or a valueHint")
        return Argument(
            kind=kind,
            name=name,
            value_hint=hint,
            value=fixed,
            default=self.text(m, "default", path),
            required=self.flag(m, "isRequired", path),
            secret=self.flag(m, "isSecret", path),
            variables=self.variables(m, path),
            description=self.text(m, "description", path) or "",
        )

    def package(self, value: Any, path: str) -> Package:
        m = self.obj(value, path)
        registry_type = self.text(m, "registryType", path, required=True, limit=32)
        identifier = self.text(m, "identifier", path, required=True, limit=512)
        version = self.text(m, "version", path, limit=255)
        if registry_type == "npm":
            if len(identifier) > 214 or not _NPM_NAME.fullmatch(identifier):
                raise self.fail(f"{path}.identifier", f"{shown_text(identifier, 80)!r} is not a valid npm package name")
            if version is None or not _NPM_VERSION.fullmatch(version):
                raise self.fail(
                    f"{path}.version", f"{_version_shown(version)} is not an exact npm version (1.2.3); refused"
                )
        elif registry_type == "pypi":
            if len(identifier) > 200 or not _PYPI_NAME.fullmatch(identifier):
                raise self.fail(
                    f"{path}.identifier", f"{shown_text(identifier, 80)!r} is not a valid PyPI project name"
                )
            if version is None or not _PYPI_VERSION.fullmatch(version):
                raise self.fail(
                    f"{path}.version", f"{_version_shown(version)} is not an exact PyPI version (1.2.3); refused"
                )
        transport_given = m.get("transport")
        transport = "stdio"
        if transport_given is not None:
            t = self.obj(transport_given, f"{path}.transport")
            transport = self.text(t, "type", f"{path}.transport", required=True, limit=32)
            if transport not in ("stdio", "streamable-http", "sse"):
                raise self.fail(
                    f"{path}.transport.type",
                    f'expected "stdio", "streamable-http" or "sse", got {shown_text(transport, 40)!r}',
                )
        return Package(
            path=path,
            registry_type=registry_type,
            identifier=identifier,
            version=version,
            registry_base_url=self.text(m, "registryBaseUrl", path, limit=512),
            runtime_hint=self.text(m, "runtimeHint", path, limit=64),
            transport=transport,
            arguments=tuple(self.argument(item, here) for here, item in self.items(m, "packageArguments", path)),
            runtime_arguments=tuple(
                self.argument(item, here) for here, item in self.items(m, "runtimeArguments", path)
            ),
            env=tuple(
                self.input(item, here, name_pattern=_ENV_NAME, what="environment variable")
                for here, item in self.items(m, "environmentVariables", path)
            ),
        )

    def remote(self, value: Any, path: str) -> Remote:
        m = self.obj(value, path)
        transport = self.text(m, "type", path, required=True, limit=32)
        if transport not in ("streamable-http", "sse"):
            raise self.fail(f"{path}.type", f'expected "streamable-http" or "sse", got {shown_text(transport, 40)!r}')
        url = self.text(m, "url", path, required=True, limit=2048)
        if not re.fullmatch(r"(https?://|\{[A-Za-z_][A-Za-z0-9_]*\})\S+", url):
            raise self.fail(f"{path}.url", f"{shown_text(url, 80)!r} is not an http(s) URL or a URL template")
        return Remote(
            path=path,
            transport=transport,
            url=url,
            headers=tuple(
                self.input(item, here, name_pattern=_HEADER_NAME, what="header")
                for here, item in self.items(m, "headers", path)
            ),
            variables=self.variables(m, path),
        )

    def server(self, value: Any) -> RegistryServer:
        response = self.obj(value, self.root)
        path = f"{self.root}.server"
        if "server" not in response:
            raise self.fail(path, "missing (required): a registry answer wraps each server.json in `server`")
        m = self.obj(response["server"], path)
        name = self.text(m, "name", path, required=True, limit=200)
        if len(name) < 3 or not NAME_RE.fullmatch(name):
            raise self.fail(f"{path}.name", f"{shown_text(name, 80)!r} is not a registry server name (namespace/name)")
        repository = None
        if isinstance(m.get("repository"), Mapping):
            repository = self.text(m["repository"], "url", f"{path}.repository", limit=512)
        official = _official(response.get("_meta"))
        status = official.get("status") if isinstance(official.get("status"), str) else None
        message = official.get("statusMessage") if isinstance(official.get("statusMessage"), str) else None
        published = official.get("publishedAt") if isinstance(official.get("publishedAt"), str) else None
        return RegistryServer(
            name=name,
            description=self.text(m, "description", path, required=True),
            version=self.text(m, "version", path, required=True, limit=255),
            title=self.text(m, "title", path, limit=200),
            website=self.text(m, "websiteUrl", path, limit=512),
            repository=repository,
            packages=tuple(self.package(item, here) for here, item in self.items(m, "packages", path)),
            remotes=tuple(self.remote(item, here) for here, item in self.items(m, "remotes", path)),
            status=status,
            status_message=message,
            published_at=published,
            raw=m,
        )


def _official(meta: Any) -> Mapping[str, Any]:
    if not isinstance(meta, Mapping):
        return {}
    found = meta.get("io.modelcontextprotocol.registry/official")
    return found if isinstance(found, Mapping) else {}


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def _version_shown(version: str | None) -> str:
    return "no version" if version is None else repr(shown_text(version, 40))


def read_server(value: Any, path: str = "$") -> RegistryServer:
    """One `ServerResponse` (`{"server": {...}, "_meta": {...}}`) of a registry's answer, checked.

    Args:
        value: the decoded JSON.
        path: its JSON path in the answer (`$` for a server fetched alone, `$.servers[3]` in a list).

    Raises:
        ServerJsonError: a field is missing or holds what hintgate refuses, with its JSON path.
    """
    return _Reader(path).server(value)
