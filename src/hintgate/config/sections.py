"""The top of a config file: its settings sections, and the walk over the whole file.

`read_file` checks the top-level keys, hands each source section to its type's
validator (`hintgate.config.types.SOURCE_TYPES`) and each settings section
(inference, timeouts, limits, env, integrity, identity, metrics, search, views,
policy) to its reader here, then builds the `GatewayConfig`, or raises one
`ConfigError` listing every problem. What the readers share (the problems
found, the value readers, the values read so far) is `hintgate.config.reader.Reader`.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from hintgate.config.model import (
    SIGNING_ALGORITHMS,
    GatewayConfig,
    IdentityConfig,
    ListingLimits,
    Timeouts,
    Trust,
    closest,
    freeze,
)
from hintgate.config.reader import Reader, located_error, shown
from hintgate.config.yamlpos import Key, format_path
from hintgate.discovery.served import SearchMode, SearchSettings
from hintgate.discovery.views import BUILTIN_VIEWS, VIEW_NAME, View
from hintgate.errors import ConfigError
from hintgate.hints.annotations import Tier
from hintgate.hints.inference import PROFILES
from hintgate.policy.roles import People
from hintgate.policy.rules import parse_policy

TIMEOUT_KEYS: Mapping[str, str] = {
    "call": "call",
    "startup": "startup",
    "list": "list",
    "sessionIdle": "session_idle",
    "sessionFirstRequest": "session_first_request",
}
"""The `timeouts` section's keys, each with the `Timeouts` field it sets."""

LIMIT_KEYS: Mapping[str, str] = {"toolsPerServer": "tools_per_server", "textLength": "text_length"}
"""The `limits` section's keys, each with the `ListingLimits` field it sets."""

SECTION_KEYS: Mapping[str, tuple[str, ...]] = {
    "inference": ("profile",),
    "timeouts": tuple(TIMEOUT_KEYS),
    "limits": tuple(LIMIT_KEYS),
    "env": ("allow",),
    "integrity": ("onChange", "onResultFinding", "pins", "scanDeadline"),
    "identity": (
        "issuer",
        "audience",
        "userClaim",
        "groupsClaim",
        "algorithms",
        "clockSkew",
        "scopes",
        "dashboardClient",
        "requireTokenType",
        "clients",
        "admins",
        "auditors",
        "personClaim",
        "assignedClaims",
    ),
    "metrics": ("byUser",),
    "search": ("mode", "alwaysList"),
}
"""The keys each settings section takes (`views` holds views by name: `VIEW_KEYS`); the docs test reads them."""

VIEW_KEYS = ("tiers", "servers", "tools", "tags", "trust")
"""The keys of one view under `views`."""

PEOPLE_KEYS = ("user", "group")
"""The keys of `{user: ..., group: ...}`: `identity.admins` and `identity.auditors`."""

# Top-level keys other clients keep in the same file: VS Code's prompted
# inputs, Claude Desktop's app settings.
FOREIGN_TOP_KEYS = frozenset({"inputs", "globalShortcut", "preferences"})


SectionReader = Callable[[Reader, Any, tuple[Key, ...]], None]
"""Reads one top-level section of the file into the `Reader`: (the reader, the section's value, its path)."""


def read_file(reader: Reader, data: Any) -> GatewayConfig:
    """Check the whole decoded file and build its `GatewayConfig`; every problem found is in one `ConfigError`."""
    for path, mark, first in reader.positions.duplicates:
        reader.error(path, f"duplicate key (first given on line {first[0]})", at=mark)
    if data is None:
        reader.error((), "the file is empty; expected a mapping with an mcpServers key")
    elif (top := reader.mapping(data, (), "a mapping with an mcpServers key at the top")) is not None:
        _top(reader, top)
        if "identity" not in top:
            for path in reader.per_user:
                reader.error(
                    path,
                    "a login per person needs people: add an identity section (issuer, audience), "
                    "or remove perUser to share one login",
                )
            if reader.metrics_by_user:
                reader.warn(
                    ("metrics", "byUser"),
                    "no identity section, so no call has a person: the user label is empty",
                    key=True,
                )
            _people_without_identity(reader)
        for name, view in reader.views.items():
            for server in sorted(view.servers or ()):
                if server not in reader.sources:
                    hint = closest(server, reader.sources)
                    reader.warn(("views", name, "servers"), f'no source is named "{server}"{hint}')
    if reader.problems:
        reader.problems.sort(key=lambda p: p[0])
        lines = "\n".join(text for _, text, _ in reader.problems)
        raise located_error(reader.source, lines, format_path(reader.problems[0][2]) or None)
    return GatewayConfig(
        sources=freeze(reader.sources),
        inference_profile=reader.profile,
        timeouts=reader.timeouts,
        limits=reader.limits,
        env_allow=reader.env_allow,
        on_change=reader.on_change,
        on_result_finding=reader.on_result_finding,
        scan_deadline=reader.scan_deadline,
        pins_file=reader.pins_file,
        policy=reader.policy,
        identity=reader.identity,
        metrics_by_user=reader.metrics_by_user,
        search=reader.search,
        views=freeze(reader.views),
        warnings=tuple(text for _, text in sorted(reader.notes, key=lambda n: n[0])),
    )


