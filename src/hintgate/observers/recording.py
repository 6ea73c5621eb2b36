"""The store's recorder as an observer: each call's outcome and each session, as records.

In durable mode (the default) a call's answer goes back once its record is
committed: `call_finished` returns the wait, which the pipeline awaits.
The gateway's own secrets (its API token, its state key) are masked in what
is recorded of a call's arguments, result or error: a tool that read them (a stdio server
runs with the user's power) does not put them in the database.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from hintgate.outcome import CallOutcome
from hintgate.redaction import Redactor
from hintgate.store.recorder import CallRecord, SessionRecord
from hintgate.store.rows import Encoded, encode_json, encoded_from

if TYPE_CHECKING:
    from hintgate.session import ClientSession
    from hintgate.store import Store

__all__ = ["AS_OUTCOME", "Recording", "call_record"]


AS_OUTCOME = (
    "session_id",
    "server_name",
    "started_at",
    "duration_ms",
    "request_id",
    "client_name",
    "client_version",
    "user",
    "user_key",
    "parent_call_id",
    "execution_type",
)
"""What a call's record keeps as its outcome has it: fields `CallOutcome` and `CallRecord` both have, under the same
name and type; `call_record` copies them by name."""


_NO_SECRETS = Redactor()


def call_record(outcome: CallOutcome, redact: Redactor | None = None, config_path: str | None = None) -> CallRecord:
    """The store's record of one call, with `redact`'s secrets masked in its arguments, result and error.

    `config_path` is the config file of the gateway that served it, kept with the call.
    """
    entry = outcome.entry
    arguments, result, error = outcome.arguments, outcome.result, outcome.error
    # Encoded here even with no secret to mask: a few records whose JSON is written already are committed on
    # the event loop's thread (`store.recorder`, light batches); left to the writer's thread, each durable call
    # of a stdio gateway (which has no API token to mask) waited for a hop there and back: 0.5-3 ms at load 6.
    redact = redact or _NO_SECRETS
    arguments, arguments_json = _masked(arguments, redact)
    result, response_json = _masked(result, redact, outcome.result_json)
    error = redact.text(error) if error is not None else None
    return CallRecord(
        id=outcome.call_id,
        server_id=entry.server,
        tool_name=entry.name,
        upstream_tool=entry.upstream_name,
        arguments=arguments,
        response=result,
        error=error,
        hints=outcome.snapshot,
        tier=outcome.tier,
        decision=outcome.decision_json(),
        verdict=outcome.verdict,
        config_path=config_path,
        arguments_json=arguments_json,
        response_json=response_json,
        **{name: getattr(outcome, name) for name in AS_OUTCOME},
    )


def _masked(value: Any, redact: Redactor, written: str | None = None) -> tuple[Any, Encoded | None]:
    """`value` with `redact`'s secrets masked, and its JSON as the store keeps it.

    The JSON is written once (in C; `written`: by the result scan already), and the value is walked to mask a
    secret only when one's encoding is in it: a secret in any string of `value` is in its JSON (`encode_json`).
    """
    if value is None:
        return None, None
    text = (encoded_from(written) if written is not None else None) or encode_json(value)
    for form in _encoded(redact.secrets):
        if form in text:
            value = redact.value(value)
            return value, encode_json(value)
    return value, text


@functools.lru_cache(maxsize=8)
def _encoded(secrets: tuple[str, ...]) -> tuple[str, ...]:
    """Each secret as it reads inside a JSON string the store keeps (`encode_json`, without the quotes)."""
    return tuple(encode_json(secret)[1:-1] for secret in secrets)


class Recording:
    """Writes calls and sessions to a store (its recorder queues them off the call path)."""

    def __init__(self, store: Store, config_path: str | None = None) -> None:
        self.store = store
        self.redact = Redactor()
        """The gateway's own secrets, masked in recorded results and errors (`hide`)."""
        self.config_path = config_path
        """The config file of the gateway, recorded with every call (None: it has none)."""

    def hide(self, *secrets: str | None) -> None:
        """Mask `secrets` (None and empty ones skipped) in every call recorded from now on."""
        self.redact = Redactor([*self.redact.secrets, *(s for s in secrets if s)])

    def call_finished(self, outcome: CallOutcome) -> Awaitable[bool] | None:
        """Queue the call's record; the call's answer waits until it is committed (in durable mode).

        A call that became a task is recorded by the task book (`hintgate.server.tasks`) instead.
        """
        if outcome.task:
            return None
        return self.store.record_call_durable(call_record(outcome, self.redact, self.config_path))

    def session_started(self, session: ClientSession) -> None:
        """Queue the new session's record, stamped with this replica."""
        self.store.session_started(
            SessionRecord(
                id=session.id,
                client_name=session.client_name,
                client_version=session.client_version,
                user=session.user,
                view=session.view,
                user_key=session.principal.key if session.principal is not None else None,
                started_at=session.started_at,
                transport=session.transport,
                replica=self.store.replica,
            )
        )

    def session_ended(self, session: ClientSession) -> None:
        """Queue the session's end."""
        if session.ended_at is not None:
            self.store.session_closed(session.id, session.ended_at)
