"""scripts/test says what it installs before it installs anything, and shows the slowest tests."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "test"


def test_scripts_test_dry_run_names_everything_it_would_install_and_installs_nothing(tmp_path: Path) -> None:
    for name in ("scripts/test", "tests/peers/requirements-mcp1.txt", "tests/peers/package.json"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tmp_path / name)
    (tmp_path / "tests/conformance").mkdir()
    shutil.copy2(ROOT / "tests/conformance/package.json", tmp_path / "tests/conformance/package.json")
    stubs = tmp_path / "stubs"  # an installer reached by mistake fails instead of installing
    stubs.mkdir()
    for tool in ("apt-get", "npm", "pip"):
        (stubs / tool).write_text("#!/bin/sh\nexit 1\n")
        (stubs / tool).chmod(0o755)
    env = {**os.environ, "PATH": f"{stubs}:{os.environ['PATH']}", "PYTHON": "false", "HOME": str(tmp_path)}
    done = subprocess.run(
        [str(tmp_path / "scripts/test"), "--dry-run"], check=False, capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    said = done.stdout
    assert said.startswith("== scripts/test installs what the tests need")
    assert "Debian packages" in said
    assert ".venv: hintgate and its test extras" in said
    for line in (ROOT / "tests/peers/requirements-mcp1.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            assert line in said
    for directory in ("tests/peers", "tests/conformance"):
        for package in json.loads((ROOT / directory / "package.json").read_text()).get("dependencies", {}):
            assert package in said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scripts", "stubs", "tests"]  # no .venv made


def test_scripts_test_says_what_it_installs_before_any_install_and_lists_the_slowest_tests() -> None:
    text = SCRIPT.read_text(encoding="utf-8")
    said = text.index('echo "== scripts/test installs')
    for install in ("apt-get install", "pip install", "npm ci", "-m venv"):
        assert said < text.index(install), install
    assert "python -m pytest --durations=25" in text
    assert '-n "$workers" --dist loadfile' in text  # two workers, whole files each, unless told otherwise
