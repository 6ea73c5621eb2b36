"""What a call does from a chosen value: an HTTP method, an action's name, a flag that changes the risk.

Pure.

- An HTTP method (`GET`, `post`...) has the profile hintgate gives OpenAPI
  operations (`hints.inference.http_method`, conservative: GET, HEAD and
  OPTIONS read; POST adds; PUT, PATCH and DELETE are destructive).
- An action's value (`read`, `list`, `append`, `write`, `delete`, `move`...)
  means what its verb means in general English, by the verb lexicon names are
  judged with (`hints.inference.naming`); a value that is not a known verb
  cannot be judged.
- Flags: `dry_run` (and `dryRun`, `--dry-run` spellings) true makes any call a
  read (nothing is changed); `force` or `overwrite` true makes a write destructive.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from hintgate.hints.annotations import Hint
from hintgate.hints.calls.judgement import Act, Judgement, shorten
from hintgate.hints.inference.http_method import method_hints
from hintgate.hints.inference.naming import lookup_verb, parse_name, tokenize

__all__ = ["HTTP_METHODS", "judge_action", "judge_method"]

HTTP_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE", "TRACE", "CONNECT"})
"""The methods of HTTP (RFC 9110)."""


def judge_method(value: str, parameter: str, target: str | None = None) -> Judgement | None:
    """What a request with HTTP method `value` (to `target`, a URL or path) does; None for an unknown method.

    The method's profile, then what the path's last word says the endpoint does: a GET to `.../sendMessage`
    sends (an RPC-style API acting on GET), a POST to `.../_search` or `.../query` reads, a POST to
    `.../_delete_by_query` deletes, and a POST to a path that ends in an object's id changes that object.
    """
    method = value.strip().upper()
    hints = method_hints(method)
    if not hints:
        return None
    if hints[Hint.READ_ONLY].value:
        act = Act.READ
    else:
        act = Act.DESTRUCTIVE if hints[Hint.DESTRUCTIVE].value else Act.ADDITIVE
    idempotent = hints[Hint.IDEMPOTENT].value
    what = f"an HTTP {method} request" + (f" to {shorten(target, 60)}" if target else f" ({parameter})")
    endpoint = _endpoint(target) if target else None
    if endpoint is not None:
        word, is_id = endpoint
        verb = _endpoint_act(word)
        if method == "POST" and is_id:
            return Judgement(Act.DESTRUCTIVE, f"{what} (changes the object it names)", "http.method", False, True)
        if verb is not None and method in {"GET", "POST"} and (verb is not Act.READ or method == "POST"):
            act, idempotent = verb, verb is Act.READ
    return Judgement(act, what, "http.method", True if act is Act.READ else idempotent, True)


_ID = re.compile(r"^(?:\d+|[0-9a-f]{8,}(?:-[0-9a-f]{4,}){0,4}|[a-z]{2,5}_[A-Za-z0-9]{6,}|\{[^}]*\}|:[a-z_]+)$", re.I)


def _endpoint(target: str) -> tuple[str, bool] | None:
    """The last word of a URL's path that names something, and whether an id follows it as the path's end."""
    path = urlsplit(target).path if "://" in target else target.split("?", 1)[0]
    segments = [unquote(s) for s in path.split("/") if s]
    if not segments:
        return None
    ends_in_id = bool(_ID.match(segments[-1])) and len(segments) > 1
    words = [s for s in segments if not _ID.match(s)]
    return (words[-1], ends_in_id) if words else None


def _endpoint_act(segment: str) -> Act | None:
    """What an endpoint named `segment` does by its first verb (`sendMessage` sends, `_search` reads).

    A batch endpoint (`_bulk`, `batch`) carries operations of any kind in its body: destructive.
    """
    words = tokenize(segment)
    if words and words[0] in {"bulk", "batch"}:
        return Act.DESTRUCTIVE
    for word in words:
        verb = lookup_verb(word)
        if verb is None:
            continue
        if verb.opaque:
            return None
        if verb.reads:
            return Act.READ
        destructive = verb.values.get(Hint.DESTRUCTIVE, True)
        return Act.DESTRUCTIVE if destructive else Act.ADDITIVE
    return None


_ACTION_WORDS = {
    # words for actions outside the name lexicon: command-line and queue verbs of general use
    "stat": Act.READ,
    "peek": Act.READ,
    "exists": Act.READ,
    "ls": Act.READ,
    "cat": Act.READ,
    "head": Act.READ,
    "tail": Act.READ,
    "tree": Act.READ,
    "info": Act.READ,
    "status": Act.READ,
    "lookup": Act.READ,
    "mkdir": Act.ADDITIVE,
    "makedir": Act.ADDITIVE,
    "enqueue": Act.ADDITIVE,
    "push": Act.ADDITIVE,
    "rm": Act.DESTRUCTIVE,
    "rmdir": Act.DESTRUCTIVE,
    "mv": Act.DESTRUCTIVE,
    "pop": Act.DESTRUCTIVE,
    "dequeue": Act.DESTRUCTIVE,
    "consume": Act.DESTRUCTIVE,
    "ack": Act.DESTRUCTIVE,
    "chmod": Act.DESTRUCTIVE,
}


def judge_action(value: str, parameter: str) -> Judgement | None:
    """What an action named `value` does, by its verb; None when it names no verb hintgate knows."""
    word = value.strip().lower()
    if word in _ACTION_WORDS:
        act = _ACTION_WORDS[word]
        return Judgement(act, f"{parameter} {value!r}", "action", True if act is Act.READ else None)
    parts = parse_name(value)
    verbs = [parts.verb_class] if parts.verb_class is not None else []
    verbs.extend(parts.later_writes)
    known = [v for v in verbs if v is not None and not v.opaque]
    if not known or len(known) != len(verbs):
        return None
    act = Act.READ
    idempotent = True
    for verb in known:
        values = verb.values
        if values.get(Hint.READ_ONLY) is True:
            continue
        destructive = values.get(Hint.DESTRUCTIVE, True) or "force" in parts.qualifiers
        act = max(act, Act.DESTRUCTIVE if destructive else Act.ADDITIVE)
        idempotent = idempotent and values.get(Hint.IDEMPOTENT) is True
    open_world = any(v.values.get(Hint.OPEN_WORLD) is True for v in known) or None
    runs = " (runs)" if any(v.rule == "name.verb.execute" for v in known) else ""
    what = f"{parameter} {value!r}{runs}"
    return Judgement(act, what, "action", idempotent if act is not Act.READ else True, open_world)
