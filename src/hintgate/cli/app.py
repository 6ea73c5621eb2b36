"""The `hintgate` command: the composition root, kept thin.

Exit codes (every command):

| code | meaning |
|---|---|
| 0 | success; for `lint`, no finding at or above `--fail-on` |
| 1 | `lint` found a problem at or above `--fail-on` |
| 2 | usage error: a bad option, config file or expect file |
| 3 | the target failed: a server that does not start, times out or answers garbage, or a bad tools file |
| 4 | `serve` cannot listen on the `--http` or `--dashboard` address (in use, not allowed); nothing was started |
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlsplit

import typer
from rich.console import Console
from rich.markup import escape

from hintgate import __version__
from hintgate.cli.approvals import approvals_app
from hintgate.cli.auth import auth_app
from hintgate.cli.call import call
from hintgate.cli.common import (
    EXIT_FINDINGS,
    EXIT_TARGET,
    EXIT_USAGE,
    FormatOpt,
    OutputFormat,
    WideOpt,
    command_line,
    fail,
    out,
    print_wide,
    spelt_out,
    unwrapped_help,
    with_store,
)
from hintgate.cli.layout import counted
from hintgate.cli.pins import pins_app
from hintgate.cli.quarantine import quarantine_app
from hintgate.cli.registry import registry_app
from hintgate.cli.serve_command import ConfigFile, DemoFlag, serve
from hintgate.cli.servers import servers_app, trust_command
from hintgate.cli.serving import config_or_demo
from hintgate.cli.store_commands import calls, overrides_app, policy_reset, policy_stored, sessions
from hintgate.errors import (
    BaselineFileError,
    ConfigError,
    ExpectFileError,
    HintgateError,
    TargetError,
)

if TYPE_CHECKING:
    from hintgate.cli.targets import Listing
    from hintgate.config.model import GatewayConfig

__all__ = ["app"]

app = command_line()

config_app = typer.Typer(help="Work with gateway config files.", no_args_is_help=True)
app.add_typer(config_app, name="config")
policy_app = typer.Typer(
    help="See what the policy would do; list or reset the settings changed at run time.", no_args_is_help=True
)
app.add_typer(policy_app, name="policy")
policy_app.command("stored")(policy_stored)
policy_app.command("reset")(policy_reset)
app.add_typer(quarantine_app, name="quarantine", hidden=True)  # the older name of `pins held` / `accept --url`
app.add_typer(auth_app, name="auth")
app.add_typer(approvals_app, name="approvals")
app.add_typer(servers_app, name="servers")
app.add_typer(registry_app, name="registry")
app.command("trust")(trust_command)
app.add_typer(pins_app, name="pins")
app.command("call")(call)


class LintFormat(enum.StrEnum):
    """Output of `lint`."""

    TEXT = "text"
    JSON = "json"
    SARIF = "sarif"
    MARKDOWN = "markdown"


class FailOn(enum.StrEnum):
    """The least severe finding that makes `lint` exit 1."""

    ERROR = "error"
    WARNING = "warning"
    NEVER = "never"


TargetArgs = Annotated[
    list[str] | None,
    typer.Argument(
        help="`-- COMMAND [ARG...]` (stdio server), an http(s):// URL, or a JSON file with a tools/list result.",
        show_default=False,
    ),
]
ConfigOpt = Annotated[str | None, typer.Option("--config", help="A gateway config file (with --server).")]
ServerOpt = Annotated[str | None, typer.Option("--server", help="The server of --config to inspect.")]
TimeoutOpt = Annotated[float, typer.Option("--timeout", help="Seconds to wait for the server to start and answer.")]
ProfileOpt = Annotated[
    str | None,
    typer.Option("--profile", help="HTTP-method inference profile (default: the config's, else conservative)."),
]


@dataclasses.dataclass(frozen=True)
class TargetOptions:
    """Which tools `lint` and `infer` read: a target, or a config file and one of its servers."""

    target: TargetArgs = None
    config: ConfigOpt = None
    server: ServerOpt = None

    def listing(self, timeout: float) -> Listing:
        """The tools listed, read from a file or from the server started (a spinner on stderr meanwhile)."""
        from hintgate.cli.targets import fetch_listing, parse_target

        try:
            parsed = parse_target(self.target or [], config=self.config, server=self.server)
        except (ConfigError, TargetError) as exc:
            fail(str(exc), EXIT_USAGE)
        what = "reading" if parsed.file is not None else "starting and listing"
        # A spinner on stderr while a server starts; invisible when stderr is not a terminal.
        with Console(stderr=True).status(f"{what} {parsed.label}", spinner="dots"):
            try:
                return asyncio.run(fetch_listing(parsed, timeout=timeout))
            except TargetError as exc:
                error = exc
        return fail(str(error), EXIT_TARGET)  # after the spinner has stopped


@app.command()
@spelt_out
def lint(
    wanted: TargetOptions,
    expect: Annotated[
        Path | None,
        typer.Option("--expect", help="YAML file mapping tiers to tool names; fail on any mismatch."),
    ] = None,
    baseline: Annotated[
        Path | None,
        typer.Option("--baseline", help="YAML file of accepted findings (tool, code, reason): they do not fail."),
    ] = None,
    write_baseline: Annotated[
        Path | None,
        typer.Option(
            "--write-baseline",
            help="Write the findings that fail (and those --baseline accepts, with their reasons) to this file.",
        ),
    ] = None,
    output: Annotated[LintFormat, typer.Option("--format", help="Report format.")] = LintFormat.TEXT,
    fail_on: Annotated[
        FailOn,
        typer.Option("--fail-on", help="Least severe finding that fails (an --expect mismatch always fails)."),
    ] = FailOn.ERROR,
    timeout: TimeoutOpt = 30.0,
    profile: ProfileOpt = None,
) -> None:
    """Check a server's tool annotations: missing, contradictory, or at odds with what the tools do.

    A bare TARGET is linted with the trust the gateway would give it: a local
    command's declared hints count, a URL's do not; the report says which.
    """
    from hintgate.cli.lint_report import lint_json, lint_markdown, lint_sarif, lint_text
    from hintgate.cli.reports import print_json
    from hintgate.hints.baseline import apply_baseline, baseline_entries, baseline_text, load_baseline
    from hintgate.hints.lint import Severity, lint_tools, load_expect

    try:
        expected = load_expect(expect) if expect is not None else None
        accepted = load_baseline(baseline) if baseline is not None else []
    except (ExpectFileError, BaselineFileError) as exc:
        fail(str(exc), EXIT_USAGE)
    listing = wanted.listing(timeout)
    try:
        report = lint_tools(
            listing.tools,
            target=listing.target.label,
            server=listing.server,
            profile=listing.target.profile(profile),
            expect=expected,
            # What the gateway would do with this server: its config's trust, else the default for its origin.
            trust=listing.target.gateway_trust(),
            overrides=listing.target.overrides,
        )
    except HintgateError as exc:
        fail(str(exc), EXIT_USAGE)
    apply_baseline(report, accepted)
    threshold = None if fail_on is FailOn.NEVER else Severity(fail_on.value)
    if write_baseline is not None:
        entries = baseline_entries(report, threshold=threshold or Severity.WARNING, keep=accepted)
        try:
            write_baseline.write_text(baseline_text(entries), encoding="utf-8")
        except OSError as exc:
            fail(f"{write_baseline}: cannot write the baseline: {exc.strerror}", EXIT_USAGE)
        empty = sum(1 for _, reason in entries if not reason)
        todo = f"; give the {empty} empty reasons before using it with --baseline" if empty else ""
        Console(stderr=True).print(
            f"wrote {len(entries)} accepted findings to {write_baseline}{todo}", highlight=False, soft_wrap=True
        )
    console = out()
    if output is LintFormat.JSON:
        print_json(console, lint_json(report))
    elif output is LintFormat.SARIF:
        artifact = listing.target.file or (Path(wanted.config) if wanted.config else None)
        print_json(console, lint_sarif(report, artifact_uri=artifact.as_posix() if artifact else None))
    elif output is LintFormat.MARKDOWN:
        console.file.write(lint_markdown(report))
    else:
        console.print(lint_text(report))
    # Writing a baseline accepts what lint found, but not a tool outside the tier the expect file gives it.
    if report.fails(None if write_baseline is not None else threshold):
        raise typer.Exit(EXIT_FINDINGS)


@app.command()
@spelt_out
def infer(
    wanted: TargetOptions,
    ignore_declared: Annotated[
        bool,
        typer.Option("--ignore-declared", help="Do not use the tools' own annotations (measures inference)."),
    ] = False,
    output: FormatOpt = OutputFormat.TEXT,
    timeout: TimeoutOpt = 30.0,
    profile: ProfileOpt = None,
    wide: WideOpt = False,
) -> None:
    """Print every tool's four hints and title after resolution, with where each came from."""
    from hintgate.cli.reports import infer_json, infer_table, print_json
    from hintgate.hints.catalog import resolve_tool

    listing = wanted.listing(timeout)
    profile = listing.target.profile(profile)
    tools = []
    for raw in listing.tools:
        overrides, title = listing.target.overrides(str(raw.get("name", "")))
        try:
            tools.append(
                resolve_tool(
                    raw,
                    trust=listing.target.gateway_trust().level,
                    overrides=overrides,
                    title_override=title,
                    profile=profile,
                    ignore_declared=ignore_declared,
                )
            )
        except HintgateError as exc:
            fail(str(exc), EXIT_TARGET)
    console = out()
    if output is OutputFormat.JSON:
        print_json(console, infer_json(tools))
    else:
        title = listing.target.label + (f" ({listing.server})" if listing.server else "")
        print_wide(console, infer_table(tools, title=title, width=console.width, wide=wide), wide)


