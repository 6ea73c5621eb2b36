"""OAuth 2.1 for streamable-HTTP upstreams, as the MCP authorization specification describes.

The SDK's `OAuthClientProvider` (an `httpx2.Auth`) does the protocol: on a
401 it reads the `WWW-Authenticate` resource metadata, finds the
authorization server's metadata, registers a client dynamically when the
server offers it, runs the authorization code flow with PKCE, and refreshes
tokens. hintgate adds:

- `StoredTokens`, the SDK's token storage over hintgate's store (sealed at
  rest by `hintgate.store.oauth_tokens`): tokens, the registered client, the
  authorization server's metadata (so a refresh after a restart goes to the
  right token endpoint) and, once tokens stop working, why.
- `GatewayAuth`, the provider a running gateway uses: it sends the token,
  refreshes it before it expires, and never starts a login on its own. A
  401 it cannot cure with a refresh is passed on and recorded, and the
  upstream turns `needs_login` with the reason.
- `login`, the interactive flow (`hintgate auth login`, the dashboard's
  Connect): the browser goes to the authorization server and the redirect
  comes back to a loopback listener (`hintgate.sources.loopback`), or, for a
  person logging in to a server that logs in per person (`oauth.perUser`), to
  the gateway's own web page (`hintgate.web.person_logins`).

No token is ever put in a log line, an error message or a status.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import parse_qs, urlsplit

import anyio

from hintgate.config.model import HttpTransport, OAuthConfig, ServerConfig
from hintgate.errors import HintgateError, OAuthLoginError, UpstreamNeedsLogin

if TYPE_CHECKING:
    import httpx2
    from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

__all__ = [
    "NOT_LOGGED_IN",
    "Credentials",
    "LoginState",
    "Redirect",
    "StoredTokens",
    "gateway_auth",
    "login",
    "login_state",
    "refresh_margin",
]

logger = logging.getLogger(__name__)

NOT_LOGGED_IN = "no one has logged in to it yet"
"""The reason a server behind OAuth that never had tokens gives."""

_GATEWAY_REDIRECT = "http://127.0.0.1/callback"  # a running gateway never sends anyone to it
_CLIENT_NAME = "hintgate"
_ROTATED_POLLS = 30  # reads of the kept login after a refused refresh, `_ROTATED_EVERY` s apart (3 s in all)
_ROTATED_EVERY = 0.1


def refresh_margin(lifetime: float) -> float:
    """Seconds before expiry a token is refreshed: a quarter of its life, at most a minute."""
    return min(60.0, max(0.0, lifetime) / 4)


class Credentials(Protocol):
    """Where a server's credentials document is kept (`hintgate.store.oauth_tokens.CredentialsVault`)."""

    async def load(self, server: str) -> dict[str, Any] | None:
        """The document kept for `server`, or None."""

    async def version(self, server: str) -> object | None:
        """What changes whenever `server`'s document is written, read without opening it; None when none is kept."""

    async def save(self, server: str, document: dict[str, Any]) -> None:
        """Keep `document` for `server`."""

    async def forget(self, server: str) -> bool:
        """Remove what is kept for `server`; whether there was anything."""

    def person(self, key: str, name: str | None = None) -> Credentials:
        """The logins of the person whose key is `key` (named `name`) for servers that log in per person."""


class Redirect(Protocol):
    """Where a login's redirect comes back to (`hintgate.sources.loopback.LoopbackRedirect`)."""

    @property
    def redirect_uri(self) -> str:
        """What the authorization server sends the browser to."""

    def expect_state(self, state: str) -> None:
        """Take only a redirect carrying `state` (the one the authorization URL sent)."""

    async def wait(self, timeout: float) -> dict[str, str]:
        """The redirect's query parameters (`code`, `state`, `iss`), once it came.

        Raises:
            OAuthLoginError: no redirect came within `timeout` seconds, or it carried an error.
        """


def oauth_of(server: ServerConfig) -> OAuthConfig | None:
    """The server's `oauth` block, when it is a remote server behind OAuth."""
    transport = server.transport
    return transport.oauth if isinstance(transport, HttpTransport) else None


