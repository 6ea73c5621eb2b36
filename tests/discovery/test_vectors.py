"""Static vectors: a text's meaning from the table shipped with the package, read once, only when searched."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hintgate.discovery.vectors import UNIT, load, read


def cosine(a: str, b: str) -> float:
    table = load()
    return float(table.embed(a) @ table.embed(b))


def test_the_shipped_table_is_all_minilm_l6_v2s_vocabulary_and_says_what_made_it() -> None:
    table = load()
    about = json.loads(table.about)
    assert table.vectors.shape == (30522, table.dimensions)
    assert about["model"] == "sentence-transformers/all-MiniLM-L6-v2"
    assert about["licence"] == "Apache-2.0"
    assert about["made_by"] == "scripts/distill_search_vectors.py"


@pytest.mark.parametrize(
    ("task", "same", "other"),
    [
        ("make a note that the meeting moved to Thursday", "add observations to an entity in memory", "list pods"),
        ("show any chargebacks we've received", "list disputes", "take a screenshot of the page"),
        ("which pods are failing", "list kubernetes pods and their status", "create an invoice"),
    ],
)
def test_a_task_is_nearer_in_meaning_to_the_tool_that_does_it_than_to_another(task: str, same: str, other: str) -> None:
    assert cosine(task, same) > cosine(task, other)


def test_a_texts_vector_is_whole_steps_of_one_length_the_same_every_time_and_zero_without_a_known_word() -> None:
    table = load()
    first = table.embed("read the contents of a file")
    assert np.linalg.norm(first) == pytest.approx(UNIT, rel=1e-3)
    assert np.array_equal(first, np.rint(first))
    assert np.array_equal(first, table.embed("read the contents of a file"))
    assert table.cosines(np.stack([first]), "read the contents of a file")[0] == pytest.approx(1.0, abs=1e-3)
    assert not table.embed("").any()
    assert not table.embed("\x00\x01").any()
    assert table.embed_all([]).shape == (0, table.dimensions)


def test_a_table_whose_parts_disagree_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "bad.npz"
    text = np.frombuffer(b"[UNK]\nword", dtype=np.uint8)
    np.savez(path, vocabulary=text, vectors=np.zeros((3, 4), np.int8), shifts=np.ones(2, np.uint8), about=text)
    with pytest.raises(ValueError, match=r"search_vectors\.npz: 3 vectors and 2 shifts for 2 tokens"):
        read(path)


def test_the_table_is_read_only_when_a_search_ranks_by_meaning() -> None:
    script = (
        "from hintgate.discovery import vectors\n"
        "from hintgate.discovery.index import Ranking, ToolIndex\n"
        "import hintgate.server.discovery\n"
        "tools = [{'name': 'read_file', 'description': 'Read a file.'}]\n"
        "ToolIndex(tools, Ranking(semantic=0.0)).rank('file')\n"
        "assert not vectors.is_loaded()\n"
        "ToolIndex(tools).rank('file')\n"
        "assert vectors.is_loaded()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
