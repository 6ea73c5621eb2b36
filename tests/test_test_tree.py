"""The test tree itself: one pytest run must be able to collect every test file.

The test directories are not packages, so pytest imports each test file by its
basename: two files with the same name in different directories stop the whole
run at collection ("import file mismatch"), which a run of one directory never
shows. This check runs in the quick set every change runs.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_no_two_test_files_share_a_basename() -> None:
    by_name: dict[str, list[str]] = defaultdict(list)
    for path in TESTS.rglob("test_*.py"):
        if "node_modules" in path.parts or any(part.startswith(".") for part in path.relative_to(TESTS).parts):
            continue
        by_name[path.name].append(str(path.relative_to(TESTS)))
    shared = {name: sorted(paths) for name, paths in by_name.items() if len(paths) > 1}
    assert shared == {}, f"rename one of each pair: {shared}"
