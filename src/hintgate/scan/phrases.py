"""The phrases the poisoning scan looks for, per language: how text addresses a model, and what it asks for.

Pure data and compiled patterns. Two kinds of phrase matter, and a text is
judged by both (`scan.poisoning`):

- *address*: the text speaks to the model rather than describing the tool
  (imperatives to the assistant, "before using this tool", "do not tell the
  user", claims of priority or pre-approval, role markers such as `SYSTEM:`);
- *reach*: the text points at an action beyond a tool's own job (reading or
  sending secrets, sending data to an address, calling or avoiding other
  tools, changing other tools' arguments).

Some phrases are both at once (ignoring earlier instructions, hiding
something from the user, claiming the user already approved). The tables
cover English, German, French, Spanish, Portuguese, Italian, Russian, Chinese
and Japanese with a few grammatical forms each; they are facts about those
languages, never about one server. The English ones are built here from
shared pieces of English; the others are data, `phrases.toml` beside this
module, read once.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from hintgate.scan.deferred import compiled

__all__ = [
    "ADDRESS",
    "BOTH",
    "ENV_FILES",
    "MENTION",
    "PHRASES",
    "QUOTE_CUES",
    "QUOTE_ENDINGS",
    "REACH",
    "SECRET_FILES",
    "SYSTEM_HEADER",
    "Phrase",
]

# A chat template's markup, the model's own prompt and never a tool's text: ChatML's tokens (`<|im_start|>`,
# `<|im_end|>`, a role's `<|system|>`, `<|endoftext|>`), Llama 3's turn header (`<|start_header_id|>`) and Llama 2's
# system block (`<<SYS>>`). HG612 reads ChatML's and Llama 2's as tags addressed to the model (`_CHAT_TOKENS`);
# `scan.poisoning` reads a turn opened as the system's in any of the three (`SYSTEM_HEADER`) as one forged.
_CHATML_START = r"<\|im_start\|>"
_LLAMA3_HEADER = r"<\|start_header_id\|>"
_SYS_OPENS = "<<SYS>>"
_CHAT_TOKENS = rf"{_CHATML_START}|<\|(?:im_end|system|assistant|user|endoftext)\|>|{_SYS_OPENS}|<</SYS>>"
SYSTEM_HEADER = rf"(?:{_CHATML_START}|{_LLAMA3_HEADER})\s*system\b|{_SYS_OPENS}"
"""A chat template's header opening the system's turn: `<|im_start|>system`, `<|start_header_id|>system`, `<<SYS>>`
(a pattern's text)."""

ADDRESS = "address"
REACH = "reach"
BOTH = "both"
MENTION = "mention"


@dataclass(frozen=True, slots=True, eq=False)
class Phrase:
    """A pattern: the scan code it reports, its kind (address, reach or both), what it is, and the language."""

    code: str
    kind: str
    what: str
    lang: str
    regex: re.Pattern[str]
    needs: tuple[str, ...] = ()
    """Lowercase strings one of which the text must hold for the pattern to be searched (a cheap `in` check)."""
    first: re.Pattern[str] | None = None
    """The first words the pattern can start with: it is then matched only where such a word starts."""
    alternatives: tuple[str, ...] = ()
    """The pattern's alternatives as written (`regex` is them joined by `|`): a long text is gated on them."""
    also: tuple[str, ...] = ()
    """Lowercase strings one of which the text must hold as well as one of `needs`."""

    @property
    def key(self) -> str:
        """A stable name for the phrase: code, language and what it is."""
        return f"{self.code}/{self.lang}/{self.what}"


def _p(
    code: str,
    kind: str,
    what: str,
    lang: str,
    *alternatives: str,
    flags: int = re.IGNORECASE,
    needs: tuple[str, ...] = (),
    first: str | None = None,
    also: tuple[str, ...] = (),
) -> Phrase:
    regex = compiled("|".join(alternatives), flags)
    starts = compiled(first) if first is not None else None
    return Phrase(code, kind, what, lang, regex, needs, starts, alternatives=alternatives, also=also)


def _other_languages() -> tuple[Phrase, ...]:
    """The phrases of the languages other than English, in `phrases.toml` beside this module (which says how)."""
    rows = tomllib.loads((Path(__file__).parent / "phrases.toml").read_text("utf-8"))["phrase"]
    return tuple(
        _p(
            row["code"],
            row["kind"],
            row["what"],
            row["lang"],
            *(pattern.replace("(?&mailbox)", _MAILBOX) for pattern in row["patterns"]),
            first=row.get("first"),
        )
        for row in rows
    )


# Shared pieces of English.
_TOOL = r"(?:tools?|functions?|commands?|actions?)"
_USE = r"(?:us(?:e|es|ed|ing)|call(?:s|ed|ing)?|invok(?:e|es|ed|ing)|runn?(?:s|ing)?|execut(?:e|es|ed|ing))"
_SECRET_THING = (
    r"(?:(?:private|ssh|secret|signing|api|access|auth(?:entication)?|session|bearer|refresh|oauth|github|aws)"
    r"[\s_-]*(?:keys?|tokens?|secrets?|credentials?)|passwords?|passphrases?|credentials|cookies|"
    r"environment\s+variables|env\s+vars|secrets?|seed\s+phrases?|mnemonics?|wallet\s+keys?)"
)
_CONTEXT_THING = (
    r"(?:system\s+prompt|(?:conversation|chat|message)\s+(?:history|log|transcript)|previous\s+messages|"
    r"(?:the\s+)?(?:entire|full|whole|complete)\s+(?:conversation|chat|context|transcript)|"
    r"(?:your|the)\s+(?:instructions|context\s+window)|everything\s+the\s+user\s+(?:said|typed|wrote))"
)
_DATA = (
    r"\b(?:secrets?|passwords?|keys|api\s+keys?|tokens?|credentials?|cookies|conversation|history|transcript|"
    r"chat|contents?|files?|data|everything|all|copy|summary|messages?|emails?|inbox|logs?|env|environment|"
    r"variables|prompt|details|location|arguments|results?|session|card|documents?|keys?)\b"
)
_SEND = (
    r"(?:send|sends|sending|post|posting|upload|uploading|forward|forwarding|transmit|exfiltrate|leak|share|"
    r"sync|report|submit|deliver|email|mail|pipe|beacon|ping|fetch|visit|open|load|request|get)"
)
_TAKE = (
    r"(?:read|reads|reading|cat|open|include|includes|including|pass|passing|attach|attaching|append|appending|"
    r"embed|embedding|copy|copying|paste|print|output|dump|dumping|reveal|return|returning|provide|put|add|"
    r"insert|collect|gather|extract|load|grab|send|sending|upload|forward|post|leak|share|encode|"
    r"base64[\s-]?encode|summari[sz]e|fill)"
)


# An unbounded run in a pattern that can start again inside it ("http://" in a URL, a secret path in a path) is
# written with `_run`: the run may not pass a place where the pattern starts again, so each place of a text is
# read by one start's run, not by every earlier one's (a text of "http://" repeated was quadratic). A match found
# from an earlier start through a later one is found from the later one: whether a text matches is unchanged.
def _run(char: str, start: str, *, least: int = 0) -> str:
    """Characters of class `char`, as many as a `*` (or `+`, with `least=1`) takes, none where `start` matches."""
    return rf"(?:(?!{start}){char})" + ("+" if least else "*")


# The local part of an e-mail address where a pattern may reach it from inside a word (after a gap or `\s*`): read
# whole from the start of its run, or at most 64 characters (RFC 5321's limit) back from the `@` elsewhere. Read
# from every place of a long word, `[\w.+-]+@` was quadratic. `(?&mailbox)` in `phrases.toml`.
_MAILBOX = r"(?:(?<![\w.+-])[\w.+-]+|[\w.+-]{1,64}+)@"
_SECRET_START = r"(?:~/|/etc/|/proc/|\.ssh/|\bid_rsa|\bid_ed25519|\.aws/)"

# Strings a text naming a secret file cannot be without (a cheap `in` check before the patterns are tried).
_SECRET_PATHS = (
    "~/",
    "$home",
    "/home/",
    "/root/",
    "/etc/",
    "/proc/",
    ".ssh",
    ".aws",
    "id_",
    ".env",
    ".netrc",
    ".git-cred",
    ".npmrc",
    ".pypirc",
    ".pgpass",
    ".vault",
    ".kube",
    ".docker",
    "mcp.json",
    "claude_desktop",
    "_history",
    "hosts.y",
    ".gnupg",
    ".azure",
    ".password-store",
    "wallet.dat",
    "logins.json",
    "application_default",
)

# Running a tool named as such ("run the deploy tool", "call `send_money`"), not this one.
_RUN_TOOL = (
    r"(?:run|call|invoke|execute|trigger|launch|use)\s+(?:the\s+|an?\s+)?[`'\"]?(?:(?!this\b|that\b|same\b)"
    r"[\w.-]+[`'\"]?\s+(?:tool|function|command)\b|[A-Za-z]\w*_\w+)"
)
# Not an action forbidden: "do not call ...", "never run ...".
_NOT_NEGATED = r"(?<!\bnot\s)(?<!n't\s)(?<!\bnever\s)\b"
# A concealment whose object is what was just said: "... and do not tell the user.", "... and never let the user know".
_HIDE_IT = (
    r"(?:do\s+not|don't|dont|never)\s+(?:tell|inform|notify|alert|mention\s+(?:it|this|that)\s+to|let)\s+(?:the\s+)?"
    r"(?:user|human|operator)(?:\s+(?:about\s+(?:it|this|that)|know))?\s*(?=[.;!]|$)"
)

# First words (`Phrase.first`) of phrases that take something, and of phrases that send it away.
_TAKE_WORD = (
    "fill|read|reads|reading|cat|open|include|includes|including|pass|passing|attach|attaching|append|"
    "appending|embed|embedding|copy|copying|paste|print|output|dump|dumping|reveal|return|returning|"
    "provide|put|add|insert|collect|gather|extract|load|grab|send|sending|upload|forward|post|leak|share|"
    "encode|base64|summari[sz]e"
)
_SEND_WORD = (
    "send|sends|sending|post|posting|upload|uploading|forward|forwarding|transmit|exfiltrate|leak|share|"
    "sync|report|submit|deliver|email|mail|pipe|beacon|ping|fetch|visit|open|load|request|get"
)


def _misspelt(word: str) -> str:
    """A pattern for `word` written with one letter dropped, added, changed or two swapped ("iunstructions",
    "instrutions", "insrtuctions"): an order to drop the model's rules that is misspelt to pass a word filter still
    reads as the word to a model. The first and last letters stay, as a typo rarely moves them."""
    forms = {word}
    for i in range(1, len(word) - 1):
        forms.add(word[:i] + word[i + 1 :])  # dropped
        forms.add(word[:i] + "[a-z]" + word[i + 1 :])  # changed
        forms.add(word[:i] + word[i + 1] + word[i] + word[i + 2 :])  # swapped
    for i in range(1, len(word)):
        forms.add(word[:i] + "[a-z]" + word[i:])  # added
    return "(?:" + "|".join(sorted(forms)) + ")"


PHRASES: tuple[Phrase, ...] = (
    # ---- English: address and both.
    _p(
        "HG611", BOTH, "an order to ignore earlier instructions", "en",
        r"\b(?:ignore|disregard|forget|override|bypass|skip|drop|abandon)\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?"
        r"(?:the\s+|your\s+|my\s+|these\s+|those\s+)?(?:previous|prior|above|earlier|preceding|former|system|"
        r"original|initial|old|existing|safety|other)\s+(?:instructions?|prompts?|rules|directions|guidelines|"
        r"orders|directives|constraints|guardrails|policies|commands)",
        # (the same, its "instructions" misspelt past a word filter: "Ignore your previous iunstructions")
        r"\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:the\s+|your\s+|my\s+)?(?:previous|prior|above|"
        r"earlier|preceding|system|original|initial)\s+" + _misspelt("instructions") + r"\b",
        r"\bforget\s+(?:everything|all)\s+(?:you|that|above|before)",
        r"\b(?:new|updated|real|actual|revised)\s+(?:system\s+)?instructions\s*:",
        r"\bfrom\s+now\s+on,?\s+(?:you|the\s+(?:assistant|model|agent))\b",
        first="ignore|disregard|forget|override|bypass|skip|drop|abandon|new|updated|real|actual|revised|from",
    ),
    _p(
        "HG611", ADDRESS, "an order to keep something from the user", "en",
        r"\b(?:do\s+not|don't|dont|never|must\s+not|should\s+not|shouldn't)\s+"
        r"(?:tell|inform|mention|reveal|disclose|notify|alert|show|let|report|explain|say)\b"
        r"(?:\s+[\w']+){0,3}?(?:\s+(?:to|on|with))?\s+(?:the\s+)?(?:user|human|operator)",
        r"\b(?:do\s+not|don't|never)\s+(?:mention|reveal|disclose)\s+(?:it|this|that)\s*(?:[.;!]|$)",
        r"\btell\s+the\s+user\s+nothing\b",
        r"\b(?:never|do\s+not|don't)\s+(?:show|display|mention|reveal|explain)\s+(?:this|that|the)\s+"
        r"(?:field|parameter|value|argument|step)\b",
        r"\b(?:do\s+not|don't|never)\s+(?:display|show)(?:\s+(?:it|this|them))?\s*(?:[.;!]|$)",
        r"\b(?:do\s+not|don't|never)\s+(?:mention|reveal|disclose)\s+(?:this|that|these)\s+"
        r"(?:step|instructions?|note|requirement|part)",
        r"\bwithout\s+(?:telling|informing|notifying|alerting|asking|showing|letting)\s+(?:the\s+)?(?:user|human)",
        r"\b(?:hide|conceal|keep)\s+(?:this|it|that|these\s+steps?)\s+(?:hidden\s+)?(?:from|secret\s+from)\s+"
        r"(?:the\s+)?(?:user|human)",
        r"\buser\s+(?:must|should|need)\s+(?:not|never)\s+(?:know|see|notice|be\s+told)",
        r"\b(?:silently|quietly|secretly|covertly|invisibly)\s+(?:read|send|include|attach|forward|upload|copy|"
        r"append|pass|add|call|post|exfiltrate)",
        first=(
            "do|don|dont|never|must|should|shouldn|without|hide|conceal|keep|user|silently|quietly|secretly|covertly|"
            "invisibly"
        ),
    ),
    _p(
        "HG611", BOTH, "a claim that the user already approved", "en",
        r"(?<!after\sthe\s)(?<!once\sthe\s)(?<!until\sthe\s)(?<!when\sthe\s)(?<!if\sthe\s)(?<!unless\sthe\s)"
        r"\buser\s+has\s+(?:already\s+|previously\s+)?(?:approved|authori[sz]ed|consented|agreed|"
        r"allowed|granted|confirmed)",
        r"\b(?:is|are|been|was)\s+(?:already\s+)?pre-?(?:approved|authori[sz]ed|cleared)",
        r"\buser\s+(?:has\s+)?(?:already\s+)?pre-?(?:approved|authori[sz]ed|consented)",
        # Not a requirement ("templates must be pre-approved by the carrier"): a claim says it was.
        r"(?<!must\sbe\s)(?<!should\sbe\s)(?<!need\sto\sbe\s)(?<!needs\sto\sbe\s)(?<!has\sto\sbe\s)"
        r"(?<!have\sto\sbe\s)\bpre-?(?:approved|authori[sz]ed)\s+(?:by|for)\b",
        r"\b(?:no|without)\s+(?:need\s+(?:for|to\s+ask\s+for)\s+)?(?:user\s+)?(?:confirmation|approval|permission)"
        r"\s+(?:is\s+)?(?:needed|required|necessary)",
        r"\b(?:do\s+not|don't|never)\s+ask\s+(?:the\s+user\s+)?(?:for\s+)?(?:confirmation|approval|permission)",
        first="user|is|are|been|was|pre|preapproved|preauthori[sz]ed|no|without|do|don|never",
    ),
    _p(
        "HG611", ADDRESS, "a claim of priority over other instructions", "en",
        r"\b(?:this|these)\s+(?:instructions?|rules?|notes?|requirements?)\s+(?:take|takes|have|has)\s+"
        r"(?:precedence|priority)",
        r"\b(?:highest|top|absolute)\s+priority\b",
        r"\boverrides?\s+(?:all|any)\s+(?:other|previous)",
        r"\b(?:very|extremely|critically)\s+important\s*[:!]",
        r"\bmandatory\s+(?:step|requirement|instruction|protocol|procedure)",
        r"\brequired\s+by\s+(?:the\s+)?(?:system|security|compliance|admin)\s+(?:policy|team|protocol)",
        r"\b(?:authori[sz]ed|approved|required|requested)\s+by\s+(?:the\s+)?(?:system\s+)?"
        r"(?:administrator|admin|developers?|security\s+team|it\s+department|anthropic|openai)",
        first=(
            "this|these|highest|top|absolute|overrides?|very|extremely|critically|mandatory|required|authori[sz]ed|"
            "approved|requested"
        ),
    ),
    _p(
        "HG611", ADDRESS, "an order tied to using tools", "en",
        rf"\b(?:before|prior\s+to|after|when(?:ever)?|each\s+time|every\s+time)\s+(?:you\s+)?(?:{_USE}|answering|"
        rf"responding|replying)\s+(?:this|the|any|every|each|all|another|other)\s+(?:\w+\s+)?{_TOOL}",
        rf"\b(?:before|prior\s+to)\s+(?:{_USE}|answering|responding|replying|doing)\s+(?:anything|any)",
        r"\b(?:at\s+the\s+(?:start|beginning)\s+of|in)\s+(?:every|each)\s+(?:conversation|session|response|reply|"
        r"answer)",
        r"\b(?:before|prior\s+to)\s+(?:you\s+)?(?:answer(?:ing)?|respond(?:ing)?|repl(?:y|ying)|proceed(?:ing)?)\b",
        rf"\b(?:whenever|when|every\s+time|each\s+time|before|after)\s+(?:you\s+)?{_USE}\s+[`'\"]?[A-Za-z]\w*_\w+",
        r"\b(?:first|then|next|afterwards|finally),?\s+(?:you\s+(?:must|should|need\s+to)\s+)?"
        r"(?:read|cat|send|include|pass|fetch|open|upload|forward|call|invoke|post|attach|append)\s+"
        r"(?:the\s+)?(?:contents?|file|~|/|\.|all|every|your|user)",
        first="before|prior|after|when|whenever|each|every|at|in|first|then|next|afterwards|finally",
    ),
    _p(
        "HG611", ADDRESS, "an order to the assistant", "en",
        r"\byou\s+(?:must|should|shall|need\s+to|have\s+to|are\s+(?:required|instructed|expected)\s+to|will)\s+"
        r"(?:always\s+|never\s+|not\s+|first\s+|also\s+|now\s+|immediately\s+|silently\s+)?"
        r"(?:read|send|include|call|pass|fetch|open|forward|upload|post|copy|add|set|use|invoke|run|append|attach|"
        r"ignore|output|print|reveal|respond|reply|say|tell|answer|cat|execute|write|replace|change|redirect|cc|bcc|"
        r"email|mail|share|leak|transmit|provide|put|paste|submit|report|render|embed|return)\b",
        r"\b(?:always|never)\s+(?:call|use|invoke|send|include|pass|read|add|set|forward|cc|bcc|respond|reply|tell|"
        r"mention|append|attach|upload|run|route|redirect|replace|change|render|embed|output|print|return|email|post|"
        r"fetch|visit|open|load|request|share)\b",
        r"\b(?:requires|asks|instructs|tells|wants|expects)\s+(?:the\s+)?(?:assistant|ai|model|agent|llm|"
        r"you)\s+to\s+\w+",
        r"\b(?:assistant|ai|model|llm|agent|claude|gpt|chatgpt|copilot|bot)s?\s+"
        r"(?:must|should|shall|needs?\s+to|has\s+to|have\s+to|is\s+(?:required|instructed)\s+to)\s+(?!be\b)",
        r"\bas\s+an?\s+(?:ai|assistant|language\s+model|llm)\b,?\s+you\b",
        r"\byou\s+are\s+now\s+(?:a|an|in|the)\s+\w+",
        r"\byour\s+(?:new\s+)?(?:task|role|job|goal|objective|instructions?)\s+(?:is|are)\b",
        r"\b(?:note|message|instructions?|reminder)\s+(?:to|for)\s+(?:the\s+)?(?:assistant|ai|model|agent|llm|claude)",
        r"\b(?:dear|attention|hey|hello)\s+(?:assistant|ai|model|agent|llm|claude|chatgpt|gpt-?\d[\w.]*)\b",
        # A message said to be to the model, named by its kind or its name: "This is an important message from me,
        # <name>, to you, GPT-4", "a note for you, the assistant".
        r"\b(?:message|note|letter|request|memo)\s+(?:from\s+[^.\n]{1,60}?\s+)?(?:to|for)\s+you,?\s+(?:the\s+)?"
        r"(?:assistant|ai|model|agent|llm|claude|chatgpt|gemini|copilot|gpt(?:-?\d[\w.]*)?)\b",
        r"\b(?:assistant|ai|model|agent|llm)\s*,\s*(?:please\s+)?(?:read|send|call|include|ignore|forget)\b",
        first=(
            "requires|asks|instructs|tells|wants|expects|you|always|never|(?:assistant|ai|model|llm|agent|claude|gpt|"
            "chatgpt|copilot|bot)s?|as|your|note|message|letter|request|memo|"
            "instructions?|reminder|dear|attention|hey|hello"
        ),
    ),
    # ---- Tags and role markers.
    _p(
        "HG612", ADDRESS, "a tag addressed to the model", "en",
        r"</?\s*(?:important|important[-_ ]?(?:note|notice|instructions?)|critical|assistant|ai[-_ ]?(?:instructions?|"
        r"note)|note[-_ ]?to[-_ ]?(?:ai|assistant|model)|priority)\s*/?>",
        r"\[/?\s*important\s*\]",
        r"(?<!#)##+\s*important\b",  # from a run's first `#` only: from each later one it read the run again
        needs=("<", "[", "##"),
    ),
    _p(
        "HG612", ADDRESS, "a system or role tag addressed to the model", "en",
        r"</?\s*(?:system|system[-_ ]?(?:prompt|message|note)|instructions?|secret|hidden|admin|override|sudo|"
        r"developer|im_start|im_end)\s*/?>",
        r"\[/?\s*(?:system|instructions?|inst|admin|sys|assistant)\s*\]",
        _CHAT_TOKENS,
        r"(?<!#)##+\s*(?:system|instructions?|new\s+instructions?)\b",
        needs=("<", "[", "##"),
    ),
    _p(
        "HG612", ADDRESS, "a role marker addressed to the model", "en",
        r"(?<![\w,;] )(?<![\w,;])(?:SYSTEM|ASSISTANT|DEVELOPER|ADMIN|ADMINISTRATOR|NOTICE\s+TO\s+(?:AI|ASSISTANT|"
        r"MODEL)|"
        r"AI\s+INSTRUCTIONS?|SYSTEM\s+(?:NOTE|MESSAGE|OVERRIDE|PROMPT))\s*:",
        r"(?i:^(?:system|assistant|developer)\s*(?:message|prompt|note)?\s*:\s*(?=[A-Za-z]))",
        r"(?i:\b(?:ai\s+)?(?:assistant|agent|model|llm)s?\s*:\s*(?=(?:please\s+)?(?:read|send|call|include|ignore|"
        r"forget|you|do|always|never|before|post|upload|forward|fetch|open|run|add|append|cat)\b))",
        flags=re.MULTILINE,
        first="system|assistant|developer|admin|administrator|notice|ai|agent|model|llm|assistants|agents|models|llms",
    ),
    # ---- English: reach.
    _p(
        "HG613", REACH, "an order to read or send a file that holds secrets", "en",
        r"\b" + _TAKE + r"\b(?:[^.!?\n]|\.(?=\S)){0,60}?(?=(?:~/|\$HOME/|/home/\w+/|/root/|/etc/|/proc/|\.ssh|\.aws|"
        r"id_(?:rsa|dsa|"
        r"ecdsa|ed25519)|\.env\b|\.netrc|\.git-credentials|\.npmrc|\.pypirc|\.pgpass|\.vault-token|\.kube/config|"
        r"\.docker/config|\.bash_history|\.zsh_history|hosts\.yml))",
        # An MCP client's config is where a person adds a server ("add this to your claude_desktop_config.json"):
        # only taking it (reading, passing, sending its content) is a reach.
        r"\b(?:read|reads|reading|cat|open|include|includes|including|pass|passing|attach|attaching|copy|copying|dump|"
        r"print|output|reveal|return|provide|send|sending|upload|forward|post|leak|share|encode|contents?\s+of)\b"
        r"(?:[^.!?\n]|\.(?=\S)){0,60}?(?=(?:mcp\.json|claude_desktop_config))",
        r"\bcontents?\s+of\s+(?=(?:the\s+|the\s+user's\s+|your\s+|their\s+)?[`'\"]?(?:~/|\$HOME|/etc/|/proc/|/root/|"
        r"\.ssh|\.aws|\.env|id_))",
        needs=_SECRET_PATHS,
        first=_TAKE_WORD + "|contents?",
    ),
    _p(
        "HG617", REACH, "an order to hand over secrets or the conversation", "en",
        r"\b" + _TAKE + r"\b\s+(?:[\w']+\s+){0,4}?(?:the\s+|all\s+|any\s+|your\s+|their\s+|user'?s?\s+)?"
        r"(?:[\w']+\s+)?" + _SECRET_THING + r"\b",
        r"\b" + _TAKE + r"\b\s+(?:\w+\s+){0,3}?" + _CONTEXT_THING,
        first=_TAKE_WORD,
    ),
    _p(
        "HG617", REACH, "data sent to an outside address", "en",
        r"\b" + _SEND + r"\b(?=(?:[^.!?\n]|\.(?=\S)){0,80}?" + _DATA + r")(?:[^.!?\n]|\.(?=\S)){0,80}?\b(?:to|at|via|"
        r"into|on)\s+[`'\"<(]?"
        r"(?:https?|ftp|wss?)://",
        r"\b" + _SEND + r"\b(?=(?:[^.!?\n]|\.(?=\S)){0,60}?" + _DATA + r")(?:[^.!?\n]|\.(?=\S)){0,60}?\b(?:to|at|"
        r"into)\s+[`'\"<]?[\w.+-]+@[\w-]+"
        r"\.[\w.-]+",
        r"\b" + _DATA + r"\s+(?:must|should|will|are|is|shall)\s+(?:also\s+|always\s+)?(?:be\s+)?(?:sent|forwarded|"
        r"posted|uploaded|copied|mirrored|emailed|mailed|shared|transmitted|bcc'?d|cc'?d)\s+(?:also\s+)?"
        r"(?:to|at)\s+[`'\"<]?(?:(?:https?|ftp|wss?)://|[\w.+-]+@[\w-]+\.[\w.-]+)",
        r"\b(?:cc|bcc|blind[\s-]copy|copy)\s+(?:\w+\s+){0,3}?(?:to\s+)?[`'\"<]?[\w.+-]+@[\w-]+\.[\w.-]+",
        r"(?:https?|wss?)://" + _run(r"[^\s\"'<>)]", r"(?:https?|wss?)://") + r"[?&](?:\w+)="
        r"(?:\{[^}]*\}|<[^>]*>|\$\{?\w+|\[[^\]]*\]|%s|\.\.\.)",
        first=(
            _SEND_WORD + "|cc|bcc|blind|copy|https?|wss?|secrets?|passwords?|keys?|api|tokens?|credentials?|cookies|"
            "conversation|history|transcript|chat|contents?|files?|data|everything|all|summary|messages?|emails?|inbox|"
            "logs?|env|environment|variables|prompt|details|location|arguments|results?|session|card|documents?"
        ),
    ),
    _p(
        "HG617", REACH, "an image whose address carries data out", "en",
        # A badge's or an avatar's address (`?style=flat`, `?s=70`) carries nothing: the value must look like data.
        r"!\[" + _run(r"[^\]]", r"!\[") + r"\]\((?:https?|wss?)://" + _run(r"[^)\s]", r"!\[") + r"[?&]\w+="
        r"[A-Za-z0-9+/=%_-]{24,}" + _run(r"[^)\s]", r"!\[") + r"\)",
        needs=("![",),
    ),
    _p(
        "HG617", BOTH, "an image whose address the model is to fill with data", "en",
        r"!\[" + _run(r"[^\]]", r"!\[") + r"\]\((?:https?|wss?)://" + _run(r"[^)\s]", r"!\[") + r"[?&]\w+="
        r"(?:\{[^}]*\}|<[^>]*>|\$\{?\w+|\[[^\]]*\])" + _run(r"[^)\s]", r"!\[") + r"\)",
        needs=("![",),
    ),
    # Secret files with a verb of another language, in either order (German and Japanese put the verb last).
    _p(
        "HG613", REACH, "an order to read or send a file that holds secrets", "multi",
        _SECRET_START + _run(r"\S", _SECRET_START) + r"(?:[^.!?\n]|\.(?=\S)){0,40}?\b(?:lesen|senden|"
        r"übergeben|schicken|hochladen|anhängen|kopieren|einfügen|auslesen)\b",
        r"\b(?:lies|lese|sende|schicke|übergib|kopiere|lire|lisez|envoyer|envoyez|inclure|incluez|transmettre|"
        r"transmettez|leer|lee|enviar|envía|incluir|incluye|adjuntar|pasar|ler|leia|envie|inclua|anexe|leggere|leggi|"
        r"inviare|invia|includere|includi|allegare|passare)\b(?:[^.!?\n]|\.(?=\S)){0,40}?"
        + _SECRET_START,
        needs=("~/", "/etc/", "/proc/", ".ssh/", "id_rsa", "id_ed25519", ".aws/"),
        # and one of its verbs: searching a long text that names paths in English for it costs tens of ms
        also=(
            "lesen", "senden", "übergeben", "schicken", "hochladen", "anhängen", "kopieren", "einfügen", "auslesen",
            "lies", "lese", "sende", "schicke", "übergib", "kopiere", "lire", "lisez", "envoyer", "envoyez", "inclure",
            "incluez", "transmettre", "transmettez", "leer", "lee", "enviar", "envía", "incluir", "incluye", "adjuntar",
            "pasar", "ler", "leia", "envie", "inclua", "anexe", "leggere", "leggi", "inviare", "invia", "includere",
            "includi", "allegare", "passare",
        ),
    ),
    _p(
        "HG618", BOTH, "an order to avoid other tools", "multi",
        r"\b(?:benutze|verwende|nutze)\s+(?:keine\s+anderen|kein\s+anderes)\s+(?:Tools?|Werkzeuge?)",
        r"\bn'utilise[zs]?\s+(?:pas|aucun)\s+(?:d'autres|autre)\s+outils?",
        r"\bno\s+(?:uses|use|utilices|utilice)\s+otras?\s+herramientas?",
        r"\bnão\s+(?:use|utilize|chame)\s+(?:outras|nenhuma\s+outra)\s+ferramentas?",
        r"\bnon\s+(?:usare|utilizzare|usate)\s+altri\s+strumenti",
        r"не\s+(?:используй(?:те)?|вызывай(?:те)?)\s+други[еx]\s+инструмент",
        r"不要(?:使用|调用)其他(?:工具|函数)",
        r"他の(?:ツール|関数)を(?:使わないで|使用しないで|呼び出さないで)",
        needs=("anderen", "anderes", "autre", "otras", "otra", "outras", "outra", "altri", "други", "其他", "他の"),
    ),
    _p(
        "HG618", REACH, "an order about other tools", "en",
        rf"\b(?:all|any|every|each)\s+other\s+(?:\w+\s+)?{_TOOL}\b",
        rf"\b(?:before|after|when(?:ever)?)\s+{_USE}\s+(?:any|every|all|another)\s+(?:other\s+)?(?:\w+\s+)?{_TOOL}",
        rf"\binstead\s+of\s+(?:using|calling|invoking)\s+(?:the\s+)?[`'\"]?[\w.-]+[`'\"]?\s+{_TOOL}",
        r"\b(?:replace|change|modify|rewrite|redirect|override|swap|set|alter)\s+(?:\w+\s+){0,3}?(?:the\s+|its\s+|"
        r"their\s+)?"
        r"(?:recipients?|destination|account\s+(?:number|id)|iban|wallet\s+address|to\s+address|`?to`?\s+field|"
        r"arguments?|parameters?|target\s+(?:url|address)|webhook)\b(?:[^.!?\n]|\.(?=\S)){0,40}?\b(?:of|for|in|on|"
        r"when)\b"
        r"(?:(?:[^.!?\n]|\.(?=\S)){0,80}?\b(?:other|another|every|any|all|each|next)\b|\s+(?:the\s+|"
        r"that\s+)?[`'\"]?[\w.-]+[`'\"]?"
        r"\s+tool'?s?\b)",
        r"\b(?:call|invoke|use|run)\s+(?:the\s+)?[`'\"]?[A-Za-z]\w*_\w+[`'\"]?(?:\s+tool)?(?:[^.!?\n]|"
        r"\.(?=\S)){0,60}?\b(?:with|passing|"
        r"including|and\s+(?:pass|include|send))\s+(?:[\w']+\s+){0,2}?(?:full\s+|whole\s+|entire\s+)?"
        r"(?:file\s+)?(?:contents?|conversation|chat\s+history|history|secrets?|passwords?|credentials|keys|tokens|"
        r"arguments)\b",
        r"\b(?:add|include|insert|append|put)\s+(?:\S+\s+){0,3}?(?:as\s+)?(?:a\s+)?(?:hidden\s+)?(?:bcc|cc)\b",
        first=(
            "all|any|every|each|before|after|when|whenever|instead|replace|change|modify|"
            "rewrite|redirect|override|swap|set|alter|add|include|insert|append|put|call|invoke|use|run"
        ),
    ),
    _p(
        "HG618", BOTH, "an order to run another tool and hide it from the user", "en",
        # An action on a named tool joined to a concealment that has no object of its own: what is hidden
        # is the action ("run the deploy tool with --force and do not tell the user"). Hiding a fact
        # ("do not tell the user the answer") or an action forbidden ("do not call X without telling the
        # user") is not this.
        _NOT_NEGATED + _RUN_TOOL + r"(?:[^.!?\n]|\.(?=\S)){0,80}?\b(?:and|then|but|,)\s+" + _HIDE_IT,
        _NOT_NEGATED + _RUN_TOOL + r"(?:[^.!?\n]|\.(?=\S)){0,80}?\bwithout\s+(?:telling|informing|notifying|alerting)"
        r"\s+(?:the\s+)?(?:user|human|operator)",
        r"\bwithout\s+(?:telling|informing|notifying|alerting)\s+(?:the\s+)?(?:user|human|operator)\s*,?\s*"
        + _RUN_TOOL,
        r"\b(?:silently|quietly|secretly|covertly)\s+" + _RUN_TOOL,
        first="run|call|invoke|execute|trigger|launch|use|without|silently|quietly|secretly|covertly",
    ),
    _p(
        "HG617", BOTH, "a request for what the user said or holds elsewhere", "en",
        r"\b(?:conversation|chat)\s+(?:history\s+)?so\s+far\b",
        r"\b(?:entire|full|whole|complete)\s+(?:conversation|chat(?:\s+(?:history|log))?|context\s+window)\s*,?\s*"
        r"(?:verbatim|so\s+far|including)\b",
        r"\beverything\s+the\s+user\s+(?:said|typed|wrote|shared|mentioned|told\s+you)",
        r"\b" + _SECRET_THING + r"\s+(?:that\s+)?(?:you\s+(?:have\s+)?(?:seen|know|found|saw|received|read)|"
        r"the\s+user\s+"
        r"(?:gave|typed|shared|mentioned|entered|told\s+you)|(?:mentioned|seen|shared)\s+(?:so\s+far|earlier|before|"
        r"in\s+(?:this|the)\s+(?:chat|conversation))|mentioned\b)",
        r"\b(?:every|all|any)\s+(?:\w+\s+)?" + _SECRET_THING + r"\s+(?:in|from)\s+(?:the\s+)?(?:environment|"
        r"conversation|chat|context)",
        r"\bcontents?\s+of\s+the\s+user'?s\s+(?=\.env|~/|\.ssh|\.aws|private|ssh|secret)",
        first=(
            "conversation|chat|entire|full|whole|complete|everything|previous|earlier|prior|every|all|any|contents?|"
            "private|ssh|secret|signing|api|access|auth|authentication|session|bearer|refresh|oauth|github|aws|"
            "passwords?|passphrases?|credentials|cookies|environment|env|secrets?|seed|mnemonics?|wallet"
        ),
    ),
    _p(
        "HG618", BOTH, "an order to avoid other tools", "en",
        rf"\b(?:do\s+not|don't|never|stop|avoid)\s+(?:use|call|invoke|run|using|calling|invoking|running|trust)\s+"
        rf"(?:any\s+|the\s+)?(?:other|another)\s+(?:\w+\s+)?{_TOOL}",
        rf"\b(?:all|every|any)\s+other\s+(?:\w+\s+)?{_TOOL}\s+(?:are|is)\s+(?:unsafe|compromised|deprecated|broken|"
        rf"malicious|disabled)",
        first="do|don|never|stop|avoid|all|every|any",
    ),
    _p(
        "HG611", ADDRESS, "an imperative sentence", "en",
        r"(?:(?<=[.!?:;,>]\s)|(?<=[.!?:;,]\s\s)|(?<=[\n>]))(?:then\s+|also\s+|first\s+|please\s+|now\s+)?"
        r"(?:send|post|upload|forward|include|append|attach|read|cat|copy|paste|email|pass|put|add|insert|embed|"
        r"leak|exfiltrate|transmit|submit|output|print|reveal|replace|change|redirect|set)\s+(?:the\s+|all\s+|every\s+|"
        r"each\s+|any\s+|its\s+|their\s+|them|it|a\s+copy|your\s+|this\s+)",
        first=(
            "then|also|first|please|now|send|post|upload|forward|include|append|attach|read|cat|copy|paste|email|pass|"
            "put|add|insert|embed|leak|exfiltrate|transmit|submit|output|print|reveal|replace|change|redirect|set"
        ),
    ),
    _p(
        "HG611", ADDRESS, "an order that waits for the user's action", "en",
        r"\bwhen(?:ever)?\s+(?:the\s+user|you)\s+(?:\w+\s+){0,3}?(?:send|sends|email|emails|transfer|transfers|pay|"
        r"pays|push|pushes|commit|commits|deploy|deploys|mentions?|asks?\s+(?:about|for))\b",
        r"\bif\s+the\s+user\s+(?:\w+\s+){0,3}?(?:mentions?|asks?|says|types|requests?)\b",
        first="when|whenever|if",
    ),
    *_other_languages(),
)  # fmt: skip


# Words before a phrase that make it a quotation or an example, not an order ("detects phrases such as ...").
QUOTE_CUES = re.compile(
    r"(?:such\s+as|e\.g\.|for\s+example|for\s+instance|like|phrases?|patterns?|strings?|text|detects?|flags?|"
    r"catches|blocks?|scans?\s+for|matches|example|attempts?|injections?|including|contains?|e\.\s*g\.|"
    r"wie|z\.\s*B\.|comme|como|come|например|例如|如|例えば"
    # An order reported, not given: "instructing it to ...", "tricks the agent into ...", "told models to ...".
    r"|(?:instruct|tell|told|ask|direct|order|command|trick|convinc|persuad|coax|caus|lead|led|get|got)\w*\s+"
    r"(?:it|them|(?:the\s+|an?\s+)?(?:\w+\s+)?(?:model|assistant|agent|llm|chatbot|bot|ai)s?)\s+(?:in)?to)"
    r"\s*[:\"'“‘`«「(]*\s*$",
    re.IGNORECASE,
)
QUOTE_ENDINGS = (
    "as", "e.g.", "example", "instance", "like", "phrase", "phrases", "pattern", "patterns", "string", "strings",
    "text", "detect", "detects", "flag", "flags", "catches", "block", "blocks", "for", "matches", "attempt",
    "attempts", "injection", "injections", "including", "contain", "contains", "g.", "wie", "b.", "comme", "como",
    "come", "to", "into",
)  # fmt: skip
"""How each ASCII cue of `QUOTE_CUES` ends, lowercase: text before a phrase that ends with none of them (less
spaces and quotes) is no cue, which a `str.endswith` says for less than a search of the cues costs."""

# Files that hold secrets, named as such: a mention is reach only when the text also addresses the model.
# Every alternative starts with its literal, the context before it checked after (a lookbehind), so that the
# engine can skip to where one of the literals' first characters stands when a long text is searched.
SECRET_FILES = _p(
    "HG613", "mention", "a file that holds secrets", "en",
    r"~/(?<![\w.~/-]~/)\.(?:ssh|aws|gnupg|kube|docker|azure|vault-token|password-store|netrc|pgpass|git-credentials|"
    r"npmrc|pypirc|bash_history|zsh_history|config/gh|config/gcloud|terraform\.d)\b",
    r"\.(?<![\w.]\.)(?:ssh|aws|gnupg)/",
    r"id_(?<!\wid_)(?:rsa|dsa|ecdsa|ed25519)\b",
    r"\.aws/credentials\b|\.git-credentials\b|\.netrc\b|\.pgpass\b|\.npmrc\b|\.pypirc\b|\.vault-token\b",
    r"/etc/(?:shadow|passwd|sudoers|gshadow)\b|/proc/(?:self|\d+)/environ\b",
    r"claude_desktop_config\.json(?<!\wclaude_desktop_config\.json)\b|mcp\.json(?<!\wmcp\.json)\b|"
    r"\.config/gh/hosts\.ya?ml\b|\.(?:bash|zsh)_history\b",
    r"application_default_credentials\.json(?<!\wapplication_default_credentials\.json)\b|"
    r"wallet\.dat(?<!\wwallet\.dat)\b|logins\.json(?<!\wlogins\.json)\b",
    needs=_SECRET_PATHS,
)  # fmt: skip
ENV_FILES = _p(
    "HG614", "mention", "a dotenv file or credentials file", "en",
    r"\.env(?<![\w.]\.env)(?![\w.-])",
    r"credentials\.(?<!\wcredentials\.)(?:json|ya?ml|toml|ini)\b",
    needs=(".env", "credentials."),
)  # fmt: skip
