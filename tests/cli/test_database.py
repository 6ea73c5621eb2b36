"""`--db` mistakes are refused before anything starts, and `serve` says which database it records to."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from tests.processes import stop
from typer.testing import CliRunner

from hintgate.cli.app import app
from hintgate.cli.common import EXIT_USAGE


def serve(tmp_path: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`hintgate serve --demo` over stdio with stdin closed: it starts, finds the client gone, and exits."""
    return subprocess.run(
        [sys.executable, "-m", "hintgate", "serve", "--demo", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        env={**os.environ, "HINTGATE_DATA_DIR": str(tmp_path / "data"), "HOME": str(tmp_path), "COLUMNS": "200"},
        check=False,
    )


def test_a_sqlite_file_in_a_missing_directory_is_refused_and_no_directory_is_made(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "dir"
    done = serve(tmp_path, "--db", f"sqlite:///{missing}/x.db")
    assert done.returncode == EXIT_USAGE
    assert done.stderr.strip() == (
        f"error: database sqlite:///{missing}/x.db: the directory {missing} does not exist: give another database "
        "with --db URL (or HINTGATE_DATABASE_URL); or serve without recording with --no-record"
    )
    assert not (tmp_path / "no").exists()


def test_a_data_directory_that_is_a_file_is_named_with_what_to_set_and_left_as_it_was(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("")
    done = serve(tmp_path, "--no-record")
    assert done.returncode == EXIT_USAGE
    said = done.stderr.strip()
    assert said.startswith(
        f"error: cannot use the data directory {tmp_path / 'data'} (HINTGATE_DATA_DIR): {tmp_path / 'data'} is a "
        "file, not a directory."
    )
    assert said.endswith("point HINTGATE_DATA_DIR at a directory this user may create or write")
    assert "File exists" not in said
    assert (tmp_path / "data").read_text() == ""


def test_a_data_directory_under_a_file_names_the_file_in_the_way(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("")
    done = subprocess.run(
        [sys.executable, "-m", "hintgate", "serve", "--demo", "--no-record"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "HINTGATE_DATA_DIR": str(blocker / "sub"), "HOME": str(tmp_path), "COLUMNS": "300"},
        check=False,
    )
    assert done.returncode == EXIT_USAGE
    assert f"{blocker} is a file, not a directory, so {blocker / 'sub'} cannot be made under it" in done.stderr


def test_the_read_commands_name_the_data_directory_and_the_db_option_when_its_database_cannot_be_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "hintgate.db").mkdir()  # a directory where the database file should be
    monkeypatch.setenv("HINTGATE_DATA_DIR", str(tmp_path / "data"))
    result = CliRunner().invoke(app, ["calls"])
    assert result.exit_code == 3
    said = " ".join(result.output.split())
    assert f"cannot create SQLite database {tmp_path / 'data' / 'hintgate.db'}: " in said
    assert "is a directory, not a file" in said
    assert "point HINTGATE_DATA_DIR at another directory" in said
    assert "give another database with --db URL (or HINTGATE_DATABASE_URL)" in said
    assert "--no-record" not in said


def test_a_relative_sqlite_url_is_explained_when_its_directory_is_missing(tmp_path: Path) -> None:
    done = serve(tmp_path, "--db", "sqlite:///tmp/x.db", cwd=tmp_path)
    assert done.returncode == EXIT_USAGE
    assert f"the directory {tmp_path / 'tmp'} does not exist" in done.stderr
    assert "relative to the working directory" in done.stderr
    assert "sqlite:////tmp/x.db" in done.stderr


def serve_http_log(tmp_path: Path, *args: str, cwd: Path | None = None) -> list[str]:
    """What `hintgate serve --demo --http` prints up to its dashboard URL; then it is stopped."""
    process = subprocess.Popen(
        [sys.executable, "-m", "hintgate", "serve", "--demo", "--http", "127.0.0.1:0", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env={**os.environ, "HINTGATE_DATA_DIR": str(tmp_path / "data"), "HOME": str(tmp_path), "COLUMNS": "200"},
    )
    lines: list[str] = []
    started = threading.Event()

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            lines.append(line.rstrip("\n"))
            if "dashboard at" in line:
                started.set()
        started.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert started.wait(60), lines
    finally:
        stop(process, within=20)
        reader.join(timeout=10)
        assert process.stderr is not None
        process.stderr.close()
    return lines


def test_serve_prints_the_absolute_path_of_a_relative_sqlite_file(tmp_path: Path) -> None:
    (tmp_path / "here").mkdir()
    log = serve_http_log(tmp_path, "--db", "sqlite:///here/x.db", cwd=tmp_path)
    assert f"hintgate: recording to SQLite database {tmp_path / 'here' / 'x.db'}" in log
    assert (tmp_path / "here" / "x.db").exists()


def test_the_default_database_is_made_in_the_data_dir_and_named(tmp_path: Path) -> None:
    log = serve_http_log(tmp_path)
    database = tmp_path / "data" / "hintgate.db"
    assert f"hintgate: recording to SQLite database {database}" in log
    assert database.exists()


def test_a_postgresql_url_is_named_with_its_password_hidden(tmp_path: Path) -> None:
    done = serve(tmp_path, "--db", "postgresql://who:sesame@127.0.0.1:1/nothing")
    assert "hintgate: recording to PostgreSQL at 127.0.0.1:1 (postgresql://who:***@127.0.0.1:1/nothing)" in done.stderr
    assert "sesame" not in done.stderr


def test_the_read_commands_refuse_a_missing_directory_too(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    result = CliRunner().invoke(app, ["calls", "--db", f"sqlite:///{missing}/x.db"])
    assert result.exit_code == EXIT_USAGE
    assert f"the directory {missing} does not exist" in result.output
    assert not missing.exists()
