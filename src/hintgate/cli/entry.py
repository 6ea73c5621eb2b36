"""The `hintgate` command's entry point (the console script, `python -m hintgate`).

`hintgate serve` is what an MCP client launches on every start, and then waits for the gateway's first
listing. Its arguments in their plain forms are read without Typer (`hintgate.cli.serve_argv`), and the command
runs as Typer would run it (`hintgate.cli.serving`); otherwise it runs on a command line of that one command
(`hintgate.cli.serve_command`), without the other commands' modules or their parameters read. Every other
command runs on the whole command line (`hintgate.cli.app`). Either way the command's options, help, errors and
exit statuses are the same.

A gateway's start is imports that live as long as it does (the SDK's models, the scan's patterns) and make few
cycles to collect, yet the collections they set off walk them again and again: about a tenth of the CPU a
stdio gateway spends before its first listing. `serve` starts with the cyclic garbage collector off; the
gateway turns it on once it has started (`hintgate.cli.serve`, where what it built is set aside from the
collector's passes).
"""

from __future__ import annotations

import errno
import gc
import os
import sys
from typing import Any

__all__ = ["main"]


def main() -> None:
    """Run the command the arguments name."""
    if sys.argv[1:2] == ["serve"]:
        gc.disable()  # on again once the gateway has started (`hintgate.cli.serve`)
        from hintgate.cli.serve_argv import plain_serve_options

        options = plain_serve_options(sys.argv[2:], os.environ)
        if options is not None:
            _serve(options)
            return
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


def _serve(options: dict[str, Any]) -> None:
    """Run `serve` with `options`, ending as Typer ends a command: a closed pipe and end of input included."""
    from hintgate.cli.serving import serve_with

    try:
        serve_with(**options)
    except KeyboardInterrupt:
        sys.exit(130)
    except EOFError:
        from typer import rich_utils

        print(file=sys.stderr)
        rich_utils.rich_abort_error()
        sys.exit(1)
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        # Nothing more can be said on a closed pipe: what is left to flush goes nowhere, as Typer does it.
        nowhere = os.open(os.devnull, os.O_WRONLY)
        for stream in (sys.stdout, sys.stderr):
            try:
                os.dup2(nowhere, stream.fileno())
            except (OSError, ValueError):
                continue
        sys.exit(1)
