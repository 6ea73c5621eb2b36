"""What a verb does when it names what one call does: an action's value, an endpoint's or a command's name.

Pure. The name lexicon (`hints.inference.naming`) gives a verb's class in
general English; a call's verb is judged from it, with words the lexicon
does not hold (command-line and queue verbs, Redis's commands as its
documentation classes them, nouns that name what a call shows), and two
readings a tool name does not need: a transition that takes back what one
added (`unstar`, `unsubscribe`) removes it, marking a state (`mark_read`,
`mark_as_spam`) replaces the state the item had, and a relative change
(`incr`, `toggle`) does more on each repeat.
"""

from __future__ import annotations

from collections.abc import Mapping

from hintgate.hints.annotations import Hint
from hintgate.hints.calls.judgement import Act
from hintgate.hints.inference.naming import parse_name

__all__ = ["ACTION_WORDS", "runs", "verb_act"]


def _words(text: str, act: Act, idempotent: bool | None = None) -> dict[str, tuple[Act, bool | None]]:
    return dict.fromkeys(text.split(), (act, True if act is Act.READ else idempotent))


ACTION_WORDS: Mapping[str, tuple[Act, bool | None]] = {
    # Words for actions outside the name lexicon: command-line, queue and key-value verbs of general use
    # (Redis's commands as its documentation classes them, @read or @write), and nouns that name what a
    # call shows (`stats`, `health`).
    **_words(
        "stat stats statistics metrics health usage version peek exists ls cat head tail tree info status lookup "
        "history summary ttl pttl expiretime keys scan type strlen llen lrange lindex hget hmget hgetall hkeys hvals "
        "hlen hexists smembers scard sismember zrange zscore zcard zrank mget dbsize whatif what-if",
        Act.READ,
    ),
    # Computations: a pre-signed URL is made from a key and a secret, a translation from a text; nothing stored.
    **_words("presign translate transliterate detect classify tokenize", Act.READ),
    **_words("mkdir makedir enqueue push draft lpush rpush sadd zadd xadd setnx", Act.ADDITIVE),
    **_words("rm rmdir mv dequeue consume ack chmod trash hdel lrem srem zrem unlink", Act.DESTRUCTIVE, True),
    **_words("pop lpop rpop spop", Act.DESTRUCTIVE, False),
    **_words("hset mset expire persist flushdb flushall", Act.DESTRUCTIVE, True),
    # A relative change (a counter, a flip) does more on each repeat.
    **_words("incr decr incrby decrby incrbyfloat hincrby toggle", Act.DESTRUCTIVE, False),
    # Archiving takes a thing out of where it was (an inbox, a list): a change to what exists.
    **_words("archive", Act.DESTRUCTIVE, True),
    # Voiding or annulling a thing (an invoice, a payment, an order) cancels it: what it was is gone.
    **_words("void annul rescind nullify", Act.DESTRUCTIVE, True),
}
"""Words of actions outside the name lexicon, with what they do and whether a repeat changes nothing more."""


# Read words of the lexicon that as a call's whole action as often act: capturing a payment or a
# screenshot, taking a snapshot or a lock, printing a page or a document,
# checking a box or a health. Not judged alone: the tool's own hints stand.
_AMBIGUOUS = frozenset({"capture", "take", "print", "check"})


def verb_act(value: str) -> tuple[Act, bool | None, bool | None] | None:
    """What a verb (an action's value, an endpoint's or an operation's name) does: its act, whether a repeat
    changes nothing more, whether it reaches the open world; None when it names no verb hintgate knows.

    A transition that takes back what one added (`unstar`, `unsubscribe`, `unfollow`) removes it: destructive.
    """
    word = value.strip().lower()
    if word in ACTION_WORDS:
        act, idempotent = ACTION_WORDS[word]
        return act, idempotent, None
    if word in _AMBIGUOUS:
        return None
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
        if verb.rule == "name.verb.transition" and (parts.verb or "").startswith("un"):
            destructive = True
        if verb.rule == "name.verb.transition" and parts.verb == "mark" and parts.object:
            destructive = True  # "mark read", "mark as spam": the state it names replaces the one the item had
        act = max(act, Act.DESTRUCTIVE if destructive else Act.ADDITIVE)
        idempotent = idempotent and values.get(Hint.IDEMPOTENT) is True
    open_world = any(v.values.get(Hint.OPEN_WORLD) is True for v in known) or None
    return act, (idempotent if act is not Act.READ else True), open_world


def runs(value: str) -> bool:
    """Whether an action named `value` runs something (`run`, `exec`): its other arguments are what it runs."""
    parts = parse_name(value)
    return any(v is not None and v.rule == "name.verb.execute" for v in (parts.verb_class, *parts.later_writes))
