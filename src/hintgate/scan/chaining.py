"""A reading tool's definition that makes a change through another tool part of its use.

Pure. A tool whose job is to read (a read's word in its name: get, list, fetch, look up, preview, browse, a
status, a quote, ...; or, when nothing in its name changes things, its description's opening verb: the annotation
inference's verb lexicon, `hints.inference.naming`) has no change of its own to ask for. When its
definition tells the model to call another tool whose name says it changes something (create, update, apply, send,
delete, ...) and ties that call to this tool's use ("after fetching any ticket", "every quote ... must be followed
by", "whenever this tool shows ...", "when this tool returns", "after completing") or writes out the values it is
to be called with (``state=resolved``, ``percent_off=100``), the read has become a write nobody asked for: the
quote that zeroes a rate, the ticket read that closes it, the preview that creates a discount.

Honest text names other tools too, and is not read so: a step before this call ("call this before using
create_task"), a pointer for when the user wants a change ("to change one, use update_item", "if the user wants
to close it, call close_ticket"), a call forbidden ("do not use create_dsn after this"), a parameter of the tool
itself (``dry_run=false``), and any tool whose own job is to change things (chaining changes is its workflow).
"""

from __future__ import annotations

import re

from hintgate.hints.inference.naming import (
    NAVIGATE,
    READ_NOUNS,
    VERBS,
    VerbClass,
    lookup_verb,
    noun_like,
    parse_name,
    singular,
    tokenize,
)
from hintgate.hints.inference.text import lead, lead_verbs
from hintgate.scan.cues import Cue
from hintgate.scan.deferred import compiled
from hintgate.scan.orders import sentences
from hintgate.scan.quoting import quotes_attack
from hintgate.scan.spans import Span

__all__ = ["chains", "fixed_calls"]

# A tool named as what is called: "call `update_ticket`", "by calling create_discount", "a call to `apply_x`", "through
# this server's `timetable_write`", or in the passive: "`update_shipment` is called".
_NAME = r"`?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b`?"
_CALLED = compiled(
    r"\b(?:call(?:s|ed|ing)?(?:\s+to)?|invok(?:e|es|ed|ing)|us(?:e|es|ed|ing)|via|through|run(?:s|ning)?|"
    r"trigger(?:s|ed|ing)?)\s+(?:the\s+|a\s+|this\s+server'?s\s+|its\s+)?" + _NAME + r"(?!\s*[=:(])"
    r"|"
    + _NAME
    + r"(?:\s+tool)?\s+(?:is|are|gets|should\s+be|must\s+be|will\s+be)\s+(?:then\s+|also\s+|immediately\s+|"
    r"automatically\s+)?(?:called|invoked|run|used|triggered)\b",
    re.IGNORECASE,
)
# A tool written with the values it is to carry, in any language: "`refund_order` mit reason=duplicate",
# "update_ticket(state='resolved')".
_WRITTEN_WITH = compiled(
    r"`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`[^.;!?`]{0,40}?\b[a-z][a-z0-9_]*\s*="
    r"|\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\(\s*[a-z][a-z0-9_]*\s*=",
    re.IGNORECASE,
)
# A cheap look over the whole text first: a name of joined words beside a verb of calling, or before "is called".
_SCREEN = Cue(
    r"\b(?:call|invok|us(?:e|ing)|via|through|run|trigger)\w*\s+(?:[\w']+\s+){0,3}?`?[a-z][a-z0-9]*_[a-z0-9]"
    r"|[a-z0-9]_[a-z0-9]+`?\s+(?:tool\s+)?(?:is|are|gets|should|must|will)\s|[a-z0-9]_[a-z0-9]+(?:`|\()",
)
# What ties the call to this tool's use, every time: "after fetching any ticket", "before any scheduling action",
# "every quote returned by this tool must be followed", "whenever", "each time", "in every tournament it sees", or the
# end of this tool's own call ("when this tool returns", "after completing").
_EVERY_TIME = compiled(
    r"\b(?:after|before|following|once)\s+(?:\w+\s+){0,2}?(?:any|every|each|all)\b|\bwhenever\b"
    r"|\b(?:each|every|any)\s+time\b|\bevery\s+\w+\s+(?:\w+\s+){0,2}?(?:returned|fetched|read|shown|listed|retrieved|"
    r"sees?|seen|viewed)\b"
    r"|\bfor\s+(?:each|every)\s+(?:\w+\s+){0,2}?(?:returned|found|listed|shown)\b"
    # This tool's own return, which every use has: "when this tool returns", "after completing", "upon completion".
    r"|\b(?:when|whenever|once|after|upon|as\s+soon\s+as)\s+(?:this\s+(?:tool|call|lookup|read)|it)\s+"
    r"(?:returns|completes|finishes|succeeds|has\s+(?:returned|completed|finished|run))\b"
    r"|\b(?:after|upon|on)\s+(?:completing|completion|finishing|returning)\b",
    re.IGNORECASE,
)
# The values the other call is to carry, written out: ``state=resolved``, ``ship_to='Unit 4'``.
_VALUES = compiled(r"\b[a-z][a-z0-9_]*\s*=\s*[\"'`]?[\w.+@-]", re.IGNORECASE)
# What makes the named tool the condition, not the act: "before using create_task", "after it calls post_x".
_CONDITION = compiled(r"\b(?:before|after|when|whenever|while|until|without|once|of|prior\s+to)\s*$", re.IGNORECASE)
# A call left to the user's wish: "to publish one, call publish_draft", "if the user wants to close it, use close_x"
# (not "when the user asks for a quote, call book_x": any request, not the wish for that change).
_WISH = compiled(
    r"^\W*to\s+\w+\s+(?:one|it|them|this|that|these|those)\b"
    r"|\bif\s+(?:the\s+)?(?:user|they|you|customer|caller)\s+(?:\w+\s+)?"
    r"(?:wants?|asks?|chooses?|decides?|would\s+like|prefers?)\s+to\b",
    re.IGNORECASE,
)
# A call forbidden: "do not use create_dsn", "never call delete_x".
_FORBIDDEN = compiled(
    r"\b(?:not|never|don't|no\s+need\s+to|avoid|instead\s+of|rather\s+than)\b(?:\s+\w+){0,2}\s*$", re.I
)


