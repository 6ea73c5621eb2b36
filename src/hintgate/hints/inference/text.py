"""Hints from a tool's description: the opening verbs and telling phrases.

Descriptions are read in two parts. The *lead* is the first sentence (at most
300 characters): what the tool says it does. The *body* is the first
`BODY_LIMIT` characters,
where warnings like "cannot be undone" or side effects like "saves the report
to disk" tend to sit. Phrases that are only trustworthy as a summary of the
tool ("read-only", "web") are matched in the lead; warnings and side effects
anywhere.

Rule ids, in the order they are tried (first match per hint wins):

| rule id | where | matches | sets |
|---|---|---|---|
| desc.irreversible | body | permanently, irreversible, cannot be undone or restored, will be lost | RO F, D T |
| desc.overwrite | body | overwrites, replaces the entire/existing, clears all | RO F, D T |
| desc.read-only | lead | read-only (not "by default"), does not modify, without modifying | RO T, D F, I T |
| desc.recoverable | body | soft delete, restorable, to the trash, not deleted, no data loss: for a delete only | D F |
| desc.saves-file | body | saved to disk, writes ... to a file; an export to a file or a new document | RO F |
| desc.side-effect | body | a third-person writing verb (updates, creates, sends, starts) | RO F |
| desc.verb.<class> | lead | the opening verb(s), when the name has none (see naming) | as the class |
| desc.verb.write | lead | a writing verb opening a read-named tool's description | RO F |
| desc.web | lead | the web, internet, websites, (web) pages, URLs, a browser | OW T |
| desc.messages | lead | an attachment of a mail, a message or a chat | OW T |
| desc.local | lead | local files, file system, knowledge graph, in memory, SQLite, working tree | OW F |
| desc.ask-user | lead | asks the user, elicitation: the domain is the conversation | OW F |
| desc.compute | lead | current time, time zones, thoughts, echoes, sums | OW F |
| desc.simulated | body | simulates, demonstrates | OW F |

The side-effect and saves-file rules only ever take read-only away: they are
how a tool named ``get_...`` that also writes (a file, a setting upstream) is
kept from being auto-approved.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from hintgate.hints.inference.naming import VerbClass, by_object, lookup_verb
from hintgate.hints.inference.rule import Effect, effect
from hintgate.scan.deferred import compiled

__all__ = [
    "ATTACHMENT_RULE",
    "BODY_LIMIT",
    "BODY_RULES",
    "CLOSED_RULES",
    "EXPORT_TO_FILE_RULE",
    "LEAD_RULES",
    "RECOVERABLE_RULE",
    "SIDE_EFFECT_RULES",
    "SIMULATED_RULE",
    "WEB_RULE",
    "TextRule",
    "lead",
    "lead_verbs",
]


BODY_LIMIT = 2000
"""How much of a description the body rules read.

