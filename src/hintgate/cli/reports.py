"""What the command line prints: its reports as text (Rich tables), JSON, SARIF 2.1.0 and Markdown.

Lint reports, inferred and served catalogs, `policy explain`, tool usage and the store's listings
(sessions, calls, overrides); the tables are fitted to the console by `cli.layout`.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from hintgate import __version__
from hintgate.cli.layout import Column, fit_table, short_id, when
from hintgate.hints.annotations import Hint, Origin, Resolution, Tier
from hintgate.hints.catalog import CatalogEntry, ResolvedTool
from hintgate.hints.lint import RULES, LintReport, Severity, Span, origin_counts
from hintgate.hints.trust import Trust, TrustFrom
from hintgate.policy.explain import ExplainRow
from hintgate.policy.principal import Approvers
from hintgate.policy.settings import Mode

if TYPE_CHECKING:
    from hintgate.server.gateway import Gateway

__all__ = [
    "call_outcome",
    "calls_text",
    "catalog_json",
    "catalog_text",
    "explain_json",
    "explain_text",
    "infer_json",
    "infer_table",
    "lint_json",
    "lint_markdown",
    "lint_sarif",
    "lint_text",
    "overrides_text",
    "print_json",
    "sessions_text",
    "trust_cell",
]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_INFO_URI = "https://github.com/hintgate/hintgate"
_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.NOTE: "cyan"}
_SHORT = {
    Hint.READ_ONLY: "readOnly",
    Hint.DESTRUCTIVE: "destructive",
    Hint.IDEMPOTENT: "idempotent",
    Hint.OPEN_WORLD: "openWorld",
}


def _hint_cell(resolution: Resolution, hint: Hint, *, wide: bool = False) -> Text:
    """`true (declared)`; with `wide` the rule too; `*` marks a declaration set aside as untrusted."""
    resolved = resolution.hints[hint]
    text = Text("true" if resolved.value else "false", style="bold" if resolved.value else "")
    origin = resolved.provenance.origin
    shown = str(resolved.provenance) if wide else origin.value
    text.append(f" ({shown})", style="dim" if origin is Origin.DEFAULT else "")
    if resolved.distrusted is not None:
        marker = f" [declared {str(resolved.distrusted).lower()}, not trusted]" if wide else "*"
        text.append(marker, style="yellow")
    return text


_DISTRUST_NOTE = "* declared otherwise by an untrusted server: set aside"
_DISTRUST_HIDDEN = "* in hidden columns: hints an untrusted server declared otherwise, set aside"


def _hint_columns() -> list[Column]:
    # Which columns stay longest at 80 columns: the tier, readOnly (what decides the tier first, with its
    # origin), then the title people read; destructive is already in the tier, so it goes before the title.
    order = {Hint.READ_ONLY: 2, Hint.DESTRUCTIVE: 4, Hint.OPEN_WORLD: 5, Hint.IDEMPOTENT: 6}
    return [Column(_SHORT[hint], priority=order[hint]) for hint in Hint]


def _title_cell(tool: ResolvedTool) -> Text:
    """`derived: Update note`: where the title came from first, so that a cut title keeps it."""
    text = Text(f"{tool.title_origin.value}: ", style="dim")
    text.append(tool.title or "")
    return text


def _tools_table(
    tools: Sequence[tuple[str, ResolvedTool]], *, title: str | None, width: int, wide: bool
) -> RenderableType:
    columns = [
        Column("tool"),
        Column("tier", priority=1),
        *_hint_columns(),
        Column("title", priority=3, cut=True, minimum=18),
    ]
    rows = [
        [name, tool.tier.value, *(_hint_cell(tool.resolution, h, wide=wide) for h in Hint), _title_cell(tool)]
        for name, tool in tools
    ]
    table = fit_table(columns, rows, width=width, wide=wide, title=title)
    distrusted = any(t.resolution.hints[h].distrusted is not None for _, t in tools for h in Hint)
    if wide or not distrusted:
        return table
    # The marks may all sit in columns dropped to fit the width: then the note says where they are.
    shown = Console(width=width, file=io.StringIO(), color_system=None)
    with shown.capture() as captured:
        shown.print(table)
    note = _DISTRUST_NOTE if "*" in captured.get() else _DISTRUST_HIDDEN
    return Group(table, Text(note, style="yellow"))


def infer_table(
    tools: Sequence[ResolvedTool], *, title: str | None = None, width: int = 80, wide: bool = False
) -> RenderableType:
    """Every tool's tier and resolved hints with their origin, fitted to `width` (all of it with `wide`)."""
    return _tools_table([(tool.name, tool) for tool in tools], title=title, width=width, wide=wide)


