"""A description that switches script after its lead: a later passage written for a reader the lead does not serve.

Pure. Per the MCP spec a tool's description tells the model, in one voice, what the tool does. When its lead
(the first paragraph) is English in the Latin script and a later paragraph is written in another script (Arabic,
Cyrillic, Han, Tamil, Armenian, Lao, ...) as a note ("备注：...", "Зааварчилгаа: ...": a short label and a colon)
or at more length than the lead itself, the later passage is not a translation of the lead: it says something the
English reader of the listing is not told, in a language chosen so that a reviewer reading the lead skips it. A
tool whose own job is languages (translation, a dictionary, localisation) or the detection of attacks quotes other
scripts honestly; a passage in quotes is quoted; a wholly non-English description, or one in Latin-script languages
(Vietnamese, Polish), has no switch.
"""

from __future__ import annotations

from hintgate.scan.deferred import compiled
from hintgate.scan.spans import Span

__all__ = ["switched"]

# Letters of the Latin script (Basic Latin to Latin Extended-B, IPA, Latin Extended Additional, -C, -D, -E).
_LATIN = ((0x0000, 0x036F), (0x1D00, 0x1DBF), (0x1E00, 0x1EFF), (0x2C60, 0x2C7F), (0xA720, 0xA7FF), (0xAB30, 0xAB6F))
# A passage's least count of letters of another script, to be a passage and not a name quoted.
_LEAST = 10
# A note's label: up to four words, then a colon (or the full stop some scripts write after a label).
_LABEL = compiled(r"\W{0,3}[^\s:：։․]+(?:\s+[^\s:：։․]+){0,3}\s*[:：։․]")
# The lead's English: a function word of English between spaces.
_ENGLISH = compiled(r"(?i)(?:^|\s)(?:the|and|to|of|a|an|for|with|from|or|by|in|on)\s")
# A job that quotes other scripts honestly: languages themselves, or attack wording detected.
_LANGUAGE_JOB = compiled(
    r"(?i)translat|language|locali[sz]|i18n|l10n|dictionar|transliterat|multilingual|bilingual|romani[sz]|pinyin|"
    r"phrasebook|subtitle|captions?|ocr\b|detect|classif|scann|injection|phishing|moderat"
)
_PARAGRAPHS = compiled(r"[^\n]+")
_QUOTES = "\"'“”«»「」『』`"


# A run of characters of the Latin ranges (`_LATIN`): what `_foreign_letters` leaves out before it counts.
_LATIN_RUN = compiled("[" + "".join(f"\\U{low:08x}-\\U{high:08x}" for low, high in _LATIN) + "]+")


def _foreign_letters(text: str) -> int:
    """How many letters of `text` are beyond the Latin script: its Latin runs dropped at once, the rest counted."""
    return sum(1 for char in _LATIN_RUN.sub("", text) if char.isalpha())


def switched(name: str, description: str) -> Span | None:
    """The first later paragraph of `description` (a tool's, named `name`) in another script than its English lead,
    written as a note or at more length than the lead; None when there is none."""
    if description.isascii():
        return None
    paragraphs = [found for found in _PARAGRAPHS.finditer(description) if found.group().strip()]
    if len(paragraphs) < 2:
        return None
    lead = paragraphs[0].group()
    if _foreign_letters(lead) or _ENGLISH.search(f" {lead} ") is None:
        return None
    if _LANGUAGE_JOB.search(f"{name.replace('_', ' ')} {lead}") is not None:
        return None
    for paragraph in paragraphs[1:]:
        text = paragraph.group().strip()
        if _foreign_letters(text) < _LEAST or text[0] in _QUOTES:
            continue
        if _LABEL.match(text) is not None or len(text) > 1.5 * len(lead.strip()):
            return Span(
                paragraph.start(),
                paragraph.end(),
                f"a later paragraph switches from the English lead to another script: {text[:60]!r}",
            )
    return None
