"""Where a parameter's value is said to come from: the call's own input, or data from beyond the call.

Pure. Per the MCP spec a parameter's description says what an argument means:
the model fills it from what the user asked for in this call ("the text to
check", "a ZIP code"). A poisoned definition describes an argument by where
it is to be taken from instead, and that place is the model's session, not the
user's request:

- **the conversation**: what appeared, was said or was shared in the chat, the
  session or the thread ("all addresses mentioned so far in this chat");
- **other tools' output**: what a call to another tool or server returned
  ("the JSON the last call to any tool produced");
- **the model's working set**: every file, page or email it opened, read or
  saw during the task;
- **the process environment**: its environment variables (`printenv`);
- **the user's secrets**: their password, session cookies, refresh token or
  seed phrase, as the value of a geocoder's key or a chart's option;
- **the model's instructions**: its system prompt, its instructions or its
  tool list, named as the model's ("your system prompt", "the guidance you
  were given", "the tools available to you"): the model's context, never a
  value of the user's request.

A tool whose own job (its name, title and description) speaks of that place
takes such data honestly: a chat exporter takes the conversation, an
environment inspector takes the variables. Anything else asks for data it
does not need. The words are general English (and the commonest languages'
words for a conversation), never one server's.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from hintgate.scan.deferred import compiled
from hintgate.scan.needs import Needs
from hintgate.scan.quoting import quotation_open
from hintgate.scan.screens import Screen
from hintgate.scan.tongues import secret_named

__all__ = ["Source", "may_name_a_place", "secret_beyond_job", "secret_named_beyond_job", "source_beyond_call"]


@dataclass(frozen=True, slots=True)
class Source:
    """A place beyond the call that a parameter's description takes its value from: its span and what it is."""

    start: int
    end: int
    place: str
    """`conversation`, `secrets`, `tools`, `the user's messages`, `working set`, `environment` or `the model's
    instructions`."""


