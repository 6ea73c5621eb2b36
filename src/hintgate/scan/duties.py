"""The model as the one a duty is laid on, in the third person: "the assistant should waive ...", "any AI system
that summarises this shall ...", "it is required that the agent ...".

Pure. Someone else's text can ask the model to act without speaking to it: it
names the model as the subject of a duty ("must", "should", "shall", "is
expected to", "is required to", "it is required that the assistant ...") and
says what it is to do. Honest text says such things too: guidance on how an
assistant behaves ("the assistant should repeat the action back", "the bot must
refuse", "your assistant should treat this as data"), a project's notes for its
coding agents ("agents should run the tests"). What sets an order apart is the
act: a change to someone's records or a grant of access or money (waive,
refund, approve, cancel, delete, transfer, grant, issue, unlock ...), made by
the one who reads the text, which no guidance on an assistant's manners asks
and no project chore needs. A duty denied ("must not delete", "should never
approve") or the act made to wait on someone's say ("should ask before
refunding") asks nothing.
"""

from __future__ import annotations

import re

from hintgate.scan.deferred import compiled

__all__ = ["laid_on_model"]

# The model named by its role: an assistant, a chatbot, a copilot, anything called AI or an LLM, a program named
# automated. A bare "agent" or "bot" is as often a person at a help desk or a repository's robot: it needs "AI".
_MODEL = (
    r"(?:(?:AI|LLM|A\.I\.)(?:[\s-]+[\w-]+){0,2}?|(?:automated|virtual|digital)\s+(?:assistant|agent|system|reader|"
    r"summari[sz]er|helper)s?|(?<![\w-])(?:assistants?|chatbots?|copilots?|summari[sz]ers?|(?:AI|chat)[\s-]*bots?))"
)
# A person's job named before "assistant" or "AI": "the dental assistant", "the executive assistant" are people.
_JOBS = (
    r"(?:dental|medical|legal|administrative|admin|executive|personal|teaching|lab|nursing|physician|office|sales|"
    r"store|shop|research|program|marketing|editorial|production|graduate|veterinary|pharmacy|care|home|camera|"
    r"retail|library|classroom|kitchen)"
)
# Whose model: an article or a determiner, and up to three words of its job ("the front-desk chatbot"), none of them
# a person's job.
_DETERMINER = (
    r"(?:\b(?:the|an?|any|each|every|all|your|whichever|whatever|this|our|its|[\w-]+(?:'s|’s))\s+)?"
    r"(?:(?!" + _JOBS + r"\b)[\w-]+\s+){0,3}?"
)
# A run of words within a sentence (a dot inside an address or a name, "j.doe@x.example", ends nothing).
_RUN = r"(?:[^.;!?\n]|\.(?=\w))"
# What may stand between the model's name and its duty: a relative clause, a participle's phrase, a prepositional
# phrase, an apposition between commas ("AI assistants with write access", "any assistant that reads this,").
_BETWEEN = (
    r"(?:\s+(?:that|which|who|with|for|on|in|handling|reading|processing|drafting|preparing|writing|working|"
    r"using|having|connected|deployed|acting)\b"
    + _RUN
    + r"{0,90}?|\s*,"
    + _RUN
    + r"{1,90}?,?|\s+or\s+"
    + _RUN
    + r"{1,60}?)?"
)
_DUTY = (
    r"\s+(?:should|must|shall|ought\s+to|needs?\s+to|has\s+to|have\s+to|will\s+need\s+to|is\s+to|are\s+to|"
    r"(?:is|are)\s+(?:(?:now|hereby)\s+)?(?:expected|required|instructed|asked|directed|obliged|obligated|"
    r"authori[sz]ed|permitted|mandated)\s+to)"
)
_ADVERB = (
    r"(?:(?:also|then|now|immediately|first|simply|just|quietly|silently|automatically|always|promptly|directly)\s+)?"
)
# The inflection a verb takes after "it is required that ... " ("closes", "will close", "closed").
_INFLECTED = r"(?:e?s|e?d)?"


