"""HTTP method profiles: the conservative table and the permissive one."""

from __future__ import annotations

import pytest

from hintgate.errors import ConfigError
from hintgate.hints.annotations import Hint, Inferred
from hintgate.hints.inference import DEFAULT_PROFILE, PROFILES, infer
from hintgate.hints.inference.http_method import method_hints

RO, D, IDEM, OW = Hint.READ_ONLY, Hint.DESTRUCTIVE, Hint.IDEMPOTENT, Hint.OPEN_WORLD


def values(found: dict[Hint, Inferred]) -> dict[Hint, bool]:
    return {hint: inferred.value for hint, inferred in found.items()}


def row(read_only: bool, destructive: bool, idempotent: bool, open_world: bool = True) -> dict[Hint, bool]:
    return {RO: read_only, D: destructive, IDEM: idempotent, OW: open_world}


def test_default_profile_is_the_conservative_seed_002_table() -> None:
    assert DEFAULT_PROFILE == "conservative"
    assert set(PROFILES) == {"conservative", "permissive"}


def test_ac1_get_is_read_only_not_destructive_idempotent_open_world() -> None:
    assert values(method_hints("GET")) == row(True, False, True)


def test_ac2_post_is_additive_not_idempotent() -> None:
    assert values(method_hints("POST")) == row(False, False, False)


def test_ac3_put_is_destructive_and_idempotent() -> None:
    assert values(method_hints("PUT")) == row(False, True, True)


def test_ac4_patch_is_destructive_and_not_idempotent() -> None:
    assert values(method_hints("PATCH")) == row(False, True, False)


def test_ac5_delete_is_destructive_and_idempotent() -> None:
    assert values(method_hints("DELETE")) == row(False, True, True)


@pytest.mark.parametrize("method", ["HEAD", "OPTIONS"])
def test_ac6_head_and_options_match_get(method: str) -> None:
    assert values(method_hints(method)) == values(method_hints("GET"))


@pytest.mark.parametrize("method", ["TRACE", "CONNECT", "FROB", ""])
def test_ac7_unknown_method_gives_no_hints(method: str) -> None:
    assert method_hints(method) == {}
    assert infer("frobnicate", http_method=method) == {}


def test_ac8_inference_never_produces_a_title() -> None:
    found = infer("get_user", "Get a user", http_method="GET")
    assert set(found) <= set(Hint)
    assert all(isinstance(v, Inferred) for v in found.values())


@pytest.mark.parametrize("method", ["get", "Get", "gEt", " GET "])
def test_ac9_method_comparison_is_case_insensitive(method: str) -> None:
    assert values(method_hints(method)) == row(True, False, True)


@pytest.mark.parametrize("profile", sorted(PROFILES))
@pytest.mark.parametrize("method", ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"])
def test_ac10_every_known_method_sets_all_four_hints(profile: str, method: str) -> None:
    assert set(method_hints(method, profile)) == set(Hint)


@pytest.mark.parametrize(
    ("method", "expected"),
    [
        ("GET", row(True, False, True)),
        ("HEAD", row(True, False, True)),
        ("OPTIONS", row(True, False, True)),
        ("POST", row(False, False, False)),
        ("PUT", row(False, False, True)),
        ("PATCH", row(False, False, False)),
        ("DELETE", row(False, True, True)),
    ],
)
def test_permissive_profile_follows_seed_000_with_open_world_true(method: str, expected: dict[Hint, bool]) -> None:
    assert values(method_hints(method, "permissive")) == expected


def test_profiles_disagree_only_on_put_and_patch_destructiveness() -> None:
    conservative, permissive = PROFILES["conservative"], PROFILES["permissive"]
    differing = {m for m in conservative if conservative[m] != permissive[m]}
    assert differing == {"PUT", "PATCH"}


def test_rule_id_names_the_lower_case_method() -> None:
    assert {f.rule for f in method_hints("DELETE").values()} == {"http.delete"}


def test_unknown_profile_raises_config_error_naming_the_known_ones() -> None:
    with pytest.raises(ConfigError, match="conservative, permissive"):
        infer("get_user", http_method="GET", profile="yolo")
    with pytest.raises(ConfigError, match="unknown HTTP method profile"):
        infer("get_user", profile="yolo")


def test_method_profile_decides_before_name_rules() -> None:
    found = infer("delete_user", "Delete a user permanently", http_method="GET")
    assert found[RO] == Inferred(True, "http.get")


def test_post_with_read_name_is_read_only_under_its_own_rule() -> None:
    found = infer("search_pages", "Search pages by title", http_method="POST")
    assert found[RO] == Inferred(True, "http.post.read-name")
    assert found[D].value is False
    assert found[IDEM].value is True
    assert found[OW] == Inferred(True, "http.post")


def test_post_with_read_name_but_writing_description_stays_a_write() -> None:
    found = infer("get_or_create_page", "Get a page, creating it when missing", http_method="POST")
    assert found[RO] == Inferred(False, "http.post")


def test_post_with_creating_name_keeps_the_profile() -> None:
    assert values(infer("create_page", "Create a page", http_method="post")) == row(False, False, False)


def test_put_under_permissive_profile_is_not_destructive() -> None:
    found = infer("update_user", "Update a user", http_method="PUT", profile="permissive")
    assert found[D] == Inferred(False, "http.put")


@pytest.mark.parametrize(
    ("method", "read_only", "destructive"),
    [("PROPFIND", True, False), ("report", True, False), ("MKCOL", False, False), ("MOVE", False, True)],
)
def test_webdav_methods_read_create_or_change_as_rfc_4918_says(method: str, read_only: bool, destructive: bool) -> None:
    found = method_hints(method)
    assert found[Hint.READ_ONLY].value is read_only
    assert found[Hint.DESTRUCTIVE].value is destructive
