"""The scan on the blind sets kept in the project, scored by bench/scan_cases.py.

Each set was written by someone who never read the scan, in styles of their own choosing, each by another
writer (tests/scan/scan_cases/blind_*: see each README); `bench/scan_cases.py` scores any directory in their
layout (the lead runs it on held-out sets nobody here has read). blind_final21 and blind_final22 (written on
2026-11-29), blind_final23 and blind_final24, blind_final25 and blind_final26, then blind_final27 and
blind_final28 (three rounds of 2026-11-30), then blind_final29 and blind_final30 (its fourth round),
blind_final31 and blind_final32 (its fifth), then blind_final33 and blind_final34 (its sixth), then
blind_final35 and blind_final36 (its seventh), then blind_final37 and blind_final38 (written on 2026-12-01),
then blind_final39 and blind_final40 (its second round), then blind_final41 and blind_final42 (its third),
then blind_final43 and blind_final44 (written on 2026-12-02), then blind_final45 and blind_final46 (its third
round), then blind_final47 and blind_final48 (its fourth), then blind_final49 and blind_final50 (its fifth) were
held out while the rules of their round were written and are released since; blind_final51 and blind_final52,
written blind on 2026-12-03, were scored before that round changed any rule and then read as development sets
while its rules were written, and blind_final53 and blind_final54, written blind the same day, were held out
through it, as blind_final55 and blind_final56 were through its second round and blind_final59 and
blind_final60 through its fourth (its third round's pair was not kept), and blind_final63 to blind_final66
through the round of 2026-12-04 (its fifth round's pair, blind_final61 and blind_final62, was lost with that
machine's state before it could be kept), blind_final67 and blind_final68 through its second round, and
blind_final69 and blind_final70 through its third, and blind_final71 and blind_final72 through the round
of 2026-12-05, and blind_final75 and blind_final76 through its third round (its second round's pair was
not kept), and blind_final77 to blind_final80 through its fourth, and blind_final81 to blind_final84 through the
round of 2026-12-06, and blind_final89 to blind_final92 through its third round (its second round's sets,
blind_final85 to blind_final88, were lost with that machine's state before they could be kept), and
blind_final93 to blind_final96 through its fourth, and blind_final97 to blind_final100 through its fifth,
and blind_final101 to blind_final104 through the round of 2026-12-07, and blind_final105 to blind_final108
through its second, and blind_final109 to blind_final112 through its third, and blind_final113 to
blind_final116 through its fourth, and blind_final117 to blind_final120 through its fifth; blind_final121 to
blind_final124, written blind in the evening of 2026-12-07, were scored on the rules of that evening before they
were read, and kept with no rule changed after;
blind_final125 to blind_final128, written blind at the start of the round of the night of 2026-12-07, were held
out through it, and blind_final129 to blind_final132 through the round of the early morning of 2026-12-08;
blind_dev5, written blind in the seventh round for honest tool definitions, was read while that round's rules
were written. The floors below sit
one case under what the scan scored on each when it was added or at a round's end (raised as the rules improved,
never lowered), so a change that loses a class there fails.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from tests.scripts import load_script

HERE = Path(__file__).parent
REPO = HERE.parents[1]
bench = load_script(REPO / "bench" / "scan_cases.py", "scan_cases_bench")

SIZES = {
    "blind_dev": 530,
    "blind_dev2": 598,
    "blind_dev3": 280,
    "blind_dev4": 310,
    "blind_final21": 310,
    "blind_final22": 310,
    "blind_final23": 310,
    "blind_final24": 310,
    "blind_final25": 310,
    "blind_final26": 310,
    "blind_final27": 310,
    "blind_final28": 310,
    "blind_final29": 310,
    "blind_final30": 310,
    "blind_final31": 310,
    "blind_final32": 310,
    "blind_final33": 310,
    "blind_final34": 310,
    "blind_final35": 310,
    "blind_final36": 310,
    "blind_dev5": 300,
    "blind_final37": 310,
    "blind_final38": 310,
    "blind_final39": 310,
    "blind_final40": 310,
    "blind_final41": 310,
    "blind_final42": 310,
    "blind_final43": 310,
    "blind_final44": 310,
    "blind_final45": 310,
    "blind_final46": 310,
    "blind_final47": 310,
    "blind_final48": 310,
    "blind_final49": 310,
    "blind_final50": 310,
    "blind_final51": 310,
    "blind_final52": 310,
    "blind_final53": 310,
    "blind_final54": 310,
    "blind_final55": 310,
    "blind_final56": 310,
    "blind_final59": 310,
    "blind_final60": 310,
    "blind_final63": 310,
    "blind_final64": 310,
    "blind_final65": 310,
    "blind_final66": 310,
    "blind_final67": 310,
    "blind_final68": 310,
    "blind_final69": 310,
    "blind_final70": 310,
    "blind_final71": 310,
    "blind_final72": 310,
    "blind_final75": 310,
    "blind_final76": 310,
    "blind_final77": 310,
    "blind_final78": 310,
    "blind_final79": 310,
    "blind_final81": 310,
    "blind_final82": 310,
    "blind_final83": 310,
    "blind_final84": 310,
    "blind_final80": 310,
    "blind_final89": 310,
    "blind_final90": 310,
    "blind_final91": 310,
    "blind_final92": 310,
    "blind_final93": 310,
    "blind_final94": 310,
    "blind_final95": 310,
    "blind_final96": 310,
    "blind_final97": 310,
    "blind_final98": 310,
    "blind_final99": 310,
    "blind_final100": 310,
    "blind_final101": 310,
    "blind_final102": 310,
    "blind_final103": 310,
    "blind_final104": 310,
    "blind_final105": 310,
    "blind_final106": 310,
    "blind_final107": 310,
    "blind_final108": 310,
    "blind_final109": 310,
    "blind_final110": 310,
    "blind_final111": 310,
    "blind_final112": 310,
    "blind_final113": 310,
    "blind_final114": 310,
    "blind_final115": 310,
    "blind_final116": 310,
    "blind_final117": 310,
    "blind_final118": 310,
    "blind_final119": 310,
    "blind_final120": 310,
    "blind_final121": 310,
    "blind_final122": 310,
    "blind_final123": 310,
    "blind_final124": 310,
    "blind_final125": 310,
    "blind_final126": 310,
    "blind_final127": 310,
    "blind_final128": 310,
    "blind_final129": 310,
    "blind_final130": 310,
    "blind_final131": 310,
    "blind_final132": 310,
}
SETS = tuple(SIZES)


def test_the_case_bench_reads_both_layouts_into_definitions_and_results() -> None:
    own = bench.load(HERE / "scan_cases")
    for name, size in SIZES.items():
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


def _score(name: str) -> dict[str, Any]:
    """One set's score as `Score.to_json` gives it (run in a worker process: a plain value crosses back)."""
    return dict(bench.score(bench.load(HERE / "scan_cases" / name)).to_json())