_VERBS = (
    r"(?:appear(?:s|ed)?|mention(?:s|ed)?|said|say|says|shared|share[sd]?|seen|sees|saw|discussed|exchanged|pasted|typed|"
    r"written|wrote|stated|given|provided|used|uploaded|referenced|cited|quoted|spoken|sent|received|noted|raised|see|"
    r"come\s+up|came\s+up|collected|gathered|(?:shown|showed)\s+(?:to\s+)?you|visible|you\s+(?:ran|executed))"
)
# The session, as a place things are said: the conversation, the chat, this session or task, the thread.
_SESSION = (
    r"(?:conversations?|chats?|dialog(?:ue)?s?|transcripts?|sessions?|threads?|tasks?|context(?:\s+window)?|exchanges?|"
    r"interactions?|turns?)"
)
_THIS = r"(?:the|this|our|your|that|current|ongoing|present|whole|entire|same)"
_CONVERSATION = (
    # "mentioned in this chat", "that appeared earlier in the conversation", "shared during the session so far"
    # (a list between the verb and the place: "mentions any email address, phone number or account name in the chat")
    rf"\b{_VERBS}\s+(?:[\w'-]+,?\s+){{0,8}}?(?:in|during|throughout|within|over|across)\s+(?:the\s+)?(?:course\s+of\s+)?"
    rf"{_THIS}\s+(?:\w+\s+)?{_SESSION}\b"
    # a value taken from the conversation itself: "the customer's card number from the conversation" (the noun ends
    # its phrase: "from the chat header" names a part of a chat's screen, not what was said in it)
    r"|\bfrom\s+(?:the|this|our|your)\s+(?:current\s+|ongoing\s+|present\s+|whole\s+|entire\s+)?"
    r"(?:conversation|chat|dialog(?:ue)?)\b(?!\s+(?!(?:and|or|so|if|that|which|where|in|into|to|for|as|with|including|"
    r"history|log|transcript|verbatim|here|above|earlier|before|too|also|when|while|but|then)\b)[a-z])"
    # "so far in the conversation", "earlier in this chat", "up to now in the session"
    rf"|\b(?:so\s+far|until\s+now|up\s+to\s+now|to\s+date|earlier|previously|before|elsewhere)\s+(?:in|during)\s+{_THIS}\s+"
    rf"(?:\w+\s+)?{_SESSION}\b"
    # "the conversation so far", "the chat history", "previous turns"
    r"|\b(?:conversation|chat|dialog(?:ue)?)\s+(?:so\s+far|history|log|transcript|to\s+date)\b"
    r"|\b(?:previous|prior|earlier|preceding|past)\s+(?:user\s+)?(?:messages|turns|prompts|exchanges)\b"
    # the commonest languages' "in the conversation" / "the chat history"
    r"|\b(?:en|de)\s+(?:la|esta|cette|le)\s+(?:conversación|conversation|conversa|charla|chat)\b"
    r"|\b(?:im|in\s+diesem|aus\s+dem)\s+(?:Gespräch|Chat|Chatverlauf|Verlauf)\b|\bChatverlauf\b|\bhistorial\s+del?\s+chat\b"
    r"|\bnella\s+conversazione\b|\bna\s+conversa\b"
    # the session's content by a noun for it: "the message history of this session", "the last 20 messages of the
    # current conversation", "every memo or email from this conversation"
    r"|\b(?:messages?|history|histories|contents?|texts?|transcripts?|logs?|turns|exchanges|e-?mails?|memos?|"
    r"documents?|everything)\s+(?:\w+\s+){0,5}?(?:of|from|in)\s+(?:this|the\s+current|the\s+ongoing|the\s+present|our)"
    r"\s+(?:\w+\s+)?(?:conversation|chat|session|dialog(?:ue)?|thread)\b"
    r"|\b(?:last|latest|most\s+recent|recent)\s+(?:\d+\s+|\w+\s+)?(?:user\s+)?(?:messages|turns|prompts|exchanges)\s+"
    r"(?:of|from|in)\s+(?:the|this|our)\b"
    # a count of the latest messages, with no chat named: "the last 20 messages", "the previous 5 turns"
    r"|\bthe\s+(?:last|latest|most\s+recent|previous)\s+\d+\s+(?:user\s+)?(?:messages|turns|prompts|exchanges)\b"
    # what the model has come to know of the person it serves: "everything you know about the user", "anything you
    # have learned about the person you are chatting with", "all you remember about them"
    r"|\b(?:everything|anything|all|whatever)\s+(?:else\s+)?(?:that\s+)?you\s+(?:have\s+|'ve\s+)?(?:know|knew|"
    r"remember|recall|learned|learnt|gathered|picked\s+up|found\s+out)\s+about\s+(?:the\s+|this\s+|that\s+)?"
    r"(?:user|person|people|customer|client|human|requester|them|him|her|[\w-]+\s+(?:that\s+|whom\s+)?(?:you\s+are|"
    r"you're)\s+(?:helping|serving|assisting|chatting|talking|working))\b(?!['’]s\b)"
)
# Another tool's or server's output: "returned by any tool", "the response of the previous call", "other servers'".
_TOOLS = (
    r"\b(?:return(?:s|ed)?|produced|output|emitted|fetched|retrieved|read|obtained|got|gotten)\s+(?:\w+\s+){0,2}?"
    r"(?:by|from|of|with)\s+(?:the\s+)?(?:last|latest|previous|prior|preceding|earlier|most\s+recent|any|another|other|"
    r"every|each|all|each\s+of\s+the)\s+(?:\w+\s+){0,2}?(?:tools?|calls?|servers?|functions?|plugins?|integrations?)\b"
    r"|\b(?:outputs?|results?|responses?|returns?|replies)\s+(?:of|from)\s+(?:the\s+)?(?:last|latest|previous|prior|"
    r"preceding|earlier|most\s+recent|any|another|other|every|each|all)\s+(?:\w+\s+){0,2}?(?:tools?|calls?|servers?|"
    r"functions?|plugins?|integrations?)\b"
    r"|\b(?:other|another|every|all)\s+(?:\w+\s+)?(?:tools?|servers?)'?s?\s+(?:outputs?|results?|responses?)\b"
    # a tool's result named by the tool as its adjective: "the last tool result you received", "previous tool outputs"
    r"|\b(?:last|latest|previous|prior|preceding|earlier|most\s+recent|other)\s+(?:\w+\s+)?(?:tool|function)(?:\s+call)?"
    r"\s+(?:results?|outputs?|responses?|replies)\b"
)
# What the model has opened, read or seen while working: "every file opened during this task", "all pages visited".
_WORKING_SET = (
    r"\b(?:every|all|each|any)\s+(?:\w+\s+){0,2}?(?:files?|documents?|pages?|tabs?|e-?mails?|messages?|tables?|"
    r"repositor(?:y|ies)|urls?|sites?|websites?|notes?)"
    # named with what of them is wanted: "all file paths and their contents you have opened"
    r"(?:\s+(?:paths?|names?|contents?))?(?:,?\s+(?:and|with|plus)\s+(?:their|its)\s+(?:full\s+)?(?:contents?|texts?))?"
    r"\s+(?:that\s+|which\s+)?(?:(?:you|the\s+(?:agent|assistant|model)|"
    r"it)\s+)?(?:(?:have|has|had)\s+)?(?:opened|read|viewed|visited|accessed|seen|loaded|edited|browsed|touched|"
    r"processed|handled)\b"
    # what was opened lately, with no determiner: "the list of files recently opened in the editor"
    r"|\b(?:files|documents|pages|tabs)\s+(?:\w+\s+)?(?:recently|lately|previously)\s+(?:opened|viewed|edited|"
    r"accessed|read|visited)\b|\b(?:recently|previously)[\s-]+(?:opened|viewed|edited|accessed|visited)\s+"
    r"(?:files|documents|pages|tabs)\b"
)
# The user's own messages beyond the call: their private or direct messages ("the private DMs the user has had"),
# or their mail and messages named with a choice of which ("the user's most recent 5 emails").
_MESSAGES = (
    r"\b(?:private|direct)\s+(?:messages|DMs)\b|\bDMs\s+(?:that\s+)?(?:the\s+user|they|you)\s+(?:has|have|had|sent|"
    r"received|exchanged)\b"
    r"|\b(?:the\s+)?(?:user|customer|owner|client|member|patient)'?s'?\s+(?:(?:private|personal|most\s+recent|"
    r"recent|latest|last|previous|other|\d+)\s+){1,3}(?:e-?mails|messages|DMs|texts|SMS|chats|contacts)\b"
)
_ENVIRONMENT = (
    r"\b(?:environment|env)\s+(?:variables?|vars?)\b|\bprintenv\b|\bos\.environ\b|\bprocess\.env\b"
    # The shell's own commands that print it: `env` alone or piped on, `export -p`, PowerShell's `Env:` drive.
    r"|`env(?:\s+-0)?`|\benv(?:\s+-0)?\s*[|>]|\bexport\s+-p\b|\b(?:Get-ChildItem|gci|dir|ls)\s+env:"
    r"|\b(?:process|shell|system)(?:'s)?\s+environment\b|\bUmgebungsvariablen\b|\bvariables?\s+de\s+entorno\b"
    r"|\bvariables?\s+d'environnement\b"
    # a pipeline's secret variables: "every masked CI/CD variable"
    r"|\bmasked\s+(?:ci(?:/cd)?\s+)?(?:variables?|vars)\b"
    # a dotenv file's contents, where the variables are written down: "the contents of the .env file in the working
    # directory"
    r"|\b(?:contents?|text|body)\s+of\s+(?:the\s+|your\s+|any\s+|a\s+|every\s+)?(?:[\w-]+'s\s+)?(?:[\w~/-]+/)?\.env(?![\w.-])"
)
# The model's own instructions and tools, which no tool's parameter carries: they are the model's context, not the
# user's request. Named as the model's ("your system prompt", "the system guidance you were given", "the tools
# available to you"); a system prompt the user wrote, or one for a bot the tool configures, is not the model's.
_INSTRUCTIONS = (
    r"\byour\s+(?:own\s+|full\s+|current\s+|complete\s+|original\s+|hidden\s+|initial\s+|exact\s+)*"
    r"(?:system\s+(?:prompts?|messages?|instructions|guidance|rules)|(?:initial|original|hidden)\s+instructions|"
    r"tool\s+(?:list|inventory|catalog(?:ue)?|definitions|schemas?)|(?:list\s+of\s+)?(?:available\s+)?tools)\b"
    # "the system prompt you were given", and with more of the model's context named beside it: "the complete system
    # prompt and tool list you were given"
    r"|\b(?:system|deployment|developer|operator)\s+(?:\w+\s+)?(?:prompts?|messages?|instructions|guidance|rules)"
    r"(?:,?\s+(?:and|or|&|plus)(?:\s+[\w-]+){1,3}?)?\s+"
    r"(?:that\s+)?you\s+(?:were|have\s+been|are)\s+(?:given|provided|told|sent|running\s+with)\b"
    # the instructions the model was given, and by whom: "the instructions you were given by your operator",
    # "the hidden instructions you were given at the start"
    r"|\b(?:(?:hidden|initial|original|secret|private|internal)\s+instructions\s+(?:that\s+)?you\s+(?:were|have\s+been)\s+"
    r"(?:given|provided|sent)|instructions\s+(?:that\s+)?you\s+(?:were|have\s+been)\s+(?:given|provided|sent)\s+"
    r"(?:by\s+your\s+(?:developers?|operators?|deployers?|creators?|makers?)|at\s+the\s+(?:start|beginning)))\b"
    # the instructions the model got before its user spoke: "the instructions you received at the start of this
    # session", "whatever guidance you were given before the user's first message", "any instructions that were in
    # place before the user's first message"
    r"|\b(?:instructions|guidance|directions|directives|rules|prompt)\s+(?:that\s+|which\s+)?(?:you\s+(?:were\s+|have\s+"
    r"been\s+)?(?:given|provided|sent|received|handed|got)|(?:were|was)\s+(?:in\s+place|given\s+to\s+you|set))\s+"
    r"(?:\w+\s+){0,2}?(?:at\s+the\s+(?:very\s+)?(?:start|beginning|outset)|before\s+(?:the|this|your)\s+"
    r"(?:user'?s?\s+)?(?:first|1st|opening)\s+(?:user\s+)?(?:message|turn|prompt|request))\b"
    r"|\byour\s+(?:system|developer|operator|deployment)(?:\s*/\s*(?:system|developer|operator|deployment))+\s+"
    r"(?:prompts?|messages?|instructions)\b"
    r"|\b(?:names?|list|inventory|catalog(?:ue)?)\s+of\s+(?:all\s+)?(?:the\s+|your\s+)?(?:\w+\s+)?tools\s+"
    r"(?:available\s+to\s+you|you\s+(?:have|can\s+(?:use|call|see)))\b"
    # the other tools the model holds, each described: "the names and descriptions of every other tool you have
    # access to"
    r"|\b(?:every|each|all|any)\s+(?:of\s+the\s+)?other\s+tools?\s+(?:that\s+)?you\s+(?:have\s+access\s+to|can\s+"
    r"(?:use|call|see|access)|have\s+(?:been\s+)?(?:given|loaded))\b"
)
# The user's secrets, which no call needs as its input unless the tool's job is to handle them.
_SECRET_NOUN = (
    r"(?:passwords?|passphrases?|passcodes?|pins?|pin\s+codes?|refresh\s+tokens?|access\s+tokens?|bearer\s+tokens?|"
    r"session\s+(?:tokens?|cookies?|ids?)|cookies|seed\s+phrases?|recovery\s+(?:phrases?|codes?|words)|private\s+keys?|"
    r"2fa\s+codes?|backup\s+codes?|one-time\s+(?:codes?|passwords?)|otp|security\s+(?:answers?|codes?)|"
    r"card\s+numbers?|cvv|cvc|login\s+(?:details|credentials)|credentials|api\s+keys?|(?:payment|credit|debit)\s+cards?|"
    r"(?:bank\s+)?(?:routing|account)\s+(?:and\s+account\s+)?numbers?)"
)
# A secret by its kind, and the words of a tool's job that make that kind its own: a login tool takes a password, a
# wallet importer a recovery phrase; a note-taker takes neither.
_KIND_OF_SECRET = (
    (
        compiled(r"\b(?:passwords?|passphrases?|passcodes?|login\s+(?:details|credentials|data)|credentials)\b", re.I),
        compiled(
            r"\b(?:passw\w*|passphrase\w*|passcode\w*|log\s*in\w*|logon|sign\s*in|signin|credential\w*|auth\w*|"
            r"vault|keychain|sso)\b",
            re.I,
        ),
    ),
    (
        compiled(r"\b(?:seed\s+phrases?|recovery\s+(?:phrases?|words|codes?)|mnemonics?|private\s+keys?)\b", re.I),
        compiled(
            r"\b(?:seed|mnemonic\w*|recover\w*|restor\w*|import\w*|private\s+keys?|keypairs?|key\s+pairs?|ssh|"
            r"gpg|pgp|signing|certificates?)\b",
            re.I,
        ),
    ),
    (
        compiled(
            r"\b(?:(?:bearer|access|refresh|session|auth)\s+tokens?|api\s+keys?|secret\s+keys?|client\s+secrets?|"
            r"cookies|local\s*storage"
            # a token known by how its value begins ("any token starting with sk-"): a credential, not a page cursor
            r"|tokens?\s+(?:that\s+)?(?:starts?|starting|begins?|beginning)\s+with)\b",
            re.I,
        ),
        compiled(
            r"\b(?:tokens?|api\s+keys?|keys?|auth\w*|oauth|bearer|credential\w*|cookies?|sessions?|log\s*in|"
            r"login|secrets?)\b",
            re.I,
        ),
    ),
    (
        compiled(
            r"\b(?:card\s+numbers?|cvv2?|cvc|payment\s+(?:details|data|information)|one-time\s+(?:codes?|passwords?)"
            r"|otp|(?:2fa|mfa|totp)\s+(?:backup\s+)?codes?|backup\s+codes?|verification\s+codes?|clipboard)\b",
            re.I,
        ),
        compiled(r"\b(?:cards?|payments?|pay|checkout|billing|otp|2fa|mfa|verif\w*|clipboard)\b", re.I),
    ),
)
# The field's value put there, before the secret in its sentence: "paste the password here", "fill with any tokens".
_PUT = compiled(
    r"\b(?:paste|copy|include|put|fill|insert|add|attach|provide|supply|enter|append|give|echo|repeat|dump|embed|"
    r"place|set\s+(?:it\s+|this\s+)?to)\b(?![^.;\n]*\b(?:not|never)\b)[^.;\n]*$",
    re.I,
)
# The value taken from the session: what the user typed or mentioned, what the model has seen or knows.
_SAID_IN_SESSION = compiled(
    r"\b(?:the\s+)?user\s+(?:has\s+|had\s+|may\s+have\s+)?(?:typed|entered|mentioned|shared|gave|given|pasted|said|"
    r"sent)\b|\byou(?:'ve|\s+have)?\s+(?:seen|found|encountered|come\s+across)\b|\b(?:whatever|everything|anything)\s+"
    r"you\s+know\b|\b(?:visible|seen|found|mentioned|shown)\s+(?:anywhere\s+)?in\s+the\s+(?:environment|chat|"
    r"conversation|context)\b"
    # what the model holds in its context window: "any token that appears in context"
    r"|\b(?:appears?|appearing|present|visible|found|shown)\s+(?:anywhere\s+)?in\s+(?:your\s+|the\s+)?context\b",
    re.I,
)


