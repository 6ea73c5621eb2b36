"""`hintgate registry`: servers in an MCP registry, judged before they are added (`search`, `show`).

The registry is `--registry-url`, else `HINTGATE_REGISTRY_URL`, else the
official one. `show` prints a server's server.json (packages, remotes, what
each needs from the environment), the `mcpServers` entry each would be added
as, and, when its package runs here, starts it in a scratch directory
(`hintgate.registry.trial`) and shows its tools with every hint's provenance,
the trust the gateway would give it and lint's findings. `hintgate servers
add NAME --registry SERVER` adds it to a running gateway (`cli/servers.py`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console, Group, RenderableType
from rich.text import Text

from hintgate.cli.common import (
    EXIT_TARGET,
    FormatOpt,
    OutputFormat,
    WideOpt,
    fail,
    name_values,
    out,
    print_wide,
)
from hintgate.cli.registry_lookup import RegistryUrlOpt, RemoteOpt, UseOpt, chosen, fetched, progress, registry_url
from hintgate.errors import ConfigError, PackageInstallError, TargetError

if TYPE_CHECKING:
    from hintgate.hints.lint import LintReport
    from hintgate.registry.entry import Needed
    from hintgate.registry.serverjson import RegistryServer
    from hintgate.registry.trial import Trial

__all__ = ["registry_app"]

registry_app = typer.Typer(
    help="Servers in an MCP registry, judged before you add them: search, show (then `servers add --registry`).",
    no_args_is_help=True,
)


def _summary(server: RegistryServer) -> dict[str, Any]:
    return {
        "name": server.name,
        "version": server.version,
        "title": server.title,
        "description": server.description,
        "status": server.status,
        "packages": [
            {
                "registryType": p.registry_type,
                "identifier": p.identifier,
                "version": p.version,
                "transport": p.transport,
            }
            for p in server.packages
        ],
        "remotes": [{"type": r.transport, "url": r.url} for r in server.remotes],
    }


def _ways(server: RegistryServer) -> str:
    kinds = [p.registry_type for p in server.packages] + ["remote" for _ in server.remotes]
    return ", ".join(dict.fromkeys(kinds)) or "-"


@registry_app.command("search")
def search(
    query: Annotated[str, typer.Argument(help="Part of the server's name (the registry matches names).")],
    limit: Annotated[int, typer.Option("--limit", min=1, max=100, help="How many servers at most.")] = 20,
    registry: RegistryUrlOpt = None,
    output: FormatOpt = OutputFormat.TEXT,
    wide: WideOpt = False,
) -> None:
    """Servers of the registry whose name holds QUERY, their latest version: what runs them (npm, pypi, remote)."""
    from hintgate.cli.layout import Column, fit_table
    from hintgate.registry.client import RegistryClient, SearchResult
    from hintgate.registry.serverjson import shown_text

    url = registry_url(registry)

    async def work(_: Callable[[str], None]) -> SearchResult:
        return await RegistryClient(url).search(query, limit=limit)

    found = progress(work, f"searching {url} for {query!r}")
    console = out()
    if output is OutputFormat.JSON:
        document = {
            "registry": url,
            "query": query,
            "servers": [_summary(s) for s in found.servers],
            "skipped": found.skipped,
            "more": found.more,
        }
        console.file.write(json.dumps(document, indent=2) + "\n")
        return
    warn = Console(stderr=True)
    for problem in found.skipped:
        warn.print(f"skipped: {problem}", markup=False, highlight=False, soft_wrap=True)
    if not found.servers:
        console.print(f"no server of {url} has {query!r} in its name", markup=False, highlight=False)
        return
    columns = [
        Column("server"),
        Column("version", priority=2),
        Column("via", priority=1),
        Column("description", priority=3, cut=True),
    ]
    rows = [
        [
            shown_text(s.name, 200),
            shown_text(s.version, 40),
            _ways(s),
            shown_text(s.description, 200) + (f" ({s.status})" if s.status not in (None, "active") else ""),
        ]
        for s in found.servers
    ]
    print_wide(console, fit_table(columns, rows, width=console.width, wide=wide), wide)
    if found.more:
        console.print(
            f"more servers match: narrow the query or ask for more (--limit {min(limit * 2, 100)})",
            style="dim",
            highlight=False,
        )


def _server_key(server: RegistryServer) -> str:
    """A config key for `server` (its name after the namespace), as `servers add` would be given."""
    import re

    tail = server.name.rpartition("/")[2]
    return re.sub(r"[^A-Za-z0-9_.-]", "_", tail)[:64] or "server"


def _trial_config(key: str, entry: dict[str, Any], given: dict[str, str], needs: list[Needed]) -> Any:
    """`entry` read by the config reader with only the values given for the trial; what is missing ends it."""
    from hintgate.config.loading import parse_config

    missing = [n for n in needs if n.required and n.name not in given and n.default is None]
    if missing:
        listed = ", ".join(f"{n.name} ({n.what}{', secret' if n.secret else ''})" for n in missing)
        raise PackageInstallError(
            f"to start it, give what it requires (your environment is not passed to it): {listed}; "
            "e.g. --env NAME=VALUE, or --no-run"
        )
    try:
        config = parse_config({"mcpServers": {key: entry}}, environ=given)
    except ConfigError as exc:
        raise PackageInstallError(f"its entry does not load: {exc}") from exc
    return config.servers[key]


def _needs_lines(needs: list[Needed]) -> list[Text]:
    from hintgate.registry.serverjson import shown_text

    lines = []
    for need in needs:
        state = "required" if need.required else "optional"
        extra = f", default {shown_text(need.default, 60)!r}" if need.default is not None else ""
        line = Text(f"    ${{{need.name}}}  ", style="bold")
        line.append(f"{need.what}, {state}{', secret' if need.secret else ''}{extra}")
        if need.description:
            line.append(f": {shown_text(need.description, 160)}", style="dim")
        lines.append(line)
    return lines


def _show_text(
    server: RegistryServer,
    url: str,
    options: list[dict[str, Any]],
    picked: str,
    trial: tuple[Trial, LintReport] | None,
    skipped: str | None,
    width: int,
) -> RenderableType:
    from hintgate.cli.lint_report import lint_text
    from hintgate.cli.reports import infer_table
    from hintgate.registry.serverjson import shown_text

    parts: list[RenderableType] = []
    head = Text(shown_text(server.name, 200), style="bold")
    head.append(f"  {shown_text(server.version, 40)}")
    if server.status and server.status != "active":
        head.append(f"  {server.status.upper()}", style="bold red")
    parts.append(head)
    if server.title:
        parts.append(Text(shown_text(server.title, 100)))
    parts.append(Text(shown_text(server.description, 400)))
    if server.status_message:
        parts.append(Text(f"registry: {shown_text(server.status_message, 300)}", style="red"))
    for label, value in (("repository", server.repository), ("website", server.website), ("registry", url)):
        if value:
            parts.append(Text(f"{label}: {shown_text(value, 200)}", style="dim"))
    parts.append(Text(""))
    for option in options:
        line = Text(f"{option['use']}  ", style="bold")
        line.append(option["label"])
        if option["use"] == picked:
            line.append("  (used)", style="green")
        parts.append(line)
        if option["unsupported"]:
            parts.append(Text(f"    not usable: {option['unsupported']}", style="dim"))
            continue
        if not option["runs_here"] and option["why_not_here"]:
            parts.append(Text(f"    not tried here: {option['why_not_here']}", style="dim"))
        parts.extend(_needs_lines(option["needs_objects"]))
        parts.append(Text("    entry:"))
        shown = json.dumps(option["entry"], indent=2, ensure_ascii=True)
        parts.append(Text("\n".join(f"      {line}" for line in shown.splitlines()), style="cyan"))
        for note in option["notes"]:
            parts.append(Text(f"    note: {note}", style="yellow"))
    parts.append(Text(""))
    if trial is not None:
        run, report = trial
        parts.append(Text(f"tried {picked} in a scratch directory: {run.command}", style="bold"))
        parts.append(infer_table(report.tools, title=f"{len(report.tools)} tools, hints with provenance", width=width))
        parts.append(lint_text(report))
    elif skipped:
        parts.append(Text(f"not tried: {skipped}", style="yellow"))
    parts.append(Text(f"to add it: hintgate servers add NAME --registry {server.name} --use {picked}", style="dim"))
    return Group(*parts)


@registry_app.command("show")
def show(
    name: Annotated[str, typer.Argument(help="The server's registry name, as `search` lists it (namespace/name).")],
    use: UseOpt = None,
    remote: RemoteOpt = False,
    env: Annotated[
        list[str] | None,
        typer.Option(
            "--env",
            help="NAME=VALUE for the trial: fills the entry's ${NAME} (your own environment is never passed).",
        ),
    ] = None,
    node_modules: Annotated[
        Path | None,
        typer.Option(
            "--node-modules",
            help="npm packages already installed (a project's node_modules): used instead of a download when one "
            "is the package at the version asked.",
        ),
    ] = None,
    run: Annotated[bool, typer.Option("--run/--no-run", help="Start its package here to list its tools.")] = True,
    timeout: Annotated[float, typer.Option("--timeout", min=1, help="Seconds to start it and list its tools.")] = 60.0,
    install_timeout: Annotated[
        float, typer.Option("--install-timeout", min=1, help="Seconds installing its package may take.")
    ] = 300.0,
    registry: RegistryUrlOpt = None,
    output: FormatOpt = OutputFormat.TEXT,
) -> None:
    """A registry server's server.json, the entry it would be added as, and its tools judged before you add it.

    Its package (npm through npx, PyPI in a temporary venv) is started in a
    scratch directory with only the allow-listed environment (HOME, PATH...)
    and the values given with --env; its tools are shown with their hints and
    where each came from, the trust the gateway would give it, and lint's
    findings. A remote is not contacted. Nothing is added.
    """
    from hintgate.hints.lint import LintTrust, lint_tools
    from hintgate.hints.trust import Trust
    from hintgate.registry.entry import choices, entry_for
    from hintgate.registry.trial import runs_here, tried

    url = registry_url(registry)
    given = name_values(env, "--env")
    server = fetched(url, name)
    picked = chosen(server, use, remote)
    options: list[dict[str, Any]] = []
    built: dict[str, tuple[dict[str, Any], list[Needed]]] = {}
    for choice in choices(server):
        option: dict[str, Any] = {
            "use": choice.key,
            "label": choice.label,
            "unsupported": choice.unsupported,
            "runs_here": False,
            "why_not_here": None,
            "entry": None,
            "needs": [],
            "needs_objects": [],
            "notes": [],
        }
        if choice.unsupported is None:
            entry, needs, notes = entry_for(server, choice, registry=url)
            built[choice.key] = (entry, needs)
            why = runs_here(choice.package, os.environ) if choice.package is not None else "a remote is not contacted"
            option.update(
                runs_here=why is None,
                why_not_here=why,
                entry=entry,
                needs=[n.to_json() for n in needs],
                needs_objects=needs,
                notes=notes,
            )
        options.append(option)
    trial: tuple[Trial, LintReport] | None = None
    skipped: str | None = None
    error: str | None = None
    if server.status == "deleted":
        skipped = "the registry marks it deleted"
    elif not run:
        skipped = "--no-run"
    elif picked.package is None:
        skipped = "a remote is not contacted before it is added; once added, its tools are judged as untrusted"
    else:
        package = picked.package
        entry, needs = built[picked.key]

        async def work(step: Callable[[str], None]) -> Trial:
            config = _trial_config(_server_key(server), entry, given, needs)
            return await tried(
                package,
                config,
                environ=os.environ,
                node_modules=node_modules,
                install_timeout=install_timeout,
                start_timeout=timeout,
                step=step,
            )

        try:
            done = progress(work, f"trying {package.spec}")
        except TargetError as exc:
            error = str(exc)
        else:
            trust = LintTrust(Trust.LOCAL, "default for a local command")
            report = lint_tools(done.tools, target=done.command, server=done.server, trust=trust)
            trial = (done, report)
    console = out()
    if output is OutputFormat.JSON:
        document = {
            "registry": {
                "url": url,
                "status": server.status,
                "statusMessage": server.status_message,
                "publishedAt": server.published_at,
            },
            "server": dict(server.raw),
            "options": [{k: v for k, v in o.items() if k != "needs_objects"} for o in options],
            "used": picked.key,
            "trial": None
            if trial is None
            else {"command": trial[0].command, "server": trial[0].server, "lint": trial[1].to_json()},
            "not_tried": skipped,
            "error": error,
        }
        console.file.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    else:
        console.print(_show_text(server, url, options, picked.key, trial, skipped, console.width))
    if error is not None:
        fail(f"trying {picked.label}: {error}", EXIT_TARGET)
