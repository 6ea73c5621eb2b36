"""What one call went through (`hintgate.outcome`)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from hintgate.outcome import CallAttempt
from hintgate.policy.decide import Decision, DecisionSource
from hintgate.policy.rules import Verdict


def _attempt() -> CallAttempt:
    return CallAttempt(Decision(Verdict.ALLOW, "allowed", DecisionSource.MODE_DEFAULT), 0.0, datetime.now(UTC))


def test_every_call_gets_a_new_random_uuid_spelled_as_uuid_spells_it() -> None:
    ids = [_attempt().call_id for _ in range(2000)]
    assert len(set(ids)) == len(ids)
    for call_id in ids:
        parsed = uuid.UUID(call_id)
        assert parsed.version == 4
        assert parsed.variant == uuid.RFC_4122
        assert str(parsed) == call_id
