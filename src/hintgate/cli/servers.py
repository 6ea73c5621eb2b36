"""`hintgate servers`: list, add, edit, remove, enable and disable the servers of a running gateway.

The servers run in the gateway process, so these commands talk to it through
its REST API at `--url` (the address `serve --http` or `--dashboard` printed,
or `HINTGATE_URL`), with the API token when the gateway needs one: `--token`,
else `HINTGATE_API_TOKEN`, else the token the gateway keeps in its data
directory. A change is applied at once, only to that server, and kept in the
gateway's store, laid over its config file (docs/config.md).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Annotated, Any

import typer

from hintgate.cli.common import EXIT_USAGE, FormatOpt, OutputFormat, WideOpt, fail, name_values, out, spelt_out
from hintgate.cli.gateway_api import TokenOpt, UrlOpt, call_api, quoted
from hintgate.cli.registry_lookup import RegistryUrlOpt, RemoteOpt, UseOpt

__all__ = ["EntryOptions", "report_change", "servers_app", "trust_command"]

servers_app = typer.Typer(
    help="The servers of a running gateway: list, add, edit, remove, enable, disable.", no_args_is_help=True
)

NameArg = Annotated[str, typer.Argument(help="The server's name (its key under mcpServers).")]
CommandArgs = Annotated[
    list[str] | None,
    typer.Argument(help="`-- COMMAND [ARG...]`: a local server started as a child process.", show_default=False),
]
ServerUrlOpt = Annotated[str | None, typer.Option("--server-url", help="A remote server's URL (streamable HTTP).")]
HeaderOpt = Annotated[
    list[str] | None, typer.Option("--header", help="NAME=VALUE sent to a remote server (repeatable).")
]
EnvOpt = Annotated[list[str] | None, typer.Option("--env", help="NAME=VALUE for a local server (repeatable).")]
TrustOpt = Annotated[bool, typer.Option("--trusted", help="Believe the hints the server declares.")]
PrefixOpt = Annotated[str | None, typer.Option("--prefix", help="Its tools' name prefix (default: its name).")]
SseOpt = Annotated[bool, typer.Option("--sse", help="The remote server speaks the older SSE transport.")]
DisabledOpt = Annotated[bool, typer.Option("--disabled", help="Configure it without starting it.")]
EntryOpt = Annotated[
    str | None,
    typer.Option("--entry", help="The whole mcpServers entry as JSON (instead of the options above)."),
]
FromRegistryOpt = Annotated[
    str | None,
    typer.Option(
        "--registry",
        help="Add the server of this MCP registry name (namespace/name) from its server.json: its package at its "
        "version, or its remote; what it needs from the environment as ${VAR}.",
        show_default=False,
    ),
]


def _request(method: str, url: str, path: str, token: str | None, body: Any = None) -> Any:
    # Adding, editing or enabling a server waits for it to start.
    return call_api(method, url, path, token, body, timeout=120, refused="the server")


@dataclasses.dataclass(frozen=True)
class EntryOptions:
    """The options that describe a server's entry, the same for `servers add` and `servers edit`."""

    command: CommandArgs = None
    server_url: ServerUrlOpt = None
    header: HeaderOpt = None
    env: EnvOpt = None
    trusted: TrustOpt = False
    prefix: PrefixOpt = None
    sse: SseOpt = False
    disabled: DisabledOpt = False
    entry: EntryOpt = None

    def body(self, *, bare: bool = False) -> dict[str, Any]:
        """The mcpServers entry they describe (with `bare`, only trust, prefix and enabled)."""
        command, server_url = self.command, self.server_url
        if command and len(command) == 1 and command[0].startswith(("http://", "https://")) and server_url is None:
            server_url, command = command[0], None  # `add NAME https://...`: a remote server
        if self.entry is not None:
            given = self.header or self.env or self.trusted or self.prefix is not None or self.sse or self.disabled
            if command or server_url or given:
                fail(
                    "--entry gives the whole entry; leave out -- COMMAND, --server-url and the other options",
                    EXIT_USAGE,
                )
            try:
                parsed = json.loads(self.entry)
            except json.JSONDecodeError as exc:
                fail(f"--entry is not JSON: {exc}", EXIT_USAGE)
            if not isinstance(parsed, dict):
                fail("--entry must be a JSON object (an mcpServers entry)", EXIT_USAGE)
            return parsed
        body: dict[str, Any]
        if bare:
            body = {}
        elif bool(command) == (server_url is not None):
            fail(
                "give exactly one of -- COMMAND [ARG...] (a local server) and --server-url URL (a remote one)",
                EXIT_USAGE,
            )
        elif command:
            if self.header or self.sse:
                fail("--header and --sse are for a remote server (--server-url)", EXIT_USAGE)
            body = {"command": command[0], "args": command[1:]}
            if self.env:
                body["env"] = name_values(self.env, "--env")
        else:
            if self.env:
                fail("--env is for a local server (-- COMMAND)", EXIT_USAGE)
            body = {"url": server_url}
            if self.header:
                body["headers"] = name_values(self.header, "--header")
            if self.sse:
                body["type"] = "sse"
        if self.trusted:
            body["trust"] = "trusted"
        if self.prefix is not None:
            body["prefix"] = self.prefix
        if self.disabled:
            body["enabled"] = False
        return body


