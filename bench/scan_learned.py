"""Train and measure the learned scan model (`hintgate.scan.learned`): does it add recall without false flags?

The data: the blind scan sets given (each written by its own writer; format in
their ``README.md``), installed packages' pages (`scan_pages.py`, honest real
results) and the corpus of real tools (`scan_corpus.py`, honest real
definitions). Every case is judged once by the rules as the gateway judges it
(`scan_cases.judge`; pages through the result guard, corpus tools with the
whole corpus as the catalog) and cut into the model's tokens
(`learned.tokens`, of the parts it reads: `learned.parts`).

The model: logistic regression on windows of `WINDOW` tokens (each token and
each pair of adjacent tokens a feature), trained as multiple-instance
learning: a poisoned case is poisoned somewhere, so after a first fit on all
of its windows each later fit takes only its best-scoring window as the
positive; every window of an honest case, page or tool is a negative (each
text weighing about the same). Full-batch Adam with an L2 penalty, from zero:
deterministic. Weights are quantised to integers (-127..127), the smallest
dropped, at most `FEATURES` kept.

The measure: cross-validation by set. The sets are dealt into four folds of
whole sets (a writer's cases never straddle train and test); pages and corpus
tools into four folds by package and by server. For each fold the model is
trained on the other three; its thresholds (one for definitions, one for
results) are chosen on those three only, from out-of-fold scores of an inner
cross-validation: the lowest score at which, added to the rules, the model
flags at most `BUDGET` of the honest cases and not one page or corpus tool
the rules let pass. Printed per fold and in all: rules alone against rules OR
model, for poisoned and honest results and definitions, pages and corpus
tools. Rules are scored on sets they were tuned on (all but the newest), so
"rules alone" is flattering there; the sets named by ``--held-out`` were never
seen by the rules either and are printed apart.

With ``--validation SETS`` (and ``--newest SETS``) there are no outer folds: the model is trained on the
other sets and on the pages and tools of folds 1-3, its thresholds chosen from a 3-fold inner
cross-validation of those, and it is tested on each named scope and on the pages and tools of fold 0
(``--scores`` writes every score). The project's own honest cases (the set `tests/scan/scan_cases`) count
with pages and tools: none may be newly flagged.

``--write`` then trains on everything and writes the shipped weights with the
thresholds chosen the same way from the outer folds' scores.

Usage::

    python bench/scan_learned.py SETS... [--held-out NAME ...] [--cache FILE] [--write]
    python bench/scan_learned.py SETS... --validation NAME... [--newest NAME...] [--budget 0.005] [--scores FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _learned as learned
import scan_cases
import scan_corpus
import scan_pages
from hintgate.scan.guard import OnResultFinding, apply
from hintgate.scan.poisoning import Level, result_texts, scan_result, scan_tool, tool_texts

WINDOW = 32
FEATURES = 40_000
BUDGET = 0.01
FOLDS = 4
ROUNDS = 2  # multiple-instance rounds after the first fit
ITERATIONS = 250
L2 = 1e-4
RATE = 0.05
MIN_CASES = 2  # a feature seen in fewer training cases is not learned


@dataclass
class Doc:
    """One text unit with its label: a case of a set, a page, a corpus tool."""

    source: str  # case, page, corpus
    group: str  # definitions, results
    poisoned: bool
    rules: bool
    where: str
    fold: int = 0
    set: str = ""
    texts: list[list[str]] = field(default_factory=list)  # tokens of each part read


def _tokenised(texts: Sequence[tuple[str, str]], characters: int | None) -> list[list[str]]:
    """One token stream per tool or result: the parts read, in order (`learned.stream`)."""
    return [learned.tokens(learned.stream([text for _, text in texts], characters))]


def _fold(name: str) -> int:
    return zlib.crc32(name.encode()) % FOLDS


def _rules_flag_tool(tool: dict[str, Any], others: dict[str, str] | None = None) -> bool:
    return any(f.level is Level.HIGH for f in scan_tool(tool, others=others))


def _rules_flag_result(result: dict[str, Any], tool: str | None) -> bool:
    """As the result guard judges it (`scan_cases.judge`)."""
    found = scan_result(result, tool=tool, warnings=False)
    return bool(apply(result, found, action=OnResultFinding.REDACT, tool=tool).findings)


def extract(sets: Sequence[Path]) -> list[Doc]:
    """Every case, page and corpus tool, judged by the rules and tokenised."""
    docs: list[Doc] = []
    for folder in sets:
        for case in scan_cases.load(folder):
            # The rules as `scan_cases.py` judges them (a definition by `scan_tool`, a result by the guard).
            flagged = scan_cases.judge(case).flagged
            if case.group == scan_cases.DEFINITIONS:
                texts, budget = list(tool_texts(case.tool)), None
            else:
                assert case.result is not None
                texts, budget = list(result_texts(case.result)), learned.RESULT_CHARACTERS
            docs.append(
                Doc(
                    "case",
                    case.group,
                    case.poisoned,
                    flagged,
                    case.where,
                    0,
                    folder.name,
                    _tokenised(texts, budget),
                )
            )
        print(f"  {folder.name}: {len(docs)} cases so far", file=sys.stderr, flush=True)
    for where, text in scan_pages.pages(scan_pages.default_roots()):
        package = where.split("/")[1] if "/" in where else where
        texts = [("content[0].text", text)]
        docs.append(
            Doc(
                "page",
                "results",
                False,
                _rules_flag_result({"content": [{"type": "text", "text": text}]}, None),
                where,
                _fold(package),
                "",
                _tokenised(texts, learned.RESULT_CHARACTERS),
            )
        )
    tools = scan_corpus.load(scan_corpus.DEFAULT_CORPUS)
    catalogs = scan_corpus.catalogs(tools)
    for server, tool in tools:
        high = _rules_flag_tool(tool, catalogs[server])
        docs.append(
            Doc(
                "corpus",
                "definitions",
                False,
                high,
                f"{server}/{tool.get('name')}",
                _fold(server),
                "",
                _tokenised(list(tool_texts(tool)), None),
            )
        )
    return docs


class Model:
    """Float weights over a vocabulary, quantised as shipped."""

    features = FEATURES

    def __init__(self, vocab: dict[str, int], weights: np.ndarray, bias: float) -> None:
        scale = float(np.abs(weights).max()) / 127 or 1.0
        q = np.rint(weights / scale).astype(np.int64)
        keep = np.flatnonzero(q)
        if len(keep) > self.features:
            keep = keep[np.argsort(-np.abs(q[keep]), kind="stable")[: self.features]]
        names = sorted(vocab, key=vocab.__getitem__)
        self.weights = {names[i]: int(q[i]) for i in sorted(keep)}
        self.bias = round(bias / scale)
        self.scale = scale

    def shipped(self, thresholds: dict[str, int]) -> learned.LearnedModel:
        """As `hintgate.scan.learned` runs it."""
        return learned.LearnedModel(self.weights, bias=self.bias, window=WINDOW, thresholds=thresholds)

    def score(self, doc: Doc) -> int:
        """The best window's score over the doc's texts, as the shipped model computes it."""
        return best(self.shipped({}), doc)


def best(model: learned.LearnedModel, doc: Doc) -> int:
    """The best window's score over the doc's texts."""
    return max((model.best(toks)[0] for toks in doc.texts if toks), default=model.bias)


def _features(toks: Sequence[str]) -> list[str]:
    return [f for pair in learned.features(toks) for f in pair]


def _windows(toks: Sequence[str]) -> list[list[str]]:
    feats = list(learned.features(toks))
    if len(feats) <= WINDOW:
        return [[f for pair in feats for f in pair]] if feats else []
    step = WINDOW // 2
    starts = [*range(0, len(feats) - WINDOW, step), len(feats) - WINDOW]
    return [[f for pair in feats[s : s + WINDOW] for f in pair] for s in starts]


def _matrix(windows: Sequence[Sequence[str]], vocab: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    rows: list[int] = []
    cols: list[int] = []
    for r, win in enumerate(windows):
        for f in win:
            i = vocab.get(f)
            if i is not None:
                rows.append(r)
                cols.append(i)
    return np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64)


def _adam(rows: np.ndarray, cols: np.ndarray, y: np.ndarray, weight: np.ndarray, size: int) -> tuple[np.ndarray, float]:
    n = len(y)
    w = np.zeros(size + 1)  # the last one is the bias
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for t in range(1, ITERATIONS + 1):
        z = np.bincount(rows, weights=w[cols], minlength=n) + w[-1]
        g = (1 / (1 + np.exp(-z)) - y) * weight
        grad = np.append(np.bincount(cols, weights=g[rows], minlength=size) + L2 * w[:-1], g.sum())
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= RATE * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w[:-1], float(w[-1])


def fit(docs: Sequence[Doc]) -> Model:
    """Train on `docs` (multiple-instance rounds), quantised."""
    seen: Counter[str] = Counter()
    for doc in docs:
        if doc.source == "case":
            seen.update({f for toks in doc.texts for f in _features(toks)})
    vocab = {f: i for i, f in enumerate(sorted(f for f, n in seen.items() if n >= MIN_CASES))}
    negatives: list[list[str]] = []
    negative_weight: list[float] = []
    for doc in docs:
        if not doc.poisoned:
            wins = [w for toks in doc.texts for w in _windows(toks)]
            negatives += wins
            negative_weight += [1 / max(len(wins), 1) ** 0.5] * len(wins)
    neg_rows, neg_cols = _matrix(negatives, vocab)
    positives = [[w for toks in doc.texts for w in _windows(toks)] for doc in docs if doc.poisoned]
    weights = np.zeros(len(vocab))
    bias = 0.0
    for round_ in range(ROUNDS + 1):
        chosen: list[list[str]] = []
        chosen_weight: list[float] = []
        for wins in positives:
            if not wins:
                continue
            taken = wins
            if round_:
                scores = [sum(weights[vocab[f]] for f in win if f in vocab) for win in wins]
                taken = [wins[int(np.argmax(scores))]]
            chosen += taken
            chosen_weight += [1 / len(taken)] * len(taken)
        pos_rows, pos_cols = _matrix(chosen, vocab)
        rows = np.concatenate([pos_rows, neg_rows + len(chosen)])
        cols = np.concatenate([pos_cols, neg_cols])
        y = np.concatenate([np.ones(len(chosen)), np.zeros(len(negatives))])
        pw, nw = np.array(chosen_weight), np.array(negative_weight)
        weights, bias = _adam(rows, cols, y, np.concatenate([pw / pw.sum(), nw / nw.sum()]), len(vocab))
    return Model(vocab, weights, bias)


def _added(doc: Doc, score: float, threshold: float) -> bool:
    return not doc.rules and score >= threshold


def pick(docs: Sequence[Doc], scores: Sequence[float], group: str) -> int:
    """The lowest threshold at which the model, added to the rules, flags at most `BUDGET` of the honest cases of
    `group` and no page or corpus tool the rules let pass."""
    honest = [(d, s) for d, s in zip(docs, scores, strict=True) if not d.poisoned and d.group == group]
    cases = sum(d.source == "case" for d, _ in honest)
    real = max((s for d, s in honest if (d.source != "case" or d.set in OWN) and not d.rules), default=-(10**9))
    for threshold in sorted({s + 1 for _, s in honest if s + 1 > real} | {real + 1}):
        if sum(_added(d, s, threshold) for d, s in honest if d.source == "case") <= BUDGET * cases:
            return int(threshold)
    return int(real + 1)


def out_of_fold(docs: Sequence[Doc], folds: Sequence[int]) -> list[float]:
    """Each doc's score by a model trained on the other folds (of `folds`)."""
    scores = [0.0] * len(docs)
    for k in folds:
        model = fit([d for d in docs if d.fold != k])
        for i, doc in enumerate(docs):
            if doc.fold == k:
                scores[i] = model.score(doc)
    return scores


