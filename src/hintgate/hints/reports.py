"""Renderings of lint reports and inferred catalogs: text (Rich), JSON, SARIF 2.1.0, Markdown."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from hintgate import __version__
from hintgate.hints.annotations import Hint, Origin, Resolution, Tier
from hintgate.hints.catalog import ResolvedTool
from hintgate.hints.lint import RULES, LintReport, Severity, origin_counts

__all__ = [
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


def _hint_cell(resolution: Resolution, hint: Hint) -> Text:
    resolved = resolution.hints[hint]
    text = Text("true" if resolved.value else "false", style="bold" if resolved.value else "")
    origin = resolved.provenance.origin
    text.append(f" ({resolved.provenance})", style="dim" if origin is Origin.DEFAULT else "")
    if resolved.distrusted is not None:
        text.append(f" [declared {str(resolved.distrusted).lower()}, not trusted]", style="yellow")
    return text


def infer_table(tools: Sequence[ResolvedTool], *, title: str | None = None) -> Table:
    """A Rich table of every tool's resolved hints with provenance."""
    table = Table(title=title, show_lines=False, expand=False)
    table.add_column("tool", overflow="fold")
    table.add_column("title", overflow="fold")
    table.add_column("tier")
    for hint in Hint:
        table.add_column(_SHORT[hint], overflow="fold")
    for tool in tools:
        table.add_row(
            tool.name,
            tool.title or "",
            tool.tier.value,
            *(_hint_cell(tool.resolution, hint) for hint in Hint),
        )
    return table


def infer_json(tools: Sequence[ResolvedTool]) -> str:
    """The `infer --format json` document: a list of tools with annotations and provenance."""
    return json.dumps([tool.to_json() for tool in tools], indent=2)


def lint_text(report: LintReport) -> Group:
    """The human report: findings per tool, then coverage and the tier table."""
    parts: list[Any] = []
    header = Text(f"hintgate lint: {report.target}", style="bold")
    if report.server:
        header.append(f"  ({report.server})", style="dim")
    parts.append(header)
    if report.findings:
        table = Table(show_header=True, header_style="bold", expand=False)
        table.add_column("severity")
        table.add_column("code")
        table.add_column("tool", overflow="fold")
        table.add_column("finding", overflow="fold")
        ordered = sorted(report.findings, key=lambda f: (-f.level.rank, f.tool or "", f.code))
        for finding in ordered:
            table.add_row(
                Text(finding.level.value, style=_STYLE[finding.level]),
                f"{finding.code} {finding.rule.id}",
                finding.tool or "",
                finding.message,
            )
        parts.append(table)
    else:
        parts.append(Text("no findings", style="green"))
    parts.append(_summary_table(report))
    return Group(*parts)


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
    for finding in report.findings:
        location: dict[str, Any] = {
            "logicalLocations": [
                {
                    "name": finding.tool or report.target,
                    "fullyQualifiedName": f"{report.server or report.target}/{finding.tool or ''}",
                    "kind": "function" if finding.tool else "module",
                }
            ]
        }
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
    return "\n".join(lines) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def print_json(console: Console, text: str) -> None:
    """Print JSON untouched by Rich's markup and wrapping."""
    console.file.write(text + "\n")


def catalog_json(gateway: Any) -> str:
    """The `hintgate tools --format json` document: servers with status, and every tool."""
    return json.dumps(
        {
            "servers": [
                {"name": u.name, "trust": u.trust.value, "status": u.status.to_json(), "tools": len(u.tools)}
                for u in gateway.sources.values()
            ],
            "tools": [entry.to_json() for entry in gateway.catalog.entries.values()],
            "problems": list(gateway.catalog.problems),
        },
        indent=2,
    )


