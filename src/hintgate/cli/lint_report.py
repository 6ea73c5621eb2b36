"""`hintgate lint`'s report in its four formats: text for people (Rich), JSON, SARIF 2.1.0 and Markdown."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from hintgate import __version__
from hintgate.cli.layout import Trimmed, counted
from hintgate.hints.annotations import Tier
from hintgate.hints.lint import RULES, LintReport, Severity, Span, origin_counts

__all__ = ["SARIF_SCHEMA", "lint_json", "lint_markdown", "lint_sarif", "lint_text"]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_INFO_URI = "https://github.com/hintgate/hintgate"
_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.NOTE: "cyan"}


def lint_text(report: LintReport) -> Trimmed:
    """The human report: findings per tool, then coverage and the tier table, no line ending in spaces."""
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
    return Trimmed(Group(*parts))


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
        _findings(counts),
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
        f"**{counted(len(report.tools), 'tool')}**, {report.annotated} annotated ({report.coverage:.0%}); "
        f"{_findings(counts)}.",
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


def _findings(counts: Mapping[Severity, int]) -> str:
    """`1 error, 5 warnings, 8 notes`: the findings of a report by severity."""
    nouns = ((Severity.ERROR, "error"), (Severity.WARNING, "warning"), (Severity.NOTE, "note"))
    return ", ".join(counted(counts[severity], noun) for severity, noun in nouns)