def infer_json(tools: Sequence[ResolvedTool]) -> str:
    """The `infer --format json` document: a list of tools with annotations and provenance."""
    return json.dumps([tool.to_json() for tool in tools], indent=2)


def lint_text(report: LintReport) -> Group:
    """The human report: findings per tool, then coverage and the tier table."""
    parts: list[RenderableType] = []
    header = Text(f"hintgate lint: {report.target}", style="bold")
    if report.server:
        header.append(f"  ({report.server})", style="dim")
    parts.append(header)
    if report.trust is not None:
        parts.append(Text(f"trust: {report.trust}: {report.trust.level.meaning}", style="dim"))
    if report.findings:
        # One finding a few lines: a message wraps between words at any width, never inside a name.
        ordered = sorted(report.findings, key=lambda f: (-f.level.rank, f.tool or "", f.code))
        for finding in ordered:
            line = Text(f"{finding.level.value:<7}", style=_STYLE[finding.level])
            line.append(f" {finding.code} {finding.rule.id}", style="bold")
            if finding.tool:
                line.append(f"  {finding.tool}")
            message = finding.message if finding.span is None else f"{finding.message} (at {_at(finding.span)})"
            parts += [line, Padding(Text(message), (0, 0, 0, 8))]
    else:
        parts.append(Text("no findings", style="green"))
    if report.accepted:
        parts.append(Text(f"accepted by the baseline ({len(report.accepted)}):", style="bold"))
        for accepted in sorted(report.accepted, key=lambda a: (a.finding.tool or "", a.finding.code)):
            finding = accepted.finding
            line = Text(f"{'accepted':<9}", style="dim")
            line.append(f"{finding.code} {finding.rule.id}  {finding.tool or ''}")
            parts += [line, Padding(Text(f"because: {accepted.reason}", style="dim"), (0, 0, 0, 8))]
    parts.append(_summary_table(report))
    return Group(*parts)


def _at(span: Span) -> str:
    return f"{span.path}:{span.start}-{span.end}"


def _summary_table(report: LintReport) -> Table:
    counts = report.counts()
    table = Table(title="summary", show_header=True, header_style="bold", expand=False)
    table.add_column("tier")
    table.add_column("declared", justify="right")
    table.add_column("with inference", justify="right")
    declared, resolved = report.declared_tiers(), report.resolved_tiers()
    for tier in Tier:
        table.add_row(tier.value, str(declared[tier]), str(resolved[tier]))
    table.add_section()
    table.add_row("coverage", f"{report.annotated}/{len(report.tools)} annotated ({report.coverage:.0%})", "")
    table.add_row(
        "findings",
        f"{counts[Severity.ERROR]} errors, {counts[Severity.WARNING]} warnings, {counts[Severity.NOTE]} notes",
        "",
    )
    if report.accepted:
        table.add_row("accepted", f"{len(report.accepted)} by the baseline", "")
    return table


def lint_json(report: LintReport) -> str:
    """The `lint --format json` document."""
    return json.dumps(report.to_json(), indent=2)


