from __future__ import annotations

import pytest

from hintgate.errors import HintTypeError
from hintgate.hints.annotations import (
    CAUTIOUS,
    SPEC_DEFAULTS,
    Annotations,
    Hint,
    Inferred,
    Origin,
    Provenance,
    Tier,
    parse_annotations,
    resolve,
    tier_of,
)
from hintgate.hints.trust import Trust


def test_spec_defaults_are_the_cautious_values() -> None:
    assert SPEC_DEFAULTS == {
        Hint.READ_ONLY: False,
        Hint.DESTRUCTIVE: True,
        Hint.IDEMPOTENT: False,
        Hint.OPEN_WORLD: True,
    }
    assert CAUTIOUS == SPEC_DEFAULTS


def test_unset_hints_are_none_and_distinct_from_false() -> None:
    annotations = Annotations(read_only=False)
    assert annotations.get(Hint.READ_ONLY) is False
    assert annotations.get(Hint.DESTRUCTIVE) is None
    assert annotations.set_hints() == {Hint.READ_ONLY: False}


def test_effective_fills_unset_hints_with_spec_defaults() -> None:
    effective = Annotations(title="T").effective()
    assert effective == Annotations(title="T", read_only=False, destructive=True, idempotent=False, open_world=True)


def test_effective_read_only_makes_destructive_and_idempotent_moot() -> None:
    effective = Annotations(read_only=True, destructive=True, idempotent=False).effective()
    assert effective.destructive is False
    assert effective.idempotent is True
    assert effective.open_world is True


def test_to_mcp_leaves_unset_hints_out_unless_explicit() -> None:
    annotations = Annotations(title="Get", read_only=True)
    assert annotations.to_mcp() == {"title": "Get", "readOnlyHint": True}
    assert annotations.to_mcp(explicit=True) == {
        "title": "Get",
        "readOnlyHint": True,
        "destructiveHint": True,
        "idempotentHint": False,
        "openWorldHint": True,
    }


def test_from_mcp_round_trips_camel_case() -> None:
    data = {
        "title": "X",
        "readOnlyHint": False,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": False,
    }
    assert Annotations.from_mcp(data, tool="x").to_mcp() == data


def test_from_mcp_rejects_a_string_hint_naming_tool_and_field() -> None:
    with pytest.raises(HintTypeError, match=r"tool 'delete_file': annotations.destructiveHint must be true or false"):
        Annotations.from_mcp({"destructiveHint": "yes"}, tool="delete_file")


def test_from_mcp_rejects_integer_hints_even_zero_and_one() -> None:
    with pytest.raises(HintTypeError, match="readOnlyHint"):
        Annotations.from_mcp({"readOnlyHint": 1}, tool="t")


def test_from_mcp_rejects_a_non_string_title() -> None:
    with pytest.raises(HintTypeError, match=r"annotations\.title must be a string"):
        Annotations.from_mcp({"title": 3}, tool="t")


def test_parse_keeps_unknown_keys_aside() -> None:
    parsed = parse_annotations({"readOnlyHint": True, "x-cost": "high", "audience": ["user"]}, tool="t")
    assert parsed.annotations == Annotations(read_only=True)
    assert parsed.extra == {"x-cost": "high", "audience": ["user"]}
    assert parsed.invalid == {}


def test_parse_keeps_wrongly_typed_values_aside_instead_of_guessing() -> None:
    parsed = parse_annotations({"readOnlyHint": "true", "openWorldHint": False}, tool="t")
    assert parsed.annotations == Annotations(open_world=False)
    assert parsed.invalid == {"readOnlyHint": "true"}


def test_parse_treats_json_null_as_unset() -> None:
    assert parse_annotations({"readOnlyHint": None}, tool="t").annotations == Annotations()


def test_parse_rejects_annotations_that_are_not_an_object() -> None:
    with pytest.raises(HintTypeError, match=r"annotations\.annotations"):
        parse_annotations(["readOnlyHint"], tool="t")  # type: ignore[arg-type]


def test_provenance_string_form_round_trips() -> None:
    provenance = Provenance(Origin.INFERRED, "name.verb.read")
    assert str(provenance) == "inferred:name.verb.read"
    assert Provenance.parse(str(provenance)) == provenance
    assert str(Provenance(Origin.DEFAULT)) == "default"


def test_resolve_precedence_is_override_then_declared_then_inferred_then_default() -> None:
    resolution = resolve(
        declared=Annotations(destructive=False, idempotent=True),
        inferred={Hint.DESTRUCTIVE: Inferred(True, "r.d"), Hint.OPEN_WORLD: Inferred(False, "r.o")},
        overrides={Hint.IDEMPOTENT: False},
        trust=Trust.TRUSTED,
    )
    assert resolution.provenance() == {
        "readOnlyHint": "declared:implied",  # declaring destructive or idempotent declares a write
        "destructiveHint": "declared",
        "idempotentHint": "override",
        "openWorldHint": "inferred:r.o",
    }
    assert resolution.to_mcp() == {
        "readOnlyHint": False,
        "destructiveHint": False,
        "idempotentHint": False,
        "openWorldHint": False,
    }


