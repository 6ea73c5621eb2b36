"""The annotation linter: findings about a server's tools, each with a stable code.

Pure apart from `load_expect`, which reads a YAML file. Codes never change
meaning once released; new checks get new codes. The table of rules is
`RULES`; `docs/lint.md` is checked against it by a test.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hintgate.errors import ExpectFileError, HintTypeError
from hintgate.hints.annotations import Annotations, Hint, Inferred, Origin, Strength, Tier, resolve, tier_of
from hintgate.hints.catalog import ResolvedTool, name_problems, resolve_tool, tier_counts
from hintgate.hints.review import review_reasons
from hintgate.hints.titles import TitleOrigin
from hintgate.hints.trust import Trust
from hintgate.hints.yaml_file import read_errors
from hintgate.scan.poisoning import SCAN_RULES, Level, ScanFinding, scan_tool

__all__ = [
    "EXPECT_CODES",
    "RULES",
    "STALE_BASELINE",
    "Accepted",
    "Finding",
    "LintReport",
    "LintTrust",
    "Rule",
    "Severity",
    "Span",
    "declared_tier",
    "lint_tools",
    "load_expect",
]


class Severity(enum.StrEnum):
    """How bad a finding is; the names are SARIF's levels."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"

    @property
    def rank(self) -> int:
        """Higher is worse."""
        return {Severity.NOTE: 0, Severity.WARNING: 1, Severity.ERROR: 2}[self]


@dataclass(frozen=True, slots=True)
class Rule:
    """A lint check: stable code, short id, default severity, one-line summary."""

    code: str
    id: str
    severity: Severity
    summary: str


_OWN_RULES: Mapping[str, Rule] = {
    rule.code: rule
    for rule in (
        Rule("HG001", "no-annotations", Severity.WARNING, "The tool publishes no annotations at all."),
        Rule(
            "HG002",
            "missing-hints",
            Severity.NOTE,
            "Some of the four hints are not set; clients assume the defaults.",
        ),
        Rule("HG003", "missing-title", Severity.NOTE, "The tool has no human-readable title."),
        Rule("HG101", "hint-wrong-type", Severity.ERROR, "A hint is not a boolean (or the title not a string)."),
        Rule(
            "HG102",
            "unknown-annotation-key",
            Severity.NOTE,
            "The annotations carry a key the spec does not define.",
        ),
        Rule("HG103", "annotations-not-object", Severity.ERROR, "The annotations field is not a JSON object."),
        Rule(
            "HG201",
            "read-only-and-destructive",
            Severity.ERROR,
            "readOnlyHint is true and destructiveHint is explicitly true: a contradiction.",
        ),
        Rule(
            "HG202",
            "read-only-not-idempotent",
            Severity.WARNING,
            "readOnlyHint is true and idempotentHint is explicitly false.",
        ),
        Rule("HG203", "title-mismatch", Severity.WARNING, "annotations.title differs from Tool.title."),
        Rule(
            "HG301",
            "declared-read-only-but-writes",
            Severity.ERROR,
            "Declared read-only, but its name, description or schema say it writes: it would be auto-approved.",
        ),
        Rule(
            "HG302",
            "declared-additive-but-destructive",
            Severity.WARNING,
            "Declared not destructive, but its name, description or schema say it destroys or overwrites data.",
        ),
        Rule(
            "HG303",
            "declared-closed-but-open-world",
            Severity.WARNING,
            "Declared closed-world, but it appears to reach external systems.",
        ),
        Rule(
            "HG304",
            "declared-write-but-reads",
            Severity.NOTE,
            "Declared not read-only, but it looks read-only: clients will ask before every call.",
        ),
        Rule(
            "HG305",
            "declared-idempotent-disagrees",
            Severity.NOTE,
            "Declared idempotency disagrees with what the tool appears to do.",
        ),
        Rule(
            "HG306",
            "weak-evidence",
            Severity.WARNING,
            "An inferred hint rests only on weak or conflicting evidence: review it and set an override.",
        ),
        Rule(
            "HG307",
            "runs-code",
            Severity.WARNING,
            "The tool runs caller-supplied code, SQL, queries or commands: its hints cannot say what a call does.",
        ),
        Rule(
            "HG308",
            "distrusted-hint",
            Severity.WARNING,
            "The server is untrusted, so a declared hint that would make the tool look safer is not believed.",
        ),
        Rule("HG401", "invalid-name", Severity.ERROR, "The tool name has characters the spec does not allow."),
        Rule("HG402", "long-name", Severity.WARNING, "The tool name is longer than 64 characters."),
        Rule("HG403", "duplicate-name", Severity.ERROR, "Two tools share a name."),
        Rule("HG501", "expect-wrong-tier", Severity.ERROR, "The tool is not in the tier the expect file gives."),
        Rule("HG502", "expect-listed-twice", Severity.ERROR, "The expect file lists the tool in two tiers."),
        Rule(
            "HG503",
            "expect-missing-tool",
            Severity.ERROR,
            "The expect file lists a tool the server does not have.",
        ),
        Rule(
            "HG504",
            "expect-unlisted-tool",
            Severity.ERROR,
            "The server has a tool the expect file does not list.",
        ),
        Rule(
            "HG505",
            "baseline-stale",
            Severity.WARNING,
            "The baseline accepts a finding lint no longer makes: remove the entry.",
        ),
    )
}
EXPECT_CODES = frozenset({"HG501", "HG502", "HG503", "HG504"})
"""The expect-file checks: they fail the run whatever `--fail-on` says, and no baseline accepts them."""
STALE_BASELINE = "HG505"
"""The code of a baseline entry that accepts nothing."""
_SCAN_SEVERITY = {Level.HIGH: Severity.ERROR, Level.WARNING: Severity.WARNING, Level.INFO: Severity.NOTE}
RULES: Mapping[str, Rule] = dict(
    sorted(
        {
            **_OWN_RULES,
            # The poisoning scan's rules, a high finding being an error.
            **{c: Rule(c, r.id, _SCAN_SEVERITY[r.level], r.summary) for c, r in SCAN_RULES.items()},
        }.items()
    )
)