@config_app.command("check")
def config_check(file: Annotated[Path, typer.Argument(help="The config file to validate.")]) -> None:
    """Validate a config file without starting anything (local OpenAPI documents are read, not URLs)."""
    from hintgate.config.loading import check_config, load_config

    try:
        loaded = load_config(file)
        warnings = check_config(file)
    except ConfigError as exc:
        fail(str(exc), EXIT_USAGE)
    warnings.extend(_document_notes(loaded, str(file)))
    console = out()
    for warning in warnings:
        console.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False, soft_wrap=True)
    count = len(loaded.sources)
    console.print(
        f"[green]ok[/]: {escape(str(file))}: {count} server{'' if count == 1 else 's'}", highlight=False, soft_wrap=True
    )


def _document_notes(loaded: GatewayConfig, file: str) -> list[str]:
    """What a config's local OpenAPI documents deserve a look for: one that cannot be read or converted (the
    source would be down), each operation that would be skipped and each part read with a compromise, with its
    JSON path. URLs are not fetched."""
    from hintgate.cli.reports import document_notes
    from hintgate.sources.openapi.source import load_toolset

    notes = []
    for name, entry in loaded.openapi.items():
        if urlsplit(entry.document).scheme in {"http", "https"}:
            continue
        try:
            toolset = asyncio.run(load_toolset(entry))
        except HintgateError as exc:
            notes.append(f"{file}: OpenAPI source {json.dumps(name)} would be down: {exc}")
            continue
        notes.extend(f"{file}: {note}" for note in document_notes(name, toolset))
    return notes


