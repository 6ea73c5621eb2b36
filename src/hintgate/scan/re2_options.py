"""RE2's options as the scan sets them: errors not logged, the text read as Latin-1 or UTF-8, case, memory; and
one pattern compiled with them, or None.

Pure. Every RE2 pattern and set the scan builds is made with options that log
nothing (a pattern RE2 cannot read is answered with `re2.error`, and a DFA
cache that runs out falls back to the NFA: correct, nothing to log); what else
it sets differs by use. What is not given keeps RE2's default (UTF-8, case
sensitive, 8 MiB). Where the scan has no RE2, or RE2 cannot read a pattern,
`re2_compiled` answers None and the caller reads the text with Python's engine.
"""

from __future__ import annotations

from typing import Any

__all__ = ["quiet_options", "re2_compiled"]


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


def re2_compiled(
    pattern: str | bytes, *, latin1: bool = False, case_sensitive: bool | None = None, max_mem: int | None = None
) -> Any:
    """`pattern` compiled by RE2 with `quiet_options` (bytes for `latin1`); None without RE2 or when RE2 cannot read
    it."""
    try:
        import re2
    except ImportError:  # pragma: no cover - google-re2 is a dependency
        return None
    try:
        return re2.compile(pattern, quiet_options(latin1=latin1, case_sensitive=case_sensitive, max_mem=max_mem))
    except re2.error:
        return None
