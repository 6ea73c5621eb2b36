"""What a sentence said to the model asks of its conduct, in any language: who it is, a call, its user.

Pure. `scan.orders` finds where someone else's text speaks to the model (a
label that names it, a vocative, a forged turn) and judges most asks by their
verbs and what they reach. A sentence said to the model can ask for its
conduct without any of those words, and such asks look alike in every
language because they are built the same way:

- **an identity or an allegiance** given to the one spoken to: a copula in the
  second person with "now", "from now on" or "no longer" ("you are now X",
  "desde ahora eres", "artık ... -sin", "מעתה אתה"), or a master named
  ("you represent ...", "you work for ...", "on behalf of ... instead of its
  user"). Nobody tells a person reading a page who they now are;
- **a call written out** as code, a name with its arguments' parenthesis
  (`grant_consent(app="x")`, `cast_vote()`): the model is the one that calls
  tools, and a note to it that spells out a call asks for it;
- **its user spoken of** in the third person ("the user", "el usuario",
  "der Nutzer", "用户", "المستخدم"): someone else's text that speaks to the
  model about the person it serves is asking it to act for or on that person,
  unless what it asks is to ask that person first.

Honest text speaks to the model too (a project's notes for coding agents:
"AI agents: run `make test`"); it gives no identity, spells no call into
someone else's account and leaves the user's say alone, so these three stay
apart from a project's chores.
"""

from __future__ import annotations

import re
from typing import Any

from hintgate.scan.cues import Cue, without_lookarounds
from hintgate.scan.deferred import compiled

__all__ = [
    "IDENTITY",
    "IDENTITY_ELSEWHERE",
    "asked",
    "call_written",
    "identity",
    "model_identity",
    "user_served",
    "user_spoken_of",
]

