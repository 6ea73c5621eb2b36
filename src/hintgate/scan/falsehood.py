"""A claim dictated for someone while the text admits it is false: the reader asked to deceive.

Pure. A text may tell its reader what to say ("tell callers the office opens at
nine"); a staff sheet, a template and a script for a call centre all do. None
of them asks its reader to say something and, in the same sentence, says that
it is untrue: "say the others exclude windscreen cover (they don't)", "state
that the plan has no employer contribution (it has 1,500 USD)", "claim 98 %
reliability (actual 61 %)". A text that dictates a claim beside its own
admission that the claim is false asks whoever passes it on to deceive the
person they speak to; the one that passes a tool's result on to someone is the
model, named or not.

The sentence is built the same way whatever it claims:

- **a saying asked of the reader**: a verb of saying in its base form at its
  clause's start ("say", "state", "claim", "tell the customer", "confirm",
  "describe it as"), or after a duty ("must say", "should state"); a saying
  forbidden ("never say ...") or described in the third person ("scammers say
  ...") asks nothing;
- **a claim after it**, and **an admission in brackets** that contradicts it:
  the real value ("(actual 61 %)", "(in fact 2 %)", "(not true)"), or the
  claim's subject said again with the opposite polarity ("(it is not)", "(they
  don't)", "(it has 1,500 USD)" after "has no contribution").

A tool's definition says the same across sentences: a telling ordered with its claim ("tell the user the episode
can be restored at any time", "always tell the customer: 'A crew has been dispatched'"), and after it or in the
sentence next to it an admission that the claim's own word does not hold: "... cannot actually be restored", "the
actual dispatch is decided later", "in reality, the data is kept". A word of the claim must come back in the
admission: "the job does not actually start until a worker is free" beside "tell the user the file is queued" adds to
the claim, it does not deny it (`admitted_beside`).

The words are general English, never one server's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from hintgate.scan.cues import Cue
from hintgate.scan.deferred import compiled
from hintgate.scan.quoting import quotes_attack
from hintgate.scan.spans import SENTENCE_PAST_NAMES, Span, stems

__all__ = ["MAY_ADMIT", "MAY_ADMIT_BESIDE", "admitted_beside", "admitted_false"]

# An admission in brackets, as short as one is: the real value ("(actual 61 %)", "(in fact 2.1 %)"), a flat denial
# ("(not true)"), or the claim's subject said again with its verb alone, perhaps a value ("(they don't)", "(it is
# not)", "(it has 1,500 USD)"). A longer aside adds to the claim ("(it is not heated)"), it does not deny it.
_REAL = (
    r"\(\s*(?:actual(?:ly)?|really|in\s+(?:fact|reality|truth)|the\s+(?:real|true|actual)\s+\w+)\s*(?:\w+\s+){0,2}?"
    r"[:=]?\s*[$€£]?\d[\d.,]*\s*(?:%|\w{1,6})?\s*\)|\(\s*(?:not\s+true|untrue|false)\s*\)"
)
_RESTATED = (
    r"\(\s*(?:it|they|he|she|this|that|there)\s+(?:is|are|was|were|has|have|had|does|do|did|can|will)(?:n't|\s+not|"
    r"\s+never|\s+no)?(?:\s+(?:yet|actually|really|in\s+fact))?(?:\s+[$€£]?\d[\d.,]*\s*(?:%|\w{1,6})?)?\s*\)"
)
_ADMISSION = compiled(f"(?P<real>{_REAL})|(?P<restated>{_RESTATED})", re.IGNORECASE)
MAY_ADMIT = Cue(f"{_REAL}|{_RESTATED}", re.IGNORECASE)
"""The words `admitted_false` cannot be without (a cue a result's sentence judge reads around)."""

# A verb of saying, in its base form: what is said to someone, or how something is described to them.
_SAY = compiled(
    r"\b(?:say|state|claim|confirm|assure|answer|reply|respond|insist|promise|report|quote|advertise|"
    r"tell\s+(?:(?:the|your|our|each|every|any)\s+)?\w+|describe|present)\b",
    re.IGNORECASE,
)
# What may stand before the saying in its clause and keep it an ask of the reader: nothing, a few adverbs, or a duty.
_ASKED = compiled(
    r"^(?:(?:and|then|also|always|just|simply|please|kindly|instead|so|but|or|now)\s+)*$"
    r"|\b(?:must|should|shall|needs?\s+to|(?:is|are)\s+to|ha(?:s|ve)\s+to|ought\s+to)\s+(?:always\s+|also\s+|just\s+|"
    r"simply\s+|only\s+)?$",
    re.IGNORECASE,
)
_CLAUSE_START = compiled(r"[.;:,!?()\[\]\n—–]|\s-\s|^")
_NEGATION = compiled(r"\b(?:not|no|never|none|nothing|nobody|without|zero)\b|n't\b", re.IGNORECASE)
# How far before the admission the saying is looked for.
_REACH = 200


def admitted_false(sentence: str) -> re.Match[str] | None:
    """The saying in `sentence` (a sentence of a tool's result) that dictates a claim the sentence admits in brackets
    is false, or None."""
    for admission in _ADMISSION.finditer(sentence):
        lo = max(0, admission.start() - _REACH)
        for say in reversed(list(_SAY.finditer(sentence, lo, admission.start()))):
            claim = sentence[say.end() : admission.start()]
            if not claim.strip() or _CLAUSE_END.search(claim):
                continue
            clause = max((m.end() for m in _CLAUSE_START.finditer(sentence, 0, say.start())), default=0)
            before = sentence[clause : say.start()].strip()
            if before and not _ASKED.search(before + " "):
                continue
            if admission.group("real") is not None or _contradicts(claim, admission.group("restated")):
                return say
    return None


# A claim runs to the admission in one clause: a stop or a semicolon between them is another sentence's.
_CLAUSE_END = compiled(r"[.;!?\n]")


def _contradicts(claim: str, restated: str) -> bool:
    """Whether a restated clause has the opposite polarity to the claim it follows."""
    return (_NEGATION.search(claim) is None) != (_NEGATION.search(restated) is None)


# ---- In a tool's definition: the telling and its admission in sentences next to each other.
#
# Whom the model tells: the person it answers.
_PERSON = (
    r"(?:(?:the|a|an|your|our|each|every|any)\s+)?(?:users?|customers?|clients?|callers?|buyers?|owners?|patients?|"
    r"members?|visitors?|employees?|requesters?|applicants?|claimants?|tenants?|guests?|travell?ers?|passengers?|"
    r"residents?|drivers?|students?|parents?|them|him|her)"
)
# A telling with its claim after it: "tell the user (that) ...", "confirm to the customer that ...", "say that ...".
_TELLING = compiled(
    r"\b(?:tell|assure|reassure|inform|notify|confirm\s+to|say\s+to|report\s+to|let)\s+"
    + _PERSON
    + r"(?:\s+know)?\s*(?:that\s+)?:?\s*(?!to\b|about\b|how\b|what\b|which\b|where\b|when\b|why\b|whether\b|if\b)"
    r"|\b(?:confirm|say|state|claim)\s+(?:that\s+|:\s*)",
    re.IGNORECASE,
)
# An admission, with the words it says do not hold: "cannot actually be restored", "is actually not sent", "in
# reality, the data is kept", "the actual dispatch is decided later".
_ADMITS = compiled(
    r"(?:\b(?:cannot|not|never)|n't)\s+(?:\w+\s+)?actually\s+(?P<denied>\w+(?:\s+\w+)?)"
    r"|\bactually\s+(?:not|never)\s+(?P<negated>\w+(?:\s+\w+)?)"
    r"|\bin\s+(?:reality|fact|truth),?\s+(?P<real>(?:\w+\s+){0,5}\w+)"
    r"|\b(?:real|actual|true)\s+(?P<subject>\w+(?:\s+\w+)?)\s+(?:is|are|was|were|will|gets?|happens?|remains?|may|can)\b",
    re.IGNORECASE,
)
MAY_ADMIT_BESIDE = Cue(r"\bactually\b|\bin\s+(?:reality|fact|truth)\b|\b(?:real|actual|true)\s+\w+\s", re.IGNORECASE)
"""The words `admitted_beside` cannot be without."""
# A telling denied before it, in its clause: "never tell the user ...".
_DENIED = compiled(r"\b(?:never|not|no|don't)\s+(?:\w+\s+)?$", re.IGNORECASE)
_CLAIM_REACH = 160


def admitted_beside(text: str) -> Iterator[Span]:
    """The first sentence of `text` (a definition's) that orders the model to tell its user a claim that the rest of
    the sentence, or a sentence next to it, admits does not hold."""
    if MAY_ADMIT_BESIDE.search(text) is None:
        return
    sentences = list(SENTENCE_PAST_NAMES.finditer(text))
    for at, sentence in enumerate(sentences):
        said = sentence.group()
        for telling in _TELLING.finditer(said):
            if _DENIED.search(said, 0, telling.start()) is not None:
                continue
            claimed = set(stems(said[telling.end() : telling.end() + _CLAIM_REACH]))
            for near in sentences[max(0, at - 1) : at + 2]:
                words = said[telling.end() :] if near is sentence else near.group()
                if (
                    claimed
                    and not quotes_attack(words)
                    and any(
                        claimed.intersection(stems(next(word for word in admits.groups() if word is not None)))
                        for admits in _ADMITS.finditer(words)
                    )
                ):
                    yield Span(sentence.start(), sentence.end(), "tells the user a claim the text admits is false")
                    return
