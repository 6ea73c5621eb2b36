"""Resident memory of a gateway whose clients fetched 150 task results of 1 MB each.

Usage: python bench/task_results.py [--tasks 150] [--size 1048576] [--baseline CHECKOUT]

`hintgate serve --http` (recording to SQLite) over the task fixture server
(tests/fixtures/task_server.py, on stdio), one MCP SDK client speaking
2026-07-28 with the Tasks extension. After one warm-up task, the client starts
`--tasks` builds, has each finished with a result of `--size` bytes, and
fetches each result once with `tasks/get`. The gateway's VmRSS (from /proc) is
read after the warm-up and after the last fetch. With `--baseline`, a checkout
of another revision (its `src/`) runs the same work in the same run, and the
ratio of the growths is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any, Literal

REPO = Path(__file__).resolve().parents[1]
TASK_SERVER = REPO / "tests" / "fixtures" / "task_server.py"
MODERN = "2026-07-28"


def vm_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def run(src: Path, tasks: int, size: int, work: Path) -> dict[str, float]:
    import mcp_types as types
    from mcp import Client
    from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
    from pydantic import ConfigDict, Field, TypeAdapter

    from hintgate.testing import running_gateway

    class TaskHandle(types.Result):
        model_config = ConfigDict(extra="allow")
        result_type: Literal["task"] = Field(alias="resultType")
        task_id: str = Field(alias="taskId")

    async def never(_handle: TaskHandle, _ctx: ClaimContext) -> types.CallToolResult:
        raise AssertionError("the bench polls the task itself")

    class Tasks(ClientExtension):
        identifier = "io.modelcontextprotocol/tasks"

        def claims(self) -> list[ResultClaim[Any]]:
            return [ResultClaim(result_type="task", model=TaskHandle, resolve=never)]

    class TaskRequest(types.Request[dict[str, Any], str]):
        name_param = "taskId"

    state = TypeAdapter(dict[str, Any])
    config = work / "hintgate.json"
    builds = {"command": sys.executable, "args": [str(TASK_SERVER), str(work / "cancels.log")]}
    config.write_text(
        json.dumps({"mcpServers": {"builds": builds}, "policy": {"rules": [{"allow": {"server": "builds"}}]}})
    )
    env = {"PYTHONPATH": str(src), "HINTGATE_DATA_DIR": str(work / "data")}
    db = f"sqlite:///{work / 'calls.db'}"
    with running_gateway("--config", str(config), "--db", db, env=env) as gateway:
        info = types.Implementation(name="bench", version="1.0")
        async with Client(gateway.mcp_transport(), mode=MODERN, client_info=info, extensions=[Tasks()]) as client:  # type: ignore[arg-type]

            async def build(target: str) -> str:
                handle = await client.session.call_tool("builds_build", {"target": target}, allow_claimed=True)
                assert isinstance(handle, TaskHandle), handle
                return handle.task_id

            async def fetch(task_id: str) -> int:
                answer: dict[str, Any] = await client.session.send_request(
                    TaskRequest(method="tasks/get", params={"taskId": task_id}), state
                )
                assert answer["status"] == "completed", answer
                return len(answer["result"]["content"][0]["text"])

            warm = await build("warm-up")
            await client.call_tool("builds_finish", {"target": "warm-up", "size": size})
            await fetch(warm)
            before = vm_rss_mb(gateway.process.pid)
            for index in range(tasks):
                task_id = await build(f"t{index}")
                await client.call_tool("builds_finish", {"target": f"t{index}", "size": size})
                assert await fetch(task_id) >= size - 64
            after = vm_rss_mb(gateway.process.pid)
    return {"rss_before_mb": before, "rss_after_mb": after, "growth_mb": after - before}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", type=int, default=150)
    parser.add_argument("--size", type=int, default=1 << 20)
    parser.add_argument("--baseline", type=Path, help="a checkout of another revision, run the same way")
    opts = parser.parse_args()
    targets = {"hintgate": REPO / "src"}
    if opts.baseline is not None:
        targets["baseline"] = opts.baseline / "src"
    report: dict[str, dict[str, float]] = {}
    for name, src in targets.items():
        with tempfile.TemporaryDirectory(prefix="hintgate-tasks-") as work:
            report[name] = asyncio.run(run(src, opts.tasks, opts.size, Path(work)))
        row = report[name]
        print(
            f"{name:9} RSS {row['rss_before_mb']:.0f} -> {row['rss_after_mb']:.0f} MiB "
            f"(+{row['growth_mb']:.0f} MiB) after {opts.tasks} results of {opts.size / 2**20:.1f} MiB fetched",
            flush=True,
        )
    if "baseline" in report:
        growth = max(report["hintgate"]["growth_mb"], 1.0)
        print(f"growth baseline / hintgate: {report['baseline']['growth_mb'] / growth:.1f}x")
    print(json.dumps(report), file=sys.stderr)


if __name__ == "__main__":
    main()
