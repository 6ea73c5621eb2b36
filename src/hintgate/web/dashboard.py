"""The dashboard at /: server-rendered pages (Jinja2 + htmx), no front-end build step.

Pages read the gateway and the store through `hintgate.web.pages`; actions
(overrides, approvals, policy) are htmx requests to the REST API itself, sent
as JSON by the small `hintgate-json` extension in `static/hintgate.js`. After
an action succeeds the page refreshes the fragments it affects from the
`/fragments/...` routes here. Polls (the pending-approvals count on every
page, the approvals list, an active session's calls) carry what they last
saw and get `204 No Content` when nothing changed, so nothing is swapped
under a keyboard user's focus.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar
from urllib.parse import parse_qs

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from hintgate.errors import HintgateError
from hintgate.policy.preferences import owner_key
from hintgate.policy.roles import Permission
from hintgate.web import api
from hintgate.web.approvals_api import visible_to
from hintgate.web.auth import COOKIE, local_page, token_matches
from hintgate.web.permissions import Access, AccessDep, access_of
from hintgate.web.tool_filter import ORIGINS, TRUST_LEVELS, ToolFilter

if TYPE_CHECKING:
    from fastapi.templating import Jinja2Templates

    from hintgate.server.gateway import Gateway
    from hintgate.store import Store
    from hintgate.web.pages.frame import Layout
    from hintgate.web.pages.history import SessionPage
    from hintgate.web.pages.tool import ToolPage

__all__ = ["STATIC", "TEMPLATES", "mount_static", "refusal_page", "render", "router"]

TEMPLATES = Path(__file__).parent / "templates"
STATIC = Path(__file__).parent / "static"

router = APIRouter(include_in_schema=False)


class _OnFirstUse:
    """A module imported when one of its names is first read: the pages load with the first page, not at start-up."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str) -> Any:
        return getattr(importlib.import_module(self._name), attribute)


if TYPE_CHECKING:
    from hintgate.web import pages
else:
    pages = _OnFirstUse("hintgate.web.pages")


