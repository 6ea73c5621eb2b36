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

import json
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from hintgate.hints.annotations import Hint
from hintgate.hints.calls.judgement import Act, Judgement, shorten
from hintgate.hints.calls.verbs import ACTION_WORDS, runs, verb_act
from hintgate.hints.inference.http_method import method_hints
from hintgate.hints.inference.naming import lookup_verb, tokenize
from hintgate.scan.deferred import compiled

__all__ = ["HTTP_METHODS", "judge_action", "judge_method", "judge_rpc"]

HTTP_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE", "TRACE", "CONNECT"})
"""The methods of HTTP (RFC 9110)."""


def judge_method(
    value: str,
    parameter: str,
    target: str | None = None,
    body: Any = None,
    headers: Any = None,
    *,
    overrides: bool = True,
) -> Judgement | None:
    """What a request with HTTP method `value` (to `target`, a URL or path, carrying `body`) does; None for an
    unknown method.

    The method's profile, then what the path's last word says the endpoint does: a GET to `.../sendMessage` sends
    (an RPC-style API acting on GET), a GET to `.../unsubscribe` removes, a POST to `.../_search`, `.../query` or
    `.../translate` reads, a POST to `.../_delete_by_query` deletes, a request to an endpoint that runs a job
    (`.../build`, `.../trigger`, `.../run`) runs steps the call does not show (destructive), and a POST to a path
    that ends in an object's id changes that object. A POST to a webhook or a dispatch endpoint (`/hooks/...`,
    `.../dispatches`) starts a workflow it does not show: destructive. A POST carrying a GraphQL document does what
    its operation does (`graphql.judge_graphql`). A dry-run query parameter (Kubernetes' `?dryRun=All`) persists
    nothing: a read. A method-override header (`X-HTTP-Method-Override: DELETE`) names the method a server that
    honours it applies, as does a `_method` parameter in the query string or the body (frameworks' override): the
    riskier of the two is judged. A body that holds a SQL statement that writes (itself, or a
    `sql`/`query`/`statement` member) does what the statement does.
    """
    method = value.strip().upper()
    hints = method_hints(method)
    if not hints:
        return None
    override = (_override(headers) or _method_parameter(target, body)) if overrides else None
    if override is not None and override != method and method_hints(override):
        judged = [judge_method(m, parameter, target, body, overrides=False) for m in (method, override)]
        return max((j for j in judged if j is not None), key=lambda j: j.act)
    if hints[Hint.READ_ONLY].value:
        act = Act.READ
    else:
        act = Act.DESTRUCTIVE if hints[Hint.DESTRUCTIVE].value else Act.ADDITIVE
    idempotent = hints[Hint.IDEMPOTENT].value
    what = f"an HTTP {method} request" + (f" to {shorten(target, 60)}" if target else f" ({parameter})")
    if target and _dry_run_query(target):
        return Judgement(Act.READ, f"{what} (a dry run)", "http.method", True, True)
    if method == "POST" and body is not None:
        from hintgate.hints.calls.graphql import judge_graphql

        operation = judge_graphql(body)
        if operation is not None:
            return Judgement(operation.act, f"{what}: {operation.what}", operation.rule, operation.idempotent, True)
    if method == "PATCH" and _appends_only(body):
        return Judgement(Act.ADDITIVE, f"{what} (a JSON Patch that appends)", "http.method", False, True)
    if method == "POST" and target and _triggers(target):
        # A webhook or a dispatch endpoint starts what its owner set up; the request does not show it.
        return Judgement(Act.DESTRUCTIVE, f"{what} (triggers a workflow)", "http.method", False, True)
    endpoint = _endpoint(target) if target else None
    if endpoint is not None:
        word, is_id = endpoint
        found = _endpoint_act(word)
        verb, name = found if found is not None else (None, "")
        if method == "POST" and is_id:
            return Judgement(Act.DESTRUCTIVE, f"{what} (changes the object it names)", "http.method", False, True)
        if verb is Act.READ and method == "POST" and name not in _POST_READS:
            verb = None  # `POST .../capture`, `.../print`, `.../check`: a read word that acts when posted
        if verb is not None and method in {"GET", "POST"} and (verb is not Act.READ or method == "POST"):
            act, idempotent = verb, verb is Act.READ
        if method == "POST" and _RPC_SEGMENT.fullmatch(word):
            # `POST /api/conversations.history`: an RPC method named in the path (Slack's Web API) does what
            # its name's verb says, a read included.
            named = judge_rpc(word, "path")
            if named is not None:
                act, idempotent = named.act, named.act is Act.READ
    statement = _statement_in(body)
    if statement is not None and statement.act > act:
        # `POST .../query {"sql": "DELETE FROM t"}`: the endpoint runs the statement it is sent.
        return Judgement(statement.act, f"{what}: {statement.what}", "http.method", statement.idempotent, True)
    return Judgement(act, what, "http.method", True if act is Act.READ else idempotent, True)


