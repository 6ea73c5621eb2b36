"""Building the tools of large OpenAPI documents: hintgate against FastMCP's `from_openapi` + `list_tools`.

Each measurement runs in a process of its own, so the peak memory it reports
(the process's `ru_maxrss`, interpreter and imports included) is its own:

- hintgate: read the file, decode it, convert every operation
  (`build_tools`), resolve every tool's hints and build the catalog the
  gateway serves on `tools/list` (`resolve_tool` + `build_catalog`);
- FastMCP: read the file, `FastMCP.from_openapi(spec, client=...)`, then
  `await server.list_tools()`.

Documents: Stripe (`../shared/openapi/stripe.com.apisguru.json`, 452
operations) and the GitHub REST API description from the npm package
`@octokit/openapi` (1,223 operations), found under `bench/node_modules` or
`/tmp/octokit/node_modules` (`npm install --prefix /tmp/octokit @octokit/openapi`),
or given with `--github PATH`.

Run: `python bench/openapi_build.py [--repeat N] [--github PATH]`.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "openapi"
GITHUB_CANDIDATES = [
    ROOT / "bench" / "node_modules" / "@octokit" / "openapi" / "generated" / "api.github.com.json",
    Path("/tmp/octokit/node_modules/@octokit/openapi/generated/api.github.com.json"),
]


def measure_hintgate(path: Path) -> dict[str, Any]:
    from hintgate.hints.annotations import parse_annotations
    from hintgate.hints.catalog import ToolFacts, build_catalog, resolve_tool
    from hintgate.sources.openapi.convert import build_tools, decode_document

    start = time.perf_counter()
    toolset = build_tools(decode_document(path.read_bytes(), source=path.name), source=path.name)
    resolved = [
        resolve_tool(
            op.tool,
            facts=ToolFacts(
                declared=parse_annotations(op.declared, tool=op.name) if op.declared is not None else None,
                http_method=op.method,
            ),
        )
        for op in toolset.operations
    ]
    catalog = build_catalog([("api", "api", resolved)])
    listed = json.dumps({"tools": list(catalog.wire)})  # what tools/list sends
    seconds = time.perf_counter() - start
    return {"tools": len(catalog.wire), "seconds": seconds, "bytes": len(listed)}


def measure_fastmcp(path: Path) -> dict[str, Any]:
    import asyncio

    import httpx2
    from fastmcp import FastMCP

    start = time.perf_counter()
    spec = json.loads(path.read_bytes())

    async def build() -> int:
        server = FastMCP.from_openapi(spec, client=httpx2.AsyncClient(base_url="http://127.0.0.1:9"))
        tools = await server.list_tools()
        return len(tools)

    count = asyncio.run(build())
    return {"tools": count, "seconds": time.perf_counter() - start}


def child(which: str, path: Path) -> None:
    result = measure_hintgate(path) if which == "hintgate" else measure_fastmcp(path)
    result["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(json.dumps(result))


def run(which: str, path: Path) -> dict[str, Any]:
    completed = subprocess.run(
        [sys.executable, __file__, "--child", which, str(path)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    if completed.returncode != 0:
        raise SystemExit(f"{which} on {path.name} failed:\n{completed.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(completed.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per tool and document (median reported)")
    parser.add_argument("--github", type=Path, help="the GitHub REST API description (api.github.com.json)")
    parser.add_argument("--child", nargs=2, metavar=("WHICH", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], Path(args.child[1]))
        return
    documents = [("Stripe", SHARED / "stripe.com.apisguru.json")]
    github = args.github or next((p for p in GITHUB_CANDIDATES if p.exists()), None)
    if github is None:
        print("GitHub description not found: npm install --prefix /tmp/octokit @octokit/openapi (or --github PATH)")
    else:
        documents.append(("GitHub", github))
    print(f"{'document':<10} {'tool':<9} {'tools':>6} {'seconds':>9} {'peak MB':>9}")
    rows = []
    for label, path in documents:
        medians: dict[str, dict[str, float]] = {}
        for which in ("hintgate", "fastmcp"):
            runs = [run(which, path) for _ in range(args.repeat)]
            seconds = statistics.median(r["seconds"] for r in runs)
            peak = statistics.median(r["peak_mb"] for r in runs)
            medians[which] = {"seconds": seconds, "peak": peak}
            print(f"{label:<10} {which:<9} {runs[0]['tools']:>6} {seconds:>9.3f} {peak:>9.1f}", flush=True)
        speed = medians["fastmcp"]["seconds"] / medians["hintgate"]["seconds"]
        memory = medians["fastmcp"]["peak"] / medians["hintgate"]["peak"]
        rows.append((label, speed, memory))
    print()
    for label, speed, memory in rows:
        verdict = "meets" if speed >= 10 and memory >= 10 else "misses"
        print(
            f"{label}: hintgate is {speed:.1f}x faster and uses 1/{memory:.1f} of the peak memory "
            f"({verdict} 10x / 1/10)"
        )


if __name__ == "__main__":
    main()
