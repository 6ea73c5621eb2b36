"""A start that read its state ahead: calls wait for the store; the first listing written out lets it open."""

from __future__ import annotations

import anyio
import pytest

from hintgate.server.first_answer import FirstAnswer

pytestmark = pytest.mark.anyio


async def test_a_call_waits_until_the_store_is_open_and_lets_it_open_at_once() -> None:
    first = FirstAnswer(ready=False)
    ran: list[str] = []

    async def call() -> None:
        await first.store()
        ran.append("call")

    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(call)
            await first.written(grace=60)  # returns because the call waits, long before the grace
            assert ran == []
            first.store_opened()
    assert ran == ["call"]
    assert first.ready


async def test_the_store_opens_once_the_first_listing_is_written_out_not_before() -> None:
    first = FirstAnswer(ready=False)
    first.answer_written()  # an answer that was no listing (the handshake)
    with anyio.fail_after(5):
        await first.written(grace=0.01)  # nothing yet: only the grace ends the wait
        first.listing_served()
        first.answer_written()
        await first.written(grace=60)
    assert not first.ready


async def test_a_gateway_that_opened_its_store_first_never_makes_a_call_wait() -> None:
    first = FirstAnswer(ready=True)
    with anyio.fail_after(5):
        await first.store()
    assert first.ready
