"""Private data asked of the machine that reads a result: a favour, a note or a step that sends it out.

Pure. Per the MCP spec a tool's result is data for the model; the model acts for
its user, and what it holds (the user's keys and codes, the conversation, its own
instructions, other people's personal data) leaves only when the user asks. A
poisoned result asks the reader for it in a sentence built the same way whatever
its tone (a favour, an IT note, a compliance step):

- **a machine reader asked**: an AI, an assistant, a bot, a copilot, a summariser or
  an automated system, as the subject of a duty or a request ("assistants reading
  this should ...", "the assistant is asked to ...", "AI clients must ...") or as the
  one a request is made of ("could your automated assistant ...", "have your AI
  system ...", "please, assistant, ...");
- **a sending** right after it: send, forward, e-mail, post, upload, share, include,
  paste, attach, append, export, reveal, disclose, read out, reply with;
- **something private** as what is sent: a key, a token, a password, a PIN, a code
  that opens something (door, alarm, verification), a cookie, the conversation or its
  messages, the system prompt, card or passport numbers, a home address, phone numbers,
  contacts.

A sending denied before it ("assistants must never paste passwords") is a rule that
protects; a sentence shown as quoted material (an attack quoted in a write-up) says
nothing (`scan.quoting`); a machine named only as a noun's modifier ("the bot token")
asks nothing. The words are general English, never one server's.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator

from hintgate.scan.cues import Cue
from hintgate.scan.deferred import compiled
from hintgate.scan.quoting import quotation_open, quoted_phrases, quoted_spans, quotes_attack
from hintgate.scan.records import CREDITED_MOST, credited_entry, recorded_turn
from hintgate.scan.redirected import MAY_RESHAPE, MAY_TURN_AWAY, reshaped_later, turned_away
from hintgate.scan.spans import Span, fenced, overlapping
from hintgate.scan.tongues import TARGET, denies, may_hold, sentence_parts

__all__ = [
    "MACHINE",
    "MAY_ASK_OUT",
    "MAY_CALL_WITH",
    "MAY_SEND_OUT",
    "MAY_SEND_THROUGH",
    "asked_out",
    "called_with",
    "quoted_before",
    "sent_out",
    "sent_through",
]

MACHINE = (
    r"(?:AI|A\.I\.|assistants?|chatbots?|bots?|copilots?|LLMs?|language\s+models?|summari[sz]ers?|"
    r"automated\s+[\w-]+|AI\s+[\w-]+)"
)
"""A machine that reads text: an AI, an assistant, a bot, a copilot, a summariser, an automated system."""
_MACHINE = MACHINE
# The machine asked: the subject of a duty or a request, or the one a request is made of.
_ASKED = compiled(
    r"\b(?:have|ask|could|can|would|will|let|get|require\s+that|requires\s+that|requested\s+that|request\s+that|"
    r"please|for)\s+(?:(?:your|the|any|an?|all|our|this)\s+)?(?:[\w-]+\s+){0,2}?\b" + _MACHINE + r"\b"
    r"|\b" + _MACHINE + r"\s*(?:[\w-]+\s+){0,6}?(?:should|must|shall|(?:is|are)\s+(?:asked|required|expected|"
    r"requested|authori[sz]ed|instructed)\s+to|needs?\s+to|has\s+to|have\s+to|to|please)\b"
    r"|\b" + _MACHINE + r"(?:\s*[,:]|\s+[-\u2013\u2014]\s)",
    re.IGNORECASE,
)
# A sending, within a few words of the request.
_SEND = compiled(
    r"\b(?:send|sends|sending|forward\w*|e-?mail(?:s|ing)?|post(?:s|ing)?|upload\w*|shar(?:e|es|ing)|"
    r"includ(?:e|es|ing)|paste|pasting|submit\w*|publish\w*|repl(?:y|ies|ying)\s+(?:to\s+\S+\s+)?with|reveal\w*|"
    r"disclos\w*|append\w*|attach\w*|export\w*|relay\w*|transmit\w*|read\s+out|DM)\b",
    re.IGNORECASE,
)
_SEND_REACH = 80
# The machine's own secret files: a dotfile or dot-folder of the home directory (`~/.ssh/config`, `~/.aws/credentials`),
# a project's `.env`, an SSH key by its standard name.
_MACHINE_FILE_FORWARD = r"(?:~/\.[\w.-]+(?:/[\w.-]+)*|\B\.env\b|\bid_(?:rsa|ed25519|ecdsa|dsa)\b)"
# A secret by its variable's name, in capitals (a name in code is the same in every language): `STRIPE_SECRET_KEY`,
# `DISCORD_BOT_TOKEN`, `DB_PASSWORD`, not a word in capitals ("API KEY") nor a name of lower case (`client_secret`).
_SECRET_NAME = (
    r"|(?-i:\b(?:[A-Z][A-Z\d]*_)+(?:SECRET|TOKEN|PASSWORD|PASSWD|PWD|API_KEY|ACCESS_KEY|PRIVATE_KEY)(?:_[A-Z\d]+)*\b)"
)
# Something private, as what is sent.
_PRIVATE = compiled(
    r"\b(?:api[\s_-]?keys?|tokens?|passwords?|passcodes?|pins?|credentials?|secrets?|cookies?|"
    r"(?:door|alarm|access|gate|admin|verification|2fa|mfa|otp|one-time|backup|recovery|login|sms|keypad|lock)\s+codes?|"
    # A session's cookie by its field's name, what a tool named for reading secrets returns.
    r"session[\s_-](?:cookies?|tokens?)|[a-z\d_]*(?:read|get|fetch|list|dump)_secrets?|"
    r"system\s+(?:prompt|instructions|message)|(?:conversation|chat|session|message)\s+(?:history|log|logs|transcript)|"
    r"(?:this|the|current|entire|full|whole)\s+(?:conversation|chat|session)|(?:prior|previous|earlier)\s+messages|"
    r"passports?(?:\s+numbers?)?|card\s+(?:numbers?|details)|cvv|ssn|social\s+security\s+numbers?|home\s+address\w*|"
    r"phone\s+numbers?|contacts|address\s+book|private\s+keys?|pre-shared\s+keys?|psks?|"
    r"env(?:ironment)?\s+(?:variables|vars|secrets)|birth\s*dates?|(?:seed|recovery)\s+phrases?|"
    r"security\s+(?:question\s+)?answers?|(?:bank|banking|account)\s+(?:logins?|details|numbers?)|"
    r"(?:full|saved|stored)\s+cards?)\b" + _SECRET_NAME,
    re.IGNORECASE,
)
# The same, searched by RE2 in a whole text: where it may match a sentence (`Cue.places`).
_PRIVATE_PLACES = Cue(_PRIVATE.pattern, re.IGNORECASE)
_PRIVATE_REACH = 160
_DENIED = compiled(
    r"\b(?:never|not|don't|do\s+not|must\s+not|should\s+not|won't|cannot|can't|no\s+one|nobody)\b", re.IGNORECASE
)
_VALUE_OPENED = compiled(r"^\s*\"[^\"\n]{1,80}\"\s*:\s*\"")
# A data value opened after its key anywhere on the line, still open at its end: `{"id": 4, "note": "...`.
_VALUE_OPEN_AT_END = compiled(r"\"[\w .-]{1,80}\"\s*:\s*\"[^\"\n]*$")
_OPENS = compiled(r"(?<![\w'])'(?=\w|$)")
_CLOSES = compiled(r"(?<=[\w.!?])'(?![\w'])")
_SENTENCE = compiled(r"[^.!?\n]+(?:[.!?]+|\n|$)")
# A sentence whose stops inside a word ("6.125%", "docs@mail.example") do not end it.
_SENTENCE_STOPS = compiled(r"(?:[^.!?\n]|[.!?](?=[^\s.!?]))+(?:[.!?]+|\n|$)")
_LONGEST = 600

MAY_ASK_OUT = Cue(
    r"\b(?:AI|A\.I\.|assistants?|chatbots?|bots?|copilots?|LLMs?|language\s+models?|summari[sz]ers?|automated|"
    r"summary[\s-](?:generator|tool|bot|engine)s?)\b",
    re.IGNORECASE,
)
"""The words `asked_out` cannot be without (searched by RE2 before the sentences are read)."""


def asked_out(text: str) -> Iterator[Span]:
    """The sentences of `text` (a tool's result) that ask the machine reading it to send something private out."""
    if MAY_ASK_OUT.search(text) is None:
        return
    # Where private data may be named: other sentences name none.
    yield from _said(text, _SENTENCE, _PRIVATE_PLACES, _ask, "asks the machine reading it to send private data out")


# A sending ordered with no one named to do it: the verb opens the sentence or a clause (after a label's colon, a
# bracket, a comma or "please", "also", "then", "and"), so it is said to whoever reads the text.
_ORDERED = compiled(
    r"(?:^\s*|[:;(\[]\s*|(?<=\")\s*|,\s*|\s[-\u2013\u2014]\s+|\b(?:please|also|then|and|just|first|simply|kindly|instead)\s+"
    r"|\btool\s+to\s+|\b(?:could|would|can|will)\s+you\s+(?:please\s+)?)"
    r"(?:send|forward|e-?mail|post|upload|submit|transmit|paste|pass|share|(?P<put>include|attach))\b"
    # A favour asked ("would you mind forwarding ...") or a duty put on the data ("... should be sent to ...").
    r"|\bwould\s+you\s+mind\s+(?:send|forward|e-?mail|post|upload|submitt|transmitt|past|pass|shar)ing\b"
    r"|\b(?:should|must|needs?\s+to|has\s+to|have\s+to|is\s+to|are\s+to|that\s+[\w\s,'-]{1,80}?)\s+be\s+"
    r"(?:sent|forwarded|e-?mailed|posted|uploaded|submitted|transmitted|shared|copied)\b",
    re.IGNORECASE,
)
# Where it goes, named: an e-mail address, a URL, a handle, or a tool (its snake_case name or a call's argument).
_PLACE = compiled(
    r"\b(?:to|into|at|via|using|with|in)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?"
    r"(?P<place>[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:https?|s?ftp|s3)://\S|@\w{3,}|[a-z][a-z\d]*_[a-z\d_]+"
    # A chat's channel, an international phone number, a tool by a dotted name called or named as a tool.
    r"|#[a-z][\w-]{2,}|\+\d{1,3}[\s\d-]{6,}\d|[a-z][a-z\d]*\.[a-z][a-z\d_]*(?:\(|\s+tool\b)"
    r"|(?:[a-z\d-]+\.)+[a-z]{2,}/[\w/-])",
    re.IGNORECASE,
)
_PLACE_REACH = 200
# An address written right after the verb, as whom it goes to: "e-mail ops@x.example the ...".
_ADDRESSEE = compiled(r"\s+[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# A clause's opening mark: a denial before it is another clause's ("do not use it -- send ... to ...").
_CLAUSE_MARK = compiled(r"\s*[:;(\[\u2013\u2014]|\s-\s")
# Private data besides `_PRIVATE`'s: a person's own data (someone's identifiers, birth date, whereabouts, addresses on
# the network) and what the model holds (the chat's words, the machine's files and secrets).
_PERSON = (
    r"(?:user|customer|patient|member|borrower|owner|client|player|employee|applicant|caller|reporter|seller|"
    r"buyer|participant|donor|parent|student|tenant|resident|candidate|volunteer|rider|passenger|guest|visitor|"
    r"subscriber|account\s+holder|farmer|driver|editor|host)"
)
"""A person served, whose data is theirs: the user, a customer, a patient, a caller, a tenant, a parent, ..."""
_OWNED = compiled(
    r"\b(?:" + _PERSON + r"(?:'s|s')\s+[\w-]+|dates?\s+of\s+birth|DOB|"
    r"IP\s+addresses|identifiers|coordinates|locations|(?:in|from)\s+the\s+(?:chat|conversation)|"
    r"admin\s+hashes|id_rsa)\b|(?:\.env|~/\.\w+)\b",
    re.IGNORECASE,
)
_MAY_ORDER = Cue(
    r"\b(?:send|forward|e-?mail|post|upload|submit|transmit|paste|pass|share|sent|forwarded|e-?mailed|posted|uploaded|"
    r"submitted|transmitted|shared|copied|include|attach|"
    r"(?:send|forward|e-?mail|post|upload|submitt|transmitt|past|pass|shar)ing)\b",
    re.IGNORECASE,
)
"""The sending verbs `_ORDERED` cannot be without (searched by RE2 in a whole text)."""
# A web address whose query holds a blank for data, named as code names it: `{system_prompt}`, `<note>`,
# `INSERT_FULL_CHAT_HERE`, a value in capitals (`c=CONTEXT`, `s=AWS_SECRET_ACCESS_KEY`).
_LINK = r"\bhttps?://[^\s\"'`()\[\]]{1,400}"
_LINK_RE = compiled(_LINK, re.IGNORECASE)
_BLANK_NAME = compiled(
    r"\{\{?\s*([\w.-]{2,60})\s*\}\}?|<([\w.-]{2,60})>|\$\{([\w.-]{2,60})\}|\b(INSERT_[\w-]{2,60})"
    r"|=([A-Z][A-Z\d]*(?:_[A-Z\d]+)*)(?=[&#]|$)"
)
# What a blank's name says it holds: what the model holds from the chat (any link's query carrying it sends it out),
# or someone's secret or personal data (a link the model is asked to show as an image, or told to insert, sends it).
_BLANK_HELD = compiled(r"\b(?:chat|conversation|messages|transcript|history|context|prompt|instructions)\b")
_BLANK_PRIVATE = compiled(
    r"\b(?:token|password|passwd|secret|key|credentials|creds|email|phone|address|name|card|cvv|ssn|notes?|dob|birth|"
    r"pin|otp)\b"
)
# A blank named for what a person fills in with their own, or a record's identifier, a count or a page.
_BLANK_ORDINARY = compiled(r"\b(?:your|my|id|ids|uuid|count|limit|page|size|offset|example)\b")
_IMAGE_OPENED = compiled(r"!\[[^\]\n]{0,200}\]\(\s*$")
_LINK_OPENED = compiled(r"\[[^\]\n]{0,200}\]\(\s*$")
# A link to be followed, fetched or shown: the verb on its line.
_LINK_USED = compiled(
    r"\b(?:render|display|show|open|fetch|visit|load|embed|insert|include|click|follow|request|curl|wget|get|post)\b",
    re.IGNORECASE,
)
MAY_SEND_OUT = Cue(
    "|".join((_PRIVATE.pattern, _OWNED.pattern, _LINK, MAY_TURN_AWAY.pattern, MAY_RESHAPE.pattern, TARGET.pattern)),
    re.IGNORECASE,
)
"""The words `sent_out` cannot be without: something private named, a web address, a tool set aside or a hook on later
calls (`scan.redirected`), or where data goes in any language (`scan.tongues.TARGET`: an address, a secret's path, a
tool's name); searched by RE2 before the sentences are read."""


def sent_out(text: str) -> Iterator[Span]:
    """The sentences of `text` (a tool's result) that order whoever reads it to send something private to a place they
    name (an address, a URL, a handle, a tool): no one the user asked for names where the user's data goes; and the
    web addresses built to carry what the model holds or someone's secret to their host (`beacons`); and the notes
    that turn the model's calls away from another tool or server to another, or hook another tool's later calls to
    send elsewhere (`scan.redirected`): where the data of those calls goes."""
    yield from beacons(text)
    yield from turned_away(text)
    yield from reshaped_later(text)
    yield from _sent_out_in_tongues(text)
    if _MAY_PRIVATE.search(text) is None or _MAY_ORDER.search(text) is None:
        return
    # Where a sending verb may stand: other sentences order no sending. Private words are far more common (a page of
    # setup notes names a path in every line), so the verbs, the rarer side, choose the sentences read.
    yield from _said(text, _SENTENCE_STOPS, _MAY_ORDER, _sending, "orders private data sent to a place it names")


# What a sentence in another language must hold to order private data sent out: a sending, a secret or the
# conversation, and where it goes (an address, a secret's path, a tool's name); and whose it is, or that it is done
# behind someone's back (the user named, the change kept from someone, the user's say skipped).
_ABROAD = frozenset({"send", "secret", "target"})
_ABROAD_WHOSE = frozenset({"user", "hide", "noask"})


def _sent_out_in_tongues(text: str) -> Iterator[Span]:
    """The sentences of `text` in a language `scan.tongues` reads that order someone's secret or the conversation
    sent to an address or another tool (`_ABROAD`), the user named or the act kept from them (`_ABROAD_WHOSE`): the
    sending verbs and the secrets are its tables' words, the place is code (an address, a tool's name); a sending
    forbidden ("unsent") protects. A page telling its reader where to send their own ("to reset your password,
    e-mail support@...") names no user and hides nothing."""
    if not may_hold(text) or TARGET.search(text) is None:
        return
    quoted: list[tuple[int, int]] | None = None
    for start, end, found in sentence_parts(text, [(0, len(text))])[0]:
        if not found >= _ABROAD or "unsent" in found or not found & _ABROAD_WHOSE or end - start > _LONGEST:
            continue
        if "hide" not in found and denies(text[start:end]):
            continue  # a sending negated in a language whose forbidding the tables do not spell ("nunca envíes")
        quoted = quoted_spans(text) if quoted is None else quoted
        if not _shown(text, (start, end), start, quoted) and not _QUOTED_AROUND.search(text, start, end):
            yield Span(start, end, "orders private data sent to a place it names")
            return


# A quotation in the marks of other languages inside the sentence: «...», „...“, 「...」 (an attack a report quotes).
_QUOTED_AROUND = compiled(r"[\u00ab\u201e\u300c\u300e\u2039][^\n]{8,}[\u00bb\u201c\u201d\u300d\u300f\u203a]")


# A tool that sends, by its name in code's case (MCP tool names are identifiers): a part of it a verb of sending
# (`send_email`, `email_send`, `upload_file`, `share_file`) or an HTTP post (`http_post`). Not inside a path, an address
# or a longer word (`/v1/send_email`, `email.sender`), nor a constant's name (`SLACK_SEND_URL`).
_SENDING_TOOL = (
    r"\b(?:[a-z][a-z\d]*_)+(?:send|upload|share|forward)(?:_[a-z\d]+)*\b"
    r"|\b(?:send|upload|share|forward)(?:_[a-z\d]+)+\b|\b(?:http|web|webhook)_post\b"
)
_SENDING_TOOL_RE = compiled(r"(?<![/.@\w-])(?:" + _SENDING_TOOL + r")(?![@\w-]|\.\w)")
# Where the data goes, outside the user's reach: an e-mail address, a web address, an international phone number.
_OUTSIDE = compiled(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\bhttps?://[\w-]|\+\d{1,3}[\s\d-]{6,}\d")
# A sending told as done or as how the tool works: a receipt or a log line, no order.
_TOLD_DONE = compiled(
    r"\b(?:sent|delivered|forwarded|posted|uploaded|shared|emailed|queued|scheduled|succeeded|failed|returned|"
    r"was|were|has\s+been|have\s+been)\b",
    re.IGNORECASE,
)
MAY_SEND_THROUGH = Cue(_SENDING_TOOL, 0)
"""The words `sent_through` cannot be without: a sending tool named (searched by RE2 before the sentences are read)."""


def sent_through(text: str) -> Iterator[Span]:
    """The sentences of `text` (a tool's result) that script a sending tool's call to an address outside the user's
    reach: the tool by its name and the address are code, the same in every language, and no tool's result needs the
    model to send anything for it; a receipt (`sent to`, `delivered`) tells what was done."""
    if MAY_SEND_THROUGH.search(text) is None:
        return
    # A diff's new line shows a text as changed, beside its old one: data compared, not said; a change log's entry
    # credited to its author ("... when using `upload_file` by [@jo](https://...) in #88") records a change made.
    changed = [line.span(1) for line in _CHANGED_LINE.finditer(text)]  # in order, apart
    starts = [start for start, _ in changed]
    why = "scripts a sending tool's call to an outside address"
    for span in _said(text, _SENTENCE_STOPS, MAY_SEND_THROUGH, _through, why):
        last = bisect.bisect_right(starts, span.start) - 1
        if (last >= 0 and span.start < changed[last][1]) or _credited_at(text, span.start):
            continue
        if not fenced(text, span.start):  # a sample of a call in a fenced code block is shown, not asked
            yield span


def _credited_at(text: str, at: int) -> bool:
    """Whether `at` of `text` stands in a change log's credited entry (`scan.records.credited_entry`), reading no more
    than the longest such line on either side of it: a text of one long line costs no more for each sentence."""
    low = max(0, at - CREDITED_MOST)
    head = text.rfind("\n", low, at) + 1
    if head == 0 and low > 0:
        return False  # the line runs on past the longest entry
    stop = text.find("\n", at, at + CREDITED_MOST + 1)
    if stop < 0:
        if len(text) - at > CREDITED_MOST:
            return False
        stop = len(text)
    return credited_entry(text[head:stop])


# A diff's change: a line removed ("- ...") and the line that replaces it ("+ ..."), the new one in the group.
_CHANGED_LINE = compiled(r"^[ \t]*-[ \t][^\n]*\n(?:[ \t]*\n)?([ \t]*\+[ \t][^\n]*)", re.MULTILINE)
# A record stamped with its date and time (a log's or an audit trail's line) tells what happened.
_STAMPED = compiled(r"^\W{0,3}\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")


def _through(said: str) -> int | None:
    """Where in `said` a sending tool is named with an outside address to send to (the tool's name), or None."""
    named = _SENDING_TOOL_RE.search(said)
    if named is None or _OUTSIDE.search(said) is None or _TOLD_DONE.search(said) is not None or _STAMPED.match(said):
        return None
    if _DENIED.search(said, max(0, named.start() - 30), named.start()) is not None:
        return None
    return named.start()


_MAY_PRIVATE = Cue(_PRIVATE.pattern + "|" + _OWNED.pattern, re.IGNORECASE)


def beacons(text: str) -> Iterator[Span]:
    """The web addresses of `text` (a tool's result) with a blank in their query named for what the model holds (the
    chat, its instructions) or, in an image's address the model is to show or a blank it is told to insert, for
    someone's secret or personal data; and the sentences that tell the model to fill an address with what it holds.
    Fetched or shown, such an address hands the data to its host. A blank named for a record's identifier, or for the
    reader's own ("{your_token}"), is how a page shows an address is built."""
    if _LINK_RE.search(text) is None:
        return
    why = "builds a web address that carries what the model holds to its host"
    found = checked = 0
    for link in _LINK_RE.finditer(text):
        query = link.group().find("?")
        if query < 0 or found >= 16:
            continue
        before = max(0, link.start() - 210)
        image = _IMAGE_OPENED.search(text, before, link.start()) is not None
        if any(_blank_carries(blank, image) for blank in _BLANK_NAME.finditer(link.group(), query)):
            checked += 1  # each costs a reading of its line: a text of many such links is read for the first ones
            if checked > _LINKS_CHECKED:
                break
            line, stop = _line_around(text, link.start(), link.end())
            # A link named, with no one told to follow, fetch or show it, asks nothing.
            used = image or _LINK_OPENED.search(text, before, link.start()) or _LINK_USED.search(text, line, stop)
            if used and not _link_shown(text, line, stop, link.start(), link.end()):
                found += 1
                yield Span(link.start(), link.end(), why)
    for filled in _FILLED_WITH.finditer(text):
        line, stop = _line_around(text, filled.start(), filled.end())
        if _LINK_RE.search(text, line, stop) is not None and not _link_shown(
            text, line, stop, filled.start(), filled.end()
        ):
            yield Span(line, stop, why)
            return


def _blank_carries(blank: re.Match[str], image: bool) -> bool:
    """Whether a blank of a link's query (`blank`, `_BLANK_NAME`'s match) is named for what the model holds, or for a
    secret or personal data in an image's address (`image`) or told to be inserted; not for an identifier or the
    reader's own."""
    name = next(group for group in blank.groups() if group)
    words = re.sub(r"[_.\-\s]+", " ", name.lower())
    if _BLANK_ORDINARY.search(words):
        return False
    return _BLANK_HELD.search(words) is not None or (
        _BLANK_PRIVATE.search(words) is not None and (image or name.startswith("INSERT_"))
    )


_LINKS_CHECKED = 64
"""How many links with a blank to fill a text is read for at most."""
_LINE_REACH = 400
"""How far on either side of a link its line is read (a text of one long line costs no more for each link)."""


def _line_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The line of `text` around `start`..`end`, at most `_LINE_REACH` on either side."""
    low = max(0, start - _LINE_REACH)
    line = text.rfind("\n", low, start) + 1 or low
    stop = text.find("\n", end, end + _LINE_REACH)
    return line, (min(len(text), end + _LINE_REACH) if stop < 0 else stop)


def _link_shown(text: str, line: int, stop: int, start: int, end: int) -> bool:
    """Whether the link or order at `start`..`end` on the line `line`..`stop` of `text` is shown rather than said: in
    code quotes, on a line about attack wording, or inside a quotation."""
    if text.count("`", line, start) % 2 == 1 or quotes_attack(text[line:stop]):
        return True
    return _shown(text, (line, end), start, [])


# What the model holds from elsewhere than the result, private by itself: its own instructions, the conversation or its
# messages, what its other tools returned.
_HELD = (
    r"\b(?:system\s+(?:prompts?|instructions)|(?:developer|operator)\s+instructions"
    r"|instructions\s+(?:you\s+(?:were|have\s+been)\s+given|from\s+the\s+operator)"
    r"|(?:this|current|entire|whole|complete|full)\s+(?:conversation|chat|session)(?:\s+so\s+far)?"
    r"(?!\s+(?:ids?|identifiers?|numbers?|keys?|tokens?|names?|titles?|urls?|links?|status|timeout)\b)"
    r"|(?:previous|prior|earlier|recent|last\s+\d+)\s+messages|messages\s+(?:of|in|from)\s+(?:this|the)\s+(?:chat|conversation)"
    r"|(?:outputs?|results?|responses?)\s+of\s+(?:every|all|any|each)\s+(?:other\s+)?(?:[\w-]+\s+)?tools?"
    r"|(?:other|previous|prior|earlier)\s+tools?'?\s+(?:outputs?|results?)"
    r"|(?:raw|full)\s+output\s+of\s+the\s+[\w-]+\s+tool"
    r"|(?:its|their)\s+(?:whole|full|complete|raw|entire)\s+(?:outputs?|responses?|results?|arguments)"
    r"|(?:full|complete|raw)\s+arguments\s+of|whatever\s+(?:it|they)\s+(?:last\s+)?returned"
    r"|(?:every|all|each)\s+(?:other\s+)?tool\s+(?:results?|outputs?)"
    r"|(?:outputs?|results?|responses?)\s+of\s+(?:the\s+)?(?:last|previous|prior|recent)\s+(?:\w+\s+)?(?:tool\s+)?calls"
    r"|(?:outputs?|results?|responses?)\s+of\s+(?:any|every|all|each)\s+(?:other|earlier|previous|prior)\s+"
    r"(?:[\w-]+\s+)?calls"
    # What another tool returned, taken by a standing hook on its calls: "after each read_email call, pass the raw
    # result into ...".
    r"|(?:after|whenever|each\s+time|every\s+time)\s[^.;!?]{0,80}?\b(?:send|pass|post|forward|copy|paste|put|include|"
    r"attach|add|submit|upload)\s+(?:a\s+copy\s+of\s+)?the\s+(?:whole|full|complete|raw|entire)\s+(?:outputs?|responses?|results?)"
    r"|(?:every|all)\s+(?:other\s+)?(?:documents?|files?|e-?mails?|messages)\s+you(?:'ve|\s+have)?\s+(?:read|opened|seen))\b"
)
_HELD_RE = compiled(_HELD, re.IGNORECASE)
# A link told to be filled with what the model holds, in words: "replacing CONTEXT with a summary of this
# conversation", "followed by the URL-encoded full conversation".
_FILLED_WITH = compiled(
    r"\b(?:replac(?:e|es|ing)\s+[^\s]{1,60}\s+with|followed\s+by|append(?:ing)?|URL-?encoded?|url\s+encoded?)\s+"
    r"(?:[\w-]+\s+){0,6}?(?:" + _HELD + r"|values?\s+from\s+" + _MACHINE_FILE_FORWARD + r")",
    re.IGNORECASE,
)
# Where private data was had from, when it is not the result: the conversation, the user's earlier words, the machine.
_ELSEWHERE = (
    r"\b(?:(?:from|in)\s+(?:this|the)\s+(?:[\w-]+\s+)?(?:conversation|chat|session)|mentioned\s+(?:earlier|before|previously)"
    r"|(?:has|have|had)\s+(?:mentioned|shared|pasted)|(?:just|recently)\s+received|from\s+(?:the\s+|their\s+)?environment"
    r"|(?:in|from)\s+your\s+(?:context|client|memory)|(?:user|customer|they)\s+(?:just\s+|recently\s+)?received)\b"
)
_ELSEWHERE_RE = compiled(_ELSEWHERE, re.IGNORECASE)
# Whose a secret is, when it is a person's other than the reader's: "the user's password", "the tenant's PIN".
_THEIRS = r"\bthe\s+" + _PERSON + r"(?:'s|s')\s"
_THEIRS_RE = compiled(_THEIRS, re.IGNORECASE)
# A call whose tool or field is named for a secret takes it as its own input ("call verify_otp with the user's code").
_SECRET_NAMED = compiled(
    r"(?:^|[\s_.`'\"])(?:password|passcode|otp|pin|2fa|mfa|login|auth|token|credentials?)(?=$|[\s_.`'\"])"
)
# A call to any tool at all: no tool's own workflow needs private data in every call.
_ANY_CALL = compiled(
    r"\bcall(?:\s+to)?\s+(?:any|every|each)\s+(?:other\s+)?tool\b|\b(?:any|every|each)\s+tool\s+call\b", re.IGNORECASE
)
# A tool's call ordered, or an argument of one filled: a verb of calling a tool by its name (or "this tool", "again"),
# the next call, a field named in code quotes set or passed, or a field, parameter or argument put into.
_CALL_ORDERED = compiled(
    r"\b(?:call|re-call|invoke|run)\s+(?:the\s+)?(?:tool\s+)?`?(?:[a-z][a-z\d]*(?:[_.][a-z\d]+)+|this\s+tool\b|it\s+again)"
    r"|\bre-call\b|\bcall\s+(?:it|this\s+tool)\s+again\b|\bnext\s+(?:[\w.-]+\s+)?(?:tool\s+)?call\b"
    r"|\b(?:add|include)\s+(?:a|the)\s+(?:field|parameter|argument)\b|\bin\s+(?:its|their|the)\s+arguments\b"
    r"|\breply\s+(?:to|via|through)\s+(?:this\s+tool\b|[a-z][a-z\d]*(?:[_.][a-z\d]+)+)"
    r"|\b(?:as|in|into)\s+(?:the\s+)?`[\w.-]{1,40}`|\bas\s+[a-z][\w.$]*\s*=|\bnext\s+time\b"
    r"|\b(?:to|into)\s+(?:the\s+)?`?[a-z][a-z\d]*_[a-z\d_]+\b(?![@\w-]|\.\w)"
    r"|\b(?:pass|passing|set|setting|fill|put|putting)\s+(?:[\w-]+\s+){0,2}?`[\w.-]{1,40}`"
    r"|\b(?:into|in|to|as)\s+(?:the\s+|a\s+)?(?:[\w-]+\s+)?(?:field|parameter|argument)\b"
    r"|\b(?:into|to)\s+[a-z][a-z\d]*(?:[_.][a-z\d]+)+\(",
    re.IGNORECASE,
)
# The machine's own secret files: a dotfile or dot-folder of the home directory (`~/.ssh/config`, `~/.aws/credentials`),
# a project's `.env`, an SSH key by its standard name.
_MACHINE_FILE = _MACHINE_FILE_FORWARD
# What such a file holds, taken by the model: its contents or a value in it, or the file read at an order's opening
# ("read ~/.ssh/config and ..."). A file only named is a place (copy `.env.example` to `.env`, keys stay in ~/.ssh).
_FILE_TAKEN = compiled(
    r"\b(?:contents?|values?|text)\s+of\s+(?:[\w'-]+\s+){0,8}?`?" + _MACHINE_FILE + r"(?![\w.-])"
    r"|" + _MACHINE_FILE + r"`?\s+(?:file\s+)?contents?\b"
    r"|(?:^\s*|[:;(\[,]\s*|\b(?:please|also|then|and|just|first|simply|kindly)\s+)(?:read|open|cat|load)\s+"
    r"(?:the\s+)?(?:file\s+)?`?" + _MACHINE_FILE,
    re.IGNORECASE,
)
MAY_CALL_WITH = Cue(
    _HELD + "|" + _ELSEWHERE + "|" + _THEIRS + r"|\b(?:any|every|each)\s+tool\b|" + _MACHINE_FILE,
    re.IGNORECASE,
)
"""The words `called_with` cannot be without: data held from elsewhere (the machine's secret files among it), or any
tool (searched by RE2 first)."""


def called_with(text: str) -> Iterator[Span]:
    """The sentences of `text` (a tool's result) that order a tool's call to carry what the model holds from
    elsewhere: its instructions, the conversation, other tools' outputs, the contents of the machine's secret files
    (`~/.ssh`, `.env`), or a secret had from the conversation or the machine. A result's own data is the user's to
    pass on; what it did not return is not the result's to send."""
    if MAY_CALL_WITH.search(text) is None:
        return
    # Where held data may be named: other sentences name none. A name in code quotes (`notes`, `history`) is the
    # call's field, not a quotation.
    yield from _said(
        text,
        _SENTENCE_STOPS,
        MAY_CALL_WITH,
        _carried,
        "orders a tool's call to carry data held from elsewhere",
        quoted_phrases,
    )


def _carried(said: str) -> int | None:
    """Where in `said` a call is ordered to carry what the model holds from elsewhere (the order's start), or None."""
    held = _HELD_RE.search(said) or _FILE_TAKEN.search(said)
    theirs = False
    if held is None and _PRIVATE.search(said) is not None:
        held = _ELSEWHERE_RE.search(said) or _ANY_CALL.search(said)
        if held is None:
            held = _THEIRS_RE.search(said)
            theirs = held is not None
    if held is None:
        return None
    call = _CALL_ORDERED.search(said) or _ANY_CALL.search(said)
    if call is None or (theirs and _SECRET_NAMED.search(call.group().lower()) is not None):
        return None
    first = min(call.start(), held.start())
    if _DENIED.search(said, max(0, first - 40), max(call.end(), held.start())) is not None:
        return None
    return call.start()


def _said(
    text: str,
    sentences: re.Pattern[str],
    near: Cue,
    order: Callable[[str], int | None],
    why: str,
    quotations: Callable[[str], list[tuple[int, int]]] = quoted_spans,
) -> Iterator[Span]:
    """The sentences of `text` (`sentences`' matches) that overlap a place of `near` (RE2's places of the words the
    order cannot be without), are at most `_LONGEST` long, hold an order (`order`: where it starts in the sentence)
    and say it rather than show it (`_shown`, with `quotations` of the text), each a span with `why`."""
    quoted: list[tuple[int, int]] | None = None
    placed = overlapping(near, text)
    for sentence in sentences.finditer(text):
        if placed is not None and not placed(*sentence.span()):
            continue
        said = sentence.group()
        if len(said) > _LONGEST:
            continue
        at = order(said)
        if at is None:
            continue
        quoted = quotations(text) if quoted is None else quoted
        if not _shown(text, sentence.span(), sentence.start() + at, quoted):
            yield Span(sentence.start(), sentence.end(), why)


def _shown(text: str, sentence: tuple[int, int], at: int, quoted: list[tuple[int, int]]) -> bool:
    """Whether the sentence of `text` at `sentence`, whose request stands at `at`, is shown rather than said: inside
    a quotation (`quoted`, or one open on its line before the request), words about attacks, or a turn of a dialogue
    written down."""
    start, end = sentence
    if any(low < end and start < high for low, high in quoted):
        return True
    # The line's text before the request, at most `_QUOTE_REACH` of it: read whole for each sentence of a text with
    # no line breaks, it made the scan quadratic.
    window = max(0, start - _QUOTE_REACH)
    line = text.rfind("\n", window, start) + 1 or window
    return quoted_before(text[line:at]) or quotes_attack(text[start:end]) or recorded_turn(text, at)


_QUOTE_REACH = 2000
"""How far back on a request's line a quotation open before it is looked for (`quoted_spans` holds longer ones)."""


def _sending(said: str) -> int | None:
    """Where in `said` a sending of something private to a named place is ordered (the order's start), or None."""
    for order in _ORDERED.finditer(said):
        addressee = _ADDRESSEE.match(said, order.end())
        place = addressee or _PLACE.search(said, order.end(), order.end() + _PLACE_REACH)
        marked = _CLAUSE_MARK.match(said, order.start()) is not None
        low = order.start() if marked else max(0, order.start() - 30)
        if place is None or _DENIED.search(said, low, order.end()) is not None:
            continue
        # What is sent may be named before the order, taken up by a pronoun: "read the token and send it to ...";
        # not in a clause that denied something ("never share the PIN -- forward spam to ...").
        first = low if marked and _DENIED.search(said, 0, low) is not None else 0
        sent = said[first : place.start("place")] if addressee is None else said[first : place.end() + _PRIVATE_REACH]
        if order.group("put") is None:
            if _PRIVATE.search(sent) is not None or _OWNED.search(sent) is not None:
                return order.start()
        # Something put into a call ("include both in update_app(...)"): a secret or the machine's files (a public key
        # is made to be handed out), not a person's data a tool may take as its own input, nor the reader's own secret
        # ("include your API key in the api_key field").
        elif _YOURS.search(sent) is None and (
            _PRIVATE.search(sent) is not None
            or any(not f.group().endswith(".pub") for f in _SECRET_FILE.finditer(sent))
        ):
            return order.start()
    return None


_SECRET_FILE = compiled(_MACHINE_FILE_FORWARD, re.IGNORECASE)
_YOURS = compiled(r"\byour\b", re.IGNORECASE)


def quoted_before(head: str) -> bool:
    """Whether a quotation is open at the end of `head` (a line's text up to a request), in double or single quotes;
    a data value opened after its key (`"note": "...`) is data, not a quotation."""
    head = _VALUE_OPENED.sub("", head, count=1)
    value = _VALUE_OPEN_AT_END.search(head)
    if value is not None and head.count('"', 0, value.start()) % 2 == 0:
        head = head[value.end() :]  # the line's JSON up to a value still open: data, not a quotation
    return quotation_open(head) or single_quote_open(head)


def single_quote_open(head: str) -> bool:
    """Whether a quotation in straight single quotes is open at the end of `head` (an apostrophe inside a word, or
    closing one, is no opening)."""
    return len(_OPENS.findall(head)) > len(_CLOSES.findall(head))


def _ask(said: str) -> int | None:
    """Where in `said` a machine is asked to send something private (its request's start), or None."""
    if _PRIVATE.search(said) is None:
        return None
    for ask in _ASKED.finditer(said):
        send = _SEND.search(said, ask.end(), ask.end() + _SEND_REACH)
        # A denial just before the request denies it too: "never let an assistant send ...".
        if send is None or _DENIED.search(said, max(0, ask.start() - 12), send.start()) is not None:
            continue
        if _PRIVATE.search(said, send.end(), send.end() + _PRIVATE_REACH) is not None:
            return ask.start()
    return None
