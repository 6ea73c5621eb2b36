"""The speed-goals bench reads its three benches' reports into five figures, judges each against its goal,
prints them within 80 columns or as JSON, and refuses a count under one by its option's name; its load
option runs the start-up bench beside busy loops that stop with it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from tests.scripts import load_script

REPO = Path(__file__).parents[1]

bench = load_script(REPO / "bench" / "speed_goals.py", "speed_goals_bench")
throughput = load_script(REPO / "bench" / "http_throughput.py", "http_throughput_bench")
startup = load_script(REPO / "bench" / "startup.py", "startup_bench")


def _reports(*, stdio: float, cpu: float, rss: int, start: float, first: float) -> dict[str, Any]:
    return {
        "gateway_latency.py": {"latency": {"added_ms": {"hintgate": {"median": stdio}, "fastmcp": {"median": 2.0}}}},
        "http_throughput.py": {
            "rows": [
                {"target": "hintgate+identity+record", "sessions": 16, "cpu_per_call_ms": cpu, "peak_rss_mb": rss},
                {"target": "fastmcp", "sessions": 16, "cpu_per_call_ms": 4.0, "peak_rss_mb": 95},
                {"target": "hintgate+identity+record", "sessions": 64, "cpu_per_call_ms": 9.0, "peak_rss_mb": 500},
            ]
        },
        "startup.py": {
            "targets": {
                "direct": {"minus_direct": 0.0},
                "hintgate, recording to SQLite": {"minus_direct": start},
                "hintgate, first start (no database)": {"minus_direct": first},
                "FastMCP proxy": {"minus_direct": 2.0},
            }
        },
    }


def _measured(reports: dict[str, Any], name: str) -> Any:
    return bench.Measured(reports[name], (3.0, 4.0))


def _figures(**values: Any) -> list[Any]:
    reports = _reports(**values)
    return bench.figures(*(_measured(reports, name) for name in reports))


def test_each_figure_is_judged_against_its_goal_at_sixteen_sessions() -> None:
    met = _figures(stdio=0.9, cpu=0.8, rss=110, start=0.5, first=0.7)
    assert [figure.met for figure in met] == [True, True, True, True, True]
    assert [round(figure.ratio, 2) for figure in met] == [0.45, 0.2, 1.16, 0.25, 0.35]
    missed = _figures(stdio=1.2, cpu=0.9, rss=130, start=0.7, first=0.9)
    assert [figure.met for figure in missed] == [False, False, False, False, False]


def test_a_figure_a_bench_did_not_report_is_neither_met_nor_missed() -> None:
    reports = _reports(stdio=0.9, cpu=0.8, rss=110, start=0.5, first=0.7)
    reports["http_throughput.py"] = {"rows": []}
    table = bench.figures(*(_measured(reports, name) for name in reports))
    assert [(figure.value, figure.met) for figure in table[1:3]] == [(None, None), (None, None)]


def test_the_table_stays_within_80_columns_and_names_the_load() -> None:
    text = bench.render(_figures(stdio=12.345, cpu=10.5, rss=1234, start=12.5, first=13.25))
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "3.0→4.0" in text
    assert "no" in text.splitlines()[1]


def test_main_runs_the_three_benches_and_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    reports = _reports(stdio=0.9, cpu=0.8, rss=110, start=0.5, first=0.7)
    ran: list[str] = []

    def fake(script: str, args: Sequence[str]) -> Any:
        ran.append(script)
        return _measured(reports, script)

    assert bench.main(["--format", "json", "--peers-python", "/nonexistent/python"], bench=fake) == 0
    document = json.loads(capsys.readouterr().out)
    assert ran == ["gateway_latency.py", "http_throughput.py", "startup.py"]
    assert [figure["met"] for figure in document["figures"]] == [True] * 5
    assert document["reports"]["startup"] == reports["startup.py"]


def test_a_count_under_one_is_refused_by_its_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        bench.main(["--http-calls", "0"], bench=lambda script, args: pytest.fail("no bench may run"))
    assert "--http-calls must be at least 1, not 0" in capsys.readouterr().err


def test_the_throughput_summary_gives_each_target_its_cpu_per_call_and_its_rate_to_fastmcp() -> None:
    def result(label: str, seconds: float, cpu: float) -> Any:
        return throughput.Result(label, 16, 100, seconds, [0.01] * 100, cpu, 0.01, 100)

    rows = throughput.summary([result("fastmcp", 2.0, 0.4), result("hintgate", 1.0, 0.1), result("direct", 1.0, 0.2)])
    by_target = {row["target"]: row for row in rows}
    assert by_target["hintgate"]["cpu_per_call_ms"] == pytest.approx(1.0)
    assert by_target["fastmcp"]["cpu_per_call_ms"] == pytest.approx(4.0)
    assert by_target["hintgate"]["rate_to_fastmcp"] == pytest.approx(2.0)
    assert by_target["hintgate"]["added_p50_ms"] == pytest.approx(0.0)


def test_the_load_option_reaches_the_start_up_bench_only() -> None:
    reports = _reports(stdio=0.9, cpu=0.8, rss=110, start=0.5, first=0.7)
    given: dict[str, list[str]] = {}

    def fake(script: str, args: Sequence[str]) -> Any:
        given[script] = list(args)
        return _measured(reports, script)

    assert bench.main(["--load", "3", "--peers-python", "/nonexistent/python"], bench=fake) == 0
    assert given["startup.py"][given["startup.py"].index("--load") + 1] == "3"
    assert "--load" not in given["gateway_latency.py"] + given["http_throughput.py"]


def test_busy_loops_spin_while_the_block_runs_and_are_stopped_after() -> None:
    with startup.busy_loops(2) as pids:
        assert len(pids) == 2
        for pid in pids:
            # Alive: running, or waiting on the CPU, on a page of its interpreter ("D") or a signal; not exited.
            assert Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in {"Z", "X", "x"}
    for pid in pids:
        stat = Path(f"/proc/{pid}/stat")
        assert not stat.exists() or stat.read_text().rsplit(")", 1)[1].split()[0] in {"Z", "X"}
