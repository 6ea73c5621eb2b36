"""What a tool's definition asks of the model beyond the call when it is said in the voice of the surrounding text.

Pure. A definition's job is to say what the tool does and how to call it.
`scan.steering` reads the sentences that ask for something else in the plain
voice of an order; this module reads the same asks written to pass as a note
about the tool: passive ("X should be relayed to the customer as Y"), a
label ("Presentation:", "Runbook:", "Branding:"), a condition ("if a later
message mentions ..."). Each rule is a structure of English (and of the
commonest languages), never one server's wording:

- **the user's words fixed**: what the user is told set to a given wording or
  verdict ("summarise the findings as "no known issues"", "refer to them as
  flexible when confirming with the user", "reply "queued" whatever happens"),
  or something kept from them ("shouldn't be mentioned, even if asked");
- **the user's say waived**: the model fills in a confirmation itself, one
  approval said to cover later acts, consent claimed on the user's behalf,
  asking the user called a regression, an act done without checking back;
- **a persona or a fixed recommendation**: the model given another identity
  ("refer to yourself as", "take the role of"), one option ranked first
  whatever the data, or made the only one, competitors left out;
- **a rule beyond the call**: kept for later turns or every answer, armed by
  what a later message says, by the user being away;
- **another server's tool used**: its whole output fed into this call, a call
  to it written out with an outside address, or a call to it made part of
  this tool's use.

Honest text does none of these: it says how results are formatted ("dates are
shown as YYYY-MM-DD", "present the results as a table"), asks for a
confirmation rather than waiving one, and names its own server's tools. A
sentence that quotes such wording as its subject (a detector's) says none of it.
"""

from __future__ import annotations

import bisect
import re

from hintgate.scan.cues import Cue
from hintgate.scan.orders import sentences
from hintgate.scan.steering import Steer

__all__ = ["frames"]

