"""How often a default gateway asks a person for an honest read workload of generic tools, before and after.

Real servers from the registries behind a real gateway (`hintgate serve` on
stdio, default mode, no rules), called by the MCP SDK's client whose person
answers every question and counts it:

- `mcp-server-sqlite` (PyPI) on a SQLite file;
- `@modelcontextprotocol/server-postgres` (npm) on a PostgreSQL started here;
- `mcp-shell-server` (PyPI) in a scratch directory with an allow-list.

"before" is `judgeArguments: false` (every call has its tool's own hints);
"after" judges each call by its arguments. The read workload is what an
agent reading a database or a directory does; the write workload (a DROP
through the read tool, a DELETE, an rm...) is counted too, because fewer
questions must not mean fewer where they matter. Write questions are
answered "deny", so nothing is written.

Needs tests/peers installed (scripts/test): tests/peers/.venv-mcp1 and tests/peers/node_modules.

Usage::

    python bench/generic_tools.py [--format text|json]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

import _postgres  # noqa: E402

MCP1 = REPO / "tests" / "peers" / ".venv-mcp1" / "bin"
NPM = REPO / "tests" / "peers" / "node_modules" / ".bin"

SQLITE_READS = [
    ("read_query", {"query": "SELECT * FROM orders"}),
    ("read_query", {"query": "SELECT item, sum(qty) FROM orders GROUP BY item"}),
    ("read_query", {"query": "SELECT count(*) FROM orders WHERE qty > 1"}),
    ("read_query", {"query": "SELECT o.item FROM orders o WHERE o.id IN (SELECT id FROM orders LIMIT 1)"}),
    ("read_query", {"query": "SELECT max(qty), min(qty) FROM orders"}),
    ("list_tables", {}),
    ("describe_table", {"table_name": "orders"}),
]
SQLITE_WRITES = [
    ("read_query", {"query": "DROP TABLE orders"}),
    ("write_query", {"query": "INSERT INTO orders (item, qty) VALUES ('jam', 3)"}),
    ("write_query", {"query": "DELETE FROM orders"}),
]
PG_READS = [
    ("query", {"sql": "SELECT * FROM orders"}),
    ("query", {"sql": "SELECT item, sum(qty) FROM orders GROUP BY item ORDER BY 2 DESC"}),
    ("query", {"sql": "SELECT count(*) FROM orders WHERE qty > 1"}),
    ("query", {"sql": "WITH big AS (SELECT * FROM orders WHERE qty > 1) SELECT item FROM big"}),
    ("query", {"sql": "EXPLAIN SELECT * FROM orders WHERE id = 1"}),
    ("query", {"sql": "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"}),
]
PG_WRITES = [
    ("query", {"sql": "DROP TABLE orders"}),
    ("query", {"sql": "DELETE FROM orders"}),
]
SHELL_READS = [
    ("shell_execute", {"command": ["ls", "-la"]}),
    ("shell_execute", {"command": ["cat", "notes.txt"]}),
    ("shell_execute", {"command": ["grep", "-n", "tea", "notes.txt"]}),
    ("shell_execute", {"command": ["wc", "-l", "notes.txt"]}),
    ("shell_execute", {"command": ["head", "-1", "notes.txt"]}),
]
SHELL_WRITES = [
    ("shell_execute", {"command": ["rm", "notes.txt"]}),
    ("shell_execute", {"command": ["touch", "new.txt"]}),
]


class Person:
    """Answers every question with `answer` and counts the questions."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.asked = 0

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        self.asked += 1
        return types.ElicitResult(action="accept", content={"decision": self.answer})


async def asks(server: dict[str, Any], calls: list[tuple[str, dict[str, Any]]], judge: bool, answer: str) -> int:
    """How many of `calls` asked, through a fresh gateway in default mode."""
    with tempfile.TemporaryDirectory() as home:
        config = Path(home) / "hintgate.json"
        config.write_text(json.dumps({"mcpServers": {"s": server}, "policy": {"judgeArguments": judge}}))
        env = {**os.environ, "HINTGATE_DATA_DIR": home, "HOME": home}
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "hintgate", "serve", "--config", str(config), "--no-record"], env=env
        )
        person = Person(answer)
        with anyio.fail_after(180):
            async with Client(params, mode="legacy", elicitation_callback=person) as client:
                for tool, arguments in calls:
                    with contextlib.suppress(MCPError):  # a server's own refusal (a read-only transaction)
                        await client.call_tool(f"s_{tool}", arguments)
        return person.asked


def sqlite_server(root: Path) -> dict[str, Any]:
    path = root / "shop.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE IF NOT EXISTS orders (id INTEGER PRIMARY KEY, item TEXT, qty INTEGER)")
        db.executemany("INSERT INTO orders (item, qty) VALUES (?, ?)", [("tea", 2), ("cake", 1)])
    return {"command": str(MCP1 / "mcp-server-sqlite"), "args": ["--db-path", str(path)]}


def shell_server(root: Path) -> dict[str, Any]:
    scratch = root / "scratch"
    scratch.mkdir(exist_ok=True)
    (scratch / "notes.txt").write_text("buy tea\nbake cake\n")
    return {
        "command": str(MCP1 / "mcp-shell-server"),
        "cwd": str(scratch),
        "env": {"ALLOW_COMMANDS": "ls,cat,grep,wc,head,rm,touch"},
    }


def postgres_server(pg: _postgres.PostgresServer) -> dict[str, Any]:
    url = pg.create_database("shop")
    setup = "CREATE TABLE orders (id serial PRIMARY KEY, item text, qty int); INSERT INTO orders VALUES (1, 'tea', 2);"
    subprocess.run([str(pg.bin_dir / "psql"), url, "-q", "-c", setup], check=True, capture_output=True, timeout=30)
    return {"command": str(NPM / "mcp-server-postgres"), "args": [url]}


async def measure() -> dict[str, dict[str, Any]]:
    report: dict[str, dict[str, Any]] = {}
    bin_dir = _postgres.find_bin_dir()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        servers: list[tuple[str, dict[str, Any], list[Any], list[Any]]] = [
            ("sqlite", sqlite_server(root), SQLITE_READS, SQLITE_WRITES),
            ("shell", shell_server(root), SHELL_READS, SHELL_WRITES),
        ]
        with _postgres.running(bin_dir) if bin_dir else _nothing() as pg:
            if pg is not None:
                servers.insert(1, ("postgres", postgres_server(pg), PG_READS, PG_WRITES))
            for name, server, reads, writes in servers:
                report[name] = {
                    "reads": len(reads),
                    "reads_asked_before": await asks(server, reads, False, "approve-once"),
                    "reads_asked_after": await asks(server, reads, True, "approve-once"),
                    "writes": len(writes),
                    "writes_asked_before": await asks(server, writes, False, "deny"),
                    "writes_asked_after": await asks(server, writes, True, "deny"),
                }
    return report


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--format", choices=["text", "json"], default="text")
    args = parser.parse_args()
    report = anyio.run(measure)
    if args.format == "json":
        print(json.dumps(report, indent=2))
        return
    print("questions a default gateway asks (judgeArguments false = before, true = after)")
    print(
        f"{'server':9} {'reads':>5} {'asked before':>12} {'asked after':>11}   "
        f"{'writes':>6} {'asked before':>12} {'asked after':>11}"
    )
    for name, r in report.items():
        print(
            f"{name:9} {r['reads']:5} {r['reads_asked_before']:12} {r['reads_asked_after']:11}   "
            f"{r['writes']:6} {r['writes_asked_before']:12} {r['writes_asked_after']:11}"
        )


if __name__ == "__main__":
    main()