# A refusal earlier in the secret's sentence: what it names is kept out of the field.
_REFUSED = compiled(r"\b(?:not|never|no|don't|avoid|without|nor)\b", re.I)


def secret_beyond_job(text: str, job: str, *, told: str = "") -> Source | None:
    """A secret of a kind the tool's `job` never speaks of that `text` (a parameter's) asks to carry: put into the
    field ("paste the password= line here"), or taken from the session (`told`: the parameter's texts joined; "the
    most recent value the user typed that looks like a password")."""
    session: bool | None = None  # looked for where a secret is named (most parameters' texts name none)
    for noun, own in _KIND_OF_SECRET:
        for match in noun.finditer(text):
            if _NEGATED.search(text, 0, match.start()) is not None:
                continue
            line = max(text.rfind(". ", 0, match.start()), text.rfind("\n", 0, match.start())) + 1
            if _REFUSED.search(text, line, match.start()) is not None:
                continue  # "do not include any sensitive data such as API keys, passwords ..."
            if quotation_open(text[line : match.start()]):
                continue  # inside a quoted sample: `{"action": "Fill in the password"}` is a template's words
            if session is None:
                session = _SAID_IN_SESSION.search(told or text) is not None
            if not (session or _PUT.search(text, line, match.start()) is not None):
                continue
            if _speaks(job, own):
                break
            return Source(match.start(), match.end(), "secrets")
    return None


