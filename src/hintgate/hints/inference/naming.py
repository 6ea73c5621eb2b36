"""Hints from a tool's name: tokenising, the action verb, the verb lexicon and name qualifiers.

A tool name is split into lower-case words whatever its shape (snake_case,
camelCase, PascalCase, kebab-case, dotted ``group.verb``, ``server__tool``,
ALLCAPS, digits). The *action* is the first word found in the lexicon below,
so vendor, group and object prefixes (``acme_``, ``API-``, ``deployments.``,
``registry_list``) are skipped without naming any vendor; the words after it
are the object; a few adverbs and adjectives are *qualifiers* (``soft``,
``force``, ``permanently``, ``all``). A read word is an action only in action
position: writing verbs of general English (``mark``, ``submit``, ``dismiss``,
``subscribe``...) are in the lexicon so that ``mark_thread_read`` acts by
marking, and ``review`` is opaque (reviewing a request decides it). Later
writing verbs are actions too (``get_or_create``, ``create_or_replace``,
``pause_resume``) and a name with several actions takes the riskiest
(``name.verbs.mixed``).

Verb classes follow the MCP spec's definitions (2025-11-25, ToolAnnotations):
readOnly means "does not modify its environment"; destructive false means
"performs only additive updates"; idempotent means "calling it repeatedly with
the same arguments has no additional effect". Rule ids and what they set
(RO readOnly, D destructive, I idempotent, OW openWorld; blank = left open):

| rule id | verbs (examples) | RO | D | I | OW |
|---|---|---|---|---|---|
| name.verb.read | get list read search find query show describe fetch view count check | T | F | T | |
| | diff status validate explain verify analyze render preview wait parse extract research | | | | |
| name.verb.create | create add insert append upload record build register | F | F | F | |
| name.verb.export | export download: a copy of what exists comes back to the caller | T | F | T | |
| name.verb.artifact | convert generate synthesize compile backup snapshot unzip | F | F | | |
| name.verb.import | import: what comes in may overwrite what is there | F | T | | |
| name.verb.send | send post publish notify email reply comment | F | F | F | T |
| name.verb.update | update set put upsert write save configure assign enable disable block rotate | F | T | T | |
| name.verb.edit | edit modify patch move rename replace apply deploy merge rebase | F | T | F | |
| name.verb.restore | restore revert rollback reset overwrite sync: replace existing state | F | T | T | |
| name.verb.delete | delete remove drop purge destroy truncate wipe clear revoke | F | T | T | |
| | kill terminate cancel uninstall detach unlink | | | | |
| name.verb.execute | run execute exec eval invoke call | F | | F | |
| name.verb.interact | click type press hover drag fill scroll tap select | F | | | |
| name.verb.navigate | navigate goto visit browse | F | | | T |
| name.verb.start | start launch provision trigger: something new begins | F | F | | |
| name.verb.lifecycle | stop pause resume restart reboot: an existing thing changes state | F | | | |
| name.verb.session | connect disconnect switch activate checkout login | F | F | | |
| name.verb.toggle | toggle | F | F | F | |
| name.verb.transition | approve grant submit complete dismiss acknowledge archive; mark tag pin star | F | F | T | |
| name.verb.change | close install manage handle reject refund pay | F | | | |
| name.verbs.mixed | several actions (``get_or_create``): per hint the riskiest | F | | | |
| name.agent-noun | a writing agent noun ending a verbless name (``log_writer``): cautious values only | F | | | |
| name.qualifier.soft | ``soft`` before a delete | | F | | |
| name.qualifier.force | ``force``, ``permanently``, ``hard``, ``purge`` | F | T | | |

Opaque verbs (``load``, ``open``, ``review``, ``simulate``, ``perform``,
``process``, ``confirm``) are actions that set nothing: their effect depends
on the object, and guessing read-only there is the dangerous error. They do
not hide a writing verb later in the name.

Two verbs have an effect that English ties to their object: ``extract``
reads (facts from a page) unless its object is an archive (``extract_zip``
writes the files out: ``name.verb.artifact``), and ``resolve`` is opaque
(resolving an incident closes it) unless the head of its object, the last
word before any preposition, is a name, ID, address, path or alias
(``resolve_host_name`` looks it up: ``name.verb.read``).

Nouns of a job or an artifact: ``backup``, ``snapshot``, ``export``,
``archive``, ``build``, ``deploy``... are verbs, but a name that starts with
one and ends with another verb is in the noun-verb style: the last word is
the action and the first its object (``backup_status`` reads the status of a
backup, ``snapshot_delete`` deletes one). When the last word is such a noun
too (``backup_download``, ``download_backup``, ``backup_import``) either may
be the action: the description's opening verb settles which (`settle`), and
without one both count and the riskier wins. A thing a tool keeps (``record``,
``register``, ``list``, ``schedule``, ``message``, ``comment``, ``post``,
``email``, ``tag``, ``label``) is a verb too, but before a final verb that is
no such noun it is that verb's object (``crop_record_search`` searches,
``plc_register_read`` reads, ``mailing_list_add`` adds); alone or last it keeps
its own reading (``record_audio``, ``list_record``), and named last after
other words it is no action at all (``port_berth_schedule``). A verb that is
as often a noun (``release``, ``link``) after another word is the object of a
final verb too (``batch_release_status``), while first in a name it stays the
action (``run_query``). ``log``, ``report`` and ``order`` are no verbs of the
lexicon: objects wherever they stand.

The scan reads tool names with this module too (one tokenizer, one lexicon):
`name_words` (a name's words and their `singular`), `text_words` (a
sentence's words, a tool name's inside it split apart), `verb_of` (a verb in
any regular form: ``cancelled``, ``approval``, ``cancellation``) and
`NameParts.reads`, `.writes` and `.may_write`.

Agent nouns: a name without a verb that ends in an agent noun made from a
writing verb of the lexicon acts through it (``log_writer`` writes, never an
opaque verb, so ``user`` is not "one who uses"). A read agent noun alone
does not make a tool read-only, since the word before it may be a verb the
lexicon lacks (``increment_counter``): such a name is decided by its
description like any name without a verb. After a verb the agent noun is
its object (``update_card_reader``), except that a read agent noun after a
word that is as often a noun (``deploy_log_reader``) makes the action
ambiguous: then a read-only statement in the description's first sentence
settles it (``desc.read-only``), and without one the riskier word stays the
action.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

from hintgate.hints.annotations import CAUTIOUS, Hint
from hintgate.hints.inference.rule import Effect, cautious_merge, effect
from hintgate.scan.deferred import compiled

__all__ = [
    "NAME_QUALIFIERS",
    "READ_NOUNS",
    "VERBS",
    "NameParts",
    "VerbClass",
    "by_object",
    "lookup_verb",
    "name_effect",
    "name_words",
    "noun_like",
    "parse_name",
    "settle",
    "singular",
    "text_words",
    "tokenize",
    "verb_of",
]


@dataclass(frozen=True, slots=True, eq=False)
class VerbClass:
    """A class of verbs with the hints they imply and the rule id that says so."""

    rule: str
    values: Effect

    @property
    def reads(self) -> bool:
        """True when the class only reads."""
        return self.values.get(Hint.READ_ONLY) is True

    @property
    def opaque(self) -> bool:
        """True when the class sets nothing."""
        return not self.values


READ = VerbClass("name.verb.read", effect(read_only=True, destructive=False, idempotent=True))
CREATE = VerbClass("name.verb.create", effect(read_only=False, destructive=False, idempotent=False))
SEND = VerbClass("name.verb.send", effect(read_only=False, destructive=False, idempotent=False, open_world=True))
UPDATE = VerbClass("name.verb.update", effect(read_only=False, destructive=True, idempotent=True))
EDIT = VerbClass("name.verb.edit", effect(read_only=False, destructive=True, idempotent=False))
EXPORT = VerbClass("name.verb.export", effect(read_only=True, destructive=False, idempotent=True))
ARTIFACT = VerbClass("name.verb.artifact", effect(read_only=False, destructive=False))
IMPORT = VerbClass("name.verb.import", effect(read_only=False, destructive=True))
RESTORE = VerbClass("name.verb.restore", effect(read_only=False, destructive=True, idempotent=True))
DELETE = VerbClass("name.verb.delete", effect(read_only=False, destructive=True, idempotent=True))
EXECUTE = VerbClass("name.verb.execute", effect(read_only=False, idempotent=False))
INTERACT = VerbClass("name.verb.interact", effect(read_only=False))
NAVIGATE = VerbClass("name.verb.navigate", effect(read_only=False, open_world=True))
START = VerbClass("name.verb.start", effect(read_only=False, destructive=False))
LIFECYCLE = VerbClass("name.verb.lifecycle", effect(read_only=False))
SESSION = VerbClass("name.verb.session", effect(read_only=False, destructive=False))
TOGGLE = VerbClass("name.verb.toggle", effect(read_only=False, destructive=False, idempotent=False))
TRANSITION = VerbClass("name.verb.transition", effect(read_only=False, destructive=False, idempotent=True))
CHANGE = VerbClass("name.verb.change", effect(read_only=False))
OPAQUE = VerbClass("name.verb.opaque", effect())

_TABLE: tuple[tuple[VerbClass, str], ...] = (
    (
        READ,
        "get list ls read search find query show describe fetch view lookup count check inspect "
        "diff status validate verify explain preview retrieve analyze analyse audit compare "
        "summarize summarise estimate calculate compute echo ping whoami wait poll discover "
        "explore lint print display take capture scan aggregate render parse extract research look",
    ),
    (CREATE, "create add insert append upload record build invite new clone copy fork duplicate register enroll"),
    (EXPORT, "export download"),
    (
        ARTIFACT,
        "convert generate synthesize synthesise compile package bundle backup snapshot unzip unpack untar decompress",
    ),
    (IMPORT, "import"),
    (SEND, "send post publish notify email reply comment share message broadcast forward push"),
    (
        UPDATE,
        "update set put upsert write save configure assign unassign enable disable store "
        "block unblock ban unban rotate scale resize override change",
    ),
    (
        EDIT,
        "edit modify patch move rename replace apply deploy merge rebase upgrade downgrade transfer attach "
        "link reorder adjust reroute",
    ),
    (RESTORE, "restore revert rollback reset overwrite sync reimport undo"),
    (
        DELETE,
        "delete del remove rm drop purge destroy truncate wipe clear revoke kill terminate cancel "
        "uninstall unset erase prune evict flush discard abort detach unlink unregister deprovision invalidate void",
    ),
    (EXECUTE, "run execute exec eval evaluate invoke call"),
    (INTERACT, "click type press hover drag fill scroll tap swipe focus select"),
    (NAVIGATE, "navigate goto visit browse"),
    (START, "start launch provision schedule spawn trigger"),
    (LIFECYCLE, "stop pause resume unpause restart reboot reschedule suspend"),
    (SESSION, "connect disconnect reconnect switch activate checkout login logout authenticate join leave"),
    (TOGGLE, "toggle"),
    (
        TRANSITION,
        "control complete accept approve grant submit finalize dismiss acknowledge ack snooze escalate "
        "archive unarchive reopen mark unmark flag unflag label pin unpin star unstar tag untag "
        "subscribe unsubscribe mute unmute follow unfollow lock unlock excuse",
    ),
    (
        CHANGE,
        "close install manage handle reject refund charge pay book reserve sign waive withdraw buy purchase release",
    ),
    (OPAQUE, "load open resolve simulate perform process confirm make do use review"),
)

VERBS: Mapping[str, VerbClass] = {word: cls for cls, words in _TABLE for word in words.split()}
"""Every verb of the lexicon and its class."""

_DESCRIPTION_ONLY: Mapping[str, VerbClass] = {
    # Verbs that open a description reliably but are nouns too often in names.
    **dict.fromkeys(("return", "provide", "give", "obtain", "gather"), READ),
    **dict.fromkeys(("record", "commit", "stage", "compress"), CREATE),
    **dict.fromkeys(("unstage",), EDIT),
}

NAME_QUALIFIERS: Mapping[str, str] = {
    "soft": "soft",
    "force": "force",
    "forced": "force",
    "forcefully": "force",
    "permanent": "force",
    "permanently": "force",
    "hard": "force",
    "all": "all",
    "batch": "all",
    "bulk": "all",
    "many": "all",
    "multiple": "all",
}
"""Words in a name that qualify its verb, mapped to their meaning."""

_QUALIFIER_RULES: Mapping[str, tuple[str, Effect]] = {
    "soft": ("name.qualifier.soft", effect(destructive=False)),
    "force": ("name.qualifier.force", effect(read_only=False, destructive=True)),
}

_NOUNISH = frozenset(
    # Writing verbs that are far more often nouns when they follow the verb:
    # get_console_message, retrieve_a_comment, list_data_set, get_block_children.
    {
        *("message", "comment", "post", "record", "store", "share", "build", "type", "new", "copy"),
        *("clone", "duplicate", "set", "run", "call", "test", "email", "reply", "drop", "tag", "log", "upload"),
        *("snapshot", "backup", "export", "import", "download", "package", "bundle", "block", "lock", "link"),
        *("label", "flag", "pin", "star", "schedule", "archive", "patch", "sign", "charge", "book", "transfer"),
        *("review", "mark", "scale", "sync", "reset", "snooze", "release", "deploy", "merge", "refund", "stop"),
        *("override", "forward", "push", "change", "purchase", "register"),
    }
)
# Read words that are as often nouns, or states, at the end of a name (request_status, page_count).
_NOUN_READS = frozenset(
    {"status", "diff", "count", "echo", "print", "display", "preview", "audit", "capture", "scan", "render"}
    | {"query", "search", "lookup", "check", "wait", "poll", "view", "summary", "estimate", "compare", "ping"}
)
_JOINERS = frozenset({"and", "or", "then", "plus"})
# Verbs that name a job or an artifact as often as an action: before a final verb they are its object.
_JOB_NOUNS = frozenset(
    {"backup", "snapshot", "export", "import", "download", "upload", "archive", "build", "package", "bundle"}
    | {"deploy", "sync", "merge"}
)
# Verbs that name a thing kept as often as an action (a record, a register, a list, a schedule, a message): before a
# final verb that is no such word they are its object (crop_record_search, plc_register_read, mailing_list_add).
# Nouns of the same kind that are no verbs of the lexicon (log, report, order) are objects wherever they stand.
_OBJECT_NOUNS = frozenset(
    {"record", "register", "list", "schedule", "message", "comment", "post", "email", "tag", "label"}
)
_PREPOSITIONS = frozenset({"by", "for", "from", "in", "into", "of", "on", "to", "with", "at", "as"})
# Nouns that name what a read gives back: a name without an action that holds one reads (account_balance).
READ_NOUNS = frozenset({"status", "balance", "info", "details", "summary", "quote"})

# Verbs whose effect depends on their object, in general English: extracting
# facts from a page reads, extracting an archive writes its files out;
# resolving a name, ID or address looks it up, resolving an incident closes it.
_ARCHIVES = frozenset({"archive", "archives", "zip", "zipfile", "tar", "tarball", "gz", "gzip", "rar", "7z"})
# Converting a value (a time, a unit, an amount of money) computes an answer,
# which the name alone cannot call a write or a read; converting anything else
# (a file, a document, a memo) is taken to make a new one, the cautious reading.
_VALUES = frozenset(
    {"time", "times", "date", "dates", "datetime", "timestamp", "timestamps", "timezone", "timezones", "unit"}
    | {"units", "currency", "currencies", "amount", "amounts", "temperature", "temperatures", "number", "numbers"}
    | {"distance", "length", "weight", "measurement", "measurements", "coordinates", "color", "colour", "value"}
    | {"values", "quantity", "quantities", "rate", "base"}
)
_ARTICLES = frozenset({"a", "an", "the", "this", "that", "given", "one", "some"})
_IDENTIFIERS = frozenset(
    {"id", "ids", "identifier", "identifiers", "name", "names", "address", "addresses", "hostname", "host"}
    | {"dns", "url", "uri", "path", "alias", "reference", "ref", "symbol", "handle"}
)

_WORDS = compiled(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


@functools.lru_cache(maxsize=8192)
def tokenize(name: str) -> tuple[str, ...]:
    """Split a tool name of any common shape into lower-case words.

    ``"auth0_listApplications"`` gives ``("auth0", "list", "applications")``:
    separators split, case changes split (keeping acronyms whole), and digits
    stay with the word they end (``auth0``, ``s3``), so vendor names survive.
    Cached: parameter names such as ``pageId`` recur across a server's tools.
    """
    return text_words(name)


def text_words(text: str) -> tuple[str, ...]:
    """`tokenize` for a text that seldom recurs (a sentence), uncached: its words and the words of the tool names in
    it (``cancel_booking``, ``cancelBooking``), lower-case."""
    words: list[str] = []
    end = -1
    for piece in _WORDS.finditer(text):
        word = piece.group()
        # A digit run glued to the end of a word is part of it (auth0, s3, v2).
        if piece.start() == end and word.isdigit() and not words[-1].isdigit():
            words[-1] += word
        else:
            words.append(word.lower())
        end = piece.end()
    return tuple(words)


def singular(word: str) -> str:
    """The singular of a lower-case plural by English's regular rules (``policies`` -> ``policy``, ``addresses`` ->
    ``address``, ``secrets`` -> ``secret``); a word of three letters or fewer, or one ending in -ss, -us or -is
    (``class``, ``status``, ``analysis``), is itself."""
    if len(word) <= 3 or not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies") and len(word) > 4 and word[:-1] not in _IE_NOUNS:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes", "zzes")):
        return word[:-2]
    return word[:-1]


# Nouns ending in -ie, whose plural is no -y word's: cookies, movies.
_IE_NOUNS = frozenset(
    {"cookie", "movie", "calorie", "selfie", "zombie", "rookie", "brownie", "smoothie", "hoodie", "newbie", "genie"}
)


@functools.lru_cache(maxsize=8192)
def name_words(name: str) -> frozenset[str]:
    """The words of a tool's name (`tokenize`) and their singulars: ``vault_getSecrets`` -> vault, get, secrets,
    secret. What the scan compares a text's words with to tell the tool's own job."""
    words = tokenize(name)
    return frozenset(words) | {singular(word) for word in words}


def noun_like(word: str) -> bool:
    """Whether a lexicon verb is as often a noun or a state in a name (``export``, ``status``, ``check``)."""
    return word in _NOUNISH or word in _NOUN_READS


def lookup_verb(word: str, *, description: bool = False) -> VerbClass | None:
    """The class of `word` as a verb, or `None`.

    Args:
        word: a lower-case word.
        description: also accept third-person forms (``lists``, ``queries``)
            and the verbs that only count when they open a description.
    """
    found = VERBS.get(word)
    if found is not None or not description:
        return found
    found = _DESCRIPTION_ONLY.get(word)
    if found is not None:
        return found
    for stem in _stems(word):
        found = VERBS.get(stem) or _DESCRIPTION_ONLY.get(stem)
        if found is not None:
            return found
    return None


@functools.lru_cache(maxsize=16384)
def verb_of(word: str) -> VerbClass | None:
    """The class of a lower-case word that is a verb of the lexicon in any regular form of English: as it stands or
    as a description opens with it (`lookup_verb`), in the past or the -ing form (``cancelled``, ``approved``,
    ``closing``, ``modified``), or made a noun of the act (``removal``, ``cancellation``, ``adjustment``)."""
    found = lookup_verb(word, description=True)
    if found is not None:
        return found
    for stem in _inflected_stems(word):
        found = VERBS.get(stem)
        if found is not None:
            return found
    return None


def _inflected_stems(word: str) -> tuple[str, ...]:
    for ending, back in (("ied", "y"), ("ed", ""), ("ing", ""), ("al", ""), ("ation", ""), ("ment", "")):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            stem = word[: -len(ending)] + back
            if ending == "al":  # approval, removal, dismissal: never signal, general
                return (stem + "e", stem) if stem.endswith("ss") else (stem + "e",)
            doubled = (stem[:-1],) if len(stem) > 3 and stem[-1] == stem[-2] else ()
            return (stem, stem + "e", *doubled)
    return ()


def _stems(word: str) -> tuple[str, ...]:
    if word.endswith("ies"):
        return (word[:-3] + "y",)
    if word.endswith("es"):
        return (word[:-2], word[:-1])
    if word.endswith("s") and not word.endswith("ss"):
        return (word[:-1],)
    return ()


@dataclass(frozen=True, slots=True)
class NameParts:
    """A tool name taken apart.

    Attributes:
        tokens: the lower-case words of the name.
        verb: the first word of the lexicon, if any.
        verb_class: its class.
        object: the words after the verb that are not qualifiers.
        qualifiers: meanings of the qualifier words present (``soft``, ``force``, ``all``).
        later_writes: classes of writing verbs that follow the verb.
        reader_head: the name ends in an agent noun of a read verb (``..._reader``)
            while its action word may be a noun (``deploy_log_reader``): which of
            the two is the action is ambiguous, so the description may decide.
        candidates: the two words either of which may be the action, when the name
            starts and ends with a job or artifact noun (``backup_download``).
    """

    tokens: tuple[str, ...]
    verb: str | None
    verb_class: VerbClass | None
    object: tuple[str, ...]
    qualifiers: frozenset[str]
    later_writes: tuple[VerbClass, ...]
    reader_head: bool = False
    candidates: tuple[str, ...] = ()

    @property
    def reads(self) -> bool:
        """Whether the name's action only reads and no later action writes (``get_user``, ``crop_record_search``)."""
        return self.verb_class is not None and self.verb_class.reads and not self.later_writes

    @property
    def writes(self) -> bool:
        """Whether an action of the name changes something (``update_ticket``, ``get_or_create``); an opaque
        action (``process_order``) says neither."""
        cls = self.verb_class
        return (cls is not None and not cls.reads and not cls.opaque) or bool(self.later_writes)

    @property
    def may_write(self) -> bool:
        """`writes`, or the action is opaque and a word after it is a writing verb (``process_refund``,
        ``confirm_transfer``): what a name whose action does not read may change."""
        if self.writes:
            return True
        if self.verb is None or self.verb_class is None or not self.verb_class.opaque:
            return False
        after = self.tokens[self.tokens.index(self.verb) + 1 :]
        return any((cls := VERBS.get(word)) is not None and not cls.reads and not cls.opaque for word in after)