def lint_sarif(report: LintReport, *, artifact_uri: str | None = None) -> str:
    """A SARIF 2.1.0 log with one run (usable by code-scanning services).

    Args:
        report: the lint report.
        artifact_uri: a file to attach results to (the tools JSON file or the
            config file); without it results carry logical locations only.
    """
    rules = list(RULES.values())
    index = {rule.code: i for i, rule in enumerate(rules)}
    results = []
    reasons: dict[int, str] = {}
    findings = list(report.findings)
    for accepted in report.accepted:
        reasons[len(findings)] = accepted.reason
        findings.append(accepted.finding)
    for number, finding in enumerate(findings):
        location: dict[str, Any] = {
            "logicalLocations": [
                {
                    "name": finding.tool or report.target,
                    "fullyQualifiedName": f"{report.server or report.target}/{finding.tool or ''}",
                    "kind": "function" if finding.tool else "module",
                }
            ]
        }
        if finding.span is not None:
            qualified = f"{report.server or report.target}/{finding.tool or ''}/{finding.span.path}"
            location["logicalLocations"].append(
                {"name": finding.span.path, "fullyQualifiedName": qualified, "kind": "member"}
            )
        if artifact_uri is not None:
            location["physicalLocation"] = {"artifactLocation": {"uri": artifact_uri}}
        result: dict[str, Any] = {
            "ruleId": finding.code,
            "ruleIndex": index[finding.code],
            "level": finding.level.value,
            "message": {"text": f"{finding.tool}: {finding.message}" if finding.tool else finding.message},
            "locations": [location],
            "partialFingerprints": {"hintgate/v1": f"{finding.code}:{finding.tool or ''}:{finding.hint or ''}"},
        }
        if finding.tool:
            result["properties"] = {"tool": finding.tool}
        if finding.span is not None:
            result.setdefault("properties", {})["span"] = finding.span.to_json()
            result["partialFingerprints"]["hintgate/v1"] += f":{finding.span.path}:{finding.span.start}"
        if number in reasons:
            # SARIF's own way to carry a finding accepted in a file beside the code.
            result["suppressions"] = [{"kind": "external", "status": "accepted", "justification": reasons[number]}]
        results.append(result)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "hintgate",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": _INFO_URI,
                        "rules": [
                            {
                                "id": rule.code,
                                "name": _pascal(rule.id),
                                "shortDescription": {"text": rule.summary},
                                "fullDescription": {"text": rule.summary},
                                "defaultConfiguration": {"level": rule.severity.value},
                                "properties": {"tags": ["mcp", "tool-annotations"]},
                            }
                            for rule in rules
                        ],
                    }
                },
                "automationDetails": {"id": f"hintgate/lint/{report.server or report.target}"},
                **({"properties": {"trust": report.trust.to_json()}} if report.trust else {}),
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2)


def _pascal(slug: str) -> str:
    return "".join(part.capitalize() for part in slug.split("-"))


def lint_markdown(report: LintReport) -> str:
    """A Markdown report, for pull-request comments and CI job summaries."""
    counts = report.counts()
    lines = [f"## hintgate lint: `{report.target}`", ""]
    if report.server:
        lines += [f"Server: {report.server}", ""]
    if report.trust is not None:
        lines += [f"Trust: {report.trust}: {report.trust.level.meaning}.", ""]
    lines += [
        f"**{len(report.tools)} tools**, {report.annotated} annotated ({report.coverage:.0%}); "
        f"{counts[Severity.ERROR]} errors, {counts[Severity.WARNING]} warnings, {counts[Severity.NOTE]} notes.",
        "",
        "| tier | declared | with inference |",
        "|---|---:|---:|",
    ]
    declared, resolved = report.declared_tiers(), report.resolved_tiers()
    lines += [f"| {t.value} | {declared[t]} | {resolved[t]} |" for t in Tier]
    origins = origin_counts(report.tools)
    lines += ["", "Tools with a hint from: " + ", ".join(f"{o.value} {n}" for o, n in origins.items()), ""]
    if report.findings:
        lines += ["| severity | code | tool | finding |", "|---|---|---|---|"]
        ordered = sorted(report.findings, key=lambda f: (-f.level.rank, f.tool or "", f.code))
        lines += [
            f"| {f.level.value} | {f.code} {f.rule.id} | `{f.tool or ''}` | {_md_escape(f.message)} |" for f in ordered
        ]
    else:
        lines.append("No findings.")
    if report.accepted:
        lines += [
            "",
            f"Accepted by the baseline ({len(report.accepted)}):",
            "",
            "| code | tool | reason |",
            "|---|---|---|",
        ]
        lines += [
            f"| {a.finding.code} {a.finding.rule.id} | `{a.finding.tool or ''}` | {_md_escape(a.reason)} |"
            for a in sorted(report.accepted, key=lambda a: (a.finding.tool or "", a.finding.code))
        ]
    return "\n".join(lines) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def print_json(console: Console, text: str) -> None:
    """Print JSON untouched by Rich's markup and wrapping."""
    console.file.write(text + "\n")