@dataclass(frozen=True, slots=True)
class Span:
    """Where in a tool a finding is: the JSON path of a text field and the offsets within that text."""

    path: str
    start: int
    end: int

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"path": self.path, "start": self.start, "end": self.end}


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem found, about one tool (or the whole listing when `tool` is None)."""

    code: str
    message: str
    tool: str | None = None
    hint: Hint | None = None
    severity: Severity | None = None
    span: Span | None = None

    @property
    def rule(self) -> Rule:
        """The rule this finding is an instance of."""
        return RULES[self.code]

    @property
    def level(self) -> Severity:
        """The finding's severity (the rule's default unless set)."""
        return self.severity or self.rule.severity

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "code": self.code,
            "rule": self.rule.id,
            "severity": self.level.value,
            "tool": self.tool,
            "hint": self.hint.value if self.hint else None,
            "message": self.message,
            "span": self.span.to_json() if self.span else None,
        }


@dataclass(frozen=True, slots=True)
class Accepted:
    """A finding a baseline accepts, with the reason its entry gives."""

    finding: Finding
    reason: str


@dataclass(frozen=True, slots=True)
class LintTrust:
    """The trust a target was linted with, as the gateway would give it, and where that came from.

    Attributes:
        level: the trust level the tools are resolved with.
        source: where it came from: ``set in the config file``, or the default
            for the target's origin (``default for a local command``,
            ``default for a URL``, ``default for a tools file``).
    """

    level: Trust
    source: str

    def __str__(self) -> str:
        return f"{self.level.value} ({self.source})"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"level": self.level.value, "source": self.source, "meaning": self.level.meaning}


@dataclass(slots=True)
class LintReport:
    """Everything `hintgate lint` found about one target.

    Attributes:
        target: what was linted.
        tools: its tools, resolved as the gateway would.
        findings: what lint found, less what a baseline accepts.
        server: the server's name and version, if known.
        trust: the trust the tools were resolved with, if known.
        accepted: the findings a baseline accepts; they never fail the run.
    """

    target: str
    tools: list[ResolvedTool]
    findings: list[Finding] = field(default_factory=list)
    server: str | None = None
    trust: LintTrust | None = None
    accepted: list[Accepted] = field(default_factory=list)

    @property
    def annotated(self) -> int:
        """Tools that declare at least one hint."""
        return sum(1 for t in self.tools if t.declared.set_hints())

    @property
    def coverage(self) -> float:
        """Annotated tools over all tools (1.0 for an empty listing)."""
        return self.annotated / len(self.tools) if self.tools else 1.0

    def declared_tiers(self) -> dict[Tier, int]:
        """Tools per tier from what the server declares alone."""
        counts = dict.fromkeys(Tier, 0)
        for tool in self.tools:
            counts[declared_tier(tool.declared)] += 1
        return counts

    def resolved_tiers(self) -> dict[Tier, int]:
        """Tools per tier once inference fills what the server left out."""
        return tier_counts(self.tools)

    def counts(self) -> dict[Severity, int]:
        """Findings per severity, every severity present."""
        counted = Counter(f.level for f in self.findings)
        return {s: counted.get(s, 0) for s in Severity}

    def worst(self) -> Severity | None:
        """The worst severity found, or None."""
        return max((f.level for f in self.findings), key=lambda s: s.rank, default=None)

    def fails(self, fail_on: Severity | None) -> bool:
        """True when a finding is at least as bad as `fail_on` (None: never), or an expect-file check failed.

        The expect file is the check its user asked for: a tool out of its tier
        fails the run even with ``--fail-on never``, which only silences the
        findings lint volunteers.
        """
        if any(f.code in EXPECT_CODES for f in self.findings):
            return True
        worst = self.worst()
        return fail_on is not None and worst is not None and worst.rank >= fail_on.rank

    def to_json(self) -> dict[str, Any]:
        """The `lint --format json` document."""
        return {
            "target": self.target,
            "server": self.server,
            "trust": self.trust.to_json() if self.trust else None,
            "summary": {
                "tools": len(self.tools),
                "annotated": self.annotated,
                "coverage": round(self.coverage, 4),
                "findings": {s.value: n for s, n in self.counts().items()},
                "accepted": len(self.accepted),
                "tiers": {
                    "declared": {t.value: n for t, n in self.declared_tiers().items()},
                    "resolved": {t.value: n for t, n in self.resolved_tiers().items()},
                },
            },
            "findings": [f.to_json() for f in self.findings],
            "accepted": [{**a.finding.to_json(), "reason": a.reason} for a in self.accepted],
            "tools": [t.to_json() for t in self.tools],
        }


def declared_tier(declared: Annotations) -> Tier:
    """A tool's tier from its declared hints alone (no inference)."""
    return tier_of(resolve(declared=declared, trust=Trust.TRUSTED))


