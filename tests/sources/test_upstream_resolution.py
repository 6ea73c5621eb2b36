"""An upstream's tools/resolve answer is checked as the draft tells a client to, before anyone weighs it."""

from __future__ import annotations

from typing import Any

from hintgate.hints.annotations import Hint
from hintgate.sources.resolution import RESOLUTION, answer_hints, marked, offers_resolution

READ = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}
WORST = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False, "openWorldHint": False}


def answer(**annotations: Any) -> dict[str, Any]:
    return {"resultType": "complete", "name": "execute_sql", "annotations": {**WORST, **annotations}}


def test_a_valid_answer_gives_its_four_hints() -> None:
    hints = answer_hints(answer(**READ), name="execute_sql", static=WORST)
    assert hints == {Hint(k): v for k, v in READ.items()}


def test_an_answer_for_another_tool_or_with_a_hint_that_is_no_boolean_is_a_resolution_failure() -> None:
    assert isinstance(answer_hints({**answer(), "name": "other"}, name="execute_sql", static=WORST), str)
    assert isinstance(answer_hints(answer(readOnlyHint="yes"), name="execute_sql", static=WORST), str)
    assert isinstance(answer_hints(["not", "an", "object"], name="execute_sql", static=WORST), str)


def test_an_answer_riskier_than_the_tools_listing_breaks_the_drafts_bound() -> None:
    assert "read-only" in str(answer_hints(answer(), name="execute_sql", static=READ))
    additive = {**WORST, "destructiveHint": False}
    assert "not destructive" in str(answer_hints(answer(), name="execute_sql", static=additive))
    closed = answer(openWorldHint=True)
    assert "closed world" in str(answer_hints(closed, name="execute_sql", static=WORST))


def test_the_extension_is_offered_by_an_empty_settings_object_and_a_tool_is_marked_by_its_meta() -> None:
    assert offers_resolution({"extensions": {RESOLUTION: {}}})
    assert not offers_resolution({"extensions": {RESOLUTION: {"future": True}}})
    assert not offers_resolution({})
    assert marked({"name": "t", "_meta": {RESOLUTION: {"resolvable": True}}})
    assert not marked({"name": "t", "_meta": {RESOLUTION: {"resolvable": "yes"}}})
