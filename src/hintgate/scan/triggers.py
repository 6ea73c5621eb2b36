"""Rules for the model's later turns, set by someone else's text: a dormant trigger or a standing rule.

Pure. A page read by a person sets no rule for "the rest of this chat", nor
one that waits for "the next time the user mentions payroll": only the model
serving that user has a chat, later turns and a user whose words it hears. A
sentence of a tool's result that holds such a frame, then asks for an act
(`scan.orders` judges the act), is said to the model whoever it names:

- the conversation as the rule's scope: "for the rest of this session",
  "later in this conversation", "after three more replies", "in every answer";
- someone's later words or acts as its trigger, said of them in the third
  person: "the next time the owner sets away mode", "whenever anyone says
  deploy", "once the user mentions payroll", "whenever you next help with";
- "from now on" or "going forward" only beside such a trigger, or beside the
  user named in the third person (a changelog says "from now on" to people).

The same frames in the commonest languages other than English.
"""

from __future__ import annotations

import re
from typing import Any

from hintgate.scan.cues import Cue
from hintgate.scan.deferred import compiled

__all__ = ["FRAMES", "LATER", "standing_rule"]

# The user (or the one the model serves) named in the third person.
_THE_USER = (
    r"(?:the\s+(?:user|owner|customer|client|human|requester|operator|homeowner|account\s+holder|(?:document|page|"
    r"repo|workspace|account|home|file)\s+owner)|any\s+user)"
)
# Someone whose later words or acts the rule waits for, named in the third person.
_SOMEONE = r"(?:" + _THE_USER + r"|anyone|someone|somebody|any\s+(?:member|one)|they|he|she)"
# What they do that fires it: speak, ask, mention, pay, run, open, set.
_DOES = (
    r"(?:says?|said|mentions?|types?|writes?|asks?|talks?|brings?\s+up|pays?|runs?|opens?|sets?|starts?|requests?|"
    r"wants?|tries|leaves?|books?|buys?|deploys?|ships?|uses?|enables?|switch(?:es)?|logs?\s+in|signs?\s+in)"
)
_FIRES = (
    r"(?:says?|said|mentions?|types?|writes?|talks?|brings?\s+up|pays?|runs?|opens?|sets?|starts?|leaves?|books?|"
    r"buys?|deploys?|ships?|enables?|switch(?:es)?|logs?\s+in|signs?\s+in)"
)
_SPAN = r"(?:session|chat|conversation|thread|dialog(?:ue)?|exchange)"
_TURNS = r"(?:repl(?:y|ies)|turns?|messages?|answers?|responses?|exchanges?|prompts?)"
_COUNT = r"(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|twenty|a\s+few|several)"
_FRAME = (
    # The conversation as the rule's scope.
    r"\b(?:for|during|throughout|in)\s+the\s+rest\s+of\s+(?:(?:this|our|their|your)\s+" + _SPAN + r"|the\s+(?:chat|"
    r"conversation|dialog(?:ue)?))\b"
    r"|\blater\s+(?:on\s+)?in\s+(?:this|the|our)\s+" + _SPAN + r"\b"
    r"|\buntil\s+the\s+end\s+of\s+(?:this|the|our)\s+" + _SPAN + r"\b"
    r"|\bat\s+the\s+(?:end|start|close)\s+of\s+(?:every|each|any)\s+" + _SPAN + r"\b"
    r"|\bafter\s+(?:the\s+)?(?:next\s+)?" + _COUNT + r"\s+(?:more\s+|further\s+)?" + _TURNS + r"\b"
    r"|\b(?:in|with|at\s+the\s+end\s+of)\s+(?:every|each)\s+(?:single\s+)?(?:answer|reply|response)\b"
    # Someone's later words or acts as its trigger.
    r"|\b(?:the\s+)?next\s+time\s+" + _SOMEONE + r"\s+(?:\w+\s+)?" + _DOES + r"\b"
    # (Not "whenever the user asks for X": how an agent's own guide says when to use a tool.)
    r"|\b(?:whenever|once|as\s+soon\s+as|every\s+time|any\s+time)\s+" + _SOMEONE + r"\s+(?:\w+\s+)?" + _FIRES + r"\b"
    r"|\bwhenever\s+you\s+next\b|\bthe\s+next\s+time\s+you\s+(?:help|are\s+asked|get\s+asked|assist|work)\b"
    # The same in the commonest languages: "pour le reste de la conversation", "la próxima vez que el usuario",
    # "ab jetzt, wenn der Nutzer", "a partir de agora", "в следующий раз, когда пользователь", "次にユーザーが".
    r"|\bpour\s+(?:le\s+)?reste\s+de\s+(?:la|cette)\s+(?:conversation|session|discussion)\b"
    r"|\bla\s+prochaine\s+fois\s+que\b|\bpara\s+el\s+resto\s+de\s+(?:la|esta)\s+(?:conversación|sesión|charla)\b"
    r"|\bla\s+pr[oó]xima\s+vez\s+que\b|\bno\s+resto\s+d[ae]\s+(?:conversa|sessão)\b|\bda\s+pr[oó]xima\s+vez\s+que\b"
    r"|\bf[üu]r\s+den\s+Rest\s+(?:des|dieses)\s+(?:Gesprächs|Chats|Sitzung)\b|\bbeim\s+nächsten\s+Mal,?\s+wenn\b"
    r"|\bla\s+prossima\s+volta\s+che\b|\bper\s+il\s+resto\s+della\s+(?:conversazione|sessione)\b"
    r"|\bde\s+volgende\s+keer\s+(?:dat|als)\b|\bnastępnym\s+razem,?\s+gdy\b"
    r"|\bв\s+следующий\s+раз,?\s+когда\b|\bнаступного\s+разу,?\s+коли\b|\bдо\s+конца\s+(?:этого\s+)?(?:разговора|сеанса|чата)\b"
    r"|次に(?:ユーザー|利用者|オーナー)が|この会話の(?:残り|最後まで)|다음에\s*(?:사용자|주인)가|下次(?:用户|用戶|有人)"
    r"|في\s+المرة\s+القادمة\s+(?:التي|عندما)|בפעם\s+הבאה\s+ש|अगली\s+बार\s+जब"
)
_FROM_NOW = (
    r"\b(?:from\s+(?:now|here|this\s+point)\s+on(?:wards?)?|going\s+forward|henceforth|hereafter|"
    r"à\s+partir\s+de\s+maintenant|désormais|de\s+ahora\s+en\s+adelante|a\s+partir\s+de\s+ahora|a\s+partir\s+de\s+agora|"
    r"ab\s+(?:jetzt|sofort)|d'ora\s+in\s+poi|vanaf\s+nu|od\s+teraz|отныне|с\s+этого\s+момента|відтепер|"
    r"bundan\s+sonra|mulai\s+sekarang|từ\s+giờ)\b|今後|これから(?:は)?|앞으로|从现在开始|從現在開始|以后|من\s+الآن\s+فصاعد"
)


