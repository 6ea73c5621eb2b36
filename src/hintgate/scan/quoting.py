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

import bisect
import functools
import json
import re
from typing import Any

from hintgate.scan.cells import key_words, sample_key
from hintgate.scan.cues import Cue
from hintgate.scan.deferred import compiled
from hintgate.scan.spans import line_bounds

__all__ = [
    "DATA_BEFORE",
    "QUOTE_MARK",
    "cited_title",
    "framed_spans",
    "labelled_rows",
    "labelled_values",
    "names_report",
    "quotation_open",
    "quoted_phrases",
    "quoted_spans",
    "quotes_attack",
    "reports_around",
]

# Words that make a sentence about attack wording rather than a use of it: an example introduced, or attacks, their
# detection or classification named.
_ABOUT_ATTACKS = compiled(
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
QUOTE_MARK = compiled('["«»„“”‘’「」『』]')
"""A quotation's opening or closing mark, of the kinds `quotation_open` pairs."""


def quotes_attack(sentence: str) -> bool:
    """Whether `sentence` names attack wording as its subject (an example given, attacks or their detection named)
    rather than saying it."""
    return _ABOUT_ATTACKS.search(sentence) is not None


# After an order's words, each opened by a capital letter: a colon or a dash and more such words, as a title goes on
# ("Ignore Previous Prompt: Attack Techniques for Language Models", a paper's or a talk's name cited).
_TITLE_GOES_ON = compiled(
    r"[ \t]*[:\u2013\u2014-][ \t]*[A-Z][\w'-]*(?:[ \t]+(?:[A-Z][\w'-]*|a|an|and|for|from|in|of|on|the|to|via|with)){2,}"
)
_WORD = compiled(r"[^\W\d_]+")


def cited_title(text: str, start: int, end: int) -> bool:
    """Whether the words of `text[start:end]` are a title cited, not said: two words or more, each opened by a capital
    letter and not all in capitals (shouting is no title), and the title goes on after a colon or a dash."""
    words = _WORD.findall(text, start, end)
    return (
        len(words) >= 2
        and all(word[0].isupper() and not word.isupper() for word in words)
        and _TITLE_GOES_ON.match(text, end) is not None
    )


def quotation_open(head: str) -> bool:
    """Whether a quotation opened in `head` is still open at its end, the marks read in order (a quotation closed
    inside another closes only itself; a closing mark with none open, or an apostrophe between letters, closes
    nothing)."""
    expected: list[str] = []  # the closing marks of each quotation open, innermost last
    for mark in QUOTE_MARK.finditer(head):
        char, at = mark.group(), mark.start()
        if char == "’" and 0 < at < len(head) - 1 and head[at - 1].isalpha() and head[at + 1].isalpha():
            continue  # an apostrophe ("user’s")
        if expected and char in expected[-1]:
            expected.pop()
        elif char in _CLOSERS:
            expected.append(_CLOSERS[char])
    return bool(expected)


# ---- Quoted material in a result: what a text shows as someone else's words, by its layout.
#
# A write-up, a postmortem or a paper that is about attacks shows the attack it reports: a line that introduces it (ends
# with a colon, or a heading), then the words set apart as a block (a fenced or indented code block, a blockquote, a
# paragraph or a list of items wholly inside quotation marks), or inline inside quotation marks or a code span. What is
# so set apart is shown, not said to whoever reads the page, when the text around it (not the quoted words) reports on
# attacks, incidents or their detection. A tool's own verdict frames a quotation too: a verdict ending its line ("→
# BLOCKED", "— scam"), which makes samples of every item of a list judged item by item, a key that names its value
# quoted content or a sample ("Excerpt:", "Payload:") amid a report, and a record written as text whose verdict names
# an attack ("Verdict: MALICIOUS"). The words of a quotation that the text goes on saying outside it are not
# quoted: the scan reads the text again with the quotations blanked out (`scan.poisoning._shown`).

# Words of a text that reports on attacks or shows samples of them, in the commonest languages.
_REPORTS = compiled(
    # Not a word of an address: a domain's "example", a mail's "attacker@".
    # A word of an identifier counts ("hidden_instruction", "llm_injection_9001"): an underscore joins words.
    r"(?<![@./-])(?<![^\W_])(?:inject\w*|attack\w*|payloads?|malicious|poison\w*|jailbreak\w*|red[\s-]?team\w*|phishing|"
    r"exploit\w*|exfiltrat\w*|adversar\w*|malicios\w*|hijack\w*|vulnerab\w*|CTF|proof[\s-]of[\s-]concept|postmortem|post-mortem|post-incident|"
    r"incident|verbatim|hidden[\s_]+(?:instructions?|text|prompt)|quarantin\w*|"
    r"examples?|samples?|scam\w*|fraud\w*|attaqu\w+|"
    # A text judged as an attempt on an AI: "tries to instruct the triage tool", "an instruction aimed at AI agents".
    r"(?:tries|tried|attempts?|attempted|attempting)\s+to\s+(?:instruct|trick|manipulate|hijack|steer)|"
    r"instructions?\s+(?:aimed\s+at|targeting|addressed\s+to)|"
    # A threat named, or an example introduced: "typical lines look like:", "(e.g. ...)", "z. B.", "örneğin".
    r"threat\w*|menace\w*|amenaza\w*|ameaça\w*|bedrohung\w*|minacc\w*|zagrożen\w*|tehdit\w*|угроз\w*|"
    r"typical(?:ly)?|typique\w*|típic\w*|typisch\w*|tipic\w*|typow\w*|типичн\w*|e\.g|z\.\s?B|p\.\s?ej|например|"
    # "For example" abbreviated: Polish, Czech, Dutch, Swedish, Danish and Norwegian, Finnish, Lithuanian, Latvian.
    r"np(?=\.)|např(?=\.)|bijv(?=\.)|t\.\s?ex|f\.\s?eks|esim(?=\.)|pvz(?=\.)|piem(?=\.)|"
    r"saldır\w*|enjeksiyon\w*|örne[kğ]\w*|"
    r"ataque\w*|atacante\w*|angriff\w*|angreifer\w*|inyecci\w+|injeç\w+|iniezion\w+|exemple\w*|ejemplo\w*|"
    r"exemplo\w*|beispiel\w*|esempi\w*|przykład\w*|атак\w*|инъекц\w*|пример\w*)\b(?![\w-]*\.[a-z]|[\w.-]*@)"
    r"|攻击|攻撃|注入|例えば|例如|示例|威胁|脅威|공격|인젝션|예시|위협|هجوم|حقن|تهديد|מתקפה|הזרקה|איום",
    re.IGNORECASE,
)
# The same words searched by RE2 where one may start, Python's engine asked there (`scan.cues.Cue`): the same matches,
# without Python's engine trying every alternative at every character of a long text.
_REPORTS_CUE = Cue(_REPORTS.pattern, re.IGNORECASE)
# ---- A finding's line: a label, a colon, and the words it found quoted to the line's end.
#
# A scanner or a reviewer lists what it found in a document as lines that say where and how each text was found
# ("1. White text on page 2, 9 words: \"...\"", "Comment by 'guest': \"...\"", "Fundstelle Seite 2: „...“"): the
# label is the finding, the quotation its evidence. Such a line quotes when the text around it (its quotations left
# out) says it reports what it found, detected, flagged or saw made invisible (`_FOUND`): words a report uses of
# someone else's text, not of its own. (Not "hidden" alone: an item's state, "Staff picks (hidden)", is no finding.)
_FOUND = (
    r"(?<![@./-])(?<![^\W_])(?:findings?|flagged|detect\w*|invisible|white[\s-]+(?:on[\s-]+white|text)|"
    r"zero[\s-]?width|manipulat\w*|suspicious|scann(?:er|ed)|"
    r"bevinding\w*|gedetecteerd|unsichtbar\w*|fundstelle\w*|erkannt|"
    r"détecté\w*|detectad\w*|rilevat\w*|wykryt\w*|"
    r"обнаружен\w*|tespit)\b(?![\w-]*\.[a-z]|[\w.-]*@)"
    r"|phát\s+hiện|检测|検出|탐지"
)
_FOUND_CUE = Cue(_FOUND, re.IGNORECASE)
# Before a quotation on its line: a label and its colon (in any script), or a list's mark alone (the item is the
# quotation); after it, at most a stop to the line's end.
_LABEL_BEFORE = compiled(r"[^\n]*\S[ \t]?[:：][ \t]*|[ \t]*(?:[-*+\u2022]|\d+[.)])[ \t]+")
_LINE_END_AFTER = compiled(r"[ \t]*[.,;]?[ \t]*(?:\n|$)")
# An HTML comment on one line: in a text shown as it is written, the words a page hid from its readers, shown.
_COMMENT = compiled(r"<!--[^\n]{3,400}?-->")


def _finding_line(text: str, found: _Reports, line: int, start: int, end: int) -> bool:
    """Whether `text[start:end]` (its line starting at `line`) is the evidence of a finding's line: the value of its
    line's label (a label and a colon or a list's mark before it, its line's end after it), in a text that says, out
    of its quotations, that it reports what it found (`found`, of `_FOUND`; read only for such a line)."""
    return (
        _LABEL_BEFORE.fullmatch(text, line, start) is not None
        and _LINE_END_AFTER.match(text, end) is not None
        and (found.between(start - _BEFORE, start) or found.between(end, end + _AFTER))
    )


# How far around a quotation the text reporting on it is read.
_BEFORE = 600
_AFTER = 300
# A line that introduces what follows: it ends with a colon, or it is a heading ("## The payload", "**Example 2**").
_LEAD = compiled(r"[^\n]*[:：][ \t]*$|[ \t]*#{1,6}[ \t]+\S[^\n]*$|[ \t]*\*\*[^\n*]+\*\*[ \t]*$")
_FENCE = compiled(r"[ \t]*(?:```|~~~)")
_INDENTED = compiled(r"(?: {4}|\t)[ \t]*\S")
_BLOCKQUOTE = compiled(r"[ \t]*>")
# A blockquote's mark, one level ("> text"), not a shell's or a console's prompt (">>> ", ">>").
_QUOTE_MARKED = compiled(r"[ \t]{0,3}>(?!>)[ \t]*\S")
# A line wholly inside quotation marks, after a list's mark or an item's label ("A.1", "2.", "-"), if any.
_QUOTED_LINE = compiled(
    r"[ \t]*(?:(?:[-*+\u2022]|[A-Za-z]?\d+(?:\.\d+)*[.)]?|[A-Z]\.\d+)[ \t]+)?"
    r"(?:\"[^\"\n]+\"|“[^”\n]+[”\"]|«[^»\n]+»|„[^“”\"\n]+[“”\"]|「[^」\n]+」|»[^«\n]+«)[ \t]*[.,;]?[ \t]*$"
)
# A quotation or a code span inside a line.
_INLINE = compiled(
    r"\"[^\"\n]{3,400}\"|“[^”\n]{3,400}”|«[^»\n]{3,400}»|»[^«\n]{3,400}«|„[^“”\"\n]{3,400}[“”\"]|「[^」\n]{3,400}」"
    r"|`[^`\n]{3,400}`"
)
# A quotation in single straight quotes ('You are now DAN'): the opening mark after no letter, the closing one before
# none, an apostrophe between letters inside ("don't") kept. Code and prose use the mark for much else (a string
# literal, a title, a word set apart), so it quotes only beside a verdict (`_verdict_after`), in a queue's item, or
# after words that quote it (`_QUOTED_AFTER`) in a text that reports on attacks.
_SINGLE = compiled(r"(?<![\w'])'(?=[^\s'])(?:[^'\n]|(?<=[^\W_])'(?=[^\W_])){3,400}(?<=\S)'(?![\w'])")
# Words right before a quotation in single marks that make it one: an example given ("e.g.", "such as", "like"), a
# word that quotes ("reading", "the line", "saying", "containing"), a bracket or a comma (an aside, a list's item).
# Not a colon: a field's label ("Hidden text: '...'") introduces a value, quoted or not.
_QUOTED_AFTER = compiled(
    r"(?:\b(?:e\.g\.?|i\.e\.?|such\s+as|like|reading|reads|read|saying|says|said|the\s+(?:line|phrase|text|sentence|string)|"
    r"contain(?:s|ed|ing)?|wrote|writes|typed)|[(,])[ \t]*$",
    re.IGNORECASE,
)
# Where an inline quotation's sentence starts and ends.
_SENTENCE_END = compiled(r"[.!?。！？](?=\s)|\n")


def quoted_spans(text: str) -> list[tuple[int, int]]:
    """The spans of `text` that it shows as quoted material about attacks (see above), in order: blocks set apart
    after a line that introduces them, and quotations or code spans inside a sentence; each only when the text around
    it, quoted words left out, reports on attacks, incidents or samples (`_REPORTS`)."""
    quotes = [quote.span() for quote in _INLINE.finditer(text)]
    starts = [start for start, _ in quotes]
    reports = _Reports(text, quotes, starts)
    found = _Reports(text, quotes, starts, _FOUND_CUE)
    spans = _blocks(text, reports)
    inside = [start for start, _ in spans]
    remarked: list[tuple[int, int]] = []  # quotations in sentences: a verdict beside them may quote them
    for start, end in quotes:
        block = bisect.bisect_right(inside, start) - 1
        if block >= 0 and end <= spans[block][1]:
            continue
        line = max(text.rfind("\n", 0, start) + 1, start - 200)
        data = DATA_BEFORE.search(text, line, start)
        if data is not None and _quoting_key(data.group(1) or data.group(2)):
            # A value whose own key names it quoted content or a sample ("Excerpt:", "Payload:"): a quotation when the
            # text around it reports on attacks, as one in a sentence is.
            if reports.between(start - _BEFORE, start):
                spans.append((start, end))
            continue
        if data is not None or _DATA_AFTER.match(text, end) or _csv_field(text, line, start, end):
            continue  # a value of data ("note": "...", key: "...", a CSV row's field), not a quotation in a sentence
        if (
            reports.between(start - _BEFORE, start)
            or reports.between(end, _sentence_end(text, end))
            or moderated(text, start, end)
            or _finding_line(text, found, line, start, end)
        ):
            spans.append((start, end))
        remarked.append((start, end))
    if "<!--" in text:
        for comment in _COMMENT.finditer(text):
            # An HTML comment a finding's line shows as its evidence ("Offset 1,044: <!-- ... -->").
            start, end = comment.span()
            if _finding_line(text, found, max(text.rfind("\n", 0, start) + 1, start - 200), start, end):
                spans.append((start, end))
    if "'" in text:
        for quote in _SINGLE.finditer(text):
            # In single marks too, a quotation an item of a queue reports on ("#48211 — phrase matched: '...'").
            start, end = quote.span()
            if moderated(text, start, end) or (
                _QUOTED_AFTER.search(text, max(start - 40, 0), start) is not None
                and (reports.between(start - _BEFORE, start) or reports.between(end, _sentence_end(text, end)))
            ):
                spans.append((start, end))
            else:
                remarked.append((start, end))
    return sorted({*spans, *_judged(text, remarked), *_record_values(text)})


# A line of a record written as text: a key of a few words (a remark in brackets allowed) and its value.
_RECORD_LINE = compiled(
    r"[ \t]*([A-Za-z][\w/-]*(?:[ \t]+[\w/-]+){0,3}(?:[ \t]*\([^()\n]{1,40}\))?)[ \t]*:[ \t]*(\S[^\n]*)"
)
# A record's value wholly inside quotation marks, double or single.
_WHOLE_QUOTE = compiled(
    r"(\"[^\"\n]{3,400}\"|'[^\n]{3,400}'|“[^”\n]{3,400}”|«[^»\n]{3,400}»|„[^“”\"\n]{3,400}[“”\"])[ \t]*[.,;]?[ \t]*"
)


def quoted_phrases(text: str) -> list[tuple[int, int]]:
    """The spans of `quoted_spans` that hold more than one word: a name in code quotes (`notes`, `history`,
    `get_weather`) is a call's field or a tool named, not a quotation."""
    return [(low, high) for low, high in quoted_spans(text) if " " in text[low:high]]


def _record_values(text: str) -> list[tuple[int, int]]:
    """The quoted values of the records written as text (a paragraph of `Key: value` lines) that one of their lines
    labels as a finding about attacks: its key a label's (`Verdict`, `Classification`, `Action`) and its value a short
    name of an attack or a blocking ("Verdict: MALICIOUS (credential harvesting)"). The record's quoted values are
    what it judged, shown as a JSON record's labelled strings are (`labelled_values`)."""
    if ":" not in text:
        return []
    spans: list[tuple[int, int]] = []
    lines = line_bounds(text)
    paragraph: list[tuple[int, int]] = []
    for bounds in [*lines, (len(text), len(text))]:
        if text[bounds[0] : bounds[1]].strip():
            paragraph.append(bounds)
            continue
        labelled = False
        values: list[tuple[int, int]] = []
        for start, end in paragraph:
            line = _RECORD_LINE.fullmatch(text, start, end)
            if line is None:
                continue
            value = line.group(2).strip()
            if _label_key(line.group(1)) and len(value) <= _LABEL_CHARACTERS and _names_attack(value):
                labelled = True
            whole = _WHOLE_QUOTE.fullmatch(text, line.start(2), end)
            if whole is not None:
                values.append(whole.span(1))
        if labelled:
            spans.extend(values)
        paragraph = []
    return spans


def _judged(text: str, quotes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The quotations of `quotes` that stand in a list judged item by item: each ends its line with a remark after an
    arrow, a dash or a bar (`_REMARK_AFTER`), on lines one after another, and one of them at least is a verdict
    (`_verdict_after`: "→ BLOCKED", "— scam"). The items of such a list are its samples, the one remarked "attempts
    to trick AI assistants" as much as the one remarked "scam"."""
    items = sorted((text.count("\n", 0, start), start, end) for start, end in quotes if _remark(text, end) is not None)
    judged: list[tuple[int, int]] = []
    run: list[tuple[int, int, int]] = []
    for item in [*items, (len(text) + 2, 0, 0)]:  # the last: a line past the text's, to end the last run
        if run and item[0] - run[-1][0] > 1:
            if any(_verdict_after(text, end) for _, _, end in run):
                judged.extend((start, end) for _, start, end in run)
            run = []
        run.append(item)
    return judged


# The words of a key that names its value someone else's words quoted: an excerpt, a quotation, the text a filter
# matched, flagged, blocked or quarantined.
_QUOTING_KEY_WORDS = frozenset(
    {"excerpt", "excerpts", "quote", "quoted", "quotation", "verbatim", "offending", "matched", "flagged", "blocked"}
    | {"quarantined", "reported", "removed", "rejected"}
)


def _quoting_key(key: str | None) -> bool:
    """Whether a data value's key names it quoted content (`_QUOTING_KEY_WORDS`) or a sample of someone else's words
    (`scan.cells.sample_key`: "Payload:", "example")."""
    if key is None:
        return False
    return any(word.lower() in _QUOTING_KEY_WORDS for word in key_words(key)) or sample_key(key)


# After a quotation, ending its line: an arrow, a dash or a table's bar, then the verdict on what is quoted
# ("→ BLOCKED", "— REMOVED (spam)", "→ PARTIAL (leaked tool name)"): a word in capitals, in any script, or a word
# that names an attack or a blocking, and at most a remark in brackets after it. What a verdict stands beside is the
# subject judged, not words said to the reader; a line that goes on after the word ("— TLS: certificate expired")
# holds no verdict.
_VERDICT_AFTER = compiled(
    r"[ \t]*[.,;]?[ \t]*(?:→|->|=>|—|–|-|\|)[ \t]*\[?([^\W\d_][^\W\d_-]{2,})\]?(?![^\W\d_])"
    r"(?:[ \t]*\([^()\n]{0,80}\))?[ \t]*[.;]?[ \t]*(?:\n|$)"
)


# Or after the same marks, the rest of the line: a remark on what is quoted ("— smishing scam", "→ credential page
# (blocked)").
_REMARK_AFTER = compiled(r"[ \t]*[.,;]?[ \t]*(?:→|->|=>|—|–|-|\|)[ \t]*([^\n]{3,80})(?:\n|$)")


# How many words a remark after a quotation holds at most.
_REMARK_WORDS = 12


def _remark(text: str, end: int) -> str | None:
    """The remark that ends the line of the quotation ending at `end`, after an arrow, a dash or a bar, if any."""
    remark = _REMARK_AFTER.match(text, end)
    return remark.group(1) if remark is not None and len(remark.group(1).split()) <= _REMARK_WORDS else None


def _verdict_after(text: str, end: int) -> bool:
    """Whether the quotation ending at `end` has a verdict beside it on its line: a word in capitals
    (`_VERDICT_AFTER`), or a remark that names an attack or a blocking."""
    verdict = _VERDICT_AFTER.match(text, end)
    if verdict is not None and (verdict.group(1).isupper() or _names_attack(verdict.group(1))):
        return True
    remark = _remark(text, end)
    return remark is not None and _names_attack(remark)


class _Reports:
    """Where `text` reports on attacks (`_REPORTS`, or the words of `cue`), outside its quotations: whether it does
    between two places."""

    def __init__(self, text: str, quotes: list[tuple[int, int]], starts: list[int], cue: Cue | None = None) -> None:
        self._text, self._quotes, self._starts, self._cue = text, quotes, starts, cue or _REPORTS_CUE

    @functools.cached_property
    def _at(self) -> list[int]:
        """Where the words start, outside the quotations (read on the first question)."""
        at: list[int] = []
        for word in self._cue.finditer(self._text):
            quote = bisect.bisect_right(self._starts, word.start()) - 1
            if quote < 0 or word.start() >= self._quotes[quote][1]:
                at.append(word.start())
        return at

    def between(self, low: int, high: int) -> bool:
        """Whether a report word starts in `low`:`high`."""
        first = bisect.bisect_left(self._at, max(low, 0))
        return first < len(self._at) and self._at[first] < high


def reports_around(text: str, start: int, end: int) -> bool:
    """Whether the text around `text[start:end]` (before it, and after it to its sentence's end), the span itself left
    out, reports on attacks, incidents or samples (`_REPORTS`): a value a security tool's output shows as data (a
    classifier's input, a rule's match) is shown, as a quotation in such a text is."""
    return (
        _REPORTS.search(text, max(0, start - _BEFORE), start) is not None
        or _REPORTS.search(text, end, _sentence_end(text, end)) is not None
    )


def names_report(key: str) -> bool:
    """Whether a data value's key or column header (`attack_sample`, `incident`) is a word of a report on attacks,
    incidents or samples (`_REPORTS`): the word that `reports_around` and `quoted_spans` find before the value."""
    return _REPORTS.search(" ".join(key_words(key))) is not None


# ---- An item a moderation queue or a filter reports on: its words judge the quotation it holds.
#
# A queue lists what people reported or a filter flagged: "Post 9912 — reported for malware link. Content: "..."",
# "[3] comment by u/... — 4 reports" over a blockquote, "Appeal ... (banned for spam)" over the appeal's text. The
# words that report an item (reported or flagged by or for something, a heading "FLAGGED (7):", a count of reports,
# spam, malware, a message impersonating someone) judge only the item they stand in: its list item (or its
# paragraph when it is in no list) and the line that heads its list; a queue's other items say nothing of it (an
# appeal quoted in a queue beside a reported post is the appeal's own text, said to whoever reads the queue). Such an
# item quotes in single marks too ("#48211 — phrase matched: '...'"): the item's report, not a verdict beside the
# quotation, makes it a sample.
_MODERATED = compiled(
    # Not a word of an address ("seo-spam-farm.xyz", "spam@").
    r"(?<![@./-])(?<![^\W_])(?:(?:reported|flagged)(?:[ \t]+(?:for|by|as)\b|[ \t]*(?:\(\d+\)[ \t]*)?:|"
    r"[ \t]+(?:posts?|messages?|comments?|content|reviews?|items?|tickets?)\b)|"
    r"\d+[ \t]+reports?\b|spam\w*|malware|impersonat\w*|signalé\w*|signalement\w*|gemeldet\w*|denunciad\w*|"
    r"segnalat\w*|segnalazion\w*)(?![\w-]*\.[a-z]|[\w.-]*@)",
    re.IGNORECASE,
)
# A line that opens an item of a list: a list's mark, a number, or a number in brackets or after a hash ("[3]",
# "#48211").
_ITEM_START = compiled(r"[ \t]*(?:[-*+\u2022]|\d+[.)]|\[\d+\]|#\d+)[ \t]")
# How many lines around a quotation its item holds at most (a paragraph with no list in it).
_ITEM_LINES = 6


def moderated(text: str, start: int, end: int) -> bool:
    """Whether the item that `text[start:end]` stands in (its list item, else its paragraph, a few lines each way,
    and the line ending with a colon that heads its list), the span itself left out, reports it as a moderation
    queue or a filter does (`_MODERATED`). Read within `_BEFORE` characters each way of the span (the heading within
    eight times that, its first `_BEFORE` characters): a text of one long line with a quotation every few words
    costs a bounded read per quotation, not one of the whole line."""
    floor = max(0, start - _BEFORE)
    ceiling = min(len(text), end + _BEFORE)
    low = text.rfind("\n", floor, start) + 1 or floor
    heading = -1
    for _ in range(_ITEM_LINES):
        if low <= floor or _ITEM_START.match(text, low):
            break
        above = text.rfind("\n", floor, low - 1) + 1 or floor
        if not text[above : low - 1].strip():
            break
        low = above
    if _ITEM_START.match(text, low):
        above = low
        top = max(0, start - 8 * _BEFORE)
        for _ in range(_ITEM_LINES * 8):
            if above <= top:
                break
            line = text.rfind("\n", top, above - 1) + 1 or top
            words = text[line : above - 1].rstrip()
            if not words:
                break
            if words.endswith((":", "：")) and not _ITEM_START.match(text, line):
                heading = line
                break
            above = line
    high = text.find("\n", end, ceiling)
    high = ceiling if high < 0 else high
    for _ in range(_ITEM_LINES):
        if high >= ceiling:
            break
        below = text.find("\n", high + 1, ceiling)
        below = ceiling if below < 0 else below
        if not text[high + 1 : below].strip() or _ITEM_START.match(text, high + 1):
            break
        high = below
    if _MODERATED.search(text, low, start) or _MODERATED.search(text, end, high):
        return True
    if heading < 0:
        return False
    stop = text.find("\n", heading, heading + _BEFORE)
    return _MODERATED.search(text, heading, min(len(text), heading + _BEFORE) if stop < 0 else stop) is not None


def _sentence_end(text: str, at: int) -> int:
    stop = min(len(text), at + _AFTER)
    end = _SENTENCE_END.search(text, at, stop)
    return end.start() if end else stop


# What stands before a data value's opening quotation mark: a JSON member's name and its colon, a key at its line's
# start (the key, group 1 or 2), an array's or an object's opening. Such a mark quotes nothing: the value is said by
# the data it is in (a list of strings in prose, "...", "...", quotes them: the strings after the first are left to
# the quotation's reading).
DATA_BEFORE = compiled(r"(?:\"([^\"\n]*)\"|^[ \t]*([-\w.]+))[ \t]*:[ \t]*$|[\[{][ \t]*$", re.MULTILINE)
_DATA_AFTER = compiled(r"[ \t]*[:=]")


def _csv_field(text: str, line: int, start: int, end: int) -> bool:
    """Whether the quotation `text[start:end]` is a field of a CSV row: its marks set right against the row's commas
    (or the line's ends), with a comma on at least one side ("...,Recovered,\"text, with commas\",..."): a sentence
    puts a space after its comma."""
    before = text[start - 1] if start > line else "\n"
    after = text[end] if end < len(text) else "\n"
    return (before == "," and after in ",\r\n") or (before == "\n" and after == ",")


def _blocks(text: str, reports: _Reports) -> list[tuple[int, int]]:
    """The blocks set apart after a line that introduces them, whose surroundings report on attacks."""
    lines = line_bounds(text)
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        start, end = lines[i]
        if _QUOTE_MARKED.match(text, start, end) and not (i and _BLOCKQUOTE.match(text, *lines[i - 1])):
            # A blockquote that no line introduces: quoted when the item it stands in reports on it (a queue's item
            # "comment by u/... — 8 reports" heading the comment).
            last = _block_end(text, lines, i)
            if last is not None and moderated(text, start, lines[last][1]):
                spans.append((start, lines[last][1]))
                i = last + 1
                continue
        if not _LEAD.fullmatch(text, start, end) or _FENCE.match(text, start, end) or not text[start:end].strip():
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not text[lines[j][0] : lines[j][1]].strip():
            j += 1
        last = _block_end(text, lines, j)
        if last is None:
            i += 1
            continue
        block = (lines[j][0], lines[last][1])
        if reports.between(start - _BEFORE, end) or reports.between(block[1], block[1] + _AFTER):
            spans.append(block)
        i = last + 1
    return spans


def framed_spans(text: str) -> list[tuple[int, int]]:
    """The blocks of `text` between a banner that names what they hold a report's sample ("----- quoted phishing
    email -----": its own words report on attacks) and the rule that closes them, in order."""
    if "---" not in text and "===" not in text and "~~~" not in text and "***" not in text and "###" not in text:
        return []
    lines = line_bounds(text)
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        framed = _framed(text, lines, i)
        if framed is None:
            i += 1
            continue
        spans.append(framed[0])
        i = framed[1] + 1
    return spans


# A banner that opens a block between rules and names what it holds ("----- quoted phishing email -----",
# "=== Suspicious message (verbatim) ==="), and the rule that closes it.
_BANNER = compiled(r"[ \t]*([-=~*_#]{3,})[ \t]*(\S[^\n]{0,80}?)[ \t]*\1[ \t]*")
_RULE = compiled(r"[ \t]*[-=~*_#]{3,}[ \t]*")
# How many lines a block between rules holds at most: a quoted message, not the rest of a page.
_FRAMED_LINES = 60


def _framed(text: str, lines: list[tuple[int, int]], first: int) -> tuple[tuple[int, int], int] | None:
    """The block that line `first` opens as a banner naming it a report's sample (its own words report on attacks:
    "quoted phishing email"), up to the rule that closes it: its span and its last line; None when the line is no
    such banner or no rule closes the block soon enough."""
    banner = _BANNER.fullmatch(text, *lines[first])
    if banner is None or _REPORTS.search(banner.group(2)) is None:
        return None
    for k in range(first + 1, min(len(lines), first + 1 + _FRAMED_LINES)):
        if _RULE.fullmatch(text, *lines[k]):
            return ((lines[first + 1][0], lines[k - 1][1]), k) if k > first + 1 else None
    return None


def _block_end(text: str, lines: list[tuple[int, int]], first: int) -> int | None:
    """The last line of the block that starts at line `first` (None: no block starts there)."""
    if first >= len(lines):
        return None

    def line(k: int) -> str:
        return text[lines[k][0] : lines[k][1]]

    if _FENCE.match(line(first)):
        for k in range(first + 1, len(lines)):
            if _FENCE.match(line(k)):
                return k
        return len(lines) - 1
    for form in (_INDENTED, _BLOCKQUOTE, _QUOTED_LINE):
        if not form.match(line(first)) or (form is _QUOTED_LINE and not form.fullmatch(line(first))):
            continue
        last = first
        k = first + 1
        while k < len(lines):
            if form.match(line(k)) and (form is not _QUOTED_LINE or form.fullmatch(line(k))):
                last = k
            elif line(k).strip():
                break  # a line of another form ends the block
            k += 1
            if k - last > 2:  # more than one blank line ends it
                break
        return last
    # A paragraph wholly inside quotation marks.
    k = first
    while k + 1 < len(lines) and line(k + 1).strip():
        k += 1
    paragraph = text[lines[first][0] : lines[k][1]].strip().replace("\n", " ")
    match = _INLINE.fullmatch(paragraph.rstrip(".,;")) or _QUOTED_LINE.fullmatch(paragraph)
    return k if match and not paragraph.startswith("`") else None


# ---- A record labelled as a finding: a classifier's or an evaluation's samples, a detector's alerts.
#
# A JSON document a security tool returns holds the text it judged beside its judgement: `{"text": "...", "label":
# "injection"}`, `{"snippet": "...", "rule": "LLM gateway: injection pattern", "verdict": "blocked"}`. The record's
# label names what the text was found to be: the text is the record's subject, shown, not said to whoever reads it.
# A set of such records is labelled as a whole: its records labelled "benign" are samples of the same set. The label
# is read from the record's structure (a member whose key says it labels the record, its value a short name of an
# attack or of a detection's outcome), never from the sample's own words; what no key makes a sample of still stands
# in it (`scan.poisoning._blatant`).

# A key that says its value labels the record it stands in (its words, `scan.cells.key_words`): a filter's score too,
# when its value names a blocking ("Score: 0.97 → would be BLOCKED"). A record's status is no label: an order or a
# claim "denied" or "blocked" is the record's business, not a verdict on the text it holds.
_LABEL_KEYS = frozenset(
    {"label", "labels", "verdict", "verdicts", "classification", "category", "categories", "class", "assessment"}
    | {"decision", "rule", "detection", "disposition", "outcome", "action", "score"}
)
# A label's value that names the text an attack (a text's kind of attack, or a text found malicious and stopped), not
# what it describes: an endpoint alert's "Suspicious PowerShell encoded command" names a process's behaviour, and the
# text beside it (the command line) is that process's, not a sample the record shows.
_FOUND_AS = compiled(
    r"(?<![^\W_])(?:inject\w*|attack\w*|jailbreak\w*|poison\w*|phish\w*|malicious|exfil\w*|scam\w*|fraud\w*|"
    r"spam|quarantin\w*)(?![^\W_])",
    re.IGNORECASE,
)
# A label is a name, not prose.
_LABEL_CHARACTERS = 80
# How deep a document is walked.
_LABEL_DEPTH = 32


def labelled_values(text: str) -> frozenset[str]:
    """The strings of the JSON document `text` holds (the whole text, parsed) that stand in a record labelled as a
    finding about attacks (see above), or in a record of a set that shares its label's key with such a record; the
    labels themselves are not among them."""
    stripped = text.strip()
    if len(stripped) < 2 or stripped[0] not in "{[" or ('"' not in stripped):
        return frozenset()
    try:
        data = json.loads(stripped)
    except ValueError:
        return frozenset()
    found: set[str] = set()
    _labelled_walk(data, False, found, 0)
    return frozenset(found)


def _label_key(key: str) -> bool:
    return any(word.lower() in _LABEL_KEYS for word in key_words(key))


def _found_as(value: Any) -> bool:
    """Whether `value` (a label's) names an attack or a detection's outcome: a short string, or a list of them."""
    values = value if isinstance(value, list) else [value]
    return any(isinstance(v, str) and len(v) <= _LABEL_CHARACTERS and _names_attack(v) for v in values)


def _names_attack(label: str) -> bool:
    """Whether a label's value names an attack or a blocking."""
    return _FOUND_AS.search(label) is not None or _BLOCKING.search(label) is not None


def _labelled(record: dict[str, Any]) -> bool:
    return any(isinstance(key, str) and _label_key(key) and _found_as(value) for key, value in record.items())


def _labelled_walk(node: Any, framed: bool, found: set[str], depth: int) -> None:
    if depth > _LABEL_DEPTH:
        return
    if isinstance(node, str):
        if framed:
            found.add(node)
    elif isinstance(node, list):
        records = [item for item in node if isinstance(item, dict)]
        labelled = [record for record in records if _labelled(record)]
        keys = {key for record in labelled for key in record if _label_key(key)}
        for item in node:
            # A record of a labelled set: it holds one of the label keys of a labelled record beside it.
            in_set = isinstance(item, dict) and bool(labelled) and any(key in keys for key in item)
            _labelled_walk(item, framed or in_set, found, depth + 1)
    elif isinstance(node, dict):
        framed = framed or _labelled(node)
        for key, value in node.items():
            if not (isinstance(key, str) and _label_key(key)):
                _labelled_walk(value, framed, found, depth + 1)


# ---- A log's rows labelled as attacks: a firewall's, a SIEM's, a loss-prevention digest's.
#
# A row of a log holds the request or the command it recorded beside the detector's label for it: `... body="ignore
# previous instructions ..." rule=llm-injection-9001`, `... rule=LLM-PI-001 action=BLOCK`. A row whose field keyed
# as a label (`scan.quoting._LABEL_KEYS`) names an attack or a blocking shows what it recorded, and so do the rows of
# the same log that hold the same label's key (its rows passed or only counted are samples of the same log).

# A `key=value` field of a row: its key, and its value (quoted, or up to the next space).
_ROW_FIELD = compiled(r"(?<![\w.-])([A-Za-z][\w.-]{0,40})=(\"[^\"\n]{0,200}\"|'[^'\n]{0,200}'|[^\s\"']{1,80})")
# A label's value that names a blocking (a detector's outcome for what it stopped).
_BLOCKING = compiled(r"(?<![^\W_])(?:block\w*|den(?:y|ied)|drop(?:ped)?)(?![^\W_])", re.IGNORECASE)


def labelled_rows(text: str) -> list[tuple[int, int]]:
    """The spans of the lines of `text` that are rows of a log labelled as attacks (see above), or rows of a table
    whose column headed as a label names an attack or a blocking in one of its rows, in order."""
    lines = line_bounds(text)
    spans = _labelled_table_rows(text, lines)
    if "[" in text:
        spans.extend(_tagged_rows(text, lines))
    if "=" not in text:
        return sorted(set(spans))
    rows: list[tuple[int, int, set[str]]] = []  # each row holding a label's key: its span and its label keys
    keys: set[str] = set()  # the label keys of the rows labelled as attacks
    for start, end in lines:
        mine: set[str] = set()
        found = False
        for field in _ROW_FIELD.finditer(text, start, end):
            key = field.group(1).lower()
            if not _label_key(key):
                continue
            mine.add(key)
            value = field.group(2).strip("\"'")
            if len(value) <= _LABEL_CHARACTERS and _names_attack(value):
                found = True
        if mine:
            rows.append((start, end, mine))
            if found:
                keys |= mine
    return sorted({*spans, *((start, end) for start, end, mine in rows if mine & keys)})


# A row's status tag at its line's start, in brackets after a time or a list's mark if any: "[removed: spam]",
# "2026-12-02 10:14 [BLOCKED prompt-injection]", "- [quarantined]".
_ROW_TAG = compiled(r"[ \t]*(?:[-*+\u2022][ \t]+)?(?:[\d:.TZ/+-]{4,}[ \t]+){0,2}\[([^\[\]\n]{2,60})\]")


def _tagged_rows(text: str, lines: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans of the lines of `text` whose status tag (`_ROW_TAG`) names an attack or a blocking: a moderation
    queue's "[removed: prompt-injection]", an audit log's "[BLOCKED]" show the text they judged."""
    return [(start, end) for start, end in lines if (tag := _ROW_TAG.match(text, start, end)) and _names_attack(tag[1])]


# A table's header line: three cells or more, each a name of a few words, split by commas, tabs, or two spaces or
# more (a column aligned by spaces starts where its header starts).
_HEADER_CELL = compiled(r"[A-Za-z][\w.-]{0,30}(?: [\w.-]{1,20}){0,2}")
_SPACED = compiled(r"\S+(?: \S+)*")
# How many rows of a table are read below its header.
_TABLE_ROWS = 2000


def _labelled_table_rows(text: str, lines: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans of the rows of the tables in `text` (a header line, then rows up to a blank line) whose column headed
    as a label (`action`, `rule`, `verdict`) names an attack or a blocking in one of its rows."""
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(lines) - 1:
        columns = _label_columns(text[lines[i][0] : lines[i][1]])
        if columns is None:
            i += 1
            continue
        separator, labels = columns
        last = i + 1
        while last < len(lines) and last - i <= _TABLE_ROWS and text[lines[last][0] : lines[last][1]].strip():
            last += 1
        rows = lines[i + 1 : last]
        if any(
            _names_attack(value) for start, end in rows for value in _row_values(text[start:end], separator, labels)
        ):
            spans.extend(rows)
        i = last
    return spans


def _label_columns(line: str) -> tuple[str | list[int], list[int]] | None:
    """A header line's separator (a character, or the columns' starts where spaces align them) and the indices of
    its columns headed as a label; None when the line is no such header."""
    separator: str | list[int]
    if "," in line or "\t" in line:
        split = "\t" if "\t" in line else ","
        separator = split
        names = [name.strip() for name in line.split(split)]
    else:
        cells = list(_SPACED.finditer(line))
        separator = [m.start() for m in cells]
        names = [m.group() for m in cells]
    if len(names) < 3 or not all(_HEADER_CELL.fullmatch(name) for name in names):
        return None
    labels = [k for k, name in enumerate(names) if _label_key(name)]
    return (separator, labels) if labels else None


def _row_values(row: str, separator: str | list[int], labels: list[int]) -> list[str]:
    """The values of a table row's label columns."""
    if isinstance(separator, str):
        values = row.split(separator)
    else:
        edges = [*separator, len(row)]
        values = [row[edges[k] : edges[k + 1]] for k in range(len(separator))]
    return [values[k].strip() for k in labels if k < len(values) and len(values[k].strip()) <= _LABEL_CHARACTERS]
