"""What the command line prints as tables (Rich, fitted to the console by `cli.layout`) and as JSON.

Inferred and served catalogs, `policy explain`, tool usage and the store's listings (sessions, calls,
overrides); lint reports have their own formats in `cli.lint_report`.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from rich.console import Console, Group, RenderableType
from rich.text import Text

from hintgate.cli.layout import Column, fit_table, short_id, when
from hintgate.hints.annotations import Hint, Origin, Resolution
from hintgate.hints.catalog import CatalogEntry, ResolvedTool
from hintgate.hints.trust import Trust, TrustFrom
from hintgate.policy.explain import ExplainRow
from hintgate.policy.principal import Approvers
from hintgate.policy.settings import Mode

if TYPE_CHECKING:
    from hintgate.server.discovery import ListingCost
    from hintgate.server.gateway import Gateway
    from hintgate.sources.openapi.operations import ToolSet

__all__ = [
    "call_outcome",
    "calls_text",
    "catalog_json",
    "catalog_text",
    "document_json",
    "document_notes",
    "explain_json",
    "explain_text",
    "gateway_document_notes",
    "infer_json",
    "infer_table",
    "listing_text",
    "overrides_text",
    "print_json",
    "sessions_text",
    "trust_cell",
]

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
        marker = f" [declared {str(resolved.distrusted).lower()}, {resolution.trust.set_aside}]" if wide else "*"
        text.append(marker, style="yellow")
    return text


# What the `*` of a set-aside declaration means, by the trust of the servers whose tools carry one.
_SET_ASIDE_NOTE = {
    Trust.UNTRUSTED: ("declared otherwise by an untrusted server", "hints an untrusted server declared otherwise"),
    Trust.LOCAL: (
        "declared otherwise, contradicted by strong evidence",
        "declarations contradicted by strong evidence",
    ),
}


def _set_aside_note(trusts: set[Trust], *, hidden: bool) -> str:
    said = [_SET_ASIDE_NOTE[t][1 if hidden else 0] for t in (Trust.UNTRUSTED, Trust.LOCAL) if t in trusts]
    if hidden:
        return f"* in hidden columns: {' and '.join(said)}, set aside"
    return f"* {'; or '.join(said)}: set aside"


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
    trusts = {t.resolution.trust for _, t in tools if any(t.resolution.hints[h].distrusted is not None for h in Hint)}
    if wide or not trusts:
        return table
    # The marks may all sit in columns dropped to fit the width: then the note says where they are.
    shown = Console(width=width, file=io.StringIO(), color_system=None)
    with shown.capture() as captured:
        shown.print(table)
    note = _set_aside_note(trusts, hidden="*" not in captured.get())
    return Group(table, Text(note, style="yellow"))


def infer_table(
    tools: Sequence[ResolvedTool], *, title: str | None = None, width: int = 80, wide: bool = False
) -> RenderableType:
    """Every tool's tier and resolved hints with their origin, fitted to `width` (all of it with `wide`)."""
    return _tools_table([(tool.name, tool) for tool in tools], title=title, width=width, wide=wide)


def infer_json(tools: Sequence[ResolvedTool]) -> str:
    """The `infer --format json` document: a list of tools with annotations and provenance."""
    return json.dumps([tool.to_json() for tool in tools], indent=2)


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
                for u in gateway.servers()
            ],
            "tools": [entry.to_json() for entry in gateway.tools()],
            "problems": list(gateway.catalog.problems),
            "listing": [cost.to_json() for cost in gateway.listing_costs()],
            **document_json(gateway),
        },
        indent=2,
    )


def _toolsets(gateway: Gateway) -> list[tuple[str, ToolSet]]:
    """(server name, the document it converted) for each OpenAPI source of the gateway that read its document."""
    from hintgate.sources.capabilities import ConvertsDocument

    return [
        (name, source.toolset)
        for name, source in gateway.sources.items()
        if isinstance(source, ConvertsDocument) and source.toolset is not None
    ]


def _shown_document(document: str) -> str:
    """A document as a person finds it: a file under the working directory relative to it, else as given."""
    if urlsplit(document).scheme in {"http", "https"}:
        return document
    path = Path(document)
    return str(path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path)


def document_notes(name: str, toolset: ToolSet) -> list[str]:
    """What an OpenAPI source's document deserves a look for, a line each: every operation it skipped and every
    part it read with a compromise, naming the source, its document, the JSON path and why.

    `OpenAPI source "shop" (shop.yaml): skipped $.paths./items.post.parameters[0]: ...`
    """
    label = f"OpenAPI source {json.dumps(name)} ({_shown_document(toolset.source)})"
    return [f"{label}: skipped {p}" for p in toolset.skipped] + [f"{label}: {p}" for p in toolset.warnings]


def gateway_document_notes(gateway: Gateway) -> list[str]:
    """`document_notes` for every OpenAPI source of a gateway that read its document."""
    return [note for name, toolset in _toolsets(gateway) for note in document_notes(name, toolset)]


def document_json(gateway: Gateway) -> dict[str, list[dict[str, str]]]:
    """The OpenAPI sources' skipped operations and compromises, as `hintgate openapi --format json` gives them,
    each with its server and document: `{"skipped": [...], "warnings": [...]}`."""

    def entries(kind: str) -> list[dict[str, str]]:
        return [
            {"server": name, "document": toolset.source, "pointer": p.pointer, "message": p.message}
            for name, toolset in _toolsets(gateway)
            for p in getattr(toolset, kind)
        ]

    return {"skipped": entries("skipped"), "warnings": entries("warnings")}


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
        [u.name, u.status.state.value, str(len(u.tools)), trust_cell(u.trust, u.trust_from)] for u in gateway.servers()
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
        for u in gateway.servers()
        if u.status.reason and u.status.state.value != "up"
    ]
    entries = list(gateway.tools())
    tools = _tools_table([(e.name, e.tool) for e in entries], title="tools", width=width, wide=wide)
    parts: list[RenderableType] = [servers, *reasons, Text(""), tools]
    parts.extend(Text(f"note: {p}", style="yellow") for p in gateway.catalog.problems)
    parts.extend([Text(""), listing_text(gateway.listing_costs(), width=width, wide=wide)])
    return Group(*parts)


def listing_text(costs: Sequence[ListingCost], *, width: int = 80, wide: bool = False) -> RenderableType:
    """What the whole catalog's `tools/list` costs a client in each search mode (the mode in force marked)."""
    columns = [
        Column("search mode"),
        Column("tools", justify="right"),
        Column("bytes", justify="right"),
        Column("tokens (est.)", justify="right"),
    ]
    rows: list[list[str | Text]] = [
        [
            f"{c.mode.value} (in force)" if c.current else c.mode.value,
            str(c.tools),
            f"{c.bytes:,}",
            f"{c.tokens:,}",
        ]
        for c in costs
    ]
    return fit_table(columns, rows, width=width, wide=wide, title="tools/list per search mode")


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
    parts: list[RenderableType] = [table]
    if configured is not None and configured in modes:
        parts.append(Text(f"* the configured mode ({configured.value})", style="dim"))
    # With --args: what the call does, as its arguments were judged (its tier above is the call's).
    parts += [Text(f"{row.tool} with these arguments: {row.does}") for row in rows if row.does is not None]
    return table if len(parts) == 1 else Group(*parts)


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
    if any(row.get("view") for row in rows):  # sessions served a view: say which (the others the whole catalog)
        columns.insert(2, Column("view", priority=2, cut=True))
        for row, line in zip(rows, cells, strict=True):
            line.insert(2, str(row.get("view") or ""))
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