def test_untrusted_server_cannot_mark_tool_read_only_against_inference() -> None:
    resolution = resolve(
        declared=Annotations(read_only=True),
        inferred={Hint.READ_ONLY: Inferred(False, "name.verb.delete")},
        trust=Trust.UNTRUSTED,
    )
    resolved = resolution.hints[Hint.READ_ONLY]
    assert resolved.value is False
    assert str(resolved.provenance) == "inferred:name.verb.delete"
    assert resolved.distrusted is True


def test_untrusted_server_cannot_mark_tool_read_only_when_inference_is_silent() -> None:
    resolution = resolve(declared=Annotations(read_only=True), trust=Trust.UNTRUSTED)
    assert resolution.value(Hint.READ_ONLY) is False
    assert resolution.hints[Hint.READ_ONLY].provenance.origin is Origin.DEFAULT


def test_untrusted_server_may_make_a_tool_look_riskier() -> None:
    resolution = resolve(
        declared=Annotations(read_only=False, destructive=True),
        inferred={Hint.READ_ONLY: Inferred(True, "name.verb.get"), Hint.DESTRUCTIVE: Inferred(False, "x")},
        trust=Trust.UNTRUSTED,
    )
    assert resolution.value(Hint.READ_ONLY) is False
    assert resolution.hints[Hint.READ_ONLY].provenance.origin is Origin.DECLARED
    assert resolution.value(Hint.DESTRUCTIVE) is True


def test_untrusted_declared_value_counts_when_inference_agrees() -> None:
    resolution = resolve(
        declared=Annotations(read_only=True),
        inferred={Hint.READ_ONLY: Inferred(True, "name.verb.get")},
        trust=Trust.UNTRUSTED,
    )
    assert resolution.value(Hint.READ_ONLY) is True
    assert resolution.hints[Hint.READ_ONLY].provenance.origin is Origin.DECLARED


def test_trusted_server_declarations_win_over_inference() -> None:
    resolution = resolve(
        declared=Annotations(read_only=True),
        inferred={Hint.READ_ONLY: Inferred(False, "name.verb.delete")},
        trust=Trust.TRUSTED,
    )
    assert resolution.value(Hint.READ_ONLY) is True


def test_operator_override_beats_untrusted_caution() -> None:
    resolution = resolve(
        declared=Annotations(read_only=True),
        overrides={Hint.READ_ONLY: True},
        trust=Trust.UNTRUSTED,
    )
    assert resolution.value(Hint.READ_ONLY) is True
    assert resolution.hints[Hint.READ_ONLY].provenance.origin is Origin.OVERRIDE


def test_resolved_read_only_makes_destructive_false_and_idempotent_true() -> None:
    resolution = resolve(declared=Annotations(read_only=True), trust=Trust.TRUSTED)
    assert resolution.to_mcp() == {
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": True,
    }
    assert resolution.provenance()["destructiveHint"] == "declared"


def test_resolution_keeps_declared_title() -> None:
    assert resolve(declared=Annotations(title="Get weather")).to_mcp()["title"] == "Get weather"
    assert resolve(declared=Annotations(title="a"), title_override="b").title == "b"


@pytest.mark.parametrize(
    ("declared", "tier"),
    [
        # The four tiers, annotated as that server annotates them.
        (Annotations(read_only=True), Tier.READ_ONLY),
        (Annotations(destructive=False, idempotent=False), Tier.ADDITIVE),  # tier 2: create_note
        (Annotations(destructive=False), Tier.ADDITIVE),  # tier 3: soft delete
        (Annotations(destructive=True), Tier.DESTRUCTIVE),  # tier 4: purge_note
        (Annotations(read_only=False), Tier.DESTRUCTIVE),  # destructive defaults to true
        (Annotations(), Tier.UNKNOWN),
        # idempotentHint is defined for writes only: declaring it declares a write, destructive by default
        (Annotations(open_world=False, idempotent=True), Tier.DESTRUCTIVE),
    ],
)
def test_tier_follows_seed_003(declared: Annotations, tier: Tier) -> None:
    assert tier_of(resolve(declared=declared, trust=Trust.TRUSTED)) is tier


def test_inferred_hints_lift_a_tool_out_of_unknown() -> None:
    resolution = resolve(declared=Annotations(), inferred={Hint.READ_ONLY: Inferred(False, "name.verb.create")})
    assert resolution.tier is Tier.DESTRUCTIVE
    resolution = resolve(
        declared=Annotations(),
        inferred={Hint.READ_ONLY: Inferred(False, "v"), Hint.DESTRUCTIVE: Inferred(False, "v")},
    )
    assert resolution.tier is Tier.ADDITIVE


@pytest.mark.parametrize("trust", list(Trust))
@pytest.mark.parametrize("declared", [{"destructiveHint": False}, {"idempotentHint": True}, {"destructiveHint": True}])
def test_a_tool_that_declares_destructive_or_idempotent_without_read_only_is_never_inferred_read_only(
    trust: Trust, declared: dict[str, bool]
) -> None:
    from hintgate.hints.catalog import resolve_tool

    # "export" reads by the name lexicon; the server's hints say it writes (the spec defines them for writes only).
    tool = resolve_tool(
        {"name": "export_report", "description": "Export the report.", "annotations": declared}, trust=trust
    )
    assert tool.resolution.value(Hint.READ_ONLY) is False
    assert str(tool.resolution.hints[Hint.READ_ONLY].provenance) == "declared:implied"