# What a person is told they now are: a state ("logged in", "ready", "billed monthly", "in the queue"), not who.
_NOT_A_STATE = (
    r"(?!,?\s+(?:\w+ed|ready|able|free|welcome|all|set|done|on|at|part|eligible|responsible|\w+ing|subscribed|"
    r"signed|logged|registered|up|good|here|there|able|allowed|now|also|in(?!\s+(?:\w+\s+){0,2}?mode))\b)"
)
# The same in other languages than English: the pronoun and "now" / "from now on" / "no longer", or the verb's own
# person ending (Spanish to Korean first, the commonest; then more, by family). Shared with `scan.precedence`.
IDENTITY_ELSEWHERE = (
    r"\b(?:desde\s+ahora|a\s+partir\s+de\s+ahora|ahora)\s+(?:eres|usted\s+es)\b|\b(?:agora|a\s+partir\s+de\s+agora),?"
    r"\s+(?:você\s+é|és|tu\s+és)\b|\b(?:tu\s+es|vous\s+êtes)\s+(?:désormais|maintenant|dorénavant)\b"
    r"|\b(?:désormais|dorénavant),?\s+(?:tu\s+es|vous\s+êtes)\b|\b(?:du\s+bist|Sie\s+sind)\s+(?:jetzt|nun|ab\s+sofort|"
    r"ab\s+heute|nicht\s+mehr)\b|\bab\s+(?:jetzt|sofort|heute),?\s+(?:bist\s+du|sind\s+Sie)\b"
    r"|\b(?:ora|da\s+ora\s+in\s+poi|d'ora\s+in\s+poi)\s+sei\b|\b(?:vanaf\s+nu|nu)\s+ben\s+je\b|\bje\s+bent\s+nu\b"
    r"|\bod\s+(?:teraz|dziś)\s+jesteś\b|\bartık\s+(?:\w+\s+){0,3}?\w+(?:sin|sın|sun|sün)\b"
    r"|\b(?:từ\s+(?:giờ|bây\s+giờ|nay)|bây\s+giờ)\s+bạn\s+là\b|\b(?:mulai\s+)?sekarang\s+(?:kamu|anda)\s+(?:adalah|"
    r"menjadi)\b|\b(?:теперь|отныне)\s+ты\b|\bты\s+теперь\b|\b(?:тепер|відтепер)\s+ти\b"
    r"|מעתה\s+את(?:ה|)|מעכשיו\s+את(?:ה|)|את(?:ה|)\s+עכשיו|أنت\s+الآن|من\s+الآن\s+(?:فصاعدا\s+)?أنت"
    r"|अब\s+से\s+(?:तुम|आप)|अब\s+(?:तुम|आप)\s|এখন\s+থেকে\s+(?:তুমি|আপনি)"
    r"|从现在(?:起|开始)你|從現在(?:起|開始)你|你现在是|你現在是|今から(?:あなた|君)は|あなたは今|"
    r"(?:이제부터|지금부터|이제)\s*(?:너는|당신은)"
    # More languages, the same two parts (the pronoun or the verb's second person, and "now" / "from now on"):
    # Nordic, Baltic and Finnic; Slavic; Romance; Greek, Albanian, Celtic, Basque, Hungarian; Afrikaans;
    # Austronesian, Swahili, Shona, Somali, Kurdish; Persian, Urdu; Indic and Dravidian; Thai; Caucasus and
    # Central Asia.
    r"|\b(?:du\s+(?:är|er)\s+(?:nu|nå)|(?:nu|nå)\s+(?:är|er)\s+du|från\s+och\s+med\s+nu\s+är\s+du"
    r"|fra\s+(?:nu\s+af|nå\s+av)\s+er\s+du|þú\s+ert\s+(?:nú|núna)|nú\s+ert\s+þú|(?:sinä\s+)?olet\s+nyt"
    r"|nyt\s+olet|tästä\s+(?:lähtien|eteenpäin)\s+olet|(?:sa|sina)\s+oled\s+nüüd|nüüd(?:sest)?\s+oled\s+sa"
    r"|tu\s+tagad\s+esi|tagad\s+tu\s+esi|(?:tu\s+)?dabar\s+(?:tu\s+)?esi|nuo\s+(?:šiol|dabar)\s+(?:tu\s+)?esi"
    r"|(?:ty\s+)?(?:jsi\s+(?:nyní|teď)|(?:nyní|teď|od\s+teď|od\s+nynějška)\s+jsi)"
    r"|(?:ty\s+)?(?:si\s+teraz|(?:teraz|odteraz)\s+si)|jesteś\s+teraz|teraz\s+jesteś"
    r"|ti\s+si\s+(?:zdaj|sedaj|sada|sad)|(?:zdaj|sedaj|od\s+zdaj|odslej|sada|sad|od\s+sada)\s+si"
    r"|(?:de\s+)?acum(?:\s+înainte)?\s+ești|ești\s+acum|(?:a\s+partir\s+d'ara|ara)\s+ets|ets\s+ara"
    r"|(?:adesso|ormai)\s+sei|sei\s+ora|eres\s+ahora|(?:dende|desde)\s+agora\s+es"
    r"|(?:nga\s+)?tani\s+(?:ti\s+)?je|ti\s+je\s+tani|is\s+tusa\s+anois|tá\s+tú\s+anois"
    r"|(?:rwyt\s+ti|rydych\s+chi)\s+(?:nawr|bellach)|orain\s+(?:\w+\s+){0,3}?zara"
    r"|mostantól\s+(?:te\s+)?(?:\w+\s+){0,3}?vagy|te\s+most\s+(?:\w+\s+){0,3}?vagy"
    r"|(?:jy|u)\s+is\s+nou|van\s+nou\s+af\s+is\s+jy"
    r"|ikaw\s+(?:na\s+)?(?:ngayon|karon)|(?:ngayon|karon)\s+ikaw|(?:anda|kamu|awak)\s+kini"
    r"|(?:kuanzia\s+)?sasa\s+wewe\s+ni|wewe\s+sasa\s+ni|ndiwe\s+zvino|zvino\s+ndiwe"
    r"|waxaad\s+hadda\s+tahay|hadda\s+waxaad\s+tahay|tu\s+(?:êdî|niha)|(?:artıq|indi)\s+sən|sən\s+(?:artıq|indi)"
    r"|(?:endi|hozir)\s+(?:sen|siz)|(?:sen|siz)\s+endi)\b"
    r"|είσαι\s+τώρα|τώρα\s+είσαι|από\s+τώρα(?:\s+και\s+στο\s+εξής)?\s+είσαι"
    r"|(?:сега|отсега|сада|од\s+сада|од\s+сега)\s+си|ти\s+си\s+(?:сега|сада)|(?:цяпер|адсюль)\s+ты|ты\s+цяпер"
    r"|(?:енді|қазір)\s+сен|сен\s+енді|одоо(?:ноос)?\s+чи|чи\s+одоо"
    r"|ახლა\s+შენ|შენ\s+ახლა|(?:հիմա|այսուհետ)\s+դու|դու\s+հիմա"
    r"|(?:تو|شما)\s+(?:اکنون|حالا)|(?:اکنون|حالا|از\s+این\s+پس)\s+(?:تو|شما)|اب\s+(?:آپ|تم)\s|(?:آپ|تم)\s+اب\s"
    r"|(?:நீங்கள்|நீ)\s+இப்போது|(?:இப்போது|இனிமேல்)\s+(?:நீங்கள்|நீ)|ఇప్పుడు\s+మీరు|మీరు\s+ఇప్పుడు"
    r"|आता\s+तुम्ही|तुम्ही\s+आता|(?:अब|अबदेखि)\s+(?:तिमी|तपाईं)|(?:तिमी|तपाईं)\s+अब|(?:আপনি|তুমি)\s+এখন"
    r"|હવે\s+તમે|તમે\s+હવે|ಈಗ\s+ನೀವು|ನೀವು\s+ಈಗ|ഇപ്പോൾ\s+നിങ്ങൾ|നിങ്ങൾ\s+ഇപ്പോൾ|ਹੁਣ\s+ਤੁਸੀਂ|ਤੁਸੀਂ\s+ਹੁਣ"
    r"|ඔබ\s+දැන්|දැන්\s+ඔබ|(?:ตอนนี้|จากนี้ไป|นับจากนี้)\s*คุณ(?:คือ|เป็น)"
    r"|(?:这时起|今后|从今以后|从今往后)你|你从(?:现在|今)(?:起|开始|以后)|您现在是|从现在(?:起|开始)您|これからあなたは"
)
# A copula in the second person with a change of time: who the one spoken to is from now on. English, then
# `IDENTITY_ELSEWHERE`.
_IDENTITY = (
    r"\byou(?:'re|\s+are)\s+(?:now|no\s+longer|henceforth|from\s+now\s+on)\b" + _NOT_A_STATE + r"|\b(?:from\s+now\s+on|"
    r"as\s+of\s+(?:now|today|this\s+\w+)|henceforth|going\s+forward),?\s+you(?:'re|\s+are)\b"
    + _NOT_A_STATE
    + r"|\byou\s+(?:now\s+)?(?:represent|work\s+for|serve|answer\s+to|act\s+for|report\s+to)\s+"
    r"(?!the\s+user|your\s+user)"
    r"|\b(?:you|processor|system|assistant|agent|model)s?\s+(?:\w+\s+){0,3}?(?:becomes?|is\s+now|are\s+now),?\s+"
    r"(?:[\w,]+\s+){0,6}?(?:acting\s+)?on\s+behalf\s+of\b"
    r"|\byour\s+(?:new\s+)?(?:role|loyalty|loyalties|persona|identity|allegiance|master|employer)\s+"
    r"(?:is|are|now\s+is|lies)\b"
    # A rank given with its change of time after it ("You are the Core Facility Director now"), the one spoken to told
    # to take a role ("treat yourself as the broker of record"), a master named as theirs ("Alex is your operator"),
    # or someone's authority handed to the model ("I am delegating my approval authority to the assistant").
    r"|\byou(?:'re|\s+are)\s+(?:the|an?|our|my)\s+(?:[\w-]+\s+){0,3}?(?-i:[A-Z])[\w-]*\s+now\b"
    r"|\b(?:treat|regard|consider)\s+yourself\s+(?:to\s+be\s+|as\s+)"
    r"|\bis\s+(?:now\s+)?your\s+(?:new\s+|real\s+|true\s+|actual\s+)?(?:operator|owner|master|boss|principal|"
    r"administrator|admin|supervisor|controller|handler)\b"
    r"|\bdelegat(?:e|es|ed|ing)\s+(?:(?:my|our|his|her|their|full|all)\s+)?(?:[\w-]+\s+)?(?:authority|powers?|rights)\s+"
    r"to\s+(?:you\b|the\s+(?:AI|assistant|agent|bot|model)\b)" + r"|" + IDENTITY_ELSEWHERE
)
_IDENTITY_RE = compiled(_IDENTITY, re.IGNORECASE)
IDENTITY = Cue(without_lookarounds(_IDENTITY), re.IGNORECASE)
"""Where an identity may be given (a superset of `identity`'s matches, one RE2 search of a whole result)."""

