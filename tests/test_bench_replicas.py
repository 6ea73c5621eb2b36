"""The replicas bench parses its options, refuses bad ones by name, and reports as a table or JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.scripts import load_script

REPO = Path(__file__).parents[1]


bench = load_script(REPO / "bench" / "replicas.py", "replicas_bench")


def _run(setup: str, replicas: int, rss: list[int]) -> object:
    return bench.Run(
        setup=setup,
        replicas=replicas,
        sessions=16,
        calls=500,
        seconds=2.0,
        p50_ms=10.0,
        p90_ms=20.0,
        cpu_per_call_ms=1.25,
        client_cpu_per_call_ms=0.3,
        upstream_cpu_per_call_ms=2.0,
        peak_rss_mb=rss,
        errors=0,
        added_p50_ms=1.5,
        added_p90_ms=-0.5,
    )


def test_the_defaults_drive_16_sessions_and_30_approval_rounds_on_every_setup() -> None:
    opts = bench.parse([])
    assert (opts.calls, opts.sessions, opts.rounds, opts.only, opts.format) == (1000, 16, 30, None, "table")
    assert opts.commit == "durable"


def test_only_keeps_the_named_setups_and_format_json_is_accepted() -> None:
    opts = bench.parse(["--only", "pg-2-replicas", "direct", "--format", "json", "--commit", "fast"])
    assert opts.only == ["pg-2-replicas", "direct"]
    assert (opts.format, opts.commit) == ("json", "fast")


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--calls", "0"], "--calls"),
        (["--sessions", "-1"], "--sessions"),
        (["--rounds", "-2"], "--rounds"),
        (["--budget", "0"], "--budget"),
        (["--only", "three-replicas"], "--only"),
    ],
)
def test_an_option_out_of_range_is_refused_naming_the_option(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        bench.parse(argv)
    assert exited.value.code == 2
    assert named in capsys.readouterr().err


def test_the_table_shows_each_replicas_peak_rss_and_the_approval_latency_within_80_columns() -> None:
    runs = [_run("sqlite-record", 1, [118]), _run("pg-2-replicas", 2, [121, 119])]
    approvals = bench.Approvals(rounds=30, median_ms=24.0, p90_ms=31.0, max_ms=40.0)
    table = bench._table(runs, approvals, ([13.84, 12.29, 10.01], [13.83, 12.29, 10.01]), "durable")
    lines = table.splitlines()
    assert "121/119" in lines[2]
    assert "250" in lines[2]  # 500 calls in 2 s
    assert "median 24.0, p90 31.0, max 40.0 ms" in table
    assert all(len(line) <= 80 for line in lines), table


def test_the_json_report_carries_every_run_with_its_rate_and_the_approval_samples() -> None:
    runs = [_run("pg-record", 1, [120])]
    approvals = bench.Approvals(rounds=2, median_ms=20.0, p90_ms=25.0, max_ms=25.0, samples_ms=[15.0, 25.0])
    document = json.loads(json.dumps(bench._document(bench.parse([]), runs, approvals, ([1.0], [2.0]))))
    [run] = document["runs"]
    assert (run["setup"], run["calls_per_second"], run["peak_rss_mb"]) == ("pg-record", 250.0, [120])
    assert document["approvals_across_replicas"]["samples_ms"] == [15.0, 25.0]
    assert document["load_average"] == {"start": [1.0], "end": [2.0]}