app.command()(serve)


@app.command()
def tools(
    config: ConfigFile = None,
    demo: DemoFlag = False,
    output: FormatOpt = OutputFormat.TEXT,
    wide: WideOpt = False,
    usage: Annotated[
        bool, typer.Option("--usage", help="Instead of the hints: each tool's recorded calls, errors, last use, p50.")
    ] = False,
    db: Annotated[
        str | None, typer.Option("--db", help="With --usage: the database URL (default as for serve).")
    ] = None,
) -> None:
    """Start every configured server, and print the resolved catalog: names, titles, tiers, hints, provenance.

    The operations an OpenAPI document's source skipped, and the parts it read with a compromise, are warnings on
    stderr (with `--format json`, under its top-level `skipped` and `warnings` keys).
    Exits 3 when a server did not start (after printing what the others serve).
    """
    from hintgate.cli.reports import (
        catalog_json,
        catalog_text,
        gateway_document_notes,
        print_json,
        usage_rows,
        usage_text,
    )
    from hintgate.cli.serve import collect_catalog

    loaded = config_or_demo(config, demo)
    console = out()
    gateway = asyncio.run(collect_catalog(loaded, progress=output is OutputFormat.TEXT))
    if usage:

        async def read(store: Any) -> Any:
            return await store.tool_usage()

        rows = usage_rows(gateway.tools(), with_store(db, read))
        if output is OutputFormat.JSON:
            print_json(console, json.dumps(rows, indent=2))
        else:
            print_wide(console, usage_text(rows, width=console.width, wide=wide), wide)
    elif output is OutputFormat.JSON:
        print_json(console, catalog_json(gateway))
    else:
        print_wide(console, catalog_text(gateway, width=console.width, wide=wide), wide)
    if output is not OutputFormat.JSON:
        warn = Console(stderr=True)
        for note in gateway_document_notes(gateway):
            warn.print(f"warning: {note}", markup=False, highlight=False, soft_wrap=True)
    down = [u.name for u in gateway.servers() if u.status.state.value != "up"]
    if down:
        fail(f"{len(down)} of {len(gateway.sources)} servers are not up: {', '.join(down)}", EXIT_TARGET)