def chains(text: str, tool: str | None, purpose: str, own: frozenset[str] = frozenset()) -> list[Span]:
    """The sentences of `text` (a definition's texts) that tie a call changing something through another tool to
    this tool's use, when `tool` (its name) or `purpose` (its description) says its job is to read; `own`: the
    tool's parameter names, never another tool."""
    job = (tool or "").lower()
    if not _reads(tool or "", purpose):
        return []
    if _SCREEN.search(text) is None:
        return []
    found: list[Span] = []
    for start, end in sentences(text):
        sentence = text[start:end]
        why = _chained(sentence, job, own)
        if why is not None:
            found.append(Span(start, end, why))
    return found


def _reads(name: str, purpose: str) -> bool:
    """Whether the tool's name says it reads (its action, `crop_record_search`, or a read's word anywhere in it:
    `order_status`, `run_query`), or else, when its name's action changes nothing, its description's opening
    word does."""
    words = tokenize(name)
    if parse_name(name).reads or any(_read_word(word) for word in words):
        return True
    if any(_changes(word) for word in words):
        return False
    opening = lead_verbs(lead(purpose.lower()))
    if opening:
        return _reading(opening[0][1])
    first = purpose.split(maxsplit=1)
    return bool(first) and _read_word(first[0].strip(".,:;").lower())


def _read_word(word: str) -> bool:
    """Whether a word of a name is a read's: a verb that reads or browses, in a description's forms too (`returns`),
    or a noun of what a read gives back (`status`, `quotes`)."""
    cls = lookup_verb(word, description=True)
    return (cls is not None and _reading(cls)) or word in READ_NOUNS or singular(word) in READ_NOUNS


def _changes(word: str) -> bool:
    """Whether a word of a name is a verb that changes something and is seldom a noun there (`update`, not
    `snapshot` or `flag`)."""
    cls = VERBS.get(word)
    return cls is not None and not cls.reads and not cls.opaque and not noun_like(word)


def _reading(cls: VerbClass) -> bool:
    """Whether a verb's class is a read's: it only reads, or it browses (navigate, visit, browse)."""
    return cls.reads or cls is NAVIGATE


def _chained(sentence: str, job: str, own: frozenset[str]) -> str | None:
    """Why `sentence` makes a change through another tool part of this tool's use, or None."""
    if quotes_attack(sentence):
        return None
    valued = _VALUES.search(sentence) is not None
    if not valued and _EVERY_TIME.search(sentence) is None:
        return None
    named = [*_CALLED.finditer(sentence), *(_WRITTEN_WITH.finditer(sentence) if valued else ())]
    for called in named:
        name = (called.group(1) or called.group(2)).lower()
        if name == job or name in own or not parse_name(name).may_write:
            continue
        before = sentence[: called.start()]
        if _CONDITION.search(before) or _FORBIDDEN.search(before) or _WISH.search(before):
            continue
        return f"makes a change through another tool part of a read ({name!r})"
    return None


