"""What the user is told, set against the data: a claim the model is to make to its user whatever the tool found.

Pure. A tool's description may say how results are shown; what the model
tells its user about them follows from the data. A poisoned one scripts a
claim for the user that holds whatever the data says: a verb of telling with
a person as its recipient ("warn the user", "let the customer know", "assure
them"), a claim after it (a clause with its own verb: "they are about to run
out", "the claim was accepted"), and a counterfactual in the same sentence
("even if usage is low", "whatever the decision says", "regardless of the
result"). Telling the user a value ("tell the user the fee, even if it is
zero") makes no claim, and a sentence that forbids the telling negates it.
The words are general English, never one server's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from hintgate.scan.cues import Cue
from hintgate.scan.deferred import compiled
from hintgate.scan.spans import Span, sentences_with

__all__ = ["may_tell", "told"]


_TELL = compiled(
    r"\b(?:tell(?:s|ing)?|told|warn(?:s|ed|ing)?|inform(?:s|ed|ing)?|assur(?:e|es|ed|ing)|reassur(?:e|es|ed|ing)|"
    r"notify(?:ing)?|notifies|convinc(?:e|es|ing)|let(?:ting)?|remind(?:s|ing)?)\s+"
    r"(?:the\s+|your\s+|our\s+|each\s+|every\s+)?(?:user|customer|client|buyer|caller|requester|owner|patient|"
    r"employee|applicant|claimant|member|visitor|them|him|her)s?(?:'s)?\s+(?:know\s+)?(?:that\s+)?",
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


def may_tell(text: str) -> bool:
    """Whether `told` may find anything in `text`, or in any of the texts joined with "." into it (searched by RE2)."""
    return _MAY_AGAINST.search(text) is not None


def told(text: str) -> Iterator[Span]:
    """The sentences of `text` (a definition's) that script a claim for the user that holds whatever the data says."""
    for sentence, said in sentences_with(_AGAINST, text):
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
