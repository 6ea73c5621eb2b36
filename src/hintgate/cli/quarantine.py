"""`hintgate quarantine`: list and accept the tools a running gateway holds, through its REST API.

What a gateway holds right now (a definition changed since it was accepted,
with the diff, or one the poisoning scan flags, with the findings) is known
to that process, so these commands talk to it at `--url` (the address `serve
--http` or `--dashboard` printed) with the API token when one is set
(`HINTGATE_API_TOKEN`). Acceptances are kept in the store as tool pins:
`hintgate pins` works on the store directly, with or without a gateway.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console

__all__ = ["quarantine_app"]

quarantine_app = typer.Typer(
    help="Tools a running gateway holds: changed since accepted, or flagged by the poisoning scan.",
    no_args_is_help=True,
)

UrlOpt = Annotated[
    str,
    typer.Option("--url", envvar="HINTGATE_URL", help="The running gateway's base URL (serve --http/--dashboard)."),
]
TokenOpt = Annotated[
    str | None, typer.Option("--token", envvar="HINTGATE_API_TOKEN", help="The API token, if the gateway needs one.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the API's JSON.")]

_EXIT_USAGE = 2
_EXIT_TARGET = 3


def _request(method: str, url: str, path: str, token: str | None) -> Any:
    import httpx2

    # A bearer token is also what lets a write through without the browser-only CSRF header.
    headers = {"Authorization": f"Bearer {token}"} if token else {"X-Hintgate-Request": "1"}
    err = Console(stderr=True)
    try:
        response = httpx2.request(method, url.rstrip("/") + path, headers=headers, timeout=30)
    except httpx2.HTTPError as exc:
        err.print(f"error: cannot reach the gateway at {url}: {exc}", markup=False, highlight=False)
        raise typer.Exit(_EXIT_TARGET) from None
    if response.status_code >= 400:
        try:
            detail = response.json().get("detail", response.text)
        except ValueError:
            detail = response.text
        err.print(f"error: {method} {path}: {response.status_code}: {detail}", markup=False, highlight=False)
        raise typer.Exit(_EXIT_USAGE if response.status_code == 404 else _EXIT_TARGET)
    return response.json()


def _show(held: dict[str, Any]) -> str:
    lines = [
        f"{held['name']} ({held['server']}){' hidden' if held['hidden'] else ''}  fingerprint {held['fingerprint']}"
    ]
    if held.get("change"):
        lines.append(f"  {held['change']}")
    if held.get("diff"):
        lines.extend(f"    {line}" for line in held["diff"].splitlines())
    for finding in held["findings"]:
        where = f"{finding['path']}:{finding['start']}-{finding['end']}"
        lines.append(f"  {finding['code']} {finding['rule']} at {where}: {finding['message']}")
    return "\n".join(lines)


@quarantine_app.command("list")
def quarantine_list(url: UrlOpt, token: TokenOpt = None, as_json: JsonOpt = False) -> None:
    """The quarantined tools: the change with its diff, each finding with its span (field path and offsets)."""
    held = _request("GET", url, "/api/quarantine", token)
    out = Console(soft_wrap=True)
    if as_json:
        out.print_json(json.dumps(held))
    elif not held:
        out.print("no tool is quarantined", markup=False)
    else:
        out.print("\n".join(_show(h) for h in held), markup=False, highlight=False)


@quarantine_app.command("accept")
def quarantine_accept(
    tool: Annotated[str, typer.Argument(help="The tool's name as the gateway lists it (e.g. calc_add).")],
    url: UrlOpt,
    token: TokenOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Accept a quarantined tool's definition as it is now; a later change is held again."""
    held = _request("POST", url, f"/api/quarantine/{tool}/accept", token)
    out = Console(soft_wrap=True)
    if as_json:
        out.print_json(json.dumps(held))
    else:
        out.print(f"accepted {held['name']} (fingerprint {held['fingerprint']})", markup=False, highlight=False)