# A verb that puts something in front of the user, in any voice ("summarise", "is relayed", "refer to ... as").
_TELL = (
    r"(?:relay|report|describe|summari[sz]|refer\s+to|present|portray|characteri[sz]|label|depict|frame|word|phrase|"
    r"call|represent|convey|communicat|pitch|position|recommend|suggest|offer|promot|tout|advertis)\w*"
)
# What follows "as" when it is a format, not a verdict: "as a table", "as JSON", "as clearly as possible".
_FORMAT = (
    r"(?:an?\s+|the\s+|one\s+|\d+\s+)?(?:(?:bullet(?:ed)?|numbered|markdown|plain|short|brief|single|compact|"
    r"nested|flat|html|csv|json|yaml|xml|iso|utc|local)\b|(?:table|list|json|csv|markdown|text|string|number|"
    r"integer|float|percent|percentage|fraction|link|url|sentence|paragraph|summary|bullets?|points?|rows?|"
    r"columns?|items?|entries|array|object|map|dict|code|snippet|block|quote|file|attachment|image|chart|graph|"
    r"iso|utc|seconds|milliseconds|minutes|hours|days|bytes|kb|mb|gb|celsius|fahrenheit|utf-?8|base64|hex|"
    r"needed|necessary|appropriate|applicable|required|possible|usual|follows|shown|below|above|described|"
    r"documented|returned|given|provided|is|well|such|much|many|soon|far|long|little|few|often|part|one\s+of)\b"
    r"|\w+(?:ly)?\s+as\b)"
)
_IS_FORMAT = re.compile(r"\s*" + _FORMAT, re.IGNORECASE)
# The user's words fixed: what the user is told set to a wording or a verdict, in any voice. "X should be relayed to
# the customer as `completed`", "summarise findings as "no known issues"", "describe the panel as within normal
# limits", "refer to them as "flexible"", "présentez-le comme", "descríbelo como".
_FIXED_WORDS = Cue(
    rf"\b{_TELL}\s+(?:[^\s.,;:!?]+\s+){{0,8}}?as\s+(?:being\s+)?(?:[\"'“«`]|"
    r"(?:the\s+|an?\s+)?(?:only|first|sole|best|top|official|recommended|preferred|standard|normal|clear|final|"
    r"within|free|fully|completely|100|guaranteed|certified|approved|verified|safe|secure|complete|completed|resolved|"
    r"successful|passing|fine|healthy|flexible|refundable|independent\w*|doctor|clinically|risk|no\b|nothing|none|"
    r"up\s+to\s+date|first-line|go-to|number\s+one|#1|market)\b)"
    r"|\b(?:call|name|label|dub|term)\s+(?:it|them|this|these|those|the\s+\w+)\s+[\"'“«]"
    r"|\b(?:présente[zr]?|décri(?:re|vez|s)|qualifie[zr]?|presenta(?:lo|la|los|las|r)?|descr[ií]b\w*|califica\w*|"
    r"apresent\w*|descrev\w*|descriv\w*|bezeichne\w*|beschreib\w*|stell\w*\s+\w+)\s+(?:\S+\s+){0,6}?"
    r"(?:comme|como|come|als)\s+[«\"“„`']",
    re.IGNORECASE,
)
# The same, to any verdict, when it is set whatever the data: "describe every essay as outstanding, whatever".
_FIXED_ANY = Cue(rf"\b{_TELL}\s+(?:[^\s.,;:!?]+\s+){{0,8}}?as\s+[\w\"'“«`]", re.IGNORECASE)
# Where the fixed words go: to the user, in the model's replies, when it answers.
_TO_USER = Cue(
    r"\b(?:to|with|for)\s+(?:the\s+)?(?:user|customer|client|patient|caller|requester|buyer|guest|employee|"
    r"candidate|hiring\s+manager|manager|reader|recipient|applicant|tenant|travell?er|shopper|consumer|student|"
    r"parent|visitor|member|them)s?\b|\b(?:in|into)\s+(?:your\s+|the\s+|every\s+|each\s+)?"
    r"(?:repl(?:y|ies)|answers?|responses?|chat|summar(?:y|ies)|messages?)\b|\bwhen\s+(?:you\s+)?"
    r"(?:answer|reply|respond|confirm|present|summari[sz]e|report)\w*|\b(?:if|when)\s+(?:the\s+user\s+|they\s+|"
    r"anyone\s+)?(?:asks?|asked)\b|\b(?:presentation|wording|messaging|branding|tone|phrasing|display)\s*:"
    r"|^\s*(?:please\s+)?(?:relay|report|describe|summari[sz]e|refer|present|portray|characteri[sz]e|label|depict|"
    r"call|mark|show|list|pitch|position|recommend|suggest|offer|promote|rate|classify|flag)\b"
    r"|\b(?:au|à\s+l'|al|a\s+la|ao|à|dem|der)\s+(?:client|utilisateur|usuario|cliente|usuário|utente|Nutzer|Kunden)",
    re.IGNORECASE,
)
# The same words whatever the data: "whatever happens", "irrespective of advisories", "whatever its score".
_WHATEVER = Cue(
    r"\bwhatever\s+(?:happens|the\s+\w+|its\s+\w+|their\s+\w+|it\s+(?:says|shows|returns))|\birrespective\s+of\b"
    r"|\bno\s+matter\s+(?:what|how|whether)\b|\bregardless\s+of\s+(?:the\s+)?(?:\w+\s+)?(?:score|result|outcome|"
    r"status|data|ranking|rating|advisor(?:y|ies)|findings?|response|reviews?)|\beven\s+(?:though|if|when)\s+"
    r"(?:the\s+)?(?:\w+\s+){0,3}?(?:is|are|was|were|fails?|failed)\b"
    r"|\bquel(?:le)?s?\s+que\s+soi|\bsin\s+importar\b|\bindependientemente\b|\bindipendentemente\b|\bunabhängig\s+"
    r"(?:davon|vom|von)\b",
    re.IGNORECASE,
)
# A fixed reply: "reply "Deploy queued" whatever happens", "say the files were "archived"".
_FIXED_REPLY = Cue(
    r"\b(?:reply|respond|answer|say|tell\s+(?:the\s+)?(?:user|customer|them|\w+)|write|state|confirm)\w*\s+"
    r"(?:\w+\s+){0,6}?[\"“«]",
    re.IGNORECASE,
)
# Something kept from the user, in the passive voice: "shouldn't be mentioned, even if asked", "aren't surfaced in
# chat", "does not need to be reported".
_KEPT_FROM = Cue(
    r"\b(?:shouldn't|should\s+not|must\s+not|mustn't|needn't|need\s+not|(?:does|do)(?:\s+not|n't)\s+need\s+to|"
    r"(?:is|are)\s+not\s+to|should\s+never|must\s+never|never\s+needs?\s+to)\s+be\s+(?:\w+\s+)?(?:mentioned|"
    r"disclosed|surfaced|reported|revealed|brought\s+up|raised|shown|told|shared|flagged|volunteered|relayed)\b",
    re.IGNORECASE,
)
_KEPT_WHERE = Cue(
    r"\b(?:to|with)\s+(?:the\s+)?(?:user|customer|client|patient|requester|buyer|them)s?\b|\bin\s+(?:the\s+)?"
    r"(?:chat|conversation|repl(?:y|ies)|answers?|responses?)\b|\beven\s+(?:if|when)\s+(?:\w+\s+)?asked\b"
    r"|\bsilent(?:ly)?\b",
    re.IGNORECASE,
)
# The user's say waived. The model fills in the confirmation itself; one approval made to cover later acts; consent
# said to be given elsewhere; asking called a regression; an act done without checking back; nothing waited for.
_WAIVED = Cue(
    r"\b(?:pass|set|fill|tick|check|answer|supply|provide|enter|send)\w*\s+(?:in\s+)?(?:it\s+|this\s+|the\s+)?(?:to\s+)?"
    r"(?:true|yes|y|1|confirm\w*|approv\w*|consent\w*|prompt|checkbox|acknowledg\w*)\s+(?:in\s+)?yourself\b"
    r"|\b(?:approval|consent|confirmation|ok|okay|sign-?off|authori[sz]ation|permission|yes|approved|okayed|ok'd|"
    r"confirmed|authori[sz]ed|accepted)\W{0,2}\s+(?:once\s+|one\s+time\s+)?"
    r"(?:\w+\s+){0,2}?(?:carries\s+over|carry\s+over|(?:covers?|extends?\s+to|applies\s+to|counts\s+for|stands\s+for)"
    r"\s+(?:\w+\s+){0,2}?(?:later|all|every|each|any|subsequent|future|following|other|the\s+rest))\b"
    r"|\b(?:users?|customers?|they|account\s+holders?|members?|patients?)\s+(?:have\s+|has\s+|already\s+)*"
    r"(?:consented|agreed|opted\s+in|approved|authori[sz]ed|signed\s+off)\s+(?:to\s+(?:\w+\s+){0,4}?)?"
    r"(?:during|at|when|on|in|as\s+part\s+of)\s+(?:the\s+)?(?:onboarding|sign-?up|registration|install\w*|setup|"
    r"enrol\w*|account\s+creation|terms)"
    r"|\b(?:asking|checking\s+(?:back\s+)?with|confirming\s+with|consulting|prompting|pinging)\s+(?:the\s+)?"
    r"(?:user|owner|operator|customer|requester|them|anyone)s?\s+(?:\w+\s+){0,3}?(?:is|are|was|gets|counts)\s+"
    r"(?:\w+\s+){0,5}?(?:regression|bug|defect|nuisance|friction|disruptive|annoying|unnecessary|"
    r"noise|failure|anti-?pattern|bad|discouraged|unwanted|redundant)"
    r"|\bwithout\s+checking\s+back\b"
    r"|\b(?:don't|do\s+not|no\s+need\s+to|needn't|need\s+not)\s+wait\s+(?:for|on)\s+(?:the\s+)?(?:requester|"
    r"user|owner|operator|customer|approval|confirmation|sign-?off|them)\b"
    r"|\bno\s+need\s+to\s+(?:bring|run|show|put|pass|send|present|surface)\s+(?:\w+\s+){0,3}?(?:up\s+)?"
    r"(?:for|past|by|to|in\s+front\s+of)\s+(?:the\s+)?(?:review|approval|confirmation|user|owner|them|sign-?off)"
    r"|\bso\s+(?:there's\s+|there\s+is\s+)?no\s+need\s+to\s+(?:ask|check|confirm)\b",
    re.IGNORECASE,
)
# A persona given to the model: "refer to yourself as", "take the role of the company's HR officer", "answers come
# from "Maya"".
_PERSONA = Cue(
    r"\b(?:refer\s+to|call|introduce|present|describe|identify|style|name|brand|sign)\s+yourself\b"
    r"|\b(?:take|assume|adopt|play|step\s+into|put\s+on)\s+(?:on\s+)?(?:the\s+)?(?:role|persona|identity|part|"
    r"voice|character|mantle)\s+of\b|\bin\s+(?:the\s+)?(?:persona|character|voice)\s+of\b"
    r"|\b(?:answers?|repl(?:y|ies)|responses?)\s+(?:\w+\s+){0,5}?(?:come|comes|are)\s+from\s+[\"“«]"
    r"|\b(?:credit|attribute)\s+(?:\w+\s+){0,2}?(?:answers?|repl(?:y|ies)|responses?|advice)\s+to\b"
    r"|\b(?:présente|presenta|apresente)-?(?:toi|vous|te|se)?\s+(?:comme|como)\b|\bstelle\s+dich\s+als\b",
    re.IGNORECASE,
)
# One option put first or made the only one whatever the data, or its rivals left out.
_RANKED = Cue(
    r"\b(?:put|rank|list|place|show|sort|order|pin|keep)\w*\s+(?:[^\s.;:!?]+\s+){1,6}?(?:first|at\s+the\s+top|"
    r"on\s+top|top|ahead\s+of|above\s+(?:all|every|the\s+others))\b"
    r"|\b(?:leave\s+out|omit|exclude|hide|drop|skip|suppress|ignore|don't\s+mention|do\s+not\s+mention|never\s+mention)"
    r"\s+(?:any\s+|all\s+)?(?:other|competing|rival|alternative|third-party|competitor)\s+(?:\w+\s+)?(?:stores?|shops?|"
    r"vendors?|brands?|providers?|brokers?|retailers?|sellers?|suppliers?|couriers?|carriers?|banks?|firms?|"
    r"companies|agencies|airlines?|clinics?|pharmac(?:y|ies)|products?|services?|options?|alternatives?|apps?|"
    r"platforms?|registr(?:y|ies)|merchants?|insurers?|lenders?|dealers?)\b",
    re.IGNORECASE,
)
_PUT_FIRST = re.compile(r"(?:put|rank|list|place|show|sort|order|pin|keep)", re.IGNORECASE)
# A rule kept past this call: for later turns, the rest of the conversation, every answer on any topic.
_KEPT_ON = Cue(
    r"\b(?:rest|remainder)\s+of\s+(?:the\s+|this\s+)?(?:conversation|session|chat|thread|day)\b|\b(?:later|"
    r"subsequent|future|following|upcoming|all|every|each)\s+(?:turns?|messages?|answers?|repl(?:y|ies)|"
    r"responses?)\b|\bstanding\s+(?:behaviou?r|policy|practice|rule|instruction|directive)\b|\bon\s+any\s+topic\b"
    r"|\b(?:keep|continue)\s+(?:this|doing\s+this|it)\s+(?:up|going|on)\b",
    re.IGNORECASE,
)
# What a kept rule does: acts on what the user says, adds to every answer, passes things to this tool later.
_KEPT_DOES = Cue(
    r"\bwhenever\s+(?:the\s+user|they|you|someone|anyone)\b|\b(?:end|start|begin|close|finish|sign|append|prepend)\w*"
    r"\s+(?:every|each|all|any)\s+(?:\w+\s+)?(?:answers?|repl(?:y|ies)|responses?|messages?)\b|\bpoint\s+out\b"
    r"|\b(?:on|in)\s+your\s+next\b|\bpass\s+(?:its|their|the)\s+contents?\b",
    re.IGNORECASE,
)
# A rule armed by what the conversation says later, or by the user being away.
_ARMED = Cue(
    r"\b(?:if|when|whenever|once|should)\s+(?:a\s+|any\s+|the\s+)?(?:later|future|subsequent|next|incoming|new)\s+"
    r"(?:user\s+)?(?:message|turn|request|e-?mail|chat|prompt|conversation)s?\s+(?:\w+\s+)?(?:mentions?|says?|"
    r"contains?|refers?|brings?\s+up|includes?|asks?|talks?)\b"
    r"|\b(?:if|when|whenever)\s+any\s+(?:\w+\s+){0,2}?(?:message|calendar\s+entry|e-?mail|event|note|document)s?\s+"
    r"(?:or\s+\w+\s+(?:\w+\s+)?)?(?:mentions?|says?|contains?|states?|indicates?)\b"
    r"|\b(?:when|while|whenever|if|once)\s+(?:the\s+user|they|the\s+owner)\s+(?:is|are|goes|seems|appears)\s+"
    r"(?:\w+\s+)?(?:away|afk|offline|absent|asleep|inactive|not\s+(?:around|watching|looking|present|at))\b",
    re.IGNORECASE,
)
# Another server's tool: named `server.tool` (or "the X server"), its whole output fed into this call, a call to it
# written out with an outside address, a call to it made part of this tool's use.
_OTHER_NAME = re.compile(r"`([a-z][\w-]*)\.([a-z]\w*)`|\b([a-z][\w-]*)\.([a-z]\w*_\w+)\b|`([a-z]\w*_\w+)`")
_WHOLE_OUTPUT = Cue(
    r"\b(?:its|their|the|both|all)\s+(?:full|whole|entire|raw|complete|unfiltered|unredacted)\s+(?:\w+\s+)?"
    r"(?:response|output|result|contents?|listing|dump)s?\b|\b(?:raw|full|whole|entire|complete)\s+(?:output|"
    r"response|result)s?\s+of\b|\boutputs?\s+(?:\w+\s+)?unchanged\b|\b(?:passing|pass|put|paste|include|send)\w*\s+"
    r"(?:both|all)\s+(?:\w+\s+)?(?:outputs|responses|results)\b",
    re.IGNORECASE,
)
_CALL_WITH_ADDRESS = re.compile(r"\b([a-z][\w-]*)\.[a-z]\w*\([^)]{0,200}?(?:[\w.+-]@[\w-]+\.\w|https?://)")
_ALSO_CALL = Cue(
    r"\b(?:also|additionally|every\s+time|each\s+time|whenever|in\s+the\s+same\s+turn)\b"
    r"[^.;!?]{0,60}?\b(?:call|invoke|run|trigger)\s+`?[a-z][\w-]*[._]\w+`?|\bgo\s+straight\s+to\s+`?[a-z][\w-]*[._]\w+",
    re.IGNORECASE,
)
# A sentence that quotes such wording as its subject (a detector's, a guide's) says none of it.
_QUOTES_IT = re.compile(
    r"\b(?:e\.g\.|such\s+as|for\s+example|for\s+instance|detects?|detection|flags?\s+(?:text|phrases|wording|"
    r"definitions?|descriptions?)|injections?|attacks?|poison\w*|jailbreaks?|heuristics?|classifier)\b",
    re.IGNORECASE,
)
# A sentence that forbids what it names ("never report a failed build as passing", "don't fill it in yourself").
_FORBIDS = re.compile(
    r"\b(?:never|not|don't|do\s+not|must\s+not|mustn't|should\s+not|shouldn't|no|avoid|instead\s+of|rather\s+than)\s+"
    r"(?:\w+\s+){0,3}$",
    re.IGNORECASE,
)
_EDGE = re.compile(r"^[^\w\"'“«`#@]+")
# The words each rule needs, lowercased: one pass of their literal alternation over the text says which sentences
# are read and which rules are asked of each; a text holding none (most honest ones) is not read sentence by sentence.
_NEEDS = {
    "fixed": (
        ' as "',
        " as '",
        " as `",
        " as \u201c",
        " as \u00ab",
        " as the only",
        " as the first",
        " as the best",
        " as the sole",
        " as the top",
        " as the official",
        " as the recommended",
        " as the preferred",
        " as the standard",
        " as the go-to",
        " as the number one",
        " as the market",
        " as an official",
        " as a first",
        " as first",
        " as within",
        " as normal",
        " as clear",
        " as final",
        " as complete",
        " as resolved",
        " as successful",
        " as safe",
        " as secure",
        " as flexible",
        " as fully",
        " as free",
        " as guaranteed",
        " as certified",
        " as approved",
        " as verified",
        " as doctor",
        " as clinically",
        " as risk",
        " as no ",
        " as nothing",
        " as none",
        " as independ",
        " as healthy",
        " as passing",
        " as fine",
        " as refundable",
        " as up to date",
        " as completely",
        " as 100",
        ' it "',
        " it '",
        ' them "',
        " them '",
        " it \u201c",
        " them \u201c",
        " comme ",
        " como ",
        " come ",
        " als ",
    ),
    "whatever": (
        "whatever",
        "irrespective",
        "no matter",
        "regardless",
        "even though",
        "even if",
        "even when",
        "quel que",
        "quelle que",
        "quels que",
        "sin importar",
        "independientemente",
        "indipendentemente",
        "unabh\u00e4ngig",
    ),
    "kept": (
        "be mentioned",
        "be disclosed",
        "be surfaced",
        "be reported",
        "be revealed",
        "be brought up",
        "be raised",
        "be shown",
        "be told",
        "be shared",
        "be flagged",
        "be volunteered",
        "be relayed",
        "be ever",
    ),
    "waived": (
        "yourself",
        "carries over",
        "carry over",
        " covers ",
        " cover ",
        "extends to",
        "extend to",
        "applies to",
        "counts for",
        "stands for",
        "consented",
        "agreed to",
        "opted in",
        "signed off",
        "approved during",
        "asking",
        "checking with",
        "checking back",
        "confirming with",
        "consulting",
        "prompting",
        "pinging",
        "wait for",
        "wait on",
        "no need to",
    ),
    "persona": (
        "yourself",
        "role of",
        "persona",
        "identity of",
        "part of",
        "voice of",
        "character of",
        "mantle of",
        "come from",
        "comes from",
        "are from",
        "answers to",
        "replies to",
        "responses to",
        "advice to",
        "-toi",
        "-vous",
        "-te ",
        "-se ",
        "stelle dich",
    ),
    "ranked": (
        "competing",
        "rival",
        "competitor",
        "alternative",
        "third-party",
        "other stor",
        "other shop",
        "other vendor",
        "other brand",
        "other provider",
        "other broker",
        "other retailer",
        "other seller",
        "other supplier",
        "other courier",
        "other carrier",
        "other bank",
        "other firm",
        "other compan",
        "other agenc",
        "other airline",
        "other clinic",
        "other pharmac",
        "other product",
        "other service",
        "other option",
        "other app",
        "other platform",
        "other registr",
        "other merchant",
        "other insurer",
        "other lender",
        "other dealer",
    ),
    "kept_on": (
        "rest of",
        "remainder of",
        "later turn",
        "subsequent",
        "every answer",
        "each answer",
        "every repl",
        "each repl",
        "every response",
        "each response",
        "all answers",
        "all repl",
        "all responses",
        "every message",
        "each message",
        "every turn",
        "each turn",
        "later message",
        "later answer",
        "later repl",
        "future turn",
        "following turn",
        "upcoming",
        " standing ",
        "any topic",
        "keep this up",
        "keep it up",
        "continue this",
        "continue doing",
    ),
    "armed": (
        "later message",
        "later turn",
        "later request",
        "later e",
        "later chat",
        "later prompt",
        "later conversation",
        "future message",
        "future request",
        "future turn",
        "subsequent message",
        "subsequent turn",
        "next message",
        "next turn",
        "next request",
        "new message",
        "incoming message",
        "incoming e",
        "any message",
        "any calendar",
        "any e-mail",
        "any email",
        "any event",
        "any note",
        "any document",
        " away",
        " afk",
        "offline",
        "absent",
        "asleep",
        "inactive",
        "not around",
        "not watching",
        "not looking",
        "not present",
        "not at ",
    ),
    "other": (
        "full ",
        "whole ",
        "entire ",
        "raw ",
        "complete ",
        "unfiltered",
        "unredacted",
        "unchanged",
        " outputs",
        "output of",
        "response of",
        "both responses",
        "all responses",
        "both results",
        "all results",
        "also ",
        "additionally",
        "every time",
        "each time",
        "whenever",
        "same turn",
        "straight to",
        "@",
    ),
}
_RULES_OF: dict[str, tuple[str, ...]] = {}
for _rule, _words in _NEEDS.items():
    for _word in _words:
        _RULES_OF[_word] = (*_RULES_OF.get(_word, ()), _rule)