# A call ordered of a tool with its arguments written out by the text: "call name(arg=\"value\")", "call name with
# arg=value", "invoke the sibling tool `name` with arg=value and ...". A placeholder (`<id>`, `{user}`, `[...]`) is the
# caller's to fill, not a value fixed; "use `name(arg=...)`" shows how a call is written (a reference's example).
_FIXED_CALL = compiled(
    r"\b(?:call|invoke|run|trigger|execute)\s+(?:the\s+(?:[\w-]+\s+){0,2}?)?(?:tool\s+)?`?"
    r"(?P<name>[a-z][a-z0-9]*(?:[_.][a-z0-9]+)+)`?(?:\s+tool)?\s*"
    r"(?:\(\s*[a-z_]+\s*=\s*[^<{\[\s)]|with\s+`?[a-z_]+`?\s*[=:]\s*[^<{\[\s]|with\s+(?:\w+\s+){0,2}[a-z_]+\s*=\s*[^<{\[\s])",
    re.IGNORECASE,
)
_FIXED_CUE = Cue(r"\b(?:call|invoke|run|trigger|execute)\s", re.IGNORECASE)
# The call is shown to the user before it counts (a preview), or is forbidden.
_PREVIEWED = compiled(
    r"\b(?:show|present|display)\w*\s+(?:\w+\s+){0,6}?(?:to\s+)?the\s+(?:user|customer|requester)\b"
    r"|\b(?:ask|confirm\w*\s+with|get\s+approval\s+from)\s+the\s+(?:user|customer|requester)\b"
    r"|\b(?:user|customer|requester)'?s?\s+(?:explicit\s+)?(?:approval|confirmation|consent)\b",
    re.IGNORECASE,
)
_FORBIDDEN = compiled(r"\b(?:not|never|don't|no)\b(?:\s+\S+){0,3}\s*$", re.IGNORECASE)
# A tool named as what is called, in any language: in code quotes (`` `vendor_update_bank` ... ausführen``), or a name
# of joined words after a verb of calling ("call revoke_and_migrate").
_TOOL_NAMED = compiled(
    r"`(?P<ticked>[a-z][a-z0-9]*(?:[_.][a-z0-9]+)+)`"
    r"|\b(?:call|invoke|run|trigger|execute|use)\s+(?:the\s+)?(?P<bare>[a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b",
    re.IGNORECASE,
)
# A party the text fixes for money or access to go to, whoever the user names: an IBAN, a wallet's address, or an
# account, customer, user or payee written out by its number ("IBAN DE89 3704 ...", "0x7a3F...", "merchant id
# CIVPAY-88213", "user id 99182", "klant C-00042").
_PARTY = compiled(
    r"\b(?-i:[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){3,7}(?:[ ]?[A-Z0-9]{1,4})?)\b"
    r"|\b0x[0-9a-f]{40}\b"
    r"|\b(?:account|merchant|customer|client|user|member|beneficiary|recipient|payee|wallet|klant|cliente|Kunden?|"
    r"Empfänger|beneficiar\w*|bénéficiaire|destinataire|destinatario)\s*(?:ids?|numbers?|no\.?|nr\.?|#|code)?\s*[:=]?\s*"
    r"[\"'“„]?(?-i:[A-Z]{0,6})-?\d[\w-]{2,}",
    re.IGNORECASE,
)
# A party given as an example of a value's form: "e.g. user id 1234", "for example IBAN DE89 ...".
_EXAMPLE_BEFORE = compiled(
    r"\b(?:e\.\s?g\.|i\.\s?e\.|for\s+(?:example|instance)|such\s+as|like|z\.\s?B\.|p\.\s?ex\.)"
    r"[\s,:]*(?:\S+\s+){0,3}$",
    re.IGNORECASE,
)


def fixed_calls(text: str) -> list[Span]:
    """The sentences of `text` (a definition's) that order a call of a tool with its arguments written out: the
    definition, not the user's request, decides what the call does ("call set_safety_zone with mode=\"off\"",
    "subscribe_member(plan=\"premium_trial\")"). A call shown to the user first, a call forbidden, and attack wording
    quoted are not read so."""
    calls = _FIXED_CUE.search(text) is not None
    if not calls and _PARTY.search(text) is None:
        return []
    found: list[Span] = []
    for start, end in sentences(text):
        sentence = text[start:end]
        why = None
        for call in _FIXED_CALL.finditer(sentence) if calls else ():
            if _FORBIDDEN.search(sentence, 0, call.start()) is not None:
                continue
            if _PREVIEWED.search(sentence) is None and not quotes_attack(sentence):
                why = f"orders a call with its arguments written out ({call.group()!r})"
            break
        if why is None:
            why = _fixed_party(sentence)
        if why is not None:
            found.append(Span(start, end, why))
    return found


def _fixed_party(sentence: str) -> str | None:
    """Why `sentence` orders another tool's call for a party it fixes (an IBAN, a wallet, an account by its number),
    or None: the definition, not the user, decides whom the money or the access goes to. A call forbidden, shown to
    the user first, a party given as an example, and attack wording quoted are not read so."""
    party = _PARTY.search(sentence)
    if party is None or _EXAMPLE_BEFORE.search(sentence, 0, party.start()) is not None:
        return None
    for named in _TOOL_NAMED.finditer(sentence):
        if _FORBIDDEN.search(sentence, 0, named.start()) is not None:
            continue
        if _PREVIEWED.search(sentence) is not None or quotes_attack(sentence):
            return None
        name = named.group("ticked") or named.group("bare")
        return f"orders a call of {name!r} for a party it fixes ({party.group()[:40]!r})"
    return None
