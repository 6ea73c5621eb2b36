"""A tool's page: its hints side by side, the tri-state editor, the title and confirmation editors, its input schema."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hintgate.hints.annotations import Hint
from hintgate.hints.trust import Trust, TrustFrom
from hintgate.web import api
from hintgate.web.badges import HINT_HELP, HINT_NAMES, provenance_text
from hintgate.web.pages.catalog import ToolCard, first_calls, tool_card
from hintgate.web.pages.changes import pin_url
from hintgate.web.pages.frame import Choice, Layout, layout, pretty_json

if TYPE_CHECKING:
    from hintgate.server.gateway import Gateway

__all__ = ["HintRow", "ToolPage", "tool_page"]


@dataclass(frozen=True, slots=True)
class HintRow:
    """One hint of one tool, every value that went into it side by side.

    Attributes:
        hint: the wire name (`readOnlyHint`).
        name: the short name ("Read-only").
        help: one line on what it means.
        declared: what the server declared, None when it said nothing.
        distrusted: True when the declared value was set aside (untrusted server, or strong evidence against a
            local one).
        set_aside: why, in a few words, by the server's trust ("not trusted").
        inferred: what inference produced, None when no rule matched.
        rule: the inference rule's id.
        config_override: the config file's override, if any.
        stored_override: the dashboard's or API's override, if any (what the editor edits).
        effective: the value in force.
        source: where the value in force came from, in words.
        origin: declared, inferred, override or default.
        choices: the editor's tri-state: inherit, true, false.
    """

    hint: str
    name: str
    help: str
    declared: bool | None
    distrusted: bool
    inferred: bool | None
    set_aside: str
    rule: str | None
    config_override: bool | None
    stored_override: bool | None
    effective: bool
    source: str
    origin: str
    choices: list[Choice]


@dataclass(frozen=True, slots=True)
class ToolPage:
    """A tool: its hints side by side, the editor, and its input schema."""

    layout: Layout
    card: ToolCard
    upstream_name: str
    trusted: bool
    rows: list[HintRow]
    schema_json: str
    trust: str = "untrusted"
    trust_from: str = TrustFrom.CONFIG.phrase
    trust_meaning: str = Trust.UNTRUSTED.meaning
    declared_title: str | None = None
    stored_title: str | None = None
    config_title: str | None = None
    confirm_choices: list[Choice] = field(default_factory=list)
    pin_url: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


def tool_page(gateway: Gateway, name: str) -> ToolPage | None:
    """The page of the tool listed as `name`; None when there is no such tool."""
    entry = gateway.tool(name)
    if entry is None:
        return None
    tool = api.tool_out(gateway, entry)
    annotations = tool.annotations.model_dump()
    rows = []
    for hint in Hint:
        declared = tool.declared.get(hint.value)
        inferred = tool.inferred.get(hint.value)
        stored = tool.overrides.stored.get(hint.value)
        provenance = tool.provenance.get(hint.value, "default")
        current = "inherit" if stored is None else str(stored).lower()
        rows.append(
            HintRow(
                hint=hint.value,
                name=HINT_NAMES[hint],
                help=HINT_HELP[hint],
                declared=declared if isinstance(declared, bool) else None,
                distrusted=hint.value in tool.distrusted,
                inferred=inferred.value if inferred else None,
                set_aside=Trust(tool.trust).set_aside,
                rule=inferred.rule if inferred else None,
                config_override=tool.overrides.config.get(hint.value),
                stored_override=stored,
                effective=bool(annotations[hint.value]),
                source=provenance_text(provenance),
                origin=provenance.partition(":")[0],
                choices=[Choice(v, label, current == v) for v, label in _TRI_STATE],
            )
        )
    source = gateway.server(entry.server)
    stored_confirm = gateway.overrides.confirm_of(name)
    current_confirm = "inherit" if stored_confirm is None else stored_confirm.value
    return ToolPage(
        layout=layout(gateway, tool.title or tool.name, "catalog"),
        card=tool_card(tool, first_calls(gateway, [entry]).get(entry.name)),
        upstream_name=tool.upstream_name,
        trusted=source is not None and source.trust is Trust.TRUSTED,
        trust=(source.trust if source is not None else Trust.UNTRUSTED).value,
        trust_from=(source.trust_from if source is not None else TrustFrom.CONFIG).phrase,
        trust_meaning=(source.trust if source is not None else Trust.UNTRUSTED).meaning,
        rows=rows,
        schema_json=pretty_json(tool.input_schema),
        declared_title=entry.tool.declared_title,
        stored_title=tool.overrides.stored_title,
        config_title=tool.overrides.config_title,
        confirm_choices=[Choice(v, label, current_confirm == v) for v, label in _CONFIRM_CHOICES],
        pin_url=pin_url(entry.server, tool.upstream_name)
        if gateway.pins.get(entry.server, tool.upstream_name) is not None
        else None,
    )


_TRI_STATE = (("inherit", "Inherit"), ("true", "True"), ("false", "False"))
_CONFIRM_CHOICES = (
    ("inherit", "Inherit: the config file's rules and the mode decide"),
    ("first", "First call in a session asks"),
    ("always", "Every call asks"),
    ("never", "Never asks"),
)