def lint_tools(
    tools: Sequence[Mapping[str, Any]],
    *,
    target: str,
    server: str | None = None,
    profile: str | None = None,
    expect: Mapping[Tier, Sequence[str]] | None = None,
    trusted: bool = True,
    trust: LintTrust | None = None,
    overrides: Callable[[str], tuple[Mapping[Hint, bool], str | None]] | None = None,
    others: Mapping[str, str] | None = None,
) -> LintReport:
    """Lint a tools/list result.

    Args:
        tools: the tool objects as the server listed them.
        target: what was linted, for the report.
        server: the server's name and version, if known.
        profile: the HTTP-method inference profile.
        expect: tier → tool names, from an expect file.
        trusted: whether the server's declared hints are believed, when `trust` is not given.
        trust: the trust the gateway would give the server (from its config,
            else by where it runs); the tools are resolved with it, and the
            report says which was used.
        overrides: tool name → the config's (hint overrides, title), so the
            resolved hints and tiers are the gateway's.
        others: tool name → server for other servers' tools, so a
            description that uses one is reported (HG615).

    The tools of the listing are each other's siblings for the scan: a description that orders a call to one of them
    orders the server's own workflow, as the gateway reads it.
    """
    level = trust.level if trust is not None else None
    report = LintReport(target=target, tools=[], server=server, trust=trust)
    findings = report.findings
    siblings = frozenset(str(raw.get("name", "")) for raw in tools)
    for raw in tools:
        name = str(raw.get("name", ""))
        hints, title = overrides(name) if overrides is not None else ({}, None)
        options: dict[str, Any] = {
            "trusted": trusted,
            "trust": level,
            "profile": profile,
            "overrides": hints,
            "title_override": title,
        }
        try:
            resolved = resolve_tool(raw, **options)
        except HintTypeError:
            findings.append(Finding("HG103", f"annotations is {type(raw.get('annotations')).__name__}", name))
            resolved = resolve_tool({**raw, "annotations": None}, **options)
        report.tools.append(resolved)
        findings.extend(_tool_findings(resolved))
        findings.extend(_scan_finding(f, name) for f in scan_tool(raw, others=others, siblings=siblings))
    names = Counter(t.name for t in report.tools)
    findings.extend(
        Finding("HG403", f"{count} tools are named {name!r}", name) for name, count in names.items() if count > 1
    )
    if expect is not None:
        findings.extend(_expect_findings(report.tools, expect))
    return report


