"""Commands that start the real MCP servers the tests drive, installed by scripts/test from PyPI and npm.

A module of its own (not conftest.py): a test imports these by name, and with several conftest.py files in
the tree, "conftest" is whichever one pytest loaded last.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PEERS = ROOT / "tests" / "peers" / "node_modules" / ".bin"
MCP1_PEERS = ROOT / "tests" / "peers" / ".venv-mcp1" / "bin"
"""PyPI MCP servers that need the MCP SDK 1.x (hintgate needs 2.x): scripts/test installs them in their own venv."""


def npm_server(name: str) -> list[str]:
    """The command that starts an npm MCP server installed by scripts/test; skips when absent outside CI."""
    path = PEERS / name
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing: scripts/test installs it with npm")
        pytest.skip(f"{name} not installed (run scripts/test)")
    return [str(path)]


def mcp1_server(name: str) -> list[str]:
    """The command that starts a PyPI MCP server built on the MCP SDK 1.x, from its own venv (scripts/test
    installs tests/peers/requirements-mcp1.txt there); skips when absent outside CI."""
    path = MCP1_PEERS / name
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing: scripts/test installs it from PyPI in tests/peers/.venv-mcp1")
        pytest.skip(f"{name} not installed (run scripts/test)")
    return [str(path)]


def python_server(module_or_script: str) -> list[str]:
    """The command that starts a PyPI MCP server installed in this virtualenv."""
    found = shutil.which(module_or_script, path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail(f"{module_or_script} is not installed: scripts/test installs it from PyPI")
    return [found]


def demo_server() -> list[str]:
    """The command that starts hintgate's bundled demo server."""
    return [sys.executable, "-m", "hintgate.demo"]