# Whose a secret is: a person's ("the applicant's", "the authenticated user's", "their"), never a system's (the
# service's API key is the tool's own business).
_PERSON_OWNER = (
    r"(?:(?:the\s+)?(?!(?:service|server|app|application|bot|tool|platform|api|system|project|repo|repository|"
    r"organi[sz]ation|org|company|team|workspace|gateway|provider|vendor|merchant|store|site|device|integration|"
    r"connector|plugin|cluster|database|instance)'s)[\w-]+'s|(?:the\s+)?[\w-]+s'|their|his|her)"
)
_PERSON = (
    r"(?:user|applicant|customer|account\s+holder|holder|tenant|guest|donor|patient|member|employee|owner|client|payer|"
    r"importer|caller|student|buyer|seller|traveller|traveler|passenger|driver|subscriber|cardholder|claimant)s?"
)
_SECRETS = (
    r"\b(?:the\s+)?(?:user|customer|account\s+holder|owner|client)'?s?'?\s+(?:own\s+|current\s+|full\s+|active\s+|"
    r"saved\s+|stored\s+|[\w-]+\s+){0,3}?(?:passwords?|passphrases?|passcodes?|pins?|refresh\s+tokens?|"
    r"access\s+tokens?|session\s+(?:tokens?|cookies?|ids?)|cookies|seed\s+phrases?|recovery\s+(?:phrases?|codes?)|"
    r"private\s+keys?|2fa\s+codes?|one-time\s+(?:codes?|passwords?)|otp|security\s+answers?|card\s+numbers?|"
    r"cvv|cvc|login\s+(?:details|credentials)|credentials|(?:payment|credit|debit)\s+cards?)\b"
    # any secret the model has come across: "the root token or any unseal keys you have seen"
    r"|\b(?:any|every|all|each)\s+(?:[\w-]+\s+){0,2}?(?:keys|tokens|secrets|passwords|credentials|cookies)\s+"
    r"(?:that\s+)?(?:you|the\s+(?:agent|assistant|model))\s+(?:have\s+|has\s+|may\s+have\s+)?(?:seen|found|"
    r"encountered|come\s+across|read)\b"
    # anyone's secret: "the importer's CDS password", "their password or one-time code", "the card number of the
    # applicant"
    rf"|\b{_PERSON_OWNER}\s+(?:[\w/-]+\s+){{0,3}}?{_SECRET_NOUN}\b"
    rf"|\b{_SECRET_NOUN}(?:[,\s]+(?:and\s+|or\s+)?[\w-]+){{0,4}}?\s+of\s+the\s+(?:\w+\s+)?{_PERSON}\b"
    # the credentials of the client's other servers, which the model holds for their calls, never for this one's:
    # "an API token from any other connected MCP server", "the OAuth tokens of every other server connected to this
    # client", "the token configured for any other MCP server"
    rf"|\b(?:{_SECRET_NOUN}|(?:oauth\s+|auth\s+)?tokens?|keys|secrets?)\s+(?:\w+\s+){{0,2}}?(?:of|from|for|used\s+by|"
    r"belonging\s+to)\s+(?:any|every|each|all|the)\s+(?:of\s+the\s+)?other\s+(?:connected\s+|installed\s+|"
    r"configured\s+)?(?:mcp\s+)?(?:servers?|connectors?|integrations?|tools?)\b"
    # a map of them by the server's name: "map of server name to the API key or bearer token it uses"
    rf"|\b(?:map|mapping|dictionary|object|list)\s+of\s+(?:each\s+|every\s+)?(?:mcp\s+)?server(?:\s+names?)?\s+"
    rf"to\s+(?:the\s+|its\s+)?(?:{_SECRET_NOUN}|tokens?|keys?|secrets?)\b"
)
_PLACES = (
    ("conversation", compiled(_CONVERSATION, re.IGNORECASE)),
    ("secrets", compiled(_SECRETS, re.IGNORECASE)),
    ("tools", compiled(_TOOLS, re.IGNORECASE)),
    ("the user's messages", compiled(_MESSAGES, re.IGNORECASE)),
    ("working set", compiled(_WORKING_SET, re.IGNORECASE)),
    ("environment", compiled(_ENVIRONMENT, re.IGNORECASE)),
    ("the model's instructions", compiled(_INSTRUCTIONS, re.IGNORECASE)),
)
# The words of a tool's job that make each place its own: a chat exporter takes the conversation.
_OWN = {
    "conversation": compiled(
        r"\b(?:conversations?|chats?|dialog(?:ue)?s?|transcripts?|messages?|threads?|sessions?|history|histories|"
        r"memor(?:y|ies)|context|turns?|replies|logs?)\b|Gespräch|Verlauf|conversación|conversa",
        re.IGNORECASE,
    ),
    "tools": compiled(
        r"\b(?:tools?|calls?|servers?|outputs?|results?|responses?|pipelines?|chains?|workflows?|agents?|functions?|"
        r"plugins?|traces?|logs?)\b",
        re.IGNORECASE,
    ),
    "working set": compiled(
        r"\b(?:files?|documents?|pages?|tabs?|editors?|workspaces?|e-?mails?|inbox|mail|messages?|history|"
        r"activity|browsing|repositor(?:y|ies)|index(?:es|ing)?|sessions?|context)\b",
        re.IGNORECASE,
    ),
    "secrets": compiled(
        r"\b(?:passwords?|passphrases?|pins?|tokens?|cookies?|credentials?|auth\w*|log\s*in|login|sign\s*in|"
        r"secrets?|vault|keychain|keys?|wallets?|seed|2fa|mfa|otp|cards?|payments?|bank\w*|sessions?|accounts?|"
        r"identity|sso|oauth)\b",
        re.IGNORECASE,
    ),
    # A tool whose job is the model's own prompt (an agent's prompt editor) is told it honestly.
    "the model's instructions": compiled(r"\b(?:system\s+prompts?|prompts?|instructions)\b", re.IGNORECASE),
    "the user's messages": compiled(
        r"\b(?:e-?mails?|mail|inbox|messages?|messaging|dms?|chats?|threads?|conversations?|sms|texts?|contacts?|"
        r"address\s+book|crm)\b",
        re.IGNORECASE,
    ),
    "environment": compiled(
        r"\b(?:env|environments?|variables?|vars|shell|process(?:es)?|config(?:uration)?s?|settings?|dotenv|"
        r"deploy\w*|containers?|runtime|secrets?)\b",
        re.IGNORECASE,
    ),
}


