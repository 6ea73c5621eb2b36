"""RE2's options as the scan sets them: errors not logged, the text read as Latin-1 or UTF-8, case, memory.

Pure. Every RE2 pattern and set the scan builds is made with options that log
nothing (a pattern RE2 cannot read is answered with `re2.error`, and a DFA
cache that runs out falls back to the NFA: correct, nothing to log); what else
it sets differs by use. What is not given keeps RE2's default (UTF-8, case
sensitive, 8 MiB).
"""

from __future__ import annotations

from typing import Any

__all__ = ["quiet_options"]


def quiet_options(*, latin1: bool = False, case_sensitive: bool | None = None, max_mem: int | None = None) -> Any:
    """RE2's options that log no error: the text read as Latin-1 (a byte a character) with `latin1`, the case
    compared or not, at most `max_mem` bytes for a pattern's automata."""
    import re2

    options = re2.Options()
    options.log_errors = False
    if latin1:
        options.encoding = re2.Options.Encoding.LATIN1  # type: ignore[attr-defined]  # missing from the stubs
    if case_sensitive is not None:
        options.case_sensitive = case_sensitive
    if max_mem is not None:
        options.max_mem = max_mem
    return options
