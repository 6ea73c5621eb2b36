"""`hintgate quarantine`: list and accept the tools a running gateway holds, through its REST API.

What a gateway holds right now (a definition changed since it was accepted,
with the diff, or one the poisoning scan flags, with the findings) is known
to that process, so these commands talk to it through its REST API at `--url`
(the address `serve --http` or `--dashboard` printed, or `HINTGATE_URL`),
with the API token when the gateway needs one: `--token`, else
`HINTGATE_API_TOKEN`, else the token the gateway keeps in its data directory.
Acceptances are kept in the store as tool pins: `hintgate pins` works on the
store directly, with or without a gateway.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console

from hintgate.cli.gateway_api import TokenOpt, UrlOpt, call_api, quoted

__all__ = ["quarantine_app"]

quarantine_app = typer.Typer(
    help="Tools a running gateway holds: changed since accepted, or flagged by the poisoning scan.",
    no_args_is_help=True,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print the API's JSON.")]


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
    held = call_api("GET", url, "/api/quarantine", token)
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
    held = call_api("POST", url, f"/api/quarantine/{quoted(tool)}/accept", token)
    out = Console(soft_wrap=True)
    if as_json:
        out.print_json(json.dumps(held))
    else:
        out.print(f"accepted {held['name']} (fingerprint {held['fingerprint']})", markup=False, highlight=False)