@dataclass(eq=False, repr=False)  # no repr: the config and the document hold secrets
class StoredTokens:
    """The SDK's `TokenStorage` for one server, kept in `Credentials`; `load()` before use.

    A client id from the config wins over a registered one; a registered
    client is kept, so a later login reuses it when its redirect URI fits.
    With `hold`, nothing is written before tokens arrive: a login that fails
    half way leaves what was kept as it was.

    Attributes:
        credentials: where the server's document is kept.
        server: the server's name (its key there).
        config: the server's `oauth` block.
        redirect_uri: where the authorization server sends the browser back.
        hold: nothing is written before tokens arrive.
        document: the kept document as last read or written (tokens, client, expiry).
    """

    credentials: Credentials
    server: str
    config: OAuthConfig
    redirect_uri: str
    _: KW_ONLY
    hold: bool = False
    document: dict[str, Any] = field(default_factory=dict, init=False)

    async def load(self) -> None:
        """Read the kept document (an empty one when none is kept)."""
        self.document = await self.credentials.load(self.server) or {}

    async def reload(self) -> None:
        """Read the kept document again: another replica or process may have refreshed the tokens since."""
        self.document = await self.credentials.load(self.server) or {}

    async def save(self, **changes: Any) -> None:
        """Update the kept document with `changes` (held in memory until there are tokens, when `hold`)."""
        self.document = {**self.document, **changes}
        if not self.hold or self.document.get("tokens"):
            await self.credentials.save(self.server, self.document)

    @property
    def expires_at(self) -> float | None:
        """Wall-clock time the kept access token expires, when it said."""
        value = self.document.get("expires_at")
        return float(value) if isinstance(value, int | float) else None

    async def get_tokens(self) -> OAuthToken | None:
        from mcp.shared.auth import OAuthToken

        tokens = self.document.get("tokens")
        return OAuthToken.model_validate(tokens) if tokens else None

    async def set_tokens(self, tokens: OAuthToken) -> None:
        expires_at = time.time() + tokens.expires_in if tokens.expires_in is not None else None
        await self.save(
            tokens=tokens.model_dump(mode="json", exclude_none=True),
            expires_at=expires_at,
            refused=None,
            logged_in_at=self.document.get("logged_in_at") or time.time(),
        )

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        from mcp.shared.auth import OAuthClientInformationFull

        if self.config.client_id is not None:
            secret = self.config.client_secret
            return OAuthClientInformationFull(
                client_id=self.config.client_id,
                client_secret=secret,
                redirect_uris=[self.redirect_uri],  # type: ignore[list-item]
                token_endpoint_auth_method="client_secret_post" if secret else "none",
            )
        client = self.document.get("client")
        return OAuthClientInformationFull.model_validate(client) if client else None

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        if self.config.client_id is None:
            await self.save(client=client_info.model_dump(mode="json", exclude_none=True))


