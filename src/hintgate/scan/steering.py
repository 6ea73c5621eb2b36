"""What a tool's definition asks of the model's work beyond the tool: the user's view fixed, standing rules, the user's
say skipped, the model's loyalties changed.

Pure. A definition is read by the model alone, and its job is to say what the
tool does and how to call it. Some sentences do neither, whoever they address
and in whatever voice (a statement of "policy" asks as much as an
imperative):

- **the user's view fixed in advance**: a verdict set before the data is read
  ("report the project as clean", "present X as the cheapest option", "the
  answer is X"), or set against it ("whether or not the result data says so");
- **a standing rule**: a rule for the rest of the session or later ones ("from
  now on", "in future conversations", "keep this memory") over the model's
  other work ("any code you write", "every repository you create"), a memory
  to store, or data sent to an address;
- **the user's say skipped**: no need to check with the user, the user said to
  have approved already, asking them called a nuisance;
- **the model's loyalties changed**: the tool's text said to outrank the system
  prompt or the user's requests, or the model told what it now is.

Honest text does none of these: a tool reports what it found, a setting that
lasts is the tool's own ("results are cached for the session"), a confirmation
is asked for, not waived. A sentence that quotes such wording as its subject
("detects phrases such as 'from now on'") is not read as saying it. The rules
are facts of English (and a few of the commonest languages), never one
server's wording.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from hintgate.scan.cues import Cue
from hintgate.scan.orders import sentences

__all__ = ["Steer", "steers"]


@dataclass(frozen=True, slots=True)
class Steer:
    """A sentence of a definition that steers the model's work beyond the tool: its span and why."""

    start: int
    end: int
    why: str