@app.command()
def openapi(
    document: Annotated[
        str, typer.Argument(help="An OpenAPI 3.0/3.1 or Swagger 2.0 document: a file or an http(s) URL.")
    ],
    output: FormatOpt = OutputFormat.TEXT,
    profile: ProfileOpt = None,
    base_url: Annotated[
        str | None, typer.Option("--base-url", help="Where calls would go (default: the document's first server).")
    ] = None,
    wide: WideOpt = False,
) -> None:
    """Print the tools a document becomes: names, titles, hints with provenance, and what was skipped."""
    from rich.console import Group
    from rich.text import Text

    from hintgate.cli.reports import infer_table, print_json
    from hintgate.hints.annotations import parse_annotations
    from hintgate.hints.catalog import ToolFacts, resolve_tool
    from hintgate.sources.openapi.convert import build_tools, decode_document
    from hintgate.sources.openapi.source import fetch_document

    try:
        data = asyncio.run(fetch_document(document))
        toolset = build_tools(decode_document(data, source=document), source=document)
        resolved = [
            resolve_tool(
                op.tool,
                profile=profile,
                facts=ToolFacts(
                    declared=parse_annotations(op.declared, tool=op.name) if op.declared is not None else None,
                    http_method=op.method,
                ),
            )
            for op in toolset.operations
        ]
    except ConfigError as exc:
        fail(str(exc), EXIT_USAGE)
    except HintgateError as exc:
        fail(str(exc), EXIT_TARGET)
    target = base_url or next(iter(toolset.servers), None)
    console = out()
    if output is OutputFormat.JSON:
        report = {
            "document": toolset.source,
            "version": toolset.version,
            "title": toolset.title,
            "base_url": target,
            "tools": [
                {**tool.to_json(), "method": op.method, "path": op.path, "operationId": op.operation_id}
                for op, tool in zip(toolset.operations, resolved, strict=True)
            ],
            "skipped": [{"pointer": p.pointer, "message": p.message} for p in toolset.skipped],
            "warnings": [{"pointer": p.pointer, "message": p.message} for p in toolset.warnings],
        }
        print_json(console, json.dumps(report, indent=2))
        return
    heading = f"{toolset.title or toolset.source} (OpenAPI {toolset.version}): {counted(len(resolved), 'tool')}"
    title = heading + (f", calls to {target}" if target else "")
    parts: list[Any] = [infer_table(resolved, title=title, width=console.width, wide=wide)]
    parts += [Text(f"skipped: {toolset.source}: {p}", style="yellow") for p in toolset.skipped]
    parts += [Text(f"note: {toolset.source}: {p}", style="dim") for p in toolset.warnings]
    print_wide(console, Group(*parts), wide)


