"""A pattern compiled on first use answers as `re.compile` would, and compiles nothing until it is used."""

from __future__ import annotations

import re
import time

import pytest

from hintgate.scan import deferred
from hintgate.scan.deferred import Deferred, compiled


def test_a_deferred_pattern_answers_every_method_as_the_compiled_pattern_does() -> None:
    source, flags = r"(?P<word>\b[a-z]+)\s+(\d+)", re.IGNORECASE
    text = "Apples 3, pears 12 and plums"
    lazy, eager = compiled(source, flags), re.compile(source, flags)
    assert lazy.search(text).group("word") == eager.search(text).group("word")  # type: ignore[union-attr]
    assert lazy.match(text).span() == eager.match(text).span()  # type: ignore[union-attr]
    assert lazy.fullmatch("pears 12") is not None
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in eager.finditer(text)]
    assert lazy.findall(text) == eager.findall(text)
    assert lazy.sub("#", text) == eager.sub("#", text)
    assert lazy.subn("#", text) == eager.subn("#", text)
    assert lazy.split(text) == eager.split(text)
    assert (lazy.flags, lazy.groups, lazy.groupindex) == (eager.flags, eager.groups, eager.groupindex)


def test_a_deferred_pattern_gives_its_source_without_compiling_and_compiles_once_when_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[str] = []
    real = re.compile

    def counted(pattern: str, flags: int = 0) -> re.Pattern[str]:
        made.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(deferred.re, "compile", counted)
    lazy = compiled(r"\bsecret\b")
    assert lazy.pattern == r"\bsecret\b"
    assert made == []
    assert lazy.search("a secret here") is not None
    assert lazy.search("nothing") is None
    assert lazy.finditer("secret, secret") is not None
    assert made == [r"\bsecret\b"]


def test_a_pattern_that_does_not_compile_fails_where_it_is_first_used() -> None:
    lazy = compiled("(unclosed")
    with pytest.raises(re.error):
        lazy.search("text")


def test_a_deferred_pattern_keeps_its_own_special_methods() -> None:
    lazy = Deferred("a+")
    with pytest.raises(AttributeError):
        lazy.__missing_special__  # noqa: B018 - read for its error
    assert "a+" in repr(lazy)


def test_compile_pending_compiles_every_stand_in_no_text_has_used_yet() -> None:
    used, unused, broken = compiled(r"\bused\b"), compiled(r"\bunused\b"), compiled(r"(unclosed")
    assert used.search("it was used") is not None
    waiting = deferred.pending()
    assert unused in waiting
    assert used not in waiting
    assert deferred.compile_pending() > 0
    assert unused not in deferred.pending()
    assert broken in deferred.pending()  # left to raise where it is used
    assert "search" in vars(unused)  # compiled: its methods are the compiled pattern's own from now on
    assert unused.search("the unused one") is not None
    assert deferred.compile_pending() == 0  # only patterns that do not compile are left
    with pytest.raises(re.error):
        broken.search("text")


def _spin(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_the_time_a_build_takes_is_left_out_of_the_scans_clock_once_even_when_builds_nest() -> None:
    @deferred.built
    def inner() -> None:
        _spin(0.05)

    @deferred.built
    def outer() -> None:
        _spin(0.05)
        inner()

    before, cpu = deferred.clock(), time.process_time()
    outer()
    spent = time.process_time() - cpu
    assert spent >= 0.1
    assert deferred.clock() - before < spent - 0.09  # both builds left out, the inner one not twice
    assert deferred.clock() - before > -0.01


def test_time_spent_outside_a_build_counts_on_the_scans_clock() -> None:
    before = deferred.clock()
    _spin(0.05)
    assert deferred.clock() - before >= 0.045
