"""Attack wording quoted rather than said: a sentence about such wording, and a quotation still open.

Pure. Honest text quotes what the scan looks for: a scanner says what it
detects ("flags phrases such as 'ignore previous instructions'"), a security
guide what attackers write, a report what a page held. Two cues, shared by
every part of the scan that reads sentences:

- `quotes_attack`: the sentence names such wording as its subject, by a word
  that introduces an example ("such as", "e.g.", "for instance", "like" and
  a quotation mark) or one that names attacks or their detection
  ("injection", "jailbreak", "attackers", "detects", "heuristics", "scans
  ... for"). What such a sentence holds is not read as said by it;
- `quotation_open`: a quotation opened in a stretch of text and not closed by
  its end ("ignore ... «tell the user nothing» ..." read up to the ask), in the
  marks of the commonest scripts.
"""

from __future__ import annotations

import re

__all__ = ["quotation_open", "quotes_attack"]

# Words that make a sentence about attack wording rather than a use of it: an example introduced, or attacks, their
# detection or classification named.
_ABOUT_ATTACKS = re.compile(
    r"\b(?:such\s+as|e\.g\.|for\s+example|for\s+instance|like\s+[`'\"“<]|patterns?|phrases?|heuristics?|"
    r"classif\w+|attackers?|attacks?|injections?|poison\w*|jailbreaks?|red[\s-]team\w*|detect\w*|"
    r"flags?\s+(?:text|phrases|wording|definitions?|descriptions?)|"
    # A scan for something ("scans tool descriptions for"), not a scan's outcome ("the scan is clean for them").
    r"scan(?:s|ners?|ning)?\s+(?:(?!(?:is|are|was|were|comes?|came)\b)\w+\s+){0,3}?for)\b",
    re.IGNORECASE,
)

# Each opening mark and the marks that close it: « » either way round (French «…», German and Danish »…«), German
# „…“ (or „…" as typed) and Polish „…”, English “…” and ‘…’, CJK 「…」 and 『…』, and the straight double quote.
_CLOSERS = {
    '"': '"',
    "«": "»",
    "»": "«",
    "„": '“”"',
    "“": "”",
    "‘": "’",
    "「": "」",
    "『": "』",
}
_MARK = re.compile('["«»„“”‘’「」『』]')


def quotes_attack(sentence: str) -> bool:
    """Whether `sentence` names attack wording as its subject (an example given, attacks or their detection named)
    rather than saying it."""
    return _ABOUT_ATTACKS.search(sentence) is not None


def quotation_open(head: str) -> bool:
    """Whether a quotation opened in `head` is still open at its end, the marks read in order (a quotation closed
    inside another closes only itself; a closing mark with none open, or an apostrophe between letters, closes
    nothing)."""
    expected: list[str] = []  # the closing marks of each quotation open, innermost last
    for mark in _MARK.finditer(head):
        char, at = mark.group(), mark.start()
        if char == "’" and 0 < at < len(head) - 1 and head[at - 1].isalpha() and head[at + 1].isalpha():
            continue  # an apostrophe ("user’s")
        if expected and char in expected[-1]:
            expected.pop()
        elif char in _CLOSERS:
            expected.append(_CLOSERS[char])
    return bool(expected)
