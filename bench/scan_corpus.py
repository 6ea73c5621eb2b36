"""Measure the poisoning scan: the labelled cases, the corpus of real MCP tools, and what it costs.

Three parts:

- **Labelled cases** (``tests/scan/scan_cases``): poisoned definitions and
  results by attack class, benign ones by kind. Recall of high findings per
  class, false high findings per benign kind, and leave-one-class-out recall:
  for each class, every rule that catches poisoned cases of that class only
  (a rule "tuned on the class") is left out (`scan_tool(without=...)`) and the
  class is scanned again; what still catches it generalises.
- **Corpus** (``<corpus>/tools`` and ``<corpus>/unannotated``): every tool is
  scanned with the whole corpus as the catalog (each server's tools are "other
  servers' tools" for every other server, except names the server itself also
  has), which is harsher than any real gateway. None is poisoned, so every
  high finding is a false positive; they are all printed.
- **Cost**: CPU time of this process per tool (p50 and mean, best of N rounds
  per tool), and of scanning 100 KB results as the gateway does (its high
  findings only: `scan_result(warnings=False)`), best of N, a fresh copy each round: English prose with
  code and links, and setup notes naming paths in every paragraph (also with
  its 1,689 warnings listed, as `scan_result` gives them by default); each
  with the RE2 prefilter (`hintgate.scan.prefilter`) and without it (the
  scan as it runs before the prefilter's set is built, or where `google-re2`
  is missing), and the ratio; 100 KB results of other shapes an upstream
  may send (links, base64-looking tokens, HTML comments, Russian and Chinese
  prose, one line without a sentence end), with the prefilter; and the CPU
  time to build the set, once per process.

Usage::

    python bench/scan_corpus.py [--corpus DIR] [--rounds N] [--format text|json]
"""

from __future__ import annotations

import argparse
import base64
import json
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

import hintgate.scan.poisoning as scan_module
from hintgate.scan.poisoning import Level, ScanFinding, scan_result, scan_tool
from hintgate.scan.prefilter import seen
from hintgate.scan.reading import ROT13_WORDS
from hintgate.scan.screens import prepare as prepare_screens

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO / ".." / "shared" / "corpus"
CASES = REPO / "tests" / "scan" / "scan_cases"


@dataclass(frozen=True)
class Case:
    """One labelled definition (and, for output poisoning, the result it returns)."""

    kind: str
    poisoned: bool
    tool: dict[str, Any]
    others: dict[str, str] | None = None
    result: dict[str, Any] | None = None
    where: str = ""