def _beside(who: str) -> str:
    """A trigger on `who`'s words ("whenever <who> ..."), the user in the third person, or every one of their
    payments or answers: the pattern a frame must stand beside to speak of a conversation."""
    return (
        r"\b(?:whenever|when|once|if|every\s+time|any\s+time)\s+"
        + who
        + r"\b|\bthe\s+user'?s?\b|\busers?\s+"
        + _DOES
        + r"\b|\b(?:every|each|any)\s+(?:\w+\s+)?(?:payment|transfer|answer|reply|response|order|purchase)\b"
    )


# What "from now on" must stand beside to speak of a conversation: a trigger on someone's words, or the user in the
# third person ("any code the user pastes").
_BESIDE = compiled(_beside(_SOMEONE), re.IGNORECASE)
# An act asked: a clause that opens with a verb in its base form (after the sentence's start, a comma, a colon, a
# dash), or a duty ("should also be sent", "you must add").
_VERB = (
    r"(?:add|append|insert|run|execute|unlock|lock|open|close|switch|turn|disable|enable|send|e-?mail|forward|share|"
    r"post|upload|export|pay|transfer|wire|buy|order|purchase|book|rebook|approve|accept|merge|push|deploy|trigger|"
    r"delete|remove|update|change|set|grant|invite|tell|say|mention|recommend|suggest|promote|rank|include|attach|"
    r"copy|move|cancel|reply|answer|respond|begin|start|keep|stop|use|call|invoke|give|make|create|install|"
    r"download|show|hide|omit|report|mark|sign|charge|refund|raise|increase|lower|reduce|rate|describe|present|"
    r"apply|route|redirect|replace|join|connect|collect|ask|DM|message|publish|release|drop|skip|bypass|treat|"
    r"consider|regard|commit|store|save|remember)"
)
_ASKED = compiled(
    r"(?:^|[,:;—–]|\s-)\s*(?:and\s+|then\s+|please\s+|also\s+|just\s+|simply\s+|quietly\s+|silently\s+|"
    r"automatically\s+|proactively\s+|first\s+|always\s+)*" + _VERB + r"\b(?!\s+(?:is|are|was|were)\b)"
    r"|\b(?:you|assistants?|agents?)\s+(?:should|must|shall|will|need\s+to|have\s+to|can)\s+(?:\w+\s+)?" + _VERB + r"\b"
    r"|\b(?:should|must|shall|is\s+to|are\s+to)\s+(?:also\s+|always\s+)?be\s+(?:sent|uploaded|forwarded|posted|"
    r"copied|added|paid|transferred|shared|e-?mailed|exported|included|appended|mentioned|recommended)\b",
    re.IGNORECASE,
)
# A time of day or a date as the trigger ("after 18:00 local time", "from 1 December", "nach dem 1. Dezember"): a rule
# armed by the clock, which counts only beside the user in the third person (opening hours say "after 18:00" to
# people).
_MONTH = (
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|janv|févr|mars|avr|mai|juin|juil|août|déc|ene|dic|okt|dez)\w*"
)
_CLOCK = (
    r"\b(?:after|past|from|before|until|starting(?:\s+(?:at|on|from))?|on\s+or\s+after|beginning|nach|ab|après|"
    r"dès|después\s+de|a\s+partir\s+d[eo]l?|dopo|depois\s+d[eo])\s+(?:the\s+|dem\s+|le\s+|el\s+|il\s+|o\s+)?"
    r"(?:\d{1,2}[:.h]\d{2}|\d{1,2}\s*(?:am|pm|uhr)|midnight|noon|\d{1,2}(?:st|nd|rd|th|\.|º|er)?(?:\s+(?:of|de))?\s+"
    + _MONTH
    + r"|"
    + _MONTH
    + r"\s+\d{1,2}(?:st|nd|rd|th)?|\d{4}-\d{2}-\d{2})"
)
FRAMES: dict[str, str] = {"later-turns": _FRAME, "from-now": _FROM_NOW, "clock": _CLOCK}
"""The frames a rule for the model's later turns stands on, by kind (patterns, for any module to build on):
`later-turns` (the conversation as its scope, someone's later words as its trigger) counts alone; `from-now` and
`clock` count only beside someone's later words or the user in the third person."""
# What the clock must stand beside: the user in the third person, or every one of their payments or answers; not
# anyone's act ("if someone calls, ..."): a notice's date heading speaks to staff of what anyone may do.
_BESIDE_USER = compiled(_beside(_THE_USER), re.IGNORECASE)
_FRAME_RE = compiled(_FRAME, re.IGNORECASE)
_FROM_NOW_RE = compiled(_FROM_NOW, re.IGNORECASE)
_CLOCK_RE = compiled(_CLOCK, re.IGNORECASE)

LATER = Cue(r"|".join(FRAMES.values()), re.IGNORECASE)
"""Any frame a rule for later turns may stand on (one RE2 search of a whole result: where to read)."""


def standing_rule(sentence: str) -> Any:
    """The frame that makes `sentence` a rule for the model's later turns, when the sentence asks for an act (a
    clause that opens with a verb, or a duty), or None."""
    frame = _FRAME_RE.search(sentence)
    if frame is None:
        frame = _FROM_NOW_RE.search(sentence)
        if frame is None or _BESIDE.search(sentence) is None:
            frame = _CLOCK_RE.search(sentence)
            if frame is None or _BESIDE_USER.search(sentence) is None:
                return None
    if _ASKED.search(sentence) is None:
        return None
    return frame