def _people_without_identity(reader: Reader) -> None:
    """Warn about policy that names people, in a file without an `identity` section: it does nothing.

    Without an identity provider no request has a person: a rule for some users or groups never
    applies, and approvers are not asked who answers (whoever reaches the gateway does).
    """
    settings, rules = reader.policy
    fix = "add an identity section (issuer, audience) so that calls have people"
    for rule in rules:
        at: tuple[Key, ...] = ("policy", "rules", rule.index, rule.effect.value)
        if rule.users or rule.groups:
            reader.warn(
                (*at, "group" if rule.groups else "user"),
                f"this {rule.effect.value} rule names people, but without an identity section no call has "
                f"a person: it never applies; {fix}, or remove user and group",
                key=True,
            )
        elif rule.approvers is not None:
            reader.warn(
                (*at, "approvers" if rule.approvers.users or rule.approvers.groups else "selfApproval"),
                f"approvers name who answers, but without an identity section there are no people: whoever "
                f"reaches the dashboard, the REST API or the client answers; {fix}",
                key=True,
            )
    if settings.approvers is not None:
        named = settings.approvers.users or settings.approvers.groups
        reader.warn(
            ("policy", "approvers" if named else "selfApproval"),
            "names who answers, but without an identity section there are no people: whoever reaches the "
            f"dashboard, the REST API or the client answers; {fix}",
            key=True,
        )


def _top(reader: Reader, top: Mapping[str, Any]) -> None:
    sections: dict[str, SectionReader] = dict(SETTINGS_SECTIONS)
    for row in reader.types:
        for spelling in (row.key, *row.aliases):
            sections[spelling] = row.read
            if spelling != row.key and spelling in top and row.key in top:
                reader.error((spelling,), f'both "{row.key}" and "{spelling}" are given; use one', key=True)
    sections["policy"] = read_policy
    for k, v in top.items():
        if k in sections or k in FOREIGN_TOP_KEYS or k.startswith("x-") or k == "$schema":
            continue
        hint = closest(k, sections)
        if isinstance(v, Mapping) and ("command" in v or "url" in v):
            hint = "; servers go under mcpServers"
        reader.error((k,), f'unknown key "{k}"{hint}', key=True)
    # Sections run in this order, not file order: sources read the default timeouts,
    # and a name or prefix given twice is reported at the entry of the later section.
    aliases = {alias: row.key for row in reader.types for alias in row.aliases}
    for name, section in sections.items():
        if name in top and aliases.get(name) not in top:
            section(reader, top[name], (name,))


def read_policy(reader: Reader, value: Any, path: tuple[Key, ...]) -> None:
    # The policy section has its own reader (policy.rules); every problem it found is reported here.
    try:
        reader.policy = parse_policy(value, source=reader.source, path=".".join(str(p) for p in path))
    except ConfigError as exc:
        for where, message in ((exc.path, exc.message), *exc.others):
            reader.error(_policy_path(where, path), message)


def _section(read: Callable[[Reader, Mapping[str, Any], tuple[Key, ...]], None]) -> SectionReader:
    """A settings section's reader: `read` gets the section as a mapping, its unknown keys reported
    (`SECTION_KEYS`); a section that is not a mapping is reported, and not read further."""

    @functools.wraps(read)
    def read_section(reader: Reader, value: Any, path: tuple[Key, ...]) -> None:
        m = reader.mapping(value, path)
        if m is not None:
            reader.keys(m, path, SECTION_KEYS[str(path[-1])])
            read(reader, m, path)

    return read_section