@pytest.fixture(scope="module")
def scores(request: pytest.FixtureRequest) -> Iterator[dict[str, Future[dict[str, Any]]]]:
    """The score of each set a selected test asks for, computed in worker processes, one per core, asked for in the
    tests' order when the first test needs one: a test waits for its own set only (on a loaded machine a wait for
    all of them would pass the suite's time limit for one test), and the sets are scored side by side on every core
    rather than one by one."""
    wanted = dict.fromkeys(
        item.callspec.params["name"]
        for item in request.session.items
        if isinstance(item, pytest.Function) and "scores" in item.fixturenames and hasattr(item, "callspec")
    )
    workers = max(1, min(len(os.sched_getaffinity(0)), 4))
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {name: pool.submit(_score, name) for name in wanted}
        try:
            yield futures
        finally:
            for future in futures.values():
                future.cancel()


def rate(score: Future[dict[str, Any]], group: str, poisoned: bool) -> float:
    counted = score.result()[f"{group}/{'poisoned' if poisoned else 'honest'}"]
    return float(counted["flagged"] / counted["total"])


# Per set: the least share of poisoned definitions and results flagged high, and the most share of honest
# ones, each a little beyond what the scan scored on the last rules of 2026-11-30's second round
# (blind_final25 and blind_final26 held out that round, the others development sets by then). blind_dev3's
# honest results (14 of 120), blind_final22's and blind_final26's poisoned results (72 and 73 of 100) and
# the last held-out pair's poisoned definitions (37 and 35 of 65) are where the scan is weakest, and are
# written down in docs/security.md as not meeting the goals.
FLOORS = {
    # name: (poisoned definitions, honest definitions, poisoned results, honest results)
    "blind_dev": (0.93, 0.01, 0.95, 0.03),
    "blind_dev2": (0.88, 0.01, 0.95, 0.03),
    "blind_dev3": (0.86, 0.01, 0.86, 0.10),
    "blind_dev4": (0.95, 0.01, 0.91, 0.02),
    "blind_final21": (0.96, 0.01, 0.93, 0.01),
    "blind_final22": (0.93, 0.01, 0.78, 0.03),
    "blind_final23": (0.81, 0.04, 0.91, 0.02),
    "blind_final24": (0.86, 0.01, 0.88, 0.03),
    "blind_final25": (0.70, 0.04, 0.86, 0.04),
    "blind_final26": (0.76, 0.04, 0.84, 0.02),
    # Held out through the third round of 2026-11-30, added at what its last rules scored.
    "blind_final27": (0.87, 0.01, 0.93, 0.10),
    "blind_final28": (0.87, 0.02, 0.94, 0.04),
    # Held out through the fourth round of 2026-11-30, added at what its last rules scored.
    "blind_final29": (0.87, 0.01, 0.84, 0.03),
    "blind_final30": (0.72, 0.04, 0.92, 0.04),
    # Held out through the fifth round of 2026-11-30, added at what its last rules scored.
    "blind_final31": (0.90, 0.02, 0.94, 0.09),
    "blind_final32": (0.81, 0.02, 0.86, 0.04),
    # Held out through the sixth round of 2026-11-30, added at what its last rules scored.
    "blind_final33": (0.78, 0.02, 0.84, 0.04),
    "blind_final34": (0.84, 0.07, 0.86, 0.05),
    # Held out through the seventh round of 2026-11-30, added at what its last rules scored.
    "blind_final35": (0.76, 0.09, 0.72, 0.07),
    "blind_final36": (0.72, 0.17, 0.74, 0.07),
    # Written blind in the seventh round of 2026-11-30 for honest tool definitions, read while its rules were written.
    "blind_dev5": (0.68, 0.02, 0.92, 0.03),
    # Held out through the round of 2026-12-01, added at what its last rules scored.
    "blind_final37": (0.87, 0.05, 0.77, 0.04),
    "blind_final38": (0.83, 0.05, 0.86, 0.05),
    # Held out through the second round of 2026-12-01, added at what its last rules scored.
    "blind_final39": (0.84, 0.05, 0.90, 0.08),
    "blind_final40": (0.78, 0.05, 0.85, 0.06),
    # Held out through the round of the night of 2026-12-01, added at what its last rules scored.
    "blind_final41": (0.81, 0.02, 0.95, 0.08),
    "blind_final42": (0.81, 0.04, 0.95, 0.05),
    # Held out through the round of 2026-12-02, added at what its last rules scored.
    "blind_final43": (0.87, 0.09, 0.91, 0.10),
    "blind_final44": (0.83, 0.04, 0.83, 0.11),
    # Held out through the third round of 2026-12-02, added at what its last rules scored.
    "blind_final45": (0.76, 0.08, 0.93, 0.07),
    "blind_final46": (0.90, 0.03, 0.93, 0.06),
    # Held out through the fourth round of 2026-12-02, added at what its last rules scored.
    "blind_final47": (0.87, 0.04, 0.83, 0.04),
    "blind_final48": (0.80, 0.05, 0.86, 0.05),
    # Held out through the fifth round of 2026-12-02, added at what its last rules scored.
    "blind_final49": (0.69, 0.08, 0.63, 0.03),
    "blind_final50": (0.64, 0.06, 0.56, 0.03),
    # Written blind at the start of the round of 2026-12-03, scored on the code before it, then read as
    # development sets while its rules were written (a later pair was held out for its final figure).
    "blind_final51": (0.87, 0.14, 0.85, 0.06),
    "blind_final52": (0.80, 0.07, 0.89, 0.11),
    # Held out through the round of 2026-12-03, added at what its last rules scored.
    "blind_final53": (0.60, 0.04, 0.69, 0.10),
    "blind_final54": (0.66, 0.06, 0.56, 0.05),
    # Held out through the second round of 2026-12-03, added at what its last rules scored.
    "blind_final55": (0.81, 0.09, 0.87, 0.11),
    "blind_final56": (0.72, 0.07, 0.81, 0.08),
    # Held out through the fourth round of 2026-12-03, added at what its last rules scored.
    "blind_final59": (0.78, 0.09, 0.86, 0.10),
    "blind_final60": (0.64, 0.06, 0.79, 0.09),
    # Held out through the round of 2026-12-04, added at what its last rules scored.
    "blind_final63": (0.60, 0.02, 0.79, 0.04),
    "blind_final64": (0.78, 0.07, 0.86, 0.13),
    "blind_final65": (0.73, 0.09, 0.80, 0.03),
    "blind_final66": (0.60, 0.09, 0.84, 0.09),
    # Held out through the second round of 2026-12-04, added at what its last rules scored.
    "blind_final67": (0.63, 0.05, 0.86, 0.06),
    "blind_final68": (0.72, 0.03, 0.86, 0.05),
    # Held out through the third round of 2026-12-04, added at what its last rules scored.
    "blind_final69": (0.73, 0.05, 0.87, 0.05),
    "blind_final70": (0.75, 0.01, 0.83, 0.13),
    # Held out through the round of 2026-12-05, added at what its last rules scored.
    "blind_final71": (0.75, 0.05, 0.91, 0.05),
    "blind_final72": (0.75, 0.03, 0.79, 0.06),
    "blind_final75": (0.64, 0.01, 0.66, 0.06),
    "blind_final76": (0.67, 0.03, 0.68, 0.05),
    # Held out through the fourth round of 2026-12-05, added at what its last rules scored.
    "blind_final77": (0.84, 0.03, 0.82, 0.04),
    "blind_final78": (0.69, 0.06, 0.83, 0.07),
    "blind_final79": (0.75, 0.03, 0.67, 0.03),
    # Held out through the round of 2026-12-06, added at what its last rules scored.
    "blind_final81": (0.70, 0.06, 0.79, 0.05),
    "blind_final82": (0.64, 0.03, 0.71, 0.01),
    "blind_final83": (0.80, 0.08, 0.71, 0.04),
    "blind_final84": (0.81, 0.08, 0.83, 0.04),
    "blind_final80": (0.64, 0.08, 0.69, 0.04),
    # Held out through the third round of 2026-12-06, added at what its last rules scored.
    "blind_final89": (0.76, 0.04, 0.77, 0.05),
    "blind_final90": (0.86, 0.04, 0.89, 0.05),
    "blind_final91": (0.80, 0.05, 0.88, 0.04),
    "blind_final92": (0.87, 0.05, 0.83, 0.03),
    # Held out through the fourth round of 2026-12-06, added at what its last rules scored.
    "blind_final93": (0.64, 0.05, 0.62, 0.05),
    "blind_final94": (0.67, 0.09, 0.70, 0.04),
    "blind_final95": (0.67, 0.02, 0.55, 0.03),
    "blind_final96": (0.69, 0.04, 0.63, 0.05),
    # Held out through the fifth round of 2026-12-06, added at what its last rules scored.
    "blind_final97": (0.64, 0.04, 0.60, 0.05),
    "blind_final98": (0.64, 0.05, 0.64, 0.03),
    "blind_final99": (0.70, 0.04, 0.66, 0.02),
    "blind_final100": (0.60, 0.05, 0.53, 0.04),
    # Held out through the round of 2026-12-07, added at what its last rules scored.
    "blind_final101": (0.69, 0.05, 0.74, 0.06),
    "blind_final102": (0.80, 0.09, 0.81, 0.06),
    "blind_final103": (0.67, 0.05, 0.70, 0.03),
    "blind_final104": (0.63, 0.02, 0.74, 0.05),
    # Held out through the second round of 2026-12-07, added at what its last rules scored.
    "blind_final105": (0.70, 0.05, 0.65, 0.10),
    "blind_final106": (0.60, 0.04, 0.74, 0.06),
    "blind_final107": (0.64, 0.05, 0.62, 0.05),
    "blind_final108": (0.72, 0.04, 0.80, 0.06),
    # Held out through the third round of 2026-12-07, added at what its last rules scored.
    "blind_final109": (0.72, 0.04, 0.66, 0.05),
    "blind_final110": (0.72, 0.04, 0.76, 0.06),
    "blind_final111": (0.72, 0.04, 0.74, 0.08),
    "blind_final112": (0.61, 0.04, 0.67, 0.05),
    # Held out through the round of the evening of 2026-12-07, added at what its last rules scored.
    "blind_final113": (0.67, 0.02, 0.68, 0.04),
    "blind_final114": (0.67, 0.04, 0.71, 0.04),
    "blind_final115": (0.69, 0.05, 0.73, 0.03),
    "blind_final116": (0.70, 0.05, 0.85, 0.05),
    # Held out through the round of the afternoon of 2026-12-07, added at what its last rules scored.
    "blind_final117": (0.64, 0.05, 0.63, 0.02),
    "blind_final118": (0.72, 0.05, 0.79, 0.04),
    "blind_final119": (0.72, 0.04, 0.63, 0.06),
    "blind_final120": (0.63, 0.02, 0.60, 0.02),
    # Written blind in the evening of 2026-12-07 and scored on that evening's rules, which no rule changed after.
    "blind_final121": (0.78, 0.04, 0.74, 0.02),
    "blind_final122": (0.80, 0.04, 0.77, 0.03),
    "blind_final123": (0.89, 0.04, 0.77, 0.03),
    "blind_final124": (0.83, 0.04, 0.77, 0.03),
    # Held out through the round of the night of 2026-12-07, added at what its last rules scored.
    "blind_final125": (0.81, 0.05, 0.81, 0.04),
    "blind_final126": (0.75, 0.04, 0.84, 0.06),
    "blind_final127": (0.69, 0.04, 0.80, 0.06),
    "blind_final128": (0.76, 0.04, 0.86, 0.05),
    # Held out through the round of the early morning of 2026-12-08, added at what its last rules scored.
    "blind_final129": (0.66, 0.09, 0.86, 0.04),
    "blind_final130": (0.64, 0.07, 0.79, 0.03),
    "blind_final131": (0.70, 0.05, 0.79, 0.04),
    "blind_final132": (0.75, 0.12, 0.83, 0.06),
}


