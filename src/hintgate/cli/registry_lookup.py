"""What `hintgate registry` and `hintgate servers add --registry` share: which registry, one server, one way to add it.

The registry is `--registry-url`, else the `registry_url` setting
(`HINTGATE_REGISTRY_URL`), else the official one. A registry that cannot be
reached or answers garbage ends the command with exit 3; a name it does not
have, or a way to add a server it does not offer, with exit 2.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console

from hintgate.cli.common import EXIT_TARGET, EXIT_USAGE, fail
from hintgate.errors import ConfigError, NotInRegistry, RegistryError

if TYPE_CHECKING:
    from hintgate.registry.entry import Choice
    from hintgate.registry.serverjson import RegistryServer

__all__ = ["RegistryUrlOpt", "RemoteOpt", "UseOpt", "chosen", "fetched", "progress", "registry_url"]

RegistryUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--registry-url",
        help="The MCP registry (default: HINTGATE_REGISTRY_URL, else the official one).",
        show_default=False,
    ),
]
UseOpt = Annotated[
    str | None,
    typer.Option("--use", help="Which way to run it, as `show` lists them: package:N or remote:N.", show_default=False),
]
RemoteOpt = Annotated[bool, typer.Option("--remote", help="Prefer its remote (a URL) to its package.")]
T = TypeVar("T")


def registry_url(given: str | None) -> str:
    """The registry to ask: `--registry-url`, else the setting (`HINTGATE_REGISTRY_URL`), else the official one."""
    from hintgate.config.settings import Settings, registry_url_problem

    if given is not None:
        given = given.strip().rstrip("/")
        if (problem := registry_url_problem(given)) is not None:
            fail(f"--registry-url: {problem}", EXIT_USAGE)
        return given
    try:
        return Settings.from_environ().registry_url
    except ConfigError as exc:
        fail(str(exc), EXIT_USAGE)


def progress(work: Callable[[Callable[[str], None]], Coroutine[Any, Any, T]], first: str) -> T:
    """Run `work(step)` with a spinner on stderr whose text `step` changes; a registry error ends the command."""
    from rich.progress import Progress, SpinnerColumn, TextColumn

    with Progress(
        SpinnerColumn(), TextColumn("{task.description}"), console=Console(stderr=True), transient=True
    ) as bar:
        task = bar.add_task(first, total=None)
        try:
            return asyncio.run(work(lambda text: bar.update(task, description=text)))
        except NotInRegistry as exc:
            bar.stop()
            fail(str(exc), EXIT_USAGE)
        except RegistryError as exc:
            bar.stop()
            fail(str(exc), EXIT_TARGET)


def fetched(url: str, name: str) -> RegistryServer:
    """The latest server.json of `name` in the registry at `url`; a registry error ends the command."""
    from hintgate.registry.client import RegistryClient

    async def work(_: Callable[[str], None]) -> RegistryServer:
        return await RegistryClient(url).server(name)

    return progress(work, f"asking {url} for {name}")


def chosen(server: RegistryServer, use: str | None, remote: bool) -> Choice:
    """The way to add `server` named by `--use` (or the default one); a wrong or unusable one ends the command."""
    from hintgate.registry.entry import choices, default_choice

    if use is not None:
        found = {c.key: c for c in choices(server)}
        if use not in found:
            listed = ", ".join(found) or "none"
            fail(f"--use {use}: {server.name} has no {use} (it has: {listed})", EXIT_USAGE)
        choice = found[use]
        if choice.unsupported is not None:
            fail(f"--use {use}: {choice.unsupported}", EXIT_USAGE)
        return choice
    picked = default_choice(server, remote=remote)
    if picked is None:
        why = "; ".join(f"{c.key}: {c.unsupported}" for c in choices(server)) or "it lists no package and no remote"
        fail(f"{server.name} has no package hintgate starts and no remote ({why})", EXIT_USAGE)
    return picked
