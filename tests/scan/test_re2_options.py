"""RE2's options as the scan sets them (`hintgate.scan.re2_options`)."""

from __future__ import annotations

import re2

from hintgate.scan.re2_options import quiet_options, re2_compiled


def test_options_log_no_error_and_keep_re2s_defaults_for_what_is_not_given() -> None:
    default = re2.Options()
    options = quiet_options()
    assert options.log_errors is False
    assert options.encoding == default.encoding
    assert options.case_sensitive == default.case_sensitive
    assert options.max_mem == default.max_mem


def test_latin1_options_read_a_byte_a_character_with_the_case_and_memory_given() -> None:
    options = quiet_options(latin1=True, case_sensitive=False, max_mem=1 << 20)
    assert options.encoding == re2.Options.Encoding.LATIN1  # type: ignore[attr-defined]  # missing from the stubs
    assert options.case_sensitive is False
    assert options.max_mem == 1 << 20
    assert re2.compile(b"caf\xe9", options).search(b"CAF\xe9") is not None


def test_a_pattern_re2_reads_is_compiled_with_the_options_given() -> None:
    engine = re2_compiled(b"caf\xe9", latin1=True, case_sensitive=False)
    assert engine is not None
    assert engine.search(b"CAF\xe9") is not None


def test_a_pattern_re2_cannot_read_is_none_so_the_caller_uses_pythons_engine() -> None:
    assert re2_compiled(r"(?<=a)b") is None