def catalog_json(gateway: Gateway) -> str:
    """The `hintgate tools --format json` document: servers with status, and every tool."""
    return json.dumps(
        {
            "servers": [
                {
                    "name": u.name,
                    "trust": u.trust.value,
                    "trust_from": u.trust_from.value,
                    "status": u.status.to_json(),
                    "tools": len(u.tools),
                }
                for u in gateway.sources.values()
            ],
            "tools": [entry.to_json() for entry in gateway.catalog.entries.values()],
            "problems": list(gateway.catalog.problems),
        },
        indent=2,
    )


def trust_cell(trust: Trust, trust_from: TrustFrom) -> str:
    """`local (by default)`, `trusted (runtime)`, `untrusted`: a server's trust and, unless the file set it, why."""
    if trust_from is TrustFrom.CONFIG:
        return trust.value
    return f"{trust.value} ({'by default' if trust_from is TrustFrom.ORIGIN else 'runtime'})"


def catalog_text(gateway: Gateway, *, width: int = 80, wide: bool = False) -> Group:
    """The resolved catalog for people: servers, then tools with tiers and hints."""
    columns = [
        Column("server"),
        Column("status", priority=1),
        Column("tools", priority=2, justify="right"),
        Column("trust", priority=3),
    ]
    rows = [
        [u.name, u.status.state.value, str(len(u.tools)), trust_cell(u.trust, u.trust_from)]
        for u in gateway.sources.values()
    ]
    servers = fit_table(columns, rows, width=width, wide=wide, title="servers")
    # A reason is a sentence: under the table it wraps between words instead of being cut.
    reasons = [
        Text(
            f"{u.name} needs an OAuth login: {u.status.reason}; run: hintgate auth login {u.name}"
            if u.status.state.value == "needs_login"
            else f"{u.name} is {u.status.state.value}: {u.status.reason}",
            style="red",
        )
        for u in gateway.sources.values()
        if u.status.reason and u.status.state.value != "up"
    ]
    entries = list(gateway.catalog.entries.values())
    tools = _tools_table([(e.name, e.tool) for e in entries], title="tools", width=width, wide=wide)
    parts: list[RenderableType] = [servers, *reasons, Text(""), tools]
    parts.extend(Text(f"note: {p}", style="yellow") for p in gateway.catalog.problems)
    return Group(*parts)


_VERDICT_STYLE = {"allow": "green", "ask": "yellow", "deny": "bold red"}


def explain_json(rows: Sequence[ExplainRow]) -> str:
    """The `policy explain --format json` document: one object per tool."""
    return json.dumps([row.to_json() for row in rows], indent=2)


def _answered_by(approvers: Approvers) -> str:
    """`group dba, not the caller` for a person's dry run (`ExplainRow.answerers`)."""
    return approvers.describe() + ("" if approvers.self_approval else ", not the caller")