def load_cases(folder: Path = CASES) -> list[Case]:
    """Every case of ``poisoned/*.yaml`` and ``benign/*.yaml``."""
    cases = []
    for path in sorted(folder.glob("*/*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for i, raw in enumerate(data["cases"]):
            tool = {k: v for k, v in raw.items() if k not in ("others", "result")}
            cases.append(
                Case(
                    str(data["class"]),
                    bool(data["poisoned"]),
                    tool,
                    raw.get("others"),
                    raw.get("result"),
                    f"{path.relative_to(folder)}[{i}] {raw.get('name')}",
                )
            )
    return cases


def findings_of(case: Case, without: frozenset[str] = frozenset()) -> list[ScanFinding]:
    """What the scan finds in a case: its definition and, if it has one, its result."""
    found = scan_tool(case.tool, others=case.others, without=without)
    if case.result is not None:
        found += scan_result(case.result, tool=str(case.tool.get("name")), without=without)
    return found


def is_high(findings: list[ScanFinding]) -> bool:
    """Whether any finding is high."""
    return any(f.level is Level.HIGH for f in findings)


@dataclass
class CaseScore:
    """Recall per attack class, false highs per benign kind, leave-one-class-out recall."""

    recall: dict[str, tuple[int, int]] = field(default_factory=dict)
    false_high: dict[str, tuple[int, int]] = field(default_factory=dict)
    loco: dict[str, tuple[int, int]] = field(default_factory=dict)
    left_out: dict[str, list[str]] = field(default_factory=dict)
    missed: list[str] = field(default_factory=list)
    flagged: list[str] = field(default_factory=list)

    def totals(self) -> dict[str, float]:
        """Overall recall, false-high rate and the worst class numbers."""
        hit = sum(h for h, _ in self.recall.values())
        poisoned = sum(n for _, n in self.recall.values())
        false = sum(h for h, _ in self.false_high.values())
        benign = sum(n for _, n in self.false_high.values())
        return {
            "poisoned": poisoned,
            "benign": benign,
            "recall": hit / poisoned,
            "false_high_rate": false / benign,
            "worst_class_recall": min(h / n for h, n in self.recall.values()),
            "worst_loco_recall": min(h / n for h, n in self.loco.values()),
        }


def score_cases(cases: list[Case]) -> CaseScore:
    """Scan every case; then, per class, leave out the rules that catch that class only and scan it again."""
    score = CaseScore()
    caught_by: dict[str, set[str]] = {}
    for case in cases:
        found = findings_of(case)
        table = score.recall if case.poisoned else score.false_high
        hit, total = table.get(case.kind, (0, 0))
        high = is_high(found)
        table[case.kind] = (hit + high, total + 1)
        if case.poisoned and not high:
            score.missed.append(case.where)
        if not case.poisoned and high:
            score.flagged.append(f"{case.where}: " + "; ".join(f.message for f in found if f.level is Level.HIGH)[:300])
        if case.poisoned:
            for finding in found:
                if finding.level is Level.HIGH:
                    caught_by.setdefault(finding.key, set()).add(case.kind)
    for kind in score.recall:
        only_here = frozenset(key for key, kinds in caught_by.items() if kinds == {kind})
        score.left_out[kind] = sorted(only_here)
        mine = [c for c in cases if c.poisoned and c.kind == kind]
        score.loco[kind] = (sum(is_high(findings_of(c, only_here)) for c in mine), len(mine))
    return score


def load(corpus: Path) -> list[tuple[str, dict[str, Any]]]:
    """(server, tool) for every tool of the corpus."""
    tools = []
    for folder in ("tools", "unannotated"):
        for path in sorted((corpus / folder).glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            tools.extend((str(data["server"]), tool) for tool in data["tools"])
    return tools


def catalogs(tools: list[tuple[str, dict[str, Any]]]) -> dict[str, dict[str, str]]:
    """Server → the other servers' tools (name → server), leaving out names the server has itself."""
    by_server: dict[str, set[str]] = {}
    for server, tool in tools:
        by_server.setdefault(server, set()).add(str(tool.get("name")))
    everyone: dict[str, str] = {}
    for server, names in by_server.items():
        for name in names:
            everyone.setdefault(name, server)
    return {
        server: {n: s for n, s in everyone.items() if n not in names and s != server}
        for server, names in by_server.items()
    }


class WithoutPrefilter:
    """Within: the scan runs as it does before the prefilter's set is built (or without `google-re2`)."""

    def __enter__(self) -> None:
        self.kept = scan_module.seen_by_prefilter
        scan_module.seen_by_prefilter = lambda *_args, **_kwargs: None

    def __exit__(self, *exc: object) -> None:
        scan_module.seen_by_prefilter = self.kept


def cost_of_building() -> float:
    """CPU seconds to build the prefilter's set (import and compile), in this process; 0 when built already."""
    start = time.process_time()
    seen("", words=ROT13_WORDS, build=True)
    prepare_screens()  # built with the prefilter (`hintgate.scan.screens`)
    return time.process_time() - start


def cost_per_tool(tools: list[dict[str, Any]], rounds: int) -> tuple[float, float]:
    """(p50, mean) CPU seconds to scan one tool, best of `rounds` per tool."""
    best = [float("inf")] * len(tools)
    for _ in range(rounds):
        for i, tool in enumerate(tools):
            start = time.process_time()
            scan_tool(tool)
            best[i] = min(best[i], time.process_time() - start)
    return statistics.median(best), statistics.mean(best)


def hundred_kb_result() -> dict[str, Any]:
    """A 100 KB result of ordinary documentation: prose, code, links, a few imperative sentences."""
    paragraph = (
        "## Configuring the client\n\nThe client reads its settings from `config.toml` in the working directory. "
        "Before you run it, install the dependencies with `pip install -r requirements.txt` and set the API key in "
        "the environment. You must restart the client after changing the file. See "
        "[the reference](https://docs.example.com/reference?section=config) for every option, and always pin "
        "versions in production. Errors are logged to `logs/client.log`; ignore the warnings about deprecated "
        "options for now.\n\n```python\nclient = Client(timeout=30)\nclient.run()\n```\n\n"
    )
    text = (paragraph * (102_400 // len(paragraph) + 1))[:102_400]
    return {"content": [{"type": "text", "text": text}]}


def hundred_kb_of_paths() -> dict[str, Any]:
    """A 100 KB result of setup notes that name a dotenv file and paths under `~/`, `/home` and `/etc` in every
    paragraph: each is a finding (a warning), and the phrases that need such paths are searched."""
    paragraph = (
        "## Setup\n\nCopy `.env.example` to `.env` and put your key in `~/.config/tool/config.toml`. On Linux the "
        "cache lives in /home/you/.cache/tool; see /etc/tool.conf for system settings.\n\n"
    )
    text = (paragraph * (102_400 // len(paragraph) + 1))[:102_400]
    return {"content": [{"type": "text", "text": text}]}


def _hundred_kb(paragraph: str) -> dict[str, Any]:
    text = (paragraph * (102_400 // len(paragraph) + 1))[:102_400]
    return {"content": [{"type": "text", "text": text}]}


def hundred_kb_shapes() -> dict[str, dict[str, Any]]:
    """100 KB results of other shapes an upstream may send, none poisoned: each a cost, not a verdict."""
    return {
        "links in every line": _hundred_kb(
            "See https://docs.example.com/guide/setup?lang=en&v=2#install and "
            "http://mirror.example.org/pkg/tool-1.2.3.tar.gz for details.\n"
        ),
        "base64-looking tokens, all alike": _hundred_kb(
            "token: dGhpcyBpcyBhIHRlc3Qgb2YgdGhlIGJhc2U2NCBkZWNvZGVy aGVsbG8gd29ybGQgZnJvbSB0aGUgdXBzdHJlYW0=\n"
        ),
        "base64-looking tokens, each different": _hundred_kb(
            "".join(
                f"token {i}: {base64.b64encode(f'record {i} of the export, kept as it is'.encode()).decode()}\n"
                for i in range(2000)
            )
        ),
        "HTML comments, all alike": _hundred_kb(
            "<p>Intro text.</p><!-- build 42: generated by docgen, do not edit --><p>More.</p>\n"
        ),
        "HTML comments, each different": _hundred_kb(
            "".join(
                f"<p>Part {i}.</p><!-- block {i}: generated by docgen, do not edit --><p>More.</p>\n"
                for i in range(1300)
            )
        ),
        "Russian prose": _hundred_kb(
            "Это описание настройки клиента. Создайте файл конфигурации и перезапустите службу. "
        ),
        "Chinese prose": _hundred_kb(
            "这是一个关于如何配置客户端的说明。请在工作目录中创建配置文件，然后重新启动服务。"
        ),
        # Without the fullwidth comma (which NFKC changes): the punctuation the wide prefilter reads as written.
        "Chinese prose, no fullwidth punctuation": _hundred_kb(
            "这是一个关于如何配置客户端的说明。请在工作目录中创建配置文件、然后重新启动服务。"
        ),
        "one line, no sentence end": _hundred_kb(
            "the quick brown fox jumps over the lazy dog and you should read the manual then run it "
        ),
    }


def cost_of_result(rounds: int, result: dict[str, Any] | None = None, *, warnings: bool = False) -> float:
    """CPU seconds to scan a 100 KB result (by default `hundred_kb_result`), best of `rounds`: as the gateway does
    (its high findings only), or with `warnings` every finding listed."""
    result = hundred_kb_result() if result is None else result
    best = float("inf")
    for _ in range(rounds):
        # A copy each round, its strings new objects: the scan remembers the views of the last text it read (the
        # phrases and the sentence judge read each text in turn), which a second round of the same text would reuse.
        fresh = json.loads(json.dumps(result))
        start = time.process_time()
        scan_result(fresh, warnings=warnings)
        best = min(best, time.process_time() - start)
    return best


def main() -> int:
    """Score the cases, scan the corpus, print cost and findings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args()
    building = cost_of_building()  # before anything else builds it
    cases = score_cases(load_cases())
    tools = load(args.corpus)
    if not tools:
        parser.error(f"no corpus tools in {args.corpus.resolve()}/tools or /unannotated (give --corpus DIR)")
    others = catalogs(tools)
    with WithoutPrefilter():
        plain_p50, plain_mean = cost_per_tool([t for _, t in tools], args.rounds)
        plain_doc = cost_of_result(max(3, args.rounds // 4))
        plain_paths = cost_of_result(max(3, args.rounds // 4), hundred_kb_of_paths())
        plain_listed = cost_of_result(max(3, args.rounds // 4), hundred_kb_of_paths(), warnings=True)
    p50, mean = cost_per_tool([t for _, t in tools], args.rounds)
    doc = cost_of_result(max(3, args.rounds // 4))
    paths = cost_of_result(max(3, args.rounds // 4), hundred_kb_of_paths())
    listed = cost_of_result(max(3, args.rounds // 4), hundred_kb_of_paths(), warnings=True)
    shapes = {name: cost_of_result(max(3, args.rounds // 4), r) for name, r in hundred_kb_shapes().items()}
    findings = [(server, f) for server, tool in tools for f in scan_tool(tool, others=others[server])]
    high_tools = {(s, f.tool) for s, f in findings if f.level is Level.HIGH}
    result = {
        "cases": {
            **cases.totals(),
            "recall_per_class": cases.recall,
            "loco_recall_per_class": cases.loco,
            "false_high_per_kind": cases.false_high,
            "left_out_per_class": cases.left_out,
            "missed": cases.missed,
            "flagged_benign": cases.flagged,
        },
        "tools": len(tools),
        "us_per_tool_p50": round(p50 * 1e6, 1),
        "us_per_tool_mean": round(mean * 1e6, 1),
        "ms_per_100kb_result": round(doc * 1e3, 2),
        "ms_per_100kb_result_of_paths": round(paths * 1e3, 2),
        "ms_per_100kb_result_of_paths_warnings_listed": round(listed * 1e3, 2),
        "without_prefilter": {
            "us_per_tool_p50": round(plain_p50 * 1e6, 1),
            "us_per_tool_mean": round(plain_mean * 1e6, 1),
            "ms_per_100kb_result": round(plain_doc * 1e3, 2),
            "ms_per_100kb_result_of_paths": round(plain_paths * 1e3, 2),
            "ms_per_100kb_result_of_paths_warnings_listed": round(plain_listed * 1e3, 2),
        },
        "ms_per_100kb_result_of_shape": {name: round(cost * 1e3, 2) for name, cost in shapes.items()},
        "ms_to_build_prefilter": round(building * 1e3, 1),
        "findings": dict(Counter(f.code for _, f in findings)),
        "tools_flagged_high": len(high_tools),
        "high_rate": round(len(high_tools) / len(tools), 4),
        "high": [{"server": s, **f.to_json()} for s, f in findings if f.level is Level.HIGH],
        "other": [{"server": s, **f.to_json()} for s, f in findings if f.level is not Level.HIGH],
    }
    if args.format == "json":
        json.dump(result, sys.stdout, indent=2, ensure_ascii=False)
        print()
        return 0
    totals = cases.totals()
    print(f"labelled cases: {totals['poisoned']} poisoned, {totals['benign']} benign")
    print(f"{'class':14} {'recall':>10} {'leave-one-class-out':>20}  rules left out")
    for kind, (hit, total) in sorted(cases.recall.items()):
        loco_hit, _ = cases.loco[kind]
        print(
            f"{kind:14} {hit:4}/{total:<4} {hit / total:4.0%} {loco_hit:8}/{total:<4} {loco_hit / total:4.0%}  "
            f"{len(cases.left_out[kind])}"
        )
    print(f"{'benign kind':14} {'false high':>10}")
    for kind, (hit, total) in sorted(cases.false_high.items()):
        print(f"{kind:14} {hit:4}/{total:<4} {hit / total:4.0%}")
    print(f"overall recall {totals['recall']:.1%}, false high {totals['false_high_rate']:.1%} of benign")
    for where in cases.missed:
        print(f"  missed  {where}")
    for where in cases.flagged:
        print(f"  flagged {where}")
    print(f"corpus tools: {result['tools']}, flagged high: {result['tools_flagged_high']} ({result['high_rate']:.2%})")
    plain = result["without_prefilter"]
    print("cost (CPU, no catalog)          with prefilter   without   without / with")
    for label, key, unit in (
        ("per tool, p50", "us_per_tool_p50", "us"),
        ("per tool, mean", "us_per_tool_mean", "us"),
        ("100 KB result", "ms_per_100kb_result", "ms"),
        ("100 KB result naming paths", "ms_per_100kb_result_of_paths", "ms"),
        ("  the same, warnings listed", "ms_per_100kb_result_of_paths_warnings_listed", "ms"),
    ):
        ratio = plain[key] / result[key] if result[key] else float("inf")
        print(f"{label:30} {result[key]:>11} {unit} {plain[key]:>9} {unit} {ratio:>11.1f}x")
    print("100 KB results of other shapes, as the gateway scans them (with the prefilter)")
    for name, ms in result["ms_per_100kb_result_of_shape"].items():
        print(f"  {name:38} {ms:>8} ms")
    print(f"building the prefilter's set, once per process: {result['ms_to_build_prefilter']} ms")
    for entry in result["high"]:
        print(f"  {entry['level']:7} {entry['code']} {entry['server']}/{entry['tool']}: {entry['message']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