@_section
def read_inference(reader: Reader, m: Mapping[str, Any], path: tuple[Key, ...]) -> None:
    if (name := _choice(reader, m, path, "profile", tuple(PROFILES))) is not None:
        reader.profile = name


@_section
def read_timeouts(reader: Reader, m: Mapping[str, Any], path: tuple[Key, ...]) -> None:
    got = {attr: reader.seconds(m[key], (*path, key)) for key, attr in TIMEOUT_KEYS.items() if key in m}
    reader.timeouts = Timeouts(**{k: v for k, v in got.items() if v is not None})


@_section
def read_limits(reader: Reader, m: Mapping[str, Any], path: tuple[Key, ...]) -> None:
    got: dict[str, int] = {}
    for key, attr in LIMIT_KEYS.items():
        if key not in m:
            continue
        given = m[key]
        if isinstance(given, bool) or not isinstance(given, int) or given < 1:
            reader.error((*path, key), f"expected a whole number of 1 or more, got {json.dumps(given)}")
        else:
            got[attr] = given
    reader.limits = ListingLimits(**got)


@_section
def read_env(reader: Reader, m: Mapping[str, Any], path: tuple[Key, ...]) -> None:
    if "allow" in m and (names := reader.strings(m["allow"], (*path, "allow"))) is not None:
        for i, n in enumerate(names):
            if not n or "=" in n:
                reader.error((*path, "allow", i), f"expected a variable name, got {json.dumps(n)}")
        reader.env_allow = names


@_section
def read_integrity(reader: Reader, m: Mapping[str, Any], path: tuple[Key, ...]) -> None:
    if "scanDeadline" in m and (deadline := reader.seconds(m["scanDeadline"], (*path, "scanDeadline"))) is not None:
        reader.scan_deadline = deadline
    if (act := _choice(reader, m, path, "onResultFinding", ("mark", "redact", "block"))) is not None:
        reader.on_result_finding = act
    if (how := _choice(reader, m, path, "onChange", ("ask", "hide"))) is not None:
        reader.on_change = how
    if "pins" in m and (file := reader.string(m["pins"], (*path, "pins"), empty=False)) is not None:
        # A relative path means relative to the config file.
        reader.pins_file = Path(file).expanduser() if reader.base is None else reader.base / Path(file).expanduser()


@_section
def read_metrics(reader: Reader, m: Mapping[str, Any], path: tuple[Key, ...]) -> None:
    if "byUser" in m and (flag := reader.boolean(m["byUser"], (*path, "byUser"))) is not None:
        reader.metrics_by_user = flag


@_section
def read_search(reader: Reader, m: Mapping[str, Any], path: tuple[Key, ...]) -> None:
    mode = SearchMode.AUTO
    if "mode" in m and (given := reader.string(m["mode"], (*path, "mode"))) is not None:
        if given in {m.value for m in SearchMode}:
            mode = SearchMode(given)
        else:
            choices = ", ".join(json.dumps(v.value) for v in SearchMode)
            reader.error((*path, "mode"), f"expected one of {choices}, got {json.dumps(given)}")
    always: tuple[str, ...] = ()
    if "alwaysList" in m and (names := reader.strings(m["alwaysList"], (*path, "alwaysList"))) is not None:
        always = names
        if mode is not SearchMode.ONLY:
            reader.warn((*path, "alwaysList"), f'read only when mode is "only" (it is "{mode.value}")', key=True)
    reader.search = SearchSettings(mode=mode, always_list=always)


def read_views(reader: Reader, value: Any, path: tuple[Key, ...]) -> None:
    m = reader.mapping(value, path, "a mapping of view names to views")
    if m is None:
        return
    for name, spec in m.items():
        here = (*path, name)
        if name in BUILTIN_VIEWS:
            reader.error(here, f'"{name}" is a built-in view; give yours another name', key=True)
            continue
        if not VIEW_NAME.fullmatch(name):
            reader.error(
                here,
                'a view name is one URL path segment: letters, digits, "_", "." and "-", '
                "at most 64 characters, starting with a letter or digit",
                key=True,
            )
            continue
        view = _view(reader, name, spec, here)
        if view is not None:
            reader.views[name] = view