def _trust_line(server: dict[str, Any]) -> str:
    """The trust a server got, where it came from, what it does to its tools and how to change it, in one line."""
    from hintgate.hints.trust import Trust, TrustFrom, trust_note

    try:
        trust = Trust(server["trust"])
        source = TrustFrom(server.get("trust_from") or TrustFrom.CONFIG.value)
    except (KeyError, ValueError):
        return f"trust: {server.get('trust')}"
    # trust_note says nothing of a trusted server (there is nothing to change); the line still says its level.
    return trust_note(server["name"], trust, source) or f"{server['name']}: {trust.value} ({source.phrase}): " + (
        f"{trust.meaning} as declared"
    )


def report_change(result: dict[str, Any], verb: str, name: str, output: OutputFormat) -> None:
    """Print what a change of a running gateway's servers did: the server's state, what kept running, and notes."""
    console = out()
    if output is OutputFormat.JSON:
        console.print_json(json.dumps(result))
        return
    from hintgate.cli.layout import counted

    server = result.get("server")
    if server is None:
        line = f"{verb} server {name!r}"
    else:
        state = server["status"]["state"]
        reason = f" ({server['status']['reason']})" if server["status"].get("reason") else ""
        line = f"{verb} server {name!r}: {state}{reason}, {counted(server['tools'], 'tool')}"
    diff = result["diff"]
    if diff["unchanged"]:
        line += f"; left running: {', '.join(diff['unchanged'])}"
    console.print(line, markup=False, highlight=False, soft_wrap=True)
    if server is not None and (verb in ("added", "edited") or verb.startswith("trust")):
        console.print(_trust_line(server), markup=False, highlight=False, soft_wrap=True)
    for warning in result.get("warnings", []):
        console.print(f"warning: {warning}", markup=False, highlight=False, soft_wrap=True)
    if not result.get("persisted", True):
        console.print(
            "note: the change lasts until the gateway stops: it keeps runtime changes only over a config"
            " file and with recording on (not --demo, --python or --no-record)",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )


def _render(rows: list[dict[str, Any]], *, width: int, wide: bool = False) -> Any:
    from hintgate.cli.layout import Column, fit_table

    columns = [
        Column("server"),
        Column("state"),
        Column("tools", justify="right"),
        Column("origin", priority=2),
        Column("change", priority=3, cut=True, wrap=True),
        Column("reason", priority=1, cut=True, wrap=True),
    ]
    cells = []
    for s in rows:
        change = s.get("change") or {}
        cells.append(
            [
                s["name"],
                s["status"]["state"],
                str(s["tools"]),
                s.get("origin", "config"),
                f"{change['action']} by {change.get('changed_by', '?')}" if change.get("action") else "",
                s["status"].get("reason") or "",
            ]
        )
    return fit_table(columns, cells, width=width, wide=wide, title="servers")


@servers_app.command("list")
def servers_list(
    url: UrlOpt, token: TokenOpt = None, output: FormatOpt = OutputFormat.TEXT, wide: WideOpt = False
) -> None:
    """Every server: state, tools, where it is defined (config file or runtime), the runtime change in force."""
    from hintgate.cli.common import emit_rows

    rows = _request("GET", url, "/api/servers", token)
    if output is OutputFormat.TEXT and not rows:
        out().print("the gateway has no servers", markup=False)
        return
    emit_rows(rows, output, _render, wide)


