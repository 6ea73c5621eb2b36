"""The `hintgate` command's entry point (the console script, `python -m hintgate`).

`hintgate serve` is what an MCP client launches on every start, and then waits for the gateway's first
listing: it runs on a command line of that one command (`hintgate.cli.serve_command`), without the other
commands' modules or their parameters read. Every other command runs on the whole command line
(`hintgate.cli.app`). Either way the command's options, help and errors are the same.

A gateway's start is imports that live as long as it does (the SDK's models, the scan's patterns) and make few
cycles to collect, yet the collections they set off walk them again and again: about a tenth of the CPU a
stdio gateway spends before its first listing. `serve` starts with the cyclic garbage collector off; the
gateway turns it on once it has started (`hintgate.cli.serve`, where what it built is set aside from the
collector's passes).
"""

from __future__ import annotations

import gc
import sys

__all__ = ["main"]


def main() -> None:
    """Run the command the arguments name."""
    if sys.argv[1:2] == ["serve"]:
        gc.disable()  # on again once the gateway has started (`hintgate.cli.serve`)
        from hintgate.cli.common import command_line
        from hintgate.cli.serve_command import serve

        app = command_line()
        app.command()(serve)
    else:
        from hintgate.cli.app import app
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
