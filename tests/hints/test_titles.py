"""Every tool has a title people can read, and says where it came from."""

from __future__ import annotations

from typing import Any

import pytest
from tests.tools import tool

from hintgate.hints.catalog import META_PREFIX, ToolFacts, build_catalog, resolve_tool
from hintgate.hints.titles import TitleOrigin, title_from_name


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("update_note", "Update note"),
        ("acr_registry_list", "List acr registry"),
        ("gizmo.part.delete", "Delete gizmo part"),
        ("AcmeWidgetPartsGet", "Get acme widget parts"),
        ("gizmo_list", "Gizmo list"),  # one word before: a tool's command, kept in order
        ("shop_order_search", "Shop order search"),  # "search" is as often a noun
        ("shop_order_status", "Shop order status"),
        ("shop_order_export", "Shop order export"),
        ("get_shop_order_list", "Get shop order list"),  # the action comes first already
        ("shop_order_reader", "Shop order reader"),  # an agent noun is no verb
        ("getURLInfo", "Get URL info"),
        ("widgets.archive", "Widgets archive"),
        ("API-get-users", "API get users"),
        ("GET_USERS", "Get users"),
        ("ledger2_sync", "Ledger2 sync"),
        ("fold-Gizmo", "Fold gizmo"),
    ],
)
def test_a_derived_title_is_the_names_words_in_sentence_case(name: str, title: str) -> None:
    assert title_from_name(name) == title


def _tool(**extra: Any) -> dict[str, Any]:
    return tool("fold_gizmo", **extra)


@pytest.mark.parametrize(
    ("raw", "override", "title", "origin"),
    [
        (_tool(title="Fold a gizmo"), "Gizmo folding", "Gizmo folding", TitleOrigin.OVERRIDE),
        (_tool(title="Fold a gizmo", annotations={"title": "Other"}), None, "Fold a gizmo", TitleOrigin.DECLARED),
        (_tool(annotations={"title": "Fold it"}), None, "Fold it", TitleOrigin.DECLARED),
        (_tool(title="Fold a gizmo", _meta={"hintgate/openapi": {"method": "POST"}}), None, "Fold a gizmo", "openapi"),
        (_tool(title="  "), None, "Fold gizmo", TitleOrigin.DERIVED),
        (_tool(), None, "Fold gizmo", TitleOrigin.DERIVED),
    ],
)
def test_the_title_follows_override_then_declared_then_openapi_then_the_name(
    raw: dict[str, Any], override: str | None, title: str, origin: str
) -> None:
    facts = ToolFacts(http_method="POST") if "_meta" in raw else None
    tool = resolve_tool(raw, title_override=override, facts=facts)
    assert (tool.title, tool.title_origin) == (title, origin)
    assert tool.to_json()["title_provenance"] == origin


def test_tools_list_carries_a_title_and_its_provenance_for_a_tool_that_declares_none() -> None:
    catalog = build_catalog([("shelf", "shelf", [resolve_tool(_tool())])])
    wire = catalog.wire[0]
    assert wire["title"] == "Fold gizmo"
    assert wire["_meta"][META_PREFIX + "title"] == "derived"
