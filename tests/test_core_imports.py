"""The core imports nothing from the MCP SDK, the database, the web stack or the network."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

CORE = [
    "hintgate",
    "hintgate.hints.annotations",
    "hintgate.hints.inference",
    "hintgate.errors",
    "hintgate.hints.catalog",
    "hintgate.hints.lint",
    "hintgate.scan.poisoning",
    "hintgate.scan.guard",
    "hintgate.policy.decide",
    "hintgate.policy.rules",
    "hintgate.policy.settings",
    "hintgate.policy.explain",
    "hintgate.policy.approvals",
]
BLOCKED = ["mcp", "mcp_types", "sqlalchemy", "fastapi", "httpx", "httpx2", "starlette", "uvicorn", "socket"]

SCRIPT = textwrap.dedent(
    """
    import importlib, sys
    from importlib.abc import MetaPathFinder

    blocked = set(sys.argv[2].split(","))

    class Block(MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in blocked:
                raise ImportError(f"core imported {name}")
            return None

    for name in list(sys.modules):
        if name.split(".")[0] in blocked:
            del sys.modules[name]
    sys.meta_path.insert(0, Block())
    importlib.import_module(sys.argv[1])
    leaked = sorted(n for n in sys.modules if n.split(".")[0] in blocked)
    assert not leaked, leaked
    """
)


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_with_sdk_database_and_web_blocked(module: str) -> None:
    blocked = [b for b in BLOCKED if b != "socket"]
    completed = subprocess.run(
        [sys.executable, "-c", SCRIPT, module, ",".join(blocked)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr


def test_the_blocker_really_blocks() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", SCRIPT, "hintgate.cli.app", "typer"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode != 0