_STATEMENT_MEMBERS = frozenset({"sql", "query", "statement", "stmt", "q"})


def _statement_in(body: Any) -> Judgement | None:
    """What a SQL write statement a request body holds does: the body itself, or a member named for a
    statement or a query; None when it holds none plainly (a search string, JSON data)."""
    from hintgate.hints.calls.sql import judge_sql, opens_a_write

    texts: list[Any] = [body]
    if isinstance(body, Mapping):
        texts = [v for k, v in body.items() if isinstance(k, str) and k.lower() in _STATEMENT_MEMBERS]
    found = [judge_sql(t) for t in texts if isinstance(t, str) and opens_a_write(t)]
    return max(found, key=lambda j: j.act) if found else None


def _method_parameter(target: str | None, body: Any) -> str | None:
    """The method a `_method` parameter names (frameworks' method override, in the query string or a form or
    JSON body), if one."""
    from urllib.parse import parse_qs, urlsplit

    found: list[str] = []
    if target:
        found += parse_qs(urlsplit(target).query).get("_method", [])
    if isinstance(body, Mapping) and isinstance(body.get("_method"), str):
        found.append(body["_method"])
    elif isinstance(body, str) and "_method=" in body:
        found += parse_qs(body).get("_method", [])
    return found[0].strip().upper() if found else None


# An object's id: a number, a hex or UUID, a prefixed id with a digit or a capital in it (`cus_NffrFeUfNV2Hib`,
# not the word pair `list_folder`), a path template's `{id}` or `:id`.
_ID = compiled(
    r"^(?:\d+|[0-9a-fA-F]{8,}(?:-[0-9a-fA-F]{4,}){0,4}|[a-z]{2,5}_(?=[a-z0-9]*[0-9A-Z])[A-Za-z0-9]{6,}"
    r"|\{[^}]*\}|:[a-z_]+)$"
)
_VERSION = compiled(r"^v\d+(?:\.\d+)*(?:(?:alpha|beta)\d*)?$|^\d{4}-\d{2}-\d{2}$", re.I)


_OVERRIDES = frozenset({"x-http-method-override", "x-http-method", "x-method-override"})


def _override(headers: Any) -> str | None:
    """The method a method-override header names, if the request carries one."""
    if not isinstance(headers, Mapping):
        return None
    for name, value in headers.items():
        if isinstance(name, str) and name.lower() in _OVERRIDES and isinstance(value, str):
            return value.strip().upper()
    return None


def _appends_only(body: Any) -> bool:
    """Whether a JSON Patch (RFC 6902) only appends to arrays: every operation an `add` to a path ending in
    `/-`. An `add` elsewhere replaces a member that exists; any other operation changes what is there."""
    if isinstance(body, str) and body.lstrip().startswith("["):
        try:
            body = json.loads(body)
        except ValueError:
            return False
    if not isinstance(body, list) or not body:
        return False
    return all(
        isinstance(op, Mapping) and op.get("op") == "add" and str(op.get("path", "")).endswith("/-") for op in body
    )


_DRY_RUN_NAMES = frozenset({"dryrun", "preview", "whatif", "simulate"})


def _dry_run_query(target: str) -> bool:
    """Whether the URL asks for a dry run (`?dryRun=All`, `?dry_run=true`, `?preview=true`): validated or
    shown, nothing persisted."""
    query = urlsplit(target).query if "://" in target else target.partition("?")[2]
    for name, value in parse_qsl(query, keep_blank_values=True):
        if "".join(tokenize(name)) in _DRY_RUN_NAMES and value.strip().lower() not in {"", "false", "0", "no", "none"}:
            return True
    return False


def _endpoint(target: str) -> tuple[str, bool] | None:
    """The last word of a URL's path that names something, and whether an id follows it as the path's end.

    An API version (`v2`, `2010-04-01`) names nothing and is passed over."""
    path = urlsplit(target).path if "://" in target else target.split("?", 1)[0]
    segments = [unquote(s) for s in path.split("/") if s and not _VERSION.match(unquote(s))]
    if not segments:
        return None
    ends_in_id = bool(_ID.match(segments[-1])) and len(segments) > 1
    words = [s for s in segments if not _ID.match(s)]
    return (words[-1], ends_in_id) if words else None


