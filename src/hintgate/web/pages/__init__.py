"""The dashboard's pages as typed contexts, built from the gateway and the store.

Each page template gets exactly one object, `page`, of one of the dataclasses
here; templates only lay it out. The builders read the same data the REST
API serves (`hintgate.web.api`), so a page and `/api/...` never disagree.
"""

from __future__ import annotations

from hintgate.web.pages.approvals import ApprovalItem, ApprovalsPage, approvals_page, approvals_version
from hintgate.web.pages.catalog import (
    HINT_FILTERS,
    TIERS,
    CatalogFilters,
    CatalogPage,
    CoverageRow,
    TierCount,
    ToolCard,
    catalog_page,
    tool_card,
)
from hintgate.web.pages.changes import ChangeItem, ChangesPage, FindingView, changes_page
from hintgate.web.pages.frame import (
    Choice,
    ErrorPage,
    Layout,
    LoginPage,
    Moment,
    ServersFragment,
    ServerState,
    layout,
    pretty_json,
)
from hintgate.web.pages.history import (
    CALLS_PER_PAGE,
    SESSION_STATUSES,
    VERDICTS,
    CallDetail,
    CallRow,
    CallsFilters,
    CallsPage,
    SessionPage,
    SessionRow,
    SessionsPage,
    SessionTab,
    call_detail,
    call_row,
    calls_page,
    session_page,
    sessions_page,
)
from hintgate.web.pages.pin import PinEventRow, PinPage, pin_page
from hintgate.web.pages.settings import MyPreferenceRow, SettingRow, SettingsPage, settings_page
from hintgate.web.pages.tool import HintRow, ToolPage, tool_page

__all__ = [
    "CALLS_PER_PAGE",
    "HINT_FILTERS",
    "SESSION_STATUSES",
    "TIERS",
    "VERDICTS",
    "ApprovalItem",
    "ApprovalsPage",
    "CallDetail",
    "CallRow",
    "CallsFilters",
    "CallsPage",
    "CatalogFilters",
    "CatalogPage",
    "ChangeItem",
    "ChangesPage",
    "Choice",
    "CoverageRow",
    "ErrorPage",
    "FindingView",
    "HintRow",
    "Layout",
    "LoginPage",
    "Moment",
    "MyPreferenceRow",
    "PinEventRow",
    "PinPage",
    "ServerState",
    "ServersFragment",
    "SessionPage",
    "SessionRow",
    "SessionTab",
    "SessionsPage",
    "SettingRow",
    "SettingsPage",
    "TierCount",
    "ToolCard",
    "ToolPage",
    "approvals_page",
    "approvals_version",
    "call_detail",
    "call_row",
    "calls_page",
    "catalog_page",
    "changes_page",
    "layout",
    "pin_page",
    "pretty_json",
    "session_page",
    "sessions_page",
    "settings_page",
    "tool_card",
    "tool_page",
]