def explain_text(
    rows: Sequence[ExplainRow],
    modes: Sequence[Mode],
    *,
    detailed: bool,
    configured: Mode | None = None,
    width: int = 80,
    wide: bool = False,
) -> RenderableType:
    """Per tool the verdict in each mode, the configured one marked `*`, and why it decides so.

    With `detailed` every mode's cell holds its reason and rule; otherwise a
    last column gives the configured mode's reason (when there is room for it).
    """
    # The verdicts are the point of this table; the tier goes before any mode does.
    columns = [Column("tool"), Column("tier", priority=len(modes) + 3)]
    columns += [
        Column(f"{mode.value}*" if mode == configured else mode.value, priority=1 + n, cut=detailed, wrap=True)
        for n, mode in enumerate(modes)
    ]
    # Whether its results would make later writes ask: "taints", and why when detailed.
    columns.append(Column("taints", priority=len(modes) + 4, cut=detailed, wrap=True))
    # The configured mode's reason gets a column when that mode is shown and cells do not already hold reasons.
    why = configured if configured in modes and not detailed else None
    if why is not None:
        columns.append(Column(f"why ({why.value})", priority=len(modes) + 2, cut=True, wrap=True, minimum=30))
    cells: list[list[str | Text]] = []
    for row in rows:
        line: list[str | Text] = [row.tool, row.tier.value]
        for mode in modes:
            decision = row.decisions[mode]
            cell = Text(decision.verdict.value, style=_VERDICT_STYLE.get(decision.verdict.value, ""))
            if detailed:
                cell.append(f"\n{decision.reason}\n({decision.source})", style="")
            if mode in row.answerers:
                cell.append(f"\nanswered by {_answered_by(row.answerers[mode])}", style="")
            line.append(cell)
        taints = row.taints
        line.append("" if taints is None else f"taints: {taints}" if detailed else "taints")
        if why is not None:
            line.append(row.decisions[why].reason)
        cells.append(line)
    table = fit_table(columns, cells, width=width, wide=wide, title="what each mode would do to a first call")
    if configured is None or configured not in modes:
        return table
    return Group(table, Text(f"* the configured mode ({configured.value})", style="dim"))


