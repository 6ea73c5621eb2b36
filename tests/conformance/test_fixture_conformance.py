"""The fixture server passes the official MCP conformance suite (server scenarios, protocol 2025-11-25).

hintgate's conformance runs put hintgate in front of fixture_server.py; this test pins the baseline that
the fixture itself is conformant, so any later failure is hintgate's.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

HERE = Path(__file__).resolve().parent


def _load_runner() -> ModuleType:
    # run.py is a script, not a package module; load it under a unique name so that no other `run` collides.
    spec = importlib.util.spec_from_file_location("hintgate_conformance_run", HERE / "run.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up in sys.modules
    spec.loader.exec_module(module)
    return module


runner = _load_runner()


@pytest.mark.timeout(600)
def test_fixture_server_passes_every_2025_11_25_server_scenario_except_the_documented_ones() -> None:
    if not (HERE / "node_modules").is_dir() and not os.environ.get("CI"):
        pytest.skip("tests/conformance/node_modules is absent: run `npm ci` in tests/conformance (scripts/test does)")
    try:
        runner.check_installed()
        scenarios = runner.list_scenarios()
        with runner.fixture_server() as url:
            results = runner.run_suite(url, scenarios)
    except runner.SetupError as error:
        pytest.fail(str(error))

    assert [r.scenario for r in results] == scenarios
    assert len(scenarios) >= 30, f"the suite lists only {scenarios}"
    assert all(r.ok for r in results), "\n" + runner.format_table(results)
