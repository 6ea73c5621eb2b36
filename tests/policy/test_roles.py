"""The management plane's roles: who is a member, an auditor, an admin or the operator, and what each may do."""

from __future__ import annotations

from hintgate.policy.principal import API_TOKEN, LOCAL, Approvers, Principal, PrincipalKind
from hintgate.policy.roles import People, Permission, Role, Roles, answer_refusal, role_of

ROLES = Roles(people=True, admins=People.of(["Ops@Example.com"], ["platform"]), auditors=People.of([], ["security"]))


def person(name: str, *groups: str) -> Principal:
    return Principal(name, PrincipalKind.USER, frozenset(groups))


def test_a_signed_in_person_nobody_named_is_a_member_who_changes_nothing() -> None:
    role = role_of(person("alice@example.com", "readers"), ROLES)
    assert role is Role.MEMBER
    assert Permission.OPERATE not in role.permissions
    assert Permission.ALL_HISTORY not in role.permissions
    assert Permission.READ_SETTINGS not in role.permissions
    assert {Permission.TOOLS, Permission.OWN_HISTORY, Permission.ANSWER, Permission.OWN_LOGINS} <= role.permissions


def test_admins_and_auditors_are_named_by_user_or_group_and_only_the_token_sets_a_command() -> None:
    assert role_of(person("ops@example.com"), ROLES) is Role.ADMIN, "names are matched ignoring case"
    assert role_of(person("bob@example.com", "platform"), ROLES) is Role.ADMIN
    assert role_of(person("eve@example.com", "security"), ROLES) is Role.AUDITOR
    assert role_of(API_TOKEN, ROLES) is Role.OPERATOR
    assert Permission.COMMANDS not in Role.ADMIN.permissions
    assert Permission.COMMANDS in Role.OPERATOR.permissions
    assert Permission.OPERATE not in Role.AUDITOR.permissions
    assert Permission.ALL_HISTORY in Role.AUDITOR.permissions


def test_a_name_is_no_glob_and_a_principal_no_identity_provider_vouched_for_is_never_named() -> None:
    roles = Roles(people=True, admins=People.of(["*"]))
    assert role_of(person("alice@example.com"), roles) is Role.MEMBER
    assert role_of(Principal("ops@example.com", PrincipalKind.OPERATOR), ROLES) is Role.MEMBER
    assert role_of(None, ROLES) is None


def test_without_people_whoever_reaches_the_gateway_is_its_operator() -> None:
    assert role_of(LOCAL, Roles()) is Role.OPERATOR
    assert role_of(None, Roles()) is Role.OPERATOR


def test_a_member_answers_only_calls_whose_approvers_name_them_and_an_admin_those_naming_nobody() -> None:
    dba = Approvers(groups=frozenset({"dba"}))
    carol, alice, ops = person("carol@example.com", "dba"), person("alice@example.com"), person("ops@example.com")
    assert answer_refusal(Role.MEMBER, carol, dba, "bob@example.com") is None
    assert "only group dba" in (answer_refusal(Role.MEMBER, alice, dba, "bob@example.com") or "")
    nobody_named = answer_refusal(Role.MEMBER, carol, None, "bob@example.com")
    assert nobody_named is not None
    assert "gateway:operate" in nobody_named
    assert answer_refusal(Role.ADMIN, ops, None, "bob@example.com") is None
    assert "may not approve it" in (answer_refusal(Role.ADMIN, ops, None, "ops@example.com") or "")