def _view(reader: Reader, name: str, spec: Any, path: tuple[Key, ...]) -> View | None:
    m = reader.mapping(spec, path, "a view: a mapping of tiers, servers, tools, tags, trust")
    if m is None:
        return None
    before = len(reader.problems)
    reader.keys(m, path, VIEW_KEYS)
    got: dict[str, tuple[str, ...]] = {}
    for key in VIEW_KEYS:
        if key in m and (items := reader.strings(m[key], (*path, key))) is not None:
            got[key] = items
    for key, kind in (("tiers", Tier), ("trust", Trust)):
        allowed = [member.value for member in kind]
        for i, item in enumerate(got.get(key, ())):
            if item not in allowed:
                expected = ", ".join(json.dumps(a) for a in allowed)
                reader.error((*path, key, i), f"expected one of {expected}, got {json.dumps(item)}")
    if len(reader.problems) > before:
        return None
    return View(
        name,
        tiers=frozenset(Tier(t) for t in got["tiers"]) if "tiers" in got else None,
        servers=frozenset(got["servers"]) if "servers" in got else None,
        tools=got.get("tools"),
        tags=frozenset(got["tags"]) if "tags" in got else None,
        trust=frozenset(Trust(t) for t in got["trust"]) if "trust" in got else None,
    )


@_section
def read_identity(reader: Reader, m: Mapping[str, Any], path: tuple[Key, ...]) -> None:
    for required in ("issuer", "audience"):
        if required not in m:
            reader.error(path, f"{required} is required (the {_IDENTITY_NEEDS[required]})")
    issuer = reader.string(m["issuer"], (*path, "issuer"), empty=False) if "issuer" in m else None
    if issuer is not None and (why := _issuer_problem(issuer)) is not None:
        reader.error((*path, "issuer"), why)
        issuer = None
    audience = reader.string(m["audience"], (*path, "audience"), empty=False) if "audience" in m else None
    got: dict[str, Any] = {}
    if "userClaim" in m:
        here = (*path, "userClaim")
        given = m["userClaim"]
        claims = reader.strings([given] if isinstance(given, str) else given, here)
        if claims is not None and claims and all(claims):
            got["user_claims"] = claims
        elif claims is not None:
            reader.error(here, "expected a claim name or a non-empty list of them")
    if "groupsClaim" in m and (claim := reader.string(m["groupsClaim"], (*path, "groupsClaim"), empty=False)):
        got["groups_claim"] = claim
    if "algorithms" in m and (names := reader.strings(m["algorithms"], (*path, "algorithms"))) is not None:
        for i, name in enumerate(names):
            if name not in SIGNING_ALGORITHMS:
                why = (
                    "proves nothing"
                    if name.lower() == "none"
                    else "is a shared-secret algorithm: the issuer's public key would sign tokens"
                    if name.upper().startswith("HS")
                    else "is not a JWT signature algorithm"
                )
                reader.error(
                    (*path, "algorithms", i),
                    f"{json.dumps(name)} {why}; expected one of {', '.join(SIGNING_ALGORITHMS)}",
                )
        if not names:
            reader.error((*path, "algorithms"), "expected at least one algorithm")
        got["algorithms"] = names
    if "clockSkew" in m:
        skew = m["clockSkew"]
        ok = isinstance(skew, int | float) and not isinstance(skew, bool) and math.isfinite(skew)
        if not ok or not 0 <= skew <= 600:
            reader.error((*path, "clockSkew"), f"expected seconds from 0 to 600, got {shown(skew)}")
        else:
            got["clock_skew"] = float(skew)
    if "scopes" in m and (scopes := reader.strings(m["scopes"], (*path, "scopes"))) is not None:
        got["scopes"] = scopes
    if "dashboardClient" in m:
        client = reader.string(m["dashboardClient"], (*path, "dashboardClient"), empty=False)
        if client:
            got["dashboard_client"] = client
    typed = reader.boolean(m["requireTokenType"], (*path, "requireTokenType")) if "requireTokenType" in m else None
    if typed is not None:
        got["require_token_type"] = typed
    if "clients" in m and (clients := reader.strings(m["clients"], (*path, "clients"))) is not None:
        if not all(clients):
            reader.error((*path, "clients"), "expected client ids, not empty strings")
        got["clients"] = tuple(clients)
    for role, attr in (("admins", "admins"), ("auditors", "auditors")):
        if role in m and (people := _people(reader, m[role], (*path, role))) is not None:
            got[attr] = people
    if "admins" not in m:
        reader.warn(
            path,
            "no admins: signed-in people only use the gateway, and only the API token changes it "
            "(name them in identity.admins: {user: ..., group: ...})",
        )
    if "personClaim" in m and (claim := reader.string(m["personClaim"], (*path, "personClaim"), empty=False)):
        got["person_claim"] = claim
    if "assignedClaims" in m:
        assigned = reader.strings(m["assignedClaims"], (*path, "assignedClaims"))
        if assigned is not None and not all(assigned):
            reader.error((*path, "assignedClaims"), "expected claim names, not empty strings")
        elif assigned is not None:
            got["assigned_claims"] = assigned
    if issuer and audience:
        reader.identity = IdentityConfig(issuer=issuer, audience=audience, **got)


