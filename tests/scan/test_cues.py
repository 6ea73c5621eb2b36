"""The sentence judge's RE2 patterns: what they leave on the process's stderr."""

from __future__ import annotations

import pytest

from hintgate.scan.guard import OnResultFinding, guard


def test_scanning_a_long_honest_page_writes_nothing_to_stderr(capfd: pytest.CaptureFixture[str]) -> None:
    # RE2 logs "DFA out of memory" (from C++, on fd 2) each time a large cue pattern's DFA cache runs out
    # and the match falls back to the NFA. The fallback is correct; the log line in a gateway's stderr is
    # an error that is none, once per scanned block.
    page = (
        "# Contributing\n\nRun the linter before you push. Agents working in this repository should keep "
        "changes small, run `make test`, and never commit secrets. Review the CHANGELOG and add an entry for "
        "every user-visible change; the release script reads it.\n"
    ) * 40
    guard({"content": [{"type": "text", "text": page}]}, action=OnResultFinding.MARK)
    assert "DFA out of memory" not in capfd.readouterr().err
