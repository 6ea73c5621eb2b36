"""The stamped gateway's stamps are split per call into the stages of its path, the pipes told apart by order."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.scripts import load_script

REPO = Path(__file__).parents[1]

stamps = load_script(REPO / "bench" / "call_stamps.py", "call_stamps_bench")


def _call(at: float) -> list[tuple[str, float]]:
    """One call's stamps from `at` (ms apart: each stage takes 1 ms, the upstream's round trip 10)."""
    names = ["wake", "parsed:client", "call>", "decide>", "decide<", "forward>", "write"]
    names += ["wake", "forward<", "guard>", "guard<", "record>", "record<", "call<", "write"]
    times, clock = [], at
    for name in names:
        times.append((name, clock / 1000))
        clock += 10 if name == "write" and len(times) == 7 else 1
    return times


def test_each_call_is_split_into_its_stages_with_the_upstreams_round_trip_apart() -> None:
    calls = stamps.segments([*_call(0), ("wake", 0.05), *_call(100)])
    assert len(calls) == 2
    first = calls[0]
    assert first["upstream round trip (its pipe both ways and its own work)"] == pytest.approx(10)
    assert first["result guard (the scan)"] == pytest.approx(2)  # forward< to guard<
    assert first["total in the gateway"] == pytest.approx(23)
    assert first["the gateway's own (total less the upstream's round trip)"] == pytest.approx(13)
    assert stamps.summary(calls)["decision"] == pytest.approx(1)


def test_a_call_missing_a_stamp_is_left_out() -> None:
    broken = [stamp for stamp in _call(0) if stamp[0] != "guard<"]
    assert stamps.segments([*broken, *_call(100)]) == [stamps.segments(_call(100))[0]]