def _scan_finding(found: ScanFinding, name: str) -> Finding:
    """A scan finding as a lint finding: its level as the text earned it, and what the model reads when decoded."""
    message = found.message
    if found.decoded is not None and found.decoded not in message:
        message = f"{message}; decoded: {found.decoded!r}"
    return Finding(
        found.code, message, name, severity=_SCAN_SEVERITY[found.level], span=Span(found.path, found.start, found.end)
    )


def _tool_findings(tool: ResolvedTool) -> Iterable[Finding]:
    name = tool.name
    for problem in name_problems(name):
        long_only = "characters long" in problem and "spec's" not in problem
        yield Finding("HG402" if long_only else "HG401", f"the name {problem}", name)
    raw_annotations = tool.raw.get("annotations")
    parsed = tool.parsed
    for key, value in parsed.invalid.items():
        expected = "a string" if key == "title" else "true or false"
        yield Finding(
            "HG101",
            f"annotations.{key} must be {expected}, got {type(value).__name__} {value!r}",
            name,
            Hint(key) if key != "title" else None,
        )
    for key in parsed.extra:
        yield Finding("HG102", f"annotations.{key} is not defined by the spec (kept, not interpreted)", name)
    declared = parsed.annotations
    if raw_annotations is None or (not declared.set_hints() and not parsed.invalid):
        yield Finding("HG001", "no hints declared; clients must assume it may destroy data", name)
    else:
        missing = [h.value for h in Hint if declared.get(h) is None and not _moot(declared, h)]
        if missing:
            yield Finding("HG002", "not set: " + ", ".join(missing), name)
    tool_title = tool.raw.get("title")
    if tool.title_origin is TitleOrigin.DERIVED:
        yield Finding("HG003", f"no title in Tool.title or annotations.title (shown as {tool.title!r})", name)
    elif isinstance(tool_title, str) and declared.title is not None and declared.title != tool_title:
        yield Finding("HG203", f"annotations.title {declared.title!r} differs from Tool.title {tool_title!r}", name)
    if declared.read_only and declared.destructive:
        yield Finding("HG201", "readOnlyHint true with destructiveHint true", name, Hint.DESTRUCTIVE)
    if declared.read_only and declared.idempotent is False:
        yield Finding("HG202", "readOnlyHint true with idempotentHint false", name, Hint.IDEMPOTENT)
    yield from _disagreements(tool)
    for reason in review_reasons(tool):
        yield Finding(reason.code, reason.message, name, reason.hint)
    # A local server's declaration set aside by strong evidence is a contradiction, reported above (HG30x).
    untrusted = not tool.resolution.trusted
    for hint, resolved in tool.resolution.hints.items():
        if untrusted and resolved.distrusted is not None:
            yield Finding(
                "HG308",
                f"declared {hint.value} {str(resolved.distrusted).lower()} is not believed from an untrusted "
                f"server; the gateway uses {str(resolved.value).lower()} ({resolved.provenance})",
                name,
                hint,
            )


def _moot(declared: Annotations, hint: Hint) -> bool:
    # The spec gives destructive and idempotent no meaning on a read-only tool.
    return bool(declared.read_only) and hint in (Hint.DESTRUCTIVE, Hint.IDEMPOTENT)


def _contradiction(
    code: str, name: str, hint: Hint, declared: str, evidence: Inferred, says: str, *, weighed: bool = False
) -> Finding:
    """A declared value that an inference rule contradicts; `weighed`: evidence short of strong is only a note."""
    message = f"declared {hint.value} {declared}, but inference rule {evidence.rule} says {says}"
    if weighed and evidence.strength is not Strength.STRONG:
        note = f" ({evidence.strength.value} evidence: not enough to set the declaration aside)"
        return Finding(code, message + note, name, hint, Severity.NOTE)
    return Finding(code, message, name, hint)