What a tool does is said near the start; past this point long descriptions
hold parameter documentation and examples, whose verbs describe other things
("removes $0.00 placeholders" in a pricing filter's help), and scanning them
would cost time on every tool.
"""


class TextRule(NamedTuple):
    """A description rule: a cheap substring pre-check, then a regular expression.

    Attributes:
        rule: the stable rule id.
        stems: lower-case substrings one of which must occur for `pattern` to be
            tried; a plain ``in`` test is far cheaper than a regex scan, and most
            descriptions contain none of them.
        pattern: matched against the lower-cased text.
        values: the hints the rule sets.
    """

    rule: str
    stems: tuple[str, ...]
    pattern: re.Pattern[str]
    values: Effect

    def matches(self, text: str) -> bool:
        """Whether the rule matches `text` (already lower-cased)."""
        for stem in self.stems:
            if stem in text:
                return self.pattern.search(text) is not None
        return False


def _rule(rule: str, stems: str, pattern: str, values: Effect) -> TextRule:
    return TextRule(rule, tuple(stems.split()), compiled(pattern), values)


BODY_RULES: tuple[TextRule, ...] = (
    _rule(
        "desc.irreversible",
        "permanent irrevers undone reversed recovered restored undo lost",
        r"\b(?:permanently|irreversibl[ey]|(?:cannot|can ?not|can't) be (?:undone|reversed|recovered|restored)"
        r"|no way to (?:undo|recover)|will be (?:permanently )?lost)\b",
        effect(read_only=False, destructive=True),
    ),
    _rule(
        "desc.overwrite",
        "overwrit replac clear wip",
        r"(?<!never )(?<!not )\b(?:overwrit(?:e|es|ing)\b|replac(?:es|ing) (?:the )?(?:entire|existing|all)\b"
        r"|clears? (?:all|existing)\b|wip(?:e|es|ing) (?:all|out)\b)",
        effect(read_only=False, destructive=True),
    ),
)
"""Warnings that count wherever they appear in the description."""

LEAD_RULES: tuple[TextRule, ...] = (
    _rule(
        "desc.read-only",
        "read-only read only not modify n't modify not change not alter not write never without side",
        r"(?<!not )(?<!non-)(?<!non )\bread[- ]only\b(?![- ]?(?:mode )?by default)(?!/)"
        r"|\b(?:does not|doesn't|will not|won't|never) (?:modify|change|alter|write)"
        r"|\bwithout (?:modifying|changing|altering|making (?:any )?changes)|\bno side[- ]effects",
        effect(read_only=True, destructive=False, idempotent=True),
    ),
)
"""Summaries that only count in the first sentence."""

SIDE_EFFECT_RULES: tuple[TextRule, ...] = (
    _rule(
        "desc.saves-file",
        "save writ",
        r"\b(?:saved?|saves|written|writes?) (?:\w+ ){0,3}?(?:to|into|on) (?:the )?(?:disk|a (?:local )?file"
        r"|the file|local (?:disk|file)|the filesystem)\b",
        effect(read_only=False),
    ),
    _rule(
        "desc.side-effect",
        "updates creates deletes modifies writes sends uploads installs publishes inserts appends submits "
        "deploys starts triggers charges will ",
        r"\b(?:updates|creates|deletes|modifies|writes|overwrites|sends|uploads|installs"
        r"|publishes|inserts|appends|submits|deploys|starts|triggers|charges"
        r"|will (?:create|update|delete|remove|modify|write|send|overwrite|start|trigger|change))\b",
        effect(read_only=False),
    ),
)
"""Side effects and their reversibility, anywhere in the description."""

RECOVERABLE_RULE = _rule(
    "desc.recoverable",
    "soft restor recover undone trash bin deleted data loss lost moved",
    r"\bsoft[- ]delet\w*|\bcan (?:later )?be (?:restored|recovered|undone|undeleted)\b"
    r"|\b(?:mov(?:es?|ed|ing)|sends?|sent|puts?) (?:\w+ ){0,4}?to (?:the )?(?:trash|recycle bin|bin)\b"
    r"|\b(?:not|never|nothing is|none are) (?:permanently )?(?:deleted|removed|lost)\b"
    r"|\bno data (?:is )?(?:loss|lost)\b|\b(?:are|is) moved to\b",
    effect(destructive=False),
)
"""A delete that says what it removes can come back (a soft delete, a trash), or that nothing is lost ("not
deleted", "no data loss", "notes are moved to uncategorized"): not destructive.

Strong evidence only for a tool whose name's action deletes (``delete_note``,
"can be restored later"); a warning such as "cannot be undone" anywhere in
the description comes first and keeps it destructive."""

EXPORT_TO_FILE_RULE = _rule(
    "desc.saves-file",
    "export download",
    r"\b(?:export|download)(?:s|ed|ing)?\b(?:\s+\S+){0,6}?\s+(?:to|into|as)\s+(?:\S+\s+){0,3}?"
    r"(?:file|disk|director(?:y|ies)|folder|path|documents?|docs?|pages?|sheets?|spreadsheets?|notebooks?"
    r"|drive|bucket|store|workspace)\b",
    effect(read_only=False),
)
"""An export or a download written somewhere: a file, a directory, a path, or a new document, page or sheet
in a store ("exports the chat to a new Google Doc", "as a PDF file"): it writes there. One that returns what
it exports ("as JSON") reads."""

ATTACHMENT_RULE = _rule(
    "desc.messages",
    "attachment",
    r"\battachments?\b(?:\s+\S+){0,8}?\s*\b(?:e-?mails?|mail(?:box)?|messages?|inbox|chats?|conversations?"
    r"|channels?|threads?)\b",
    effect(open_world=True),
)
"""An attachment fetched from mail or a chat: what someone outside sent, so open world."""

WEB_RULE = _rule(
    "desc.web",
    "web internet url browser online page",
    r"\b(?:the (?:web|internet)|internet|websites?|web ?(?:pages?|sites?|search(?:es)?|content|results)"
    r"|(?:a|any|the|given) url|urls?\b(?! for)|browser|online|pages?\b(?!-))",
    effect(open_world=True),
)
"""A first sentence about the web: open world."""

CLOSED_RULES: tuple[TextRule, ...] = (
    _rule(
        "desc.local",
        "local file director knowledge memory sqlite duckdb working staging git environment process terminal pid",
        r"\b(?:local (?:file ?system|files?|disk|machine|repository|director(?:y|ies))"
        r"|file ?system|files? (?:and|or) director(?:y|ies)|director(?:y|ies)|knowledge graph"
        r"|in[- ]memory|sqlite|duckdb|working (?:tree|directory)|staging area|git"
        r"|environment variables|running process(?:es)?|terminal sessions?|pid)\b",
        effect(open_world=False),
    ),
    _rule(
        "desc.ask-user",
        "user elicit",
        r"\b(?:asks? the user|prompts? the user|confirm with the user|elicitation|user input)\b",
        effect(open_world=False),
    ),
    _rule(
        "desc.compute",
        "time thought thinking echo sum of",
        r"\b(?:current time|time ?zones?|thoughts?|thinking|echo(?:es)?|sum of)\b",
        effect(open_world=False),
    ),
)
"""A first sentence about a closed domain: local files, memory, the user, pure computation."""

SIMULATED_RULE = _rule(
    "desc.simulated",
    "simulat demonstrat",
    r"\b(?:simulat(?:e|es|ed|ing|ion)|demonstrat(?:e|es|ing|ion))\b",
    effect(open_world=False),
)
"""A tool that simulates or demonstrates acts on nothing real: closed world (whole description)."""

_LEAD_END = compiled(r"(?<=[.!?])\s|\n\s*\n")
_PREAMBLE = compiled(
    r"^\s*(?:[\w .#-]{1,40}\s\|\s+)?(?:this tool (?:will |can |is used to |lets you |allows you to |helps (?:you )?)?"
    r"|use this (?:tool )?to |tool (?:to|that|for) |a tool (?:to|that|for) |allows? (?:you |the user )?to "
    r"|lets you |helps? (?:you )?(?:to )?|used to |can be used to |call this (?:tool )?to |you can )?"
)
_WORD = compiled(r"[a-z]+")
_JOINERS = frozenset({"and", "or", "and/or", "then"})


def lead(description: str) -> str:
    """The first sentence of a lower-cased `description`, at most 300 characters."""
    text = description.lstrip()[:300]
    match = _LEAD_END.search(text)
    return text[: match.start()] if match else text


def lead_verbs(lead_text: str) -> Sequence[tuple[str, VerbClass]]:
    """The verbs that open a lower-cased description (``"list, create, or close tabs"``).

    Preambles such as "This tool will" or "Use this tool to" are skipped; then
    verbs are collected while they are joined by commas, "and" or "or".
    """
    match = _PREAMBLE.match(lead_text)
    rest = lead_text[match.end() :] if match else lead_text
    found: list[tuple[str, VerbClass]] = []
    joined = True  # the first word needs no joiner
    for word_match in _WORD.finditer(rest[:120]):
        word = word_match.group(0)
        if word in _JOINERS:
            joined = True
            continue
        if not joined and "," not in rest[word_match.start() - 2 : word_match.start()]:
            break  # "Get config value": a verb-like noun after a verb is its object
        cls = lookup_verb(word, description=True)
        if cls is None:
            break
        # The words after the verb are its object: "convert a time" computes, "convert a file" writes one.
        cls = by_object(word, cls, tuple(_WORD.findall(rest[word_match.end() : word_match.end() + 60])))
        found.append((word, cls))
        joined = False
    return found
