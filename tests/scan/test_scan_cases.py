"""The scan meets its targets on the labelled cases (tests/scan/scan_cases) and on the corpus of real tools.

The cases are poisoned definitions and results by attack class and benign
ones that name secrets, system prompts, "ignore", "always" and "before" for
honest reasons; `bench/scan_corpus.py` prints the same numbers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.scripts import load_script

REPO = Path(__file__).parents[2]
CORPUS = REPO / ".." / "shared" / "corpus"

bench = load_script(REPO / "bench" / "scan_corpus.py", "scan_corpus_bench")


@pytest.fixture(scope="module")
def score() -> Any:
    return bench.score_cases(bench.load_cases())


def test_there_are_at_least_150_poisoned_and_150_benign_cases(score: Any) -> None:
    totals = score.totals()
    assert totals["poisoned"] >= 150
    assert totals["benign"] >= 150


def test_recall_of_high_findings_is_at_least_90_percent_in_every_attack_class(score: Any) -> None:
    low = {kind: (hit, total) for kind, (hit, total) in score.recall.items() if hit < 0.9 * total}
    assert low == {}, score.missed


def test_false_high_findings_are_at_most_5_percent_of_the_benign_cases(score: Any) -> None:
    assert score.totals()["false_high_rate"] <= 0.05, score.flagged


def test_leaving_out_the_rules_that_catch_one_class_only_still_catches_80_percent_of_it(score: Any) -> None:
    low = {kind: (hit, total) for kind, (hit, total) in score.loco.items() if hit < 0.8 * total}
    assert low == {}, score.left_out


@pytest.mark.skipif(not (CORPUS / "tools").is_dir(), reason=f"corpus not found at {CORPUS.resolve()}")
def test_at_most_one_percent_of_the_corpus_tools_is_flagged_high_with_the_whole_corpus_as_catalog() -> None:
    tools = bench.load(CORPUS)
    others = bench.catalogs(tools)
    flagged = {
        (server, tool.get("name"))
        for server, tool in tools
        if bench.is_high(bench.scan_tool(tool, others=others[server]))
    }
    assert len(flagged) <= len(tools) / 100, sorted(flagged)