@policy_app.command("explain")
def policy_explain(
    tools: Annotated[
        list[str] | None,
        typer.Argument(help="Only these tools: gateway names or globs (fs_write_file, 'git_*').", show_default=False),
    ] = None,
    config: ConfigFile = None,
    demo: DemoFlag = False,
    mode: Annotated[
        list[str] | None,
        typer.Option("--mode", help="Only this mode (repeatable): default, accept-edits, read-only, bypass."),
    ] = None,
    user: Annotated[
        str | None, typer.Option("--user", help="As this person would get them (their name, e.g. an email).")
    ] = None,
    group: Annotated[
        list[str] | None,
        typer.Option("--group", help="As a member of this group (repeatable)."),
    ] = None,
    arguments: Annotated[
        str | None,
        typer.Option(
            "--args",
            help="For a call with these arguments (a JSON object): judged by what they do, e.g. "
            '\'{"sql": "DROP TABLE users"}\'.',
        ),
    ] = None,
    output: FormatOpt = OutputFormat.TEXT,
    wide: WideOpt = False,
) -> None:
    """A dry run: every tool, the verdict it would get in each mode, and why (for a person: --user, --group)."""
    from hintgate.cli.reports import explain_json, explain_text, print_json
    from hintgate.cli.serve import collect_catalog
    from hintgate.hints.trust import trust_note
    from hintgate.policy.decide import Mode
    from hintgate.policy.explain import explain

    loaded = config_or_demo(config, demo)
    try:
        modes = tuple(Mode(m.replace("_", "-")) for m in mode) if mode else tuple(Mode)
    except ValueError:
        fail(f"--mode: expected one of {', '.join(m.value for m in Mode)}", EXIT_USAGE)
    given = _json_object(arguments, "--args") if arguments is not None else None
    gateway = asyncio.run(collect_catalog(loaded, progress=output is OutputFormat.TEXT))
    settings, rules = loaded.policy
    entries = list(gateway.tools())
    if tools:
        entries = _chosen_tools(entries, tools)
    who = None
    if user is not None or group:
        from hintgate.policy.principal import Principal, PrincipalKind

        who = Principal(user or "(any member)", PrincipalKind.USER, frozenset(group or ()))
    sources = gateway.servers()
    trust_from = {s.name: s.trust_from.value for s in sources}
    rows = explain(entries, settings, rules, modes, who, trust_from=trust_from, arguments=given)
    console = out()
    if output is OutputFormat.JSON:
        print_json(console, explain_json(rows))
    else:
        table = explain_text(rows, modes, detailed=bool(mode), configured=settings.mode, width=console.width, wide=wide)
        print_wide(console, table, wide)
        from rich.text import Text

        from hintgate.cli.layout import Trimmed

        shown = {row.server for row in rows}
        for source in sources:
            note = trust_note(source.name, source.trust, source.trust_from) if source.name in shown else None
            if note is not None:
                console.print(Trimmed(Text(f"server {note}", style="dim")))


def _json_object(text: str, option: str) -> dict[str, Any]:
    """A JSON object given on the command line, or a usage error naming the option and what was wrong."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"{option}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", EXIT_USAGE)
    if not isinstance(value, dict):
        fail(f"{option}: expected a JSON object (the call's arguments), got {type(value).__name__}", EXIT_USAGE)
    return value


def _chosen_tools(entries: list[Any], patterns: list[str]) -> list[Any]:
    """The entries named by `patterns` (names or globs); a pattern naming none fails with the nearest names."""
    import difflib

    from hintgate.hints.names import NameGlob

    chosen: dict[str, Any] = {}
    for pattern in patterns:
        glob = NameGlob(pattern)
        found = [e for e in entries if glob.matches(e.name)]
        if not found:
            near = difflib.get_close_matches(pattern, [e.name for e in entries], n=3, cutoff=0.5)
            hint = f"; did you mean {', '.join(near)}?" if near else " (`hintgate tools` lists them)"
            fail(f"no tool matches {pattern!r}{hint}", EXIT_USAGE)
        chosen.update((e.name, e) for e in found)
    return list(chosen.values())


app.command()(sessions)
app.command()(calls)
app.add_typer(overrides_app, name="overrides")


@app.command("demo-server")
def demo_server() -> None:
    """Run the bundled demo MCP server over stdio (a notebook in memory, no network)."""
    from hintgate.demo import main as demo_main

    demo_main()


@app.command()
def version() -> None:
    """Print hintgate's version."""
    out().print(f"hintgate {__version__}", highlight=False)


unwrapped_help(app)