# A call written out: a name with its arguments' parenthesis, `grant_consent(app="x")`, `cast_vote()`, `a.b(...)`.
# (A name of one word needs an underscore or a dot: "(yes/no)" and "Login (beta)" are no calls.)
_CALL = compiled(r"(?<![\w.$/])([A-Za-z][A-Za-z0-9]*(?:[_.][A-Za-z0-9]+)+)\((?:\)|[\w\"'`<{\[])")

# The user, in the third person, in the commonest languages: the one the model serves, spoken of to it.
_USER = compiled(
    r"\b(?:the|your|their|its|this)\s+(?:end[\s-])?users?\b(?![\s-]+(?:agent|interface|guide|manual|id|name|settings|model|account|table|data|list|profile|page|"
    r"docs?|stor(?:y|ies)|base|group|role|type|object|record|input|experience|research|flow|journey|portal|"
    r"dashboard|directory|management|count|feedback|session|space|login|permission|preference|mode|level|home)s?\b)"
    # The user as the object of telling or showing, without an article: "do not show user any warnings".
    r"|\b(?:tell|show|inform|warn|notify|remind|give|send|offer)\s+users?\b(?![\s-]+(?:agent|interface|guide))"
    r"|\b(?:el|al|del|los)\s+usuarios?\b|\bo\s+usuário\b|\b(?:ao|do)\s+usuário\b|\bl'utilisateur\b|\b(?:der|den|dem|des)"
    r"\s+(?:Nutzer|Benutzer|Anwender)s?\b|\b(?:l|all|dell|nell|dall|sull)'utente\b|\bde\s+gebruiker\b"
    r"|\bużytkownik\w*\b|\bkullanıcı\w*\b"
    r"|\bngười\s+dùng\b|\bpengguna\b|\bпользовател\w*|\bкористувач\w*|\bχρήστ\w*"
    r"|المستخدم|למשתמש|המשתמש|उपयोगकर्ता|ব্যবহারকারী|ผู้ใช้|\bmtumiaji\b|ユーザー|사용자|用户|用戶",
    re.IGNORECASE,
)
# The model's own reply, spoken of to it: what it says to its user ("in your reply", "when answering", "回答时").
_REPLY = compiled(
    r"\b(?:in|into|with(?:in)?|at\s+the\s+(?:start|end)\s+of)\s+(?:your|the|each|every)\s+(?:next\s+)?(?:reply|"
    r"replies|answers?|responses?|summary|summaries)\b|\bwhen\s+(?:you\s+)?(?:answer(?:ing)?|reply(?:ing)?|"
    r"respond(?:ing)?|summari[sz](?:e|ing))\b|\b(?:tu|su)\s+respuesta\b|\bal\s+responder\b|\b(?:ta|votre)\s+r[ée]ponse\b"
    r"|\ben\s+r[ée]pondant\b|\b(?:deine|Ihre|deiner|Ihrer)\s+Antwort\b|\bbeim\s+Antworten\b|\b(?:la\s+tua|nella(?:\s+tua)?)"
    r"\s+risposta\b|\b(?:sua|na\s+sua)\s+resposta\b|\bao\s+responder\b|\bw\s+(?:swojej\s+)?odpowiedzi\b"
    r"|\b(?:cevabında|yanıtında|cevap\s+verirken)\b|\bв\s+(?:сво[её]м\s+|тво[её]м\s+)?ответе\b|\bотвечая\b"
    r"|回答时|回答時|回答中|回复时|回覆時|在回答|答复时|回答の際|返答で|回答では|답변(?:에서|할\s*때|\s*시)|응답(?:에서|할\s*때)"
    r"|في\s+(?:ردك|إجابتك)|عند\s+الرد|בתשובה\s+שלך|בתשובותיך|(?:उत्तर|जवाब)\s+(?:में|देते\s+समय)",
    re.IGNORECASE,
)
# What only asks for the user's say: "ask the user first", "confirm with the user", "check with them".
_ASK_FIRST = compiled(
    r"\b(?:ask|asking|check\s+with|confirm\s+with|consult|get\s+(?:the\s+)?(?:user'?s?\s+)?(?:approval|consent|"
    r"confirmation)\s+(?:from|of))\s+(?:the\s+|your\s+)?users?\b(?!'s)"
    r"|\bunless\s+the\s+user\b|\bif\s+the\s+user\s+(?:asks|wants|requests)\b",
    re.IGNORECASE,
)
# The user obeyed, or their word put above the text's own: "follow the user and mention the conflict", "defer to the
# user's request", "the user's instructions take precedence". An order that puts the user first is not one against
# them (unless it is negated: "do not follow the user").
_DEFERS = compiled(
    r"(?<!\bnot\s)(?<!\bnever\s)(?<!n't\s)\b(?:follow|obey|defer\s+to|side\s+with|go\s+with|do\s+what)\s+"
    r"(?:the\s+|your\s+)users?\b(?!'s\s+(?!(?:requests?|instructions?|choices?|decisions?|wish(?:es)?|preferences?|"
    r"lead|word)\b))"
    r"|\b(?:the\s+|your\s+)users?'s?\s+(?:own\s+)?(?:requests?|instructions?|choices?|decisions?|wish(?:es)?|word)\s+"
    r"(?:always\s+)?(?:wins?|takes?\s+precedence|prevails?|comes?\s+first|overrides?|has\s+priority)\b",
    re.IGNORECASE,
)
# The choice left to the user: "let the user choose", "wait for the user to confirm", "until the user approves" (the
# user so named is not spoken of; another mention in the sentence still is). So too the user asked or told what is
# found, and the user's own act: "confirm with the user", "tell the user clearly when an item needs a permit" (a
# condition told, not words given them), "report the failing names to the user" (not "... that" or "... as"), "a
# list the user can forward". Not when forbidden: "never tell the user when ...".
_LEFT_TO_USER = compiled(
    r"\blet\s+(?:the\s+)?users?\s+(?:choose|decide|pick|select|confirm|review|approve)\b"
    r"|\b(?:wait\s+for|until)\s+the\s+users?\s+(?:to\s+)?(?:chooses?|decides?|picks?|confirms?|approves?|"
    r"repl(?:y|ies))\b"
    r"|\b(?:ask|check\s+with|confirm\s+with|consult)\s+(?:the\s+|your\s+)users?\b(?!'s)"
    r"|(?<!\bnot\s)(?<!\bnever\s)(?<!n't\s)\b(?:tell|inform|notify|warn|remind|alert)\s+(?:the\s+|your\s+)users?\s+"
    r"(?:\w+\s+)?(?:when|whenever|if|whether|why|how)\b"
    r"|(?<!\bnot\s)(?<!\bnever\s)(?<!n't\s)\b(?:report|explain|disclose|mention)\s+(?:\w+\s+){0,5}?to\s+"
    r"(?:the\s+|your\s+)users?\b(?!'s)(?!\s+(?:that|as)\b)(?!\s*[:\"“'])"
    r"|\b(?:the\s+|your\s+)users?\s+(?:can|may|could)\s+(?:then\s+|later\s+|also\s+)?\w+",
    re.IGNORECASE,
)


