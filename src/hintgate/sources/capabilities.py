"""What only some sources do, named: each a protocol a caller tests a `Source` for.

`sources.base.Source` is what every source does (its name and trust, its
status, its tools, a call). An upstream MCP server does more, and an OpenAPI
document or a Python registry does none of it; a caller that needs more asks
the source whether it has the capability, never which class it is::

    if isinstance(source, LogsIn):
        source.logged_out()

Capabilities:
    Forwards: answers MCP requests besides `tools/call` (`prompts/get`, `resources/read`, `tasks/*`...).
    ServesPrompts: lists prompts, resources and resource templates, has instructions (and forwards requests).
    Resolves: may answer `tools/resolve` for its tools (the Tool Resolution extension).
    RunsTasks: may answer a call with a task handle (the Tasks extension).
    LogsIn: sits behind an OAuth login, shared or per person.
    ConvertsDocument: built from a document it converted (an OpenAPI description), with what it skipped.

They are runtime-checkable protocols: `isinstance` looks for their members
(Python 3.11 reads each one; keep the checks off a call's common path, after
cheaper tests).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from hintgate.sources.base import CallContext

if TYPE_CHECKING:
    from hintgate.config.model import ServerConfig
    from hintgate.sources.oauth import Credentials
    from hintgate.sources.openapi.operations import ToolSet

__all__ = ["ConvertsDocument", "Forwards", "LogsIn", "Resolves", "RunsTasks", "ServesPrompts"]


@runtime_checkable
class Forwards(Protocol):
    """A source that answers MCP requests other than `tools/call`."""

    async def request(self, method: str, params: dict[str, Any] | None, *, context: CallContext) -> dict[str, Any]:
        """Forward a request (prompts/get, resources/read, tasks/get, tools/resolve...); returns its result JSON.

        Raises:
            UpstreamDown: the source is not up.
            UpstreamRequestError: the source answered with an error (the method is unknown to it, ...).
        """


@runtime_checkable
class ServesPrompts(Forwards, Protocol):
    """A source with more for the model than its tools: prompts, resources, resource templates, instructions."""

    @property
    def instructions(self) -> str | None:
        """What it told the model about itself (its handshake's `instructions`), if anything."""

    @property
    def prompts(self) -> Sequence[Mapping[str, Any]]:
        """Its prompts as MCP JSON objects (empty unless up)."""

    @property
    def resources(self) -> Sequence[Mapping[str, Any]]:
        """Its resources as MCP JSON objects (empty unless up)."""

    @property
    def resource_templates(self) -> Sequence[Mapping[str, Any]]:
        """Its resource templates as MCP JSON objects (empty unless up)."""


@runtime_checkable
class Resolves(Forwards, Protocol):
    """A source that may resolve a call's hints itself: `tools/resolve` for the tools it marks."""

    @property
    def offers_resolution(self) -> bool:
        """Whether it offered the extension (in its last handshake), so it answers `tools/resolve` now."""


@runtime_checkable
class RunsTasks(Forwards, Protocol):
    """A source that may answer a call with a task handle, polled and cancelled by `tasks/*` requests."""

    @property
    def offers_tasks(self) -> bool:
        """Whether it offered the Tasks extension (in its last handshake)."""

    @property
    def tasks_outlive_gateway(self) -> bool:
        """Whether its tasks outlive this gateway process (a server reached by URL, not a stdio child of it)."""


@runtime_checkable
class LogsIn(Protocol):
    """A source that may sit behind an OAuth login: one shared login, or each person's own (`oauth.perUser`).

    Attributes:
        credentials: where its logins are kept; the gateway sets it when it builds the source.
        login_page: where a person logs in to it (for a login per person); the gateway sets it.
    """

    credentials: Credentials | None
    login_page: str | None

    @property
    def config(self) -> ServerConfig:
        """Its config entry (where its OAuth section is read)."""

    @property
    def logs_in_per_person(self) -> bool:
        """Whether each person logs in to it with their own account (its calls use their connection)."""

    def logged_in(self) -> None:
        """Someone just logged in for everyone: try its shared login again now."""

    def logged_out(self) -> None:
        """Its shared login was forgotten: it needs a login again now."""

    def person_logged_in(self, person: str) -> None:
        """The person with key `person` just logged in: their waiting calls go on."""

    def person_logged_out(self, person: str) -> None:
        """The person with key `person` logged out: their own connection closes."""


@runtime_checkable
class ConvertsDocument(Protocol):
    """A source built from a document it converted into tools (an OpenAPI description)."""

    @property
    def toolset(self) -> ToolSet | None:
        """The document as converted: its operations, what it skipped and what it read with a compromise (None
        until the document is read)."""