def catalog_text(gateway: Any) -> Group:
    """The resolved catalog for people: servers, then tools with tiers and hints."""
    servers = Table(title="servers", expand=False)
    for column in ("server", "trust", "status", "tools", "reason"):
        servers.add_column(column, overflow="fold")
    for upstream in gateway.sources.values():
        status = upstream.status
        servers.add_row(
            upstream.name, upstream.trust.value, status.state.value, str(len(upstream.tools)), status.reason or ""
        )
    entries = list(gateway.catalog.entries.values())
    parts: list[Any] = [servers, _served_table(entries)]
    parts.extend(Text(f"note: {p}", style="yellow") for p in gateway.catalog.problems)
    return Group(*parts)


def _served_table(entries: Sequence[Any]) -> Table:
    table = Table(title="tools", expand=False)
    table.add_column("tool", overflow="fold")
    table.add_column("title", overflow="fold")
    table.add_column("tier")
    for hint in Hint:
        table.add_column(_SHORT[hint], overflow="fold")
    for entry in entries:
        tool = entry.tool
        table.add_row(entry.name, tool.title or "", tool.tier.value, *(_hint_cell(tool.resolution, h) for h in Hint))
    return table


_VERDICT_STYLE = {"allow": "green", "ask": "yellow", "deny": "bold red"}


def explain_json(rows: Sequence[Any]) -> str:
    """The `policy explain --format json` document: one object per tool."""
    return json.dumps([row.to_json() for row in rows], indent=2)


def explain_text(rows: Sequence[Any], modes: Sequence[Any], *, detailed: bool) -> Table:
    """Per tool the verdict in each mode; with `detailed`, the reason and the rule too."""
    table = Table(title="what each mode would do to a first call", expand=False, show_lines=detailed)
    table.add_column("tool", overflow="fold")
    table.add_column("tier")
    for mode in modes:
        table.add_column(mode.value, overflow="fold")
    for row in rows:
        cells: list[Any] = [row.tool, row.tier.value]
        for mode in modes:
            decision = row.decisions[mode]
            cell = Text(decision.verdict.value, style=_VERDICT_STYLE.get(decision.verdict.value, ""))
            if detailed:
                cell.append(f"\n{decision.reason}\n({decision.source})", style="")
            cells.append(cell)
        table.add_row(*cells)
    return table


def sessions_text(rows: Sequence[Mapping[str, Any]]) -> Table:
    """Recent sessions for people."""
    table = Table(title="sessions", expand=False)
    for column in ("session", "client", "status", "started", "ended", "calls", "tokens"):
        table.add_column(column, overflow="fold")
    for row in rows:
        client = " ".join(filter(None, (row.get("client_name"), row.get("client_version")))) or "?"
        table.add_row(
            str(row["id"]),
            client,
            str(row["status"]),
            str(row.get("started_at") or ""),
            str(row.get("ended_at") or ""),
            str(row.get("tool_call_count", 0)),
            str(row.get("total_tokens", 0)),
        )
    return table


def calls_text(rows: Sequence[Mapping[str, Any]]) -> Table:
    """Recorded calls for people: tool, tier, verdict and why, duration, error."""
    table = Table(title="calls", expand=False)
    for column in ("started", "tool", "tier", "verdict", "why", "ms", "error"):
        table.add_column(column, overflow="fold")
    for row in rows:
        decision = row.get("decision") or {}
        verdict = str(row.get("verdict") or "")
        table.add_row(
            str(row.get("started_at") or ""),
            str(row.get("tool_name") or ""),
            str(row.get("tier") or ""),
            Text(verdict, style=_VERDICT_STYLE.get(verdict, "")),
            str(decision.get("reason") or ""),
            f"{float(row.get('duration_ms') or 0):.1f}",
            str(row.get("error") or ""),
        )
    return table


def overrides_text(rows: Sequence[Mapping[str, Any]]) -> Table:
    """Stored overrides for people."""
    table = Table(title="stored overrides", expand=False)
    for column in ("tool", "hint", "value", "by", "at"):
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(
            str(row["tool"]),
            str(row["hint"]),
            str(row["value"]).lower(),
            str(row["updated_by"]),
            str(row["updated_at"]),
        )
    return table