_TRIGGER_WORDS = frozenset({"hook", "hooks", "webhook", "webhooks", "dispatches"})


def _triggers(target: str) -> bool:
    """Whether a URL or path names a webhook or a dispatch endpoint (`/hooks/...`, `.../dispatches`)."""
    path = urlsplit(target).path if "://" in target else target.split("?", 1)[0]
    return any(w in _TRIGGER_WORDS for s in path.split("/") if s for w in tokenize(unquote(s)))


# Endpoints that run a job (a CI build, a pipeline, a function): what the job does is not in the request.
_RUNS_A_JOB = frozenset({"build", "trigger", "dispatch", "run", "execute", "exec", "invoke", "call", "eval"})


def _endpoint_act(segment: str) -> tuple[Act, str] | None:
    """What an endpoint named `segment` does by its first verb (`sendMessage` sends, `_search` reads), and
    the verb.

    A batch endpoint (`_bulk`, `batch`) carries operations of any kind in its body: destructive; so does one
    that runs a job.
    """
    words = tokenize(segment)
    if words and words[0] in {"bulk", "batch"}:
        return Act.DESTRUCTIVE, words[0]
    for word in words:
        if word in _RUNS_A_JOB:
            return Act.DESTRUCTIVE, word
        verb = lookup_verb(word)
        if verb is not None and verb.opaque:
            return None
        found = verb_act(word) if verb is not None or word in ACTION_WORDS else None
        if found is not None:
            return found[0], word
    return None


# Words that name a read even when posted: searches, queries and computations whose answer is the response
# (Elasticsearch `_search`, Jira `/search`, Dropbox's and Slack's RPC-style `list`/`get` over POST).
_POST_READS = frozenset(
    {"search", "query", "find", "lookup", "count", "validate", "estimate", "calculate", "compute", "preview"}
    | {"explain", "analyze", "analyse", "translate", "transliterate", "detect", "classify", "tokenize"}
    | {"summarize", "summarise", "compare", "diff", "render", "parse", "lint", "get", "list", "read", "fetch"}
    | {"show", "describe", "view", "retrieve", "echo", "presign"}
)


_RPC_SEGMENT = compiled(r"[a-z]+(?:\.[a-z][A-Za-z]*)+")
"""A path segment that names a method as `noun.verb` (`conversations.history`, `chat.postMessage`), no file
name (`report.pdf` has no verb after its dot)."""
_RPC_NAME = compiled(r"[A-Za-z_][\w]*(?:[./][A-Za-z_][\w]*)*")


def judge_rpc(value: Any, parameter: str) -> Judgement | None:
    """What a call of a remote procedure named `value` does, by its name's last part (`chat.postMessage`
    posts, `users.lookupByEmail` and `eth_getBalance` read, `execute_kw` runs): a method name, a JSON-RPC
    request object (`{"jsonrpc": "2.0", "method": ...}`) or a batch of them (the riskiest). None when a name
    says nothing hintgate knows (the tool's hints stand)."""
    if isinstance(value, list):
        parts = [judge_rpc(v, parameter) for v in value] if value else [None]
        known = [p for p in parts if p is not None]
        if len(known) != len(parts):
            return None
        worst = max(known, key=lambda j: j.act)
        return Judgement(worst.act, f"a batch of {len(known)}: {worst.what}", worst.rule, None)
    name = value.get("method") if isinstance(value, Mapping) else value
    if not isinstance(name, str) or not _RPC_NAME.fullmatch(name.strip()):
        return None
    pieces = re.split(r"[./]", name.strip())
    found = _endpoint_act(pieces[-1])
    # `conversations.mark`: the verb last, what it acts on before it ("mark conversations" replaces a state).
    named = verb_act(f"{pieces[-1]}_{pieces[-2]}") if len(pieces) > 1 else None
    if found is None and named is None:
        return None
    act = max(a for a in (found[0] if found else None, named[0] if named else None) if a is not None)
    return Judgement(act, f"{parameter} {shorten(name, 60)!r}", "rpc.method", True if act is Act.READ else None)


def judge_action(value: str, parameter: str) -> Judgement | None:
    """What an action named `value` does, by its verb; None when it names no verb hintgate knows."""
    found = verb_act(value)
    if found is None:
        return None
    act, idempotent, open_world = found
    what = f"{parameter} {value!r}" + (" (runs)" if runs(value) else "")
    return Judgement(act, what, "action", idempotent, open_world)
