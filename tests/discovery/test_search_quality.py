"""search_tools' ranking on the blind development set: 376 task-phrased queries over the corpus's 661 tools.

The queries (tests/discovery/data/search_dev.jsonl) were written by someone who never read the ranking
code, from the corpus files alone; `bench/search_queries.py` scores any such file. The ranking was tuned
on them by general means only (field weights, deeper parameters, character trigrams, the query's act
against the readOnly hint; the meaning's weight beside BM25 is the fusion's own, 1), so this set
measures what tuning reached, not what an unseen set will.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.scripts import load_script

REPO = Path(__file__).parents[2]
DEV = Path(__file__).parent / "data" / "search_dev.jsonl"

bench = load_script(REPO / "bench" / "search_queries.py", "search_queries_bench")


@pytest.fixture(scope="module")
def scored(corpus_dir: Path) -> Any:
    catalog = bench.load_corpus(corpus_dir)
    return bench.score(catalog, bench.load_queries([DEV]))


@pytest.fixture(scope="module")
def corpus_dir() -> Path:
    import os

    path = REPO.parent / "shared" / "corpus"
    if not (path / "tools").is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing: CI has shared/ beside the clone")
        pytest.skip("../shared/corpus is not beside this checkout")
    return path


def test_the_development_set_has_its_376_queries() -> None:
    assert len(bench.load_queries([DEV])) == 376


def test_recall_at_5_on_the_development_set_is_at_least_078(scored: Any) -> None:
    # Measured 0.793 (MRR@10 0.665) with the meaning beside BM25F (0.790, 0.648 with fields scored apart); by words
    # alone 0.774 (0.637), fields scored apart 0.755 (0.614), the untuned
    # ranking 0.675 (0.540). The goal, 0.80, is not reached.
    assert scored.recall5 >= 0.78, [(m.text, found) for m, found in scored.misses[:20]]


def test_mrr_at_10_on_the_development_set_is_at_least_064(scored: Any) -> None:
    assert scored.mrr10 >= 0.64


def test_read_only_search_returns_no_tool_that_is_not_read_only_for_any_query(scored: Any) -> None:
    assert scored.queries == 376
    assert scored.violations == []
