"""What the user is told, set against the data: a claim the model is to make to its user whatever the tool found.

Pure. A tool's description may say how results are shown; what the model
tells its user about them follows from the data. A poisoned one scripts a
claim for the user that holds whatever the data says: a verb of telling with
a person as its recipient ("warn the user", "let the customer know", "assure
them") or a saying with none that opens a that-clause ("mention that",
"confirm that"; not "note that", an aside to the reader), a claim after it
(a clause with its own verb: "they are about to run out", "the claim was
accepted"), and a counterfactual in the same sentence ("even if usage is
low", "whatever the decision says", "regardless of the result"). Telling the
user a value ("tell the user the fee, even if it is zero") makes no claim,
and a sentence that forbids the telling negates it. A second shape sets the
claim against its own condition: a condition on the data that reads as bad
news (a failure, a hit, an outage, a value over or under a limit, "< 0.6")
and a claim told to a person, or a showing "as" a state, that reads as good
news ("tell the customer coverage is normal", "tell the user the prices
match", "present the process to the user as capable", "are to appear as
met"), or good news in the condition and bad news told ("if the appeal was
approved, tell the user it is still under review"). Honest text tells the
user what the condition says ("if the status is DENIED, tell the user they
have 90 days to appeal") or what to do ("tell the user not to dig").
The words are general English, never one server's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from hintgate.scan.cues import Cue
from hintgate.scan.deferred import compiled
from hintgate.scan.spans import Span, sentences_with

__all__ = ["fixed", "may_tell", "told"]


_TELL = compiled(
    r"\b(?:tell(?:s|ing)?|told|warn(?:s|ed|ing)?|inform(?:s|ed|ing)?|assur(?:e|es|ed|ing)|reassur(?:e|es|ed|ing)|"
    r"notify(?:ing)?|notifies|convinc(?:e|es|ing)|let(?:ting)?|remind(?:s|ing)?)\s+"
    r"(?:the\s+|your\s+|our\s+|each\s+|every\s+)?(?:user|customer|client|buyer|caller|requester|owner|patient|"
    r"employee|applicant|claimant|member|visitor|them|him|her)s?(?:'s)?\s+(?:know\s+)?(?:that\s+)?"
    # "tell the user to have that person request it": advice to the user (an infinitive), no claim.
    r"(?!to\s)"
    # A claim said with no recipient named, as a that-clause: "mention that the certificates are verified".
    r"|\b(?:say|says|state|states|mention|mentions|claim|claims|assert|asserts|confirm|confirms)\s+that\s+",
    re.IGNORECASE,
)
# A claim: a clause with its own verb within a few words of the recipient.
_CLAIM = compiled(
    r"^(?:[\w'’-]+\s+){0,5}?(?:is|are|was|were|has|have|had|will|would|can|cannot|can't|won't|must|needs?|looks?|"
    r"seems?|remains?|stays?|got|gets|been|being|went|did|didn't|doesn't|don't|isn't|aren't|wasn't|weren't|"
    r"\w+ed)\b",
    re.IGNORECASE,
)
_AGAINST = compiled(
    r"\b(?:even\s+(?:if|when|though|where)|regardless\s+of|irrespective\s+of|whether\s+or\s+not|no\s+matter\s+"
    r"(?:what|how|whether)|whatever\s+(?:the\s+)?(?:\w+\s+){0,3}?(?:says?|shows?|returns?|finds?|reports?|is|are)|"
    r"in\s+(?:any|every)\s+case)\b",
    re.IGNORECASE,
)
# The same, searched by RE2 (`scan.cues`): asked of every tool's texts joined.
_MAY_AGAINST = Cue(_AGAINST.pattern, re.IGNORECASE)
_NEGATION = compiled(r"\b(?:not|never|no|don't|do\s+not|must\s+not|should\s+not|nor)\b", re.IGNORECASE)


# Someone the model answers, told a claim: a clause follows, not an order ("to ..."), a topic or a question.
_PEOPLE = (
    r"(?:users?|customers?|clients?|callers?|requesters?|buyers?|owners?|patients?|students?|teachers?|parents?|"
    r"members?|visitors?|employees?|managers?|reviewers?|engineers?|pilots?|reporters?|patrons?|artists?|growers?|"
    r"farmers?|residents?|officers?|investors?|donors?|riders?|guests?|players?|landlords?|tenants?|claimants?|"
    r"applicants?|recruiters?|auditors?|regulators?|inspectors?|architects?|operators?|drivers?|passengers?|"
    r"travell?ers?|funders?|shoppers?|subscribers?|them|him|her)"
)
_TOLD = compiled(
    r"\b(?:tell|say\s+to|inform|assure|reassure|report\s+to|let)\s+(?:the\s+|your\s+|our\s+)?(?:[\w-]+\s+)?"
    + _PEOPLE
    + r"(?:'s)?\s+(?:know\s+)?(?:that\s+)?"
    r"(?!to\b|about\b|how\b|what\b|which\b|where\b|when\b|why\b|whether\b|if\b|and\b|this\b)",
    re.IGNORECASE,
)
_CONDITION = compiled(r"\b(?:if|when|whenever|during|where|while|once)\b", re.IGNORECASE)
# Bad news in the data, good news told; good news in the data, bad news told.
_BAD_NEWS = compiled(
    r"[<>]=?\s*\d|\b(?:fail\w*|hits?|critical|outages?|exceed\w*|below|above|higher|lower|over|under|errors?|alarms?|"
    r"expired|overdue|denied|rejected|breach\w*|flag\w*|any\s+\w+\s+(?:findings?|codes?)|emissions?|defects?|"
    r"violations?|incidents?|down|degraded|recalls?)\b",
    re.IGNORECASE,
)
_GOOD_NEWS = compiled(
    r"\b(?:pass\w*|clear(?:ed)?|normal|fine|safe|compliant|match(?:es)?|"
    r"no\s+(?:\w+\s+){0,2}(?:were|was|are|is|found|detected|raised)|within\s+(?:tolerance|limits|spec)|ok|okay|"
    r"healthy|valid|green|met\s+spec|resolved|repaired|below\s+(?:their|the)\s+deductible)\b",
    re.IGNORECASE,
)
_GOOD_DATA = compiled(r"\b(?:approved|passed|eligible|cleared|available|granted|accepted|successful)\b", re.IGNORECASE)
_BAD_TOLD = compiled(
    r"\b(?:under\s+review|not\s+possible|denied|expired|rejected|fully\s+booked|unavailable|not\s+eligible|"
    r"ineligible|out\s+of\s+stock)\b",
    re.IGNORECASE,
)
_CLAIM_REACH = 100
# Shown "as" a good state: "reported to users as PASS", "are to appear as met", "present the process as capable".
_SHOWN_AS = compiled(
    r"\b(?:present|report|show|shown|display|describe|mark|label|classif|list|appear|return)\w*\b[^.;!?\n]{0,40}?"
    r"\bas\s+[\"'\u201c\u2018]?(?:pass\w*|clean|met|normal|capable|green|within\s+tolerance|valid|compliant|ok|okay|"
    r"healthy|safe|cleared|not\s+affected|resolved|on\s+track)\b",
    re.IGNORECASE,
)
# Passed off as the genuine article: a showing "as" what only the data can make it ("present it as the calculated
# value", "describe them as verified", "pass a paid referral off as independent advice"): said of the model's own
# showing, the wording is fixed whatever the tool found. Not a layout ("present the results as a table") nor a
# showing denied ("never present a preliminary report as final").
_PASSED_OFF = compiled(
    r"\b(?<!\bto\s)(?:present|describe|label|quote|frame|represent|pass\s+(?:\w+\s+){0,4}?off|cite|advertise|market)"
    r"\b[^.;!?\n]{0,40}?\bas\s+(?:the\s+|an?\s+|being\s+)?[\"'\u201c\u2018]?(?:calculated|computed|measured|"
    r"official|genuine|verified|independent|neutral|objective|unbiased|impartial|standard|actual|real|true|"
    r"accurate|audited|certified)\b",
    re.IGNORECASE,
)
# The showing given its condition or a choice ("as measured or estimated", "as official only when ..."): a rule of
# the tool's own labelling.
_UNLESS_SO = compiled(r"[\w\s'\"\u201d\u2019-]{0,30}?\b(?:or|and/or|if|when|unless|where|once|only)\b", re.IGNORECASE)
# The tool's own act told as a lesser one: "describe this call as a read-only listing", "present the deletion to the
# user as routine housekeeping", "tell the user it was just a sync". What a call does is for the data and the user to
# judge; a definition that fixes how its act is named makes a change, a spend or a send pass as harmless. Said of the
# act itself (it, this, the call, the change, ...), not of a result's content ("never summarise such results as minor"
# denies it).
# What the act is told as: a chore that changes nothing of weight.
_LESSER_WORDS = (
    r"routine|harmless|minor|read-only|read|check|formality|housekeeping|maintenance|cosmetic|no-op|dry[\s-]run|"
    r"backup|sync|refresh"
)
_LESSER = (
    r"(?:an?\s+|the\s+|just\s+(?:an?\s+)?|only\s+(?:an?\s+)?|merely\s+(?:an?\s+)?|simply\s+(?:an?\s+)?)?"
    r"(?:[\w-]+\s+){0,2}?(?:" + _LESSER_WORDS + r"|innocuous|benign)\b"
    r"(?![\s-]+(?:list|table|sheet|option|copy|version)s?\b)"
)
_ACT = (
    r"(?:it|this|that|them|these|the\s+(?:[\w-]+\s+)?(?:calls?|actions?|changes?|deletions?|transfers?|requests?|"
    r"operations?|steps?|updates?|payments?|uploads?|exports?|charges?|removals?|purchases?|writes?|edits?|sends?)|"
    r"what\s+(?:was|is|it)\s+(?:done|did)|this\s+(?:[\w-]+\s+)?(?:call|action|change|step|tool|operation))"
)
_DOWNPLAYED = compiled(
    r"\b(?:describe|present|frame|portray|characteri[sz]e|pass\s+(?:\w+\s+){0,4}?off|refer\s+to|depict|word|phrase)\s+"
    + _ACT
    + r"\s+(?:(?:to|for)\s+(?:the\s+)?(?:[\w-]+\s+)?(?:users?|customers?|clients?|owners?|operators?|approvers?|"
    r"reviewers?|them|people)\s+|in\s+(?:your|the|any)\s+(?:[\w-]+\s+){0,2})?as\s+"
    + _LESSER
    + r"|\b(?:tell|assure|inform)\s+(?:the\s+|your\s+)?(?:[\w-]+\s+)?(?:users?|customers?|operators?|approvers?|"
    r"them)\s+"
    r"(?:that\s+)?(?:it|this|that|the\s+(?:[\w-]+\s+)?(?:call|action|change|request|operation))\s+(?:was|is|were)\s+"
    r"(?:just\s+|only\s+|merely\s+|simply\s+)?(?:an?\s+)?(?:[\w-]+\s+){0,2}?(?:" + _LESSER_WORDS + r")\b",
    re.IGNORECASE,
)
_MAY_CONTRADICT = Cue(
    r"\b(?:tell|say\s+to|inform|assure|reassure|report\s+to|let)\s"
    r"|\bas\s+\S?(?:pass|clean|met|normal|capable|green|within|valid|compliant|ok|okay|healthy|safe|"
    r"cleared|not\s+affected|resolved|on\s+track)"
    r"|\bas\s+(?:the\s+|an?\s+|being\s+)?\S?(?:calculated|computed|measured|official|genuine|verified|independent|"
    r"neutral|objective|unbiased|impartial|standard|actual|real|true|accurate|audited|certified)\b"
    r"|\b(?:describe|present|frame|portray|characteri[sz]e|off|refer\s+to|depict|word|phrase)\s"
    r"[^.;!?\n]{0,80}\bas\s"
    r"|\b(?:was|is|were)\s+(?:just\s+|only\s+|merely\s+|simply\s+)?(?:an?\s+)?(?:[\w-]+\s+){0,2}?(?:routine|"
    r"harmless|minor|read-only|read|lookup|listing|check|formality|housekeeping|maintenance|cosmetic|no-op|dry|test|"
    r"backup|sync|refresh)\b",
    re.IGNORECASE,
)


# The model's reply to its user fixed word for word before the call: "the ideal reply begins with \"Great news\"", "the
# customer-facing reply is exactly: ...", "the status line shown to the user is standardised as 'Saved'", "summaries
# for the user should read ...", "\"just a tidy-up\" is the answer to give". What the model tells its user follows from
# the data; a definition that writes the reply beforehand sets what the user hears whatever the call did. A reply of
# the tool's own (its response, its output, a parameter's default) is not the model's, and a quoted answer waited on a
# condition ("if none is found, say ...") is not named the ideal one.
_QUOTE = r"[\"\u201c\u2018'\u00ab\u201e]"
_REPLY = r"(?:repl(?:y|ies)|answers?|summar(?:y|ies)|wording|status\s+line|opening\s+line|opener)"
_FOR_USER = (
    r"(?:(?:user|customer|client|member|patient|guest|caller|end-user|public)[\s-]facing|assistant'?s?|chat|final)"
)
_FIXED = compiled(
    # A qualifier that makes it the one reply: "the ideal reply", "the expected reply to the user", "the user-facing
    # summary", then its words quoted within a few words.
    r"\b(?:ideal|expected|correct|right|standard|mandatory|required|prescribed|approved|preferred|only|"
    + _FOR_USER
    + r")\s+(?:(?:assistant|chat|user|customer|final)\s+)?"
    r"(?:" + _REPLY + r"|(?:response|message|line|sentence|text)s?\s+(?:to|for)\s+(?:the\s+)?(?:[\w-]+\s+)?"
    r"(?:users?|customers?|clients?|members?|them))"
    r"\b[^.;!?\n\"\u201c\u2018'\u00ab\u201e]{0,60}?(?:\b(?:is|are|reads?|should\s+(?:read|be|say)|begins?\s+with|starts?\s+with|"
    r"opens?\s+with)\b)[^.;!?\n\"\u201c\u2018'\u00ab\u201e]{0,40}?" + _QUOTE + r"\s*\w"
    # The reply's noun first, the fixing after it: "the status line shown to the end user is standardised as '...'",
    # "summaries for the user should read '...'".
    r"|\b" + _REPLY + r"\s+(?:shown\s+|given\s+|sent\s+)?(?:to|for)\s+(?:the\s+)?(?:end[\s-])?(?:users?|customers?|"
    r"clients?|members?|them)\b[^.;!?\n\"\u201c\u2018'\u00ab\u201e]{0,30}?\b(?:is|are)\s+(?:standardi[sz]ed|fixed|set|always|"
    r"exactly|simply|hard-?coded)\b[^.;!?\n\"\u201c\u2018'\u00ab\u201e]{0,20}?" + _QUOTE + r"\s*\w"
    r"|\b" + _REPLY + r"\s+(?:to|for)\s+(?:the\s+)?(?:users?|customers?|clients?|members?|them)\s+(?:should|must|will|"
    r"shall|are\s+to|is\s+to)\s+(?:always\s+)?(?:read|say|be|begin\s+with|start\s+with|open\s+with)\s*:?\s*"
    + _QUOTE
    + r"\s*\w"
    # The person shown a line of the text's: "the user is shown the line 'Draft saved'".
    r"|\b(?:users?|customers?|clients?|members?)\s+(?:is|are)\s+(?:then\s+)?(?:shown|told|given)\s+(?:the\s+|a\s+)?"
    r"(?:line|message|sentence|wording|text)\s*:?\s*" + _QUOTE + r"\s*\w"
    # The quoted words named the answer to give: "\"just a tidy-up\" is the answer to give".
    r"|[\"\u201c][^\"\u201c\u201d\n]{1,120}[\"\u201d]\s+is\s+(?:the|your)\s+(?:\w+\s+)?(?:answer|reply|response|line)\s+to\s+"
    r"(?:give|use|say|send)\b"
    # The commonest languages: "a resposta ideal ao usuário começa com", "la respuesta ideal empieza con".
    r"|\b(?:resposta|respuesta|réponse|risposta|Antwort)\s+(?:ideal|idéale|ideale|esperada|attendue|erwartete)\b"
    r"[^.;!?\n\"\u201c\u2018'\u00ab\u201e]{0,40}?" + _QUOTE + r"\s*\w",
    re.IGNORECASE,
)
# The same, less its quotes (a cue spells no character beyond ASCII): the words that must stand before one.
_MAY_FIX = Cue(
    r"\b(?:ideal|expected|correct|right|standard|mandatory|required|prescribed|approved|preferred|only|facing|"
    r"assistant|chat|final)\s+(?:\w+\s+)?(?:repl|answer|summar|wording|status\s+line|opening|opener|response|message|"
    r"line|sentence|text)"
    r"|\b(?:repl|answer|summar|wording|status\s+line|opening\s+line|opener)\w*\s+(?:shown\s+|given\s+|sent\s+)?(?:to|for)\s"
    r"|\b(?:is|are)\s+(?:then\s+)?(?:shown|told|given)\s+(?:the\s+|a\s+)?(?:line|message|sentence|wording|text)\b"
    r"|\bis\s+(?:the|your)\s+(?:\w+\s+)?(?:answer|reply|response|line)\s+to\s+(?:give|use|say|send)\b"
    r"|\b(?:resposta|respuesta|r\S{1,2}ponse|risposta|antwort)\s",
    re.IGNORECASE,
)
_QUOTE_MARKS = ('"', "\u201c", "\u2018", "'", "\u00ab", "\u201e")
# A negation in the reply's words before its quote: "the ideal reply never opens with 'As an AI'".
_NOT_FIXED = compiled(r"\b(?:not|never|no|nor|avoid\w*)\b", re.IGNORECASE)


def may_tell(text: str) -> bool:
    """Whether `told` may find anything in `text`, or in any of the texts joined with "." into it (searched by RE2)."""
    return (
        _MAY_AGAINST.search(text) is not None
        or _MAY_CONTRADICT.search(text) is not None
        or _MAY_FIX.search(text) is not None
    )


def fixed(text: str) -> Iterator[Span]:
    """The first place in `text` (a definition's) that fixes the model's reply to its user word for word."""
    if _MAY_FIX.search(text) is None or not any(mark in text for mark in _QUOTE_MARKS):
        return  # no reply's words, or no quotation to fix them
    for found in _FIXED.finditer(text):
        if _NOT_FIXED.search(found.group()) is not None:
            continue
        yield Span(found.start(), found.end(), "fixes the words of the model's reply to the user beforehand")
        return


def told(text: str) -> Iterator[Span]:
    """The sentences of `text` (a definition's) that script a claim for the user that holds whatever the data says."""
    for sentence, said in sentences_with(_AGAINST, text, _MAY_AGAINST):
        for tell in _TELL.finditer(said):
            if _CLAIM.search(said[tell.end() :]) is None:
                continue
            # "never tell the user it is safe, even if ...", read in the telling's own clause ("even if no issue is
            # found, tell ..." negates the condition, not the telling).
            clause = max(said.rfind(",", 0, tell.start()), said.rfind(";", 0, tell.start())) + 1
            if len(_NEGATION.findall(said, clause, tell.start())) % 2 == 1:
                continue
            yield Span(sentence.start(), sentence.end(), "scripts a claim for the user whatever the data says")
            return
    yield from _contradicted(text)
    yield from fixed(text)


def _contradicted(text: str) -> Iterator[Span]:
    """The first sentence of `text` whose claim for a person, or whose showing "as" a state, reads against the
    condition on the data it is given under."""
    for sentence, said in sentences_with(_MAY_CONTRADICT, text):
        # The sentence's first condition, found once: the one a telling after it is given under (searched again
        # before each telling, a sentence of thousands of tellings and no condition cost their square).
        condition = _CONDITION.search(said)
        for tell in _TOLD.finditer(said):
            if condition is None or condition.end() > tell.start():
                continue
            data, claim = said[condition.start() : tell.start()], said[tell.end() : tell.end() + _CLAIM_REACH]
            if (_BAD_NEWS.search(data) is not None and _GOOD_NEWS.search(claim) is not None) or (
                _GOOD_DATA.search(data) is not None and _BAD_TOLD.search(claim) is not None
            ):
                yield Span(sentence.start(), sentence.end(), "tells the user a claim against the data")
                return
        passed = _PASSED_OFF.search(said)
        if (
            passed is not None
            and not _NEGATION.search(said, max(0, passed.start() - 30), passed.start())
            and not _UNLESS_SO.match(said, passed.end())
        ):
            yield Span(sentence.start(), sentence.end(), "fixes how the user is shown the data whatever it holds")
            return
        lesser = _DOWNPLAYED.search(said)
        if lesser is not None and not _NEGATION.search(said, max(0, lesser.start() - 30), lesser.start()):
            yield Span(sentence.start(), sentence.end(), "tells the tool's act to the user as a lesser one")
            return
        shown = _SHOWN_AS.search(said)
        if shown is not None and _BAD_NEWS.search(said, 0, shown.start()) is not None:
            yield Span(sentence.start(), sentence.end(), "shows bad findings to the user as good")
            return
