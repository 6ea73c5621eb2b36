"""Orders to the model in languages other than English, judged by what they ask.

Pure. The phrases (`scan.phrases`) and the sentence judge (`scan.orders`)
read English and a set of common forms of about twenty languages. An order
written in another language, or in a form they do not know, is caught here
by its parts, each a small table per language written from the language's
grammar (its words for the model and the user, its negated imperatives), and
by signals no language changes (an e-mail address, a URL, a secret's path,
a credential's name, an IBAN, a phone number, a tool's snake_case name):

- a label or a greeting naming the model ("Note for the assistant:", "AI
  agent,") or the model as the subject of a duty ("the assistant must ..."),
  followed within two sentences by an ask that reaches beyond the tool:
  sending, a secret, an outside address, keeping something from the user,
  skipping the user's say, a verdict fixed whatever the data says;
- keeping something from the user ("do not tell the user", "the user need
  not be informed") beside an ask of that kind;
- skipping the user's say ("do not ask for confirmation", "already
  approved") beside the model named or such an ask;
- telling the model to drop its previous instructions.

A text whose letters are all ASCII is asked only about the languages written
in ASCII (one search of their words first): most definitions are English and
cost one `str.isascii` here. Honest text in these languages (a support reply,
a manual, a chat between people) tells a person what to do and names neither
the model nor a secret sent away: a manual's "deletes without asking for
confirmation" names no model, sends nothing and keeps nothing from anyone.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hintgate.scan.quoting import quotation_open

__all__ = ["Ask", "foreign_asks", "may_hold"]


@dataclass(frozen=True, slots=True)
class Ask:
    """An order found in a text: its span (from the first sentence it spans to the last) and why."""

    start: int
    end: int
    why: str


# Each language's forms, as regular-expression fragments (matched ignoring case). `ai`: the model named (assistant,
# AI, model, agent, bot); `user`: the user; `hide`: keeping something from someone (a negated "tell", "inform",
# "mention", "show"; "need not be informed"; "secretly"); `noask`: the user's say skipped (no confirmation asked,
# "without asking", "already approved"); `override`: previous instructions dropped; `send`: sending, forwarding,
# sharing, posting, uploading, transferring; `secret`: a password, a credential, a code, a card's number, the
# conversation, the system prompt; `fixed`: a verdict fixed whatever is true ("even if", "regardless", "always
# recommend"); `duty`: what someone must do ("must", "has to").
Table = Mapping[str, Sequence[str]]

_SPACED: dict[str, Table] = {
    "es": {
        "ai": (r"asistente", r"ia\b", r"inteligencia artificial", r"modelo", r"agente", r"bot\b"),
        "user": (r"usuari[oa]s?\b",),
        "hide": (
            r"no\s+(?:se\s+lo\s+|le\s+|lo\s+|les\s+)?(?:digas|diga|menciones|mencione|informes|informe|comuniques|"
            r"comunique|cuentes|cuente|reveles|revele|avises|avise|muestres|muestre)\b",
            r"sin\s+(?:informar|avisar|decir|notificar|que\s+(?:lo\s+)?sepa)",
            r"no\s+(?:es\s+necesario|hace\s+falta|hay\s+que)\s+(?:informar|avisar|decir|notificar|mencionar)",
            r"no\s+(?:deben|debe|se\s+deben|se\s+debe|han\s+de|ha\s+de)\s+(?:ser\s+)?(?:mencion\w*|report\w*|mostr\w*|"
            r"comunic\w*|revel\w*|inform\w*)",
            r"en\s+secreto\b",
        ),
        "noask": (
            r"sin\s+(?:pedir|solicitar|esperar)\s+(?:su\s+|la\s+)?(?:confirmaci[oó]n|permiso|autorizaci[oó]n|aprobaci[oó]n)",
            r"no\s+(?:pidas|pida|solicites|solicite)\s+(?:nunca\s+)?(?:su\s+|la\s+)?(?:confirmaci[oó]n|permiso|autorizaci[oó]n)",
            r"sin\s+preguntar",
            r"no\s+preguntes\b",
            r"(?:ya|previamente)\s+(?:ha\s+sido\s+|han\s+sido\s+|est[aá]n?\s+)?(?:aprobad|autorizad)\w*",
            r"pre-?(?:aprobad|autorizad)\w*",
        ),
        "override": (
            r"(?:ignora|ignore|olvida|olvide)\s+(?:todas\s+)?(?:las\s+)?(?:instrucciones|indicaciones)\s+(?:anteriores|previas)",
            r"(?:a\s+partir\s+de\s+ahora|desde\s+ahora)\s+(?:eres|ser[aá]s)\b",
        ),
        "send": (
            r"env[ií]\w*",
            r"reenv[ií]\w*",
            r"mand[ae]\w*",
            r"compart[ae]\w*",
            r"publica\w*",
            r"transfier\w*",
            r"transferir",
        ),
        "secret": (
            r"contrase[nñ]as?",
            r"credenciales?",
            r"c[oó]digos?\s+de\s+verificaci[oó]n",
            r"n[uú]mero\s+de\s+(?:la\s+)?tarjeta",
            r"historial",
            r"conversaci[oó]n",
            r"instrucciones\s+del\s+sistema",
        ),
        "fixed": (
            r"aunque\s+no\s+sea\s+(?:cierto|verdad)",
            r"independientemente",
            r"siempre\s+recomiend\w*",
            r"incluso\s+si\b",
        ),
        "duty": (r"debe\b", r"deber[aá]\b", r"tiene\s+que\b"),
    },
    "pt": {
        "ai": (r"assistente", r"ia\b", r"modelo", r"agente"),
        "user": (r"usu[aá]ri[oa]s?\b", r"utilizador\w*"),
        "hide": (
            r"n[aã]o\s+(?:lhe\s+)?(?:diga|conte|mencione|informe|avise|revele|comunique|mostre)\b",
            r"sem\s+(?:informar|avisar|contar|dizer|que\s+(?:ele|ela|o\s+usu[aá]rio)\s+saiba)",
            r"n[aã]o\s+(?:[eé]\s+necess[aá]rio|precisa)\s+(?:informar|avisar|contar|dizer|mencionar)",
            r"n[aã]o\s+(?:devem|deve|podem|pode)\s+(?:ser\s+)?(?:mencion\w*|report\w*|mostr\w*|comunic\w*|revel\w*|"
            r"inform\w*)",
            r"em\s+segredo\b",
            r"silenciosamente",
        ),
        "noask": (
            r"sem\s+(?:pedir|solicitar|aguardar)\s+(?:a\s+)?(?:confirma[cç][aã]o|permiss[aã]o|autoriza[cç][aã]o|aprova[cç][aã]o)",
            r"n[aã]o\s+(?:pe[cç]a|solicite|pergunte)\b",
            r"sem\s+perguntar",
            r"j[aá]\s+(?:foi\s+|foram\s+|est[aá]\s+|est[aã]o\s+)?(?:aprovad|autorizad)\w*",
            r"pr[eé]-?(?:aprovad|autorizad)\w*",
        ),
        "override": (
            r"(?:ignore|esque[cç]a)\s+(?:todas\s+)?(?:as\s+)?instru[cç][oõ]es\s+(?:anteriores|pr[eé]vias)",
            r"a\s+partir\s+de\s+agora\s+(?:voc[eê]\s+[eé]|tu\s+[eé]s)\b",
        ),
        "send": (r"envi[ea]\w*", r"encaminh\w*", r"mand[ea]\w*", r"compartilh\w*", r"partilh\w*", r"transfir\w*"),
        "secret": (
            r"senhas?",
            r"credenciais",
            r"c[oó]digos?\s+de\s+verifica[cç][aã]o",
            r"n[uú]mero\s+do\s+cart[aã]o",
            r"hist[oó]rico",
            r"conversa\b",
        ),
        "fixed": (r"mesmo\s+que\b", r"independentemente", r"sempre\s+recomend\w*", r"mesmo\s+se\b"),
        "duty": (r"deve\b", r"dever[aá]\b", r"tem\s+que\b"),
    },
    "fr": {
        "ai": (r"assistant", r"ia\b", r"l'ia\b", r"mod[eè]le", r"agent"),
        "user": (r"utilisat(?:eur|rice)s?\b",),
        "hide": (
            r"ne\s+(?:le\s+|l'|lui\s+|leur\s+|en\s+|rien\s+)*(?:dis|dites|mentionne[zs]?|informe[zs]?|signale[zs]?|"
            r"r[eé]v[eè]le[zs]?|pr[eé]viens|pr[eé]venez|montre[zs]?)\b",
            r"sans\s+(?:l'|le\s+|les\s+|en\s+|lui\s+)?(?:informer|pr[eé]venir|avertir|le\s+dire|mentionner)",
            r"(?:inutile|pas\s+besoin)\s+d'(?:en\s+)?(?:informer|avertir|pr[eé]venir|parler)",
            r"ne\s+(?:doi(?:t|vent)\s+pas\s+[eê]tre|(?:est|sont)\s+pas\s+[aà])\s+(?:mentionn\w*|signal\w*|montr\w*|"
            r"communiqu\w*|r[eé]v[eé]l\w*|cit\w*)",
            r"ne\s+(?:pas|jamais)\s+(?:mentionner|signaler|montrer|r[eé]v[eé]ler|communiquer)\b",
            r"en\s+silence\b",
            r"discr[eè]tement",
        ),
        "noask": (
            r"sans\s+(?:demander|solliciter|attendre)\s+(?:de\s+|la\s+|une\s+|d'|l'|son\s+|leur\s+)?"
            r"(?:confirmation|autorisation|permission|validation|accord)",
            r"ne\s+(?:demande|demandez)\s+(?:jamais\s+|pas\s+|aucune\s+)?(?:de\s+|la\s+|une\s+|d')?"
            r"(?:confirmation|autorisation|permission|validation)",
            r"sans\s+(?:lui\s+|leur\s+)?demander",
            r"d[eé]j[aà]\s+(?:[eé]t[eé]\s+)?(?:approuv|autoris|valid)\w*",
            r"pr[eé]-?(?:approuv|autoris)\w*",
        ),
        "override": (
            r"(?:ignore|oublie)[zs]?\s+(?:toutes\s+)?(?:les\s+)?(?:instructions|consignes)\s+(?:pr[eé]c[eé]dentes|ant[eé]rieures)",
            r"(?:[aà]\s+partir\s+de\s+maintenant|d[eé]sormais),?\s+(?:tu\s+es|vous\s+[eê]tes)\b",
        ),
        "send": (r"envoie\w*", r"envoy\w*", r"transmet\w*", r"transf[eè]r\w*", r"partag\w*", r"publie\w*"),
        "secret": (
            r"mots?\s+de\s+passe",
            r"identifiants",
            r"jetons?\b",
            r"codes?\s+de\s+v[eé]rification",
            r"num[eé]ro\s+de\s+carte",
            r"historique",
            r"conversation",
        ),
        "fixed": (
            r"m[eê]me\s+si\b",
            r"quel(?:le)?s?\s+que\s+soi",
            r"toujours\s+recommand\w*",
            r"recommande\s+toujours",
        ),
        "duty": (r"doit\b", r"devra\b"),
    },
    "it": {
        "ai": (r"assistente", r"ia\b", r"modello", r"agente"),
        "user": (r"utent[ei]\b",),
        "hide": (
            r"non\s+(?:dirlo|dire|dirglielo|menzionar\w*|informar\w*|avvisar\w*|rivelar\w*|comunicar\w*|mostrar\w*)\b",
            r"senza\s+(?:informar\w*|avvisar\w*|dir\w*)",
            r"non\s+(?:[eè]\s+necessario|serve|occorre)\s+(?:informar\w*|avvisar\w*|dir\w*)",
            r"non\s+(?:vanno|va|devono\s+essere|deve\s+essere|sono\s+da|[eè]\s+da)\s+(?:\w+\s+)?(?:menzionat\w*|"
            r"riportat\w*|segnalat\w*|mostrat\w*|comunicat\w*|rivelat\w*|citat\w*)",
            r"di\s+nascosto",
            r"in\s+silenzio",
            r"silenziosamente",
        ),
        "noask": (
            r"senza\s+(?:chiedere|richiedere|attendere)\s+(?:la\s+|il\s+)?(?:conferma|permesso|autorizzazione|consenso)",
            r"non\s+(?:chiedere|richiedere)\s+(?:mai\s+)?(?:la\s+)?(?:conferma|permesso|autorizzazione)",
            r"senza\s+chiedere",
            r"gi[aà]\s+(?:stat[oaie]\s+)?(?:approvat|autorizzat)\w*",
            r"pre-?(?:approvat|autorizzat)\w*",
        ),
        "override": (
            r"(?:ignora|dimentica)\s+(?:tutte\s+)?(?:le\s+)?istruzioni\s+(?:precedenti|di\s+sistema)",
            r"(?:da\s+ora\s+in\s+poi|d'ora\s+in\s+poi),?\s+(?:sei|tu\s+sei)\b",
        ),
        "send": (r"invi[ai]\w*", r"inoltr\w*", r"mand[ai]\w*", r"condivid\w*", r"pubblic\w*", r"trasferisc\w*"),
        "secret": (
            r"password",
            r"credenziali",
            r"codic[ei]\s+di\s+verifica",
            r"numero\s+della\s+carta",
            r"cronologia",
            r"conversazione",
        ),
        "fixed": (r"anche\s+se\b", r"indipendentemente", r"consiglia\s+sempre", r"sempre\s+consigli\w*"),
        "duty": (r"deve\b", r"dovr[aà]\b"),
    },
    "de": {
        "ai": (r"assistent\w*", r"ki\b", r"ki-\w+", r"modell\w*", r"agent\w*", r"sprachmodell\w*"),
        "user": (r"(?:be)?nutzer\w*", r"anwender\w*"),
        "hide": (
            r"(?:nicht|niemals|keinesfalls)\s+(?:mitteilen|erw[aä]hnen|informieren|sagen|verraten|benachrichtigen|zeigen)",
            r"nicht\s+(?:informiert|benachrichtigt|erw[aä]hnt|mitgeteilt|gesagt|hingewiesen)",
            r"(?:erw[aä]hne|sag|sage|verrate|informiere|erz[aä]hle|zeige)\s+(?:\w+\s+){0,3}(?:nicht|nichts|niemals|nie)\b",
            r"ohne\s+(?:den\s+|die\s+|das\s+)?\w*\s*(?:zu\s+informieren|zu\s+benachrichtigen|davon\s+zu\s+erz[aä]hlen|wissen)",
            r"stillschweigend",
            r"heimlich",
            r"unbemerkt",
        ),
        "noask": (
            r"ohne\s+(?:r[uü]ckfrage|best[aä]tigung|nachfrage|zustimmung|erlaubnis|genehmigung|zu\s+fragen|nachzufragen)",
            r"(?:frage|frag)\s+(?:\w+\s+){0,3}(?:nie|niemals|nicht)\s+(?:um|nach)",
            r"keine\s+(?:best[aä]tigung|r[uü]ckfrage|zustimmung)\s+(?:einholen|anfordern|erforderlich|n[oö]tig|notwendig)",
            r"bereits\s+(?:\w+\s+){0,3}(?:genehmigt|freigegeben|best[aä]tigt|autorisiert|erteilt)",
            r"vorab\s+(?:genehmigt|freigegeben)",
        ),
        "override": (
            r"(?:ignorier\w*|vergiss)\s+(?:alle\s+)?(?:vorherigen|bisherigen|fr[uü]heren|vorigen)\s+"
            r"(?:anweisungen|instruktionen|vorgaben)",
            r"(?:ab\s+jetzt|von\s+nun\s+an)\s+bist\s+du\b",
        ),
        "send": (
            r"sende\w*",
            r"schick\w*",
            r"[uü]bermittl\w*",
            r"weiterleit\w*",
            r"leite\s+\w+\s+weiter",
            r"teile?\b",
            r"lade\s+\w+\s+hoch",
            r"[uü]berweis\w*",
            r"\w*bcc\b",
        ),
        "secret": (
            r"passw[oö]rt\w*",
            r"kennw[oö]rt\w*",
            r"zugangsdaten",
            r"anmeldedaten",
            r"best[aä]tigungscode\w*",
            r"kartennummer\w*",
            r"verlauf\w*",
            r"gespr[aä]ch\w*",
            r"unterhaltung",
            r"pin(?:-codes?)?\b",
        ),
        "fixed": (r"auch\s+wenn\b", r"selbst\s+wenn\b", r"unabh[aä]ngig\s+davon", r"trotzdem", r"immer\s+empfehl\w*"),
        "duty": (r"muss\b", r"soll\b", r"hat\s+\w+\s+zu\b"),
    },
    "nl": {
        "ai": (r"assistent\w*", r"ai\b", r"model\b", r"agent\w*"),
        "user": (r"gebruiker\w*",),
        "hide": (
            r"(?:vertel|zeg|meld|noem|toon)\s+(?:\w+\s+){0,3}(?:niet|nooit|niets)\b",
            r"niet\s+(?:vertellen|melden|informeren|noemen|laten\s+weten)",
            r"zonder\s+(?:\w+\s+){0,2}(?:te\s+informeren|in\s+te\s+lichten|te\s+melden)",
            r"(?:niet|nooit)\s+(?:worden\s+|te\s+worden\s+)?(?:vermeld|genoemd|gemeld|getoond)\b",
            r"stilletjes",
            r"ongemerkt",
        ),
        "noask": (
            r"zonder\s+(?:bevestiging|toestemming|te\s+vragen|goedkeuring)",
            r"vraag\s+(?:\w+\s+)?(?:nooit|niet)\s+(?:om\s+)?(?:bevestiging|toestemming)",
            r"al\s+goedgekeurd",
            r"vooraf\s+goedgekeurd",
        ),
        "override": (r"(?:negeer|vergeet)\s+(?:alle\s+)?(?:eerdere|vorige)\s+(?:instructies|aanwijzingen)",),
        "send": (r"stuur\w*", r"verstuur\w*", r"doorsturen", r"deel\b", r"delen\b", r"publiceer\w*"),
        "secret": (r"wachtwoord\w*", r"inloggegevens", r"verificatiecode\w*", r"kaartnummer", r"gesprek\w*"),
        "fixed": (r"zelfs\s+als\b", r"ongeacht", r"altijd\s+aanbevel\w*", r"beveel\s+altijd"),
        "duty": (r"moet\b",),
    },
    "nordic": {  # Swedish, Norwegian, Danish
        "ai": (r"assistent\w*", r"ai\b", r"ki\b", r"modell\w*", r"agent\w*"),
        "user": (r"anv[aä]ndar\w*", r"bruker\w*", r"bruger\w*"),
        "hide": (
            r"(?:ber[aä]tta|s[aä]g|n[aä]mn|informera|fortell|si|nevn|fort[aæ]l|n[aæ]vn)\s+(?:\w+\s+){0,3}(?:inte|ikke|aldrig|aldri)\b",
            r"(?:inte|ikke)\s+(?:ber[aä]tta|n[aä]mna|informera|s[aä]ga|fortelle|nevne|informere|fort[aæ]lle)",
            r"(?:utan|uten|uden)\s+(?:att|[aå]|at)\s+(?:informera|meddela|ber[aä]tta|informere|fortelle|fort[aæ]lle)",
            r"(?:beh[oö]ver|trenger|beh[oø]ver)\s+(?:inte|ikke)\s+(?:\w+\s+)?(?:informeras|veta|meddelas|informeres|vite|vide)",
            r"i\s+tysthet",
        ),
        "noask": (
            r"(?:utan|uten|uden)\s+(?:bekr[aä]ftelse|bekreftelse|bekr[aæ]ftelse|att\s+fr[aå]ga|[aå]\s+sp[oø]rre|at\s+sp[oø]rge|"
            r"godk[aä]nnande|godkjenning|godkendelse|tillst[aå]nd|tillatelse|tilladelse)",
            r"(?:fr[aå]ga|be)\s+(?:\w+\s+)?(?:aldrig|inte)\s+om",
            r"(?:redan|allerede)\s+(?:godk[aä]n|godkjent|godkendt|auktoriser)\w*",
            r"f[oö]rgodk[aä]n\w*",
        ),
        "override": (
            r"(?:ignorera|glöm|ignorer|glem)\s+(?:alla\s+|alle\s+)?(?:tidigare|tidligere)\s+(?:instruktioner|instruksjoner|anvisningar)",
        ),
        "send": (r"skicka\w*", r"vidarebefordra\w*", r"videresend\w*", r"dela\b", r"del\b", r"publicera\w*", r"send\b"),
        "secret": (
            r"l[oö]senord\w*",
            r"passord\w*",
            r"adgangskode\w*",
            r"verifieringskod\w*",
            r"kortnummer",
            r"pin-?kod\w*",
        ),
        "fixed": (r"[aä]ven\s+om\b", r"oavsett", r"selv\s+om\b", r"uansett", r"rekommendera\s+alltid"),
        "duty": (r"m[aå]ste\b", r"skal\b", r"ska\b"),
    },
    "pl": {
        "ai": (r"asystent\w*", r"ai\b", r"sztuczn\w+\s+inteligencj\w*", r"model\w*", r"agent\w*"),
        "user": (r"u[zż]ytkownik\w*",),
        "hide": (
            r"nie\s+(?:m[oó]w|m[oó]wcie|informuj|wspominaj|ujawniaj|powiadamiaj|zg[lł]aszaj|pokazuj)\w*",
            r"bez\s+(?:informowania|wiedzy|powiadamiania|powiadomienia)",
            r"nie\s+(?:trzeba|nale[zż]y|musisz)\s+(?:\w+\s+)?(?:informowa[cć]|m[oó]wi[cć]|powiadamia[cć]|wspomina[cć])",
            r"po\s+cichu",
            r"potajemnie",
        ),
        "noask": (
            r"bez\s+(?:potwierdzenia|pytania|zgody|autoryzacji|akceptacji)",
            r"nie\s+(?:pytaj|pro[sś]|[zż][aą]daj)\w*",
            r"(?:ju[zż]|wcze[sś]niej|wst[eę]pnie)\s+(?:zatwierdzon|zaakceptowan|autoryzowan)\w*",
        ),
        "override": (
            r"(?:z?ignoruj|zapomnij)\s+(?:o\s+)?(?:wszystki\w+\s+)?(?:poprzedni\w*|wcze[sś]niejsz\w*)\s+(?:instrukcj|polece)\w*",
            r"od\s+teraz\s+jeste[sś]\b",
        ),
        "send": (
            r"wy[sś]lij\w*",
            r"wys[lł]a[cć]",
            r"przeka[zż]\w*",
            r"prze[sś]lij\w*",
            r"udost[eę]pnij\w*",
            r"opublikuj\w*",
            r"przelej\w*",
        ),
        "secret": (
            r"has[lł]\w*",
            r"dane\s+logowania",
            r"kod\w*\s+weryfikacyjn\w*",
            r"numer\w*\s+karty",
            r"rozmow\w*",
            r"histori\w*",
        ),
        "fixed": (r"nawet\s+je[sś]li\b", r"niezale[zż]nie", r"zawsze\s+(?:polecaj|rekomenduj)\w*"),
        "duty": (r"musi\b", r"powin\w+\b", r"nale[zż]y\b"),
    },
    "cs": {  # Czech and Slovak
        "ai": (r"asistent\w*", r"ai\b", r"um[eě]l\w+\s+inteligenc\w*", r"model\w*", r"agent\w*"),
        "user": (r"u[zž]ivatel\w*", r"pou[zž][ií]vate[lľ]\w*"),
        "hide": (
            r"ne(?:[rř][ií]kej|informuj|zmi[nň]uj|uv[aá]d[eě]j|sd[eě]luj|prozrazuj|upozor[nň]uj|hovor|ukazuj)\w*",
            r"bez\s+(?:v[eě]dom[ií]|informov[aá]n[ií]|upozorn[eě]n[ií]|vedomia)",
            r"nen[ií]\s+(?:t[rř]eba|nutn[eé]|potrebn[eé])\s+(?:\w+\s+)?(?:informovat|upozor[nň]ovat|[rř][ií]kat)",
            r"potichu",
            r"tajn[eě]",
        ),
        "noask": (
            r"bez\s+(?:potvrzen[ií]|potvrdenia|pt[aá]n[ií]|souhlasu|s[uú]hlasu|dotazu)",
            r"ne(?:ptej|[zž][aá]dej|vy[zž]aduj|p[yý]taj)\w*",
            r"(?:ji[zž]|u[zž]|p[rř]edem|vopred)\s+(?:schv[aá]len|autorizov[aá]n)\w*",
        ),
        "override": (
            r"(?:ignoruj|zapome[nň])\s+(?:na\s+)?(?:v[sš]echny\s+)?(?:p[rř]edchoz[ií]|d[rř][ií]v[eě]j[sš][ií])\s+(?:instrukce|pokyny)",
        ),
        "send": (
            r"po[sš]li\w*",
            r"poslat",
            r"ode[sš]li\w*",
            r"odeslat",
            r"p[rř]epo[sš]li\w*",
            r"sd[ií]lej\w*",
            r"nahraj\w*",
            r"odo[sš]li\w*",
        ),
        "secret": (
            r"hesl\w*",
            r"p[rř]ihla[sš]ovac[ií]\s+[uú]daj\w*",
            r"ov[eě][rř]ovac[ií]\s+k[oó]d\w*",
            r"[cč][ií]sl\w+\s+karty",
            r"konverzac\w*",
        ),
        "fixed": (r"i\s+kdy[zž]\b", r"bez\s+ohledu", r"v[zž]dy\s+doporu[cč]\w*"),
        "duty": (r"mus[ií]\b", r"m[aá]\s+povinnost"),
    },
    "ro": {
        "ai": (r"asistent\w*", r"ai\b", r"ia\b", r"model\w*", r"agent\w*"),
        "user": (r"utilizator\w*",),
        "hide": (
            r"nu\s+(?:[iî]i\s+)?(?:spune|spune[tț]i|men[tț]iona|men[tț]iona[tț]i|informa|informa[tț]i|dezv[aă]lui|anun[tț]a|ar[aă]ta)\b",
            r"f[aă]r[aă]\s+(?:a\s+|s[aă]\s+)?(?:informa|anun[tț]a|spune|[sș]tie)",
            r"nu\s+(?:este\s+)?nevoie\s+s[aă]\s+(?:informezi|anun[tț]i|spui)",
            r"[iî]n\s+secret",
        ),
        "noask": (
            r"f[aă]r[aă]\s+(?:confirmare|a\s+cere|s[aă]\s+ceri|aprobare|permisiune|acord)",
            r"nu\s+(?:cere|cere[tț]i|solicita)\s+(?:confirmare|aprobare|permisiune)",
            r"deja\s+(?:aprobat|autorizat)\w*",
            r"pre-?aprobat\w*",
        ),
        "override": (r"ignor[aă]\s+(?:toate\s+)?instruc[tț]iunile\s+(?:anterioare|precedente)",),
        "send": (r"trimite\w*", r"redirec[tț]ioneaz[aă]", r"partajeaz[aă]", r"public[aă]", r"transfer[aă]"),
        "secret": (
            r"parol\w*",
            r"creden[tț]ial\w*",
            r"cod\w*\s+de\s+verificare",
            r"num[aă]rul\s+cardului",
            r"conversa[tț]i\w*",
        ),
        "fixed": (
            r"chiar\s+dac[aă]\b",
            r"indiferent",
            r"recomand[aă]\s+[iî]ntotdeauna",
            r"[iî]ntotdeauna\s+recomand\w*",
        ),
        "duty": (r"trebuie\b",),
    },
    "hu": {
        "ai": (r"asszisztens\w*", r"ai\b", r"modell\w*", r"[uü]gyn[oö]k\w*", r"mesters[eé]ges\s+intelligencia"),
        "user": (r"felhaszn[aá]l[oó]\w*",),
        "hide": (
            r"ne\s+(?:mondd|sz[oó]lj|eml[ií]tsd|t[aá]j[eé]koztasd|[aá]ruld|jelezd|mutasd)\w*",
            r"(?:t[aá]j[eé]koztat[aá]s|[eé]rtes[ií]t[eé]s|sz[oó]l[aá]s)\s+n[eé]lk[uü]l",
            r"nem\s+kell\s+(?:\w+\s+)?(?:t[aá]j[eé]koztatni|sz[oó]lni|[eé]rtes[ií]teni|megeml[ií]teni)",
            r"titokban",
            r"csendben",
        ),
        "noask": (
            r"(?:meger[oő]s[ií]t[eé]s|j[oó]v[aá]hagy[aá]s|enged[eé]ly|k[eé]rdez[eé]s)\s+n[eé]lk[uü]l",
            r"ne\s+(?:k[eé]rj|k[eé]rjen|k[eé]rdezz|k[eé]rdezze)\w*",
            r"(?:m[aá]r|el[oő]zetesen)\s+(?:j[oó]v[aá]hagyt|enged[eé]lyezt)\w*",
        ),
        "override": (
            r"hagyd\s+figyelmen\s+k[ií]v[uü]l\s+(?:az\s+)?(?:[oö]sszes\s+)?(?:kor[aá]bbi|el[oő]z[oő])\s+utas[ií]t[aá]s\w*",
        ),
        "send": (
            r"k[uü]ldd\w*",
            r"k[uü]ldje\w*",
            r"tov[aá]bb[ií]tsd?\w*",
            r"oszd\s+meg",
            r"t[oö]ltsd\s+fel",
            r"tedd\s+k[oö]zz[eé]",
            r"utald\w*",
        ),
        "secret": (
            r"jelsz\w*",
            r"hiteles[ií]t[oő]\s+adat\w*",
            r"ellen[oő]rz[oő]\s+k[oó]d\w*",
            r"k[aá]rtyasz[aá]m\w*",
            r"besz[eé]lget[eé]s\w*",
        ),
        "fixed": (r"m[eé]g\s+ha\b", r"f[uü]ggetlen[uü]l", r"mindig\s+aj[aá]nl\w*"),
        "duty": (r"kell\b", r"k[oö]teles\b"),
    },
    "tr": {
        "ai": (r"asistan\w*", r"yapay\s+zek[aâ]\w*", r"model\w*", r"ajan\w*", r"bot(?:a|u|un|una|unu|lar\w*)?\b"),
        "user": (r"kullan[ıi]c[ıi]\w*",),
        "hide": (
            r"(?:s[öo]yleme|bahsetme|bildirme|haber\s+verme|belirtme|g[öo]sterme)(?:yin|yiniz|)\b",
            r"(?:s[öo]ylemeden|bildirmeden|haber\s+vermeden|fark\s+ettirmeden)",
            r"(?:bildirmenize|s[öo]ylemenize|haber\s+vermenize|bilgilendirmenize|bilmesine)\s+gerek\s+yok",
            r"sessizce",
            r"gizlice",
        ),
        "noask": (
            r"(?:onay|izin|teyit)\s+(?:almadan|istemeden|sormadan)",
            r"sormadan",
            r"(?:onay|izin|teyit)\s+(?:isteme|istemeyin|sorma|almay[ıi]n)\b",
            r"sorman[ıi]za\s+gerek\s+yok",
            r"(?:zaten|[öo]nceden)\s+onayla\w*",
        ),
        "override": (
            r"(?:[öo]nceki|t[üu]m)\s+(?:\w+\s+)?talimatlar\w*\s+(?:yok\s+say|unut|g[öo]rmezden\s+gel)\w*",
            r"bundan\s+sonra\s+sen\b",
        ),
        "send": (
            r"g[öo]nder\w*",
            r"ilet\w*",
            r"payla[şs]\w*",
            r"y[üu]kle\w*",
            r"yay[ıi]nla\w*",
            r"aktar\w*",
            r"ekle\b",
        ),
        "secret": (
            r"[şs]ifre\w*",
            r"parola\w*",
            r"kimlik\s+bilgi\w*",
            r"do[ğg]rulama\s+kod\w*",
            r"kart\s+numara\w*",
            r"sohbet\w*",
        ),
        "fixed": (r"olsa\s+bile\b", r"ne\s+olursa\s+olsun", r"her\s+zaman\s+[öo]ner\w*", r"daima\s+[öo]ner\w*"),
        "duty": (r"gerekir\b", r"zorunda\w*", r"mal[ıi]d[ıi]r\b", r"meli\w*\b", r"mal[ıi]\w*\b"),
    },
    "cyr": {  # Russian, Ukrainian, Bulgarian
        "ai": (
            r"ассистент\w*",
            r"асистент\w*",
            r"помощник\w*",
            r"помічник\w*",
            r"ии\b",
            r"ии-\w+",
            r"ші\b",
            r"ші-\w+",
            r"модел\w*",
            r"агент\w*",
            r"бот\w*",
            r"нейросет\w*",
            r"нейромереж\w*",
        ),
        "user": (r"пользовател\w*", r"користувач\w*", r"потребител\w*"),
        "hide": (
            r"не\s+(?:сообща|говор|упомина|рассказыва|информиру|уведомля|раскрыва|показыва|повідомля|каж|згаду|"
            r"розповіда|інформу|розкрива|казва|споменава|съобщава|информира)\w*",
            r"(?:сообщать|говорить|уведомлять|информировать|повідомляти|казати)\s+(?:\S+\s+){0,4}не\s+(?:нужно|надо|"
            r"следует|требуется|стоит|потрібно|треба)",
            r"без\s+(?:уведомлени|ведома|відома|повідомлен|знанието)\w*",
            r"не\s+(?:нужно|надо|потрібно|треба)\s+(?:\w+\s+)?(?:сообщать|уведомлять|говорить|информировать|повідомляти|казати)",
            r"незаметно",
            r"непомітно",
            r"тайно",
            r"таємно",
            r"молча",
            r"мовчки",
        ),
        "noask": (
            r"без\s+(?:подтвержден|согласован|разрешени|спроса|вопросов|запроса|підтвердженн|дозвол|погодженн|"
            r"потвърждение|разрешение|да\s+питаш)\w*",
            r"не\s+(?:спрашива|запрашива|проси|пита|запиту|искай)\w*",
            r"не\s+(?:нужно|надо|потрібно)\s+(?:\w+\s+)?(?:спрашивать|запрашивать|согласовывать|подтверждать|питати|погоджувати)",
            r"(?:согласовывать|спрашивать|погоджувати)\s+(?:\S+\s+){0,4}не\s+(?:нужно|надо|потрібно|треба)",
            r"(?:уже|заранее|предварительно|вже|заздалегідь|попередньо|вече)\s+(?:одобрен|согласован|разрешен|"
            r"подтвержд|авторизован|схвален|погоджен|дозволен|підтвердж|одобрен)\w*",
        ),
        "override": (
            r"(?:игнорируй|забудь|ігноруй|забудь|игнорирай)\w*\s+(?:все\s+|усі\s+|всі\s+|всички\s+)?(?:предыдущие|прежние|"
            r"попередні|предишни)\s+(?:инструкции|указания|інструкції|вказівки|инструкции)",
            r"(?:теперь|отныне|відтепер|тепер)\s+ты\b",
        ),
        "send": (
            r"отправ\w*",
            r"перешл\w*",
            r"пересыл\w*",
            r"пошли\w*",
            r"подели\w*",
            r"опубликуй\w*",
            r"переведи\w*",
            r"надішли\w*",
            r"надсила\w*",
            r"відправ\w*",
            r"поділи\w*",
            r"опублікуй\w*",
            r"переказ\w*",
            r"изпрати\w*",
            r"препрати\w*",
            r"сподели\w*",
        ),
        "secret": (
            r"парол\w*",
            r"учётн\w*\s+данн\w*",
            r"учетн\w*\s+данн\w*",
            r"облікові\s+дані",
            r"токен\w*",
            r"код\w*\s+(?:подтверждения|підтвердження)",
            r"номер\w*\s+карт\w*",
            r"переписк\w*",
            r"листуванн\w*",
            r"системн\w*\s+промпт\w*",
        ),
        "fixed": (
            r"даже\s+если\b",
            r"навіть\s+якщо\b",
            r"независимо",
            r"незалежно",
            r"всегда\s+рекомендуй\w*",
            r"завжди\s+рекомендуй\w*",
        ),
        "duty": (
            r"должен\b",
            r"должна\b",
            r"должно\b",
            r"обязан\w*",
            r"необходимо\b",
            r"следует\b",
            r"повинен\b",
            r"повинна\b",
            r"має\b",
            r"необхідно\b",
            r"трябва\b",
        ),
    },
    "el": {
        "ai": (r"βοηθ\w*", r"μοντέλο\w*", r"πράκτορ\w*", r"τεχνητή\s+νοημοσύνη", r"τν\b"),
        "user": (r"χρήστ\w*",),
        "hide": (
            r"μην\s+(?:το\s+|του\s+|της\s+)?(?:αναφέρ|πεις|πείτε|ενημερώσ|αποκαλύψ|δείξ)\w*",
            r"χωρίς\s+να\s+(?:ενημερώσ|πεις|το\s+ξέρει)\w*",
            r"δεν\s+χρειάζεται\s+να\s+(?:ενημερ|πει)\w*",
            r"κρυφά",
            r"σιωπηλά",
        ),
        "noask": (
            r"χωρίς\s+(?:επιβεβαίωση|έγκριση|άδεια|να\s+ρωτήσ\w*)",
            r"μην\s+(?:ζητ|ρωτ)\w*",
            r"(?:ήδη|προ)-?εγκεκριμέν\w*",
            r"έχει\s+ήδη\s+εγκριθεί",
        ),
        "override": (r"(?:αγνόησε|ξέχασε)\s+(?:όλες\s+)?(?:τις\s+)?(?:προηγούμενες\s+)?οδηγίες",),
        "send": (r"στείλ\w*", r"στέλν\w*", r"προώθησ\w*", r"μοιράσ\w*", r"δημοσίευσ\w*", r"ανέβασ\w*"),
        "secret": (r"κωδικ\w*\s+πρόσβασης", r"διαπιστευτήρια", r"αριθμό\w*\s+κάρτας", r"συνομιλ\w*", r"ιστορικό"),
        "fixed": (r"ακόμα\s+κι\s+αν\b", r"ανεξάρτητα", r"πάντα\s+να\s+προτείνεις"),
        "duty": (r"πρέπει\b",),
    },
    "id": {  # Indonesian and Malay
        "ai": (r"asisten\w*", r"pembantu", r"ai\b", r"model\b", r"agen\b", r"kecerdasan\s+buatan"),
        "user": (r"pengguna\w*",),
        "hide": (
            r"jangan\s+(?:di)?(?:beri\s*tahu|beritahu|memberitahu|bilang|katakan|sampaikan|sebutkan|tampilkan|ungkapkan|"
            r"kasih\s+tahu|informasikan|laporkan)\w*",
            r"tanpa\s+(?:memberi\s*tahu|memberitahu|sepengetahuan|diketahui)",
            r"tidak\s+perlu\s+(?:di)?(?:beri\s*tahu|memberitahu|diberitahu|tahu|mengetahui|dilaporkan|diinformasikan)",
            r"(?:secara\s+)?diam-diam",
        ),
        "noask": (
            r"tanpa\s+(?:konfirmasi|izin|bertanya|menanyakan|persetujuan|meminta)",
            r"jangan\s+(?:minta|meminta|tanyakan|menanyakan|bertanya)",
            r"tidak\s+perlu\s+(?:konfirmasi|izin|bertanya|meminta|persetujuan|mengonfirmasi|menanyakan|ditanya)",
            r"sudah\s+(?:disetujui|diotorisasi|diizinkan)",
        ),
        "override": (
            r"(?:abaikan|lupakan)\s+(?:semua\s+)?(?:instruksi|perintah|petunjuk)\s+(?:sebelumnya|terdahulu)",
            r"mulai\s+sekarang\s+(?:kamu|anda)\s+adalah",
        ),
        "send": (
            r"kirim\w*",
            r"teruskan",
            r"bagikan",
            r"unggah\w*",
            r"transfer\w*",
            r"hantar\w*",
            r"sertakan",
            r"masukkan",
        ),
        "secret": (
            r"kata\s+(?:sandi|laluan)",
            r"sandi",
            r"kredensial",
            r"kode\s+(?:verifikasi|otp)",
            r"nomor\s+kartu",
            r"riwayat\s+(?:obrolan|percakapan)",
            r"percakapan",
        ),
        "fixed": (r"meskipun\b", r"walaupun\b", r"terlepas\s+dari", r"selalu\s+(?:rekomendasikan|sarankan)"),
        "duty": (r"harus\b", r"wajib\b", r"perlu\b"),
    },
    "sw": {
        "ai": (r"msaidizi\w*", r"wasaidizi\w*", r"akili\s+bandia", r"ai\b", r"modeli\b", r"wakala\b"),
        "user": (r"mtumiaji\w*", r"watumiaji\w*"),
        "hide": (
            r"usim(?:wambie|julishe|taje|onyeshe)\w*",
            r"msim(?:wambie|julishe)\w*",
            r"usiseme\w*",
            r"bila\s+(?:kumwambia|kumjulisha|yeye\s+kujua)",
            r"kwa\s+siri",
            r"kimya\s+kimya",
        ),
        "noask": (
            r"bila\s+(?:kuuliza|idhini|ruhusa|uthibitisho|kuthibitisha)",
            r"usiulize\w*",
            r"usiombe\s+(?:idhini|ruhusa|uthibitisho)",
            r"tayari\s+(?:imeidhinishwa|imeruhusiwa)",
        ),
        "override": (
            r"puuza\s+maagizo\s+(?:yote\s+)?(?:ya\s+awali|yaliyotangulia|ya\s+hapo\s+awali|ya\s+zamani)",
            r"sahau\s+maagizo",
        ),
        "send": (r"tuma\b", r"itume\b", r"wasilisha\b", r"shiriki\b", r"pakia\b", r"peleka\b"),
        "secret": (
            r"nenosiri",
            r"neno\s+la\s+siri",
            r"nywila",
            r"msimbo\s+wa\s+uthibitisho",
            r"nambari\s+ya\s+kadi",
            r"mazungumzo",
        ),
        "fixed": (r"hata\s+kama\b", r"bila\s+kujali", r"daima\s+pendekeza"),
        "duty": (r"lazima\b", r"inapaswa\b", r"unapaswa\b"),
    },
    "vi": {
        "ai": (r"trợ\s+lý", r"ai\b", r"mô\s+hình", r"tác\s+nhân", r"trí\s+tuệ\s+nhân\s+tạo"),
        "user": (r"người\s+dùng",),
        "hide": (
            r"(?:đừng|không\s+được|chớ)\s+(?:nói|báo|tiết\s+lộ|đề\s+cập|thông\s+báo|hiển\s+thị|cho\s+\S+\s+biết)",
            r"không\s+cần\s+(?:báo|thông\s+báo|nói|cho\s+\S+\s+biết)",
            r"mà\s+không\s+(?:báo|thông\s+báo|nói|cho\s+\S+\s+biết)",
            r"âm\s+thầm",
            r"lặng\s+lẽ",
        ),
        "noask": (
            r"(?:không|đừng)\s+(?:cần\s+)?(?:hỏi|xin|yêu\s+cầu)\s+(?:xác\s+nhận|phép|lại|ý\s+kiến)",
            r"không\s+cần\s+hỏi",
            r"mà\s+không\s+(?:hỏi|cần\s+hỏi|xin\s+phép|xác\s+nhận)",
            r"đã\s+được\s+(?:phê\s+duyệt|chấp\s+thuận|cho\s+phép)",
        ),
        "override": (
            r"(?:bỏ\s+qua|quên)\s+(?:tất\s+cả\s+)?(?:các\s+)?(?:hướng\s+dẫn|chỉ\s+dẫn|chỉ\s+thị)\s+(?:trước|trước\s+đó)",
            r"từ\s+bây\s+giờ\s+bạn\s+là",
        ),
        "send": (r"gửi", r"chuyển\s+tiếp", r"chia\s+sẻ", r"tải\s+lên", r"đăng\s+lên"),
        "secret": (
            r"mật\s+khẩu",
            r"thông\s+tin\s+đăng\s+nhập",
            r"mã\s+(?:xác\s+minh|xác\s+nhận|otp)",
            r"số\s+thẻ",
            r"lịch\s+sử\s+(?:trò\s+chuyện|hội\s+thoại)",
            r"cuộc\s+trò\s+chuyện",
        ),
        "fixed": (r"ngay\s+cả\s+khi\b", r"bất\s+kể", r"luôn\s+(?:luôn\s+)?(?:đề\s+xuất|giới\s+thiệu|khuyên)"),
        "duty": (r"phải\b", r"cần\s+phải\b"),
    },
    "tl": {
        "ai": (r"katulong", r"asistant\w*", r"ai\b"),
        "user": (r"gumagamit",),
        "hide": (
            r"huwag\s+(?:mong\s+)?(?:sabihin|ipaalam|banggitin|ipakita)",
            r"nang\s+palihim",
            r"nang\s+hindi\s+(?:sinasabi|ipinapaalam)",
        ),
        "noask": (
            r"nang\s+hindi\s+nagtatanong",
            r"huwag\s+(?:magtanong|humingi\s+ng\s+kumpirmasyon)",
            r"aprubado\s+na",
        ),
        "override": (
            r"(?:huwag\s+pansinin|kalimutan)\s+(?:ang\s+)?(?:lahat\s+ng\s+)?(?:naunang|nakaraang)\s+(?:tagubilin|utos)",
        ),
        "send": (r"ipadala", r"ibahagi", r"i-forward", r"i-upload"),
        "secret": (r"password", r"kredensyal"),
        "fixed": (r"kahit\s+na\b",),
        "duty": (r"dapat\b", r"kailangan\b"),
    },
}

# Languages written without spaces between words, or whose words are not ASCII word characters: their fragments
# are matched anywhere.
_UNSPACED: dict[str, Table] = {
    "ar": {
        "ai": (r"المساعد", r"مساعد", r"الذكاء\s+الاصطناعي", r"النموذج", r"الوكيل"),
        "user": (r"المستخدم", r"مستخدم"),
        "hide": (
            r"لا\s+(?:ت|تُ)(?:خبر|ذكر|علم|بلغ|كشف|ظهر|عرض|شير)",
            r"(?:دون|بدون)\s+(?:علم|إبلاغ|إخبار|إعلام)",
            r"سر(?:ًا|ا|اً)(?:\s|$)",
            r"بصمت",
        ),
        "noask": (
            r"(?:دون|بدون)\s+(?:تأكيد|طلب|موافقة|إذن|سؤال|الرجوع)",
            r"لا\s+(?:ت|تُ)(?:طلب|سأل)",
            r"معتمد\S*\s+مسبق",
            r"موافق\S*\s+عليه\S*\s+مسبق",
            r"تمت\s+الموافقة",
        ),
        "override": (r"تجاهل\s+(?:جميع\s+|كل\s+)?(?:التعليمات|الأوامر|الإرشادات)\s+السابقة",),
        "send": (r"أرسل", r"ارسل", r"إرسال", r"أعد\s+توجيه", r"شارك", r"انشر", r"حوّل", r"ارفع"),
        "secret": (
            r"كلم(?:ة|ات)\s+(?:المرور|السر)",
            r"بيانات\s+(?:الاعتماد|الدخول)",
            r"رمز\s+التحقق",
            r"رقم\s+البطاقة",
            r"المحادثة",
            r"سجل\s+المحادث",
        ),
        "fixed": (r"حتى\s+لو", r"بغض\s+النظر", r"بصرف\s+النظر", r"دائم(?:ًا|ا)\s+أوص"),
        "duty": (r"يجب", r"عليك", r"ينبغي"),
    },
    "fa": {
        "ai": (r"دستیار", r"هوش\s+مصنوعی", r"مدل", r"عامل"),
        "user": (r"کاربر",),
        "hide": (
            r"(?:نگو|نگویید|اطلاع\s+نده|ذکر\s+نکن|فاش\s+نکن|نشان\s+نده|چیزی\s+نگو)",
            r"بدون\s+(?:اطلاع|اینکه)",
            r"مخفیانه",
            r"پنهانی",
            r"بی‌صدا",
        ),
        "noask": (
            r"بدون\s+(?:تأیید|تایید|اجازه|پرسیدن|سوال)",
            r"(?:تأیید|تایید|اجازه)\s+(?:نخواه|نگیر)",
            r"نپرس",
            r"از\s+قبل\s+(?:تأیید|تایید)",
        ),
        "override": (r"(?:دستورالعمل|دستور)\S*\s+(?:های\s+)?قبلی\s+را\s+(?:نادیده\s+بگیر|فراموش\s+کن)",),
        "send": (r"بفرست", r"ارسال\s+کن", r"فوروارد", r"به\s+اشتراک\s+بگذار", r"منتشر\s+کن", r"قرار\s+بده"),
        "secret": (
            r"رمز\s+عبور",
            r"گذرواژه",
            r"کد\s+(?:تأیید|تایید)",
            r"شماره\s+کارت",
            r"تاریخچه",
            r"گفتگو",
            r"مکالمه",
            r"متغیرهای\s+محیطی",
            r"پرامپت",
        ),
        "fixed": (r"حتی\s+اگر", r"صرف\s+نظر\s+از", r"همیشه\s+توصیه"),
        "duty": (r"باید",),
    },
    "he": {
        "ai": (r"(?:ה|ל|של\s)?עוזר", r"בינה\s+מלאכותית", r"(?:ה|ל)?מודל", r"(?:ה|ל)?סוכן"),
        "user": (r"(?:ה|ל|מ)?משתמש",),
        "hide": (
            r"אל\s+(?:ת|תְּ)(?:ספר|גיד|ציין|זכיר|ודיע|חשוף|ראה)",
            r"אין\s+(?:צורך\s+)?(?:ל)?(?:הודיע|ספר|ציין|יידע)",
            r"(?:בלי|ללא)\s+(?:לספר|להודיע|ידיעת|לידיעת|הודעה)",
            r"בסתר",
            r"בשקט",
        ),
        "noask": (
            r"(?:בלי|ללא)\s+(?:אישור|לשאול|לבקש)",
            r"אל\s+(?:תבקש|תשאל)",
            r"(?:אושר|מאושר)\S*\s+מראש",
            r"אין\s+צורך\s+(?:לשאול|לבקש|באישור)",
            r"האישור\s+כבר\s+ניתן",
        ),
        "override": (r"התעלם\s+(?:מכל\s+|מ)?(?:ה)?הוראות\s+(?:ה)?קודמות", r"שכח\s+(?:את\s+)?(?:כל\s+)?ההוראות"),
        "send": (r"שלח", r"לשלוח", r"העבר", r"להעביר", r"שתף", r"לשתף", r"פרסם", r"לפרסם", r"העלה"),
        "secret": (r"סיסמ", r"פרטי\s+(?:ה)?התחברות", r"קוד\s+(?:ה)?אימות", r"מספר\s+(?:ה)?כרטיס", r"השיחה"),
        "fixed": (r"גם\s+אם", r"בלי\s+קשר", r"תמיד\s+המלץ"),
        "duty": (r"חייב", r"יש\s+ל", r"עליך"),
    },
    "hi": {  # Hindi and Bengali
        "ai": (r"सहायक", r"एआई", r"मॉडल", r"एजेंट", r"असिस्टेंट", r"সহকারী", r"এআই", r"মডেল", r"এজেন্ট"),
        "user": (r"उपयोगकर्ता", r"यूज़र", r"यूजर", r"ব্যবহারকারী"),
        "hide": (
            r"(?:मत|न)\s+(?:बताएं|बताएँ|बताना|बताओ|बताइए|कहें|कहना|दिखाएं|सूचित\s+करें)",
            r"बिना\s+(?:बताए|सूचित\s+किए)",
            r"बताने\s+की\s+(?:ज़रूरत|जरूरत)\s+नहीं",
            r"केवल\s+यह\s+बताएं",
            r"चुपचाप",
            r"गुप्त\s+रूप\s+से",
            r"বলবে(?:ন)?\s+না",
            r"বলো\s+না",
            r"জানাবে(?:ন)?\s+না",
            r"না\s+জানিয়ে",
            r"না\s+বলে",
            r"গোপনে",
            r"চুপচাপ",
        ),
        "noask": (
            r"बिना\s+(?:पूछे|पुष्टि|अनुमति|अनुमोदन)",
            r"(?:पुष्टि|अनुमति)\s+(?:न|मत)\s+(?:मांगें|मांगे|लें|मांगना)",
            r"पहले\s+से\s+(?:स्वीकृत|अनुमोदित|मंजूर)",
            r"(?:নিশ্চিতকরণ|অনুমতি)\s+ছাড়া",
            r"জিজ্ঞাসা\s+না\s+করে",
            r"আগে\s+থেকেই\s+অনুমোদিত",
        ),
        "override": (
            r"(?:पिछले|पहले\s+के)\s+(?:सभी\s+)?(?:निर्देशों|निर्देश)\s+(?:को\s+)?(?:अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल)",
            r"পূর্ববর্তী\s+(?:সব\s+)?নির্দেশ\S*\s+(?:উপেক্ষা|ভুলে)",
        ),
        "send": (
            r"भेजें",
            r"भेजो",
            r"भेजना",
            r"भेज\s+दें",
            r"फॉरवर्ड",
            r"साझा\s+करें",
            r"शेयर\s+करें",
            r"ईमेल\s+करें",
            r"अपलोड",
            r"পাঠাও",
            r"পাঠান",
            r"পাঠিয়ে",
            r"ফরোয়ার্ড",
            r"শেয়ার",
        ),
        "secret": (
            r"पासवर्ड",
            r"क्रेडेंशियल",
            r"ओटीपी",
            r"सत्यापन\s+कोड",
            r"कार्ड\s+नंबर",
            r"बातचीत",
            r"পাসওয়ার্ড",
            r"ওটিপি",
            r"কার্ড\s+নম্বর",
            r"কথোপকথন",
        ),
        "fixed": (r"भले\s+ही", r"चाहे\s+", r"हमेशा\s+(?:सुझाव|सिफारिश)"),
        "duty": (r"चाहिए", r"अवश्य", r"জরুরি", r"অবশ্যই"),
    },
    "th": {
        "ai": (r"ผู้ช่วย", r"เอไอ", r"โมเดล", r"เอเจนต์", r"(?<![a-z])ai(?![a-z])"),
        "user": (r"ผู้ใช้",),
        "hide": (r"(?:ห้าม|อย่า|ไม่ต้อง)(?:บอก|แจ้ง|แสดง|เปิดเผย|กล่าวถึง)", r"โดยไม่(?:ต้อง)?(?:บอก|แจ้ง)", r"แอบ", r"อย่างเงียบ"),
        "noask": (
            r"โดยไม่(?:ต้อง)?(?:ขอ|ถาม|ยืนยัน)",
            r"(?:ไม่ต้อง|อย่า|ห้าม)(?:ขอ|ถาม|ยืนยัน)",
            r"อนุมัติ(?:ไว้)?แล้ว",
            r"อนุมัติล่วงหน้า",
        ),
        "override": (r"(?:เพิกเฉย|ละเว้น|ลืม|ไม่ต้องสนใจ)(?:ต่อ)?คำสั่ง(?:ก่อนหน้า|ทั้งหมด|เดิม)", r"ตั้งแต่นี้(?:ไป)?คุณคือ"),
        "send": (r"ส่ง", r"แชร์", r"อัปโหลด", r"โพสต์", r"โอน", r"ใส่"),
        "secret": (r"รหัสผ่าน", r"โทเค็น", r"รหัส\s*otp", r"รหัสยืนยัน", r"หมายเลขบัตร", r"ประวัติการสนทนา", r"บทสนทนา"),
        "fixed": (r"แม้ว่า", r"ไม่ว่า", r"แนะนำ\S*เสมอ", r"ทุกชิ้น"),
        "duty": (r"ต้อง", r"จะต้อง"),
    },
    "zh": {
        "ai": (r"助手", r"助理", r"人工智能", r"(?<![a-z])ai(?![a-z])", r"模型", r"智能体", r"代理"),
        "user": (r"用户", r"用戶", r"使用者"),
        "hide": (
            r"不要(?:告诉|告訴|告知|透露|提及|提到|显示|顯示|通知|让|讓|跟)",
            r"别(?:告诉|告知|透露|提)",
            r"勿(?:告知|透露)",
            r"(?:无需|無需|不必|不用)(?:告知|通知|告诉|告訴|让|讓)",
            r"悄悄",
            r"静默",
            r"靜默",
            r"秘密地",
            r"暗中",
        ),
        "noask": (
            r"(?:无需|無需|不需要|不用|不必)(?:再)?(?:确认|確認|询问|詢問|征得|批准|同意|请求|請求)",
            r"不要(?:询问|詢問|征求|请求确认)",
            r"已(?:经)?(?:获得|獲得)?(?:批准|授权|授權)",
            r"预先(?:批准|授权)",
            r"預先(?:批准|授權)",
        ),
        "override": (
            r"忽略(?:之前|先前|以前|上述|所有)(?:的)?(?:所有)?(?:指令|指示|说明|說明|规则|規則)",
            r"(?:之前|先前)的(?:指令|指示)(?:全部|都)?(?:无效|無效|作废|作廢)",
            r"从现在起你是",
            r"從現在起你是",
        ),
        "send": (
            r"发送",
            r"發送",
            r"发到",
            r"發到",
            r"发给",
            r"發給",
            r"转发",
            r"轉發",
            r"分享",
            r"上传",
            r"上傳",
            r"抄送",
            r"转账",
            r"轉帳",
            r"汇款",
            r"匯款",
        ),
        "secret": (
            r"密码",
            r"密碼",
            r"凭据",
            r"憑據",
            r"凭证",
            r"憑證",
            r"令牌",
            r"验证码",
            r"驗證碼",
            r"卡号",
            r"卡號",
            r"聊天记录",
            r"聊天記錄",
            r"对话记录",
            r"對話記錄",
            r"系统提示",
            r"系統提示",
            r"私钥",
            r"私鑰",
        ),
        "fixed": (r"无论", r"無論", r"不管", r"都要推荐", r"都要推薦", r"始终推荐", r"一律"),
        "duty": (r"必须", r"必須", r"务必", r"務必"),
    },
    "ja": {
        "ai": (r"アシスタント", r"(?<![a-z])ai(?![a-z])", r"モデル", r"エージェント", r"人工知能"),
        "user": (r"ユーザー", r"利用者"),
        "hide": (
            r"(?:伝え|言わ|知らせ|通知し|表示し|明かさ|言及し|教え)(?:ないで|ず|ないこと|ないように)",
            r"(?:知らせる|伝える|通知する)必要はありません",
            r"黙って",
            r"こっそり",
            r"密かに",
            r"内緒",
        ),
        "noask": (
            r"確認(?:せず|不要|しないで|を求めないで|は不要)",
            r"(?:承認|許可)(?:済み|不要)",
            r"(?:尋ね|聞か)ずに",
            r"事前承認",
        ),
        "override": (
            r"(?:以前|これまで|前)の指示(?:をすべて|を全て|は全て|はすべて)?(?:無視|無効|忘れ)",
            r"今後あなたは",
            r"これ以降、?あなたは",
        ),
        "send": (r"送信", r"送って", r"転送", r"共有", r"アップロード", r"投稿", r"送付", r"振り込", r"貼り付け"),
        "secret": (
            r"パスワード",
            r"認証情報",
            r"トークン",
            r"確認コード",
            r"認証コード",
            r"カード番号",
            r"会話",
            r"秘密鍵",
            r"システムプロンプト",
        ),
        "fixed": (r"たとえ", r"かかわらず", r"必ず.{0,10}(?:推奨|おすすめ|勧め)"),
        "duty": (r"なければなりません", r"必要があります", r"必ず"),
    },
    "ko": {
        "ai": (r"어시스턴트", r"비서", r"도우미", r"(?<![a-z])ai(?![a-z])", r"모델", r"에이전트", r"인공지능"),
        "user": (r"사용자", r"유저"),
        "hide": (
            r"(?:알리지|말하지|언급하지|표시하지|보여주지|공개하지|밝히지)\s?(?:마세요|마십시오|말고|말\s것|마|않)",
            r"알릴\s?필요(?:가)?\s?없",
            r"몰래",
            r"조용히",
        ),
        "noask": (
            r"(?:확인|승인|허락|동의)(?:을|를)?\s?(?:구하지|묻지|요청하지|받지)\s?(?:마세요|말고|않)",
            r"묻지\s?말고",
            r"확인\s?없이",
            r"(?:이미|사전)\s?승인",
        ),
        "override": (
            r"(?:이전|앞선|기존)(?:의)?\s(?:모든\s)?(?:지시|지침|명령)(?:사항)?(?:을|를|은|는)?\s(?:무시|잊|무효)",
        ),
        "send": (r"보내", r"전송", r"전달", r"공유", r"업로드", r"게시", r"송금", r"넣"),
        "secret": (
            r"비밀번호",
            r"암호",
            r"자격\s?증명",
            r"토큰",
            r"인증\s?(?:코드|번호)",
            r"카드\s?번호",
            r"대화",
            r"개인\s?키",
        ),
        "fixed": (r"하더라도", r"상관없이", r"관계없이", r"항상\s?추천"),
        "duty": (r"해야", r"반드시"),
    },
}

_CATEGORIES = ("ai", "user", "hide", "noask", "override", "send", "secret", "fixed", "duty")
_ASCII_LANGUAGES = ("id", "sw", "tl")


def _compiled(tables: Mapping[str, Table], languages: Sequence[str], category: str, *, spaced: bool) -> str:
    parts = [fragment for language in languages for fragment in tables[language].get(category, ())]
    if not parts:
        return r"(?!)"
    body = "|".join(parts)
    return rf"(?<!\w)(?:{body})" if spaced else f"(?:{body})"


def _patterns(languages: Sequence[str] | None) -> dict[str, re.Pattern[str]]:
    spaced = [lang for lang in _SPACED if languages is None or lang in languages]
    unspaced = [lang for lang in _UNSPACED if languages is None or lang in languages]
    out = {}
    for category in _CATEGORIES:
        either = [
            _compiled(_SPACED, spaced, category, spaced=True) if spaced else r"(?!)",
            _compiled(_UNSPACED, unspaced, category, spaced=False) if unspaced else r"(?!)",
        ]
        out[category] = re.compile("|".join(either), re.IGNORECASE)
    return out


_ALL = _patterns(None)
_ASCII = _patterns(_ASCII_LANGUAGES)
# Every rule needs one of these in the sentence it starts from.
_ANCHORED = {
    languages: re.compile(
        "|".join(patterns[category].pattern for category in ("ai", "hide", "noask", "override")), re.I
    )
    for languages, patterns in ((None, _ALL), (_ASCII_LANGUAGES, _ASCII))
}
# One search says whether an ASCII text can be in one of the ASCII-written languages at all.
_ASCII_GATE = re.compile(
    r"\b(?:pengguna|asisten|jangan|tanpa|kirim|mtumiaji|msaidizi|usim\w+|bila|tuma|huwag|gumagamit|katulong)\b",
    re.IGNORECASE,
)
# A text in another language written without a letter beyond ASCII ("Asistente: no le digas nada al usuario") names
# the model or the user in one of these words: it is read in every language.
_LATIN_GATE = re.compile(
    r"\b(?:asistente|assistente|asystent\w*|asistan\w*|asistent\w*|usuari[oa]s?|utente|utenti|utilisateur\w*|"
    r"nutzer\w*|benutzer\w*|gebruiker\w*|anvandare\w*|brukere?n?|uzytkownik\w*|uzivatel\w*|kullanici\w*|"
    r"utilizator\w*|felhasznalo\w*|assistent\w*)\b"
    # An order to drop previous instructions in a language written in ASCII ("Negeer eerdere instructies") needs no
    # word for the model or the user: every language's form of it opens the gate too.
    rf"|\b(?:{_compiled(_SPACED, list(_SPACED), 'override', spaced=False)})",
    re.IGNORECASE,
)

_EITHER_GATE = re.compile(f"{_LATIN_GATE.pattern}|{_ASCII_GATE.pattern}", re.IGNORECASE)

# Signals no language changes: where data goes (an address, a URL, an account, a phone), a secret's path or name,
# another tool's name.
_TARGET = re.compile(
    r"[\w.+-]+@[\w-]+\.[\w.-]*[a-z]"
    r"|https?://"
    r"|~/\.?\w|\.ssh\b|id_(?:rsa|ed25519|ecdsa)\b|(?<![\w])\.env\b|\.aws\b|\.netrc\b|\.npmrc\b|\.pypirc\b|hosts\.yml"
    r"|\.kube/|\.git-credentials|\bprintenv\b|/etc/(?:passwd|shadow)\b"
    r"|\b[A-Z][A-Z0-9]*_(?:TOKEN|KEY|SECRET|PASSWORD|URL|PASS)\b"
    r"|\b(?:password|passwd|api[\s_-]?keys?|access[\s_-]?tokens?|secret[\s_-]?keys?|credentials|otp|2fa|private\s+keys?)\b"
    r"|\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){3,}"
    r"|\+\d[\d\s-]{7,}\d"
    r"|(?-i:\b[a-z][a-z0-9]*_[a-z0-9_]*[a-z0-9]\b)",
    re.IGNORECASE,
)
# A sentence ends at its stop, a line break or a closing full stop of the scripts without spaces.
_STOP = re.compile(r"[.!?;\u0e46]\s+|\n+|[。！？؟।]")
# A label: up to seventy characters from a sentence's start to its colon, comma or dash (the note's addressee).
_LABEL = re.compile(r"[^:：,،、—\n]{0,70}?(?:[:：]|[,،、!]\s|\s[—–-]\s)")
# Who said a line of a chat log or a transcript, before what they said: a time stamp, a handle or a name and a colon
# ("[12:10] jorge.b: ", "10:42 <raj> ", "Amit: "). What they said opens after it, and so does its label.
_SPEAKER = re.compile(
    r"(?:\[?\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp][Mm])?\]?\s+)?(?:<[\w.@-]{1,32}>|[\w.@-]{1,32}(?:\s[\w.@-]{1,32})?:)\s+"
)
_WINDOW = 3
_SHORTEST = 12


@dataclass(frozen=True, slots=True)
class _Sentence:
    start: int
    end: int
    found: frozenset[str]
    addressed: bool


def may_hold(text: str) -> bool:
    """Whether `text` (a tool's texts joined, say) can hold an order `foreign_asks` finds: it has a letter beyond
    ASCII or a word of the languages written in ASCII. One search, so that an English tool costs little more."""
    return not text.isascii() or _gated(text, _EITHER_GATE)


def foreign_asks(text: str) -> Iterator[Ask]:
    """The orders to the model `text` holds in a language other than English, by the rules of the module docstring."""
    if len(text) < _SHORTEST:
        return
    if text.isascii():
        if _gated(text, _LATIN_GATE):
            patterns, languages = _ALL, None
        elif _gated(text, _ASCII_GATE):
            patterns, languages = _ASCII, _ASCII_LANGUAGES
        else:
            return
    else:
        patterns, languages = _ALL, None
    finder = _finder(languages, _ANCHORS)
    # Every rule needs the model named, something kept from the user, the user's say skipped or previous instructions
    # dropped: one linear search (RE2) finds where those stand, and only the sentences around them are read.
    if finder is not None:
        low = text.lower()
        strict = _ANCHORED[languages]
        # RE2's looser forms find more (a word inside a longer one): Python's form confirms each where it starts.
        shift = len(low) == len(text)
        anchors = [m.start() for m in finder.finditer(low) if not shift or strict.match(text, m.start())]
        if not anchors:
            return
    spans = _spans(text)
    wanted: Sequence[int]
    if finder is None:
        wanted = range(len(spans))
    else:
        starts = [start for start, _ in spans]
        wanted = sorted({max(0, bisect.bisect_right(starts, at) - 1) for at in anchors})
    empty = frozenset[str]()
    sentences = [_Sentence(start, end, empty, addressed=False) for start, end in spans]
    reader = _Reader(text, patterns, languages)
    for k in {k for i in wanted for k in range(max(0, i - _WINDOW + 1), min(len(spans), i + _WINDOW))}:
        sentences[k] = reader.read(*spans[k])
    last = -1
    for i in wanted:
        if i <= last:
            continue
        found = _judged(sentences, i)
        if found is not None:
            first, end, why = found
            last = end
            yield Ask(sentences[first].start, sentences[end].end, why)


def _spans(text: str) -> list[tuple[int, int]]:
    spans = []
    at = 0
    for stop in [*_STOP.finditer(text), None]:
        if stop is None:
            end = next_at = len(text)
        else:
            # A stop of a sentence stays in it; a line break does not.
            end = stop.start() if stop.group()[0] == "\n" else stop.start() + 1
            next_at = stop.end()
        if end > at and not text[at:end].isspace():
            spans.append((at, end))
        at = next_at
    return spans


_LOOKAROUND = re.compile(r"\(\?<?[!=][^()]*\)")
# Python's classes as RE2 reads them, looser: a word's optional rest and its boundaries dropped, a space of any kind.
_RE2_FORMS = {
    "\\w*": "",
    "\\w+": "[^\\s]",
    "\\w": "[^\\s]",
    "\\b": "",
    "\\s+": "[\\s\\x{a0}\\x{202f}]+",
    "\\s*": "[\\s\\x{a0}\\x{202f}]*",
    "\\s?": "[\\s\\x{a0}\\x{202f}]?",
    "\\s": "[\\s\\x{a0}\\x{202f}]",
    "\\S+": "[^\\s]+",
    "\\S*": "[^\\s]*",
    "\\S": "[^\\s]",
}
_ESCAPE = re.compile(r"\\[wsS][*+?]?|\\b|\\.|[^\\]+")


def _loose(fragment: str) -> str:
    """A fragment as RE2 can search the lowered text for it: lower case, no lookaround, small classes."""
    out = []
    for part in _ESCAPE.findall(_LOOKAROUND.sub("", fragment)):
        out.append(_RE2_FORMS.get(part, part) if part.startswith("\\") else part.lower())
    return "".join(out)


def _gated(text: str, gate: re.Pattern[str]) -> bool:
    """Whether `gate` matches in the ASCII `text` (by RE2 when it is there: linear)."""
    fast = _gate(gate.pattern)
    return (fast.search(text) if fast is not None else gate.search(text)) is not None


@functools.cache
def _gate(pattern: str) -> Any:
    """A gate's pattern in RE2 (ignoring case); None without RE2."""
    try:
        import re2
    except ImportError:  # pragma: no cover - google-re2 is a dependency
        return None
    options = re2.Options()
    options.log_errors = False
    options.case_sensitive = False
    return re2.compile(pattern, options)


_ANCHORS = ("ai", "hide", "noask", "override")


@functools.cache
def _finder(languages: tuple[str, ...] | None, categories: tuple[str, ...]) -> Any:
    """One RE2 pattern of the forms of `categories` in `languages` (all when None), to search the lowered text with,
    looser than Python's forms (a match of Python's starts where one of these does); None without RE2."""
    try:
        import re2
    except ImportError:  # pragma: no cover - google-re2 is a dependency
        return None
    parts: list[str] = []
    for tables in (_SPACED, _UNSPACED):
        for language, table in tables.items():
            if languages is not None and language not in languages:
                continue
            for category in categories:
                parts.extend(_loose(fragment) for fragment in table.get(category, ()))
    options = re2.Options()
    options.log_errors = False
    options.max_mem = 32 << 20
    try:
        return re2.compile("|".join(parts) or "$^", options)
    except re2.error:  # pragma: no cover - every fragment is RE2's syntax once its lookarounds are gone
        return None


@functools.cache
def _target_finder() -> Any:
    """`_TARGET` in RE2, looser (no lookbehind); None without RE2."""
    try:
        import re2
    except ImportError:  # pragma: no cover - google-re2 is a dependency
        return None
    options = re2.Options()
    options.log_errors = False
    try:
        return re2.compile("(?i)" + _LOOKAROUND.sub("", _TARGET.pattern), options)
    except re2.error:  # pragma: no cover - the pattern is RE2's syntax once its lookbehind is gone
        return None


class _Reader:
    """Reads sentences of one text: each part is looked for by RE2 (linear) and confirmed by Python's form where RE2
    found it, so a long sentence costs one linear pass a part."""

    def __init__(self, text: str, patterns: Mapping[str, re.Pattern[str]], languages: tuple[str, ...] | None) -> None:
        self.text = text
        low = text.lower()
        # A letter whose lower case is longer ("İ") shifts the offsets: Python's forms are then searched alone.
        self.low = low if len(low) == len(text) else None
        self.patterns = patterns
        self.languages = languages

    def holds(self, strict: re.Pattern[str], loose: Any, start: int, end: int, *, lowered: bool = True) -> int | None:
        """Where `strict` matches in `text[start:end]` first, or None."""
        if loose is None or (lowered and self.low is None):
            found = strict.search(self.text, start, end)
            return None if found is None else found.start()
        chunk = (self.low if lowered else self.text)[start:end]  # type: ignore[index]
        for hit in loose.finditer(chunk):
            # Python's form matches where RE2's looser one starts, or nowhere near.
            where: int = start + hit.start()
            if strict.match(self.text, where, end) is not None:
                return where
        return None

    def read(self, start: int, end: int) -> _Sentence:
        text, patterns = self.text, self.patterns
        if not _foreign(text, start, end):
            return _Sentence(start, end, frozenset(), addressed=False)
        at: dict[str, int] = {}
        for category, pattern in patterns.items():
            where = self.holds(pattern, _finder(self.languages, (category,)), start, end)
            if where is not None:
                at[category] = where
        if self.holds(_TARGET, _target_finder(), start, end, lowered=False) is not None:
            at["target"] = start
        found = set(at)
        addressed = False
        if "ai" in found:
            label = _LABEL.match(text, start, end)
            speaker = _SPEAKER.match(text, start, end)
            if speaker is not None and (label is None or at["ai"] >= label.end()):
                label = _LABEL.match(text, speaker.end(), end)
            if label is not None and at["ai"] < label.end():
                ai = at["ai"]
                # The model named in a label ("Note for the assistant:") or greeted at the sentence's start ("AI,
                # ..."), not a product's name ("Home Assistant") nor a quotation's word.
                addressed = not quotation_open(text[start:ai]) and not _PRODUCT.search(text[max(start, ai - 40) : ai])
            if not addressed and "duty" in found:
                addressed = True  # "the assistant must ...": the model as the subject of a duty
        if "override" in found and quotation_open(text[start : at["override"]]):
            found.discard("override")  # an attack quoted as the subject of a warning or a report
        return _Sentence(start, end, frozenset(found), addressed)


# Letters beyond ASCII that are no look-alike of English text: any letter past Latin-1's punctuation.
_BEYOND_ASCII = re.compile(r"[^\x00-\x7f\u2000-\u2bff\u00a0-\u00bf\u00d7\u00f7]")
# Words that carry the grammar of the commonest Latin-script languages and are no English words.
_FUNCTION_WORDS = re.compile(
    r"(?<![./@])\b(?:el|los|las|del|que|para|por|con|una|sin|como|os|da|dos|das|com|uma|ao|seu|sua|le|les|des|du|pour|avec|"
    r"une|est|pas|ne|sur|aux|ce|cette|vous|tu|il|gli|della|di|che|sono|der|das|und|nicht|mit|ein|eine|ist|zu|dem|"
    r"auf|sie|wird|bei|het|een|en|van|niet|voor|met|zijn|wordt|och|att|det|som|inte|ett|og|ikke|til|er|nie|na|"
    r"się|dla|oraz|je|se|pro|si|cu|pe|nu|este|pentru|az|nem|hogy|egy|ve|bir|bu|ile|dan|yang|di|ke|untuk|dengan|"
    r"ini|itu|tidak|dari|ya|wa|kwa|ni|za|katika|ang|ng|sa|mga)\b",
    re.IGNORECASE,
)
# A capitalised word right before the model's name, not the sentence's first, makes it a product's name ("calls Home
# Assistant", "with Google Assistant").
_PRODUCT = re.compile(r"\S\s+[A-Z][a-z]+\s+$")
# How much of a sentence its function words are looked for in: a longer "sentence" is data, not prose.
_READ_FOR_LANGUAGE = 4000


def _foreign(text: str, start: int, end: int) -> bool:
    """Whether a sentence is in a language other than English: letters beyond ASCII, or two of its function words."""
    letters = 0
    for beyond in _BEYOND_ASCII.finditer(text, start, end):
        letters += beyond.group().isalpha()
        if letters >= 3:
            return True
    if _ASCII_GATE.search(text, start, end) or _LATIN_GATE.search(text, start, end):
        return True  # the model or the user named in a word of another language
    hits: set[str] = set()
    for word in _FUNCTION_WORDS.finditer(text, start, min(end, start + _READ_FOR_LANGUAGE)):
        hits.add(word.group().lower())
        # A letter or two beyond ASCII ("φ(q)", "Café") with no function word is an English sentence.
        if len(hits) >= (1 if letters else 2):
            return True
    return False


def _judged(sentences: Sequence[_Sentence], i: int) -> tuple[int, int, str] | None:
    here = sentences[i]
    after = sentences[i : i + _WINDOW]
    around = sentences[max(0, i - _WINDOW + 1) : i + 1]
    if "override" in here.found:
        return i, i, "tells the model to drop its previous instructions"
    if here.addressed:
        asks = [_reaches(s.found) for s in after]
        if any(asks):
            end = i + max(k for k, ask in enumerate(asks) if ask)
            return i, end, "addresses the model and asks it to " + _asked(set().union(*asks))
    if "hide" in here.found and ("user" in here.found or _names_user(sentences, i)):
        near = set().union(*(s.found for s in around))
        if near & {"send", "target", "noask", "fixed"} or any(s.addressed for s in around):
            # From the first sentence of the ask the concealment covers.
            first = i - len(around) + 1
            while (
                first < i
                and not (sentences[first].found & {"send", "target", "noask", "fixed"})
                and not (sentences[first].addressed)
            ):
                first += 1
            return first, i, "asks the model to keep what it does from the user"
    if "noask" in here.found:
        near = set().union(*(s.found for s in around), *(s.found for s in after))
        if any(s.addressed for s in around) or ("hide" in near) or ({"send", "target"} <= near):
            return i, i, "asks the model to act without the user's say"
    return None


def _reaches(found: frozenset[str]) -> set[str]:
    """What of a sentence's parts reaches beyond the tool: a secret counts only when it is sent."""
    reach = set(found & {"target", "hide", "noask", "fixed"})
    if "secret" in found and "send" in found:
        reach.add("secret")
    return reach


def _names_user(sentences: Sequence[_Sentence], i: int) -> bool:
    return any("user" in s.found for s in sentences[max(0, i - 1) : i + 1])


def _asked(reach: set[str]) -> str:
    if "hide" in reach:
        return "keep something from the user"
    if "noask" in reach:
        return "act without the user's say"
    if "secret" in reach:
        return "handle a secret or the conversation"
    if "target" in reach:
        return "send data to an address or another tool"
    if "fixed" in reach:
        return "tell the user a verdict fixed in advance"
    return "send data on"