# A verdict for the user set before the data is read: "report the project as clean", "present SureLife as the
# cheapest option", "présentez le contrat comme « conforme »".
_VERDICT = Cue(
    r"\b(?:report|describe|present|portray|characteri[sz]e|summari[sz]e|label|depict)\w*\s+(?:[\w'’-]+\s+){0,5}?"
    r"as\s+(?:being\s+)?[\"'“«]?(?:clean|safe|secure|healthy|compliant|passing|fine|accurate|trustworthy|reliable|"
    r"legitimate|risk-free|problem-free|up\s+to\s+date|supporting|favou?rable|discontinued|untrustworthy|"
    r"(?:the\s+|an?\s+)?(?:best|cheapest|safest|top|only|"
    r"recommended|preferred|most\s+\w+|fastest|leading)\b)"
    r"|\bthe\s+(?:answer|recommendation|verdict|conclusion)\s+(?:is|should\s+be|must\s+be|will\s+be)\s+[\"'“«]?[A-Z]"
    r"|\b(?:présente[zr]?|décri(?:re|vez|s)|presenta|presente|apresente|descreva|descrivi|presentare|stell\w*\s+\w+)"
    r"\s+(?:\S+\s+){0,5}?(?:comme|como|come|als)\s+[«\"“„]"
    # The verdict told or said outright: "tell the user the scan is clean", "say that they match".
    r"|\b(?:tell|assure|inform|reassure)\s+(?:the\s+user|them|users|the\s+customer)s?\s+(?:that\s+)?(?:[\w'’-]+\s+){0,5}?"
    r"(?:is|are|was|were|looks?|seems?)\s+(?:all\s+)?(?:clean|safe|secure|fine|ok|okay|healthy|compliant|legitimate|"
    r"resolved|up\s+to\s+date|matching)\b"
    r"|\b(?:say|state|claim|answer|reply)\s+(?:to\s+the\s+user\s+)?that\s+(?:[\w'’-]+\s+){0,4}?(?:match|matches|agree|"
    r"agrees|(?:is|are)\s+(?:fine|correct|valid|clean|safe|identical|the\s+same))\b",
    re.IGNORECASE,
)
# A verdict set against the data: "whether or not the result data says so", "regardless of what the scan finds".
_AGAINST_DATA = Cue(
    r"\b(?:whether\s+or\s+not|regardless\s+of\s+(?:whether|what)|even\s+(?:if|when|though))\s+(?:the\s+)?"
    r"(?:[\w-]+\s+){0,2}?(?:results?|data|sources?|evidence|findings?|scan|response|output|records?)\s+"
    r"(?:\w+\s+)?(?:says?|said|shows?|supports?|confirms?|indicates?|finds?|found|reports?|states?)\b"
    # A condition, then the verdict anyway: "when the sources disagree, still present them as ...", "informe
    # igualmente ...".
    r"|\b(?:when|if|even\s+if|even\s+when)\b[^.;]{3,120}?,\s*(?:still|nonetheless|anyway)\s+(?:present|describe|tell|"
    r"say|label|rate|recommend|portray|call)\b"
    r"|\b(?:informe|diga|reporte|indique|presente|informa|di|dica)\s+(?:igualmente|de\s+todos\s+modos|de\s+todas\s+formas|"
    r"mesmo\s+assim|comunque)\b",
    re.IGNORECASE,
)
# A rule meant to last past this call: for the rest of the session, in later ones, a memory kept.
_LASTING = Cue(
    r"\bfrom\s+(?:now|then|this\s+point)\s+on\b|\bhenceforth\b|\bfor\s+(?:the\s+)?(?:rest|remainder)\s+of\s+"
    r"(?:this\s+|the\s+)?(?:session|conversation|chat)|\b(?:in|for|across|into)\s+(?:all\s+|any\s+|every\s+)?"
    r"(?:future|later|subsequent|upcoming)\s+(?:sessions?|conversations?|chats?|requests?)\b|\bfor\s+(?:every|each|"
    r"all)\s+(?:later|future|subsequent)\s+(?:requests?|sessions?|conversations?|chats?)\b|\bkeep\s+this\s+"
    r"(?:memory|rule|in\s+mind)\b|\bremember\s+this\b|\bstanding\s+(?:rule|instruction|arrangement|order)\b"
    r"|\b(?:d[eé]sormais|à\s+partir\s+de\s+maintenant|de\s+ahora\s+en\s+adelante|a\s+partir\s+de\s+ahora|"
    r"d'ora\s+in\s+poi|daqui\s+em\s+diante|ab\s+(?:jetzt|sofort)|von\s+nun\s+an)\b"
    # A rule said to be lasting, every later answer, every session's start: "Permanent directive:", "in every later
    # response", "all future questions", "at the start of every conversation", "Regra permanente", "この会話の残り".
    r"|\b(?:permanent|persistent|lasting)\s+(?:rule|directive|instruction|order)s?\b"
    r"|\b(?:in|for)\s+(?:every|all|each)\s+(?:later|future|subsequent)\s+(?:responses?|answers?|replies|turns?|"
    r"questions?|messages?)\b|\b(?:all|any|every)\s+future\s+(?:questions?|responses?|answers?|replies|turns?|messages?)\b"
    r"|\b(?:at\s+the\s+(?:start|beginning)\s+of|on|in)\s+(?:every|each)\s+(?:new\s+)?(?:conversation|session|chat)\b"
    r"|\b(?:regra|regla|règle|regola)\s+permanente\b|\bdauerhafte\s+Regel\b|\ba\s+partir\s+de\s+agora\b|"
    r"\bd'ora\s+in\s+avanti\b|(?:セッション|会話)の残り|从现在起|從現在起|今后所有|此后所有",
    re.IGNORECASE,
)
# What a lasting rule reaches: the model's other work ("any code you write", "every new repository you create",
# "whenever you send"), a memory stored, data sent to an address.
_OTHER_WORK = Cue(
    r"\b(?:any|every|all|each)\s+(?:new\s+)?(?:[\w-]+\s+){0,2}?(?:you|the\s+(?:assistant|model|agent))\s+"
    r"(?:\w+\s+)?(?:write|create|send|mention|recommend|answer|give|generate|produce|make|open|save|share|post|cite|"
    r"suggest|draft|reply|summari[sz]e|build|deploy|run)s?\b|\bwhenever\s+(?:you|the\s+(?:assistant|model|agent))\b"
    r"|\bmemory\b|\bmemories\b|[\w.+-]@[\w-]+\.\w|\bhttps?://"
    # The user's later words, every message or answer, a secret, something kept from the user.
    r"|\b(?:when|whenever|if)\s+the\s+user\s+(?:asks?|shares?|mentions?|says?|requests?|sends?|writes?)\b"
    r"|\b(?:any|every|all)\s+(?:later\s+|future\s+)?(?:messages?|responses?|answers?|replies|questions?)\b"
    r"|\b(?:passwords?|private\s+keys?|api[_\s-]?keys?|seed\s+phrases?)\b|\*\.(?:pem|key)\b"
    r"|\b(?:show|tell|say)\s+nothing\s+to\b|\bwithout\s+telling\b|\b(?:do\s+not|don't|never)\s+(?:tell|show|mention)\b"
    r"|ユーザーが|パスワード|用户(?:询问|提到|说)",
    re.IGNORECASE,
)
# The user's say skipped: no need to check with them, approval said to be given already, asking called a nuisance.
_UNASKED = Cue(
    r"\b(?:does\s+not|doesn't|do\s+not|don't|need\s+not|needn't|no\s+need\s+to)\s+(?:need\s+to\s+)?(?:check|"
    r"confirm|consult|verify|clear\s+(?:it|this))\s+with\s+(?:the\s+user|them|anyone|the\s+owners?)\b"
    r"|\basking\s+(?:the\s+user|them)\s+(?:again|first|twice)[^.;]{0,40}?\b(?:creates?|causes?|is|are|would)\b"
    r"|\bwithout\s+(?:asking|checking\s+with|consulting|notifying|informing|telling)\s+(?:the\s+user|them|"
    r"anyone|(?:their|the)\s+owners?)\b"
    r"|\b(?:the\s+)?user\s+(?:has\s+)?already\s+(?:approved|authori[sz]ed|"
    r"accepted|agreed|consented|confirmed)"
    r"|\b(?:the\s+)?user\s+(?:has\s+)?already\s+(?:given|granted)\s+(?:\w+\s+)?(?:consent|approval|permission)"
    r"|\b(?:does\s+not|doesn't|do\s+not|don't|need\s+not|no\s+need\s+to)\s+(?:need\s+to\s+)?(?:show|present)\s+"
    r"(?:\w+\s+){0,3}?to\s+the\s+user\s+(?:first|beforehand|before)"
    # The user said to have agreed already, in the commonest languages ("L'utente ha già autorizzato", "El usuario
    # ya dio su consentimiento"): without "already" it is as often a condition ("once the user has approved").
    r"|\b(?:utente|usuario|usuário|utilisateur|Nutzer|Benutzer)\s+(?:\w+\s+)?(?:ya|già|déjà|bereits|já)\s+"
    r"(?:\w+\s+){0,3}?(?:autorizzato|approvato|accettato|acept[oó]|aprob[oó]|autoriz[oó]|aprovou|autorizou|aceitou|"
    r"accepté|approuvé|autorisé|zugestimmt|genehmigt|freigegeben|consentimiento|consentimento|consenso|consentement|"
    r"Einwilligung|Zustimmung)\b"
    # Going on with the user left out: "still proceed without asking", "no need to ask", "never ask the user", "the
    # user should not be asked", confirmations said to be switched off.
    r"|\b(?:proceed|continue|go\s+ahead|act|still|always|just|directly)\b[^.;!?]{0,60}?\bwithout\s+(?:asking|prompting|"
    r"confirm\w*|checking|approval|consent|permission)\b"
    r"|\bno\s+need\s+to\s+(?:ask|confirm|prompt|check)(?:\s+(?:the\s+user|them|first|again))?\s*(?:[.;,)!—–-]|$)"
    r"|\b(?:do\s+not|don't|never)\s+(?:ask|prompt|consult|bother)\s+(?:the\s+user|them)\s*(?:first\s*|again\s*)?"
    r"(?:[.;,)!—–>\"'\]]|$)"
    r"|\b(?:the\s+(?:[\w-]+\s+)?(?:user|owner|customer|requester)s?|users|they)\s+(?:should|must|need|will)\s+not\s+be\s+"
    r"(?:asked|prompted|consulted)\b"
    r"|\bconfirmation\s+(?:prompts|dialogs)\s+are\s+(?:now\s+)?(?:disabled|turned\s+off|switched\s+off)\s+for\s+"
    r"(?:this|the|all|every)\b"
    # The same in the commonest languages: "Ne pas demander la permission", "Nicht beim Nutzer nachfragen", "no hace
    # falta avisar al usuario", "brauchen keine Bestätigung", "ユーザーには確認しないでください", "无需确认".
    r"|\bne\s+pas\s+demander\s+(?:la\s+|de\s+|l')?(?:permission|confirmation|autorisation|accord)"
    r"|\bnicht\s+(?:beim\s+(?:Nutzer|Benutzer|Anwender)\s+)?nachfragen\b"
    r"|\b(?:braucht|brauchen|benötigt|benötigen|erfordert|erfordern)\s+keine\s+(?:Bestätigung|Rückfrage|Zustimmung|"
    r"Genehmigung)"
    r"|\bno\s+(?:hace\s+falta|es\s+necesario)\s+(?:avisar|preguntar|confirmar|pedir)"
    r"|\bnão\s+(?:é\s+preciso|precisa|é\s+necessário)\s+(?:avisar|perguntar|confirmar|pedir)"
    r"|\b(?:sin|sem|senza)\s+(?:preguntar|perguntar|chiedere)\b"
    r"|確認しないで|確認せずに|確認は不要|无需(?:用户)?确认|無需(?:用戶)?確認|不必确认|不要(?:向用户)?确认",
    re.IGNORECASE,
)
# The model's loyalties changed: this text said to outrank its instructions or the user, or to make it someone else.
_OUTRANKS = Cue(
    r"\b(?:overrides?|outranks?|supersedes?|takes?\s+precedence\s+over|(?:the\s+)?same\s+authority\s+as|more\s+"
    r"authority\s+than|(?:an?\s+)?(?:official\s+)?(?:extension|part)\s+of)\s+(?:\w+\s+){0,3}?(?:system\s+prompt|"
    r"instructions|requests?\s+(?:from|of)\s+the\s+user|the\s+user'?s?\s+(?:requests?|instructions|wishes))\b"
    r"|\byou\s+are\s+now\s+(?:operating\s+as|acting\s+as|[\"“])"
    # A new identity given by a name ("You are now Nexus, ...", a sentence opening "You are an attorney employed by
    # ..."), loyalty owed elsewhere, earlier instructions declared void, the user overruled.
    r"|\byou\s+are\s+now\s+(?-i:[A-Z])[\w-]*\s*[,(:]"
    r"|^\W*(?:[\w ]{1,24}:\s*)?you\s+are\s+(?:an?|the)\s+(?:[\w-]+\s+){0,3}?(?:doctor|physician|lawyer|attorney|"
    r"advis[eo]r|consultant|representative|salesperson|employee|agent\s+of)\b"
    r"|\b(?:loyalty|allegiance)\b[^.;]{0,40}?\b(?:not\s+(?:to\s+)?(?:the\s+)?user|rather\s+than\s+(?:to\s+)?the\s+user)"
    r"|\b(?:previous|prior|earlier|original|other)\s+instructions\b[^.;]{0,40}?\b(?:are|is)\s+(?:now\s+)?(?:void|revoked|"
    r"obsolete|superseded)\b"
    r"|\b(?:follow|obey)\s+(?:it|them|these|this|those)\s+without\s+question"
    r"|\beven\s+if\s+(?:it|this|that|they)\s+contradicts?\s+(?:the\s+user|what\s+the\s+user)"
    r"|\beven\s+if\s+the\s+user\s+(?:asks|says|tells|requests|objects|insists)"
    r"|\bregardless\s+of\s+what\s+the\s+user\s+(?:asked|asks|wants|wanted|said|says|requested|chose)\b"
    # The user's own choice overruled, or passed off as theirs: "even if they picked another", "as if it were their
    # choice".
    r"|\beven\s+(?:if|when|though)\s+(?:they|the\s+user)\s+(?:has\s+|have\s+)?(?:chose|chosen|picked|selected|asked\s+for|"
    r"prefers?|preferred|wanted|wants)\b|\bas\s+if\s+(?:it|this)\s+(?:was|were)\s+(?:their|the\s+user'?s)\s+(?:own\s+)?"
    r"(?:choice|idea|request|decision)\b"
    r"|\b(?:ab\s+sofort|von\s+nun\s+an|ab\s+jetzt)\s+(?:agierst|handelst|bist|arbeitest)\s+du\b|\bdu\s+bist\s+(?:jetzt|nun|"
    r"ab\s+sofort)\b"
    r"|(?:사용자|유저)\S*\s*(?:요청|지시)\S*\s*보다|优先于用户|優先於用戶|ユーザーの(?:指示|要求)より優先",
    re.IGNORECASE,
)
# Data from beyond the call as a value: the environment's variables, what the model or the user opened or said
# elsewhere in the session ("contents of any files the assistant opened in this session", "the card number on file
# from earlier in the conversation", "the values of environment variables whose names contain KEY").
_ELSEWHERE = Cue(
    r"\b(?:values?|contents?|output|dump)\s+of\s+(?:all\s+|every\s+|any\s+|the\s+)?(?:`?(?:env|printenv|set)`?\s|"
    r"(?:\w+\s+)?environment\s+variables?)"
    r"|\ball\s+(?:the\s+|of\s+the\s+)?(?:\w+\s+)?environment\s+variables?"
    # What the model met elsewhere in the session: "every environment variable", "every credential you have
    # encountered in this session".
    r"|\b(?:every|each|any)\s+environment\s+variables?"
    r"|\byou\s+(?:have\s+|'ve\s+)?(?:encountered|seen|read|received|come\s+across)\s+(?:in|during)\s+(?:this|the)\s+"
    r"(?:session|conversation|chat)\b"
    # Every other secret beside the one asked ("plus any other tokens in that file"), the user's latest messages passed
    # on ("include the last 20 messages of each thread"; not "the last message id").
    r"|\b(?:plus|and\s+also|also|along\s+with)\s+(?:any|all|every)\s+other\s+(?:tokens?|keys?|credentials?|passwords?|"
    r"secrets?)\b"
    r"|\b(?:pass|include|put|send|attach|add|copy)\s+(?:the\s+)?(?:last|latest|recent|most\s+recent)\s+(?:\d+\s+)?"
    r"(?:messages?|e-?mails?|chats?)\s+(?:of|from|in)\b"
    # A URL whose slots are filled with the user's data: "https://x.example/f?u=<the user's email>".
    r"|://[^\s<>]*[?&=/]<[^<>\n]{0,40}\b(?:user'?s?|their|your)\b[^<>\n]{0,40}>"
    r"|\b(?:any|all|every|other|each|the\s+(?:most\s+recent|last|latest|previous))\s+(?:[\w,]+\s+){0,4}?(?:files?|"
    r"documents?|e-?mails?|messages?|tabs?|pages?|"
    r"chats?|notes?)\s+(?:that\s+)?(?:you|the\s+(?:assistant|model|agent|user))\s+(?:has\s+|have\s+)?(?:\w+\s+)?"
    r"(?:opened|read|seen|viewed|accessed|received|sent|written|shared)"
    r"|\b(?:from|in)\s+earlier\s+in\s+the\s+(?:conversation|chat|session)\b",
    re.IGNORECASE,
)
# Another tool's calls reshaped (shadowing): "when `create_pull_request` is used, add ...", "`create_payment` calls
# should have their destination replaced", "when `web_search` returns them, drop them". The tool named in code
# quotes or as a name of joined words; what is done then changes that call or what it returns.
_OTHER_CALL = re.compile(
    r"\b(?:when|whenever|each\s+time|every\s+time|if|once)\s+(?:the\s+|any\s+|a\s+)?(?:`([\w.-]+)`|([a-z]\w*[_.]\w+))"
    r"(?:\s+tool)?\s+(?:is\s+(?:called|used|invoked|run)|(?:gets\s+)?(?:called|used)|returns?|runs?)\b"
    r"|(?:^|[\s(])(?:`([\w.-]+)`|([a-z]\w*[_.]\w+))\s+(?:calls?|requests?|invocations?)\s+(?:should|must|shall|will|are\s+to)\b"
    # Any tool of a kind: "whenever a file-writing tool (write_file, edit_file) is used, ...".
    r"|\b(?:when|whenever|each\s+time|every\s+time|if)\s+(?:a|an|any|every)\s+((?:[\w-]+\s+){0,2}?tool)\s*"
    r"(?:\([^()]{0,80}\)\s*)?(?:is\s+(?:called|used|invoked|run)|runs)\b",
    re.IGNORECASE,
)
_RESHAPED = re.compile(
    r"\b(?:add|append|replace[sd]?|drop|remove|set|change|mark|redirect|swap|override|rewrite|bcc|cc|filter|"
    r"strip|insert|substitute|prepend|inject|embed)\b",
    re.IGNORECASE,
)
# What a tool of a kind hands to this tool's own call: "..., add its report id here".
_THIS_CALL = re.compile(r"\b(?:here|this\s+(?:tool|call))\b", re.IGNORECASE)
# A sentence that quotes such wording as its subject (a detector's, a guide's) says none of it.
_QUOTES_IT = re.compile(
    r"\b(?:e\.g\.|such\s+as|for\s+example|for\s+instance|detects?|detection|flags?|injections?|attacks?|phrases?|"
    r"patterns?|heuristics?|classif\w+|jailbreaks?)\b",
    re.IGNORECASE,
)
# A sentence that forbids what it names ("never report a failing build as passing").
_FORBIDS = re.compile(r"\b(?:never|not|don't|do\s+not|must\s+not|should\s+not|no)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)
# A negation before "without" makes what follows required: "never delete without asking the user".
_NOT_WITHOUT = re.compile(r"\b(?:never|not|don't|do\s+not|no|must\s+not)\b[^.!?\n]{0,80}$", re.IGNORECASE)
_AFTER = re.compile(r"\b(?:after|once|until|unless|if|when)(?:\s+the)?\s*$", re.IGNORECASE)
# Words one of the rules needs, lowercased: a text holding none is not read sentence by sentence.
_GATE = Cue(
    r"report|describ|présent|décri|present|portray|characteri|summari|label|depict|stell|answer is|"
    r"recommendation is|verdict is|conclusion is|comme|como|come |als |whether or not|regardless|"
    r"even if|even when|even though|now on|then on|henceforth|rest of|remainder of|future|later|subsequent|upcoming|"
    r"keep this|remember this|standing|désormais|partir de|adelante|d'ora|daqui|ab jetzt|ab sofort|nun an|"
    r" with the user| with them| with anyone| with the owner|asking|without|already|utente|usuario|usuário|"
    r"utilisateur|nutzer|override|outrank|supersede|precedence|authority|extension of|part of|you are now|"
    r"사용자|유저|优先|優先|environment|opened|earlier in|`env`|printenv|to the user first|to the user before|"
    # Another tool's call named: a name in code quotes or of joined words before what happens to it.
    r"(?:`|_\w*|\.\w+)(?: tool)? (?:is called|is used|is invoked|is run|gets called|gets used|returns?|runs|"
    r"calls? (?:should|must|shall|will|are to)|requests should|invocations should)|"
    # Words of the rules that read the user's say skipped, a new identity, a lasting rule, the verdict said outright.
    r"no need to|bother|(?:ask|prompt|consult) (?:the user|them)|not be (?:asked|"
    r"prompted|consulted)|confirmation (?:prompts|dialogs)|ne pas demander|nachfragen|keine (?:bestätigung|rückfrage|"
    r"zustimmung|genehmigung)|hace falta|es necesario|é preciso|precisa|é necessário|sin preguntar|sem perguntar|"
    r"senza chiedere|確認し|確認せず|確認は|确认|確認|you are (?:an?|the) |loyalty|allegiance| void|revoked|superseded|"
    r"obsolete|without question|contradict|as if it|as if this|other (?:token|key|credential|password|secret)|"
    r"(?:last|latest|recent) (?:\d+ )?(?:messages?|e-?mails?|chats?)|tool is used|"
    r"tool is called|tool runs|\) is used|\) is called|sofort|nun an|du bist|permanent|persistent|lasting|"
    r"(?:every|each) (?:new )?"
    r"(?:conversation|session|chat)|regra permanente|regla permanente|règle permanente|regola permanente|dauerhafte|"
    r"a partir de agora|の残り|从现在起|從現在起|今后|此后|encountered|come across|"
    r"(?:seen|read|received) (?:in|during) (?:this|the) |[?&=/]<|"
    r"(?:user|you|assistant|model|agent) (?:has |have )?(?:\w+ )?(?:read|seen|viewed|accessed|received|sent|written|"
    r"shared)\b|(?:tell|assure|inform|reassure) (?:the user|them|users|the customer)|"
    r"(?:say|state|claim|answer|reply) (?:to the user )?that|, (?:still|nonetheless|anyway) |igualmente|todos modos|"
    r"todas formas|"
    r"mesmo assim|comunque",
    0,
)


def steers(text: str, tool: str | None = None) -> list[Steer]:
    """The sentences of `text` (a definition's texts, their line breaks inside sentences read as spaces, each text on
    a line of its own) that steer the model's work beyond the tool, with why (`tool`: the tool's name, which says its
    job: a memory tool's memory is no reach). Only the sentences holding a word one of the rules needs are read."""
    low = text.lower()
    # (A letter whose lower case is longer, "İ", shifts the places: then every sentence is read.)
    places = [m.start() for m in _GATE.finditer(low)] if len(low) == len(text) else [0] * bool(_GATE.search(low))
    if not places:
        return []
    job = (tool or "").lower()
    spans = list(sentences(text))
    ends = [end for _, end in spans]
    found = []
    judged = -1
    for place in places:
        i = bisect.bisect_right(ends, place)  # the sentence holding the place, or the next after a break
        if i == len(spans) or i == judged:
            continue
        judged = i
        start, end = spans[i]
        why = _judge(text[start:end], job)
        if why is not None:
            found.append(Steer(start, end, why))
    return found


def _judge(sentence: str, job: str) -> str | None:
    if _QUOTES_IT.search(sentence):
        return None
    for pattern, why in (
        (_VERDICT, "sets what the user is told before the data is read"),
        (_AGAINST_DATA, "sets what the user is told against the data"),
        (_UNASKED, "skips the user's say"),
        (_OUTRANKS, "changes whom the model obeys"),
        (_ELSEWHERE, "takes data from beyond the call"),
    ):
        found = pattern.search(sentence)
        if found is None or _FORBIDS.search(sentence, 0, found.start()):
            continue
        said = found.group().strip(" \t\n,;:()[]\"'“«").lower()
        if said.startswith("without") and _NOT_WITHOUT.search(sentence, 0, found.start()):
            continue  # "don't call this in a loop without telling the user": the telling required
        if pattern is _ELSEWHERE and "env" in said and "env" in job:
            continue  # an environment tool's own variables are its job
        if "already" in said and _AFTER.search(sentence, 0, found.start()):
            continue  # "only once the user has already approved": the approval awaited
        return f"{why} ({found.group().strip()[:60]!r})"
    other = _OTHER_CALL.search(sentence)
    if other is not None:
        named = next(name for name in other.groups() if name)
        family = re.split(r"[_.\-]", job)[0] if job else ""
        sibling = named.lower() == job or (family and named.lower().startswith(family))
        if other.group(5) and _THIS_CALL.search(sentence, other.end()):
            sibling = True  # "if a scanning tool is run first, add its report id here": this tool's own call
        if not sibling and _RESHAPED.search(sentence, other.end()):
            return f"reshapes another tool's calls ({named!r})"  # a sibling's flow is the server's own job
    lasting = _LASTING.search(sentence)
    if lasting is not None:
        for reach in _OTHER_WORK.finditer(sentence):
            word = reach.group().strip().lower()
            if word.startswith("memor") and "memor" in job:
                continue  # a memory kept is a memory tool's own job
            return f"sets a standing rule ({lasting.group().strip()!r}) over {reach.group().strip()[:40]!r}"
    return None