def _disagreements(tool: ResolvedTool) -> Iterable[Finding]:
    declared = tool.declared
    inferred = tool.resolution.inferred
    name = tool.name

    read_only = inferred.get(Hint.READ_ONLY)
    if declared.read_only is True and read_only is not None and not read_only.value:
        # Only strong evidence sets a local server's declaration aside (`resolve`); weaker evidence is a note.
        yield _contradiction("HG301", name, Hint.READ_ONLY, "true", read_only, "it writes", weighed=True)
        return
    if declared.read_only is False and read_only is not None and read_only.value:
        yield _contradiction("HG304", name, Hint.READ_ONLY, "false", read_only, "it only reads")
    writes = declared.read_only is False or (
        declared.read_only is None and read_only is not None and not read_only.value
    )
    destructive = inferred.get(Hint.DESTRUCTIVE)
    if writes and declared.destructive is False and destructive is not None and destructive.value:
        # A name's writing verb alone is moderate: whether the write loses data is the server's to say.
        says = "it destroys or overwrites"
        yield _contradiction("HG302", name, Hint.DESTRUCTIVE, "false", destructive, says, weighed=True)
    idempotent = inferred.get(Hint.IDEMPOTENT)
    if (
        writes
        and declared.idempotent is not None
        and idempotent is not None
        and idempotent.value != declared.idempotent
    ):
        was, says = str(declared.idempotent).lower(), str(idempotent.value).lower()
        yield _contradiction("HG305", name, Hint.IDEMPOTENT, was, idempotent, says)
    open_world = inferred.get(Hint.OPEN_WORLD)
    if declared.open_world is False and open_world is not None and open_world.value:
        says = "it reaches external systems"
        yield _contradiction("HG303", name, Hint.OPEN_WORLD, "false", open_world, says)


def _expect_findings(tools: Sequence[ResolvedTool], expect: Mapping[Tier, Sequence[str]]) -> Iterable[Finding]:
    listed: dict[str, list[Tier]] = {}
    for tier, names in expect.items():
        for name in names:
            listed.setdefault(name, []).append(tier)
    present = {t.name: t for t in tools}
    for name, tiers in listed.items():
        if len(tiers) > 1:
            yield Finding("HG502", "listed under " + " and ".join(t.value for t in tiers), name)
        if name not in present:
            yield Finding("HG503", f"listed under {tiers[0].value}, but the server has no such tool", name)
            continue
        actual = declared_tier(present[name].declared)
        if actual not in tiers:
            yield Finding(
                "HG501",
                f"expected {' or '.join(t.value for t in tiers)}, but its declared hints make it {actual.value}",
                name,
            )
    for name in present:
        if name not in listed:
            yield Finding("HG504", "not listed in any tier of the expect file", name)


_TIER_NAMES: Mapping[str, Tier] = {
    "read-only": Tier.READ_ONLY,
    "read_only": Tier.READ_ONLY,
    "readonly": Tier.READ_ONLY,
    "additive-write": Tier.ADDITIVE,
    "additive_write": Tier.ADDITIVE,
    "additive": Tier.ADDITIVE,
    "non-destructive-write": Tier.ADDITIVE,
    "non_destructive_write": Tier.ADDITIVE,
    "soft-delete": Tier.ADDITIVE,
    "soft_delete": Tier.ADDITIVE,
    "destructive": Tier.DESTRUCTIVE,
    "unknown": Tier.UNKNOWN,
}


def load_expect(path: str | Path) -> dict[Tier, list[str]]:
    """Read an expect file: a YAML mapping of tier → list of tool names.

    Tier names: read-only, additive-write (aliases non-destructive-write,
    soft-delete: the two middle tiers), destructive, unknown. Several keys
    may map to one tier; their lists are joined.

    Raises:
        ExpectFileError: the file is missing, not YAML, or not of that shape.
    """
    import yaml

    path = Path(path)
    with read_errors(path, "the expect file", ExpectFileError):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ExpectFileError(f"{path}: expected a mapping of tier to tool names, got {type(data).__name__}")
    expect: dict[Tier, list[str]] = {}
    for key, names in data.items():
        tier = _TIER_NAMES.get(str(key).lower())
        if tier is None:
            known = ", ".join(sorted({t.value for t in Tier}))
            raise ExpectFileError(f"{path}: {key}: unknown tier (known: {known})")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ExpectFileError(f"{path}: {key}: expected a list of tool names")
        expect.setdefault(tier, []).extend(names)
    return expect


def origin_counts(tools: Sequence[ResolvedTool]) -> dict[Origin, int]:
    """Per origin, how many tools have at least one hint from it (coverage by origin)."""
    counts: dict[Origin, int] = dict.fromkeys((o for o in Origin if o is not Origin.ARGUMENT), 0)  # not a call's
    for tool in tools:
        for origin in {r.provenance.origin for r in tool.resolution.hints.values()}:
            counts[origin] += 1
    return counts