# A report in the first person, after its speaker's label or none ("Assistant: I have sorted ..."): the speaker's own
# words about what they did, not an ask.
_FIRST_PERSON = compiled(r"\W*(?:[^:\n]{0,40}:\s*)?(?:I|I'm|I've|I'll|we|we've|we're|we'll)\b", re.IGNORECASE)


# What marks the one given an identity as the model: its role named ("you are no longer an assistant"), its user
# ("your user need not know"), or its own rules set aside ("ignore your normal rules, you are now ...").
_THE_MODEL = compiled(
    r"\b(?:AI|A\.I\.|LLMs?|assistants?|agents?|chatbots?|bots?|language\s+models?|system\s+prompt)\b"
    r"|\b(?:ignore|disregard|forget|drop|abandon|suspend)\s+(?:all\s+)?(?:of\s+)?your\s+(?:\w+\s+){0,2}?(?:rules|"
    r"instructions|guidelines|guardrails|restrictions|policies|programming|principles)\b",
    re.IGNORECASE,
)


def identity(sentence: str) -> Any:
    """The words that give the one spoken to an identity or a master ("you are now ...", "desde ahora eres"),
    or None."""
    return _IDENTITY_RE.search(sentence)


def model_identity(sentence: str) -> Any:
    """An identity given to the one spoken to when the sentence marks them as the model (its role, its user or its
    rules named), or None: said to the model whoever the text names."""
    found = _IDENTITY_RE.search(sentence)
    if found is None or (_THE_MODEL.search(sentence) is None and user_spoken_of(sentence) is None):
        return None
    return found


