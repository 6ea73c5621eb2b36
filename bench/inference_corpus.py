"""Measure hint inference on the corpus of real annotated MCP tools.

Scoring follows ``<corpus>/README.md`` ("the scoring that counts"):

- readOnlyHint on every tool that has a readOnly label. The false read-only
  rate is the dangerous error: tools predicted read-only whose authors say they
  are not, over the tools labelled not read-only (also shown over all tools
  with a readOnly label).
- destructiveHint and idempotentHint only on tools labelled readOnlyHint false;
  predicted destructive means predicted not read-only and destructive.
- openWorldHint on every tool that has an openWorld label.
- A hint a prediction leaves out takes the spec default; a hint the labels
  leave out is not scored for that tool.

Leave-one-server-out (LOSO) is the headline: each server's tools are
scored as if nobody had seen that server, and the report gives the pooled
figures (every tool predicted while its own server was held out), the mean
over servers and the worst server. The rules are fixed tables, not fitted,
so pooled LOSO equals the whole-corpus score; what LOSO adds is the spread
between servers, which is what an unseen server can expect.

Directional errors are printed on their own, because the two directions of
one hint cost very differently:

- false read-only: labelled not read-only, predicted read-only (auto-run);
- missed destructive (excluding creates): labelled destructive, predicted
  not destructive, among writes whose name's action is not a create verb
  (vendors disagree whether a create is destructive);
- missed open world: labelled open world, predicted closed;
- reads that would ask: labelled read-only, predicted not read-only;
- additive writes called destructive: labelled not read-only and not
  destructive, predicted destructive.

Predictions use only name, description and inputSchema; the tools' own
annotations are never shown to the predictor. The same run scores two
baselines from the corpus README: the spec defaults and PraisonAI-style name
patterns.

Usage::

    python bench/inference_corpus.py [--corpus PATH] [--format text|json]
                                     [--show-unannotated] [--show-missed] [--worst N]

``--show-missed`` lists every tool of every directional error (the reads
that would ask and the additive writes called destructive too), with the
rules that decided it: the list to study before adding a rule.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO / "src") not in sys.path:  # runnable without installing the package
    sys.path.insert(0, str(REPO / "src"))

from hintgate.hints.annotations import SPEC_DEFAULTS, Annotations, Hint, resolve  # noqa: E402
from hintgate.hints.inference import infer  # noqa: E402
from hintgate.hints.inference.naming import CREATE, parse_name  # noqa: E402
from hintgate.hints.trust import Trust  # noqa: E402

DEFAULT_CORPUS = REPO / ".." / "shared" / "corpus"

TARGETS = {
    "false read-only rate": ("<=", 0.01),
    "readOnly recall": (">=", 0.85),
    "destructive accuracy": (">=", 0.85),
    "openWorld accuracy": (">=", 0.70),
    "idempotent F1": (">=", 0.6),
}
"""The targets inference must meet, as (comparison, bound)."""

DIRECTIONAL_TARGETS = {
    "false read-only": 0.005,
    "missed destructive (not creates)": 0.03,
    "missed open world": 0.02,
}
"""Bounds on the directional error rates that an unseen server must meet."""

Prediction = Mapping[Hint, bool]
Predictor = Callable[["Tool"], Prediction]


@dataclass(frozen=True)
class Tool:
    """One corpus tool with its authors' labels (only the hints they set)."""

    server: str
    name: str
    description: str
    input_schema: Mapping[str, Any] | None
    labels: Mapping[Hint, bool]


