"""The data directory and the SQLite files are owner-only: made so, or tightened at start with a log line."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from hintgate.config.permissions import path_problem, private_directory
from hintgate.store import Store


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.anyio
async def test_a_new_sqlite_database_its_wal_and_its_new_directory_are_owner_only_whatever_the_umask(
    tmp_path: Path,
) -> None:
    db = tmp_path / "made" / "hintgate.db"
    old = os.umask(0o002)
    try:
        async with await Store.open(f"sqlite:///{db}", recover=False) as store:
            await store.overrides.set_hint("x_tool", "readOnlyHint", True)
            companions = [p for p in db.parent.iterdir() if p.name != "hintgate.db"]
            assert {p.name for p in companions} >= {"hintgate.db-wal", "hintgate.db-shm"}
            assert {p.name: mode(p) for p in companions} == {p.name: 0o600 for p in companions}
    finally:
        os.umask(old)
    assert mode(db) == 0o600
    assert mode(db.parent) == 0o700


@pytest.mark.anyio
async def test_an_existing_database_others_can_read_is_tightened_with_a_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    chosen = tmp_path / "chosen"
    chosen.mkdir()
    chosen.chmod(0o755)
    db = chosen / "hintgate.db"
    async with await Store.open(f"sqlite:///{db}", recover=False):
        pass
    db.chmod(0o644)
    Path(f"{db}-wal").write_bytes(b"")
    Path(f"{db}-wal").chmod(0o664)
    async with await Store.open(f"sqlite:///{db}", recover=False):
        assert mode(Path(f"{db}-wal")) == 0o600
    assert mode(db) == 0o600
    assert f"the file {db} could be read by other users (mode 0644): made it owner-only (0600)" in caplog.text
    assert mode(chosen) == 0o755  # a directory the user chose is theirs; only hintgate's data directory is tightened


def test_the_data_directory_is_made_owner_only_or_tightened(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    made = tmp_path / "a" / "data"
    private_directory(made)
    assert mode(made) == 0o700
    kept = tmp_path / "kept"
    kept.mkdir(mode=0o755)
    kept.chmod(0o755)
    private_directory(kept)
    assert mode(kept) == 0o700
    assert f"the directory {kept} could be read by other users (mode 0755)" in caplog.text


def test_a_file_where_the_data_directory_should_be_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("")
    blocker.chmod(0o644)
    with pytest.raises(NotADirectoryError) as info:
        private_directory(blocker)
    assert mode(blocker) == 0o644  # not chmod-ed to 0700
    assert path_problem(blocker, info.value) == f"{blocker} is a file, not a directory"


def test_a_file_in_the_way_of_a_directory_to_make_is_named_not_the_directory(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    wanted = blocker / "sub" / "data"
    with pytest.raises(OSError) as info:
        private_directory(wanted)
    # OSError says "File exists: '.../file'"; the problem is that it is a file.
    assert (
        path_problem(wanted, info.value) == f"{blocker} is a file, not a directory, so {wanted} cannot be made under it"
    )
