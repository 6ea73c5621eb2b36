"""The `mcpServers` entry a registry server's package or remote becomes.

A package hintgate can start becomes a command with its version pinned (`npx
-y PACKAGE@1.2.3`, `uvx PACKAGE==1.2.3`), so what runs is what was judged, and
a remote becomes its URL. What the publisher leaves to the user becomes a
`${VAR}` reference the config reader expands at load (never a value written
into the entry): a required input (a secret's value is never written, even
one the publisher gives), and one with a default as `${VAR:-default}`; an
optional one without a default is left out and said, so that an unset one
does not keep the entry from loading. A fixed value the publisher gives is
written as is (`$` doubled, so the reader keeps it). The entry carries where it
came from under `x-registry` (a key the reader ignores). The runner's own
arguments a publisher may give (`runtimeArguments`) are never used: hintgate
chooses how a package starts, and says so.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hintgate.registry.serverjson import Argument, EnvInput, Package, RegistryServer, Remote, shown_text

__all__ = ["RUNNERS", "Choice", "Needed", "choices", "default_choice", "entry_for"]

RUNNERS: Mapping[str, tuple[str, ...]] = {"npm": ("npx", "-y"), "pypi": ("uvx",)}
"""The command that starts a package of each registry hintgate can start, before the package's spec."""

_VARIABLE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True, slots=True)
class Needed:
    """Something the user gives a server through the environment: `${name}` in its entry.

    Attributes:
        name: the environment variable the entry refers to.
        what: what it feeds (`environment variable TOKEN`, `header X-API-Key`, `argument target_dir`).
        required: whether the server needs it (an optional one left unset is left out, or its default used).
        secret: whether it is a secret.
        default: the value used when it is unset, if any.
        description: what the publisher says it is.
    """

    name: str
    what: str
    required: bool
    secret: bool
    default: str | None = None
    description: str = ""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "variable": self.name,
            "for": self.what,
            "required": self.required,
            "secret": self.secret,
            "default": self.default,
            "description": shown_text(self.description),
        }


@dataclass(frozen=True, slots=True)
class Choice:
    """One way to add a registry server: one of its packages, or one of its remotes.

    Attributes:
        key: `package:N` or `remote:N` (N its index in the server.json).
        package: the package, for a package.
        remote: the remote, for a remote.
        unsupported: why hintgate cannot add it this way, or None when it can.
    """

    key: str
    package: Package | None = None
    remote: Remote | None = None
    unsupported: str | None = None

    @property
    def label(self) -> str:
        """`npm @scope/pkg@1.2.3 (stdio)`, `remote streamable-http https://...`, for people."""
        if self.package is not None:
            p = self.package
            return shown_text(f"{p.registry_type} {p.spec} ({p.transport})", 160)
        assert self.remote is not None
        return shown_text(f"remote {self.remote.transport} {self.remote.url}", 160)


def choices(server: RegistryServer) -> list[Choice]:
    """Every package and remote of `server`, each with why hintgate cannot use it (None when it can)."""
    found: list[Choice] = []
    for index, package in enumerate(server.packages):
        why = None
        if package.registry_type not in RUNNERS:
            why = f"hintgate starts npm and PyPI packages, not {shown_text(package.registry_type, 32)} ones"
        elif package.transport != "stdio":
            why = f"it serves {package.transport} once started; hintgate starts packages that speak stdio"
        found.append(Choice(f"package:{index}", package=package, unsupported=why))
    for index, remote in enumerate(server.remotes):
        found.append(Choice(f"remote:{index}", remote=remote))
    return found


def default_choice(server: RegistryServer, *, remote: bool = False) -> Choice | None:
    """The way to add `server` when none is named: its first package hintgate starts, else its first remote
    (the other way round with `remote`); None when it has neither."""
    usable = [c for c in choices(server) if c.unsupported is None]
    packages = [c for c in usable if c.package is not None]
    remotes = [c for c in usable if c.remote is not None]
    ordered = [*remotes, *packages] if remote else [*packages, *remotes]
    return ordered[0] if ordered else None


def _variable_name(text: str) -> str:
    """An environment variable name made from `text` (`X-API-Key` → `X_API_KEY`, `target dir` → `TARGET_DIR`)."""
    name = re.sub(r"[^A-Za-z0-9_]+", "_", text).strip("_").upper() or "VALUE"
    return f"_{name}" if name[0].isdigit() else name


def _literal(text: str) -> str:
    """`text` as the config reader keeps it: `$` doubled."""
    return text.replace("$", "$$")


