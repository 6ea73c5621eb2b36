"""What a Redis command line does (`GET key`, `FLUSHALL`, `CONFIG SET ...`), by the command's documented effect.

Pure. Redis documents every command with the categories it belongs to
(`@read`, `@write`, `@dangerous`...); a command is judged by its name's
verb (`verbs.verb_act`, which holds Redis's own read and write commands:
`TTL`, `HGETALL`, `LPUSH`, `INCR`...), and a container command by its
subcommand (`CONFIG GET` reads, `CONFIG SET` changes the server). A command
no table names, or a line that does not split into words, is destructive.
The same for Valkey and KeyDB, which keep Redis's commands.
"""

from __future__ import annotations

import shlex

from hintgate.hints.calls.judgement import Act, Judgement, shorten
from hintgate.hints.calls.verbs import verb_act

__all__ = ["judge_redis"]

R, A, D = Act.READ, Act.ADDITIVE, Act.DESTRUCTIVE

# Container commands whose subcommand says what they do (Redis's command reference); any other subcommand
# of these changes the server or a client.
_SUBCOMMANDS: dict[str, frozenset[str]] = {
    "config": frozenset({"get"}),
    "client": frozenset({"list", "info", "getname", "id", "getredir", "trackinginfo", "no-evict", "no-touch"}),
    "memory": frozenset({"usage", "stats", "doctor", "malloc-stats"}),
    "object": frozenset({"encoding", "freq", "idletime", "refcount", "help"}),
    "script": frozenset({"exists"}),
    "function": frozenset({"list", "dump", "stats"}),
    "cluster": frozenset({"info", "nodes", "slots", "shards", "keyslot", "countkeysinslot", "myid", "links"}),
    "xinfo": frozenset({"stream", "groups", "consumers", "help"}),
    "command": frozenset({"count", "docs", "info", "list", "getkeys", "getkeysandflags", ""}),
    "acl": frozenset({"list", "users", "whoami", "cat", "getuser", "log", "dryrun"}),
    "slowlog": frozenset({"get", "len"}),
    "latency": frozenset({"latest", "history", "graph", "doctor"}),
    "pubsub": frozenset({"channels", "numsub", "numpat", "shardchannels", "shardnumsub"}),
}
# Commands of Redis that read and that the verb table does not hold.
_READS = frozenset(
    {"dump", "randomkey", "xrange", "xrevrange", "xlen", "xread", "lpos", "zrangebyscore", "zrevrange"}
    | {"zcount", "sscan", "hscan", "zscan", "hstrlen", "getrange", "bitcount", "bitpos", "pfcount", "geopos"}
    | {"geodist", "georadius_ro", "geosearch", "srandmember", "zrandmember", "hrandfield", "touch", "lastsave"}
    | {"time", "echo", "role", "wait", "select", "watch", "unwatch", "multi", "discard", "exec", "quit", "auth"}
)
# Commands that write and that the verb table does not hold.
_WRITES = {"getdel": D, "getset": D, "setex": D, "psetex": D, "save": D, "bgsave": D, "bgrewriteaof": D}


def judge_redis(text: str) -> Judgement:
    """What one Redis command line does."""
    shown = shorten(text, 72)
    try:
        words = shlex.split(text)
    except ValueError:
        return Judgement(D, f"a command that does not parse: {shown}", "redis")
    if not words:
        return Judgement(R, "an empty command", "redis", True)
    name = words[0].lower()
    if name in _SUBCOMMANDS:
        sub = words[1].lower() if len(words) > 1 else ""
        read = sub in _SUBCOMMANDS[name]
        return Judgement(R if read else D, shown, "redis", True if read else None)
    if name in _READS:
        return Judgement(R, shown, "redis", True)
    if name in _WRITES:
        return Judgement(_WRITES[name], shown, "redis", True)
    if name == "set" and "nx" in (w.lower() for w in words[3:]):
        # SET ... NX only sets a key that does not exist yet (Redis's documentation): it adds, never replaces.
        return Judgement(A, f"{shown} (only where the key is not set)", "redis", True)
    found = verb_act(name)
    if found is None:
        return Judgement(D, f"{shown} (a command hintgate does not know)", "redis")
    act, idempotent, _open = found
    return Judgement(act, shown, "redis", idempotent)