@functools.cache
def _templates() -> Jinja2Templates:
    """The page templates; Jinja2 is imported with the first page served, not at start-up."""
    import jinja2
    from fastapi.templating import Jinja2Templates

    return Jinja2Templates(
        env=jinja2.Environment(
            loader=jinja2.FileSystemLoader(TEMPLATES),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
    )


Text = Annotated[str | None, Query(max_length=500)]


class _BadInput(Exception):
    """A query parameter the page cannot use; shown as a 400 page."""


class _NotFound(Exception):
    """What the page shows does not exist, or is not the reader's to see; shown as a 404 page."""

    def __init__(self, message: str, title: str | None = None) -> None:
        super().__init__(message)
        self.title = title


_P = ParamSpec("_P")
_R = TypeVar("_R", bound=Response)
_T = TypeVar("_T")


def _answered(route: Callable[_P, Awaitable[_R]]) -> Callable[_P, Awaitable[_R | HTMLResponse]]:
    """A page or fragment whose bad query is a 400 page, whose missing subject a 404, and the store failing a 503."""

    @functools.wraps(route)
    async def answer(*args: _P.args, **kwargs: _P.kwargs) -> _R | HTMLResponse:
        title: str | None = None
        try:
            return await route(*args, **kwargs)
        except _BadInput as exc:
            status, message = 400, str(exc)
        except _NotFound as exc:
            status, message, title = 404, str(exc), exc.title
        except HintgateError as exc:
            status, message = 503, str(exc)
        request = kwargs["request"]
        assert isinstance(request, Request)  # FastAPI passes every parameter by name
        return _error(request, status, message, title=title)

    return answer


def _found(page: _T | None, message: str) -> _T:
    """`page`, or a 404 saying `message` when there is none."""
    if page is None:
        raise _NotFound(message)
    return page


def _kept(store: Store | None, what: str, title: str | None = None) -> Store:
    """The store, or a 404 when the gateway records nothing (so keeps no `what`)."""
    if store is None:
        raise _NotFound(f"Recording is off, so {what} are not kept.", title)
    return store


def _tool_page(gateway: Gateway, access: Access, name: str) -> ToolPage:
    """A tool's page, or a 404 when there is no such tool, or none the reader may reach."""
    entry = gateway.tool(name)
    page = pages.tool_page(gateway, name) if entry is not None and api.reachable(gateway, entry, access) else None
    return _found(page, f"There is no tool named {name!r}.")


async def _session_page(
    gateway: Gateway, store: Store | None, access: Access, session_id: str, *, title: str | None = None
) -> SessionPage:
    """A session's page, or a 404 (titled `title`) when the gateway records nothing, or has no such session the
    reader may see."""
    page = await pages.session_page(gateway, _kept(store, "sessions", title), session_id, owner=access.owner)
    return _found(page, f"There is no session {session_id!r}.")


def _someone(user: str | None) -> str | None:
    """The person a page is filtered by, None when the box was left empty (or blank)."""
    return (user or "").strip() or None


def _render(request: Request, template: str, page: Any, status: int = 200) -> HTMLResponse:
    frame = getattr(page, "layout", None)
    if isinstance(frame, pages.Layout):
        # The page leaves out what the reader's role may not do; the permission check refuses it anyway.
        access = access_of(request)
        people = request.app.state.gateway.identity is not None
        frame = dataclasses.replace(frame, may=frozenset(p.value for p in access.permissions), people=people)
        if not access.may(Permission.READ_SETTINGS):
            # Everyone's waiting approvals are not a member's to count: the nav's poll counts theirs.
            frame = dataclasses.replace(frame, pending=0)
        page = dataclasses.replace(page, layout=frame)
    return _templates().TemplateResponse(request, template, {"page": page}, status_code=status)


async def _with_mine(request: Request, frame: Layout) -> Layout:
    """The frame with the signed-in person's own logins, for the server list's per-person rows."""
    from hintgate.web.person_logins import my_logins

    return dataclasses.replace(frame, mine=await my_logins(request, request.app.state.gateway))


def _error(request: Request, status: int, message: str, *, title: str | None = None) -> HTMLResponse:
    gateway = request.app.state.gateway
    titles = {400: "Bad request", 401: "Not signed in", 403: "Not allowed", 404: "Not found", 503: "Unavailable"}
    layout = pages.layout(gateway, title or titles.get(status, "Error"), "")
    return _render(request, "error.html", pages.ErrorPage(layout, status, message), status)


def refusal_page(request: Request, message: str) -> HTMLResponse:
    """The 403 page for a page the caller's role does not permit (`hintgate.web.permissions`)."""
    return _error(request, 403, message)


def _one_of(name: str, value: str | None, allowed: tuple[str, ...]) -> str | None:
    if not value:
        return None
    if value not in allowed:
        raise _BadInput(f"{name} {value!r} is not one of: {', '.join(allowed)}")
    return value


# -- pages -----------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
@_answered
async def catalog(
    request: Request,
    gateway: api.GatewayDep,
    store: api.MaybeStoreDep,
    access: AccessDep,
    tier: Text = None,
    server: Text = None,
    q: Text = None,
    review: Text = None,
    category: Text = None,
    tag: Text = None,
    read_only: Annotated[str | None, Query(alias="readOnly", max_length=5)] = None,
    destructive: Annotated[str | None, Query(max_length=5)] = None,
    idempotent: Annotated[str | None, Query(max_length=5)] = None,
    open_world: Annotated[str | None, Query(alias="openWorld", max_length=5)] = None,
    trust: Text = None,
    provenance: Text = None,
) -> HTMLResponse:
    """The catalog: every tool with its badges, filters, counts per tier and hint coverage."""
    given = {"readOnly": read_only, "destructive": destructive, "idempotent": idempotent, "openWorld": open_world}
    hints = {h: _one_of(n, given[n], ("true", "false")) == "true" for n, h in pages.HINT_FILTERS if given[n]}
    chosen, review_only = _one_of("tier", tier, pages.TIERS), _one_of("review", review, ("1",)) == "1"
    wanted = ToolFilter(
        tier=chosen,
        server=server or None,
        q=q or None,
        category=category or None,
        tags=(tag,) if tag else (),
        hints=hints,
        trust=_one_of("trust", trust, TRUST_LEVELS),
        provenance=_one_of("provenance", provenance, ORIGINS),
    )
    filters = pages.CatalogFilters(wanted, review=review_only)
    usage = await store.tool_usage(owner=access.owner) if store is not None else None
    page = pages.catalog_page(gateway, filters, usage, lambda entry: api.reachable(gateway, entry, access))
    return _render(request, "catalog.html", dataclasses.replace(page, layout=await _with_mine(request, page.layout)))


@router.get("/tools/{name}", response_class=HTMLResponse)
@_answered
async def tool(request: Request, gateway: api.GatewayDep, access: AccessDep, name: str) -> HTMLResponse:
    """A tool: its input schema, its hints side by side, and the hint editor."""
    return _render(request, "tool.html", _tool_page(gateway, access, name))


@router.get("/sessions", response_class=HTMLResponse)
@_answered
async def sessions(
    request: Request,
    gateway: api.GatewayDep,
    store: api.MaybeStoreDep,
    access: AccessDep,
    status: Text = None,
    replica: Text = None,
    user: Text = None,
) -> HTMLResponse:
    """Recent client sessions: all, the active or the closed ones; every replica's or one's; everyone's or one
    person's."""
    chosen = _one_of("status", status, pages.SESSION_STATUSES)
    page = await pages.sessions_page(
        gateway, store, status=chosen, replica=replica or None, user=_someone(user), owner=access.owner
    )
    return _render(request, "sessions.html", page)


@router.get("/sessions/{session_id}", response_class=HTMLResponse)
@_answered
async def session(
    request: Request, gateway: api.GatewayDep, store: api.MaybeStoreDep, access: AccessDep, session_id: str
) -> HTMLResponse:
    """One session and its calls in order."""
    page = await _session_page(gateway, store, access, session_id, title="Recording is off")
    return _render(request, "session.html", page)


@router.get("/calls", response_class=HTMLResponse)
@_answered
async def calls(
    request: Request,
    gateway: api.GatewayDep,
    store: api.MaybeStoreDep,
    access: AccessDep,
    server: Text = None,
    tool: Text = None,
    tier: Text = None,
    verdict: Text = None,
    user: Text = None,
    offset: api.Offset = 0,
) -> HTMLResponse:
    """The call history, filtered (by person too, when the gateway knows people)."""
    from hintgate.store import CallFilter

    where = CallFilter(
        server=server or None,
        tool=tool or None,
        tier=_one_of("tier", tier, pages.TIERS),
        verdict=_one_of("verdict", verdict, pages.VERDICTS),
        user=_someone(user),
    )
    page = await pages.calls_page(gateway, store, pages.CallsFilters(where, offset), owner=access.owner)
    return _render(request, "calls.html", page)


@router.get("/approvals", response_class=HTMLResponse)
@_answered
async def approvals(
    request: Request, gateway: api.GatewayDep, queue: api.ApprovalsDep, access: AccessDep
) -> HTMLResponse:
    """Calls waiting for a person, with the buttons to answer them (a member: those they may answer, and theirs)."""
    waiting = visible_to(access, await queue.listing())
    return _render(request, "approvals.html", pages.approvals_page(gateway, waiting))


@router.get("/changes", response_class=HTMLResponse)
async def changes(request: Request, gateway: api.GatewayDep) -> HTMLResponse:
    """Tools held until an operator accepts them: the diff, the scan's spans, and the Accept button."""
    return _render(request, "changes.html", pages.changes_page(gateway))


@router.get("/pins/{server}/{tool:path}", response_class=HTMLResponse)
@_answered
async def pin(
    request: Request, gateway: api.GatewayDep, store: api.MaybeStoreDep, server: str, tool: str
) -> HTMLResponse:
    """A tool's pin: its state, the diff of a held change, and its history, newest first."""
    page = await pages.pin_page(gateway, store, server, tool)
    return _render(request, "pin.html", _found(page, f"There is no pin for tool {tool!r} of server {server!r}."))


@router.get("/settings", response_class=HTMLResponse)
async def settings(request: Request, gateway: api.GatewayDep, access: AccessDep) -> HTMLResponse:
    """The policy mode and preferences, with what each means; the reader's own preferences."""
    return _render(request, "settings.html", pages.settings_page(gateway, _person(access)))


@router.get("/login", response_model=None)
async def login(
    request: Request,
    token: Annotated[str, Query(max_length=500)] = "",
    once: Annotated[str, Query(max_length=500)] = "",
    next: Text = None,
) -> Response:
    """The sign-in page when the token is required; `?token=TOKEN` trades the token for the cookie at once.

    `?once=CODE` is the one-time link `hintgate serve` prints: it signs this browser in, and the code is spent.
    """
    if request.app.state.token is None:
        return RedirectResponse(local_page(next), status_code=303)
    if once:
        links = getattr(request.app.state, "sign_in_links", None)
        if links is None or not links.redeem(once):
            message = (
                "That sign-in link was used already (each works once) or is not this gateway's. Sign in with "
                "the API token, or use the link the gateway prints at its next start."
            )
            return _render(request, "login.html", _login_page(request, local_page(next), message), 401)
        return _sign_in(request, request.app.state.token, next)
    if not token:
        return _render(request, "login.html", _login_page(request, local_page(next)))
    return _sign_in(request, token, next)


@router.post("/login", response_model=None)
async def login_form(request: Request) -> Response:
    """The sign-in form's answer: the token as the dashboard's cookie, then the page asked for."""
    form = parse_qs((await request.body()).decode("utf-8", "replace"), max_num_fields=4)
    token = (form.get("token") or [""])[0][:500]
    next_page = (form.get("next") or [""])[0]
    if request.app.state.token is None:
        return RedirectResponse(local_page(next_page), status_code=303)
    return _sign_in(request, token, next_page)


def _login_page(request: Request, next_page: str, message: str | None = None) -> pages.LoginPage:
    return pages.LoginPage(next_page, message, loopback=bool(getattr(request.app.state, "loopback", False)))


def _sign_in(request: Request, token: str, next_page: str | None) -> Response:
    if not token_matches(token, request.app.state.token):
        message = (
            "That token is not this gateway's. Use the one kept in its data directory, in api-token (or set by "
            "HINTGATE_API_TOKEN)."
        )
        return _render(request, "login.html", _login_page(request, local_page(next_page), message), 401)
    response = RedirectResponse(local_page(next_page), status_code=303)
    response.set_cookie(COOKIE, token, httponly=True, samesite="strict", secure=request.url.scheme == "https", path="/")
    return response


# -- fragments ---------------------------------------------------------------------


@router.get("/fragments/approval-count", response_model=None)
async def approval_count(
    request: Request, queue: api.ApprovalsDep, access: AccessDep, known: str | None = None
) -> Response:
    """The pending approvals count in the nav (a member's: those they see); 204 when it is still `known`."""
    listed = None
    with contextlib.suppress(HintgateError):  # the store cannot be read: the last count known stands
        listed = await queue.listing()
    pending = queue.known if listed is None or access.may(Permission.READ_SETTINGS) else len(visible_to(access, listed))
    if known == str(pending):
        return Response(status_code=204)
    return _render(request, "_approval_count.html", pages.Layout("", "", pending))


@router.get("/fragments/servers", response_class=HTMLResponse)
async def servers_list(request: Request, gateway: api.GatewayDep) -> HTMLResponse:
    """The server list with its actions and the add form (refreshed after a server is changed)."""
    frame = await _with_mine(request, pages.layout(gateway, "", ""))
    return _render(request, "_servers_table.html", pages.ServersFragment(frame))


@router.get("/fragments/approvals", response_model=None)
@_answered
async def approvals_list(
    request: Request, gateway: api.GatewayDep, queue: api.ApprovalsDep, access: AccessDep, known: str | None = None
) -> Response:
    """The approvals list; 204 when it is still the `known` version."""
    waiting = visible_to(access, await queue.listing())
    if known is not None and known == pages.approvals_version(waiting):
        return Response(status_code=204)
    return _render(request, "_approvals.html", pages.approvals_page(gateway, waiting))


@router.get("/fragments/tools/{name}/hints", response_class=HTMLResponse)
@_answered
async def tool_hints(request: Request, gateway: api.GatewayDep, access: AccessDep, name: str) -> HTMLResponse:
    """A tool's badges and hints side by side (refreshed after an edit)."""
    return _render(request, "_tool_hints.html", _tool_page(gateway, access, name))


@router.get("/fragments/tools/{name}/editor", response_class=HTMLResponse)
@_answered
async def tool_editor(request: Request, gateway: api.GatewayDep, name: str) -> HTMLResponse:
    """The hint editor's controls, showing the stored overrides."""
    page = _found(pages.tool_page(gateway, name), f"There is no tool named {name!r}.")
    return _render(request, "_hint_fields.html", page)


@router.get("/fragments/sessions/{session_id}/calls", response_model=None)
@_answered
async def session_calls(
    request: Request,
    gateway: api.GatewayDep,
    store: api.MaybeStoreDep,
    access: AccessDep,
    session_id: str,
    known: int | None = None,
) -> Response:
    """An active session's calls; 204 while there are still `known` of them."""
    page = await _session_page(gateway, store, access, session_id)
    if known is not None and known == len(page.calls) and page.live:
        return Response(status_code=204)
    return _render(request, "_session_calls.html", page)


@router.get("/fragments/calls/{call_id}", response_class=HTMLResponse)
@_answered
async def call_detail(request: Request, store: api.MaybeStoreDep, access: AccessDep, call_id: str) -> HTMLResponse:
    """A call's arguments, response and decision."""
    detail = await pages.call_detail(_kept(store, "calls"), call_id, owner=access.owner)
    return _render(request, "_call_detail.html", _found(detail, f"There is no call {call_id!r}."))


@router.get("/fragments/changes", response_class=HTMLResponse)
async def changes_list(request: Request, gateway: api.GatewayDep) -> HTMLResponse:
    """The held tools (refreshed after an acceptance)."""
    return _render(request, "_changes.html", pages.changes_page(gateway))


@router.get("/fragments/settings", response_class=HTMLResponse)
async def settings_fields(request: Request, gateway: api.GatewayDep, access: AccessDep) -> HTMLResponse:
    """The settings controls with the effects of the values in force."""
    return _render(request, "_settings_fields.html", pages.settings_page(gateway, _person(access)))


@router.get("/fragments/my-preferences", response_class=HTMLResponse)
async def my_preferences(request: Request, gateway: api.GatewayDep, access: AccessDep) -> HTMLResponse:
    """The reader's own preferences (refreshed after they change them)."""
    return _render(request, "_my_preferences.html", pages.settings_page(gateway, _person(access)))


def _person(access: Access) -> str | None:
    """Whose own preferences the settings page shows: the reader's, when someone proved who they are."""
    return owner_key(access.principal) if access.principal is not None else None


def mount_static(app: FastAPI) -> None:
    """Serve the dashboard's CSS and scripts at /static."""
    app.mount("/static", StaticFiles(directory=STATIC), name="static")


def render(request: Request, template: str, page: Any, status: int = 200) -> HTMLResponse:
    """A page or fragment of the dashboard's templates, with `page` as its context (for routes in other modules)."""
    return _render(request, template, page, status)
