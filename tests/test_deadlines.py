"""Many waits ended in order by one loop timer: each at its own time, never after it ended another way."""

from __future__ import annotations

import asyncio

import pytest

from hintgate.deadlines import Deadlines

pytestmark = pytest.mark.anyio


class _Book:
    """The keys still waiting, and those expired with the loop time each was."""

    def __init__(self, expected: int) -> None:
        self.live: set[str] = set()
        self.ended: list[tuple[str, float]] = []
        self.loop = asyncio.get_running_loop()
        self._expected = expected
        self._all = asyncio.Event()

    def expire(self, key: str) -> None:
        self.live.discard(key)
        self.ended.append((key, self.loop.time()))
        if len(self.ended) >= self._expected:
            self._all.set()

    async def all_ended(self) -> None:
        async with asyncio.timeout(5):
            await self._all.wait()


async def test_waits_of_one_length_end_each_at_its_own_time_on_one_timer() -> None:
    book = _Book(expected=3)
    deadlines: Deadlines[str] = Deadlines(book.live.__contains__, book.expire)
    loop = book.loop
    start = loop.time()
    for n, key in enumerate(("a", "b", "c")):
        book.live.add(key)
        assert deadlines.at(loop, start + 0.05 + n * 0.05, key) is None  # queued, no timer of its own
    await book.all_ended()
    assert [key for key, _ in book.ended] == ["a", "b", "c"]
    for (key, when), n in zip(book.ended, range(3), strict=True):
        assert when >= start + 0.05 + n * 0.05, key


async def test_a_wait_that_ended_first_is_never_expired() -> None:
    book = _Book(expected=1)
    deadlines: Deadlines[str] = Deadlines(book.live.__contains__, book.expire)
    loop = book.loop
    book.live.update({"answered", "late"})
    deadlines.at(loop, loop.time() + 0.02, "answered")
    deadlines.at(loop, loop.time() + 0.06, "late")
    book.live.discard("answered")  # its answer came first
    await book.all_ended()
    assert [key for key, _ in book.ended] == ["late"]


async def test_a_wait_ending_before_the_last_queued_gets_its_own_timer() -> None:
    book = _Book(expected=1)
    deadlines: Deadlines[str] = Deadlines(book.live.__contains__, book.expire)
    loop = book.loop
    book.live.update({"long", "short"})
    assert deadlines.at(loop, loop.time() + 30, "long") is None
    own = deadlines.at(loop, loop.time() + 0.02, "short")
    assert own is not None
    await book.all_ended()
    assert [key for key, _ in book.ended] == ["short"]
    deadlines.clear()


async def test_clear_disarms_the_timer_so_nothing_queued_is_expired() -> None:
    book = _Book(expected=1)
    deadlines: Deadlines[str] = Deadlines(book.live.__contains__, book.expire)
    loop = book.loop
    book.live.add("k")
    deadlines.at(loop, loop.time() + 0.02, "k")
    deadlines.clear()
    probe = loop.create_future()
    loop.call_at(loop.time() + 0.06, probe.set_result, None)
    async with asyncio.timeout(5):
        await probe
    assert book.ended == []
