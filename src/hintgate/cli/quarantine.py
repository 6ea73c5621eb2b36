"""The tools a running gateway holds, through its REST API: `hintgate pins held` (and the older `quarantine`).

What a gateway holds right now (a definition changed since it was accepted,
with the diff, or one the poisoning scan flags, with the findings) is known
to that process, so these commands talk to it through its REST API at `--url`
(the address `serve --http` or `--dashboard` printed, or `HINTGATE_URL`),
with the API token when the gateway needs one: `--token`, else
`HINTGATE_API_TOKEN`, else the token the gateway keeps in its data directory.
Acceptances are kept in the store as tool pins: the other `hintgate pins`
commands work on the store directly (`--db`), with or without a gateway, and
`hintgate pins accept --url` accepts through the gateway instead.
`hintgate quarantine list|accept` are the older names, kept as aliases.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console

from hintgate.cli.common import FormatOpt, OutputFormat
from hintgate.cli.gateway_api import TokenOpt, UrlOpt, call_api, quoted

__all__ = ["held_tools", "quarantine_app"]

quarantine_app = typer.Typer(
    help="Older name of `hintgate pins held` and `pins accept --url`: tools a running gateway holds.",
    no_args_is_help=True,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print the API's JSON (as --format json).", hidden=True)]


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


def held_tools(
    url: UrlOpt, token: TokenOpt = None, output: FormatOpt = OutputFormat.TEXT, as_json: JsonOpt = False
) -> None:
    """The tools a running gateway holds now: the change with its diff, each scan finding with its span."""
    held = call_api("GET", url, "/api/quarantine", token)
    out = Console(soft_wrap=True)
    if as_json or output is OutputFormat.JSON:
        out.print_json(json.dumps(held))
    elif not held:
        out.print("no tool is held", markup=False)
    else:
        out.print("\n".join(_show(h) for h in held), markup=False, highlight=False)


quarantine_app.command("list")(held_tools)


@quarantine_app.command("accept")
def quarantine_accept(
    tool: Annotated[str, typer.Argument(help="The tool's name as the gateway lists it (e.g. calc_add).")],
    url: UrlOpt,
    token: TokenOpt = None,
    output: FormatOpt = OutputFormat.TEXT,
    as_json: JsonOpt = False,
) -> None:
    """Accept a held tool's definition as it is now (as `hintgate pins accept TOOL --url`); a later change is held."""
    held = call_api("POST", url, f"/api/quarantine/{quoted(tool)}/accept", token)
    out = Console(soft_wrap=True)
    if as_json or output is OutputFormat.JSON:
        out.print_json(json.dumps(held))
    else:
        out.print(f"accepted {held['name']} (fingerprint {held['fingerprint']})", markup=False, highlight=False)