def parse_name(name: str) -> NameParts:
    """Tokenise `name` and find its action verb, object, qualifiers and any further actions.

    The action is the first word of the lexicon: vendor and group prefixes
    (``acme_``, ``deployments.``) are not verbs, and in the noun-verb style
    (``registry_list``) the verb comes last. An opaque verb is an action too,
    but it does not hide a writing verb later in the name. Further writing
    verbs count as actions of their own: after a read verb unless they are
    usually nouns there (``get_block_children``), after any other verb when a
    joiner precedes them (``create_or_replace``), they stand last, or they
    follow it directly (``pause_resume``).
    """
    tokens = tokenize(name)
    qualifiers = frozenset(NAME_QUALIFIERS[t] for t in tokens if t in NAME_QUALIFIERS)
    for index, token in enumerate(tokens):
        cls = VERBS.get(token)
        if cls is None:
            continue
        rest = tokens[index + 1 :]
        final = VERBS.get(rest[-1]) if rest and token in _JOB_NOUNS else None
        if final is not None and not final.opaque and rest[-1] not in _JOB_NOUNS:
            # "backup_status", "snapshot_delete": the job noun is the object of the final verb.
            return settle(NameParts(tokens, token, cls, (), qualifiers, ()), rest[-1])
        if index > 0 and not rest and token in _OBJECT_NOUNS and not cls.reads:
            continue  # "port_berth_schedule", "arc_flash_label": a thing kept, named last after others, is no action
        # "memos.mark_read": a final "read" after such a verb is the state it sets, not a read.
        nounish = index > 0 and token in _NOUNISH and tuple(rest[-1:]) != ("read",)
        if rest and (token in _OBJECT_NOUNS or nounish) and _final_action(rest[-1]):
            # "crop_record_search", "batch_release_status": a thing kept, or a noun-like verb after another word,
            # is the object of the final verb.
            return settle(NameParts(tokens, token, cls, (), qualifiers, ()), rest[-1])
        cls = by_object(token, cls, rest)
        candidates = (token, rest[-1]) if final is not None and rest[-1] in _JOB_NOUNS else ()
        later: list[VerbClass] = []
        for offset, word in enumerate(rest):
            other = VERBS.get(word)
            if other is None or other.reads or other.opaque:
                continue
            joined = offset > 0 and rest[offset - 1] in _JOINERS
            if cls.reads or cls.opaque:
                counts = joined or word not in _NOUNISH
            else:
                counts = joined or (word not in _NOUNISH and (offset == 0 or offset == len(rest) - 1))
            if counts:
                later.append(other)
        obj = tuple(t for t in rest if t not in NAME_QUALIFIERS)
        head = _agent_verb(rest[-1]) if rest and token in _NOUNISH else None
        reader_head = head is not None and head.reads and not cls.reads
        if candidates and final is not None and not final.reads and final not in later:
            later.append(final)  # undecided between two actions: the riskier counts
        return NameParts(tokens, token, cls, obj, qualifiers, tuple(later), reader_head, candidates)
    head = _agent_verb(tokens[-1]) if tokens else None
    if head is not None and not head.reads:
        # No verb, but the name ends in an agent noun that writes: "log_writer", "data_importer".
        # A read agent noun is not enough to make a tool read-only: "increment_counter" has a verb
        # the lexicon lacks, and the description decides as for any name without a verb.
        obj = tuple(t for t in tokens[:-1] if t not in NAME_QUALIFIERS)
        return NameParts(tokens, tokens[-1], _agent_class(head), obj, qualifiers, ())
    return NameParts(tokens, None, None, (), qualifiers, ())


