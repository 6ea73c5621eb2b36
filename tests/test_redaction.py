from __future__ import annotations

from hintgate.redaction import Redactor, secret_values, url_secrets


def test_a_secret_containing_another_is_hidden_whole() -> None:
    redact = Redactor(["pass-word", "user:pass-word"])
    assert redact.text("auth user:pass-word, again pass-word") == "auth ***, again ***"


def test_short_values_are_settings_not_secrets() -> None:
    assert secret_values(["1", "info", "sk-live-123"]) == ("sk-live-123",)


def test_a_url_gives_its_password_and_query_values_as_written_and_decoded() -> None:
    found = url_secrets("https://me:p%40ss-word@api.example/mcp?key=ab%2Bcd-123&plain")
    assert {"p%40ss-word", "p@ss-word", "ab%2Bcd-123", "ab+cd-123"} <= set(found)


def test_json_values_are_redacted_in_keys_and_strings() -> None:
    redact = Redactor(["secret-123"])
    assert redact.value({"secret-123": ["x secret-123", 3]}) == {"***": ["x ***", 3]}