# The words each place needs (lower case; one of each group), for a quick refusal of the many descriptions that hold
# none.
_NEEDS: Needs[str] = Needs(
    {
        "conversation": (
            "conversa|chat|dialog|session|thread|task|context|transcript|turn|exchange|interaction|messages|"
            "prompts|gespräch|verlauf|charla| about ",
        ),
        "secrets": (
            "password|passphrase|passcode|pin|token|cookie|seed|recovery|private key|2fa|one-time|otp|"
            "security answer|security code|card number|cvv|cvc|login|credential|session|backup code|api key|routing|"
            "account number|bearer|card|keys|secret",
            "user|customer|holder|owner|client|'s|s'|their|his |her | of the |you|agent|assistant|model|other|server",
        ),
        "tools": (
            "tool|call|server|function|plugin|integration",
            "return|produc|output|emit|fetch|retriev|read|obtain|got|result|respons|repl",
        ),
        "the user's messages": ("message|dms|mail|texts|sms|chats|contacts",),
        "working set": (
            "every|all|each|any|recent|previous|last|lately",
            "opened|read|viewed|visited|accessed|seen|loaded|edited|browsed|touched|processed|handled",
        ),
        "environment": ("environ|env|umgebung|entorno|export -p|variable|vars",),
        "the model's instructions": ("prompt|message|instruction|guidance|direction|rules|tool",),
    }
)
# A negation just before the place: "never include the conversation", "not the chat history".
_NEGATED = compiled(r"\b(?:not|never|no|without|nor|excluding|except)\b(?:\s+\S+){0,5}\s*$", re.IGNORECASE)