def _provider_class() -> type[Any]:
    """`OAuthClientProvider` with hintgate's additions (imported late: the SDK is heavy)."""
    from mcp.client.auth import OAuthClientProvider
    from mcp.client.auth.oauth2 import OAuthContext
    from mcp.shared.auth import OAuthMetadata, ProtectedResourceMetadata

    class _Context(OAuthContext):
        def update_token_expiry(self, token: OAuthToken) -> None:
            # Refreshed ahead of expiry, so a call never goes out with a token about to lapse.
            if token.expires_in is None:
                self.token_expiry_time = None
            else:
                self.token_expiry_time = time.time() + token.expires_in - refresh_margin(token.expires_in)

    class Provider(OAuthClientProvider):
        """The SDK's provider, its state kept in `StoredTokens`; `interactive` says whether it may log in."""

        def __init__(self, storage: StoredTokens, *, interactive: bool, scopes: tuple[str, ...], **kwargs: Any):
            super().__init__(storage=storage, **kwargs)
            context = self.context
            self.context = _Context(
                server_url=context.server_url,
                client_metadata=context.client_metadata,
                storage=storage,
                redirect_handler=context.redirect_handler,
                callback_handler=context.callback_handler,
            )
            self.stored = storage
            self.interactive = interactive
            self.scopes = scopes
            self.refusal: str | None = None

        async def _initialize(self) -> None:
            await super()._initialize()
            document = self.stored.document
            expires_at, lifetime = self.stored.expires_at, (document.get("tokens") or {}).get("expires_in")
            if expires_at is not None:
                self.context.token_expiry_time = expires_at - refresh_margin(float(lifetime or 0))
            if document.get("metadata") and self.context.oauth_metadata is None:
                self.context.oauth_metadata = OAuthMetadata.model_validate(document["metadata"])
            if document.get("resource") and self.context.protected_resource_metadata is None:
                prm = ProtectedResourceMetadata.model_validate(document["resource"])
                self.context.protected_resource_metadata = prm
                if prm.authorization_servers:
                    self.context.auth_server_url = str(prm.authorization_servers[0])

        async def _adopt_kept(self) -> None:
            """Before a refresh, take the tokens kept since by another replica or process, if any.

            An authorization server that rotates refresh tokens refuses one used
            twice: two replicas on one stored login would otherwise each refresh
            with the same one, and the second refusal would log everyone out.
            """
            current = self.context.current_tokens
            if current is None or self.context.is_token_valid():
                return
            kept = await self._kept()
            if kept is None or kept.access_token == current.access_token:
                return
            self._adopt(kept)

        async def _kept(self) -> OAuthToken | None:
            """The tokens kept now, read again (None when none are, or they cannot be read)."""
            try:
                await self.stored.reload()
                return await self.stored.get_tokens()
            except (HintgateError, ValueError):
                return None

        def _adopt(self, kept: OAuthToken) -> None:
            self.context.current_tokens = kept
            expires_at = self.stored.expires_at
            lifetime = float(kept.expires_in or 0)
            self.context.token_expiry_time = None if expires_at is None else expires_at - refresh_margin(lifetime)

        async def _rotated_elsewhere(self, spent: str) -> OAuthToken | None:
            """Tokens another replica or process got with the refresh token `spent`, kept within a few seconds.

            Two replicas on one stored login may refresh at once: the authorization server rotates the
            refresh token for the first and refuses the second, whose refusal would otherwise wipe the
            tokens the first is about to keep (or has kept), and log the person out everywhere.
            """
            for _ in range(_ROTATED_POLLS):
                kept = await self._kept()
                if kept is None:
                    return None
                if kept.refresh_token and kept.refresh_token != spent:
                    return kept
                await anyio.sleep(_ROTATED_EVERY)
            return None

        async def _handle_token_response(self, response: httpx2.Response) -> None:
            await super()._handle_token_response(response)
            # Kept beside the tokens: after a restart, the refresh must find the same token endpoint.
            changes: dict[str, Any] = {"logged_in_at": time.time()}
            if self.context.oauth_metadata is not None:
                changes["metadata"] = self.context.oauth_metadata.model_dump(mode="json", exclude_none=True)
            if self.context.protected_resource_metadata is not None:
                prm = self.context.protected_resource_metadata
                changes["resource"] = prm.model_dump(mode="json", exclude_none=True)
            await self.stored.save(**changes)

        async def _handle_refresh_response(self, response: httpx2.Response) -> bool:
            refused = response.status_code != 200
            if refused:
                await response.aread()
                spent = self.context.current_tokens.refresh_token if self.context.current_tokens else None
                rotated = await self._rotated_elsewhere(spent) if spent else None
                if rotated is not None:
                    self._adopt(rotated)
                    return True
                self.refusal = _refusal(response)
            ok: bool = await super()._handle_refresh_response(response)
            if refused:
                await self.stored.save(tokens=None, expires_at=None, refused=self.refusal)
            return ok

        async def _perform_authorization_code_grant(self) -> tuple[str, str]:
            if not self.interactive:
                raise UpstreamNeedsLogin(self.refusal or NOT_LOGGED_IN)  # never reached: see _auth_flow
            if self.scopes:  # the config's scopes win over what the server suggested
                self.context.client_metadata.scope = " ".join(self.scopes)
            result: tuple[str, str] = await super()._perform_authorization_code_grant()
            return result

        async def _auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
            if self.interactive:
                flow = super()._auth_flow(request)
                try:
                    outgoing = await flow.__anext__()
                    while True:
                        response = yield outgoing
                        outgoing = await flow.asend(response)
                except StopAsyncIteration:
                    return
                finally:
                    await flow.aclose()
            # A running gateway: a 401 on the request itself ends the flow (the SDK would start a
            # login), after one refresh when a refresh token is kept: the token may have been revoked
            # early, or the clock be off.
            for attempt in (1, 2):
                await self._adopt_kept()
                flow = super()._auth_flow(request)
                try:
                    outgoing = await flow.__anext__()
                    while True:
                        response = yield outgoing
                        if outgoing is request and response.status_code == 401:
                            break
                        if outgoing is request and _insufficient_scope(response):
                            # A step-up needs a person's consent: never started from here.
                            self.refusal = (
                                "the server asks for more scopes than were granted (HTTP 403 insufficient_scope); "
                                "log in again"
                            )
                            await self.stored.save(tokens=None, expires_at=None, refused=self.refusal)
                            return
                        outgoing = await flow.asend(response)
                except StopAsyncIteration:
                    return
                finally:
                    await flow.aclose()
                if attempt == 1 and self.context.current_tokens and self.context.can_refresh_token():
                    self.context.token_expiry_time = 1.0  # long past: the next round refreshes first
                    continue
                if self.refusal is None:
                    self.refusal = (
                        "the server refused the access token (HTTP 401) and no refresh token is kept"
                        if self.context.current_tokens
                        else NOT_LOGGED_IN
                    )
                    if self.context.current_tokens:
                        await self.stored.save(tokens=None, expires_at=None, refused=self.refusal)
                return

    return Provider