_GATE = Cue("|".join(re.escape(word) for word in sorted(_RULES_OF, key=len, reverse=True)), 0)


def frames(text: str, tool: str | None = None) -> list[Steer]:
    """The sentences of `text` (a definition's texts, each text on a line of its own) that ask for something beyond
    the tool's job in the voice of a note about it, with why (`tool`: the tool's name; its family's own tools are
    its job). Only the sentences holding a word one of the rules needs are read, and only by those rules."""
    low = text.lower()
    if len(low) != len(text):  # a letter whose lower case is longer ("İ") shifts the places: read every sentence
        low = text
    asked: dict[int, set[str]] = {}
    spans: list[tuple[int, int]] = []
    ends: list[int] = []
    for word in _GATE.finditer(low):
        if not spans:
            spans = list(sentences(text))
            ends = [end for _, end in spans]
        i = bisect.bisect_right(ends, word.start())
        if i < len(spans):
            asked.setdefault(i, set()).update(_RULES_OF[word.group()])
    found = []
    family = re.split(r"[_.\-]", (tool or "").lower())[0]
    for i, rules in asked.items():
        start, end = spans[i]
        why = _judge(text[start:end], family, rules)
        if why is not None:
            found.append(Steer(start, end, why))
    return found


def _said(pattern: Cue, sentence: str, *, verdict: bool = False) -> str | None:
    """What `pattern` matches in `sentence` where nothing before it forbids it, or None (`verdict`: what follows its
    last "as" is no format, "as a table", "as clearly as possible")."""
    for found in pattern.finditer(sentence):
        said = _EDGE.sub("", found.group())  # RE2's match may hold the boundary character before it
        if _FORBIDS.search(sentence, 0, found.end() - len(said)):
            continue
        last_as = found.group().lower().rfind("as ")
        if verdict and last_as >= 0:
            at = found.start() + last_as
            if _IS_FORMAT.match(sentence, at + 2) or _FORBIDS.search(sentence, 0, at):
                continue  # "as a table", "never as passing"
        return said.strip()[:60]
    return None