def load_corpus(corpus: Path) -> list[Tool]:
    """The labelled tools of a corpus directory, in file order."""
    labels: dict[tuple[str, str], dict[Hint, bool]] = {}
    with (corpus / "labels.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            row = json.loads(line)
            labels[(row["server"], row["name"])] = {h: row[h.value] for h in Hint if h.value in row}
    tools: list[Tool] = []
    for path in sorted((corpus / "tools").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        server = data["server"]
        for raw in data["tools"]:
            tools.append(
                Tool(
                    server=server,
                    name=raw["name"],
                    description=raw.get("description") or "",
                    input_schema=raw.get("inputSchema"),
                    labels=labels.get((server, raw["name"]), {}),
                )
            )
    return tools


def load_unannotated(corpus: Path) -> list[Tool]:
    """The tools of servers that publish no annotations (no labels)."""
    tools: list[Tool] = []
    for path in sorted((corpus / "unannotated").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for raw in data["tools"]:
            tools.append(Tool(data["server"], raw["name"], raw.get("description") or "", raw.get("inputSchema"), {}))
    return tools


# --- predictors -------------------------------------------------------------------------------


def hintgate_predictor(tool: Tool) -> Prediction:
    """hintgate's inference on name, description and input schema."""
    return {hint: found.value for hint, found in infer(tool.name, tool.description, tool.input_schema).items()}


def spec_default_predictor(tool: Tool) -> Prediction:  # noqa: ARG001  (a Predictor's signature)
    """Predict nothing: every hint takes the spec default."""
    return {}


_PRAISON_READ = ("show", "list", "get", "read", "search", "find", "query")
_PRAISON_IDEMPOTENT = ("set", "update", "configure")
_PRAISON_CLOSED = ("memory", "session", "config", "local")


def praisonai_predictor(tool: Tool) -> Prediction:
    """PraisonAI-style name patterns: substrings of the lower-cased name.

    Read-only patterns make a tool read-only (and so not destructive); set,
    update and configure make it idempotent; memory, session, config and local
    make it closed-world.
    """
    name = tool.name.lower()
    out: dict[Hint, bool] = {}
    if any(p in name for p in _PRAISON_READ):
        out[Hint.READ_ONLY] = True
        out[Hint.DESTRUCTIVE] = False
    if any(p in name for p in _PRAISON_IDEMPOTENT):
        out[Hint.IDEMPOTENT] = True
    if any(p in name for p in _PRAISON_CLOSED):
        out[Hint.OPEN_WORLD] = False
    return out


PREDICTORS: Mapping[str, Predictor] = {
    "hintgate": hintgate_predictor,
    "spec defaults": spec_default_predictor,
    "PraisonAI names": praisonai_predictor,
}


# --- scoring ----------------------------------------------------------------------------------


@dataclass
class Confusion:
    """A binary confusion count; positive means the hint is true."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    def add(self, predicted: bool, actual: bool) -> None:
        """Count one scored tool."""
        if predicted and actual:
            self.tp += 1
        elif predicted:
            self.fp += 1
        elif actual:
            self.fn += 1
        else:
            self.tn += 1

    @property
    def support(self) -> int:
        """How many tools were scored."""
        return self.tp + self.fp + self.fn + self.tn

    @property
    def precision(self) -> float:
        """tp / predicted positive (1.0 when nothing was predicted positive)."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        """tp / actual positive."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def accuracy(self) -> float:
        """Share of scored tools predicted right."""
        return (self.tp + self.tn) / self.support if self.support else 1.0


DIRECTIONS = (
    "false read-only",
    "missed destructive (not creates)",
    "missed open world",
    "reads that would ask",
    "additive writes called destructive",
)
"""The directional errors, each over the tools labelled so that it could happen."""


def is_create(tool: Tool) -> bool:
    """Whether the tool's name acts by creating (its action word is a create verb)."""
    return parse_name(tool.name).verb_class is CREATE


@dataclass
class Score:
    """The corpus scores of one predictor."""

    hints: dict[Hint, Confusion] = field(default_factory=lambda: {h: Confusion() for h in Hint})
    false_read_only: list[Tool] = field(default_factory=list)
    errors: dict[str, list[Tool]] = field(default_factory=lambda: {k: [] for k in DIRECTIONS})
    totals: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DIRECTIONS, 0))

    def directional(self) -> dict[str, float]:
        """Each directional error as a rate over the tools it could happen to."""
        return {k: len(self.errors[k]) / self.totals[k] if self.totals[k] else 0.0 for k in DIRECTIONS}

    @property
    def false_read_only_rate(self) -> float:
        """False read-only over the tools labelled not read-only (the README's meaning)."""
        ro = self.hints[Hint.READ_ONLY]
        return ro.fp / (ro.fp + ro.tn) if ro.fp + ro.tn else 0.0

    @property
    def false_read_only_share(self) -> float:
        """False read-only over every tool with a readOnly label."""
        ro = self.hints[Hint.READ_ONLY]
        return ro.fp / ro.support if ro.support else 0.0

    def metrics(self) -> dict[str, float]:
        """The numbers the targets are stated in."""
        return {
            "false read-only rate": self.false_read_only_rate,
            "readOnly recall": self.hints[Hint.READ_ONLY].recall,
            "destructive accuracy": self.hints[Hint.DESTRUCTIVE].accuracy,
            "openWorld accuracy": self.hints[Hint.OPEN_WORLD].accuracy,
            "idempotent F1": self.hints[Hint.IDEMPOTENT].f1,
        }


def effective(prediction: Prediction) -> dict[Hint, bool]:
    """Every hint of a prediction, left-out ones as the spec default."""
    return {h: prediction.get(h, SPEC_DEFAULTS[h]) for h in Hint}


def score_one(score: Score, tool: Tool, prediction: Prediction) -> None:
    """Add one tool's prediction to `score`, scoring only the hints its labels hold."""
    pred = effective(prediction)
    labels = tool.labels
    _directional(score, tool, pred)
    if Hint.READ_ONLY in labels:
        score.hints[Hint.READ_ONLY].add(pred[Hint.READ_ONLY], labels[Hint.READ_ONLY])
        if pred[Hint.READ_ONLY] and not labels[Hint.READ_ONLY]:
            score.false_read_only.append(tool)
        if not labels[Hint.READ_ONLY]:
            if Hint.DESTRUCTIVE in labels:
                predicted = not pred[Hint.READ_ONLY] and pred[Hint.DESTRUCTIVE]
                score.hints[Hint.DESTRUCTIVE].add(predicted, labels[Hint.DESTRUCTIVE])
            if Hint.IDEMPOTENT in labels:
                score.hints[Hint.IDEMPOTENT].add(pred[Hint.IDEMPOTENT], labels[Hint.IDEMPOTENT])
    if Hint.OPEN_WORLD in labels:
        score.hints[Hint.OPEN_WORLD].add(pred[Hint.OPEN_WORLD], labels[Hint.OPEN_WORLD])


def _directional(score: Score, tool: Tool, pred: Mapping[Hint, bool]) -> None:
    labels = tool.labels
    destructive = not pred[Hint.READ_ONLY] and pred[Hint.DESTRUCTIVE]

    def count(kind: str, applies: bool, wrong: bool) -> None:
        if applies:
            score.totals[kind] += 1
            if wrong:
                score.errors[kind].append(tool)

    read_only = labels.get(Hint.READ_ONLY)
    count("false read-only", read_only is False, pred[Hint.READ_ONLY])
    count("reads that would ask", read_only is True, not pred[Hint.READ_ONLY])
    if read_only is False:
        label = labels.get(Hint.DESTRUCTIVE)
        count("missed destructive (not creates)", label is True and not is_create(tool), not destructive)
        count("additive writes called destructive", label is False, destructive)
    count("missed open world", labels.get(Hint.OPEN_WORLD) is True, not pred[Hint.OPEN_WORLD])


def score_tools(tools: Iterable[Tool], predictor: Predictor) -> Score:
    """Score `predictor` on `tools`."""
    score = Score()
    for tool in tools:
        score_one(score, tool, predictor(tool))
    return score


def by_server(tools: Sequence[Tool], predictor: Predictor) -> dict[str, Score]:
    """Per-server scores: each server's tools scored on their own."""
    groups: dict[str, list[Tool]] = {}
    for tool in tools:
        groups.setdefault(tool.server, []).append(tool)
    return {server: score_tools(group, predictor) for server, group in groups.items()}


def leave_one_server_out(tools: Sequence[Tool], predictor: Predictor) -> dict[str, dict[str, float]]:
    """The target metrics on the corpus without each server in turn.

    Rules are fixed, not learned, so this shows how much one server props up
    (or drags down) each number: a big swing when one server is left out is a
    sign of rules tuned to it.
    """
    servers = sorted({t.server for t in tools})
    return {s: score_tools([t for t in tools if t.server != s], predictor).metrics() for s in servers}


@dataclass
class Loso:
    """Leave-one-server-out figures: pooled over held-out servers, mean and worst server."""

    pooled: Score
    held_out: dict[str, Score]

    def mean(self) -> dict[str, float]:
        """Each directional error rate averaged over the servers it applies to."""
        out: dict[str, float] = {}
        for kind in DIRECTIONS:
            rates = [s.directional()[kind] for s in self.held_out.values() if s.totals[kind]]
            out[kind] = sum(rates) / len(rates) if rates else 0.0
        return out

    def worst(self) -> dict[str, tuple[str, float]]:
        """Per directional error, the held-out server with the highest rate."""
        out: dict[str, tuple[str, float]] = {}
        for kind in DIRECTIONS:
            rates = [(s, sc.directional()[kind]) for s, sc in self.held_out.items() if sc.totals[kind]]
            out[kind] = max(rates, key=lambda item: item[1]) if rates else ("-", 0.0)
        return out

    def passes(self) -> dict[str, bool]:
        """Whether the pooled directional errors meet `DIRECTIONAL_TARGETS`."""
        pooled = self.pooled.directional()
        return {k: pooled[k] <= bound for k, bound in DIRECTIONAL_TARGETS.items()}


def loso(tools: Sequence[Tool], predictor: Predictor) -> Loso:
    """Score every server's tools as unseen, pooled and one server at a time."""
    pooled = Score()
    held: dict[str, Score] = {}
    for tool in tools:
        prediction = predictor(tool)
        score_one(pooled, tool, prediction)
        score_one(held.setdefault(tool.server, Score()), tool, prediction)
    return Loso(pooled, held)


def passes(metric: str, value: float) -> bool:
    """Whether `value` meets the target for `metric`."""
    op, bound = TARGETS[metric]
    return value <= bound if op == "<=" else value >= bound


def check_targets(score: Score) -> dict[str, tuple[float, bool]]:
    """Each target metric with its value and whether it passes."""
    return {m: (v, passes(m, v)) for m, v in score.metrics().items()}


def set_aside_at_local(tools: Iterable[Tool]) -> tuple[list[Tool], int]:
    """The tools labelled read-only whose label a `local` server would lose, and how many are labelled so.

    The labels are what the servers declare: resolved at trust `local`, a
    declared read-only gives way only to strong evidence that the tool
    writes. Each tool listed would ask where its author says it only reads
    (and `hintgate lint` reports HG301 on it).
    """
    declared_read_only = [t for t in tools if t.labels.get(Hint.READ_ONLY) is True]
    lost = [
        t
        for t in declared_read_only
        if not resolve(
            declared=Annotations(read_only=True),
            inferred=infer(t.name, t.description, t.input_schema),
            trust=Trust.LOCAL,
        ).value(Hint.READ_ONLY)
    ]
    return lost, len(declared_read_only)


def time_infer(tools: Sequence[Tool], rounds: int = 20) -> float:
    """Mean seconds per `infer` call over the corpus."""
    start = time.perf_counter()
    for _ in range(rounds):
        for tool in tools:
            infer(tool.name, tool.description, tool.input_schema)
    return (time.perf_counter() - start) / (rounds * len(tools))


# --- output -----------------------------------------------------------------------------------


def _fmt(value: float) -> str:
    return f"{value:.3f}"


def report_json(tools: Sequence[Tool], corpus: Path) -> dict[str, Any]:
    """Everything the text report shows, as JSON-ready data."""
    scores = {name: score_tools(tools, p) for name, p in PREDICTORS.items()}
    ours = scores["hintgate"]
    return {
        "corpus": str(corpus),
        "tools": len(tools),
        "predictors": {
            name: {
                "hints": {
                    h.value: {
                        "precision": c.precision,
                        "recall": c.recall,
                        "f1": c.f1,
                        "accuracy": c.accuracy,
                        "support": c.support,
                    }
                    for h, c in s.hints.items()
                },
                "false_read_only_rate": s.false_read_only_rate,
                "false_read_only_share": s.false_read_only_share,
                "targets": {m: {"value": v, "pass": ok} for m, (v, ok) in check_targets(s).items()},
            }
            for name, s in scores.items()
        },
        "false_read_only": [{"server": t.server, "name": t.name} for t in ours.false_read_only],
        "per_server": {s: sc.metrics() for s, sc in by_server(tools, hintgate_predictor).items()},
        "leave_one_server_out": leave_one_server_out(tools, hintgate_predictor),
        "loso": _loso_json(loso(tools, hintgate_predictor)),
        "set_aside_at_local": _set_aside_json(tools),
        "mean_infer_us": time_infer(tools) * 1e6,
    }


def _set_aside_json(tools: Sequence[Tool]) -> dict[str, Any]:
    lost, of = set_aside_at_local(tools)
    return {"count": len(lost), "of": of, "tools": [f"{t.server}/{t.name}" for t in lost]}


def _loso_json(held: Loso) -> dict[str, Any]:
    pooled = held.pooled.directional()
    return {
        "pooled": held.pooled.metrics(),
        "directional": {
            kind: {
                "count": len(held.pooled.errors[kind]),
                "of": held.pooled.totals[kind],
                "rate": pooled[kind],
                "mean_of_servers": held.mean()[kind],
                "worst_server": list(held.worst()[kind]),
                "tools": [f"{t.server}/{t.name}" for t in held.pooled.errors[kind]],
            }
            for kind in DIRECTIONS
        },
        "pass": held.passes(),
    }


def report_text(tools: Sequence[Tool], corpus: Path, worst: int, *, show_missed: bool = False) -> bool:
    """Print the Rich report; return True when every target passes."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    scores = {name: score_tools(tools, p) for name, p in PREDICTORS.items()}
    ours = scores["hintgate"]
    console.print(f"[bold]corpus[/bold] {corpus} — {len(tools)} tools")
    held = loso(tools, hintgate_predictor)
    _print_loso(console, held, show_missed=show_missed)

    for name, score in scores.items():
        table = Table(title=f"{name}: per hint")
        for col in ("hint", "precision", "recall", "F1", "accuracy", "support"):
            table.add_column(col, justify="right" if col != "hint" else "left")
        for hint, c in score.hints.items():
            table.add_row(hint.value, _fmt(c.precision), _fmt(c.recall), _fmt(c.f1), _fmt(c.accuracy), str(c.support))
        console.print(table)
        ro = score.hints[Hint.READ_ONLY]
        console.print(
            f"false read-only: {ro.fp} tools = {score.false_read_only_rate:.1%} of {ro.fp + ro.tn} labelled "
            f"not read-only, {score.false_read_only_share:.1%} of {ro.support} with a readOnly label"
        )

    targets = Table(title="targets")
    targets.add_column("metric")
    targets.add_column("target", justify="right")
    for name in PREDICTORS:
        targets.add_column(name, justify="right")
    targets.add_column("hintgate", justify="center")
    checks = {name: check_targets(s) for name, s in scores.items()}
    all_pass = True
    for metric, (op, bound) in TARGETS.items():
        ok = checks["hintgate"][metric][1]
        all_pass = all_pass and ok
        cells = [_fmt(checks[n][metric][0]) for n in PREDICTORS]
        targets.add_row(metric, f"{op} {bound}", *cells, "[green]PASS[/green]" if ok else "[red]FAIL[/red]")
    console.print(targets)

    if ours.false_read_only:
        console.print("[bold]false read-only tools[/bold]")
        for tool in ours.false_read_only:
            found = infer(tool.name, tool.description, tool.input_schema)
            console.print(f"  {tool.server} / {tool.name}  ({found[Hint.READ_ONLY].rule})")

    servers = by_server(tools, hintgate_predictor)
    per = Table(title="per server (hintgate)")
    for col in ("server", "tools", "false RO", "RO recall", "destr acc", "idem F1", "OW acc"):
        per.add_column(col, justify="left" if col == "server" else "right")

    def badness(item: tuple[str, Score]) -> float:
        s = item[1]
        ro, de, ow = s.hints[Hint.READ_ONLY], s.hints[Hint.DESTRUCTIVE], s.hints[Hint.OPEN_WORLD]
        return ro.fp * 5 + ro.fn + (de.support - de.tp - de.tn) + (ow.support - ow.tp - ow.tn)

    for server, s in sorted(servers.items(), key=badness, reverse=True):
        ro, de, idem, ow = (s.hints[h] for h in Hint)
        per.add_row(
            server,
            str(sum(1 for t in tools if t.server == server)),
            str(ro.fp),
            _fmt(ro.recall) if ro.tp + ro.fn else "-",
            _fmt(de.accuracy) if de.support else "-",
            _fmt(idem.f1) if idem.support else "-",
            _fmt(ow.accuracy) if ow.support else "-",
        )
    console.print(per)

    swings = leave_one_server_out(tools, hintgate_predictor)
    full = ours.metrics()
    swing = Table(title=f"leave one server out: the {worst} servers whose removal moves the targets most")
    swing.add_column("left out")
    for metric in TARGETS:
        swing.add_column(metric, justify="right")

    def moved(item: tuple[str, dict[str, float]]) -> float:
        return sum(abs(item[1][m] - full[m]) for m in TARGETS)

    for server, metrics in sorted(swings.items(), key=moved, reverse=True)[:worst]:
        swing.add_row(server, *(f"{metrics[m]:.3f} ({metrics[m] - full[m]:+.3f})" for m in TARGETS))
    console.print(swing)

    lost, of = set_aside_at_local(tools)
    console.print(
        f"declared read-only set aside at trust local (strong evidence says it writes): {len(lost)}/{of} "
        f"= {len(lost) / of:.1%}"
    )
    for tool in lost:
        found = infer(tool.name, tool.description, tool.input_schema)[Hint.READ_ONLY]
        console.print(f"  {tool.server} / {tool.name}  ({found.rule}, {found.strength.value})")
    console.print(f"mean infer() time: {time_infer(tools) * 1e6:.1f} µs per tool")
    console.print("[green]all targets pass[/green]" if all_pass else "[red]some targets fail[/red]")
    return all_pass


def _print_loso(console: Any, held: Loso, *, show_missed: bool = False) -> None:
    """The headline: leave-one-server-out targets and directional errors."""
    from rich.table import Table

    metrics = held.pooled.metrics()
    mean = {m: sum(s.metrics()[m] for s in held.held_out.values()) / len(held.held_out) for m in TARGETS}
    head = Table(title=f"leave one server out ({len(held.held_out)} servers): targets")
    for col in ("metric", "target", "pooled", "mean of servers"):
        head.add_column(col, justify="left" if col == "metric" else "right")
    for metric, (op, bound) in TARGETS.items():
        head.add_row(metric, f"{op} {bound}", _fmt(metrics[metric]), _fmt(mean[metric]))
    console.print(head)

    pooled = held.pooled.directional()
    means, worst, ok = held.mean(), held.worst(), held.passes()
    errors = Table(title="leave one server out: directional errors")
    for col in ("error", "count", "pooled rate", "goal", "mean of servers", "worst server"):
        errors.add_column(col, justify="left" if col in {"error", "worst server"} else "right")
    for kind in DIRECTIONS:
        goal = f"<= {DIRECTIONAL_TARGETS[kind]:.1%}" if kind in DIRECTIONAL_TARGETS else "-"
        if kind in ok:
            goal += " [green]ok[/green]" if ok[kind] else " [red]FAIL[/red]"
        server, rate = worst[kind]
        errors.add_row(
            kind,
            f"{len(held.pooled.errors[kind])}/{held.pooled.totals[kind]}",
            f"{pooled[kind]:.1%}",
            goal,
            f"{means[kind]:.1%}",
            f"{server} {rate:.1%}",
        )
    console.print(errors)
    for kind in DIRECTIONS if show_missed else DIRECTIONS[:3]:
        for tool in held.pooled.errors[kind]:
            found = infer(tool.name, tool.description, tool.input_schema)
            rules = ", ".join(f"{h.label}={f.value}:{f.rule}" for h, f in found.items())
            console.print(f"  {kind}: {tool.server} / {tool.name}  ({rules or 'defaults'})")


def show_unannotated(corpus: Path) -> None:
    """Print what inference says about the tools of unannotated servers."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title="inferred hints for unannotated servers")
    for col in ("server", "tool", "RO", "D", "I", "OW", "rules"):
        table.add_column(col)
    for tool in load_unannotated(corpus):
        found = infer(tool.name, tool.description, tool.input_schema)
        cells = ["·" if h not in found else "T" if found[h].value else "F" for h in Hint]
        rules = " ".join(sorted({f.rule for f in found.values()}))
        table.add_row(tool.server, tool.name, *cells, rules)
    Console().print(table)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; exit status 1 when a target fails."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--show-unannotated", action="store_true")
    parser.add_argument("--show-missed", action="store_true", help="list every tool of every directional error")
    parser.add_argument("--worst", type=int, default=8)
    args = parser.parse_args(argv)
    corpus = args.corpus.resolve()
    if args.show_unannotated:
        show_unannotated(corpus)
        return 0
    tools = load_corpus(corpus)
    if args.format == "json":
        data = report_json(tools, corpus)
        print(json.dumps(data, indent=2))
        return 0 if all(t["pass"] for t in data["predictors"]["hintgate"]["targets"].values()) else 1
    return 0 if report_text(tools, corpus, args.worst, show_missed=args.show_missed) else 1


if __name__ == "__main__":
    raise SystemExit(main())