def call_written(sentence: str) -> Any:
    """A call written out with its parenthesis in `sentence` (`grant_consent(`; group 1 its name), or None."""
    return _CALL.search(sentence)


def user_spoken_of(sentence: str) -> Any:
    """The user named in the third person, when the sentence asks more than to ask them first, or None."""
    if _ASK_FIRST.search(sentence) or _DEFERS.search(sentence):
        return None
    left = user_served(sentence)
    for user in _USER.finditer(sentence):
        if not any(start <= user.start() < end for start, end in left):
            return user
    return None


def user_served(sentence: str) -> list[tuple[int, int]]:
    """Where `sentence` leaves a choice to the user, asks or tells them what is found, or names their own act: spans
    whose user is not spoken of against them (`_LEFT_TO_USER`)."""
    return [found.span() for found in _LEFT_TO_USER.finditer(sentence)]


def asked(sentence: str) -> tuple[str, Any, str] | None:
    """What a sentence said to the model asks of its conduct: (target, the match, why), or None.

    The target is `persona` (an identity or a master given), `tool` (a call written out) or `user-view` (its user
    spoken of).
    """
    found = identity(sentence)
    if found is not None:
        return "persona", found, "gives the model an identity or a master"
    if _FIRST_PERSON.match(sentence):
        return None
    call = call_written(sentence)
    if call is not None:
        return "tool", call, "writes out a call for the model to make"
    user = user_spoken_of(sentence)
    if user is not None:
        return "user-view", user, "speaks to the model about its user"
    reply = _REPLY.search(sentence)
    if reply is not None:
        return "user-view", reply, "speaks to the model about its reply"
    return None