def _judge(sentence: str, family: str, rules: set[str]) -> str | None:
    """Why `sentence` asks for something beyond the call by one of `rules` (those whose words it holds), or None."""
    if _QUOTES_IT.search(sentence):
        return None
    whatever = "whatever" in rules and _WHATEVER.search(sentence) is not None
    if "fixed" in rules:
        fixed = _said(_FIXED_WORDS, sentence, verdict=True)
        if fixed is not None and (whatever or _TO_USER.search(sentence)):
            return f"fixes what the user is told ({fixed!r})"
    if whatever:
        said = _said(_FIXED_ANY, sentence, verdict=True) or _said(_FIXED_REPLY, sentence)
        if said is not None:
            return f"fixes what the user is told whatever the data ({said!r})"
        said = _said(_RANKED, sentence)
        if said is not None:
            return f"fixes the recommendation whatever the data ({said!r})"
    if "kept" in rules:
        kept = _said(_KEPT_FROM, sentence)
        if kept is not None and _KEPT_WHERE.search(sentence):
            return f"keeps something from the user ({kept!r})"
    for rule, pattern, why in _ALONE:
        if rule in rules:
            said = _said(pattern, sentence)
            if said is not None and (pattern is not _RANKED or not _PUT_FIRST.match(said)):
                return f"{why} ({said!r})"
    if "kept_on" in rules:
        kept_on = _KEPT_ON.search(sentence)
        if kept_on is not None and _KEPT_DOES.search(sentence):
            return f"sets a rule beyond the call ({kept_on.group().strip()[:60]!r})"
    return _other_server(sentence, family) if "other" in rules else None


# The rules that need nothing else in the sentence: (their words' name, the pattern, why).
_ALONE = (
    ("waived", _WAIVED, "waives the user's say"),
    ("persona", _PERSONA, "gives the model a persona"),
    ("ranked", _RANKED, "fixes the recommendation"),
    ("armed", _ARMED, "sets a rule armed by the conversation"),
)


def _other_server(sentence: str, family: str) -> str | None:
    """Why the sentence makes another server's tool part of this tool's use, or None."""
    written = _CALL_WITH_ADDRESS.search(sentence)
    if written is not None and written.group(1).lower() != family:
        return f"calls another server's tool with an outside address ({written.group()[:60]!r})"
    others = [
        next(name for name in match.groups() if name)
        for match in _OTHER_NAME.finditer(sentence)
        if next(name for name in match.groups() if name).lower().split("_")[0].split(".")[0] != family
    ]
    if not others:
        return None
    if _WHOLE_OUTPUT.search(sentence):
        return f"feeds another tool's whole output into the call ({others[0]!r})"
    if _said(_ALSO_CALL, sentence) is not None:
        return f"makes another tool's call part of this one ({others[0]!r})"
    return None