def cross_validate(docs: list[Doc]) -> dict[str, Any]:
    """Outer folds: thresholds from inner out-of-fold scores, then rules vs rules OR model on the held-out fold."""
    table: Counter[str] = Counter()
    outer = [0.0] * len(docs)
    chosen: list[dict[str, int]] = []
    for k in range(FOLDS):
        train = [d for d in docs if d.fold != k]
        inner = out_of_fold(train, [j for j in range(FOLDS) if j != k])
        thresholds = {g: pick(train, inner, g) for g in ("results", "definitions")}
        chosen.append(thresholds)
        model = fit(train)
        for i, doc in enumerate(docs):
            if doc.fold != k:
                continue
            outer[i] = score = model.score(doc)
            flagged = doc.rules or score >= thresholds[doc.group]
            for scope in ("all", f"fold{k}", "held-out" if doc.set in HELD_OUT else ""):
                if scope:
                    key = f"{scope}|{doc.group}|{doc.source}|{'poisoned' if doc.poisoned else 'honest'}"
                    table[key + "|n"] += 1
                    table[key + "|rules"] += doc.rules
                    table[key + "|both"] += flagged
        print(f"  fold {k}: thresholds {thresholds}", file=sys.stderr, flush=True)
    return {"table": table, "thresholds": chosen, "outer": outer}