def _people(reader: Reader, value: Any, path: tuple[Key, ...]) -> People | None:
    """`{user: NAME or [NAMES], group: GROUP or [GROUPS]}`: people named exactly, or by a group."""
    m = reader.mapping(value, path, "a mapping with user and/or group")
    if m is None:
        return None
    reader.keys(m, path, PEOPLE_KEYS)
    if not m.keys() & set(PEOPLE_KEYS):
        reader.error(path, "expected a user and/or a group")
        return None
    named: dict[str, tuple[str, ...]] = {}
    for key in PEOPLE_KEYS:
        if key not in m:
            continue
        given = m[key]
        here = (*path, key)
        names = reader.strings([given] if isinstance(given, str) else given, here)
        if names is None:
            continue
        if not names or not all(n.strip() for n in names):
            reader.error(here, f"expected a {key} name or a non-empty list of them")
            continue
        for i, name in enumerate(names):
            if key == "user" and any(c in name for c in "*?["):
                at = here if isinstance(given, str) else (*here, i)
                reader.error(at, f"{json.dumps(name)} is a glob; name each person exactly, or use a group")
        named[key] = tuple(n.strip() for n in names)
    return People.of(named.get("user", ()), named.get("group", ()))


SETTINGS_SECTIONS: Mapping[str, SectionReader] = {
    # The sections read before the sources' (`hintgate.config.types`), in this order;
    # policy is read after them.
    "inference": read_inference,
    "timeouts": read_timeouts,
    "limits": read_limits,
    "env": read_env,
    "integrity": read_integrity,
    "identity": read_identity,
    "metrics": read_metrics,
    "search": read_search,
    "views": read_views,
}


def _choice(
    reader: Reader, m: Mapping[str, Any], path: tuple[Key, ...], key: str, allowed: tuple[str, ...]
) -> str | None:
    """The section's `key` when it is one of `allowed`; None when it is not given, or not one (a problem then)."""
    if key not in m or (given := reader.string(m[key], (*path, key))) is None:
        return None
    if given in allowed:
        return given
    *others, last = (json.dumps(choice) for choice in allowed)
    reader.error((*path, key), f"expected {', '.join(others)} or {last}, got {json.dumps(given)}")
    return None


def _policy_path(dotted: str | None, fallback: tuple[Key, ...]) -> tuple[Key, ...]:
    """`policy.rules[2].deny.tier` → ("policy", "rules", 2, "deny", "tier"), for locating the line."""
    if not dotted:
        return fallback
    keys: list[Key] = []
    for part in dotted.split("."):
        name, *indexes = part.split("[")
        if name:
            keys.append(name)
        keys.extend(int(i.rstrip("]")) for i in indexes if i.rstrip("]").isdigit())
    return tuple(keys)


_IDENTITY_NEEDS = {
    "issuer": "OpenID issuer URL of the identity provider",
    "audience": "resource tokens must be issued for: the gateway's public /mcp URL",
}


def _issuer_problem(issuer: str) -> str | None:
    """Why `issuer` cannot be an OpenID issuer: https (http only on loopback), no query or fragment."""
    parts = urlsplit(issuer)
    host = (parts.hostname or "").lower()
    local = host == "localhost" or host.startswith("127.") or host == "::1"
    if parts.scheme != "https" and not (parts.scheme == "http" and local):
        return f"expected an https:// URL (http:// only on this machine), got {json.dumps(issuer)}"
    if not host:
        return f"expected a URL with a host, got {json.dumps(issuer)}"
    if parts.query or parts.fragment:
        return f"an issuer has no query or fragment, got {json.dumps(issuer)}"
    return None
