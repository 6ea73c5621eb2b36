"""How hintgate asks a person about a call: the question, the form, and reading the answer.

Pure. The same question goes to a client through MCP elicitation (form mode,
`elicitation/create` on 2025-11-25 connections, an `InputRequiredResult` on
2026-07-28 ones) and to the dashboard's approval queue.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping
from typing import Any

from hintgate.policy.approvals import Answer, Outcome

__all__ = [
    "APPROVAL_KEY",
    "APPROVAL_LOG",
    "ARGUMENTS_SHOWN",
    "UNATTENDED",
    "WHOLE_CALL_AT",
    "answer_from_elicitation",
    "approval_form",
    "arguments_text",
    "denial",
    "question",
    "title_phrase",
    "where_to_answer",
]

APPROVAL_KEY = "hintgate-approval"
"""The key of hintgate's question in an `InputRequiredResult`'s `inputRequests`."""

APPROVAL_LOG = "hintgate.approvals"
"""The logger of the lines that say a call waits for a person and how its wait ended: INFO, routine (a
wait nobody answered, a call that did not run for want of an answer, is a WARNING). A stdio gateway,
which logs warnings only, shows this logger's INFO lines too: a call waiting for a person never hangs
silently."""

ARGUMENTS_SHOWN = 100_000
"""Characters of the arguments' JSON a question shows. Longer arguments are not
shown in part: the call is asked in the approval queue, where the dashboard
and the REST API show it whole, and the question says so."""

UNATTENDED = (
    "nobody can be asked (askVia: deny-unattended): this client cannot answer questions (no elicitation), "
    "no dashboard or REST API is served and no store keeps the approval queue. To approve calls, serve the "
    "dashboard (`hintgate serve --dashboard HOST:PORT` with stdio, or `--http HOST:PORT`), or record to a "
    "database (not --no-record) and answer from another terminal with `hintgate approvals` against the same --db"
)
"""Why a call that asks is denied at once when nobody could answer it, and how to set someone up."""

WHOLE_CALL_AT = "the dashboard's Approvals page (/approvals) or GET /api/approvals"
"""Where a person sees a waiting call whole."""

_TITLE_WORDS = {
    "override": "set by the operator",
    "declared": "the server's claim, not checked",
    "openapi": "the API document's summary: the server's claim, not checked",
    "derived": "made by hintgate from the tool's name",
}

_CHOICES = (
    (Answer.APPROVE_ONCE, "Approve once"),
    (Answer.APPROVE_SESSION, "Approve for this session"),
    (Answer.DENY, "Deny"),
)
# Characters that change how text around them reads without being seen
# (bidirectional overrides, zero-width and other format or control characters).
_INVISIBLE = {"Cc", "Cf", "Zl", "Zp"}


def _visible(text: str, *, keep_newlines: bool = False) -> str:
    """`text` with invisible characters written as `\\uXXXX` escapes (newlines too, unless kept)."""
    return "".join(
        f"\\u{ord(c):04x}" if unicodedata.category(c) in _INVISIBLE and not (keep_newlines and c == "\n") else c
        for c in text
    )


def arguments_text(arguments: Mapping[str, Any] | None) -> str:
    """The arguments as indented JSON, with invisible characters written as `\\uXXXX` escapes."""
    return _visible(json.dumps(arguments or {}, indent=2, ensure_ascii=False, default=str), keep_newlines=True)


def title_phrase(title: str, origin: str) -> str:
    """A tool's title in quotes, with who gave it: `"Check the weather" (the server's claim, not checked)`.

    Newlines and other invisible characters are escaped: a title cannot fake a line of the question.
    """
    return f'"{_visible(title)}" ({_TITLE_WORDS.get(origin, origin)})'


def question(
    *,
    tool: str,
    server: str,
    title: str,
    title_origin: str,
    arguments: Mapping[str, Any] | None,
    reason: str,
    warnings: list[str],
    does: str | None = None,
) -> str:
    """The text a person reads before answering.

    It leads with what hintgate knows for sure, the public tool name and its
    server; the title comes after, in quotes, as the claim it is (an upstream
    can title `destroy_cluster` "Check the weather"). The arguments are shown
    whole, invisible characters escaped; past `ARGUMENTS_SHOWN` characters the
    question says how much is cut and where to see the call whole.
    """
    shown = arguments_text(arguments)
    lines = [f"Allow a call of the tool {tool} on server {server}?", "", f"Tool: {tool}", f"Server: {server}"]
    lines.append(f"Title: {title_phrase(title, title_origin)}")
    if does is not None:
        lines.append(f"What this call does (judged from its arguments): {does}")
    if len(shown) > ARGUMENTS_SHOWN:
        cut = len(shown) - ARGUMENTS_SHOWN
        lines.append(
            f"Arguments: {len(shown):,} characters of JSON, too long for this question: the first "
            f"{ARGUMENTS_SHOWN:,} are shown and the last {cut:,} are CUT. See the call whole in {WHOLE_CALL_AT} "
            f"before you approve.\n{shown[:ARGUMENTS_SHOWN]}\n… ({cut:,} characters cut)"
        )
    else:
        lines.append(f"Arguments (all of them):\n{shown}")
    if warnings:
        lines += ["", *(f"⚠ {w}" for w in warnings)]
    lines += ["", f"Why hintgate asks: {reason}"]
    return "\n".join(lines)


def approval_form(message: str, *, for_session: bool = True) -> dict[str, Any]:
    """`elicitation/create` params in form mode: one required choice, deny by default.

    Args:
        message: the question.
        for_session: offer "Approve for this session". Not on the 2026-07-28
            protocol, which has no session a client could not claim: another
            client declaring the same name and version would inherit it.
    """
    choices = [(value, label) for value, label in _CHOICES if for_session or value is not Answer.APPROVE_SESSION]
    what = (
        "Approve this call once, approve this tool for the rest of the session, or deny."
        if for_session
        else "Approve this call once, or deny. (This protocol has no session to approve the tool for.)"
    )
    return {
        "mode": "form",
        "message": message,
        "requestedSchema": {
            "type": "object",
            "properties": {
                "decision": {
                    "type": "string",
                    "title": "Decision",
                    "description": what,
                    "oneOf": [{"const": value.value, "title": label} for value, label in choices],
                    "default": Answer.DENY.value,
                }
            },
            "required": ["decision"],
        },
    }


def answer_from_elicitation(result: Mapping[str, Any] | None) -> Answer:
    """Read an `ElicitResult`: only an accepted form with a known choice approves; anything else denies."""
    if not isinstance(result, Mapping) or result.get("action") != "accept":
        return Answer.DENY
    content = result.get("content")
    choice = content.get("decision") if isinstance(content, Mapping) else None
    try:
        return Answer(str(choice))
    except ValueError:
        return Answer.DENY


_NO_DASHBOARD = "no dashboard is served to answer it: run `hintgate serve --dashboard HOST:PORT` to answer in a browser"


def where_to_answer(url: str | None, command: str | None) -> str:
    """Where a person answers a queued call, for the line logged when it is queued."""
    ways = [f"at {url}" for url in [url] if url]
    ways += [f"with `{command}` in another terminal" for command in [command] if command]
    return f"answer it {' or '.join(ways)}" if ways else _NO_DASHBOARD


def denial(
    tool: str, outcome: Outcome, *, asked_via: str | None, refusal: str | None, timeout: float, reason: str
) -> str:
    """The tool error a caller gets when hintgate asked and the call does not run: what happened, and why it asked."""
    if outcome.withdrawn is not None:
        how = f"it was withdrawn: {outcome.withdrawn}"
    elif outcome.timed_out and asked_via == "input-required":
        how = f"the answer came after the question expired (no one answered in {timeout:g} s), so it did not run"
    elif outcome.timed_out:
        how = f"it expired: no one answered in {timeout:g} s, so it did not run"
    elif outcome.actor == "unattended":
        how = f"denied it at once: {UNATTENDED}"
    elif refusal is not None:
        how = f"it refused the answer: {refusal}"
    else:
        how = f"it was denied ({outcome.actor})" + (f": {outcome.note}" if outcome.note else "")
    return f"hintgate asked before running {tool!r} and {how}. Why it asked: {reason}"
