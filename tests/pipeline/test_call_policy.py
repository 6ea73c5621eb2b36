"""The policy in force as a call reads it: read anew at every use, a person's preferences laid over."""

from __future__ import annotations

from tests.pipeline.kit import Policy

from hintgate.pipeline.call_policy import CallPolicy
from hintgate.policy.in_force import PolicyInForce
from hintgate.policy.preferences import owner_key
from hintgate.policy.principal import Principal, PrincipalKind
from hintgate.policy.rules import Mode, PolicySettings

ALICE = Principal("alice@example.com", PrincipalKind.USER, key="https://id.example#sub=alice")


def test_a_person_without_preferences_is_under_the_settings_in_force() -> None:
    policy = Policy(PolicySettings(mode=Mode.ACCEPT_EDITS))
    reader = CallPolicy(policy)
    assert reader.settings_for(ALICE) is policy.value.settings
    assert reader.settings_for(None) is policy.value.settings


def test_a_policy_replaced_whole_is_read_at_the_next_use() -> None:
    policy = Policy(PolicySettings(mode=Mode.ACCEPT_EDITS))
    reader = CallPolicy(policy)
    policy.value = PolicyInForce(PolicySettings(mode=Mode.READ_ONLY))
    assert reader.settings.mode is Mode.READ_ONLY
    assert reader.settings_for(None).mode is Mode.READ_ONLY


def test_a_persons_own_stricter_preferences_are_laid_over_and_kept_while_neither_changes() -> None:
    settings = PolicySettings(mode=Mode.ACCEPT_EDITS, always_confirm_destructive=False)
    preferences = {owner_key(ALICE): {"preferences.alwaysConfirmDestructive": True}}
    policy = Policy(settings)
    policy.value = PolicyInForce(settings, (), preferences)
    reader = CallPolicy(policy)
    mine = reader.settings_for(ALICE)
    assert mine.always_confirm_destructive is True
    assert reader.settings_for(ALICE) is mine  # the same object: a decision taken ahead still holds
    assert reader.settings_for(None) is settings
    replaced = PolicySettings(mode=Mode.ACCEPT_EDITS, always_confirm_destructive=False)
    policy.value = PolicyInForce(replaced, (), preferences)
    assert reader.settings_for(ALICE) is not mine
