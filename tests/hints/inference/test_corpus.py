"""Inference meets its targets on the corpus of real annotated MCP tools."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.scripts import load_script

REPO = Path(__file__).parents[3]
CORPUS = REPO / ".." / "shared" / "corpus"


bench = load_script(REPO / "bench" / "inference_corpus.py", "inference_corpus_bench")

pytestmark = pytest.mark.skipif(
    not (CORPUS / "labels.jsonl").is_file(), reason=f"corpus not found at {CORPUS.resolve()}"
)


@pytest.fixture(scope="module")
def tools() -> list[object]:
    loaded: list[object] = bench.load_corpus(CORPUS)
    return loaded


@pytest.fixture(scope="module")
def score(tools: list[object]) -> object:
    return bench.score_tools(tools, bench.hintgate_predictor)


def test_false_read_only_rate_is_at_most_one_percent_of_write_tools(score: object) -> None:
    assert score.false_read_only_rate <= 0.01, [t.name for t in score.false_read_only]  # type: ignore[attr-defined]


def test_read_only_recall_is_at_least_088(score: object) -> None:
    assert score.metrics()["readOnly recall"] >= 0.88  # type: ignore[attr-defined]


def test_destructive_accuracy_on_write_tools_is_at_least_085(score: object) -> None:
    assert score.metrics()["destructive accuracy"] >= 0.85  # type: ignore[attr-defined]


def test_open_world_accuracy_is_at_least_070(score: object) -> None:
    # Weak evidence (a path parameter, "memory" in a name) no longer closes the world: the
    # accuracy this costs buys the directional goal, no tool labelled open inferred closed.
    assert score.metrics()["openWorld accuracy"] >= 0.70  # type: ignore[attr-defined]


def test_idempotent_f1_on_write_tools_is_at_least_06(score: object) -> None:
    assert score.metrics()["idempotent F1"] >= 0.6  # type: ignore[attr-defined]


def test_a_local_server_keeps_at_least_97_percent_of_its_read_only_declarations(tools: list[object]) -> None:
    # The labels are what servers declare. Only strong evidence sets a local server's read-only aside;
    # when starting, stopping, connecting or generating counted too, 24 of 278 were (8.6%), now 8.
    lost, of = bench.set_aside_at_local(tools)
    assert len(lost) / of <= 0.03, [f"{t.server}/{t.name}" for t in lost]


def test_praisonai_baseline_reproduces_its_published_numbers(tools: list[object]) -> None:
    baseline = bench.score_tools(tools, bench.praisonai_predictor)
    ro = baseline.hints[bench.Hint.READ_ONLY]
    assert round(ro.precision, 3) == 0.959
    assert round(ro.recall, 3) == 0.676
    assert round(baseline.false_read_only_rate, 3) == 0.035
    assert round(baseline.hints[bench.Hint.DESTRUCTIVE].accuracy, 2) == 0.60
    assert round(baseline.hints[bench.Hint.OPEN_WORLD].accuracy, 2) == 0.60


def test_spec_defaults_baseline_has_no_read_only_recall(tools: list[object]) -> None:
    baseline = bench.score_tools(tools, bench.spec_default_predictor)
    assert baseline.hints[bench.Hint.READ_ONLY].recall == 0.0


def test_scoring_ignores_hints_the_labels_leave_out() -> None:
    tool = bench.Tool("s", "t", "", None, {bench.Hint.OPEN_WORLD: False})
    score = bench.Score()
    bench.score_one(score, tool, {bench.Hint.READ_ONLY: True})
    assert score.hints[bench.Hint.READ_ONLY].support == 0
    assert score.hints[bench.Hint.OPEN_WORLD].support == 1


def test_scoring_counts_a_predicted_read_only_write_as_not_destructive() -> None:
    labels = {bench.Hint.READ_ONLY: False, bench.Hint.DESTRUCTIVE: True}
    score = bench.Score()
    bench.score_one(score, bench.Tool("s", "t", "", None, labels), {bench.Hint.READ_ONLY: True})
    destructive = score.hints[bench.Hint.DESTRUCTIVE]
    assert (destructive.fn, destructive.support) == (1, 1)
    assert score.false_read_only_rate == 1.0


def test_missed_destructive_leaves_out_creates_and_counts_other_writes() -> None:
    labels = {bench.Hint.READ_ONLY: False, bench.Hint.DESTRUCTIVE: True}
    score = bench.Score()
    additive = {bench.Hint.READ_ONLY: False, bench.Hint.DESTRUCTIVE: False}
    bench.score_one(score, bench.Tool("s", "create_widget", "", None, labels), additive)
    bench.score_one(score, bench.Tool("s", "rewind_widget", "", None, labels), additive)
    kind = "missed destructive (not creates)"
    assert ([t.name for t in score.errors[kind]], score.totals[kind]) == (["rewind_widget"], 1)


def test_loso_pools_every_server_and_keeps_each_one_apart() -> None:
    tools = [
        bench.Tool("a", "read_widget", "", None, {bench.Hint.READ_ONLY: False}),
        bench.Tool("b", "erase_widget", "", None, {bench.Hint.READ_ONLY: False}),
    ]
    held = bench.loso(tools, bench.hintgate_predictor)
    assert held.pooled.directional()["false read-only"] == 0.5
    assert held.worst()["false read-only"] == ("a", 1.0)
    assert held.passes()["false read-only"] is False


@pytest.fixture(scope="module")
def held_out(tools: list[object]) -> object:
    return bench.loso(tools, bench.hintgate_predictor)


def test_leave_one_server_out_meets_the_directional_goals(held_out: object) -> None:
    checks = held_out.passes()  # type: ignore[attr-defined]
    assert all(checks.values()), (checks, held_out.pooled.directional())  # type: ignore[attr-defined]