def _insufficient_scope(response: httpx2.Response) -> bool:
    challenge = response.headers.get("www-authenticate", "")
    return response.status_code == 403 and "insufficient_scope" in challenge


def _refusal(response: httpx2.Response) -> str:
    """Why a refresh was refused, from the token endpoint's answer (its `error`, never a token)."""
    error = ""
    try:
        body = json.loads(response.content)
        if isinstance(body, dict) and isinstance(body.get("error"), str):
            error = body["error"][:80]
            if isinstance(body.get("error_description"), str):
                error += f": {body['error_description'][:200]}"
    except (ValueError, UnicodeDecodeError):
        pass
    said = f"HTTP {response.status_code}" + (f", {error}" if error else "")
    return f"the authorization server refused to refresh the token ({said}); log in again"


def _client_metadata(redirect_uri: str, config: OAuthConfig) -> Any:
    from mcp.shared.auth import OAuthClientMetadata

    return OAuthClientMetadata(
        redirect_uris=[redirect_uri],  # type: ignore[list-item]
        client_name=_CLIENT_NAME,
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="client_secret_post" if config.client_secret else "none",
        scope=" ".join(config.scopes) or None,
    )


@dataclass(frozen=True, slots=True)
class GatewayAuth:
    """The auth a running gateway sends an upstream's requests with, and why it stopped working.

    Attributes:
        auth: the `httpx2.Auth` for the upstream's HTTP client.
        refusal: returns why the server needs a login, once a 401 could not be cured; else None.
    """

    auth: httpx2.Auth
    refusal: Callable[[], str | None]


async def gateway_auth(server: ServerConfig, credentials: Credentials | None) -> GatewayAuth:
    """The auth for a running gateway's connection to `server` (which has an `oauth` block).

    Raises:
        UpstreamNeedsLogin: no tokens are kept (never logged in, logged out, or refused), or the
            kept ones cannot be read; the message says which.
    """
    config = oauth_of(server)
    assert config is not None
    assert isinstance(server.transport, HttpTransport)
    if credentials is None:
        raise UpstreamNeedsLogin(
            "OAuth logins are kept in the store, and this gateway runs without one", server=server.name
        )
    storage = StoredTokens(credentials, server.name, config, _GATEWAY_REDIRECT)
    try:
        await storage.load()
    except HintgateError as exc:
        raise UpstreamNeedsLogin(str(exc), server=server.name) from exc
    if not storage.document.get("tokens"):
        raise UpstreamNeedsLogin(storage.document.get("refused") or NOT_LOGGED_IN, server=server.name)
    provider = _provider_class()(
        storage,
        interactive=False,
        scopes=config.scopes,
        server_url=server.transport.url,
        client_metadata=_client_metadata(_GATEWAY_REDIRECT, config),
    )
    return GatewayAuth(provider, lambda: provider.refusal)


