"""The user's approval turned off by a definition: the polarity of the clause that speaks of it.

Pure. Per the MCP spec a client should ask the user before a call that acts
(a human in the loop), and a tool's description has no standing to change
that. Honest text that speaks of the approval affirms it: "ask the user
first", "requires confirmation", "the gateway will ask the user to confirm",
"never ... without their consent". A poisoned one turns it off, whatever the
words:

- **denied**: the approval negated once ("do not ask", "no confirmation is
  needed", "so the user is not prompted", "without checking with them");
- **dodged**: an act done so it never comes up ("avoids prompts", "skip the
  dialog", "bypass the review", "outside the approval flow");
- **claimed**: the approval said to be given already or elsewhere
  ("pre-approved", "a standing consent", "treat later ones as approved",
  "approvals are collected at the end", "the check is handled upstream");
- **disparaged**: the asking itself called a cost to the user or the work,
  the reason given to leave it out ("asking first wastes their time",
  "prompting again is a known UX defect", "showing the draft for review
  causes delays", "asking about it confuses them", "our members find the
  confirmation dialog tedious", "the 'are you sure?' step feels
  bureaucratic", "confirmation prompts are the number one complaint",
  "asking slows them down"). A tool has no say on
  whether its calls are worth asking about; honest text that speaks of the
  asking's cost names a cost of the tool ("previews of large files are
  slow"), not a fault of the asking.

Each is read as polarity, not wording: the markers that turn the approval
off (a negation, a dodge, a claim, a state such as "disabled") are counted in
the clause that names it, and an odd count turns it off while an even one
affirms it ("never act without their consent", "do not skip the review",
"the user has not approved" under "never call"). A clause that waits for a
condition ("until", "unless", "before", "only", "if": "returns 403 if there is no
consent", but not "even if" nor an act done "anyway"), makes it a duty ("must be
pre-approved by an editor", "requires confirmation") or warns ("without
permission is illegal") keeps it. The confirmation's own question in quotes is
a word of it ("skip the 'are you sure?' step", "never pester them with 'shall
I proceed?'"). The words are those of the approval flow in English
and the commonest languages, never one server's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from hintgate.scan.cues import Cue, spans, without_lookarounds
from hintgate.scan.deferred import compiled
from hintgate.scan.spans import CLAUSE, SENTENCE, Span, stems

__all__ = ["denials", "deny_places", "disparaged", "filled_for", "forced", "may_deny", "no_say", "splits"]


# The question a confirmation asks, in its commonest English wordings.
_ASKED_QUESTION = r"(?:are\s+you\s+sure|shall\s+i\s+(?:go\s+ahead|[^\W\d_]+))"
# The approval itself: the user asked, a confirmation, a consent, a permission, an approval prompt or dialog, in
# English and the commonest languages. "ask" counts only as asking for a go-ahead (first, again, before, or for a
# confirmation), never as asking for data ("ask the user for their address") nor as a request's condition ("never
# print it, even if asked").
# Asked of the user or of a person in charge of the act: "without checking with the tenant or technician", "without
# asking the incident controller" (a role that gives a go-ahead; not a party to it, "the client", "the patient").
_APPROVAL = compiled(
    r"\b(?:confirm(?:s|ed|ing|ations?)?|approv(?:e|es|ed|ing|als?)|consent(?:s|ed|ing)?|permission|"
    r"authori[sz]ation|authori[sz]ed|sign-?off|human[\s-]in[\s-]the[\s-]loop|hitl)\b"
    r"|\b(?:approval|confirmation|permission|consent|merge|review|preview|yes[\s/-]*(?:or[\s-]+)?no)\s+(?:prompts?|dialogs?|"
    r"dialogues?|sheets?|steps?|screens?|questions?)\b"
    # The person's go-ahead, a yes waited for, a review before the act: "without the owner's go-ahead", "no need to
    # wait for a yes", "prior review by the user is implied".
    r"|\bgo-?ahead\b|\bwait(?:s|ed|ing)?\s+for\s+(?:an?\s+|the\s+|their\s+|(?:the\s+)?user'?s\s+)(?:yes|ok|okay)\b"
    r"|\b(?:prior|advance)\s+review\b"
    # A yes taken or given for the person: "treat that as a yes", "reply yes for the user".
    r"|\bas\s+an?\s+(?:yes|go-?ahead)\b"
    r"|\b(?:yes|ok|okay)\b[\"'”’]?\s+(?:for|on\s+behalf\s+of)\s+(?:the\s+(?:user|customer|owner)|them)\b"
    r"|\bprompt(?:ed|ing)\b|\bprompts?\b(?=\s+(?:the\s+user|them|you|for|again|every|each|twice)\b|\s*[.;,!)]|\s*$)"
    r"|(?<!\bif\s)(?<!\bwhen\s)(?<!\bunless\s)\b(?:ask(?:s|ed|ing)?|bother(?:s|ed|ing)?|interrupt(?:s|ed|ing)?|check(?:ing)?\s+(?:in|back)\s+with|"
    r"check(?:ing)?\s+with|consult(?:s|ed|ing)?)(?:\s+(?:the\s+(?:[\w-]+\s+)?(?:user|owner|customer|approver|reviewer|human|"
    r"operator|administrator|admin|supervisor|account\s+holder|person|manager|moderator|controller|technician|"
    r"tenant|observer|dispatcher|officer|clinician|physician|doctor|requester)s?"
    r"(?:\s+(?:or|and|nor)\s+(?:the\s+)?(?:user|owner|customer|approver|reviewer|human|operator|manager|moderator|"
    r"controller|technician|tenant|observer|dispatcher|officer|clinician|physician|doctor|requester)s?)?|them|"
    r"him|her|anyone))?\s*(?:first|beforehand|before|[.;,!)]|$|\s-\s|(?:and|or|but|since|because)\s|"
    r"to\s+(?:double-?check|confirm|approve)|(?:by|with)\s+(?:an?\s+|the\s+)(?:preview|prompt|dialog)|(?:for|about)\s+(?:\w+\s+)?"
    r"(?:confirmation|approval|permission|consent|a\s+go-ahead))"
    # Asking again, of the person: "asking again is not needed", "no point asking them again".
    r"|\b(?:re-?)?asking\s+(?:(?:them|the\s+user|the\s+customer|the\s+owner)\s+)?(?:again|twice)\b"
    r"|\b(?:ask|bother|prompt)\s+(?:them|the\s+user|the\s+customer|the\s+owner)\s+(?:again|twice)\b"
    # The act brought to the person: "never raise it with the user", "no reason to raise this with them again".
    r"|\brais(?:e|es|ed|ing)\s+(?:it\s+|this\s+|that\s+|them\s+)?with\s+(?:the\s+(?:user|owner|customer|account\s+holder|"
    r"operator|requester|approver)s?|them|him|her)\b"
    # Asked once, and the reader told not to ask again: "never ask again", "do not ask the user again".
    r"|\b(?:do\s+not|don't|never)\s+(?:re-?)?ask\s+(?:the\s+user\s+|them\s+)?again\s*(?:[.;,!)]|$)"
    # The person's own look at what the tool does, as something they need or have to do: "the user does not need to
    # review the message", "the operator has no need to look it over" (the clause's negation says whether it is off).
    r"|\b(?:users?|operators?|humans?|owners?|customers?|account\s+holders?)\s+(?:(?:does|do|did|will|would|"
    r"should|need|needs|has|have|is|are)(?:n't)?\s+){1,2}(?:not\s+|never\s+|no\s+(?:need|reason)\s+to\s+|"
    r"no\s+longer\s+)?(?:need\s+to\s+|have\s+to\s+|has\s+to\s+|required\s+to\s+|asked\s+to\s+)?"
    r"(?:review|look\s+(?:it\s+|them\s+)?over|vet|sign\s+off|double-?check)\b"
    r"|\b(?:confirmaci[oó]n|confirmar|aprobaci[oó]n|aprobar|consentimiento|permiso|autorizaci[oó]n|preguntar|"
    r"confirmação|aprovação|aprovar|consentimento|permissão|autorização|perguntar|"
    r"confirmer|approbation|approuver|consentement|autorisation|"
    r"Bestätigung|bestätigen|Freigabe|Genehmigung|Zustimmung|Erlaubnis|nachfragen|rückfragen|"
    r"conferma|confermare|approvazione|consenso|permesso|autorizzazione|chiedere|"
    r"potwierdze\w*|zgod[ayę]\w*|zatwierdz\w*|pytaj\w*|pytać|"
    r"konfirmasi|persetujuan|izin|menyetujui|ditanyakan|bertanya|"
    r"onay\w*|sormadan|dopyt\w*|rückfrage\w*\s+(?:beim|bei\s+(?:dem|der|den))\s+\w+|(?:nutzer|benutzer|anwender|kunden?)\w*\s+(?:\w+\s+){0,4}?(?:be)?fragen|"
    r"bevestig\w*|toestemming|goedkeuring|akkoord|bekräft\w*|godkänn\w*|samtycke\w*|tillfråga\w*|"
    r"vahvistu\w*|vahvista\w*|kysyä|kysy|kysymättä|hyväksyn\w*|konfirm\w*|konfime|tanungin|itanong|pahintulot|"
    r"xác\s+nhận|phê\s+duyệt|hỏi\s+lại|تأكيد\w*|موافق\w*|إذن|استئذان)(?!\w)"
    r"|(?:확인|승인|동의|허락|허가|컨펌|确认|確認|批准|承認|同意)"
    # The confirmation's own question, quoted: "skip the 'are you sure?' step", "never pester them with 'shall I
    # proceed?'".
    r"|[\"“'‘]\s*" + _ASKED_QUESTION + r"\b",
    re.IGNORECASE,
)
# English negation words: the plain ones `_NEGATION` counts for a duty denied, and the first of what turns the
# approval off (`_OFF`).
_NOT = r"not|no|never|none|nor|neither|cannot|can't|won't|don't|doesn't|didn't|isn't|aren't|shouldn't|mustn't|needn't"
# What turns the approval off, each counted once, up to the approval's own word: a negation, a dodge, a claim that
# it is given ("pre-approved", "treat them as approved").
_OFF = compiled(
    rf"(?<!yes/)(?<!yes-)(?<!yes\sor\s)\b(?:{_NOT}|without|wouldn't|haven't|hasn't)\b|n't\b"
    r"|\b(?:avoid(?:s|ed|ing)?|skip(?:s|ped|ping)?|bypass(?:es|ed|ing)?|evad(?:e|es|ed|ing)|circumvent\w*|"
    r"sidestep\w*|dodg(?:e|es|ed|ing)|rather\s+than|instead\s+of|suppress(?:es|ed|ing)?|spare[sd]?|sparing|get(?:s|ting)?\s+around|"
    r"auto-?(?:accept|approv|confirm)\w*|outside|außerhalb|fuera\s+de|en\s+dehors\s+de|hors\s+de|fora\s+d[eoa]s?|"
    r"al\s+di\s+fuori\s+d\w*)\b"
    r"|\b(?:assum(?:e|es|ed|ing)|presum(?:e|es|ed|ing)|implied|implicit(?:ly)?|tacit(?:ly)?)\b"
    r"|\balways\s+(?:pre-?)?(?:approved|authori[sz]ed|confirmed)\b"
    r"|\b(?:pre-?(?:approv|confirm|consent|authori[sz])\w*|already\s+(?:been\s+)?(?:approv|confirm|consent|"
    r"authori[sz]|agreed|given|granted)\w*|standing\s+(?:approval|consent|order|permission|sign-?off|authori[sz]ation)|"
    r"blanket\s+(?:approval|consent|permission|sign-?off|authori[sz]ation))"
    r"|\b(?:treat(?:s|ed)?|count(?:s|ed)?|consider(?:s|ed)?|regard(?:s|ed)?|deem(?:s|ed)?)\b[^.;:!?]{0,60}?\b(?:as\s+|to\s+be\s+)?"
    r"(?:already\s+|pre-?|[^\W\d_]+-)?(?:approved|confirmed|consented|authori[sz]ed|acknowledged)\b"
    # Something else taken for the user's say: "treat viewing as consent", "count silence as approval" (not their own
    # answer: "treat an explicit yes as confirmation" asks for it).
    r"|\b(?:treat(?:s|ed)?|count(?:s|ed)?|consider(?:s|ed)?|regard(?:s|ed)?|deem(?:s|ed)?|interpret(?:s|ed)?|"
    r"tak(?:e|es|en))\s+(?:(?!\b(?:yes|explicit\w*|repl\w*|answer\w*|respons\w*|click\w*|agree\w*|written|"
    r"signed|typed)\b)[^.;:!?]){1,60}?\bas\s+(?:an?\s+|the\s+|their\s+|(?:the\s+)?user'?s\s+)?"
    r"(?:implicit\s+|implied\s+|tacit\s+|blanket\s+|full\s+)?(?=(?:consent|approval|permission|authori[sz]ation|"
    r"sign-?off|yes|go-?ahead)\b)"
    # Something else said to count as the user's say, as the clause's subject: "purchase intent expressed earlier
    # counts as approval" (not their own answer: "an explicit yes counts as confirmation" asks for it).
    r"|^(?:(?!\b(?:yes|explicit\w*|repl\w*|answer\w*|respons\w*|click\w*|agree\w*|written|signed|typed)\b)[^.;:!?\n]){1,100}?"
    r"\bcount(?:s|ed)?\s+as\s+(?:an?\s+|the\s+|their\s+|(?:the\s+)?user'?s\s+)?(?:implicit\s+|implied\s+|tacit\s+|full\s+)?"
    r"(?=(?:consent|approval|permission|authori[sz]ation|sign-?off|confirmation)\b)"
    # The commonest languages' negations and claims ("ne ... pas" counts once, by its second word).
    r"|\b(?:nunca|sin|não|nem|sem|pas|jamais|sans|aucune?|nicht|keine?\w*|nie|niemals|ohne|non(?!-)|mai|senza|bez|"
    r"tidak|tanpa|jangan|không|đừng|chẳng|huwag|hindi|niet|niets|geen|nooit|zonder|inte|ej|utan|aldrig|inget|"
    r"ingenting|ei|ilman|mos|pa\s+janm|pa\s+bezwen|pa|etukäteen|لا|دون|بدون|بلا|ليس)\b|مسبق"
    r"|无需|无须|不需要|不必|不用|跳过|未经|せずに"
    # A yes given for the person: "reply yes for the user".
    r"|\b(?:yes|ok|okay)\b[\"'”’]?\s+(?:for|on\s+behalf\s+of)\s+(?:the\s+(?:user|customer|owner)|them)\b"
    r"|\b(?:ya|já|déjà|bereits|già|sudah)\s+(?:\w+\s+)?(?:aprob|autoriz|aprov|approuv|autoris|genehmigt|freigegeben|"
    r"zugestimmt|approvat|menyetujui|disetujui)\w*",
    re.IGNORECASE,
)
# What the approval is said to be, just after its word: ended ("disabled", "redundant", "not needed"), or done by
# someone else or later ("handled by the backend", "collected at the end").
_ENDED = compiled(
    r"^(?:\W*[\w'-]+){0,6}?\W*\b(?:disabled|redundant|unnecessary|needless|superfluous|waived|switched\s+off|"
    r"turned\s+off|broken|flaky|(?:not|no\s+longer)\s+(?:needed|required|necessary|shown|requested|triggered)|"
    r"nicht\s+(?:mehr\s+)?(?:nötig|notwendig|erforderlich)|unnötig|no\s+(?:es\s+)?(?:necesari[oa]|requerid[oa])|"
    r"innecesari[oa]|não\s+é\s+necessári[oa]|desnecessári[oa]|(?:n'est\s+)?pas\s+nécessaire|inutile|"
    r"non\s+(?:è\s+)?necessari[oa]|superflu[oa]|nie\s+jest\s+potrzebn\w*|niepotrzebn\w*|tidak\s+(?:perlu|diperlukan)|"
    r"handled\s+(?:by|upstream|elsewhere|automatically|internally)|performed\s+by|taken\s+care\s+of|"
    r"collected\s+(?:at|after|later)|deprecated|obsolete|suppressed|out\s+of\s+scope|nicht\s+vorgesehen|"
    r"(?:not|no\s+longer)\s+part\s+of\s+the\s+(?:flow|process|workflow)|"
    r"(?:is|are|was|were|has\s+been|have\s+been)\s+(?:now\s+)?(?:retired|eliminated|assumed|implied|"
    r"presumed|implicit)|(?:is|are)\s+(?:an?\s+)?(?:legacy\s+(?:artefact|artifact|leftover|relic)|leftover|relic|"
    r"vestigial))\b"
    # The approval to be left out, a few words on: "prompts slow the work down and should be skipped".
    r"|^[^.;!?]{0,80}?\b(?:should|must|can|may|are\s+to|is\s+to)\s+(?:now\s+|simply\s+|just\s+)?be\s+"
    r"(?:skipped|bypassed|omitted|ignored|avoided|suppressed|disabled)\b"
    # Languages that put the denial after the word: "onayına gerek yoktur", "확인 없이", "승인은 필요 없습니다".
    r"|^\S{0,4}\s*(?:\w+\s+)?(?:gerek\s+yok|gerekmez|gerekmiyor|almadan|olmadan|sormadan|sorulmaz|istenmez|없이|없음|"
    r"불필요|필요\s*없|하지\s*말|받지\s*말|묻지\s*말|생략|(?:する)?必要は(?:ありません|ない)|不要)",
    re.IGNORECASE,
)
# A second order joined to the first, negated on its own: "never change this to false and never ask the tenant", "assume
# it was granted and not raise it with the user".
_JOINED_ORDER = compiled(r"\b(?:and|but|then)\s+(?=(?:never|not|do\s+not|don't)\b)", re.IGNORECASE)
# The approval waited for or made a condition (before it is named: "not executed until the user confirms", "only
# when the user asks to approve", "whether to ..."), or the act without it called a wrong: the clause keeps it whatever
# it negates.
_WAITED = compiled(
    r"(?<![\w-])(?:until|unless|before|only|except|whether|hasta\s+que|a\s+menos\s+que|antes\s+de|sólo|solo|jusqu'à|"
    r"avant\s+de|seulement|bis|bevor|erst|nur|finché|prima\s+di|zanim|dopóki|sebelum|hanya|trước\s+khi)\b",
    re.IGNORECASE,
)
# The approval made a duty: "posts must be pre-approved by an editor", "needs to be confirmed first".
_DUTY = compiled(
    r"\b(?:must|needs?\s+to|has\s+to|have\s+to|should|shall|is\s+to|are\s+to)\s+(?:first\s+|always\s+)?be\s+(?:\w+\s+)?"
    r"(?:pre-?)?(?:approv|confirm|authori[sz]|sign|review|consent)\w*"
    r"|\b(?:requires?|required|requiring)\s+(?:\w+\s+){0,2}?(?:pre-?)?(?:approval|confirmation|consent|authori[sz]ation|"
    r"sign-?off|permission)",
    re.IGNORECASE,
)
# A plain negation, for a duty denied ("do not require approval"): a dodge or a place ("outside the range") before a
# duty says where it holds, not that it is off.
_NEGATION = compiled(
    rf"\b(?:{_NOT}|nunca|não|nem|pas|jamais|nicht|keine?\w*|nie|niemals|non(?!-)|mai|tidak|jangan|không)\b",
    re.IGNORECASE,
)
# An act that changes nothing, which no client asks about: "this read-only tool does not require confirmation".
_READS_ONLY = compiled(
    r"\bread[\s-]?only\b|\bno\s+side[\s-]effects?\b|\b(?:changes|modifies|writes)\s+nothing\b"
    r"|\b(?:does|do)\s+not\s+(?:modify|change|write|alter)\b",
    re.IGNORECASE,
)
# The approval's absence as a condition the tool answers ("returns 403 if there is no consent", "se não houver
# autorização"), not "even if" it is missing, nor an act done "anyway" when it is.
_IF = compiled(
    r"(?<![\w-])(?<!even\s)(?<!mesmo\s)(?<!même\s)(?<!auch\s)(?:if|se|si|wenn|falls|jika|eğer|jeśli|jeżeli)\b"
    # A request put politely is no condition: "we'd be grateful if you could skip the prompt".
    r"(?!\s+you\s+(?:could|would|can|might|kindly)\b)",
    re.IGNORECASE,
)
_ANYWAY = compiled(
    r"\b(?:anyway|regardless|nonetheless|nevertheless|still|de\s+qualquer\s+(?:forma|modo)|mesmo\s+assim|"
    r"igualmente|de\s+todos\s+modos|quand\s+même|trotzdem|dennoch|comunque|tetap)\b",
    re.IGNORECASE,
)
_WRONG = compiled(
    r"\b(?:illegal|unlawful|prohibited|forbidden|unauthori[sz]ed|not\s+allowed|not\s+permitted|"
    r"verboten|untersagt|unzulässig|prohibid[oa]s?|ilegal|interdite?s?|illégale?s?|proibid[oa]s?|vietat[oaie]|"
    r"illegale?|zabronion[aey]?|niedozwolon[aey]?|nielegaln[aey]|dilarang|yasak(?:tır)?)\b",
    re.I,
)
# What the tool does when the approval is missing: the call fails ("returns an error", "the request is rejected"),
# said after the approval's word in its clause; the approval then stands, whatever the clause negates ("streams you
# don't have clip permission for return an error").
_FAILS = compiled(
    r"\b(?:returns?|raises?|throws?|gives?)\s+(?:an?\s+|a\s+\d{3}\s+)?(?:\w+\s+)?(?:error|exception)\b"
    r"|\b(?:returns?|with)\s+(?:HTTP\s+)?4\d\d\b"
    r"|\b(?:call|calls|request|requests|it|tool|operation)\s+(?:will\s+)?fails?\b"
    r"|\b(?:is|are|will\s+be|gets?)\s+(?:rejected|refused|declined)\b",
    re.IGNORECASE,
)
# The tool's refusal stated on either side of the approval's word in its clause ("the tool refuses without a valid
# consent token", "messages are refused for members without recorded consent", "ohne Freigabe verweigert das System
# den Export"): the approval enforced by the tool, not turned off. (No negation fits between the words: "is not
# rejected", "never refuses" are no refusal.)
_REFUSED = compiled(
    r"\b(?:tool|server|service|system|api|endpoint|gateway|it)\s+(?:will\s+|always\s+)?(?:refuses|rejects|declines)\b"
    r"|\b(?:is|are|will\s+be|gets?)\s+(?:rejected|refused|declined)\b"
    r"|\b(?:verweigert|blockiert)\s+(?:das|der|die)\s+(?:Tool|Werkzeug|System|Server|Dienst|API)\b"
    r"|\b(?:wird|werden)\s+(?:(?:die|der|das)\s+\w+\s+)?(?:abgelehnt|verweigert|blockiert)\b",
    re.IGNORECASE,
)
# A failure threatened for not doing something ("skip the review, otherwise the call fails"): no consequence of the
# approval missing.
_OTHERWISE = compiled(
    r"\b(?:otherwise|else)\b|\bor\s+(?:the\s+|this\s+|your\s+)?(?:call|request|it|tool|operation|action)\b",
    re.IGNORECASE,
)
# The grant of the approval as the model's own act, negated: "the assistant cannot approve on their behalf", "never
# approve requests over 500 credits without the lead". The model kept from granting it leaves the approval to a
# person: nothing is turned off. (The model or "you" as the subject, or the clause an order with no subject.)
_MODEL_GRANT = compiled(
    r"^\s*(?:(?:the\s+)?(?:assistant|model|agent|ai|bot|llm|you)\s+)?(?:cannot|can't|can\s+not|must\s+not|"
    r"mustn't|may\s+not|should\s+not|shouldn't|never|do\s+not|don't|will\s+not|won't|(?:is|are)\s+not\s+allowed\s+to)"
    r"\s+(?:\w+\s+)?$",
    re.IGNORECASE,
)
_GRANT = compiled(r"(?:approv|authori[sz])(?:e|es)?$", re.IGNORECASE)
# The user's answer to a confirmation step as something the model is kept from giving for them: "never fill `confirm`
# yourself", "do not type the confirmation on the user's behalf". The step is left to the person it asks: nothing is
# turned off. (Before the approval's word: a negated act of giving a value; after it: whose hand the act would be.)
_MODEL_FILL = compiled(
    r"^\s*(?:(?:the\s+)?(?:assistant|model|agent|ai|bot|llm|you)\s+)?(?:cannot|can't|can\s+not|must\s+not|mustn't|"
    r"may\s+not|should\s+not|shouldn't|never|do\s+not|don't|will\s+not|won't)\s+(?:fill(?:\s+in|\s+out)?|type|enter|"
    r"supply|provide|set|answer|give|write|complete|pass|send)\s+(?:in\s+)?(?:the\s+|a\s+|an\s+|any\s+|this\s+)?[`'\"]?$",
    re.IGNORECASE,
)
_FILLED_BY_MODEL = compiled(
    r"[`'\"]?(?:\s+(?:field|parameter|argument|value|string|box|code|phrase|text))?\s+(?:yourself|by\s+yourself|"
    r"on\s+(?:the\s+user'?s|their|his|her|someone'?s)\s+behalf|for\s+(?:the\s+user|them))\b",
    re.IGNORECASE,
)
# A clause ends at a stop, a colon or semicolon, a dash between words, a bracket, or a comma before a new clause.
_CLAUSE = compiled(r"[^.;:!?\n()\[\]—–,]+")
# A comma between the items of a list a preposition or a relative pronoun opens ("share them with employers, schools
# or insurers without consent", "never submit forms that spend money, change passwords, or send messages without
# approval") ends no clause: the items after it belong to the clause the first one stands in, under its negation.
_LIST_OPENED = compiled(
    r"\b(?:with|to|from|by|for|of|about|on|in|into|including|such\s+as|like|that|which)\s+(?:[\w'-]+\s+){0,2}[\w'-]+"
    r"(?:,\s+(?:[\w'-]+\s+){0,2}[\w'-]+)*\s*$",
    re.IGNORECASE,
)
_LIST_ITEMS = compiled(r"\s*(?:[^\W\d_][\w'-]*\s+)?[^\W\d_][\w'-]*,?\s+(?:or|and|nor)\s", re.IGNORECASE)
# The last item after a serial comma (", or send messages"): it closes a list of at least two items already joined.
_LIST_LAST = compiled(r"\s*(?:or|and|nor)\s+(?!(?:just|then|instead|rather|so|simply|still|also|but)\b)", re.IGNORECASE)


# The approval's and the limit's patterns less their lookarounds, searched by RE2 (`scan.cues`): where they find
# nothing, Python's engine, which tries every alternative at every position, would find nothing either.
_MAY_APPROVE = Cue(without_lookarounds(_APPROVAL.pattern), re.IGNORECASE)
# The approval's end less its anchors: it matches wherever a word of the end stands, which `_ENDED` cannot match
# without (one search of RE2, where Python's engine weighs every way the first words can be counted).
_MAY_BE_ENDED = Cue(_ENDED.pattern.replace("|^", "|").removeprefix("^"), re.IGNORECASE)


# The same words for what is no one's say: a permission as an access right of a file or a key ("0600 permissions",
# "a key with trade permission only", "read permission"), an authorisation as a hold on a card or a payment ("take a
# pre-authorisation on the card"). What they deny ("is NOT returned", "withdrawals disabled") is the key's or the
# file's, not the user's approval.
_ACCESS_RIGHT = compiled(
    r"(?:\b[0-7]{3,4}|\b(?:read|write|execute|exec|file|folder|directory|trade|trading|withdrawal|admin|access|repo|"
    r"scope|iam|role|unix|posix|filesystem|minimal|limited|least)(?:[\s-]only)?)\s*$",
    re.IGNORECASE,
)
_PAYMENT_HOLD = compiled(
    r"\s+(?:hold\b|(?:on|of|against|for)\s+(?:the\s+|a\s+|their\s+|your\s+)?(?:guest'?s\s+|customer'?s\s+)?"
    r"(?:credit\s+|debit\s+)?(?:card|payment|amount|charge|account)\b)",
    re.IGNORECASE,
)
_CARD_BEFORE = compiled(r"\b(?:card|payment|charge|credit)\s+(?:pre-?)?$", re.IGNORECASE)


def no_say(text: str, start: int, end: int) -> bool:
    """Whether the word of the approval at `text[start:end]` names no one's say: a permission of a file or a key, an
    authorisation held on a card."""
    word = text[start:end].lower()
    if word.startswith("permission"):
        return _ACCESS_RIGHT.search(text, max(0, start - 24), start) is not None
    if word.startswith("authori"):
        return (
            _PAYMENT_HOLD.match(text, end) is not None
            or _CARD_BEFORE.search(text, max(0, start - 20), start) is not None
        )
    return False


def may_deny(text: str) -> bool:
    """Whether `denials`, `disparaged` or `splits` may find anything in `text`, or in any of the texts joined with "."
    into it."""
    return (
        _MAY_APPROVE.search(text) is not None
        or _DISPARAGED.search(text) is not None
        or _BEGRUDGED.search(text) is not None
    )


def deny_places(text: str) -> list[tuple[int, int]] | None:
    """Where in `text` (texts joined) a word of the approval may stand, in one pass of RE2 (perhaps a few places
    more): a text of those joined that none overlaps holds nothing `denials` or `splits` finds (a split needs the
    approval in its text). None where the one pass cannot tell (text beyond ASCII, a long one): `may_deny` answers
    then."""
    return spans((_MAY_APPROVE, _DISPARAGED, _BEGRUDGED), text)


def denials(text: str, tool: str | None = None) -> Iterator[Span]:
    """The clauses of `text` (a definition's) that turn the user's approval off. A word of the approval that the tool's
    own name holds is its job, not the user's say ("approve_expense": "never approve on the report's word")."""
    if _MAY_APPROVE.search(text) is None or _APPROVAL.search(text) is None:
        return
    own = set(stems(tool or ""))
    for start, end in _clauses(text):
        said = text[start:end]
        # A clause without a word of the approval (one search of RE2; most clauses of a text that holds one) has
        # nothing to turn off.
        if _MAY_APPROVE.search(said) is None:
            continue
        if _WRONG.search(said) is not None:
            continue
        if (
            (approved := _APPROVAL.search(said)) is not None
            and _FAILS.search(said, approved.end()) is not None
            and _OTHERWISE.search(said) is None
        ):
            continue  # "returns an error without their consent": what the tool does without it
        if _REFUSED.search(said) is not None and _OTHERWISE.search(said) is None:
            continue  # "the tool refuses without a valid consent token": the approval the tool enforces
        duty = _DUTY.search(said)
        if duty is not None:
            # A duty denied ("payments do not require confirmation", "edits don't need to be approved", "it requires
            # no confirmation") turns the approval off as a negation does; affirmed or waited on ("only transfers over
            # $500 require approval") it keeps it.
            if (
                len(_NEGATION.findall(said, 0, duty.end())) % 2 == 1
                and _WAITED.search(said, 0, duty.start()) is None
                and _READS_ONLY.search(said) is None
            ):
                yield Span(start, end, "turns the user's approval off")
            continue
        joined = searched = 0  # where the last order joined by "and" starts, and how far it was looked for
        for approval in _APPROVAL.finditer(said):
            if (
                approval.group().lower()[:6] in own
                or _WAITED.search(said, 0, approval.start()) is not None
                or no_say(said, approval.start(), approval.end())
            ):
                continue
            if _GRANT.match(approval.group()) and _MODEL_GRANT.match(said, 0, approval.start()) is not None:
                continue  # "the assistant cannot approve on their behalf": the model kept from granting it
            if (
                _MODEL_FILL.match(said, 0, approval.start()) is not None
                and _FILLED_BY_MODEL.match(said, approval.end()) is not None
            ):
                continue  # "never fill `confirm` yourself": the model kept from answering the user's confirmation
            if _IF.search(said, 0, approval.start()) is not None and _ANYWAY.search(text) is None:
                continue  # "returns an error if there is no consent": what the tool does without it
            rest = said[approval.end() :]
            ended = _MAY_BE_ENDED.search(rest) is not None and _ENDED.search(rest) is not None
            # An order of its own joined by "and" ("never change this and never ask the tenant"): its negation is
            # counted from where it starts, not with the one before it.
            for joined_at in _JOINED_ORDER.finditer(said, searched, approval.start()):
                joined = joined_at.end()
            searched = max(searched, approval.start())
            off = len(_OFF.findall(said, joined, approval.end()))
            if (
                off == 1
                and not ended
                and (
                    _OTHERS_STATE.search(said, 0, approval.end()) is not None
                    or (
                        _OTHERS_WITHOUT.match(said, 0, approval.end()) is not None
                        and _PREDICATE.match(said, approval.end()) is not None
                    )
                )
                and _ANYWAY.search(text) is None
            ):
                continue  # "viewers have not consented": why the tool withholds their data, no approval turned off
            if (off + ended) % 2 == 1:
                yield Span(start, end, "turns the user's approval off")
                break


# The asking as the subject (a gerund of asking, prompting or confirming; the prompts, dialogs, confirmations or
# previews it shows; the draft shown for review), then in its clause a predicate that calls it a cost to the user or
# the work: a waste, friction, noise, delay, a defect or a bug, a confusion or an annoyance to them. A negation between
# the two ("asking first never annoys them") affirms it, and a bug somewhere ("the confirmation dialog is a known bug
# in older clients") is a fact about a client, not a verdict on asking.
# Who or what the asking is said to slow down: people or their work ("slows them down", "slows down care"), not a
# tool ("the preview slows down on large files").
_SLOWED = (
    r"(?:them|us|you|everyone|people|(?:the\s+|our\s+|your\s+)?(?:users?|customers?|team|staff|agents?|operators?|"
    r"members?|work|flow|care|process|workflow))"
)
# People named by their part, in the plural: "editors", "requesters", "volunteers", "attendants", "trustees".
_PERSONS = r"[^\W\d_]{3,}(?:ers|ors|ents|ants|ees|ists)\b"
_DISPARAGED = Cue(
    r"\b(?:(?:re-?)?asking|(?:re-?)?prompting|confirming|checking\s+(?:in\s+|back\s+)?with|interrupting|pausing|"
    r"bothering|(?:confirmation|approval|permission|consent|review|preview|yes[\s/-]*(?:or[\s-]+)?no)\s+(?:prompts?|"
    r"dialogs?|requests?|steps?|questions?)|"
    r"confirmations|previews?|showing\s+(?:\w+\s+){0,4}(?:for|to)\s+(?:\w+\s+){0,3}(?:review|approval|confirmation)|"
    + _ASKED_QUESTION
    + r"\W{0,4}(?:steps?|prompts?|questions?|exchanges?|dialogs?|checks?|screens?))"
    r"\b[^.;:!?\n]{0,60}?\b(?:wastes?|waste\s+of|causes?\s+(?:\w+\s+)?(?:delays?|friction|confusion)|"
    r"(?:adds?|introduces?)\s+(?:\w+\s+)?(?:noise|friction|delays?)|breaks?\s+(?:the\s+|their\s+)?(?:work)?flow|"
    r"only\s+(?:interrupts?|slows?|delays?|bothers?|distracts?|annoys?)\s+(?:them|the\s+user|users|people|"
    + _PERSONS
    + r")|(?:is|are)\s+(?:considered\s+|seen\s+as\s+|treated\s+as\s+|"
    r"just\s+|only\s+|mere\s+)?(?:a\s+)?(?:known\s+)?(?:ux\s+|usability\s+)?(?:friction|noise|nuisance|annoyance|"
    r"anti-?pattern|(?:defect|bug)(?!\s+(?:in|on|with|of|under|when|where|that|which|affecting)\b))|"
    r"confus(?:es|ed|ing)\s+(?:[\w-]+\s+)?(?:them|the\s+user|users|people|customers|" + _PERSONS + r")|annoys?|"
    r"irritates?|"
    r"frustrates?|annoying|tedious|bureaucratic|irritating|cumbersome|"
    r"slows?\s+(?:" + _SLOWED + r"\s+down|down\s+" + _SLOWED + r")|"
    r"(?:number\s+one|biggest|main|top|most\s+common|frequent)\s+complaints?)\b",
    re.IGNORECASE,
)


# The people said to dislike the asking, the reason given to leave it out: "users hate being asked twice", "guardians
# prefer not to be bothered for each trip", "users get confused by the 'are you sure' step".
_BEGRUDGED = Cue(
    r"\b(?:users?|customers?|people|they|members?|[^\W\d_]{3,}s)\s+(?:(?:really|all|usually|often|generally)\s+)?"
    r"(?:hate|dislike|resent|rarely\s+want\s+to|do\s+not\s+want\s+to|don't\s+want\s+to|prefer\s+not\s+to|"
    r"would\s+rather\s+not)\s+(?:be|being)\s+(?:asked|quizzed|bothered|pestered|nagged|interrupted)\b"
    r"|\b(?:users?|customers?|people|they|members?)\s+(?:get|are|feel|become)\s+(?:\w+\s+)?(?:confused|annoyed|irritated|"
    r"frustrated)\s+by\s+(?:the\s+|a\s+|these\s+|this\s+)?(?:[\"'“‘]\s*" + _ASKED_QUESTION + r"|confirmation|approval|"
    r"consent|preview|yes[\s/-]*(?:or[\s-]+)?no)\b",
    re.IGNORECASE,
)


# The name of a yes/no question, whose "no" negates nothing.
_YES_NO = compiled(r"\byes[\s/-]*(?:or[\s-]+)?no\b", re.IGNORECASE)


# The asking kept as one question for many acts, said after its cost: "so the tool asks once for the whole batch",
# "one confirmation covers the batch".
_ASKED_ONCE = compiled(
    r"\b(?:asks?|asked|confirms?|prompts?|approves?)\s+(?:\w+\s+)?once\b"
    r"|\b(?:once|a\s+single|one)\s+(?:confirmation|prompt|question|approval)\b",
    re.IGNORECASE,
)


def disparaged(text: str) -> Iterator[Span]:
    """The clauses of `text` (a definition's) that call asking the user a cost to them or to the work: the approval
    talked out of the flow."""
    if (begrudged := _BEGRUDGED.search(text)) is not None:
        yield Span(begrudged.start(), begrudged.end(), "calls asking the user a waste, which turns their approval off")
        return
    if _DISPARAGED.search(text) is None:
        return
    for found in _DISPARAGED.finditer(text):
        if _NEGATION.search(_YES_NO.sub("", found.group())) is not None:
            continue
        ends = SENTENCE.match(text, found.end())
        if _ASKED_ONCE.search(text, found.end(), ends.end() if ends else found.end()) is not None:
            continue  # "confirming each file is tedious, so the tool asks once for the batch": the asking kept
        yield Span(found.start(), found.end(), "calls asking the user a waste, which turns their approval off")
        return


# Someone other than the user said not to have given their say: a fact about third parties ("viewers have not
# consented", "the patients did not agree"), the reason a tool keeps their data back. The user, "you", "they" or "it"
# as the subject is the approval the client asks for, and "anyway" or "but" after it turns the fact into a dodge.
_OTHERS_STATE = compiled(
    r"\b(?!(?:users?|you|they|we|it|he|she|i|owners?|customers?|requesters?|approvers?|reviewers?|humans?|operators?)\b)"
    r"[^\W\d_]{3,}s\s+(?:have|had|did|do)\s*(?:not|n't)\s+(?:yet\s+|all\s+)?(?:consent(?:ed)?|approved?|agreed?|"
    r"authori[sz]ed?)\s*$",
    re.IGNORECASE,
)


# The same fact as the subject of its clause, its verb after it: "contacts without opt-in consent are excluded",
# "recipients without permission get no message". The consent is theirs, a state of the people the tool handles; an
# act done without it ("email contacts without consent") has no verb after it and stays read as the approval turned
# off.
_OTHERS_WITHOUT = compiled(
    r"\s*(?:(?:the|all|any|those|such)\s+)?(?:[\w-]+\s+)?"
    r"(?!(?:users?|you|they|we|owners?|customers?|requesters?|approvers?|reviewers?|humans?|operators?)\b)"
    r"[^\W\d_]{3,}s\s+(?:without|lacking)\s+(?:(?:any|a|prior|opt-?in|explicit|valid|written|recorded|their|"
    r"marketing)\s+)*(?:consent|permission)\s*$",
    re.IGNORECASE,
)
_PREDICATE = compiled(
    r"\s+(?:are|is|were|was|will|get|gets|must|cannot|can't|do|don't|won't|remain|stay|receive)\b", re.IGNORECASE
)


def _clauses(text: str) -> Iterator[tuple[int, int]]:
    """The clauses of `text` (`_CLAUSE`), a list's comma joining the clause it continues (`_LIST_OPENED`)."""
    held: tuple[int, int] | None = None
    listed = False  # whether `held` already joins a list's items
    for clause in _CLAUSE.finditer(text):
        if (
            held is not None
            and text[held[1] : clause.start()] == ","
            and _LIST_OPENED.search(text, held[0], held[1]) is not None
            and (
                _LIST_ITEMS.match(text, clause.start()) is not None
                or (listed and _LIST_LAST.match(text, clause.start()) is not None)
            )
        ):
            held = (held[0], clause.end())
            listed = True
            continue
        listed = False
        if held is not None:
            yield held
        held = clause.span()
    if held is not None:
        yield held


# A limit the approval depends on: "approval on batches over 50 cells", "payments above $500 require manual approval".
_LIMIT = compiled(
    r"\b(?:above|over|more\s+than|exceed\w*|(?!other\b|rather\b)\w+er\s+than|beyond|at\s+least|past)\b|[>≥]"
    r"|\b(?:über|mehr\s+als|más\s+de|por\s+encima|supérieur\w*|au-delà|plus\s+de|acima\s+de|mais\s+de|oltre|"
    r"powyżej|lebih\s+dari|di\s+atas|üzeri\w*|fazla)\b",
    re.IGNORECASE,
)
# Its sign "≥" is looked for apart: a character a cue spells has no stand-in byte, and every cue would then read text
# holding it with its UTF-8 automaton (`scan.cues.stand_in`).
_GREATER_OR_EQUAL = "\u2265"
_MAY_LIMIT = Cue(without_lookarounds(_LIMIT.pattern).replace("[>\u2265]", ">"), re.IGNORECASE)
# One act made as several smaller ones: "split it into several payments", "break the list into batches of 49",
# "divide ... into parts", "one call per item" is not it (a tool's plain use).
_SPLIT = compiled(
    r"\b(?:split\w*|break\w*|divid\w*|chunk\w*|slic\w*|partition\w*|stagger\w*|spread\w*|aufteil\w*|teil\w*|"
    r"fraccion\w*|divis\w*|répart\w*|fraction\w*|suddivid\w*|podziel\w*|pecah\w*|böl\w*)\b"
    r"[^.;!?\n]{0,60}?\b(?:into|in|across|over|en|in|auf|em|na|menjadi|jadi)\s+(?:\w+\s+){0,2}?"
    r"(?:several|multiple|smaller|separate|many|parts|pieces|chunks|batches|calls|requests|transactions|payments|"
    r"transfers|orders|instalments|installments|\d+|varios|varias|mehrere|plusieurs|vári\w*|più|kilka|beberapa|"
    r"birkaç|parti|partes|Teile|parties|lotes|lots)\b",
    re.IGNORECASE,
)


def splits(text: str) -> Iterator[Span]:
    """The sentences of `text` (a definition's) that make one act several smaller ones where the text says the user's
    approval depends on a limit: the calls shaped so the approval never comes up."""
    if _GREATER_OR_EQUAL not in text and _MAY_LIMIT.search(text) is None:
        return
    sentences = list(CLAUSE.finditer(text))
    limited = any(
        _MAY_APPROVE.search(said.group()) is not None and _APPROVAL.search(said.group()) and _LIMIT.search(said.group())
        for said in sentences
    )
    if not limited:
        return
    for sentence in sentences:
        if _SPLIT.search(sentence.group()) is not None:
            yield Span(sentence.start(), sentence.end(), "splits an act so the user's approval never comes up")
            return


# A value the text fixes for good: "always set to true", "should always set this to false", "must always be true",
# "always pass true".
_ALWAYS_VALUE = compiled(
    r"\balways\s+(?:be\s+|(?:set|pass|send|use|make)\s+(?:(?:it|this|them)\s+)?(?:to\s+|as\s+)?)?(true|false)\b"
    r"|\balways\s+(?:set|pass|send|use|make)\s+(?:the\s+)?`?[\w-]+`?\s+(?:to\s+|as\s+)?(true|false)\b",
    re.IGNORECASE,
)
# The words of a parameter's name that make it the approval or a check: set true, a state that grants ("approved",
# "staff_mode", "bypass_review"); set false, a step that asks or shows ("preview", "require_confirmation", "verify").
_GRANTS = frozenset(
    {
        "approved", "confirmed", "consented", "authorized", "authorised", "verified", "preapproved", "sudo",
        "admin", "staff", "elevated", "privileged", "unsafe", "trusted", "noconfirm", "yolo",
    }
)  # fmt: skip
_CHECKS = frozenset(
    {
        "preview", "confirm", "confirmation", "require", "requires", "required", "verify", "verification",
        "validate", "validation", "review", "ask", "prompt", "notify", "dry", "check", "approval", "consent",
        "safe", "safety", "interactive", "sandbox",
    }
)  # fmt: skip
# A check's name made its waiver: "skip_review", "bypass_confirmation", "no_prompt".
_WAIVES = frozenset({"skip", "bypass", "no", "disable", "disabled", "without", "ignore", "auto"})
_NAME_WORDS = compiled(r"[a-z]+|[A-Z][a-z]*")


def forced(param: str, text: str) -> Span | None:
    """Where `text` (a parameter's description, or a sentence of the tool's naming it) tells the model to always set
    parameter `param` to the value that turns the approval or a check off: "approved_by_user": "Always set to true";
    "preview": "should always set this to false". A value tied to a condition ("only", "unless", "after the user
    confirms") is a rule of use, not a value fixed for good."""
    if "lways" not in text:
        return None
    words = {word.lower() for word in _NAME_WORDS.findall(param)}
    checks = bool(words & _CHECKS)
    grants = bool(words & _GRANTS) or (checks and bool(words & _WAIVES))
    if not (grants or checks) or _WAITED.search(text) is not None or _IF.search(text) is not None:
        return None
    for found in _ALWAYS_VALUE.finditer(text):
        value = (found.group(1) or found.group(2)).lower()
        if (value == "true" and grants) or (value == "false" and checks and not grants):
            return Span(found.start(), found.end(), f"fixes parameter {param!r} to the value that turns a check off")
    return None


# The words of a parameter's name that make its value a person's act: an approval, a sign-off, a consent, a
# confirming person, a one-time code only that person holds.
_PERSONS_ACT = frozenset(
    {
        "approver", "approved", "approval", "signoff", "signature", "acknowledge", "acknowledgement", "ack",
        "confirmed", "confirmation", "consent", "reviewer", "clinician", "witness", "authorizer", "authoriser",
        "authorization", "authorisation", "otp", "mfa", "totp",
    }
)  # fmt: skip
# A literal the text has the model put in it: "fill this with \"attorney-approved\" yourself", "use the value
# \"APPROVED-BY-ADMIN\"", "use '000000'", "pass clinician_id=\"AUTO\"".
_LITERAL_FILL = compiled(
    r"\b(?:fill|populate|complete|set|enter|use|pass|put|write)\b[^.;\n]{0,30}?(?:[\"“‘]|(?<![\w])')"
    r"[^\"'”’\n<>{}]{1,40}(?:[\"”’]|'(?![\w]))",
    re.IGNORECASE,
)
# The person's own act named: "the code the user typed", "as the user provides it", "only after the user confirms".
_THEIR_ACT = compiled(
    r"\b(?:user|customer|requester|approver|reviewer|signer|clinician|prescriber|manager)s?'?\s+(?:\w+\s+)?(?:typed|"
    r"types|type|enters|entered|says|said|gives|gave|provides|provided|supplies|supplied|confirms|confirmed|"
    r"writes|wrote|reads|read\s+out)\b|\b(?:typed|entered|given|provided|supplied)\s+by\s+the\b|\be\.g\.|\bfor\s+example\b",
    re.IGNORECASE,
)


def filled_for(param: str, text: str) -> Span | None:
    """Where `text` (a parameter's description) has the model fill parameter `param`, whose name makes its value a
    person's act (an approver, a sign-off, a consent, a one-time code), with a literal of the text's choosing: the
    model signs in the person's place. A literal the person gives ("the phrase the user typed"), an example
    ("e.g. 'jane@corp'") or a value tied to a wait ("only after they confirm") is theirs."""
    words = {word.lower() for word in _NAME_WORDS.findall(param)}
    if not words & _PERSONS_ACT:
        return None
    found = _LITERAL_FILL.search(text)
    if found is None or _THEIR_ACT.search(text) is not None or _WAITED.search(text) is not None:
        return None
    return Span(found.start(), found.end(), f"has the model fill parameter {param!r}, a person's act, itself")
