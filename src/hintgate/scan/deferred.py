"""A regular expression compiled where it is first used, not where it is written.

The scan writes its patterns at its modules' top level, and Python's engine
compiling them all was most of what importing the scan cost (0.14 s of CPU
of 0.17 s), on the path of every gateway's start, though a text reaches few of
them: a plain tool definition, resolved and scanned, reaches 66 of 412. The call
judges and the annotation inference (`hintgate.hints`) write theirs the same
way and compile them here too. `compiled(source, flags)` stands for
`re.compile(source, flags)`: its `pattern` is the source at once, and the
first read of anything else (`search`, `finditer`, `flags`, ...) compiles the
pattern; from then on the compiled pattern's methods are read straight from
the stand-in, as cheaply as from the pattern itself. What it compiles to, and
so every answer, is the same.

Each stand-in is kept in a registry: `compile_pending` compiles those no text
has needed yet, so that a serving gateway compiles them on a thread of its own
rather than on its event loop at the first text that reaches them (hundreds of
patterns, seconds of CPU, for a first result of plain English prose).

The stand-in is not an `re.Pattern` to `isinstance` or to `re`'s module
functions (`re.search(stand_in, ...)`): the scan only calls its methods.

What is built where a text first needs it (these patterns, and the engines and
tables `built` marks in the scan's other modules) is the process's cost, not
the text's: the CPU time it takes is left out of the scan's clock (`clock`),
which every budget of the scan is measured on. Else the first text to need
them (a 6 KB honest page, after the warm-up: 2.7 s of building) ran out of its
1 s budget and was withheld as unscanned. What `built` marks is built once a
process, from the scan's own tables, never from a text's words, so an
upstream cannot buy uncounted time with it.
"""

from __future__ import annotations

import functools
import re
import threading
import time
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar, cast

__all__ = ["Deferred", "built", "clock", "compile_pending", "compiled", "pending"]

_P = ParamSpec("_P")
_R = TypeVar("_R")

_built = [0.0]
"""CPU time spent in `built` functions so far, by every thread (the warm-up's too: the process's clock counts it)."""
_built_lock = threading.Lock()
_building = threading.local()


def built(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """Mark `function` as building what the scan keeps (a compiled pattern, an engine, a table), once a process:
    the CPU time of its outermost call on a thread is added to what `clock` leaves out. Put it under the cache
    that keeps what it builds, so only a build is timed."""

    @functools.wraps(function)
    def timed(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        if getattr(_building, "active", False):
            return function(*args, **kwargs)
        _building.active = True
        start = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            _building.active = False
            spent = time.thread_time() - start
            with _built_lock:
                _built[0] += spent

    return timed


def clock() -> float:
    """The process's CPU time (`time.process_time`) less what `built` functions took: the clock the scan's budgets
    and deadlines are read on."""
    return time.process_time() - _built[0]


_READ = (
    "search",
    "match",
    "fullmatch",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "scanner",
    "flags",
    "groups",
    "groupindex",
)
"""What a compiled pattern offers, copied onto the stand-in once it is compiled."""


class Deferred:
    """A pattern's source and flags, compiled at the first read of anything but `pattern` (`compiled`).

    Args:
        pattern: the source, in Python's syntax.
        flags: `re`'s flags.
    """

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self._flags = flags
        _ALL.append(self)

    def __getattr__(self, name: str) -> Any:
        # Read only while an attribute is missing: the first time, and never again for what `_READ` names.
        if name.startswith("__"):  # dunders stay the stand-in's own
            raise AttributeError(name)
        regex = _compile(self.pattern, self._flags)
        for attribute in _READ:
            self.__dict__[attribute] = getattr(regex, attribute)
        return getattr(regex, name)

    def __repr__(self) -> str:
        return f"compiled({self.pattern!r}, {self._flags})"


@built
def _compile(pattern: str, flags: int) -> re.Pattern[str]:
    return re.compile(pattern, flags)


_ALL: list[Deferred] = []
"""Every stand-in made, in the order made (they live as long as the modules that wrote them)."""


def pending() -> list[Deferred]:
    """The stand-ins not compiled yet."""
    return [stand_in for stand_in in _ALL if "search" not in stand_in.__dict__]


def compile_pending() -> int:
    """Compile every stand-in not compiled yet, as its first use would; the number compiled.

    Safe beside the stand-ins' use on another thread: a pattern compiled on both is compiled to the same. A
    pattern that does not compile is left as it was (its first use raises `re.error`).
    """
    count = 0
    for stand_in in pending():
        try:
            _ = stand_in.flags  # the first read compiles
        except re.error:  # a pattern that does not compile says so where it is used, as it would have
            continue
        count += 1
    return count


def compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, compiled when first used (`Deferred`)."""
    return cast("re.Pattern[str]", Deferred(pattern, flags))
