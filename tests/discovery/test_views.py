"""Views: which catalog tools a view holds, by each key."""

from __future__ import annotations

from typing import Any

from hintgate.discovery.views import READ_ONLY, View, views_json
from hintgate.hints.annotations import Tier
from hintgate.hints.catalog import CatalogEntry, ToolFacts, build_catalog, resolve_tool
from hintgate.hints.trust import Trust


def entries(**servers: list[dict[str, Any]]) -> dict[str, CatalogEntry]:
    groups = []
    for server, tools in servers.items():
        trust = Trust.UNTRUSTED if server == "remote" else Trust.LOCAL
        resolved = []
        for tool in tools:
            tags = tuple(tool.pop("tags", ()))
            resolved.append(resolve_tool(tool, trust=trust, facts=ToolFacts(tags=tags)))
        groups.append((server, server, resolved))
    return dict(build_catalog(groups).entries)


CATALOG = entries(
    git=[
        {"name": "log", "annotations": {"readOnlyHint": True}, "tags": ["history"]},
        {"name": "commit", "annotations": {"readOnlyHint": False, "destructiveHint": False}},
        {"name": "reset", "annotations": {"readOnlyHint": False, "destructiveHint": True}},
    ],
    remote=[{"name": "get_page", "annotations": {"readOnlyHint": True}}],
)


def held(view: View) -> list[str]:
    return [name for name, entry in CATALOG.items() if view.admits(entry)]


def test_the_read_only_view_holds_tools_whose_hint_in_force_is_read_only() -> None:
    # The untrusted server's declared readOnly does not count: inference decides its hint.
    assert held(READ_ONLY) == [n for n, e in CATALOG.items() if e.tier is Tier.READ_ONLY]
    assert "git_log" in held(READ_ONLY)
    assert "git_commit" not in held(READ_ONLY)


def test_each_key_narrows_and_its_values_widen() -> None:
    assert held(View("w", tiers=frozenset({Tier.ADDITIVE, Tier.DESTRUCTIVE}))) == ["git_commit", "git_reset"]
    assert held(View("s", servers=frozenset({"remote"}))) == ["remote_get_page"]
    assert held(View("t", tools=("git_c*", "reset"))) == ["git_commit", "git_reset"]
    assert held(View("g", tags=frozenset({"history", "other"}))) == ["git_log"]
    assert held(View("u", trust=frozenset({Trust.UNTRUSTED}))) == ["remote_get_page"]
    both = View("b", servers=frozenset({"git"}), tiers=frozenset({Tier.DESTRUCTIVE}))
    assert held(both) == ["git_reset"]


def test_views_are_described_built_in_first() -> None:
    shown = views_json({"plan": View("plan", servers=frozenset({"git"}))})
    assert shown == [{"name": "read-only", "readOnly": True}, {"name": "plan", "servers": ["git"]}]
