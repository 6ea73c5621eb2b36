"""A package set up without its `__init__`: its submodules as usual, the rest of it whole at the first name asked.

Each check runs in a fresh interpreter: this one imported the MCP SDK whole already.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

# The command line imported, then what `hintgate serve --http` imports as it starts (the gateway, its MCP face, the
# web app, the MCP sources); prints the SDK's modules then imported.
CLI_IMPORTED = textwrap.dedent(
    """
    import json, sys
    import hintgate.cli.app
    import hintgate.server.face, hintgate.server.gateway, hintgate.server.http_fast, hintgate.sources.mcp
    import hintgate.web.app
    print(json.dumps(sorted(name for name in sys.modules if name == "mcp" or name.startswith("mcp."))))
    """
)

# What the SDK's three packages offer, by name and the module each object comes from, printed as JSON: after the
# command line set them up and a name of each was asked for, or imported plainly.
NAMES = textwrap.dedent(
    """
    import json, sys

    if sys.argv[1] == "cli":
        import hintgate.cli
        from mcp import Client  # names the command line did not set up: each package loads whole
        from mcp.client import ClientSession
        from mcp.server import Server
    import mcp, mcp.client, mcp.server

    def names(package):
        found = {name: getattr(getattr(package, name), "__module__", None) for name in dir(package)}
        return {name: module for name, module in found.items() if not name.startswith("__")}

    print(json.dumps({package.__name__: names(package) for package in (mcp, mcp.client, mcp.server)}))
    """
)


def _run(script: str, *args: str, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "-c", script, *args], check=True, capture_output=True, text=True, timeout=60, cwd=cwd
    )
    return done.stdout.strip()


def test_the_command_line_leaves_out_the_sdks_high_level_server_and_client() -> None:
    imported = json.loads(_run(CLI_IMPORTED))
    assert "mcp.server.mcpserver" not in imported
    assert "mcp.client.session_group" not in imported


def test_a_name_of_an_sdk_package_gets_the_package_as_a_plain_import_does() -> None:
    assert json.loads(_run(NAMES, "cli")) == json.loads(_run(NAMES, "plain"))


# A package of its own: an `__init__` that imports a heavy submodule and takes names from two.
PACKAGE = {
    "__init__.py": "from .light import ONE\nfrom .heavy import TWO\nINIT_RAN = True\n",
    "light.py": "ONE = 1\n",
    "heavy.py": "TWO = 2\n",
}

SET_UP = textwrap.dedent(
    """
    import sys
    from hintgate.lean_packages import lean_package

    names = {"light": ["ONE"]} if sys.argv[1] == "light" else {"gone": ["ONE"]}
    package = lean_package("pkg", names)
    before = sorted(name for name in sys.modules if name.startswith("pkg"))
    import pkg.light
    after_submodule = sorted(name for name in sys.modules if name.startswith("pkg"))
    one = package.ONE
    two = package.TWO  # not set up: the package's own __init__ runs
    print(before, after_submodule, one, two, package.INIT_RAN, lean_package("pkg") is package)
    """
)


def test_a_package_set_up_lean_imports_nothing_more_until_a_name_it_lacks_is_asked(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    for name, text in PACKAGE.items():
        (tmp_path / "pkg" / name).write_text(text)
    assert _run(SET_UP, "light", cwd=tmp_path) == "['pkg', 'pkg.light'] ['pkg', 'pkg.light'] 1 2 True True"


def test_a_package_laid_out_otherwise_is_imported_whole(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    for name, text in PACKAGE.items():
        (tmp_path / "pkg" / name).write_text(text)
    whole = "['pkg', 'pkg.heavy', 'pkg.light']"
    assert _run(SET_UP, "gone", cwd=tmp_path) == f"{whole} {whole} 1 2 True True"