@servers_app.command("add")
@spelt_out
def servers_add(
    name: NameArg,
    url: UrlOpt,
    options: EntryOptions,
    registry: FromRegistryOpt = None,
    use: UseOpt = None,
    remote: RemoteOpt = False,
    registry_url: RegistryUrlOpt = None,
    token: TokenOpt = None,
    output: FormatOpt = OutputFormat.TEXT,
) -> None:
    """Add a server and start it: `add NAME -- COMMAND [ARG...]`, `add NAME https://...` for a remote one, or
    `add NAME --registry SERVER` from an MCP registry (see `hintgate registry show SERVER` first)."""
    if registry is not None:
        o = options
        if o.command or o.server_url or o.header or o.env or o.sse or o.entry is not None:
            fail("--registry gives the entry; leave out -- COMMAND, --server-url, --header, --env, --sse, --entry", 2)
        body, needs = _registry_entry(registry, use, remote, registry_url)
        body |= options.body(bare=True)
    else:
        if use is not None or remote or registry_url is not None:
            fail("--use, --remote and --registry-url go with --registry SERVER", EXIT_USAGE)
        body = options.body()
        needs = []
    result = _request("POST", url, "/api/servers", token, {"name": name, **body})
    report_change(result, "added", name, output)
    if needs and output is OutputFormat.TEXT:
        _needs_note(needs)


def _registry_entry(
    name: str, use: str | None, remote: bool, given_url: str | None
) -> tuple[dict[str, Any], list[Any]]:
    """The entry a registry server becomes, and what it reads from the gateway's environment."""
    from rich.console import Console

    from hintgate.cli.registry_lookup import chosen, fetched, registry_url
    from hintgate.registry.entry import entry_for

    url = registry_url(given_url)
    server = fetched(url, name)
    if server.status == "deleted":
        fail(f"{name}: the registry at {url} marks it deleted; not added", EXIT_USAGE)
    if server.status == "deprecated":
        message = f": {server.status_message}" if server.status_message else ""
        Console(stderr=True).print(
            f"warning: the registry marks {name} deprecated{message}", markup=False, highlight=False, soft_wrap=True
        )
    choice = chosen(server, use, remote)
    body, needs, notes = entry_for(server, choice, registry=url)
    for note in notes:
        Console(stderr=True).print(f"note: {note}", markup=False, highlight=False, soft_wrap=True)
    return body, needs


def _needs_note(needs: list[Any]) -> None:
    """Say which variables the added entry reads from the gateway's environment."""
    console = out()
    console.print("it reads from the gateway's environment:", markup=False, highlight=False)
    for need in needs:
        state = "required" if need.required else "optional"
        console.print(
            f"  ${{{need.name}}}  {need.what}, {state}{', secret' if need.secret else ''}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )


@servers_app.command("edit")
@spelt_out
def servers_edit(
    name: NameArg, url: UrlOpt, options: EntryOptions, token: TokenOpt = None, output: FormatOpt = OutputFormat.TEXT
) -> None:
    """Replace a server's whole definition (the same options as add); it restarts, the others are left alone."""
    result = _request("PUT", url, f"/api/servers/{quoted(name)}", token, options.body())
    report_change(result, "edited", name, output)


def _simple(verb: str, method: str, suffix: str) -> Any:
    def command(name: NameArg, url: UrlOpt, token: TokenOpt = None, output: FormatOpt = OutputFormat.TEXT) -> None:
        result = _request(method, url, f"/api/servers/{quoted(name)}{suffix}", token)
        report_change(result, verb, name, output)

    return command


servers_app.command("remove", help="Stop a server and remove it (a config file's server stays removed until reset).")(
    _simple("removed", "DELETE", "")
)
servers_app.command("enable", help="Start a disabled server.")(_simple("enabled", "POST", "/enable"))
servers_app.command("disable", help="Stop a server but keep it configured.")(_simple("disabled", "POST", "/disable"))
servers_app.command("reset", help="Drop a server's runtime change: the config file's entry applies again.")(
    _simple("reset", "POST", "/reset")
)


LevelOpt = Annotated[
    str,
    typer.Option(
        "--level",
        help="trusted: its declared hints count as declared; local: unless strong evidence says a tool is riskier; "
        "untrusted: only when they make a tool look riskier.",
    ),
]


def trust_command(
    name: NameArg,
    url: UrlOpt,
    level: LevelOpt = "trusted",
    token: TokenOpt = None,
    output: FormatOpt = OutputFormat.TEXT,
) -> None:
    """Believe the hints a server of a running gateway declares (or set another trust level with --level).

    Its tools are resolved again with the new level; the change is kept in the
    gateway's store over its config file until `hintgate servers reset NAME`.
    """
    from hintgate.hints.trust import Trust

    levels = [trust.value for trust in Trust]
    if level not in levels:
        fail(f"--level {level!r}: expected one of {', '.join(levels)}", EXIT_USAGE)
    result = _request("POST", url, f"/api/servers/{quoted(name)}/trust", token, {"trust": level})
    report_change(result, f"trust {level}:", name, output)