def usage_rows(entries: Iterable[CatalogEntry], usage: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per catalog entry: tool, tier, its recorded calls, errors, refusals, last use and median duration."""
    rows = []
    for entry in entries:
        used = usage.get(entry.name, {})
        rows.append(
            {
                "tool": entry.name,
                "tier": entry.tier.value,
                "calls": int(used.get("calls", 0)),
                "errors": int(used.get("errors", 0)),
                "denied": int(used.get("denied", 0)),
                "expired": int(used.get("expired", 0)),
                "last_used": used.get("last_used"),
                "p50_ms": used.get("p50_ms"),
            }
        )
    return rows


def usage_text(rows: Sequence[Mapping[str, Any]], *, width: int = 80, wide: bool = False) -> RenderableType:
    """`hintgate tools --usage` for people: each tool's calls, errors, last use and p50 duration."""
    columns = [
        Column("tool"),
        Column("tier", priority=5),
        Column("calls", priority=1, justify="right"),
        Column("errors", priority=2, justify="right"),
        Column("denied", priority=3, justify="right"),
        Column("expired", priority=6, justify="right"),
        Column("last used", priority=4),
        Column("p50 ms", priority=5, justify="right"),
    ]
    cells: list[list[str | Text]] = []
    for row in rows:
        p50 = row["p50_ms"]
        cells.append(
            [
                row["tool"],
                row["tier"],
                str(row["calls"]),
                str(row["errors"]),
                str(row.get("denied", 0)),
                str(row.get("expired", 0)),
                _time(row["last_used"], wide) if row["last_used"] else "never",
                "" if p50 is None else f"{p50:g}",
            ]
        )
    return fit_table(columns, cells, width=width, wide=wide, title="tool usage (recorded calls)")


def sessions_text(rows: Sequence[Mapping[str, Any]], *, width: int = 80, wide: bool = False) -> RenderableType:
    """Recent sessions for people: short ids and local times (whole ones with `wide`)."""
    columns = [
        Column("session"),
        Column("client", priority=2, cut=True),
        Column("status", priority=1),
        Column("started", priority=3),
        Column("ended", priority=6),
        Column("calls", priority=4, justify="right"),
        Column("tokens", priority=5, justify="right"),
        Column("replica", priority=7, cut=True),
    ]
    cells: list[list[str | Text]] = []
    for row in rows:
        client = " ".join(filter(None, (row.get("client_name"), row.get("client_version")))) or "?"
        cells.append(
            [
                str(row["id"]) if wide else short_id(row["id"]),
                client,
                str(row["status"]),
                _time(row.get("started_at"), wide),
                _time(row.get("ended_at"), wide),
                str(row.get("tool_call_count", 0)),
                str(row.get("total_tokens", 0)),
                str(row.get("replica") or ""),
            ]
        )
    _with_people(columns, cells, rows)
    return fit_table(columns, cells, width=width, wide=wide, title="sessions")


def _with_people(columns: list[Column], cells: list[list[str | Text]], rows: Sequence[Mapping[str, Any]]) -> None:
    """A `user` column after the first, when any row names a person (a gateway with an identity provider)."""
    if not any(row.get("user_name") for row in rows):
        return  # a gateway that knows no users: the table stays as it was
    columns.insert(1, Column("user", priority=1, cut=True))
    for row, line in zip(rows, cells, strict=True):
        line.insert(1, str(row.get("user_name") or ""))


def _time(value: object, wide: bool) -> str:
    return str(value or "") if wide else when(value)


def calls_text(rows: Sequence[Mapping[str, Any]], *, width: int = 80, wide: bool = False) -> RenderableType:
    """Recorded calls for people: when, server, tool, outcome, and why the policy decided as it did.

    At 80 columns the reason wraps between words instead of being cut: its
    end is where it names what would change the verdict.
    """
    columns = [
        Column("started", priority=3),
        Column("server", priority=2),
        Column("tool"),
        Column("outcome"),
        Column("why", priority=1, cut=True, wrap=True, minimum=28),
        Column("ms", priority=5, justify="right"),
        Column("error", priority=4, cut=True),
        Column("tier", priority=6),
        Column("session", priority=7),
    ]
    cells: list[list[str | Text]] = []
    for row in rows:
        decision = row.get("decision") or {}
        verdict = str(row.get("verdict") or "")
        session = str(row.get("session_id") or "")
        outcome = call_outcome(verdict, failed=row.get("error") is not None)
        cells.append(
            [
                _time(row.get("started_at"), wide),
                str(row.get("server_id") or ""),
                str(row.get("tool_name") or ""),
                Text(outcome, style=_OUTCOME_STYLE.get(outcome.rpartition(" ")[2], "")),
                str(decision.get("reason") or ""),
                f"{float(row.get('duration_ms') or 0):.1f}",
                str(row.get("error") or ""),
                str(row.get("tier") or ""),
                session if wide else short_id(session),
            ]
        )
    _with_people(columns, cells, rows)
    return fit_table(columns, cells, width=width, wide=wide, title="calls")


_OUTCOME_STYLE = {"ok": "green", "failed": "red", "denied": "bold red", "expired": "yellow", "withdrawn": "dim"}


def call_outcome(verdict: str, *, failed: bool) -> str:
    """What became of a recorded call, in a word or two: `ok`, `failed`, `approved, ok`, `denied`, `expired`..."""
    if verdict in ("deny", "denied"):
        return "denied"
    if verdict in ("expired", "withdrawn"):
        return verdict
    result = "failed" if failed else "ok"
    return f"approved, {result}" if verdict == "approved" else result


def overrides_text(rows: Sequence[Mapping[str, Any]], *, width: int = 80, wide: bool = False) -> RenderableType:
    """Stored overrides for people (a title override is a row of hint `title`)."""
    columns = [
        Column("tool"),
        Column("hint", priority=0),
        Column("value", priority=0),
        Column("by", priority=2, cut=True),
        Column("at", priority=1),
    ]
    cells: list[list[str | Text]] = [
        [
            str(row["tool"]),
            str(row["hint"]),
            str(row["value"]).lower() if isinstance(row["value"], bool) else str(row["value"]),
            str(row["updated_by"]),
            _time(row["updated_at"], wide),
        ]
        for row in rows
    ]
    return fit_table(columns, cells, width=width, wide=wide, title="stored overrides")
