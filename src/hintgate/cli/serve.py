"""Running the gateway: on stdio, on streamable HTTP with the REST API and dashboard, or just long enough to list."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import gc
import getpass
import importlib
import logging
import os
import shlex
import signal
import socket
import sys
import threading
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from hintgate.cli.plain_console import Lines, PlainConsole
from hintgate.config.loading import parse_config
from hintgate.config.model import GatewayConfig, IdentityConfig
from hintgate.config.settings import Settings
from hintgate.errors import ConfigError, IdentityError, ListenError, StoreError
from hintgate.hints.trust import trust_note
from hintgate.policy.own_places import OwnPlaces
from hintgate.sources.processes import Prestarted, prestarting

if TYPE_CHECKING:
    from hintgate.cli.client_setup import TokenReference
    from hintgate.outcome import Tracer
    from hintgate.server.gateway import Gateway
    from hintgate.stored_state import StoredState

__all__ = [
    "LateStore",
    "PlainLogFormatter",
    "Started",
    "Whereabouts",
    "bind_listener",
    "build_result_scan",
    "collect_catalog",
    "give_back_freed_heap",
    "open_store",
    "python_config",
    "read_ahead",
    "report_start",
    "run_http",
    "run_stdio",
    "serve_while_store_opens",
    "starting",
    "url_host",
]

logger = logging.getLogger("hintgate")

_REACHING_TIMEOUT = 5.0  # a hostname lookup that waits on an unreachable DNS server gives up here


def python_config(spec: str) -> GatewayConfig:
    """A config serving one Python registry: trusted (it is the operator's own code), names unprefixed."""
    name = spec.partition(":")[0].rsplit(".", 1)[-1] or "python"
    return parse_config(
        {"python": {name: {"registry": spec, "trust": "trusted", "prefix": "", "path": [os.getcwd()]}}},
        source="--python",
    )


def _tracer(settings: Settings) -> Tracer | None:
    """The OpenTelemetry tracer when tracing is on."""
    if not settings.tracing:
        return None
    try:
        from hintgate.observers.tracing import Tracing

        return Tracing.install()
    except ImportError as exc:
        raise ConfigError(f"tracing is on but OpenTelemetry is missing ({exc}): pip install 'hintgate[otel]'") from exc


def credentials_of(store: Any, settings: Settings) -> Any:
    """The vault of OAuth logins in `store` (None without a store)."""
    if store is None:
        return None
    from hintgate.store.oauth_tokens import CredentialsVault, vault_key

    return CredentialsVault(store.credentials, vault_key(settings.state_key, settings.data_dir))


def _base_url(host: str, sock: socket.socket) -> str:
    """The URL of the dashboard served on `sock` (bound, so its port is known before the gateway starts)."""
    return f"http://{url_host(host)}:{sock.getsockname()[1]}"


class Whereabouts:
    """What the gateway learns of where it is as `serve` brings it up; its calls read it anew each time.

    Its own places (`policy.own_places.OwnPlaces`) start as its data directory, and gain each listener's
    address as the listener binds: a call naming them asks. Where approvals are answered is the dashboard's
    approvals page, once it is served.
    """

    def __init__(self, places: OwnPlaces) -> None:
        self._places = places
        self._approvals_url: str | None = None

    def places(self) -> OwnPlaces:
        """The gateway's own places known so far."""
        return self._places

    def approvals_url(self) -> str | None:
        """Where a person answers calls that ask, None until the dashboard is served."""
        return self._approvals_url

    def listening(self, host: str, port: int, machine: Sequence[str]) -> None:
        """A listener bound `host`:`port` (`machine`: the names it is reached by): a call naming it asks."""
        self._places = self._places.with_listener(host, port, machine)

    def dashboard(self, base: str) -> None:
        """The dashboard is served at `base`: its approvals page is where calls that ask are answered."""
        self._approvals_url = f"{base}/approvals"


def _gateway(
    config: GatewayConfig,
    settings: Settings,
    store: Any,
    *,
    dashboard: str | None = None,
    early: StoredState | None = None,
    view: str | None = None,
    prestarted: Prestarted | None = None,
) -> tuple[Gateway, Whereabouts]:
    from hintgate.server.gateway import Gateway

    # A call naming the gateway's data directory (its token, its database) asks; its listeners are added later.
    home = os.path.expanduser("~")
    whereabouts = Whereabouts(
        OwnPlaces.of_data_dir(
            str(settings.data_dir.absolute()),
            home if home != "~" else None,
            user=_login(),
            real=os.path.realpath(settings.data_dir),
        )
    )
    db = ""  # the default database needs no --db
    command = None
    if store is not None or early is not None:
        given = settings.database_url
        # A URL with a password is shown masked: the person adds the password back (a SQLite URL has none).
        shown = store.url if store is not None and given is not None and "@" in given else given
        db = "" if shown is None else f" --db {shlex.quote(shown)}"
        command = f"hintgate approvals watch{db}"
    gateway = Gateway(
        config,
        store=store,
        state_key=settings.state_key,
        tracer=_tracer(settings),
        credentials=credentials_of(store, settings),
        early=early,
        prestarted=prestarted,
        own_places=whereabouts.places,
        approvals_url=whereabouts.approvals_url,
        approvals_command=command,
    )
    gateway.catalog_keeper.point_to(dashboard_url=dashboard, store_flag=db)
    gateway.stdio_view = view
    return gateway, whereabouts


class PlainLogFormatter(logging.Formatter):
    """One line per record for a log file or collector: ISO 8601 UTC time, level, logger, message."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _log_to_stderr(level: int = logging.INFO) -> Lines:
    """Log to stderr: Rich's columns for a person at a terminal, plain lines otherwise; where to print lines.

    Piped into a file, journald or a collector, Rich's layout would wrap a line
    at 80 columns and show a time without a date: each record is one line
    with an ISO timestamp instead, and the console's own lines are written as
    they are, without Rich (`hintgate.cli.plain_console`: a stdio gateway's
    stderr is its client's log, and Rich is not imported before its first listing).
    """
    terminal = sys.stderr.isatty()
    console: Lines
    handler: logging.Handler
    if terminal:
        from rich.console import Console
        from rich.logging import RichHandler

        terminal_console = Console(stderr=True)
        console = terminal_console
        handler = RichHandler(console=terminal_console, show_path=False, rich_tracebacks=False, markup=False)
    else:
        console = PlainConsole()
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(PlainLogFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.set_name(_HANDLER)
    root = logging.getLogger("hintgate")
    if not any(h.get_name() == _HANDLER for h in root.handlers):
        root.addHandler(handler)
    root.setLevel(level)
    return console


_HANDLER = "hintgate-stderr"


def _report_recording(console: Lines, recording: str | None) -> None:
    if recording is not None:
        console.print(f"hintgate: recording to {recording}", highlight=False, soft_wrap=True)


def report_start(gateway: Gateway, console: Lines) -> None:
    """The lines `serve` prints once its servers are started: each one's state and trust, and the tools served."""
    for source in gateway.servers():
        status = source.status
        detail = f": {status.reason}" if status.reason else ""
        console.print(f"hintgate: server {source.name!r} is {status.state.value}{detail}", highlight=False)
    for source in gateway.servers():
        note = trust_note(source.name, source.trust, source.trust_from)
        if note is not None:
            console.print(f"hintgate: server {note}", highlight=False, soft_wrap=True)
    count = len(gateway.tools())
    console.print(f"hintgate: serving {count} tool{'' if count == 1 else 's'}", highlight=False)


@contextlib.asynccontextmanager
async def open_store(settings: Settings) -> AsyncIterator[Any]:
    """The store the settings name (None when recording is off); closed, and drained, on exit."""
    if not settings.record:
        yield None
        return
    store = await _opened_store(settings)
    try:
        yield store
    finally:
        await store.close()


async def _opened_store(settings: Settings) -> Any:
    from hintgate.cli.failing import store_advice  # not `cli.common`: Typer and Rich are not for a gateway that serves
    from hintgate.store import RecordingSettings, Store

    try:
        store = await Store.open(
            settings.store_url, RecordingSettings.from_settings(settings), replica=settings.replica
        )
    except StoreError as exc:
        raise StoreError(f"{exc}: {store_advice(settings, serving=True)}") from exc
    try:
        from hintgate.store.oauth_tokens import vault_key

        # Servers added at run time keep their secrets sealed, under the key OAuth logins are sealed with.
        await store.server_changes.seal(vault_key(settings.state_key, settings.data_dir))
    except BaseException:
        await store.close()
        raise
    return store


def read_ahead(config: GatewayConfig, settings: Settings) -> StoredState | None:
    """The stored state a stdio gateway can answer its first listing from before its store is open, if any.

    Only when the store is a SQLite file this version opens as it is (`hintgate.stored_state`), and nothing
    the gateway does before its first listing writes to the store or needs it open: no pins file to import,
    no server behind OAuth (it logs in with what the store keeps).
    """
    if not settings.record or config.pins_file is not None or any(_has_oauth(s) for s in config.servers.values()):
        return None
    from hintgate.sealing import kept_key
    from hintgate.stored_state import read_stored_state

    state = read_stored_state(settings.store_url, kept_key(settings.state_key, settings.data_dir))
    if state is not None and not state.path.exists() and not _may_create(state.path, settings):
        return None  # the store's own checks say why, before anything is served
    return state


def _may_create(path: Path, settings: Settings) -> bool:
    """Whether the store will be able to create the SQLite file `path` (a first start), checked before serving.

    The data directory is made here, as the store would make it; a directory the user named (`--db`) must
    exist already (`store.engine.database_location`). A file that cannot be made is then left to the store's
    checks before the first listing, with their errors, rather than found after it.
    """
    from hintgate.config.permissions import private_directory

    directory = path.parent
    if not directory.is_dir():
        if settings.database_url is not None:
            return False
        try:
            private_directory(directory)
        except OSError:
            return False
    return os.access(directory, os.W_OK | os.X_OK)


STORE_WAIT_ON_STOP = 15.0
"""Seconds a stdio gateway stopped before its store opened still waits for it, to record its sessions."""

FIRST_ANSWER_GRACE = 2.0
"""Seconds a start that read its stored state ahead waits for its client's first `tools/list` (or call) before it
opens the store anyway."""


class LateStore:
    """The store of a gateway that answered its first listing from the state read ahead: opened, then attached.

    `opened(gateway)` opens it and hands it to the gateway (`Gateway.attach_store`: the calls waiting then
    run); its failure (a database that cannot be opened after all) is raised there, before any call ran.
    Closed, and drained, on exit, after the gateway (which records its sessions' ends into it).
    """

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self.store: Any = None

    async def opened(self, gateway: Gateway) -> None:
        """Once the first listing is out, open the store and attach it to `gateway`; returns once calls run."""
        await gateway.first_answer.written(FIRST_ANSWER_GRACE)
        self.store = await _opened_store(self._settings)
        await gateway.attach_store(self.store)

    async def __aenter__(self) -> LateStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.store is not None:
            await self.store.close()


async def serve_while_store_opens(serving: Coroutine[Any, Any, None], opening: Coroutine[Any, Any, None]) -> None:
    """Serve while the store opens; a failure to open it stops serving and is raised (no call has run).

    Cancelled (SIGTERM) before the store is open, serving stops first (a call waiting for the store is
    cancelled, never run), then the store still opens, for up to `STORE_WAIT_ON_STOP` seconds, so that the
    sessions begun are recorded.
    """
    serve = asyncio.ensure_future(serving)
    store = asyncio.ensure_future(opening)
    try:
        await asyncio.wait({serve, store}, return_when=asyncio.FIRST_EXCEPTION)
        if store.done() and store.exception() is not None:
            serve.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await serve
            await store  # raises why the store could not be opened
        if serve.done() and not store.done():
            await store  # the client left at once: what it did is still recorded
        await serve
    except asyncio.CancelledError:
        if not store.done():
            serve.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await serve
            with contextlib.suppress(asyncio.CancelledError, Exception):
                async with asyncio.timeout(STORE_WAIT_ON_STOP):
                    await store
        raise
    finally:
        for task in (serve, store):
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task


def url_host(host: str) -> str:
    """The host part of a URL a browser on this machine can open, for a bind address.

    A wildcard (0.0.0.0, ::) is where one listens, not an address to open: its loopback stands in.
    """
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def bind_listener(host: str, port: int) -> socket.socket:
    """A socket bound to HOST:PORT, made before any upstream starts so a busy port fails at once.

    Raises:
        ListenError: the address is in use, not allowed, or not this machine's.
    """
    shown = f"[{host}]" if ":" in host else host
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    except socket.gaierror as exc:
        raise ListenError(f"cannot listen on {shown}:{port}: unknown host ({exc.strerror})") from exc
    # IPPROTO_TCP, not 0: asyncio turns Nagle's algorithm off (TCP_NODELAY) on accepted connections only when
    # the listening socket says TCP; otherwise a response sent in two writes waits for the client's delayed ACK
    # (about 40 ms on Linux) before its body leaves.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        reason = "address already in use" if exc.errno == errno.EADDRINUSE else (exc.strerror or str(exc)).lower()
        raise ListenError(f"cannot listen on {shown}:{port}: {reason}") from exc
    return sock


async def _serve_web(
    gateway: Gateway,
    store: Any,
    settings: Settings,
    whereabouts: Whereabouts,
    *,
    host: str,
    sock: socket.socket,
    console: Lines,
    private: bool = False,
) -> None:
    """Serve MCP, the REST API, /metrics and the dashboard on the bound socket until cancelled.

    With `private`, the token and the sign-in link never go to stderr (`hintgate.cli.client_setup`).
    """
    from hintgate.web.app import create_app
    from hintgate.web.auth import is_loopback

    identity = gateway.identity
    token, reference = _token(settings, host, console, identity=identity is not None)
    if gateway.recording is not None:
        gateway.recording.hide(token, settings.api_token)
    verifier = await _verifier(identity)
    from hintgate.server.face import mcp_routes

    async with mcp_routes(gateway, host=host) as routes:
        app = create_app(
            gateway,
            store,
            mcp_routes=routes,
            token=token,
            loopback=is_loopback(host),
            identity=verifier,
            registry_url=settings.registry_url,
        )

        machine = await _reaching(host)

        def listening(base: str, port: int) -> None:
            # Where approvals are answered, the gateway's own address (a call naming it asks), and how to connect.
            whereabouts.dashboard(base)
            whereabouts.listening(host, port, machine)
            if token is not None:
                code = app.state.sign_in_links.issue()
                _print_client_setup(
                    console, base, token, code, private_to=settings.data_dir if private else None, reference=reference
                )

        await _serve_app(
            app,
            host,
            sock,
            console,
            ("dashboard", "/"),
            ("MCP", "/mcp"),
            ("metrics", "/metrics"),
            on_listening=listening,
            settings=settings,
        )


def _print_client_setup(
    console: Lines,
    base: str,
    token: str,
    code: str,
    *,
    private_to: Path | None,
    reference: TokenReference | None = None,
) -> None:
    """The client configuration lines and the one-time dashboard link: on stderr, or in a private file.

    With `private_to` (the data directory), they are written to a file there that only this user may read, the
    token in full, and stderr says where: it is an MCP client's log, not the operator's terminal. Else with
    `reference` (the token was not made by this start) the lines on stderr refer to the token, not hold it.
    """
    from hintgate.cli.client_setup import client_setup, keep_private

    link = f"sign a browser in to the dashboard (this link works once): {base}/login?once={code}"
    if private_to is not None:
        path = keep_private(private_to, [*client_setup(f"{base}/mcp", token), link])
        console.print(
            f"hintgate: the dashboard's one-time sign-in link and the MCP clients' configuration (with the API "
            f"token) are in {path}, readable by this user only (stderr is not a terminal: a client's log)",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )
        return
    said = (
        [reference.kept]
        if reference is not None
        else ["the lines below show it in full, this once: later starts refer to it"]
    )
    for line in [*said, *client_setup(f"{base}/mcp", token, reference=reference), link]:
        console.print(f"hintgate: {line}", highlight=False, markup=False, soft_wrap=True)


async def _verifier(identity: IdentityConfig | None) -> Any:
    """The bearer-token verifier of an `identity` section (None without one), its keys fetched once to say so."""
    if identity is None:
        return None
    from hintgate.web.identity import TokenVerifier

    verifier = TokenVerifier(identity)
    try:
        await verifier.keys.refresh()
    except IdentityError as exc:
        # The API token still works; people's tokens are refused until the issuer answers (fetched again per kid).
        logger.warning("identity: cannot fetch the keys of %s yet: %s", identity.issuer, exc)
    return verifier


def _token(
    settings: Settings, host: str, console: Lines, *, identity: bool = False
) -> tuple[str | None, TokenReference | None]:
    """The API token requests must carry, and where it is kept when this start did not make it.

    None on loopback (unless required there), else the configured or kept one. The reference is None
    when this start made the token (it is shown in full, once); else it says where the token is, and
    `serve` prints that instead of the token (`hintgate.cli.client_setup`).

    With an identity provider every request proves who makes it, on loopback too: the token is then the
    operator's and automation's.
    """
    from hintgate.cli.client_setup import TokenReference
    from hintgate.web.auth import MIN_TOKEN_LENGTH, TOKEN_FILE, is_loopback, load_or_create_token

    if is_loopback(host) and not settings.require_token and not identity:
        logger.warning(
            "serving %s without an API token (--no-require-token): any process of this machine, a model's "
            "tools behind this gateway included, can read every recorded call and change the gateway's "
            "settings and servers",
            host,
        )
        return None, None
    if settings.api_token:
        token = settings.api_token.strip()
        if len(token) < MIN_TOKEN_LENGTH:
            raise ConfigError(
                f"HINTGATE_API_TOKEN has {len(token)} characters; an API token needs at least "
                f"{MIN_TOKEN_LENGTH} (or leave it unset and hintgate makes one)"
            )
        return token, TokenReference.variable("HINTGATE_API_TOKEN")
    token, created = load_or_create_token(settings.data_dir)
    kept = settings.data_dir / TOKEN_FILE
    if created:
        console.print(f"hintgate: made an API token, kept in {kept} (readable by this user only)", highlight=False)
        return token, None
    return token, TokenReference.file(kept)


def _login() -> str | None:
    """The login name (a path argument may spell the home directory `~NAME`), or None when there is none."""
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no name for this uid (a container's arbitrary user)
        return None


async def _reaching(host: str) -> tuple[str, ...]:
    """The machine's names and addresses that reach a listener on `host` (a lookup: off the loop, bounded)."""
    from hintgate.cli.machine import reaching

    with anyio.move_on_after(_REACHING_TIMEOUT):
        return await anyio.to_thread.run_sync(reaching, host, abandon_on_cancel=True)
    logger.warning(
        "looking up this machine's names took over %.0f s: a call naming the gateway by its hostname or a "
        "network address is not recognised as naming it",
        _REACHING_TIMEOUT,
    )
    return ()


async def _serve_metrics(
    gateway: Gateway, settings: Settings, whereabouts: Whereabouts, *, host: str, sock: socket.socket, console: Lines
) -> None:
    """Serve /metrics alone on the bound socket until cancelled, under the same rules as the REST API."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.base import BaseHTTPMiddleware
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from hintgate.observers.metrics import CONTENT_TYPE
    from hintgate.web.auth import is_loopback, security_middleware

    async def scrape(_request: Request) -> Response:
        return Response(gateway.metrics.render(), media_type=CONTENT_TYPE)

    identity = gateway.identity
    token, _ = _token(settings, host, console, identity=identity is not None)
    guards = [Middleware(BaseHTTPMiddleware, dispatch=security_middleware(token, loopback=is_loopback(host)))]
    verifier = await _verifier(identity)
    if verifier is not None:
        from hintgate.web.identity import identity_middleware

        # Outermost (first), before the token check that takes the person it verified as signed in.
        guards.insert(0, Middleware(BaseHTTPMiddleware, dispatch=identity_middleware(verifier, token)))
    app = Starlette(routes=[Route("/metrics", scrape)], middleware=guards)
    machine = await _reaching(host)
    await _serve_app(
        app,
        host,
        sock,
        console,
        ("metrics", "/metrics"),
        on_listening=lambda _base, port: whereabouts.listening(host, port, machine),
        settings=settings,
    )


async def _serve_app(
    app: Any,
    host: str,
    sock: socket.socket,
    console: Lines,
    *shown: tuple[str, str],
    on_listening: Callable[[str, int], None] | None = None,
    settings: Settings,
) -> None:
    """Serve an ASGI app on a bound socket until cancelled, saying where once it listens (`on_listening(URL, port)`)."""
    import uvicorn

    from hintgate.web.connections import ConnectionLimits, guarded_protocol, raise_open_files_limit

    before, after = raise_open_files_limit()
    if after != before:
        logger.info("raised the open files limit from %d to %d", before, after)
    limits = ConnectionLimits(
        settings.max_connections, settings.max_connections_per_peer, settings.head_timeout, settings.body_timeout
    )
    port = sock.getsockname()[1]
    # ws="none": nothing here speaks WebSocket, so uvicorn need not load a WebSocket library to serve.
    # The guarded protocol caps connections (per gateway, per peer) and gives a request's head a deadline.
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        lifespan="off",
        ws="none",
        http=guarded_protocol(limits),
        log_level="warning",
        access_log=False,
    )
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    for _ in range(500):  # up to 5 s for the server to start
        if server.started or serving.done():
            break
        await asyncio.sleep(0.01)
    if serving.done():
        await serving  # raises why it could not start
        return
    _settle_start_up()
    bound = server.servers[0].sockets[0].getsockname()[1] if server.servers else port
    where = url_host(host)
    if where != (f"[{host}]" if ":" in host else host):
        console.print(f"hintgate: listening on every address of this machine ({host or '*'}:{bound})")
    if on_listening is not None:
        on_listening(f"http://{where}:{bound}", bound)
    for what, path in shown:
        console.print(f"hintgate: {what} at http://{where}:{bound}{path}", highlight=False)
    sys.stderr.flush()
    try:
        await serving
    finally:
        server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError):
            await serving


WEB_MODULES = ("mcp.server", "hintgate.server.http_fast", "hintgate.web.app", "uvicorn")
"""What serving the web app imports: the SDK's server side, the fast path, the FastAPI app and its routes, uvicorn."""

STDIO_MODULES = (
    "hintgate.server.front",
    "hintgate.server.direct",
    "hintgate.server.stdio",
    "hintgate.server.gateway",
    "hintgate.sources.mcp",
    "anyio._backends._asyncio",
)
"""What serving stdio imports before its first listing: the opening that answers the handshake and that listing
(`hintgate.server.front`), the stdio transport, the gateway and its parts (its sources' connections), and anyio's
asyncio backend (which the stdio transport's task group loads at its first use). Imported while the upstreams
start. The SDK's server side (the low-level `Server` the MCP face builds, its types) is imported once the first
listing is out."""


class BackgroundImports:
    """Import modules on a thread while a start-up waits for its upstream servers, then run `then` there; done on
    exit.

    The SDK and the web stack take a good part of a start-up to import, and
    starting the upstreams is mostly waiting for their processes: done side
    by side, the gateway answers sooner. Nothing else may import from the
    same packages meanwhile: two threads importing one package at once can
    each meet the other's half-initialised module (Python breaks the import
    lock cycle by handing out the partial module), so `done()` waits for
    the thread before the gateway, which imports the SDK, is built. A failure
    here is ignored; the import made where the module is used raises it.
    """

    def __init__(self, modules: Sequence[str], *, then: Callable[[], None] | None = None) -> None:
        self._modules = tuple(modules)
        self._then = then
        self._loading: asyncio.Future[None] | None = None

    def _load(self) -> None:
        if any(name.partition(".")[0] in ("mcp", "mcp_types") for name in self._modules):
            from hintgate.server.sdk import defer_wire_validators

            # Before the SDK's types are first imported. Without the SDK among the modules (a stdio gateway), the
            # stdio transport defers them as it imports them, after the first listing: pydantic, which the call
            # imports, is then off the path to that listing too (about 0.1 s of CPU).
            defer_wire_validators()
        for name in self._modules:
            try:
                importlib.import_module(name)
            except Exception:
                return
        if self._then is not None:
            with contextlib.suppress(Exception):  # made ready ahead for speed only: what fails here fails in use
                self._then()

    async def __aenter__(self) -> BackgroundImports:
        self._loading = asyncio.ensure_future(asyncio.to_thread(self._load))
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.done()

    async def done(self) -> None:
        """Return once the thread's imports are done (before anything else imports from the SDK)."""
        if self._loading is not None:
            await self._loading


@dataclass(frozen=True, slots=True)
class Started:
    """A gateway `starting` made ready for its first listing.

    Attributes:
        gateway: entered: its sources started, its first catalog built.
        store: the store, open, when it opened before the first listing; None when recording is off or when it
            opens after the first listing (`late`).
        late: the store a stdio gateway that read its state ahead opens after its first listing, else None.
        whereabouts: where the gateway is, told as its listeners bind.
    """

    gateway: Gateway
    store: Any
    late: LateStore | None
    whereabouts: Whereabouts


@contextlib.asynccontextmanager
async def starting(
    config: GatewayConfig,
    settings: Settings,
    *,
    imports: Sequence[str],
    console: Lines,
    early: StoredState | None = None,
    prestarted: Prestarted | None = None,
    dashboard: str | None = None,
    view: str | None = None,
    scan_ahead: bool = False,
) -> AsyncIterator[Started]:
    """Start a gateway, the one way every `hintgate serve` does; what runs before its first listing, in order.

    1. Spawn the upstreams: every enabled stdio server's process starts now (`sources.processes.prestarting`),
       unless the caller spawned them already (`prestarted`: on stdio they start before the stored state is
       read ahead). Each is given hintgate's `initialize` request as it starts: they import their own code and
       answer it while the gateway imports its own.
    2. Build the result scan's patterns now, when `scan_ahead` (an HTTP gateway: `build_result_scan`), before
       anything else is loaded.
    3. Import in the background: `imports` (the gateway's modules; over HTTP the SDK's server side and the web
       stack, which a stdio gateway imports once its first listing is out: `hintgate.server.front`) on a
       thread, meanwhile.
    4. Open the store and check it, unless the state the first listing depends on was read ahead (`early`):
       then the first listing is answered from it and the store opens after (`Started.late`).
    5. Wait for the background imports: nothing else may import from the SDK while they run.
    6. Build and enter the gateway: its sources take the processes spawned for them and start; its first
       catalog is built from their listings, the stored pins and the overrides.
    7. Stop the processes spawned ahead that no source took.
    8. Say each server's state, its trust, and how many tools are served.

    Leaving undoes it in reverse: the gateway stops its sources, the store closes (drained), what is left of
    the processes spawned ahead stops, and the late store closes last (the gateway records its sessions'
    ends into it).
    """
    async with contextlib.AsyncExitStack() as stack:
        # Entered first, so closed last: the gateway records its sessions' ends into it.
        late = await stack.enter_async_context(LateStore(settings)) if early is not None else None
        if prestarted is None:  # 1. spawn the upstreams
            prestarted = await stack.enter_async_context(prestarting(config, os.environ))
        if scan_ahead:  # 2. the result scan's patterns
            build_result_scan()
        # 3. import in the background, and make ready what the first listing uses
        # The SDK imported ahead? Scans kept in the store (its upstreams likely list what they listed before)?
        kept = early is not None and bool(early.scan_verdicts)
        prepare = functools.partial(prepare_first_listing, sdk="mcp.server" in imports, scan=not kept)
        background = await stack.enter_async_context(BackgroundImports(imports, then=prepare))
        store = await stack.enter_async_context(open_store(settings)) if late is None else None  # 4. the store
        await background.done()  # 5. wait for the imports
        gateway, whereabouts = _gateway(
            config, settings, store, dashboard=dashboard, early=early, view=view, prestarted=prestarted
        )
        await stack.enter_async_context(gateway)  # 6. the gateway: sources started, first catalog built
        await prestarted.discard()  # 7. the processes no source took
        report_start(gateway, console)  # 8. report
        yield Started(gateway, store, late, whereabouts)


def build_result_scan() -> None:
    """Build what the result scan builds at its first tool result (its RE2 sets), now.

    An HTTP gateway does it first thing as it starts, while its upstreams start: built at the first result,
    the sets (about 9 MB, and 5 MB more while they build) came on top of everything a serving gateway holds
    and set its peak memory (145 MB with identity and recording, at the first call). Built first, what the
    build needed only while it built is given back at once (`give_back_freed_heap`). It takes about
    0.1 s of CPU; a stdio gateway, whose start is what its client waits for, still builds them at its first
    result.
    """
    from hintgate.scan.poisoning import scan_result

    # A short JSON text, as most results are: what every result needs is built for it.
    text = '{"id": 1, "name": "example", "status": "ok", "updated": "2026-01-01T00:00:00Z"}'
    scan_result({"content": [{"type": "text", "text": text}]}, warnings=False)
    give_back_freed_heap()  # what the build needed only while it built, before the imports pile up above it


def warm_result_scan() -> int:
    """Compile what the result scan compiles where a text first needs it (`scan.deferred.compile_pending`), and
    build the sets prose needs (`warm` of `scan.cues`, `scan.anchors`, `scan.tongues`); the number of patterns
    compiled. About 5 MB: what costs more for what fewer texts need (the cues' engines one by one, 3.6 MB; the
    punctuation's stand-ins, 2.3 MB; every language's forms, 6 MB) is still built at first use.

    A serving gateway runs it on a thread of its own (`start_scan_warmup`): a result of 8 KB or less is scanned on
    the event loop, and the first prose result (a man page) compiled hundreds of patterns there (1.6-2.3 s of CPU,
    every other client waiting).
    """
    from hintgate.scan import anchors, cues, tongues
    from hintgate.scan.deferred import compile_pending

    count = compile_pending()
    cues.warm()
    anchors.warm()
    tongues.warm()
    give_back_freed_heap()  # what the sets needed only while they were built
    return count


def start_scan_warmup() -> threading.Thread:
    """Run `warm_result_scan` on a daemon thread (the event loop compiles nothing then; the GIL interleaves the two
    in short slices); the thread, started."""
    thread = threading.Thread(target=warm_result_scan, name="hintgate-scan-warmup", daemon=True)
    thread.start()
    return thread


def prepare_first_listing(*, sdk: bool = True, scan: bool = True) -> None:
    """Make ready what every first listing uses and is made on its first use, while the upstreams start.

    A first listing resolves and scans each definition its upstreams list, and answers a client that has just
    shaken hands: the patterns of the scan and of the hints' inference compile where a text first needs them
    (`hintgate.scan.deferred`), and the SDK's wire models build their validators at their first message
    (`hintgate.server.sdk.defer_wire_validators`, the answer to `initialize` too), as does the MCP face's model
    of `tools/resolve`. Made there, after the upstreams listed their tools, they held up the answer (0.05-0.08 s
    of CPU); made here, on the background imports' thread, they are made while the upstreams start. One plain
    definition, resolved and scanned, compiles what any definition reaches; what only some texts reach still
    compiles when one does.

    Without `sdk` (a stdio gateway: its opening answers the handshake and first listing before the SDK is
    imported, `hintgate.server.front`), the SDK's models are left for after that listing. Without `scan` (a start
    whose store keeps the scans of its upstreams' definitions under the current rules, `hintgate.scan.verdicts`)
    the scan's patterns are left for the warm-up after that listing (`start_scan_warmup`): the definitions listed
    as before are not scanned (0.15-0.2 s of CPU saved), and one that is new compiles what it needs as it is.
    """
    from hintgate.hints.catalog import resolve_tool

    if sdk:
        from hintgate.server.resolution import resolve_params_model
        from hintgate.server.sdk import build_handshake_validators

        build_handshake_validators()
        resolve_params_model()  # the MCP face's model of `tools/resolve`, made as the face is built
    schema = {"type": "object", "properties": {"id": {"type": "string", "description": "The item's id."}}}
    plain = {"name": "get_item", "description": "Get an item by its id.", "inputSchema": schema}
    resolve_tool(plain)
    if scan:
        from hintgate.scan.poisoning import named_words, scan_tool

        scan_tool(plain)
        named_words(plain)


def give_back_freed_heap() -> None:
    """Give the heap that start-up freed back to the system (glibc's `malloc_trim`; elsewhere nothing).

    Freed memory below the top of the C heap (the scan's build, the imports' and the identity keys' fetch
    temporaries) stays counted as the process's until it is trimmed: 4-6 MB of an HTTP gateway's 130 MB.
    Trimming walks the heap once (a few ms), at start-up only.
    """
    try:
        import ctypes

        trim = ctypes.CDLL(None).malloc_trim
    except (ImportError, OSError, AttributeError, TypeError):  # not glibc: its allocator keeps its own counsel
        return
    trim(0)


def _settle_start_up() -> None:
    """Set what the gateway built to start aside from the cyclic garbage collector (`gc.freeze`), give the
    heap it freed back (`give_back_freed_heap`), and turn the collector on (`hintgate serve` starts with it off:
    `hintgate.cli.entry`).

    Called once an HTTP gateway listens (`_serve_app`), once a stdio gateway wrote its first listing (or
    waited `FIRST_ANSWER_GRACE` for the request), and again once its late store opened. The modules, the
    SDK's models, the scan's phrases and the catalog so far live as long as the gateway (145,000-195,000
    tracked objects), yet each full collection walked them all again: one pass of 0.13-0.34 s every few
    thousand calls (load 4-6). Frozen, they are never walked again; what is made later is collected as
    before. No collection runs first (it would hold the event loop that long): one run at that point found
    about 600 unreachable objects (900 with the collector off until then), which stay.
    """
    gc.freeze()
    give_back_freed_heap()
    gc.enable()


async def _settled_after_first_answer(gateway: Gateway) -> None:
    """`_settle_start_up` once a stdio gateway's first listing is written out (or `FIRST_ANSWER_GRACE` passed), then
    the result scan's warm-up (`start_scan_warmup`)."""
    await gateway.first_answer.written(FIRST_ANSWER_GRACE)
    _settle_start_up()
    start_scan_warmup()  # after the first answer: its CPU is not the start's


async def _then_settled(opening: Coroutine[Any, Any, None]) -> None:
    """Await `opening` (the late store's), then `_settle_start_up` again (the store's modules and tables) and start
    the result scan's warm-up (`start_scan_warmup`)."""
    await opening
    _settle_start_up()
    start_scan_warmup()  # after the first answer, and after the store's opening


async def _until_terminated(work: Coroutine[Any, Any, None]) -> None:
    """Run `work` until it ends, or until SIGTERM cancels it; SIGTERM and SIGINT then hurry the shutdown.

    SIGTERM's default would end the process on the spot, losing the calls in
    flight and what the recorder has not committed yet. Cancelled instead, the
    calls in flight end (each recorded as cancelled), the caller's `async with`
    blocks stop the servers and drain the store, and the process exits 0.

    Once `work` has ended (the client closed stdin, or the first SIGTERM), the gateway is still stopping:
    an MCP client SIGTERMs it 2 s after closing its stdin, and its upstreams may take that long to leave.
    Every later SIGTERM or SIGINT then makes the upstreams' stops hurry (`sources.processes.hurry`) and never
    ends the process before the store is drained; the caller removes the handlers once the gateway has
    stopped (`_signals_held`).
    """
    task = asyncio.ensure_future(work)
    loop = asyncio.get_running_loop()
    terminated = False

    def terminate() -> None:
        nonlocal terminated
        if terminated:
            _hurry()
            return
        terminated = True
        task.cancel()

    try:
        loop.add_signal_handler(signal.SIGTERM, terminate)
    except (NotImplementedError, RuntimeError, ValueError):  # no signals here (Windows, another thread)
        await task
        return
    try:
        await task
    except asyncio.CancelledError:
        if not terminated or not task.cancelled():
            raise
        logger.info("SIGTERM: stopped serving; recording the calls in flight")
    finally:
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, _hurry)


def _hurry() -> None:
    """A signal during shutdown: the upstreams are stopped without waiting for them to leave on their own."""
    from hintgate.sources.processes import hurry

    logger.info("signalled while stopping: stopping the upstreams at once; the store is still drained")
    hurry()


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Give SIGTERM and SIGINT back their defaults on exit, once the gateway within has stopped (its store
    drained): `_until_terminated` keeps them handled until then."""
    try:
        yield
    finally:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(signum)


async def run_http(
    config: GatewayConfig,
    settings: Settings,
    *,
    host: str,
    port: int,
    recording: str | None = None,
    watch: bool = False,
) -> None:
    """Serve MCP over streamable HTTP at `/mcp`, with the REST API and dashboard, until interrupted.

    `recording` names the database for the start report ("SQLite database /path"). SIGHUP
    reloads the config file, and so does any change to it with `watch`.
    """
    from hintgate.cli.reload import reloading

    console = _log_to_stderr()
    # Bound before any upstream starts: a busy port fails at once, with nothing to undo.
    with bind_listener(host, port) as sock, _signals_held():
        _report_recording(console, recording)
        async with starting(
            config, settings, imports=WEB_MODULES, console=console, dashboard=_base_url(host, sock), scan_ahead=True
        ) as started:
            gateway, store = started.gateway, started.store
            start_scan_warmup()
            async with reloading(gateway, watch=watch):
                await _until_terminated(
                    _serve_web(gateway, store, settings, started.whereabouts, host=host, sock=sock, console=console)
                )


async def run_stdio(
    config: GatewayConfig,
    settings: Settings,
    *,
    dashboard: tuple[str, int] | None = None,
    metrics: tuple[str, int] | None = None,
    recording: str | None = None,
    watch: bool = False,
    early: StoredState | None = None,
    view: str | None = None,
    prestarted: Prestarted | None = None,
) -> None:
    """Serve MCP over stdin/stdout until the client closes stdin.

    Args:
        config: what to serve.
        settings: how.
        dashboard: also serve the dashboard, the REST API and /metrics on (HOST, PORT).
        metrics: also serve /metrics alone on (HOST, PORT).
        recording: names the database for the start report ("SQLite database /path").
        watch: reload the config file whenever it changes (SIGHUP always reloads it).
        early: the stored state read ahead (`read_ahead`; not with `dashboard` or `metrics`): the first
            listing is answered from it and the store opened after.
        view: serve this view of the catalog only (`--view`), None for all of it.
        prestarted: the upstream processes the caller spawned already (`starting` spawns them otherwise).
    """
    from hintgate.cli.reload import reloading
    from hintgate.policy.asking import APPROVAL_LOG

    console = _log_to_stderr(logging.WARNING)
    # Stderr is the client's log: warnings only, but a call waiting for a person says so, and how it ended.
    logging.getLogger(APPROVAL_LOG).setLevel(logging.INFO)
    with contextlib.ExitStack() as sockets, _signals_held():
        # Bound before any upstream starts: a busy port fails at once, with nothing to undo.
        web_sock = sockets.enter_context(bind_listener(*dashboard)) if dashboard is not None else None
        scrape_sock = sockets.enter_context(bind_listener(*metrics)) if metrics is not None else None
        _report_recording(console, recording)
        base = _base_url(dashboard[0], web_sock) if dashboard is not None and web_sock is not None else None
        if dashboard is not None or metrics is not None:
            early = None  # the store opens first: the dashboard and /metrics read it from their first request
        imports = STDIO_MODULES + (WEB_MODULES if dashboard is not None else ())
        async with starting(
            config,
            settings,
            imports=imports,
            console=console,
            early=early,
            prestarted=prestarted,
            dashboard=base,
            view=view,
        ) as started:
            gateway, store, late = started.gateway, started.store, started.late
            side: list[asyncio.Task[None]] = []
            if late is None:  # else once the late store opened, after the first listing
                side.append(asyncio.create_task(_settled_after_first_answer(gateway)))
            if dashboard is not None and web_sock is not None:
                # stderr is the MCP client's (often a log file others can read), unless it is a terminal.
                private = not sys.stderr.isatty()
                web = _serve_web(
                    gateway,
                    store,
                    settings,
                    started.whereabouts,
                    host=dashboard[0],
                    sock=web_sock,
                    console=console,
                    private=private,
                )
                side.append(asyncio.create_task(web))
            if metrics is not None and scrape_sock is not None:
                scrape = _serve_metrics(
                    gateway, settings, started.whereabouts, host=metrics[0], sock=scrape_sock, console=console
                )
                side.append(asyncio.create_task(scrape))
            from hintgate.server.front import serve_stdio  # imported ahead, on a thread (STDIO_MODULES)

            def sdk_server() -> Any:  # the SDK is imported once the first listing is out
                from hintgate.server.face import build_server
                from hintgate.server.sdk import defer_wire_validators

                defer_wire_validators()  # done already where the stdio transport imported the SDK's types

                return gateway.mcp_server or build_server(gateway)

            try:
                async with reloading(gateway, watch=watch):
                    if late is None:
                        await _until_terminated(serve_stdio(gateway, sdk_server))
                    else:
                        # The first listing from the state read ahead; the store (SQLAlchemy) opens once it is out.
                        opening = _then_settled(late.opened(gateway))
                        await _until_terminated(serve_while_store_opens(serve_stdio(gateway, sdk_server), opening))
            finally:
                for task in side:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task


async def collect_catalog(config: GatewayConfig, *, progress: bool = True) -> Gateway:
    """Start every server, build the catalog, stop them; the gateway keeps its last catalog and statuses."""
    from rich.progress import Progress, SpinnerColumn, TextColumn

    # One shot: a down server's restarts ("restarting in 1 s") are noise; its reason is in the report.
    _log_to_stderr(logging.ERROR)
    from rich.console import Console

    console = Console(stderr=True)
    async with contextlib.AsyncExitStack() as stack:
        credentials = None
        if any(_has_oauth(server) for server in config.servers.values()):
            # Servers behind OAuth log in with what `hintgate auth login` kept in the store.
            from hintgate.store import RecordingSettings, Store

            settings = Settings.from_environ()
            recording = RecordingSettings.from_settings(settings)
            store = await Store.open(settings.store_url, recording, recover=False, replica=settings.replica)
            stack.push_async_callback(store.close)
            credentials = credentials_of(store, settings)
        from hintgate.server.gateway import Gateway

        gateway = Gateway(config, credentials=credentials)
        with Progress(
            SpinnerColumn(), TextColumn("{task.description}"), console=console, transient=True, disable=not progress
        ) as bar:
            bar.add_task(f"starting {len(config.sources)} servers and listing their tools", total=None)
            async with gateway:
                pass
    return gateway


def _has_oauth(server: Any) -> bool:
    return getattr(server.transport, "oauth", None) is not None