@dataclass(frozen=True, slots=True)
class LoginState:
    """What is known about a server's login, for `hintgate auth status` and the API (never a token).

    Attributes:
        logged_in: tokens are kept.
        reason: why a login is needed, when it is.
        expires_at: when the kept access token expires, if it said.
        refreshable: a refresh token is kept.
        registered_client: the client id came from dynamic registration (not the config).
        logged_in_at: when the last login or refresh happened.
    """

    logged_in: bool
    reason: str | None = None
    expires_at: float | None = None
    refreshable: bool = False
    registered_client: bool = False
    logged_in_at: float | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: every field (all plain values)."""
        return dataclasses.asdict(self)


async def login_state(server: ServerConfig, credentials: Credentials) -> LoginState:
    """The kept login of `server`, described without its secrets."""
    try:
        document = await credentials.load(server.name) or {}
    except HintgateError as exc:
        return LoginState(False, reason=str(exc))
    tokens = document.get("tokens") or {}
    return LoginState(
        logged_in=bool(tokens),
        reason=None if tokens else (document.get("refused") or NOT_LOGGED_IN),
        expires_at=document.get("expires_at") if tokens else None,
        refreshable=bool(tokens.get("refresh_token")),
        registered_client=bool(document.get("client")),
        logged_in_at=document.get("logged_in_at"),
    )


async def login(
    server: ServerConfig,
    credentials: Credentials,
    *,
    show_url: Callable[[str], Awaitable[None]],
    timeout: float = 300.0,
    redirect: Redirect | None = None,
) -> None:
    """Log in to `server` through the user's browser; on return its tokens are kept.

    Listens on the loopback for the redirect (unless another `redirect` is given), asks the server (an MCP
    `initialize`) so that its 401 starts discovery, registers a client when
    needed, calls `show_url` with the authorization URL, waits at most
    `timeout` seconds for the redirect, and exchanges the code for tokens.

    Raises:
        OAuthLoginError: any step failed; the message says which, and never holds a token.
    """
    import httpx2
    from mcp.client.auth.exceptions import OAuthFlowError, OAuthRegistrationError, OAuthTokenError
    from mcp.shared.auth import AuthorizationCodeResult

    from hintgate.sources.loopback import listen_for_redirect

    config = oauth_of(server)
    if config is None or not isinstance(server.transport, HttpTransport):
        raise OAuthLoginError(f"server {server.name!r} has no oauth block in the config: nothing to log in to")
    transport = server.transport
    async with contextlib.AsyncExitStack() as stack:
        if redirect is None:
            redirect = await stack.enter_async_context(listen_for_redirect(server.name, config.redirect_port))
        storage = StoredTokens(credentials, server.name, config, redirect.redirect_uri, hold=True)
        try:
            await storage.load()
        except HintgateError:
            storage.document = {}  # sealed under another key: a new login replaces it
        client = storage.document.get("client") or {}
        stale_client = client and redirect.redirect_uri not in (client.get("redirect_uris") or [])
        # A fresh login: old tokens go; a registered client whose redirect URI was another port does too.
        storage.document = {k: v for k, v in storage.document.items() if k == "client" and not stale_client}

        async def callback() -> AuthorizationCodeResult:
            query = await redirect.wait(timeout)
            return AuthorizationCodeResult(code=query["code"], state=query.get("state"), iss=query.get("iss"))

        async def show(url: str) -> None:
            # The listener takes only the redirect that carries this URL's state.
            state = parse_qs(urlsplit(url).query).get("state", [""])[0]
            if state:
                redirect.expect_state(state)
            await show_url(url)

        provider = _provider_class()(
            storage,
            interactive=True,
            scopes=config.scopes,
            server_url=transport.url,
            client_metadata=_client_metadata(redirect.redirect_uri, config),
            redirect_handler=show,
            callback_handler=callback,
        )
        where = f"login to {server.name!r}"
        try:
            async with httpx2.AsyncClient(
                headers=dict(transport.headers), auth=provider, timeout=httpx2.Timeout(30.0)
            ) as http:
                response = await http.post(
                    transport.url,
                    json=_INITIALIZE,
                    headers={"Accept": "application/json, text/event-stream"},
                )
                await _end_session(http, transport.url, response)
        except (OAuthFlowError, OAuthTokenError, OAuthRegistrationError) as exc:
            raise OAuthLoginError(f"{where}: {exc}") from None
        except httpx2.HTTPError as exc:
            raise OAuthLoginError(f"{where}: the HTTP exchange failed: {exc}") from None
        if not storage.document.get("tokens"):
            raise OAuthLoginError(
                f"{where}: the server answered HTTP {response.status_code} without asking for a login; "
                "is it behind OAuth?"
            )
        if response.status_code in (401, 403):
            raise OAuthLoginError(f"{where}: the server refused the new token (HTTP {response.status_code})")


_INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "hintgate-login", "version": "1"},
    },
}


async def _end_session(http: httpx2.AsyncClient, url: str, response: httpx2.Response) -> None:
    """Close the session the login's `initialize` opened, if the server made one."""
    session = response.headers.get("mcp-session-id")
    if session:
        try:
            await http.delete(url, headers={"mcp-session-id": session})
        except Exception:  # the server forgets an abandoned session anyway
            logger.debug("closing the login's session on %s failed", url)