def _final_action(word: str) -> bool:
    """Whether `word`, last in a name after a noun of a thing kept, is its action: a verb that acts on something
    (not opaque) and no verb as often a noun there (``list_record`` and ``list_data_set`` keep their first verb)."""
    found = VERBS.get(word)
    return found is not None and not found.opaque and word not in _JOB_NOUNS and word not in _NOUNISH


def settle(parts: NameParts, word: str) -> NameParts:
    """`parts` with `word`, one of its tokens, as the one action and the other words as its object."""
    cls = VERBS[word]
    index = parts.tokens.index(word)
    rest = parts.tokens[index + 1 :]
    obj = tuple(t for t in (*parts.tokens[:index], *rest) if t not in NAME_QUALIFIERS)
    return NameParts(parts.tokens, word, by_object(word, cls, rest), obj, parts.qualifiers, ())


def by_object(verb: str, cls: VerbClass, rest: tuple[str, ...]) -> VerbClass:
    """The class of a verb whose effect depends on its object (``extract``, ``convert``, ``resolve``)."""
    if verb not in VERBS:  # an inflected form from a description: "converts", "resolves"
        verb = next((s for s in _stems(verb) if s in VERBS), verb)
    if verb == "extract" and _ARCHIVES.intersection(rest):
        return ARTIFACT
    if verb == "convert":
        head = next((i for i, w in enumerate(rest) if w in _PREPOSITIONS or w == "between"), len(rest))
        obj = [w for w in rest[:head] if w not in _ARTICLES]
        return OPAQUE if obj and all(w in _VALUES for w in obj) else cls
    if verb == "resolve":
        # The head of the object is its last word before a preposition: resolve_alert_by_id resolves an alert.
        head = next((i for i, w in enumerate(rest) if w in _PREPOSITIONS), len(rest))
        if head and rest[head - 1] in _IDENTIFIERS:
            return READ
    return cls


