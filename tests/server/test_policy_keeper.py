"""The policy keeper makes a new policy value for every change and never touches the one in force."""

from __future__ import annotations

import pytest

from hintgate.policy.rules import Confirm, Mode, PolicySettings, Rule, Verdict
from hintgate.scan.guard import OnResultFinding
from hintgate.server.overrides import StoredOverrides
from hintgate.server.policy_keeper import PolicyKeeper

pytestmark = pytest.mark.anyio

FILE_RULE = Rule(Verdict.DENY, tool="notes_delete_*")


def _keeper(mode: Mode = Mode.ACCEPT_EDITS) -> PolicyKeeper:
    return PolicyKeeper(StoredOverrides(None), PolicySettings(mode=mode), (FILE_RULE,), OnResultFinding.MARK)


async def test_a_change_makes_a_new_value_and_leaves_the_old_one_as_it_was() -> None:
    keeper = _keeper()
    before = keeper.current()
    await keeper.set({"mode": "read-only"}, actor="test")
    assert keeper.current() is not before
    assert keeper.current().settings.mode is Mode.READ_ONLY
    assert before.settings.mode is Mode.ACCEPT_EDITS


async def test_a_setting_equal_to_the_files_follows_the_file_again() -> None:
    keeper = _keeper()
    await keeper.set({"mode": "read-only"}, actor="test")
    await keeper.set({"mode": "acceptEdits"}, actor="test")
    assert dict(keeper.stored_settings()) == {}
    keeper.from_file(PolicySettings(mode=Mode.BYPASS), (), OnResultFinding.MARK)
    assert keeper.current().settings.mode is Mode.BYPASS


async def test_stored_settings_stay_laid_over_a_reloaded_file() -> None:
    keeper = _keeper()
    await keeper.set({"mode": "read-only"}, actor="test")
    keeper.from_file(PolicySettings(mode=Mode.BYPASS), (), OnResultFinding.BLOCK)
    assert keeper.current().settings.mode is Mode.READ_ONLY
    assert keeper.file_settings.mode is Mode.BYPASS
    assert keeper.current().on_result_finding is OnResultFinding.BLOCK
    assert await keeper.reset(None, actor="test") == ["mode"]
    assert keeper.current().settings.mode is Mode.BYPASS


async def test_a_stored_confirm_is_a_rule_before_the_files_rules() -> None:
    keeper = _keeper()
    await keeper.set_confirm("notes_*", Confirm.ALWAYS, actor="test")
    rules = keeper.current().rules
    assert [(r.tool, r.stored) for r in rules] == [("notes_*", True), ("notes_delete_*", False)]
    await keeper.set_confirm("notes_*", None, actor="test")
    assert keeper.current().rules == (FILE_RULE,)


async def test_a_persons_preferences_are_in_the_next_value_only() -> None:
    keeper = _keeper()
    before = keeper.current()
    kept = await keeper.set_person("ann@example.com", {"preferences.autoApproveReadOnly": False})
    assert kept == {"preferences.autoApproveReadOnly": False}
    assert dict(keeper.current().preferences["ann@example.com"]) == kept
    assert dict(before.preferences) == {}


async def test_a_preference_that_asks_less_is_refused_and_nothing_changes() -> None:
    keeper = _keeper()
    before = keeper.current()
    with pytest.raises(ValueError):
        await keeper.set_person("ann@example.com", {"preferences.autoApproveReadOnly": True})
    assert keeper.current() is before