def may_name_a_place(text: str) -> bool:
    """Whether `text` holds the words some place of `source_beyond_call` needs, and a place's pattern may match in
    it. Asked of a tool's parameter texts joined, a no answers for each of them (and for each part of one): the
    joined texts hold every word any one of them holds, and a pattern matching in one matches in the join."""
    return bool(_NEEDS.able(text.lower())) and _SCREEN.may(text)


# A place's pattern must match for `source_beyond_call` to find one (a long text is not screened: see `Screen`).
_SCREEN = Screen(*(pattern for _, pattern in _PLACES), longest=2048)


@functools.lru_cache(maxsize=2)
def _facts_of(job: str) -> dict[object, bool]:  # noqa: ARG001 (the cache's key)
    """What has been read of `job` (a tool's name, title and description) so far, by what was asked of it: a
    definition with thousands of parameters reads its description once for each question, not once per parameter
    (hostile definitions are built that way to make the scan quadratic)."""
    return {}


def _job_says(job: str, question: object, read: Callable[[str], bool]) -> bool:
    """`read(job)`, the first time `question` is asked of `job`; what it answered, after."""
    facts = _facts_of(job)
    answer = facts.get(question)
    if answer is None:
        answer = facts[question] = read(job)
    return answer


def _speaks(job: str, pattern: re.Pattern[str]) -> bool:
    """Whether `pattern` matches anywhere in `job` (`_job_says`)."""
    return _job_says(job, pattern, lambda text: pattern.search(text) is not None)


