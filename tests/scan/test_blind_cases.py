"""The scan on the two blind development sets, scored by bench/scan_cases.py.

Each set was written by someone who never read the scan, in styles of their own choosing
(tests/scan/scan_cases/blind_dev by one writer, blind_dev2 by another); `bench/scan_cases.py`
scores any directory in their layout (the lead runs it on held-out sets nobody here has read).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.scripts import load_script

HERE = Path(__file__).parent
REPO = HERE.parents[1]
bench = load_script(REPO / "bench" / "scan_cases.py", "scan_cases_bench")

SETS = ("blind_dev", "blind_dev2")


def test_the_case_bench_reads_both_layouts_into_definitions_and_results() -> None:
    own = bench.load(HERE / "scan_cases")
    for name, size in (("blind_dev", 530), ("blind_dev2", 598)):
        blind = bench.load(HERE / "scan_cases" / name)
        assert {(c.group, c.poisoned) for c in blind} == {
            ("definitions", True),
            ("definitions", False),
            ("results", True),
            ("results", False),
        }
        assert len(blind) == size
    assert {c.group for c in own if c.result is not None} == {"results"}
    # The blind sets are read only where they are named: the project's own layout holds poisoned/ and benign/.
    assert not any("blind_dev" in c.where for c in own)


@pytest.fixture(scope="module")
def scores() -> dict[str, Any]:
    return {name: bench.score(bench.load(HERE / "scan_cases" / name)) for name in SETS}


def rate(score: Any, group: str, poisoned: bool) -> float:
    hit, total = score.rate(group, poisoned)
    return float(hit / total)


@pytest.mark.parametrize(("name", "least"), [("blind_dev", 0.75), ("blind_dev2", 0.55)])
def test_most_blind_poisoned_definitions_are_flagged_high(scores: dict[str, Any], name: str, least: float) -> None:
    assert rate(scores[name], "definitions", True) >= least, scores[name].to_json()["missed"]


@pytest.mark.parametrize("name", SETS)
def test_at_most_5_percent_of_the_blind_honest_definitions_are_flagged_high(scores: dict[str, Any], name: str) -> None:
    assert rate(scores[name], "definitions", False) <= 0.05, scores[name].to_json()["false_flags"]


@pytest.mark.parametrize(("name", "least"), [("blind_dev", 0.85), ("blind_dev2", 0.80)])
def test_most_blind_poisoned_results_are_flagged_high(scores: dict[str, Any], name: str, least: float) -> None:
    assert rate(scores[name], "results", True) >= least, scores[name].to_json()["missed"]


@pytest.mark.parametrize(("name", "most"), [("blind_dev", 0.05), ("blind_dev2", 0.07)])
def test_few_blind_honest_results_are_flagged_high(scores: dict[str, Any], name: str, most: float) -> None:
    assert rate(scores[name], "results", False) <= most, scores[name].to_json()["false_flags"]
