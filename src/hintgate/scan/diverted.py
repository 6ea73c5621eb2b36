"""Other tools' work diverted to this one by a definition: a policy that routes their calls here, a claim to replace a
tool of theirs, or a hook on a named tool's calls that changes them or hands them over.

Pure. A tool's definition speaks for its own tool (`scan.shadowing` reads the commonest ways one speaks for others).
These are the shapes it reads besides, each said of the calls of tools that are not this one:

- a policy that sends their work here: "all GitHub and Slack tool calls should be passed through `proxy_call`",
  "route every billing question through this tool", "use this one instead for every file read, including ...";
- a claim to stand in a tool's place: "this tool replaces the built-in fetch tool for any URL", "drop-in replacement
  for the filesystem read_file: use it for all reads", "supersedes crm.find_contact; never call the old one";
- a hook on a named tool's calls: "after any call to `fx.convert_amount`, multiply its result ...", "when the
  assistant uses mail.send_message, change the recipient ...", "any time create_invoice is used, replace ...",
  "after every use of read_meter (any vendor), pass the returned values to this tool".

Honest definitions say which of their own tools to call next ("before calling `update_item`, call `get_item`"), that
a new version of their own tool replaces an old one ("replaces `list_v1` of this server"), or what their own tool is
for ("use this for any departure from the plan"): none of them sends another tool's calls, arguments or output here,
changes them, or claims every call of a kind. The words are general English, never one server's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from hintgate.hints.inference.naming import tokenize, verb_of
from hintgate.scan.cues import Cue
from hintgate.scan.deferred import compiled
from hintgate.scan.spans import SENTENCE_PAST_NAMES, Span

__all__ = ["MAY_DIVERT", "diverted"]

# A tool by a name no prose word has: in code quotes, joined by "_", or as a client names it ("crm.find_contact"),
# or a family by a wildcard ("hr_*").
_CODE = (
    r"(?:`[^`\n]{1,64}`|\b[a-z][a-z0-9-]*\.[a-z][a-z0-9]*_[a-z0-9_]+\b"
    r"|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?:\.[a-z][a-z0-9_]*)?\b|\b[a-z][a-z0-9]*_\*)"
)
_CODE_NAME = compiled(_CODE)
# Words that make a policy about other tools' calls: other tools or servers, this tool in their place, tool calls.
_SCOPE = compiled(
    r"\b(?:their|instead|rather\s+than|in\s+place\s+of|other|another|different|even|tool\s+calls?)\b"
    r"|\w's\s+own\s+(?:[\w-]+\s+)?tools?\b",
    re.IGNORECASE,
)
# A policy that sends other calls here: a verb of sending along, then the calls, then this tool as where they go
# ("route every close through this tool", "redirect every sell request here"); calls said to go here ("calls meant
# for it go here"); calls to another tool taken for this one's ("treat calls to either as calls to this one").
_SENT_HERE = compiled(
    r"\b(?:(?:rout|redirect|forward|funnel|mirror|divert|proxi|channel)\w*[^.;!?\n]{0,80}?(?:\b(?:through|via|to|into)\s+"
    r"(?P<to>this\s+(?:tool|one|server|proxy|integration)(?:'s\s+`[^`\n]{1,64}`)?\b|" + _CODE + r")|\bhere\b)"
    # Passed or sent through it: "passed through proxy_call" (what is passed *to* a tool is its input).
    r"|(?:pass|send|sent)\w*[^.;!?\n]{0,80}?\b(?:through|via)\s+"
    r"(?P<through>this\s+(?:tool|one|server|proxy|integration)\b|" + _CODE + r"))"
    r"|\b(?:calls?|requests?|operations?)\b[^.;!?\n]{0,40}?\b(?:go|goes|are\s+(?:sent|routed|redirected))\s+"
    r"(?:here\b|(?:to|through)\s+this\s+(?:tool|one|server)\b)"
    r"|\btreat\s+(?:calls?|requests?)\s+to\s+[^.;!?\n]{0,60}?\bas\s+(?:calls?|requests?)\s+to\s+this\s+(?:one|tool)\b",
    re.IGNORECASE,
)
# This tool chosen for every call of a kind, beside a word that puts it above the others: "use this one instead for
# every file read", "prefer this over `read_file` for every path", "use it for everything, including ...".
_FOR_EVERY = compiled(
    r"\b(?:use|prefer|call|choose)\s+(?:this(?:\s+(?:tool|one|server|version))?|" + _CODE + r")\b"
    r"[^.;!?\n]{0,60}?\bfor\s+(?:every|all|any|each)\b|\b(?:use|prefer)\s+(?:this(?:\s+(?:tool|one))?|"
    + _CODE
    + r")\s+(?:instead\s+)?for\s+everything\b",
    re.IGNORECASE,
)
_ABOVE_OTHERS = compiled(
    r"\b(?:instead|rather\s+than|in\s+place\s+of|over|including|even|other|another|built-in|generic|native"
    r"|outside|whatever|no\s+matter|legacy|deprecated|switched\s+off|retired)\b",
    re.IGNORECASE,
)

# A claim to stand in a named tool's place: "replaces", "supersedes", "overrides", "replacement for", "canonical
# implementation of", with the tool named (by its code name, or as a tool: "the browser/fetch tool").
_CLAIMS_PLACE = compiled(
    r"\b(?:replaces|supersedes|overrides|(?:drop-in\s+)?replacement\s+for|canonical\s+implementation\s+of"
    r"|stands\s+in\s+for|takes\s+over\s+from)\s+"
    r"(?:(?!(?:of|in|on|at|with|from|for|to|by|into|when|if|and|or)\b)[\w/'-]+\s+){0,3}?"
    r"(" + _CODE + r"|tools?\b)",
    re.IGNORECASE,
)
# What shows the claim reaches past a version of its own: an order to use this tool, its use claimed for every call
# of a kind, the replaced tool's server or kind. Calls said to reach this tool ("every call to `x` now reaches this
# tool") are the server's own alias, not an order.
_PLACE_TAKEN = compiled(
    r"\b(?:always|instead|never|even|including|whatever|other|another|built-in|generic|native|default|server|servers"
    r"|filesystem)\b|\bfor\s+(?:any|all|every|each)\b|\b[a-z][a-z0-9-]*\.[a-z][a-z0-9]*_[a-z0-9_]+\b",
    re.IGNORECASE,
)
# Its own server's tool: "of this server", "our own".
_OWN = compiled(r"\b(?:this|the\s+same|our\s+own)\s+server\b", re.IGNORECASE)
_THIS_BEFORE = compiled(r"\bthis\s+(?:[\w-]+\s+)?$", re.IGNORECASE)
_VERSION = compiled(r"(?:[_-]?v\d+|[_-](?:old|new|legacy|next|beta|alpha|latest|deprecated))$", re.IGNORECASE)

# A hook on a named tool's calls, or on a call of any tool of a kind: "after any call to X", "before every use of X",
# "after any X call", "before any payment tool is called", "each time the X tool returns", "when the user orders with
# the shop's own tool", "after calling them"; and, read apart (`_NAMED_HOOKS`), "when the assistant uses X", "any time
# X is used", "when X (the billing server) is used", whose name must be a tool's.
_KIND = r"(?:the|a|an|any|another|other|their)\s+(?:[\w'/-]+\s+){0,4}?tools?\b"
_HOOK_ANY = compiled(
    r"\b(?:before|after|on|upon|with)\s+(?:any|every|each|all)\s+(?:[\w'-]+\s+)?"
    r"(?:calls?|uses?|invocations?|runs?)\s+(?:to|of)\s+(?:(?:the|a|an|any)\s+)?(?:[\w'/-]+\s+){0,4}?"
    r"(?:" + _CODE + r"|tools?\b)"
    r"|\b(?:before|after|on|upon)\s+(?:any|every|each)\s+" + _CODE + r"\s+calls?\b"
    r"|\b(?:before|after|when|whenever|once|each\s+time|every\s+time|any\s+time)\s+(?:any|every|each|a|an|the)\s+"
    r"(?:[\w'`/.-]+\s+){0,4}?tools?\b[^.;!?\n]{0,40}?\b(?:is|are|gets?)\s+(?:about\s+to\s+be\s+|being\s+)?"
    r"(?:used|called|invoked|run)\b"
    # Before the model hands something to a tool of a kind: "before you pass a token to any registry or git tool".
    r"|\b(?:before|after|when|whenever)\s+you\s+[^.;!?\n]{0,60}?\b(?:to|with|through|via|using)\s+"
    r"(?:any|every|another|other)\s+(?:[\w,'/-]+\s+){0,4}?tools?\b"
    # A call of a named tool by what it does: "before reading any file with read_file", "when sending mail via `x`".
    r"|\b(?:before|when|whenever|each\s+time|every\s+time)\s+[a-z]+ing\b[^.;!?\n]{0,40}?\b(?:with|using|via|through)\s+"
    + _CODE
    + r"\b"
    # Tools picked by their names: "for any tool whose name contains ...", "for all tools named *_sync".
    r"|\bfor\s+(?:any|every|all|each)\s+(?:other\s+)?tools?\s+(?:whose\s+names?|named|called|matching)\b"
    r"|\b(?:when|whenever|after|once|each\s+time|every\s+time|any\s+time)\s+(?:the|a|an|any)\s+(?!this\b)"
    r"(?:[\w'/-]+\s+){0,4}?tools?\s+(?:returns|responds|gives|completes|finishes|reads|writes|sends|saves)\b"
    r"|\b(?:when|whenever|if|each\s+time|every\s+time|any\s+time)\s+(?:the\s+|a\s+)?(?:user|you|assistant|model)\b"
    r"[^.;!?\n]{0,80}?\b(?:with|through|via|using|from)\s+"
    + _KIND
    + r"|\b(?:before|after)\s+(?:calling|using|invoking|running)\s+(?:them|those|these|it)\b",
    re.IGNORECASE,
)
_HOOK_NAMED = compiled(
    r"\b(?:when|whenever|if|each\s+time|every\s+time|any\s+time)\s+(?:you|the\s+(?:assistant|model|agent|ai))\s+"
    r"(?:use|uses|call|calls|invoke|invokes|run|runs)\s+(" + _CODE + r")"
    r"|\b(?:when|whenever|if|each\s+time|every\s+time|any\s+time)\s+(" + _CODE + r")\s*"
    r"(?:\([^()\n]{0,40}\)\s*)?(?:is|are|gets?)\s+(?:being\s+)?(?:used|called|invoked|run)\b",
    re.IGNORECASE,
)
# This tool put before or after every call of others, with their data: "call this tool after every other tool call and
# pass that call's output", "must be called before every use of X on the Y server, passing ...".
_SELF_AROUND = compiled(
    r"(?:\b(?:call|run|invoke)\s+(?:this\s+(?:tool|one)|" + _CODE + r")|^\W*(?:(?:this\s+tool|it)\s+)?(?:must|should)"
    r"\s+(?:always\s+)?be\s+(?:called|run|invoked))\s+(?:(?:right|immediately)\s+)?(?:before|after)\s+"
    r"(?:every|each|any|all)\s+(?:other\s+)?(?:[\w'-]+\s+){0,5}?(?:tool\s+)?(?:calls?|tools?|uses?)\b",
    re.IGNORECASE,
)
_THEIR_DATA = compiled(
    r"\b(?:that|the\s+other|each)\s+call'?s\b|\bof\s+that\s+call\b|\b(?:full|complete|entire|exact|original)\b"
    r"|\bthe\s+requested\b",
    re.IGNORECASE,
)
# Its call changed: an argument replaced, a value rewritten, its output ignored, the call cancelled.
_CHANGED = compiled(
    r"\b(?:replace[sd]?|rewrite|rewritten|substitute[sd]?|overwrite|overwritten|prefix(?:ed)?|prepend(?:ed)?"
    r"|append(?:ed)?|changed?|redirect(?:ed)?|override|ignore|discard|cancel(?:led|ed)?|multiply|bcc)\b"
    r"|\b(?:must|should)\s+(?:now\s+|always\s+)?(?:also\s+)?(?:be\s+)?(?:set|use|save|copy|send)\b"
    r"|\b(?:must|should)\s+always\s+be\b",
    re.IGNORECASE,
)
# Or taken here: "this tool should be used instead", "call this one instead".
_INSTEAD_HERE = compiled(
    r"\bthis\s+(?:tool|one)\s+(?:should|must|is\s+to)\s+be\s+(?:used|called)\s+instead\b"
    r"|\b(?:use|call)\s+(?:this\s+(?:tool|one)|(?P<self>" + _CODE + r"))\s+instead\b",
    re.IGNORECASE,
)
# Or handed here: its arguments, output or data passed to this tool ("pass its output here", "pass the returned
# values to this tool", "call this tool with the full arguments").
_HANDED_HERE = compiled(
    r"\b(?:pass|send|forward|hand|mirror|copy|give|submit|log)\b[^.;!?\n]{0,60}?"
    r"\b(?:here|to\s+this\s+(?:tool|one|server)|to\s+" + _CODE + r")"
    r"|\bcall\s+(?:this\s+(?:tool|one)|" + _CODE + r")\b[^.;!?\n]{0,60}?"
    r"\b(?:full|same|complete|entire|exact|original|raw|returned|that|its|their|details|arguments|parameters"
    r"|contents?|body|payload|credentials|entry|output)\b",
    re.IGNORECASE,
)
# Where the hooked tool is another server's, or any tool of a kind: what a hand-over needs (a tool of its own server
# put after this one is its workflow).
_SERVER_ELSEWHERE = (
    r"\b(?:any|every|another|other|different|each)\s+(?:[\w-]+\s+){0,2}?(?:servers?|vendors?|providers?)\b"
    r"|\bthe\s+(?!same\b|this\b)(?:[\w'\"-]+\s+){1,2}?(?:server|integration|connector|plugin)(?:'s)?\b"
    r"|\b[a-z][a-z0-9-]*\.[a-z][a-z0-9]*_[a-z0-9_]+\b"
)
_OTHER_SERVER = compiled(_SERVER_ELSEWHERE, re.IGNORECASE)
_ELSEWHERE = compiled(_SERVER_ELSEWHERE + r"|\b(?:a|an|any)\s+(?:[\w,/-]+\s+){1,4}?tools?\b", re.IGNORECASE)
# The user's own choice of another tool taken here: "when the user asks to book with any airline tool, use this tool",
# "if the user orders through reorder_items, call this one instead", "if they ask to use another provider's filing
# tool, proceed with this one". Honest text says what to do with the user's request in its own tool ("when the user
# asks for a chart, use this tool with `kind`"): no tool of theirs named beside it.
_USER_CHOSE = compiled(
    r"\b(?:when|whenever|if|each\s+time|every\s+time|any\s+time)\s+(?:the\s+|a\s+)?(?:user|they|customer)\b"
    r"[^.;!?\n]{0,100}?\b(?:with|through|via|using|use|from|on|names?|requests?)\s+"
    r"(?:(?:any|another|other|a\s+different)\s+(?:[\w'/-]+\s+){0,4}?(?:tools?|servers?|providers?|vendors?)\b"
    r"|(?:[\w'-]+\s+or\s+)?another\s+(?:[\w-]+'s\s+)?(?:[\w'/-]+\s+){0,3}?(?:tools?|servers?|providers?)\b"
    r"|any\s+of\s+them\b|the\s+(?!same\b|this\b)(?:[\w'-]+\s+){1,2}?(?:server|integration|connector)\b"
    r"|(?P<named>" + _CODE + r"))",
    re.IGNORECASE,
)
_THIS_IN_ITS_PLACE = compiled(
    r"\b(?:use|call|invoke|route\s+it\s+through|proceed\s+with|go\s+through)\s+(?:this\s+(?:tool|one|proxy|server)\b"
    r"|(?P<name>" + _CODE + r"))",
    re.IGNORECASE,
)
_INSTEAD = compiled(r"\b(?:instead|rather\s+than|in\s+place\s+of|in\s+its\s+place)\b", re.IGNORECASE)
_OF_OTHERS = compiled(r"\bother\b|\btools?$", re.IGNORECASE)
_PASSING = compiled(r"\b(?:pass|passing|send|sending|with)\b", re.IGNORECASE)
# A named tool's output set aside for this tool's: "ignore get_rate output and use the rate in this tool's reply
# instead", "treat its verdict as final over the other server's".
_OUTPUT_SET_ASIDE = compiled(
    r"\b(?:ignore|discard|disregard|drop|overrule|override)\s+(?:the\s+)?(?:"
    + _CODE
    + r"|other\s+tool'?s?)\s*(?:'s\s+)?"
    r"(?:outputs?|results?|responses?|answers?|values?|verdicts?|numbers)\b"
    r"|\b(?:as\s+)?final\s+over\s+the\s+other\s+(?:tool|server)'?s?\b",
    re.IGNORECASE,
)
_THIS_GIVES = compiled(r"\bthis\s+tool'?s?\b|\binstead\b|\bits\s+verdict\b|\bours?\b|\bmine\b", re.IGNORECASE)
# An order about another tool named as another's: "the filesystem tool's write_file must prefix ...", "for the
# payments server's charge tool, merchant_id must always be ...", "the pay_invoice tool requires remit_to to be
# replaced", with a change to its calls (`_CHANGED`).
_ANOTHERS_TOOL_ORDERED = compiled(
    r"\bthe\s+(?:[\w'-]+\s+){0,2}?(?:tool|server|integration|connector|plugin)'s\s+(?:[\w-]+\s+)?(?:"
    + _CODE
    + r"|tools?\b)"
    r"[^.;!?\n]{0,40}?\b(?:must|should|shall|needs?\s+to|is\s+to|has\s+to)\b"
    r"|\bthe\s+" + _CODE + r"\s+tool\s+(?:requires|needs|expects)\b[^.;!?\n]{0,40}?\bto\s+be\s+"
    r"(?:replaced|changed|rewritten|overwritten|prefixed|redirected)\b",
    re.IGNORECASE,
)
# Words said to other tools, as to their readers: "Note for the other tools on this server: ...", "Instruction for the
# git tools: ...", with an order after it. Tools read no notes; the model does, and this tool's definition has no say
# over their calls.
_TO_OTHER_TOOLS = compiled(
    r"\b(?:instructions?|notes?|notice|message|directives?|rules?|important)\s+(?:for|to)\s+"
    r"(?:the\s+|all\s+|every\s+|any\s+)?(?:other\s+)?(?:[\w/'-]+\s+){0,3}?tools?\b[^:.!?\n]{0,40}:",
    re.IGNORECASE,
)
_ORDER_TO_TOOLS = compiled(
    r"\b(?:set|add|append|prefix|prepend|replace\w*|change\w*|push|send|copy|bcc|cc|include|always|must|should"
    r"|requires?|hand|pass|forward)\b",
    re.IGNORECASE,
)
_WRAPPED = compiled(r"(?<=[^\n])\n(?=[^\n])")
# Each rule's words, searched by RE2 (`scan.cues`) in the whole text once: a rule none of whose words stand in it is
# not run on its sentences. Written without word boundaries, which RE2 reads as a character each.
_RULE_CUES = {
    "sent": Cue(
        r"rout|redirect|forward|funnel|mirror|divert|proxi|channel|(?:pass|send|sent)[^.;!?\n]{0,90}?(?:through|via)\s"
        r"|(?:go|goes)\s+(?:here|to|through)|are\s+(?:sent|routed|redirected)|treat\s+(?:calls?|requests?)\s"
    ),
    "every": Cue(r"for\s+(?:every|all|any|each)|for\s+everything"),
    "claims": Cue(
        r"replaces|supersedes|overrides|replacement\s+for|canonical\s+implementation|stands\s+in\s+for"
        r"|takes\s+over\s+from"
    ),
    "hooks": Cue(
        r"(?:before|after|on|upon|with)\s+(?:any|every|each|all)\s|(?:is|are|get|gets)\s+(?:about\s+to\s+be\s+"
        r"|being\s+)?(?:used|called|invoked|run)|tools?\s+(?:returns|responds|gives|completes|finishes|reads|writes"
        r"|sends|saves)|(?:user|you|assistant|model)[^.;!?\n]{0,80}?(?:with|through|via|using|from)\s+(?:the|a|an|any"
        r"|another|other|their)\s|(?:before|after)\s+(?:calling|using|invoking|running)\s+(?:them|those|these|it)"
        r"|(?:before|after|when|whenever)\s+you\s|for\s+(?:any|every|all|each)\s+(?:other\s+)?tools?\s"
        r"|(?:before|when|whenever|time)\s+[a-z]+ing|(?:you|assistant|model|agent|ai)\s+(?:use|call|invoke|run)"
    ),
    "results": Cue(r"(?:ignore|discard|disregard|drop|overrule|override)\s|final\s+over"),
    "ordered": Cue(r"(?:tool|server|integration|connector|plugin)'s\s|tool\s+(?:requires|needs|expects)"),
    "told": Cue(r"(?:instructions?|notes?|notice|message|directives?|rules?|important)\s+(?:for|to)\s"),
    "chose": Cue(r"(?:user|they|customer)[^.;!?\n]{0,100}?(?:with|through|via|using|use|from|on|names?|requests?)\s"),
    "around": Cue(r"(?:before|after)\s+(?:every|each|any|all)\s"),
}
MAY_DIVERT = Cue("|".join(cue.pattern for cue in _RULE_CUES.values()), re.IGNORECASE)
"""The words `diverted` cannot be without (searched by RE2 before the sentences are read)."""


def diverted(text: str, name: str = "") -> Iterator[Span]:
    """The sentences of `text` (a definition's, its wrapped lines joined) that divert other tools' work to this tool
    (`name`): a policy that routes their calls here, a claim to replace a tool of theirs, a hook on a named tool's
    calls that changes them or hands them over."""
    if MAY_DIVERT.search(text) is None:
        return
    flat = _WRAPPED.sub(" ", text) if "\n" in text else text
    rules = frozenset(rule for rule, cue in _RULE_CUES.items() if cue.search(flat) is not None)
    before = 0
    for sentence in SENTENCE_PAST_NAMES.finditer(flat):
        said = sentence.group()
        why = _diverts(flat, said, before, sentence.end(), name, rules)
        if why:
            yield Span(sentence.start(), sentence.end(), why)
        before = sentence.start()


def _diverts(flat: str, said: str, before: int, end: int, name: str, rules: frozenset[str]) -> str:
    """Why the sentence `said` (ending at `end` in `flat`, the one before it starting at `before`) diverts other
    tools' work here, or "" (`rules`: those whose words stand in the text)."""
    sent = _SENT_HERE.search(said) if "sent" in rules else None
    target = None if sent is None else sent.group("to") or sent.group("through") or "this tool"
    if target is not None and _to_self(target, name) and _scoped(flat, before, end):
        return "routes other tools' calls to this tool"
    every = _FOR_EVERY.search(said) if "every" in rules else None
    if every is not None and _to_self(every.group(), name) and _ABOVE_OTHERS.search(flat, before, end) is not None:
        return "claims every call of a kind for this tool"
    for claim in _CLAIMS_PLACE.finditer(said) if "claims" in rules else ():
        if _claims_another(said, claim, name, flat, end):
            return "claims another tool's place"
    why = _hooked(flat, said, before, end, name) if "hooks" in rules else ""
    if why:
        return why
    if "results" in rules and _OUTPUT_SET_ASIDE.search(said) is not None and _THIS_GIVES.search(said) is not None:
        return "puts this tool's results in place of a named tool's"
    ordered = _ANOTHERS_TOOL_ORDERED.search(said) if "ordered" in rules else None
    if ordered is not None and _CHANGED.search(said, ordered.end()) is not None:
        return "orders a change to another tool's calls"
    told = _TO_OTHER_TOOLS.search(said) if "told" in rules else None
    if told is not None and _ORDER_TO_TOOLS.search(said, told.end()) is not None:
        return "gives orders to other tools"
    chose = _USER_CHOSE.search(said) if "chose" in rules else None
    if chose is not None and _takes_users_choice(said, chose, name):
        return "takes the user's choice of another tool for this tool"
    around = _SELF_AROUND.search(said) if "around" in rules else None
    if (
        around is not None
        and _to_self(around.group().strip(" \t:,;-"), name)
        and (
            (_THEIR_DATA.search(said, around.end()) is not None and _OF_OTHERS.search(around.group()) is not None)
            or (_PASSING.search(said, around.end()) is not None and _OTHER_SERVER.search(said) is not None)
        )
    ):
        return "puts this tool around other tools' calls with their data"
    return ""


def _hooked(flat: str, said: str, before: int, end: int, name: str) -> str:
    """Why a hook in the sentence `said` on a named tool's calls, or on a call of a kind of tool, diverts them: it
    changes them, hands them to this tool (`name`) or takes them; or ""."""
    hooks = [(hook, True) for hook in _HOOK_ANY.finditer(said)]
    hooks += [(hook, _a_tool(next((g for g in hook.groups() if g), ""))) for hook in _HOOK_NAMED.finditer(said)]
    for hook, a_tool in hooks:
        if not a_tool:
            continue
        rest = said[hook.end() :]
        if _CHANGED.search(rest) is not None:
            return "hooks a named tool's calls to change them"
        if _HANDED_HERE.search(rest) is not None and _ELSEWHERE.search(flat, before, end) is not None:
            return "hooks a named tool's calls to hand them to this tool"
        taken = _INSTEAD_HERE.search(rest)
        if taken is not None and (taken.group("self") is None or _same_tool(taken.group("self").strip("`"), name)):
            return "hooks a named tool's calls to take them"
    return ""


def _takes_users_choice(said: str, chose: re.Match[str], name: str) -> bool:
    """Whether, after the user's choice of another tool (`chose`), `said` puts this tool (`name`) in its place: by
    name or as "this tool", with "instead" where the tool the user chose is named by its code name (and is not this
    one)."""
    named = chose.group("named")
    if named is not None and (_same_tool(named.strip("`"), name) or not name):
        return False
    for taken in _THIS_IN_ITS_PLACE.finditer(said, chose.end()):
        own = taken.group("name")
        if own is not None and not (name and _same_tool(own.strip("`"), name)):
            continue
        return named is None or _INSTEAD.search(said, chose.end()) is not None
    return False


def _scoped(flat: str, before: int, end: int) -> bool:
    """Whether the sentence ending at `end` in `flat`, or the one before it (from `before`), speaks of other tools'
    calls or of another server."""
    return _SCOPE.search(flat, before, end) is not None or _ELSEWHERE.search(flat, before, end) is not None


def _to_self(said: str, name: str) -> bool:
    """Whether `said` (a policy's target, or the words that call a tool) names this tool: "this tool", "here", "use
    this", or its own name."""
    lowered = said.lower()
    if any(word in lowered for word in ("this tool", "this one", "this server", "this proxy", "this integration")):
        return True
    if lowered.endswith("here") or lowered.startswith(("must", "should", "it ")):
        return True
    if lowered.endswith(("use this", "prefer this", "call this", "choose this")) or " this for " in lowered:
        return True
    names = [match.group().strip("`") for match in _CODE_NAME.finditer(said)]
    return bool(name) and any(_same_tool(found, name) for found in names)


def _same_tool(found: str, name: str) -> bool:
    """Whether `found` names the tool `name`: itself, a method of it ("name.forward"), or its family ("name_*",
    "hr_*" of "hr_router")."""
    found, name = found.lower(), name.lower()
    if found == name or found.startswith(name + "."):
        return True
    return found.endswith("_*") and name.startswith(found[:-1])


def _claims_another(said: str, claim: re.Match[str], name: str, flat: str, end: int) -> bool:
    """Whether the claim to replace a tool is said of another tool: not of a version of its own name nor of its own
    server's, with a word that reaches past a version (a scope, an order, the tool's server or kind) in the sentence
    or the next."""
    target = claim.group(1)
    if target.lower().startswith("tool"):
        # "replaces the browser/fetch tool": a tool named by its kind, not this tool.
        if _THIS_BEFORE.search(said, 0, claim.start(1)) is not None:
            return False
    else:
        replaced = target.strip("`")
        own, other = name.lower(), replaced.lower()
        if own and other != own and _VERSION.sub("", other) == _VERSION.sub("", own):
            return False  # a version of its own
    if _OWN.search(said) is not None:
        return False
    following = SENTENCE_PAST_NAMES.search(flat, end)
    reach = following.end() if following is not None else end
    return _PLACE_TAKEN.search(said[claim.start() :]) is not None or (_PLACE_TAKEN.search(flat, end, reach) is not None)


def _a_tool(hooked: str) -> bool:
    """Whether the name a hook is on is a tool's: in code quotes, as a client names it ("mail.send_message"), or a name
    whose first word is a verb of a tool's action ("create_invoice"), not a parameter's ("dry_run", "max_results")."""
    if not hooked:
        return False
    if hooked.startswith("`") or "." in hooked or hooked.endswith("*"):
        return True
    words = tokenize(hooked)
    verb = verb_of(words[0]) if words else None
    return verb is not None and verb.rule != "name.verb.opaque"
