"""`hintgate auth`: log in to, look at and log out of the servers behind OAuth.

The logins are kept in the store (encrypted, see docs/security.md), where a
running gateway finds them: a server waiting in `needs_login` connects within
seconds of `hintgate auth login` finishing, in whatever process.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
import webbrowser
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console

from hintgate.cli.common import (
    EXIT_USAGE,
    GATEWAY_CONFIG,
    FormatOpt,
    OutputFormat,
    fail,
    load_or_fail,
    out,
    print_wide,
    with_store,
)

if TYPE_CHECKING:
    from hintgate.config.model import GatewayConfig, ServerConfig
    from hintgate.store.oauth_tokens import CredentialsVault

__all__ = ["auth_app"]

auth_app = typer.Typer(help="Log in to servers behind OAuth, see their logins, log out.", no_args_is_help=True)

T = TypeVar("T")

ConfigOpt = Annotated[Path, GATEWAY_CONFIG]
ServerArg = Annotated[str, typer.Argument(help="The server's name in the config.")]


def _with_credentials(work: Callable[[CredentialsVault], Awaitable[T]]) -> T:
    """Open the store the settings name, run `work` with its OAuth credentials, close it."""
    from hintgate.config.settings import Settings
    from hintgate.store.oauth_tokens import CredentialsVault, vault_key

    async def run(store: Any) -> T:
        settings = Settings.from_environ()  # with_store has read (and checked) it already
        return await work(CredentialsVault(store.credentials, vault_key(settings.state_key, settings.data_dir)))

    result: T = with_store(None, run)
    return result


def _oauth_servers(config: GatewayConfig) -> list[ServerConfig]:
    from hintgate.sources.oauth import oauth_of

    return [server for server in config.servers.values() if oauth_of(server) is not None]


def _server(config: GatewayConfig, name: str) -> ServerConfig:
    from hintgate.config.model import closest

    servers = _oauth_servers(config)
    found = next((s for s in servers if s.name == name), None)
    if found is None:
        if name in config.servers:
            fail(f"server {name!r} has no oauth block in the config: it does not log in", EXIT_USAGE)
        names = [s.name for s in servers]
        known = f" (servers behind OAuth: {', '.join(names)})" if names else " (no server has an oauth block)"
        fail(f"no server {name!r} in the config{closest(name, names)}{known}", EXIT_USAGE)
    return found


def _can_open_browser() -> bool:
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


@auth_app.command("login")
def auth_login(
    server: ServerArg,
    config: ConfigOpt,
    timeout: Annotated[
        float, typer.Option("--timeout", min=1, help="Seconds to wait for the browser to come back.")
    ] = 300.0,
    browser: Annotated[
        bool,
        typer.Option("--browser/--no-browser", help="Open the URL in a browser too (when there is a display)."),
    ] = True,
) -> None:
    """Log in to a server behind OAuth: prints the authorization URL and waits for the redirect.

    On a machine without a browser, open the URL anywhere that can reach the
    authorization server; the redirect must reach 127.0.0.1 on this machine
    (an SSH tunnel of the port does).
    """
    from hintgate.sources.oauth import login

    loaded = load_or_fail(config)
    chosen = _server(loaded, server)
    err = Console(stderr=True)

    async def show(url: str) -> None:
        err.print(f"Open this URL to log in to {chosen.name!r} (waiting up to {timeout:g} s):", highlight=False)
        print(url, flush=True)
        if browser and _can_open_browser():
            await asyncio.to_thread(webbrowser.open, url)

    async def run(credentials: CredentialsVault) -> None:
        await login(chosen, credentials, show_url=show, timeout=timeout)

    _with_credentials(run)
    err.print(f"Logged in to {chosen.name!r}; the tokens are kept encrypted in the store.", highlight=False)


@auth_app.command("status")
def auth_status(
    config: ConfigOpt,
    output: FormatOpt = OutputFormat.TEXT,
) -> None:
    """The servers behind OAuth and their logins: logged in (until when) or why a login is needed.

    A server that logs in per person (`oauth.perUser`) has a line for its shared login (person "-") and one
    for each person who logged in to it.
    """
    from hintgate.sources.oauth import login_state, oauth_of

    servers = _oauth_servers(load_or_fail(config))

    async def read(credentials: CredentialsVault) -> list[dict[str, Any]]:
        rows = []
        for server in servers:
            oauth = oauth_of(server)
            people = await credentials.people(server.name) if oauth is not None and oauth.per_user else {}
            ordered = sorted(people.items(), key=lambda item: (item[1][0] or item[0], item[0]))
            for person, name in [(None, None), *((key, named) for key, (named, _) in ordered)]:
                kept = credentials if person is None else credentials.person(person)
                state = await login_state(server, kept)
                rows.append(
                    {
                        "server": server.name,
                        "person": name or person,
                        "person_key": person,
                        "state": "logged_in" if state.logged_in else "needs_login",
                    }
                )
                rows[-1].update(state.to_json())
        return rows

    rows = _with_credentials(read) if servers else []
    console = out()
    if output is OutputFormat.JSON:
        console.print_json(json.dumps(rows))
        return
    if not rows:
        console.print("no server in the config has an oauth block", highlight=False)
        return
    print_wide(console, _status_table(rows, console.width), False)


def _status_table(rows: list[dict[str, Any]], width: int) -> Any:
    from rich.console import Group
    from rich.text import Text

    from hintgate.cli.layout import Column, fit_table

    now = time.time()

    def expires(row: dict[str, Any]) -> str:
        at = row["expires_at"]
        if not row["logged_in"]:
            return "-"
        if at is None:
            return "never"
        return "expired" if at <= now else f"in {_duration(at - now)}"

    table = fit_table(
        [
            Column("server"),
            Column("person", priority=1),
            Column("state"),
            Column("expires", priority=1),
            Column("refresh", priority=2),
        ],
        [
            [
                r["server"],
                r["person"] or "-",
                r["state"],
                expires(r),
                "yes" if r["refreshable"] else "no" if r["logged_in"] else "-",
            ]
            for r in rows
        ],
        width=width,
        wide=False,
        title="logins",
    )
    reasons = [Text(f"{r['server']}: {r['reason']}", style="red") for r in rows if r["reason"]]
    return Group(table, *reasons)


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.0f} h"


@auth_app.command("logout")
def auth_logout(
    server: ServerArg,
    user: Annotated[
        str | None,
        typer.Option(
            "--user",
            help="Forget this person's own login (a server with oauth.perUser): their name or key, as listed.",
        ),
    ] = None,
) -> None:
    """Forget a server's tokens and registered client (or one person's own login, with --user).

    A running gateway notices at its next ping of the server (15 s) and puts
    the server in needs_login; a person's forgotten login ends at their next call.
    """

    async def forget(credentials: CredentialsVault) -> bool:
        if user is None:
            return await credentials.forget(server)
        people = await credentials.people(server)
        # A person is their key; the name they had at their last login finds it when only one has that name.
        keys = [user] if user in people else [k for k, (name, _) in people.items() if name == user]
        if len(keys) > 1:
            fail(
                f"{len(keys)} people are named {user!r}: give one of their keys ({', '.join(sorted(keys))})", EXIT_USAGE
            )
        return bool(keys) and await credentials.person(keys[0]).forget(server)

    err = Console(stderr=True)
    if user is None:
        done = f"Logged out of {server!r}: its tokens are gone from the store."
        nothing = f"No login of {server!r} was kept; nothing to forget."
    else:
        done = f"Logged {user} out of {server!r}: their tokens are gone from the store."
        nothing = f"No login of {user} to {server!r} was kept; nothing to forget."
    err.print(done if _with_credentials(forget) else nothing, highlight=False)
