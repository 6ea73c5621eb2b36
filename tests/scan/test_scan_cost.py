"""The poisoning scan reads any text in time linear in its length: definitions and results, hostile or not.

Each hostile shape (`tests/scan/hostile.py`) is scanned at 10, 20, 40 and 80 KB, as a result and as a
tool's description, as written and behind a letter beyond ASCII (which keeps the RE2 prefilter out and every
phrase in play). The CPU time may grow with the length, with slack for a loaded machine, never with its
square: the test compares ratios of CPU times measured in the same run, not absolute times. A shape that was
quadratic (35 s at 40 KB for `"%41 " + "a" * n`) fails at 40 KB, before the 80 KB run would take minutes.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from tests.scan.hostile import SHAPES

from hintgate.scan.poisoning import scan_result, scan_tool
from hintgate.scan.prefilter import prepare
from hintgate.scan.reading import ROT13_WORDS

SIZES = (10, 20, 40, 80)
SLACK = 2.5
"""How far above proportional a ratio may be: linear growth is 2x, 4x, 8x over 10 KB; quadratic is 4x, 16x, 64x."""
FLOOR = 0.005
"""CPU seconds below which a 10 KB time is taken as this much: ratios of sub-millisecond times are noise."""


def as_result(text: str) -> None:
    scan_result({"content": [{"type": "text", "text": text}]}, seconds=1e9, characters=1 << 30)


def as_definition(text: str) -> None:
    scan_tool({"name": "hostile", "description": text, "inputSchema": {"type": "object"}})


def cpu(scan: Callable[[str], None], text: str, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        scan(text)
        best = min(best, time.process_time() - started)
    return best


@pytest.mark.parametrize("prefix", ["", "é "], ids=["as written", "beyond ASCII"])
@pytest.mark.parametrize("scan", [as_result, as_definition], ids=["result", "definition"])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_scan_of_a_hostile_shape_grows_linearly_with_its_length(
    shape: str, scan: Callable[[str], None], prefix: str
) -> None:
    prepare(ROT13_WORDS)
    make = SHAPES[shape]
    scan(prefix + make(2048))  # warm: patterns compiled, tables built
    base = max(cpu(scan, prefix + make(SIZES[0] * 1024), runs=3), FLOOR)
    for size in SIZES[1:]:
        took = cpu(scan, prefix + make(size * 1024), runs=2)
        ratio = took / base
        allowed = SLACK * size / SIZES[0]
        assert ratio <= allowed, (
            f"{shape!r}: {size} KB took {took:.3f} s of CPU, {ratio:.1f}x the 10 KB run's {base:.3f} s "
            f"(linear would be {size / SIZES[0]:.0f}x; allowed {allowed:.0f}x)"
        )