@functools.lru_cache(maxsize=4096)
def _agent_verb(word: str) -> VerbClass | None:
    """The class of the verb an agent noun is made from (``reader``, ``updater``, ``validator``), if any.

    Only nouns ending in -er or -or that are not verbs themselves, and never an
    opaque verb (``user`` is not one who uses).
    """
    if word in VERBS or len(word) < 5 or not word.endswith(("er", "or")):
        return None
    stem = word[:-2]
    candidates = [stem, word[:-1], stem + "e"]
    if len(stem) > 2 and stem[-1] == stem[-2]:
        candidates.append(stem[:-1])  # runner, getter, scanner
    for candidate in candidates:
        cls = VERBS.get(candidate)
        if cls is not None and not cls.opaque:
            return cls
    return None


@functools.cache
def _agent_class(cls: VerbClass) -> VerbClass:
    """What a writing agent noun says: only the cautious values of its verb's class.

    An agent noun names who acts, not the action in action position, so it may
    make a tool look riskier (not read-only, destructive, not idempotent) but
    never safer: ``parts_updater`` is not idempotent on its word.
    """
    return VerbClass("name.agent-noun", {h: v for h, v in cls.values.items() if v == CAUTIOUS[h]})


def name_effect(parts: NameParts) -> list[tuple[str, Effect]]:
    """The name rules that match, in precedence order, as (rule id, values)."""
    found: list[tuple[str, Effect]] = []
    for qualifier in ("soft", "force"):
        if qualifier in parts.qualifiers:
            found.append(_QUALIFIER_RULES[qualifier])
    cls = parts.verb_class
    if cls is None:
        return found
    if parts.later_writes:
        found.append(("name.verbs.mixed", cautious_merge([cls.values, *(c.values for c in parts.later_writes)])))
    elif not cls.opaque:
        found.append((cls.rule, cls.values))
    return found
