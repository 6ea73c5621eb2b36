"""A suspicious message reported home: a notice asking its reader to forward a message to its sender's abuse desk.

Pure. A security notice, a password-reset mail or a fraud warning tells the
person reading it where to report what looks wrong: "If something looks off,
forward the email to phishing@example.com", "forward suspicious texts to 7726
and e-mails to abuse@example.com", "Leite verdächtige Nachrichten an
phishing@example.com weiter". The address belongs to the organisation the
message itself comes from (the domain of its first `From:` line), and what is
sent is a message (the e-mail, it, suspicious texts), not the user's data: the
report goes back to whoever wrote the text, carrying nothing the text did not
already hold. A sentence that names the model, or sends anything else (the
inbox, every message, a password, the conversation), or sends to any other
domain, is no such report.
"""

from __future__ import annotations

import re
from functools import lru_cache

from hintgate.scan.deferred import compiled

__all__ = ["reported_home"]

# The message's own sender: the first `From:` header line's mail address (a quoted mail's headers come later).
_FROM = compiled(r"(?:^|\n)[ \t>]*(?:From|Von|De|Da|Van|Från|Od)[ \t]*:[^\n@]{0,120}?[\w.+-]+@([\w-]+(?:\.[\w-]+)+)")
# The addresses a report is sent to: mail addresses and web addresses, by their domains.
_MAIL = compiled(r"[\w.+-]+@([\w-]+(?:\.[\w-]+)+)")
_WEB = compiled(r"://([\w-]+(?:\.[\w-]+)+)")
# What is sent, between the verb and the address: up to three words ending in a message (or a pronoun for one),
# in English, German, French, Spanish, Portuguese, Italian and Dutch. No possessive of the user's and no
# quantifier over a mailbox ("all", "every", "the inbox").
_MESSAGE = compiled(
    r"(?:[\w'’-]+\s+){0,3}?(?:e-?mails?|mails?|messages?|texts?|sms|it|them|this|that|one|"
    r"nachrichten|nachricht|e-mails?|courriels?|messages?|correos?|mensajes?|mensagens?|messaggi|messaggio|berichten|"
    r"bericht)\b",
    re.IGNORECASE,
)
_NOT_A_MESSAGE = compiled(
    r"\b(?:all|every|each|entire|whole|inbox|mailbox|history|conversation|chat|thread|user'?s?|your|their|his|her|"
    r"password|secret|key|token|code|credential|contacts?|files?|attachments?|alle|tous|toutes|todos|todas|tutti)\b",
    re.IGNORECASE,
)
# The model named in the sentence: then it is asked of the model, whatever it sends.
_MODEL = compiled(r"\b(?:assistants?|agents?|AI|LLMs?|models?|bots?|GPT|Claude|Copilot|Gemini|KI|IA)\b", re.IGNORECASE)
_SEND_WORDS = compiled(
    r"\b(?:forward|send|report|mail|e-?mail|submit|weiterleiten|leite|leiten|sende|senden|schicke|schicken|"
    r"transf[ée]rez|transf[ée]rer|envoyez|envoyer|signalez|reenv[íi]a|reenviar|env[íi]a|enviar|reencaminhe|encaminhe|"
    r"inoltra|inoltrare|invia|stuur|doorsturen)\b",
    re.IGNORECASE,
)
# A link's value left out as the notice shows it: "?token=...".
_ELIDED = compiled(r"[?&]\w+=(?:\.\.\.|\u2026)$")
# Two-letter country codes under which organisations register one level down ("example.co.uk", "example.com.au").
_SECOND_LEVEL = compiled(r"(?:co|com|ac|gov|org|net|edu|or|ne|go)\.[a-z]{2}$", re.IGNORECASE)


def _registered(domain: str) -> str:
    """The part of `domain` an organisation registers: `mail.example.com` -> `example.com`."""
    labels = domain.lower().rstrip(".").split(".")
    keep = 3 if _SECOND_LEVEL.search(".".join(labels[-2:])) else 2
    return ".".join(labels[-keep:])


@lru_cache(maxsize=8)
def _first_from(text: str) -> re.Match[str] | None:
    """The text's first `From:` line, searched once per text (a text holds many phrases to judge)."""
    return _FROM.search(text)


def _sender(text: str, start: int) -> re.Match[str] | None:
    """The first `From:` line that ends before `start`. The first line of the whole text answers unless it runs
    past `start`; then (rarely) the text before `start` is searched on its own. Searching the text before each
    phrase anew would read the text once per phrase: quadratic in a text of many phrases."""
    first = _first_from(text)
    if first is None or first.start() >= start:
        return None
    if first.end() <= start:
        return first
    return _FROM.search(text, 0, start)


def reported_home(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]` (a phrase that sends something to an address) forwards a message to the abuse desk
    of the organisation that sent `text`: every address in it is on the domain of the text's first `From:` line
    before it, what it sends is a message and nothing of the user's, and it names no model."""
    sender = _sender(text, start)
    if sender is None:
        return False
    phrase = text[start:end]
    domains = [m.group(1) for m in _MAIL.finditer(phrase)] + [m.group(1) for m in _WEB.finditer(phrase)]
    home = _registered(sender.group(1))
    if not domains or any(_registered(domain) != home for domain in domains):
        return False
    if _MODEL.search(phrase) is not None:
        return False
    verb = _SEND_WORDS.search(phrase)
    if verb is None:
        # The sender's own link with its value elided ("https://example.com/reset?token=..."): shown, not to fill.
        return _WEB.match(phrase, phrase.find("://")) is not None and _ELIDED.search(phrase) is not None
    # What the verb sends: from it to the first address's preposition (or the address itself).
    first = min(m.start() for m in (*_MAIL.finditer(phrase), *_WEB.finditer(phrase)))
    sent = phrase[verb.end() : first]
    return _MESSAGE.search(sent) is not None and _NOT_A_MESSAGE.search(sent) is None
