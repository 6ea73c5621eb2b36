"""`hintgate serve`'s command line read without Typer, when every argument is in one of its plain forms.

An MCP client launches `hintgate serve` on every start and waits for its first listing; Typer, which reads
the command line of every other command, took about 0.07 s of CPU to import and to read `serve`'s options
(its value checks build a validator for each), before the gateway could spawn its upstreams. Most launches
are a few options in their plain forms (`--config FILE`, `-c FILE`, `--db=URL`, `--no-record`): those are
read here. Anything else, `--help`, an option not known here, one given twice, a value that is empty or starts
with a dash, is left to Typer (None here), which reads it and fails as it always did.

`tests/cli/test_serve_argv.py` checks that the options known here are the command's own, spelt as Typer
declares them (`hintgate.cli.serve_command`), and that what is read here is what Typer hands the command.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["FLAGS", "VALUES", "plain_serve_options"]

VALUES: dict[str, str] = {
    "--config": "config",
    "-c": "config",
    "--http": "http",
    "--dashboard": "dashboard",
    "--db": "db",
    "--python": "python",
    "--metrics": "metrics",
    "--view": "view",
}
"""Each option that takes a value, by every spelling, and the parameter of `serving.serve_with` it gives."""

FLAGS: dict[str, tuple[str, bool]] = {
    "--demo": ("demo", True),
    "--stdio": ("stdio", True),
    "--no-record": ("no_record", True),
    "--tracing": ("tracing", True),
    "--watch": ("watch", True),
    "--require-token": ("require_token", True),
    "--no-require-token": ("require_token", False),
}
"""Each flag, by every spelling, and the parameter it sets and to what."""


def plain_serve_options(argv: Sequence[str], environ: Mapping[str, str]) -> dict[str, Any] | None:
    """The keyword arguments of `serving.serve_with` that `serve`'s arguments `argv` give, or None for Typer.

    None when an argument is not in a plain form, and when the environment asks the command line for shell
    completion (a `_..._COMPLETE` variable), which only Typer answers.
    """
    if any(name.startswith("_") and name.endswith("_COMPLETE") for name in environ):
        return None
    options: dict[str, Any] = {}
    rest = list(argv)
    while rest:
        argument = rest.pop(0)
        spelling, equals, attached = argument.partition("=")
        if equals and spelling.startswith("--") and spelling in VALUES:
            name, value = VALUES[spelling], attached
        elif argument in VALUES and rest:
            name, value = VALUES[argument], rest.pop(0)
        elif argument in FLAGS:
            name, flag = FLAGS[argument]
            if name in options:
                return None
            options[name] = flag
            continue
        else:
            return None
        if name in options or not value or value.startswith("-"):
            return None
        options[name] = Path(value) if name == "config" else value
    return options
