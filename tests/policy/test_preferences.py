"""A person's own preferences make their own calls ask more, never less."""

from __future__ import annotations

from hintgate.policy.preferences import PERSONAL, personal_refusal, stricter
from hintgate.policy.settings import PolicySettings

LOOSE = PolicySettings(always_confirm_destructive=False, show_hint_warnings=False, auto_approve_read_only=True)


def test_a_persons_preferences_only_ever_ask_more() -> None:
    every = {p.path: p.strict for p in PERSONAL}
    laid = stricter(LOOSE, every)
    assert (laid.always_confirm_destructive, laid.show_hint_warnings, laid.auto_approve_read_only) == (
        True,
        True,
        False,
    )
    strict = PolicySettings()  # the defaults confirm destructive tools and show warnings
    looser = {p.path: not p.strict for p in PERSONAL}
    assert stricter(strict, looser) is strict, "a looser value kept anyway (in an old row) changes nothing"
    assert stricter(LOOSE, {}) is LOOSE
    assert stricter(LOOSE, {"mode": "read-only", "preferences.unknown": True}) is LOOSE


def test_a_person_may_keep_only_the_value_that_asks_more_of_their_own_preferences() -> None:
    assert personal_refusal("preferences.alwaysConfirmDestructive", True) is None
    assert personal_refusal("preferences.alwaysConfirmDestructive", None) is None
    assert personal_refusal("preferences.autoApproveReadOnly", False) is None
    refused = personal_refusal("preferences.alwaysConfirmDestructive", False)
    assert refused is not None
    assert "only makes their calls ask more, so it takes true" in refused
    mode = personal_refusal("mode", "bypass")
    assert mode is not None
    assert "not a preference a person keeps" in mode
    assert "must" not in (personal_refusal("preferences.showHintWarnings", "yes") or "must")