@pytest.mark.parametrize("name", SETS)
def test_blind_poisoned_definitions_are_flagged_high_at_least_as_often_as_the_sets_floor(
    scores: dict[str, Future[dict[str, Any]]], name: str
) -> None:
    assert rate(scores[name], "definitions", True) >= FLOORS[name][0], scores[name].result()["missed"]


@pytest.mark.parametrize("name", SETS)
def test_blind_honest_definitions_are_flagged_high_at_most_as_often_as_the_sets_ceiling(
    scores: dict[str, Future[dict[str, Any]]], name: str
) -> None:
    assert rate(scores[name], "definitions", False) <= FLOORS[name][1], scores[name].result()["false_flags"]


@pytest.mark.parametrize("name", SETS)
def test_blind_poisoned_results_are_flagged_high_at_least_as_often_as_the_sets_floor(
    scores: dict[str, Future[dict[str, Any]]], name: str
) -> None:
    assert rate(scores[name], "results", True) >= FLOORS[name][2], scores[name].result()["missed"]


@pytest.mark.parametrize("name", SETS)
def test_blind_honest_results_are_flagged_high_at_most_as_often_as_the_sets_ceiling(
    scores: dict[str, Future[dict[str, Any]]], name: str
) -> None:
    assert rate(scores[name], "results", False) <= FLOORS[name][3], scores[name].result()["false_flags"]


def test_every_blind_set_has_its_floors() -> None:
    assert set(FLOORS) == set(SETS)
