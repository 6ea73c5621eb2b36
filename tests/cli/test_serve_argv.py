"""`hintgate serve`'s arguments read without Typer: the command's own options, read as Typer reads them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.main import get_command
from typer.testing import CliRunner

from hintgate.cli import serve_command
from hintgate.cli.common import command_line
from hintgate.cli.serve_argv import FLAGS, VALUES, plain_serve_options


def serve_line() -> typer.Typer:
    app = command_line()
    app.command()(serve_command.serve)
    return app


def typer_reads(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What Typer hands the command for `hintgate serve ARGV`."""
    given: dict[str, Any] = {}
    monkeypatch.setattr(serve_command, "serve_with", lambda **options: given.update(options))
    result = CliRunner().invoke(serve_line(), ["serve", *argv])
    assert result.exit_code == 0, result.output
    return given


def test_the_options_read_here_are_the_commands_own_each_as_typer_declares_it() -> None:
    group = get_command(serve_line())
    command = group.commands["serve"]  # type: ignore[attr-defined]
    values: dict[str, str] = {}
    flags: dict[str, tuple[str, bool]] = {}
    for option in command.params:
        if option.name == "help":
            continue
        if option.is_flag:
            for spelling in option.opts:
                flags[spelling] = (option.name, True)
            for spelling in option.secondary_opts:
                flags[spelling] = (option.name, False)
        else:
            values.update(dict.fromkeys(option.opts, option.name))
    assert values == VALUES
    assert flags == FLAGS


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--config", "gateway.yaml"],
        ["-c", "dir/gateway.json", "--db", "sqlite:////tmp/calls.db", "--no-record"],
        ["--config=gateway.yaml", "--db=postgresql://u@h/d", "--watch", "--tracing"],
        ["--demo", "--stdio", "--dashboard", "127.0.0.1:0", "--metrics", "[::1]:9000", "--view", "read-only"],
        ["--http", "8765", "--require-token"],
        ["--python", "tools:registry", "--no-require-token"],
    ],
)
def test_plain_arguments_are_read_as_typer_reads_them(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    defaults = typer_reads([], monkeypatch)
    read = plain_serve_options(argv, {})
    assert read is not None
    assert {**defaults, **read} == typer_reads(argv, monkeypatch)


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["--confg", "gateway.yaml"],
        ["--config"],
        ["--config="],
        ["--config", ""],
        ["--db", "--no-record"],
        ["--db", "a.db", "--db", "b.db"],
        ["--require-token", "--no-require-token"],
        ["--stdio", "--stdio"],
        ["-cgateway.yaml"],
        ["--no-record=yes"],
        ["--", "--config", "gateway.yaml"],
        ["gateway.yaml"],
    ],
)
def test_arguments_in_any_other_form_are_left_to_typer(argv: list[str]) -> None:
    assert plain_serve_options(argv, {}) is None


def test_a_shell_completion_request_is_left_to_typer() -> None:
    assert plain_serve_options(["--no-record"], {"_HINTGATE_COMPLETE": "bash_complete"}) is None
    assert plain_serve_options(["--no-record"], {"HINTGATE_DATA_DIR": str(Path("data"))}) == {"no_record": True}


@pytest.mark.parametrize(
    ("plain", "for_typer"),
    [
        (["--config", "{missing}"], ["-c{missing}"]),
        (["--demo", "--config", "{missing}"], ["--demo", "-c{missing}"]),
        (["--http", "8765", "--stdio"], ["--http", "8765", "--stdio", "--stdio"]),
        (["--watch", "--demo"], ["--watch", "--demo", "--demo"]),
    ],
)
def test_serve_read_without_typer_fails_as_it_does_with_typer(
    plain: list[str], for_typer: list[str], tmp_path: Path
) -> None:
    missing = str(tmp_path / "missing.yaml")
    assert plain_serve_options([a.format(missing=missing) for a in plain], {}) is not None
    assert plain_serve_options([a.format(missing=missing) for a in for_typer], {}) is None

    def run(argv: list[str]) -> tuple[int, str]:
        env = {**os.environ, "HOME": str(tmp_path), "HINTGATE_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "200"}
        args = [sys.executable, "-m", "hintgate", "serve", *(a.format(missing=missing) for a in argv)]
        done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=60, check=False)
        return done.returncode, done.stderr

    code, said = run(plain)
    assert code == 2
    assert said.startswith("error: ")
    assert (code, said) == run(for_typer)