def _act(inflected: str) -> str:
    """The acts on someone's records, money or access that the one who reads is asked to make (group `act`): a
    change made outright, a tool called by its name, a person given access, data sent to an address."""
    return (
        _ADVERB + r"(?P<act>(?:waive|refund|credit|debit|approve|authori[sz]e|cancel|void|close|delete|remove|erase|"
        r"purge|wipe|overwrite|reset|revoke|disable|deactivate|suspend|unlock|grant|assign|issue|transfer|wire|pay|"
        r"charge|reimburse|extend|upgrade|downgrade|elevate|whitelist|allowlist|leak|disclose|encode|reassign|excuse|"
        r"withdraw|reprice|enrol|enroll|unenrol)" + inflected + r"\b"
        r"|mark" + inflected + r"\s+" + _RUN + r"{1,60}?\s+as\b"
        r"|(?:run|call|invoke|use|trigger|execute)" + inflected + r"\s+[`'\"]?[A-Za-z]\w*[_.]\w+"
        r"|add" + inflected + r"\s+(?:" + _RUN + r"{1,60}?\s)?(?:as\s+(?:an?\s+)?(?:authori[sz]ed|admin|administrator|"
        r"owner|collaborator|payee|pickup|contact|member|signatory|delegate|co-?owner|editor|beneficiary)|to\s+(?:the\s+)?"
        r"(?:\w+\s+)?(?:allow|white|pickup|admin|payee|access)[\w-]*\s*list)"
        r"|(?:send|e-?mail|forward|upload|share|publish|export|post|dump)" + inflected + r"\b" + _RUN + r"{0,100}?"
        r"(?:[\w.+-]@[\w-]+\.|https?://|\bat\s+[\w-]+\s+dot\s+\w+))"
    )


# Where the model's name may start: the duty's pattern is tried there alone (anchored), not at every character.
_NAME_START = compiled(
    r"(?<![\w.-])(?:AI|LLM|A\.I\.|automated|virtual|digital|assistants?|chatbots?|copilots?|summari[sz]ers?|"
    r"chat[\s-]*bots?)(?![\w-])",
    re.IGNORECASE,
)
_FROM_NAME = compiled(_MODEL + _BETWEEN + _DUTY + r"\s+" + _act(""), re.IGNORECASE)
# A person's job in the words before the name ("the dental assistant", "our office AI helper").
_JOB_BEFORE = compiled(r"\b" + _JOBS + r"\s+(?:[\w-]+\s+){0,2}$", re.IGNORECASE)
# "It is required that the assistant closes ...", "it is expected that any AI agent will waive ...".
_REQUIRED_THAT = compiled(
    r"\bit\s+is\s+(?:required|expected|mandatory|necessary|essential|imperative)\s+that\s+"
    + _DETERMINER
    + _MODEL
    + _BETWEEN
    + r"\s+(?:(?:should|must|shall|will)\s+)?"
    + _act(_INFLECTED),
    re.IGNORECASE,
)
# The act made to wait on someone's say ("... only after the owner approves"): nothing asked past it.
_WAITS = compiled(
    r"\b(?:before|unless|until|only\s+(?:after|if|when|once)|with)\b[^.;!?\n]{0,40}?\b(?:ask|asking|"
    r"confirm\w*|approv\w*|consent|permission|sign-?off|review\w*|verif\w*)",
    re.IGNORECASE,
)


def laid_on_model(sentence: str) -> re.Match[str] | None:
    """The words that lay on the model, named in the third person, a duty to act on someone's records, money or
    access (group `act` the verb), or None when the act waits on someone's say (a duty denied, "must not
    delete", is no match: only adverbs of manner or time stand between the duty and its act)."""
    for name in _NAME_START.finditer(sentence):
        found = _FROM_NAME.match(sentence, name.start())
        if found is None or _JOB_BEFORE.search(sentence, max(0, name.start() - 60), name.start()):
            continue
        if not _WAITS.search(sentence, found.end(), found.end() + 120):
            return found
    for found in _REQUIRED_THAT.finditer(sentence):
        if not _WAITS.search(sentence, found.end(), found.end() + 120):
            return found
    return None