HELD_OUT: set[str] = set()
OWN = {"scan_cases"}
"""The set of the project's own cases (tests/scan/scan_cases: its honest ones are benign/): like pages and corpus
tools, none may be newly flagged."""


def split_validate(docs: list[Doc], tests: dict[str, set[str]]) -> dict[str, Any]:
    """Train on every set not in `tests` and on pages and corpus tools outside fold 0; thresholds from an inner
    cross-validation of the training sets (three folds of whole sets, pages and tools by their folds 1-3); then
    rules vs rules OR model on each test scope, and on the pages and tools of fold 0."""
    held = set().union(*tests.values())
    train_sets = sorted({d.set for d in docs if d.source == "case" and d.set not in held})
    for doc in docs:
        if doc.source == "case" and doc.set not in held:
            doc.fold = 1 + train_sets.index(doc.set) * (FOLDS - 1) // len(train_sets)
    train = [d for d in docs if d.fold and (d.source != "case" or d.set not in held)]
    start = time.perf_counter()
    inner = out_of_fold(train, list(range(1, FOLDS)))
    print(f"  inner folds in {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    thresholds = {g: pick(train, inner, g) for g in ("results", "definitions")}
    model = fit(train)
    table: Counter[str] = Counter()
    scored: list[tuple[Doc, int]] = []

    def count(scope: str, doc: Doc, score: float) -> None:
        key = f"{scope}|{doc.group}|{doc.source}|{'poisoned' if doc.poisoned else 'honest'}"
        table[key + "|n"] += 1
        table[key + "|rules"] += doc.rules
        table[key + "|both"] += doc.rules or score >= thresholds[doc.group]

    for doc, score in zip(train, inner, strict=True):
        count("train-oof", doc, score)
    for doc in docs:
        scope = next((name for name, sets in tests.items() if doc.set in sets), "")
        if not scope and (doc.source == "case" or doc.fold):
            continue
        score = model.score(doc)
        scored.append((doc, score))
        count(scope or "held-real", doc, score)
    return {"table": table, "thresholds": thresholds, "model": model, "scored": scored, "inner": inner, "train": train}


SCOPES = ["train-oof", "validation", "newest", "held-real"]


def report(table: Counter[str]) -> list[str]:
    """The table as text lines."""
    lines = [f"{'scope':10} {'group':11} {'what':16} {'rules alone':>18} {'rules OR model':>18}"]
    scopes = ["all", *(f"fold{k}" for k in range(FOLDS)), "held-out", *SCOPES]
    for scope in scopes:
        for group in ("results", "definitions"):
            for what in ("case|poisoned", "case|honest", "page|honest", "corpus|honest"):
                key = f"{scope}|{group}|{what}"
                n = table[key + "|n"]
                if not n:
                    continue
                r, b = table[key + "|rules"], table[key + "|both"]
                what_ = what.replace("|", " ")
                lines.append(f"{scope:10} {group:11} {what_:16} {r:5}/{n:<5} {r / n:6.1%} {b:5}/{n:<5} {b / n:6.1%}")
    return lines


def write(docs: list[Doc], thresholds: dict[str, int], path: Path) -> learned.LearnedModel:
    """Train on everything and write the shipped weights with `thresholds`."""
    return write_model(fit(docs), thresholds, path)


def write_model(model: Model, thresholds: dict[str, int], path: Path) -> learned.LearnedModel:
    """Write `model`'s weights with `thresholds`."""
    header = {
        "format": learned.FORMAT,
        "window": WINDOW,
        "bias": model.bias,
        "thresholds": {learned.DEFINITION: thresholds["definitions"], learned.RESULT: thresholds["results"]},
        "features": len(model.weights),
        "scale": model.scale,
    }
    body = "".join(f"{key}\t{value}\n" for key, value in sorted(model.weights.items()))
    path.write_bytes(zlib.compress((json.dumps(header, sort_keys=True) + "\n" + body).encode("utf-8"), 9))
    return learned.load(path)


def cost(path: Path, rounds: int) -> dict[str, float]:
    """CPU µs of the model in `path` as the gateway would run it: per corpus tool (its texts scored as a
    definition; p50 and mean of each tool's best of `rounds`) beside the scan of the same tool in the same
    loop, and per 100 KB and 1 MB result of prose (what it reads of them), and its load."""
    start = time.process_time()
    model = learned.load(path)
    loaded = time.process_time() - start
    tools = [tool for _, tool in scan_corpus.load(scan_corpus.DEFAULT_CORPUS)]
    mine: list[float] = []
    scans: list[float] = []
    for tool in tools:
        texts = [text for _, text in tool_texts(tool)]
        best = [float("inf"), float("inf")]
        for _ in range(rounds):
            start = time.process_time()
            model.best(learned.tokens(learned.stream(texts)))
            best[0] = min(best[0], time.process_time() - start)
            start = time.process_time()
            scan_tool(tool)
            best[1] = min(best[1], time.process_time() - start)
        mine.append(best[0])
        scans.append(best[1])
    out = {
        "load_ms": loaded * 1e3,
        "model_per_tool_p50_us": float(np.median(mine)) * 1e6,
        "model_per_tool_mean_us": float(np.mean(mine)) * 1e6,
        "scan_per_tool_p50_us": float(np.median(scans)) * 1e6,
        "scan_per_tool_mean_us": float(np.mean(scans)) * 1e6,
    }
    prose = scan_corpus.hundred_kb_result()["content"][0]["text"]
    for name, text in (("100KB", prose), ("1MB", prose * 10)):
        spent = float("inf")
        for _ in range(rounds):
            start = time.process_time()
            model.best(learned.tokens(learned.stream([text], learned.RESULT_CHARACTERS)))
            spent = min(spent, time.process_time() - start)
        out[f"model_result_{name}_us"] = spent * 1e6
    return out


def main() -> int:
    """Extract, cross-validate, print; with --write, train on all and write the weights."""
    global BUDGET  # noqa: PLW0603 - a bench's knob
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", type=Path, nargs="+")
    parser.add_argument("--held-out", nargs="*", default=[], help="sets the rules were never tuned on")
    parser.add_argument("--cache", type=Path, help="keep the rules' verdicts and tokens here between runs")
    parser.add_argument("--write", action="store_true", help="train on everything and write the shipped weights")
    parser.add_argument("--features", type=int, default=FEATURES, help="features kept (the largest weights)")
    parser.add_argument("--out", type=Path, default=Path("learned.weights"), help="where --write writes the weights")
    parser.add_argument("--cost", type=int, metavar="ROUNDS", help="only measure what the model in --out costs")
    parser.add_argument("--validation", nargs="*", default=[], help="with --newest: test sets instead of 4 folds")
    parser.add_argument("--newest", nargs="*", default=[], help="a second scope of test sets (the newest writers)")
    parser.add_argument("--scores", type=Path, help="with --validation: write every scored text's score here (JSON)")
    parser.add_argument("--budget", type=float, default=BUDGET, help="share of honest cases the model may add")
    args = parser.parse_args()
    if args.cost:
        print(json.dumps({k: round(v, 1) for k, v in cost(args.out, args.cost).items()}))
        return 0
    HELD_OUT.update(args.held_out)
    Model.features = args.features
    start = time.perf_counter()
    if args.cache and args.cache.exists():
        docs = [Doc(**d) for d in json.loads(args.cache.read_text(encoding="utf-8"))]
    else:
        docs = extract(args.sets)
        if args.cache:
            args.cache.write_text(json.dumps([d.__dict__ for d in docs]), encoding="utf-8")
    # Whole sets into folds: a writer's cases stay together; sets dealt in the order given.
    for doc in docs:
        if doc.source == "case":
            doc.fold = [p.name for p in args.sets].index(doc.set) * FOLDS // len(args.sets)
    print(f"{len(docs)} docs in {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    BUDGET = args.budget
    if args.validation or args.newest:
        for doc in docs:
            doc.fold = doc.fold if doc.source != "case" else 0
        split = split_validate(docs, {"validation": set(args.validation), "newest": set(args.newest)})
        print("\n".join(report(split["table"])))
        print(f"thresholds: {split['thresholds']}")
        if args.scores:
            rows = [(d, s, "train-oof") for d, s in zip(split["train"], split["inner"], strict=True)]
            rows += [(d, s, "test") for d, s in split["scored"]]
            keep = ("source", "group", "poisoned", "rules", "where", "set", "fold")
            out = [{**{k: getattr(d, k) for k in keep}, "score": s, "scope": scope} for d, s, scope in rows]
            args.scores.write_text(json.dumps({"thresholds": split["thresholds"], "scores": out}), encoding="utf-8")
        if args.write:
            write_model(split["model"], split["thresholds"], args.out)
            print(f"wrote {args.out} (the model trained on the training sets)")
        return 0
    result = cross_validate(docs)
    print("\n".join(report(result["table"])))
    print(f"thresholds per fold: {result['thresholds']}")
    if args.write:
        thresholds = {g: pick(docs, result["outer"], g) for g in ("results", "definitions")}
        shipped = write(docs, thresholds, args.out)
        kinds = {"results": learned.RESULT, "definitions": learned.DEFINITION}
        flagged = Counter(
            f"{d.source} {'poisoned' if d.poisoned else 'honest'}"
            for d in docs
            if not d.rules and best(shipped, d) >= shipped.thresholds[kinds[d.group]]
        )
        print(
            f"wrote {args.out}: {len(shipped)} features, thresholds {shipped.thresholds}; "
            f"what it adds to the rules (in-sample): {dict(flagged)}"
        )
    print(f"took {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
