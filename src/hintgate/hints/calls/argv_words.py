"""The words of one command line read as its program's options and operands: flags given, the subcommand.

Pure. Shared by the judges of programs' command lines (`programs`, `cli_tools`): whether a flag is given
(as a word, as `--flag=value`, or inside a cluster of short flags such as `-rf`), the value an option
takes, the operands, and the first word that is not a flag (a subcommand).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["has", "option_value", "positional", "subcommand"]


def has(args: Sequence[str], *flags: str) -> bool:
    """Whether any of `flags` is given: as a word, as `--flag=value`, or a short flag inside a cluster (`-rf`)."""
    for arg in args:
        if arg == "--":
            return False
        for flag in flags:
            if arg == flag or (flag.startswith("--") and arg.startswith(flag + "=")):
                return True
            if len(flag) == 2 and flag[0] == "-" and re.fullmatch(r"-[A-Za-z]+", arg) and flag[1] in arg[1:]:
                return True
    return False


def positional(args: Sequence[str]) -> list[str]:
    """The words that are not flags."""
    return [a for a in args if not a.startswith("-")]


def subcommand(args: Sequence[str], takes_value: frozenset[str] = frozenset()) -> tuple[str, list[str]]:
    """The first word that is not a flag (skipping global flags' values), and the words after it."""
    at = 0
    while at < len(args):
        arg = args[at]
        if arg.startswith("-"):
            at += 2 if (arg in takes_value and "=" not in arg) else 1
            continue
        return arg.lower(), list(args[at + 1 :])
    return "", []


def option_value(args: Sequence[str], *names: str) -> str | None:
    """The value given to the first of the options `names` (`-m ping`, `--module-name=ping`), if any."""
    for at, arg in enumerate(args):
        if arg == "--":
            return None
        if arg in names and at + 1 < len(args):
            return args[at + 1]
        name, equals, value = arg.partition("=")
        if equals and name in names and name.startswith("--"):
            return value
    return None