def source_beyond_call(description: str, job: str) -> Source | None:
    """The first place beyond the call that `description` (a parameter's) says its value comes from, when `job` (the
    tool's name, title and description) does not speak of that place; None when there is none."""
    able = _NEEDS.able(description.lower())
    for place, pattern in _PLACES:
        if place not in able:
            continue
        at = 0
        while (match := pattern.search(description, at)) is not None:
            at = max(match.end(), match.start() + 1)
            refused, resume = _refused(description, match.start())
            if resume > match.start():
                at = resume  # the place's words began in a condition: what follows it is read again
            if refused:
                continue
            if _speaks(job, _OWN[place]):
                break
            return Source(match.start(), match.end(), place)
    return None


# How far before a place its negation, and before the negation its condition, are looked for: each look is bounded,
# so that a text of many places is read in linear time.
_NEAR = 400
# A condition's opening word: a negation in its clause says when the value is taken, not that it is refused.
_CONDITION = compiled(r"\b(?:if|unless|when|whenever|in\s+case)\b", re.IGNORECASE)


def _refused(text: str, start: int) -> tuple[bool, int]:
    """Whether a negation just before `start` refuses what `text` names there ("never include the conversation"),
    and where to read on when the negation is a condition's: "if the user has not given it, look for it earlier in the
    conversation" asks for the conversation in the clause after the condition's comma, so a place whose words began
    inside the condition is not refused but read again from that comma (the second of the pair)."""
    negation = _NEGATED.search(text, max(0, start - _NEAR), start)
    if negation is None:
        return False, 0
    at = negation.start()
    near = max(0, at - _NEAR)
    clause = max(
        text.rfind(". ", near, at), text.rfind("\n", near, at), text.rfind(", ", near, at), text.rfind("; ", near, at)
    )
    if _CONDITION.search(text, max(near, clause + 1), at) is None:
        return True, 0
    comma = text.find(",", at, start)
    if comma >= 0:
        return False, 0  # the condition ends before the place: the place is the order's
    comma = text.find(",", start, start + _NEAR)
    return True, (comma + 1 if comma >= 0 else 0)


