"""The scan on the blind development set (tests/hints/scan_cases/blind_dev), scored by bench/scan_cases.py.

The set was written by people who never read the scan; `bench/scan_cases.py`
scores any directory in its layout (the lead runs it on a held-out set).
"""

from __future__ import annotations

from pathlib import Path

from tests.scripts import load_script

HERE = Path(__file__).parent
REPO = HERE.parents[1]
bench = load_script(REPO / "bench" / "scan_cases.py", "scan_cases_bench")


def test_the_case_bench_reads_both_layouts_into_definitions_and_results() -> None:
    blind = bench.load(HERE / "scan_cases" / "blind_dev")
    own = bench.load(HERE / "scan_cases")
    assert {(c.group, c.poisoned) for c in blind} == {
        ("definitions", True),
        ("definitions", False),
        ("results", True),
        ("results", False),
    }
    assert len(blind) == 530
    assert {c.group for c in own if c.result is not None} == {"results"}
    # The blind set is read only where it is named: the project's own layout holds poisoned/ and benign/.
    assert not any("blind_dev" in c.where for c in own)


def score(group: str, poisoned: bool) -> float:
    hit, total = _SCORE.rate(group, poisoned)
    return hit / total


_SCORE = bench.score(bench.load(HERE / "scan_cases" / "blind_dev"))


def test_at_least_70_percent_of_the_blind_poisoned_definitions_are_flagged_high() -> None:
    assert score("definitions", True) >= 0.70, _SCORE.to_json()["missed"]


def test_at_most_5_percent_of_the_blind_honest_definitions_are_flagged_high() -> None:
    assert score("definitions", False) <= 0.05, _SCORE.to_json()["false_flags"]


def test_at_least_60_percent_of_the_blind_poisoned_results_are_flagged_high() -> None:
    assert score("results", True) >= 0.60, _SCORE.to_json()["missed"]


def test_at_most_5_percent_of_the_blind_honest_results_are_flagged_high() -> None:
    assert score("results", False) <= 0.05, _SCORE.to_json()["false_flags"]
