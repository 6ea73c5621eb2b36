from __future__ import annotations

from pathlib import Path

import pytest

from hintgate.config.settings import Settings
from hintgate.errors import ConfigError


def test_environment_overrides_defaults_and_flags_override_the_environment(tmp_path: Path) -> None:
    environ = {"HINTGATE_DATA_DIR": str(tmp_path), "HINTGATE_RETENTION": "5", "HINTGATE_RECORD": "off"}
    settings = Settings.from_environ(environ, retention=7)
    assert settings.data_dir == tmp_path
    assert settings.retention == 7
    assert settings.record is False


def test_a_bad_environment_value_names_the_variable() -> None:
    with pytest.raises(ConfigError, match=r"HINTGATE_RETENTION='none': expected a whole number of at least 1"):
        Settings.from_environ({"HINTGATE_RETENTION": "none"})
    with pytest.raises(ConfigError, match="HINTGATE_COMMIT_INTERVAL='0': expected a number of seconds above 0"):
        Settings.from_environ({"HINTGATE_COMMIT_INTERVAL": "0"})
    with pytest.raises(ConfigError, match="HINTGATE_RECORD='maybe': expected true or false"):
        Settings.from_environ({"HINTGATE_RECORD": "maybe"})
    with pytest.raises(ConfigError, match="HINTGATE_STATE_KEY: expected at least 32 bytes") as caught:
        Settings.from_environ({"HINTGATE_STATE_KEY": "short"})
    assert "short" not in str(caught.value)


def test_a_setting_with_named_values_takes_one_of_them_in_any_case_and_names_them_otherwise() -> None:
    settings = Settings.from_environ({"HINTGATE_COMMIT": " Fast ", "HINTGATE_TOKENS": "EXACT"})
    assert (settings.commit, settings.tokens) == ("fast", "exact")
    with pytest.raises(ConfigError, match="HINTGATE_COMMIT='later': expected durable or fast"):
        Settings.from_environ({"HINTGATE_COMMIT": "later"})
    with pytest.raises(ConfigError, match="HINTGATE_TOKENS='guess': expected estimate or exact"):
        Settings.from_environ({"HINTGATE_TOKENS": "guess"})


def test_the_default_replica_is_host_and_pid() -> None:
    import os

    assert Settings.from_environ({}).replica.endswith(f":{os.getpid()}")


def test_the_default_database_is_a_sqlite_file_in_the_data_directory(tmp_path: Path) -> None:
    settings = Settings.from_environ({"HINTGATE_DATA_DIR": str(tmp_path)})
    assert settings.store_url == f"sqlite:///{tmp_path / 'hintgate.db'}"


def test_the_environment_names_the_database_unless_a_flag_does() -> None:
    environ = {"HINTGATE_DATABASE_URL": "sqlite:////srv/h.db"}
    assert Settings.from_environ(environ).store_url == "sqlite:////srv/h.db"
    assert Settings.from_environ(environ, database_url="sqlite:///other.db").store_url == "sqlite:///other.db"


def test_the_store_reads_no_environment_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hintgate.store import database_url

    monkeypatch.setenv("HINTGATE_DATABASE_URL", "sqlite:////elsewhere.db")
    url = Settings.from_environ({"HINTGATE_DATA_DIR": str(tmp_path)}).store_url
    assert database_url(url) == f"sqlite+aiosqlite:///{tmp_path / 'hintgate.db'}"