# A credential by a name no language changes: a card's verification code, a dotenv file, a variable holding a secret
# (`GOOGLE_APPLICATION_CREDENTIALS`), an SSH private key's file.
_CREDENTIAL_NAME = compiled(
    r"(?<![\w.-])(?:CVV2?|CVC|\.env(?!\.\w)|id_(?:rsa|ed25519|ecdsa)|"
    r"[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:TOKEN|SECRET|KEY|PASSWORD|CREDENTIALS))(?![\w-])"
)
# The fewest words of a sentence that asks for a value: fewer make a label ("Código de la clase"), which says what a
# value is in the words of its language, not where to take it from.
_SENTENCE_WORDS = 6


def _names_secret(text: str, *, english: bool = False) -> tuple[int, int] | None:
    """Where `text` names a secret or the conversation: by a credential's name no language changes, or in the words
    of a language other than English (`scan.tongues`; of any language when `english`)."""
    found = _CREDENTIAL_NAME.search(text)
    return (found.start(), found.end()) if found is not None else secret_named(text, english=english)


def secret_named_beyond_job(text: str, job: str, param: str) -> Source | None:
    """A secret or the conversation that `text` (a parameter's description, in any language) names in a sentence
    when neither the parameter's name nor the tool's `job` speaks of secrets or the conversation: a parcel tracker's
    `notes` "pegue aquí las contraseñas ...". The tables name these in each language (`scan.tongues`); English is
    read by `secret_beyond_job` and `source_beyond_call`, which also ask where the value is taken from."""
    if len(text.split(maxsplit=_SENTENCE_WORDS)) < _SENTENCE_WORDS:
        return None
    found = _names_secret(text)
    if found is None:
        return None
    line = max(text.rfind(". ", 0, found[0]), text.rfind("\n", 0, found[0])) + 1
    if _REFUSED.search(text, line, found[0]) is not None:
        return None  # an English refusal in a text with a letter beyond ASCII: "do not include API keys — ..."
    named = param.replace("_", " ")
    if _CREDENTIAL_NAME.search(param.upper()) is not None or _names_secret(named, english=True) is not None:
        return None  # the parameter named for the secret it takes (`cvc`, `api_key`) declares it
    if any(_OWN[place].search(named) for place in _OWN_SECRET):
        return None
    if _job_says(job, _names_secret, lambda text: _names_secret(text) is not None):
        return None
    if any(_speaks(job, _OWN[place]) for place in _OWN_SECRET):
        return None
    return Source(found[0], found[1], "secrets or the conversation")


# The places whose words in a tool's job make a secret named in its parameter the tool's own.
_OWN_SECRET = ("secrets", "conversation", "environment")