class _Builder:
    """Collects an entry's `${VAR}` references as it writes them."""

    def __init__(self) -> None:
        self.needs: dict[str, Needed] = {}
        self.notes: list[str] = []

    def reference(self, name: str, what: str, given: EnvInput | Argument, default: str | None) -> str:
        """`${NAME}`, or `${NAME:-default}` when a default the reader can carry is given."""
        secret = given.secret
        self.needs.setdefault(
            name, Needed(name, what, given.required, secret, None if secret else default, given.description)
        )
        if default is not None and not secret and "}" not in default:
            return f"${{{name}:-{default}}}"  # the reader takes a default as written, up to the first }
        return f"${{{name}}}"

    def input_value(self, name: str, what: str, given: EnvInput) -> str | None:
        """The entry's value for an environment variable or header, or None to leave it out."""
        if given.value is not None and not given.secret:
            return _literal(given.value)
        if given.required or (given.default is not None and not given.secret):
            return self.reference(name, what, given, given.default)
        # Optional and without a default (an optional secret too): left out, so an unset one does not stop the
        # entry from loading; said in `needs`, to be added by whoever has a value.
        self.needs.setdefault(name, Needed(name, what, False, given.secret, None, given.description))
        return None

    def template(self, text: str, variables: Mapping[str, EnvInput], where: str) -> str:
        """`text` with each `{variable}` replaced by its value, default, or a `${VAR}` reference."""
        out: list[str] = []
        last = 0
        for match in _VARIABLE.finditer(text):
            out.append(_literal(text[last : match.start()]))
            last = match.end()
            name = match.group(1)
            given = variables.get(name)
            if given is None:
                out.append(_literal(match.group(0)))  # not a variable of the publisher's: left as written
            elif given.value is not None and not given.secret:
                out.append(_literal(given.value))
            else:
                out.append(self.reference(_variable_name(name), f"{where} variable {name}", given, given.default))
        out.append(_literal(text[last:]))
        return "".join(out)

    def argument(self, arg: Argument) -> list[str]:
        """The words an argument adds to the command line (none for an optional one nobody gave)."""
        label = arg.name or arg.value_hint or "argument"
        if arg.value is not None and not arg.secret:
            value = self.template(arg.value, arg.variables, f"argument {label}")
        elif arg.secret or arg.required or arg.default is not None:
            value = self.reference(
                _variable_name(arg.value_hint or arg.name or "argument"), f"argument {label}", arg, arg.default
            )
        else:
            return []
        if arg.kind == "named":
            assert arg.name is not None
            return [arg.name, value]
        return [value]


def entry_for(
    server: RegistryServer, choice: Choice, *, registry: str
) -> tuple[dict[str, Any], list[Needed], list[str]]:
    """The `mcpServers` entry `choice` of `server` becomes, what it needs from the environment, and notes.

    Args:
        server: the registry server.
        choice: one of `choices(server)` that hintgate can use.
        registry: the registry's URL, recorded in the entry's `x-registry`.

    Raises:
        ValueError: `choice` is one hintgate cannot use (its `unsupported` says why).
    """
    if choice.unsupported is not None:
        raise ValueError(choice.unsupported)
    build = _Builder()
    origin: dict[str, Any] = {"registry": registry, "name": server.name, "version": server.version, "use": choice.key}
    entry: dict[str, Any]
    if choice.package is not None:
        package = choice.package
        args = [*RUNNERS[package.registry_type], package.spec]
        for arg in package.arguments:
            args += build.argument(arg)
        entry = {"command": args[0], "args": args[1:]}
        env = {
            e.name: value
            for e in package.env
            if (value := build.input_value(e.name, f"environment variable {e.name}", e)) is not None
        }
        if env:
            entry["env"] = env
        if package.runtime_arguments:
            build.notes.append(
                f"{package.path}.runtimeArguments are not used: hintgate starts the package with "
                f"{' '.join(RUNNERS[package.registry_type])}"
            )
        if package.registry_base_url and package.registry_base_url.rstrip("/") not in _DEFAULT_BASES:
            build.notes.append(
                f"{package.path}.registryBaseUrl ({shown_text(package.registry_base_url, 80)}) is not used: "
                "the package comes from your own npm or pip configuration"
            )
    else:
        remote = choice.remote
        assert remote is not None
        entry = {"url": build.template(remote.url, remote.variables, "URL")}
        if remote.transport == "sse":
            entry["type"] = "sse"
        headers = {
            h.name: value
            for h in remote.headers
            if (value := build.input_value(_variable_name(h.name), f"header {h.name}", h)) is not None
        }
        if headers:
            entry["headers"] = headers
    entry["x-registry"] = origin
    return entry, list(build.needs.values()), build.notes


_DEFAULT_BASES = frozenset({"https://registry.npmjs.org", "https://pypi.org"})
