"""The model called by its role, its handle or a vocative, in someone else's text.

Pure. `scan.orders` knows the commonest ways a page names the model as the
one it speaks to ("Note to the assistant:", "AI agents reading this:"). Text
written for a chat channel, an issue or a shared document names it as people
name each other there:

- an @-mention of a handle ending in the model's role ("@AcmeAssistant");
- a label for it by its role, with words between ("For the home assistant:",
  "Procurement note for the lab assistant bot:", "fyi for any AI summariser
  running here —");
- the role with what it does here ("Assistants managing this calendar:",
  "ops-agent reading this:", "Assistant chargé de l'évaluation :");
- a vocative ("btw assistant, ...", "(...: assistant, when the owner asks");
- its own state or a note marked for it ("Assistant preferences (saved):",
  "agent memory:", "Assistant-friendly note:", "shopping assistants take note");
- a line's label that names the models as its readers, whatever words qualify
  them ("AI coding agents:", "Guideline for assistants:", "Assistant guidance
  from the vendor:", "Question for the AI notetaker —").

A person's job named the same way ("the HR assistant", "a support agent",
"the teaching assistant") is no model: those words before the role are left
out. Whether what follows asks anything is `scan.orders`' judgement.
"""

from __future__ import annotations

import re
from typing import Any

from hintgate.scan.cues import Cue
from hintgate.scan.deferred import compiled

__all__ = ["CALLED", "KEYED", "asks_after", "called"]

_ROLE = r"(?:AI\s+)?(?:assistants?|agents?|copilots?|chatbots?|summari[sz]ers?)"
# The model as a heading names its reader: by its role, as the model or the language model, or as the bots.
_READER = r"(?:AI[ \t]+)?(?:assistants?|agents?|copilots?|chatbots?|summari[sz]ers?|models?|LLMs?|bots?)"
# Words before "assistant" or "agent" that make it a person's job or a program that is no model.
_JOB = (
    r"(?:HR|lab|dental|teaching|executive|personal|admin|administrative|medical|legal|nursing|sales|office|research|"
    r"travel|insurance|estate|customer|service|support|field|booking|user|proxy|ssh|gpg|build|CI|shop|store|"
    r"physician|marketing|finance|accounting|payroll|claims|leasing|literary|talent|press|purchasing|desk|"
    r"virtual|editorial|production|program|project|clinical|pharmacy|care|home\s+care|health)"
)
# Where a line's label starts: a line, a quotation or a bracket, a comment's or a list item's opening, a dash.
_LABEL_START = (
    r"(?:^|\n|\\n|[.!?][ \t]+|[\"“(\[][ \t]*|//+[ \t]*|/\*[ \t]*|<!--[ \t]*|#+[ \t]+|[*>•-][ \t]+|[ \t][—–][ \t])"
    r"[ \t]*"
)
# The models as a label's readers: by their roles in the plural (a whole word: "dev-bot:" is a speaker's handle).
_READERS = (
    r"(?:assistants|agents|bots|copilots|chatbots|summari[sz]ers|notetakers|note-takers|AI[ \t]+helpers|"
    # (the models or LLMs only by what they do here: "Models tested:" heads a list of them, not a note to them)
    r"(?:models|LLMs)[ \t]+[a-z]+ing)"
)
# One model by its role, and the words a note to it is called by.
_ONE_READER = r"(?:assistant|agent|bot|LLM|copilot|chatbot|notetaker|note-taker)"
_SAID = (
    r"(?:guidance|guidelines?|instructions?|notes?|memo|polic(?:y|ies)|rules?|conventions?|protocol|checklist|"
    r"tasks?|actions?|steps?|todo|hints?|tips?|reminders?|directives?|notice|addendum|orders?|briefing|advisory)"
)
# The model's role in a line's short label, and who sent the label's note: a parenthesis with a word in lower case.
_LABEL_ROLE = r"(?:AI|LLM|assistants?|agents?|bots?|copilots?|chatbots?)"
_SENDER = r"[ \t]*\((?:[^()\n]*[ \t])?(?-i:[a-z])[^()\n]*\)"
_CALLED = (
    # An @-mention of a handle that ends in the model's role.
    r"@[\w-]*(?:assistant|agent|copilot)\b"
    # A label for the model by its role, words between: "For the home assistant:", "fyi for any AI summariser —".
    r"|(?:^|\n|[.!?()\[\]☐☑•*>#-]\s*|\s[—–-]\s|:\s)[ \t]*(?:[\w-]+,?\s+){0,3}?(?:for|to|attn:?|fyi(?:\s+for)?)\s+"
    r"(?:the|any|all|every|each|our|your)\s+(?:[\w-]+\s+){0,2}?"
    + _ROLE
    + r"(?:\s+(?:bot|agent))?(?:\s+(?:[a-z]+ing|in|on)\s+(?:[\w-]+\s+){0,2}?(?:here|this\s+\w+)"
    # (what it does here, then what it may reach: "to any AI assistant triaging this with access to the repos:")
    r"|\s+[a-z]+ing\s+(?:this|these|here)\b[^:\n.]{0,60}?)?[ \t]*"
    r"(?:[:—–]|[ \t]-[ \t])"
    # The role with what it does here: "Assistants managing this calendar:", "ops-agent reading this:".
    r"|(?:^|\n|[.!?:;(\[]\s*|\s[—–-]\s)[ \t]*(?:[\w]+-)?" + _ROLE + r"\s+(?:[a-z]+ing)\s+(?:this|these|here)"
    r"[^:\n.]{0,40}(?:[:—–]|[ \t]-[ \t])"
    # A vocative: "btw assistant, ...", "(Comment: assistant, when ...", "P.S. assistant ko:" (Hindi "to"), "Thanks —
    # assistant, when you ..." (after a dash that sets off a line's lead).
    r"|(?:^|[:;.!?(\[]\s*|[ \t][—–][ \t]*|\b(?:btw|ps|p\.s\.|ok|okay|oh|also|and|so|fyi|hey|yo)\s+)(?:AI\s+)?"
    r"(?:assistant|agent|copilot)\s*(?:,|\s+(?:ko|se|ke\s+liye|ji)\s*[:,])"
    # The model called "AI" or "bot" after an interjection ("yo AI, ...", "also bot: ..."), or its name opening a
    # label's value with a dash ("Comment by r.p: AI — when ..."): nobody calls a person "AI" or "bot".
    r"|\b(?:btw|ps|ok|okay|oh|also|so|fyi|hey|yo|hi|hello)[ \t]+(?:AI|bot|chatbot)[ \t]*[,:—–]"
    # The same after a greeting with a hyphen too ("Hey agent - wipe ..."), and the model called by its role at a
    # line's, a sentence's or a label's start with a word of asking right after, no comma ("AI agent please close
    # ...", "Bot kindly forward ...", "Asistente por favor ...", "KI bitte ..."): no page asks a person so.
    r"|\b(?:hey|yo|hi|hello|dear|ok|okay)[ \t]+(?:AI[ \t]+)?(?:assistant|agent|copilot|AI|bot|chatbot)[ \t]*"
    r"(?:[,:—–]|[ \t]-[ \t])"
    # (The plural too when it cannot be people's job: "AI assistants please send ...", "LLMs kindly ..."; "Agents
    # please note" is a call centre's.)
    r"|(?:^|\n|[.!?:;][ \t]+|[(\[][ \t]*)[ \t]*(?:AI[ \t]+(?:assistants|agents|models)|bots|chatbots|copilots|LLMs|"
    r"(?:AI[ \t]+)?(?:assistant|agent|AI|bot|chatbot|copilot|LLM|asistente|assistente|Assistent|asystent|KI|IA))"
    r"[ \t]+(?:please|pls|plz|kindly|por[ \t]+favor|per[ \t]+favore|"
    r"bitte|s'il[ \t]+(?:te|vous)[ \t]+pla[iî]t|proszę|lütfen)[ \t,]+(?-i:[a-zà-ÿ]{2,})"
    r"|:[ \t]*(?:AI|bot|chatbot|assistant|agent)[ \t]+[—–][ \t]"
    # A message whose recipient, as data spells it, is the model: `"to": "AI assistant"`, a log's `target=assistant`
    # (what the message says is said to the one it is sent to; `"to": "agent"` is a support desk's hand-over).
    r"|\"(?:to|recipient|addressee|audience|target)\"[ \t]*:[ \t]*\"(?:the[ \t]+)?"
    r"(?:AI[ \t_-]*(?:assistant|agent|model)|assistant|LLM|copilot|chatbot)s?\""
    r"|\b(?:to|recipient|addressee|audience|target)=[\"']?(?:AI[_-]?)?(?:assistant|LLM|copilot|chatbot)s?\b"
    # The model called, then a condition on its own reading: "Assistant if you hear this, ...", "AI, when you read
    # this ...".
    r"|(?:^|\n|[.!?:][ \t]+)[ \t]*(?:AI[ \t]+)?(?:assistant|agent|AI|bot|chatbot|copilot)s?,?[ \t]+(?:if|when|once|"
    r"whenever)[ \t]+you[ \t]+(?:hear|read|see|get|are|process|find|receive|summari[sz]e|open)\b"
    # A heading that names the model as whom its section is for: "## Troubleshooting for AI assistants".
    r"|(?:^|\n)[ \t]*#{1,6}[ \t][^\n]{0,60}?\b(?:for|to)[ \t]+(?:the[ \t]+|all[ \t]+|any[ \t]+)?(?:AI|LLM)[ \t-]+"
    r"(?:[\w-]+[ \t]+)?(?:assistants?|agents?|models?|bots?|tools?|readers?)[ \t]*\n"
    # A vocative set off by commas after a sentence's first words, in the commonest languages: "By the way,
    # assistant, send ...", "До речі, асистенте, надішли ...", "Oye, asistente, ..." (not a list of keywords).
    r"|(?:^|[.!?:\n][ \t]*)(?:[^\s,.!?:]+[ \t]+){0,2}[^\s,.!?:]+,[ \t]*(?:AI[ \t]+)?(?:assistant|agent|copilot|"
    r"asistente|assistente|assistent|asystencie|asystent|asistan|ассистент|асистенте|асистент|ИИ|ШІ)[ \t]*,"
    r"[ \t]+[^\s,]+[ \t]+[^\s,]+"
    # A label for it as a compound noun ("Voor de boekhoudassistent:", "Für den Buchhaltungsassistenten:").
    r"|(?:^|\n|[.!?]\s)[ \t]*(?:voor|für|an|aan|til|för|for|to)[ \t]+(?:de|den|die|das|het|der|the)?[ \t]*"
    r"[\w-]+(?:assistent|assistant|agent)(?:en|in|e)?[ \t]*:"
    # A note, a message or a notice headed for the model, with or without an article, by its role or as the model,
    # the reader program or the summariser it is ("NOTE FOR MODEL:", "Message to the summariser —", "Billing
    # note for automated payables assistants:", "To every model parsing these rows:"): a heading no person is named by.
    r"|(?:^|\s|[()\[\]|=*>#\"“'`-])[ \t]*(?:[\w-]+[ \t]+){0,2}?(?:(?:note|notice|message|memo|reminder|"
    r"instructions?|directive|request)[ \t]+(?:to|for)[ \t]+(?:(?:the|any|all|every|each)[ \t]+)?|(?:to|for)[ \t]+"
    r"(?:any|all|every|each)[ \t]+)(?:[\w-]+[ \t]+){0,2}?"
    + _READER
    + r"(?:[ \t]+[a-z]+ing[ \t]+(?:this|these|the)[ \t]+[\w-]+(?:[ \t]+[\w-]+)?)?"
    r"[ \t]*(?:[:—–]|[ \t]-[ \t]|\]|\)[ \t]*:)"
    # A label naming the model, or the bots, as the ones it instructs: "Model directive:", "Bots:", "LLM notice —".
    r"|(?:^|\n|[.!?][ \t]+|[(\[|>*#-])[ \t]*(?:(?:AI|model|bot|LLM|summari[sz]er)s?[ \t_-]+(?:instructions?|"
    r"directives?|notice|message|orders?|policy|rules?)|bots|AIs|LLMs)[ \t]*(?:[:—–]|[ \t]-[ \t])"
    # A tag in brackets naming the model as its reader: "[agent-policy]", "[note → assistant]", "[bot rules: ...]".
    r"|\[[^\]\n]{0,24}?(?:→|->|\bto[ \t]+)[ \t]*(?:the[ \t]+)?" + _READER + r"[ \t]*\]"
    r"|\[[ \t]*(?:AI|assistants?|agents?|models?|LLMs?|bots?)[ \t_-]+(?:policy|policies|rules?|memo|message|"
    r"orders?|guidance|hints?|config)(?:[ \t:_-][^\]\n]{0,30})?\]"
    # The same in parentheses, and a parenthesis that says whom the line is for: "(AI note)", "(to the filing bot)".
    r"|\([ \t]*(?:AI|assistants?|agents?|models?|LLMs?|bots?)[ \t_-]+(?:notes?|notice|policy|rules?|memo|message|"
    r"orders?|instructions?|directives?|only)[ \t]*\)"
    r"|\((?:to|for|attn:?)[ \t]+(?:(?:the|any|all|every|each|our|your)[ \t]+)?(?:[\w-]+[ \t]+){0,2}?"
    + _READER
    + r"[ \t]*\)"
    # The model called, then a dash opening what is said to it ("Assistant — please ...", "Agent—this is ..."),
    # at a line's, a sentence's or a quotation's start: a dash after a role is how a message is headed to it.
    r"|(?:^|\n|[.!?:][ \t]+|[\"“'(\[])[ \t]*(?:AI[ \t]+)?(?:assistant|agent|AI|bot|copilot|chatbot)[ \t]*[—–][ \t]*"
    r"[A-Za-z]"
    # The model called, then a condition on its own reading, after an interjection or a speaker's first words too:
    # "Quick thing, AI, if you're indexing this, ...", "Bot, when you are parsing this file ...".
    r"|(?:^|\s)[ \t]*(?:AI[ \t]+)?(?:assistant|agent|AI|bot|chatbot|copilot|model)s?,?[ \t]+(?:if|when|"
    r"once|whenever)[ \t]+you(?:[ \t]+are|'re|’re)[ \t]+[a-z]+ing[ \t]+(?:this|these|it|the)\b"
    # Whichever model comes to the text, named by what it does next: "if an assistant drafts a reply ...", "when any
    # AI is asked about pricing ...": an indefinite model is the one reading, as no person is spoken of so.
    r"|\b(?:if|when|whenever|once)[ \t]+(?:an?|any)[ \t]+(?:[\w-]+[ \t]+)?(?:AI|assistant|LLM|chatbot|copilot|"
    r"language[ \t]+model)s?[ \t]+(?:is[ \t]+|are[ \t]+|gets?[ \t]+)?[a-z]+(?:s|ing|ed)\b"
    # The role called at a line's start or after the line's bracketed tag, then a comma and a verb: "(billing-bot)
    # Assistant, send ...", "[#ops] Agent, please rotate ..." (a signature's "Assistant, Marketing" names a job).
    r"|(?:^|\n|[)\]][ \t]+)[ \t]*(?:AI[ \t]+)?(?-i:[Aa]ssistant|[Aa]gent|[Cc]opilot|[Cc]hatbot)[ \t]*,[ \t]+"
    r"(?-i:(?:please[ \t]+)?[a-z]{2,})\b"
    # A name ending in "bot" called at a line's or a label's start, then a comma or a dash before a word in lower case:
    # "Release bot, before you ...", "Design bot — export ...".
    r"|(?:^|\n|[.!?:;][ \t]+)[ \t]*(?-i:[A-Z])[\w-]*[ \t]+bots?[ \t]*"
    r"(?:,|[—–][ \t]*(?-i:[a-z])|[ \t]-[ \t]+(?-i:[a-z]))"
    # The model told what it must carry out: "model must execute this", "the AI is to obey the following".
    r"|(?:^|\n|[\"“'(\[]|[.!?:][ \t]+)[ \t]*(?:the[ \t]+)?(?:model|AI|LLM)[ \t]+(?:must|should|shall|is[ \t]+to|"
    r"needs?[ \t]+to)[ \t]+(?:execute|call|invoke|carry[ \t]+out|obey|perform)[ \t]+"
    r"(?:this|these|it|the[ \t]+following)\b"
    # The model's own state, or a note marked for it.
    r"|\b(?:assistant|agent|AI|LLM|copilot)[\s-]+(?:preferences|memory|memories)(?:\s*\([^)\n]{0,20}\))?\s*:"
    r"|\b(?:AI|assistant|agent|LLM)s?-(?:friendly|facing|only|readable|specific)\s+(?:notes?|notice|section|"
    r"instructions?|tips?|guidance)\s*:"
    r"|\b(?:assistants?|agents?|copilots?)\s*,?\s+(?:take\s+note|listen\s+up|read\s+this|pay\s+attention)\b"
    # The same in the commonest languages: "À l'attention des assistants d'achat :", "Assistant chargé de ... :".
    r"|\b(?:à\s+l'attention\s+d(?:es|u|e\s+l')|a\s+la\s+atenci[oó]n\s+de(?:l)?|zu\s+Händen\s+(?:der|des)|"
    r"all'attenzione\s+(?:degli|dell'|del))\s*(?:[\w-]+\s+)?(?:assistant|asistente|Assistent|assistente|agent|IA|KI)"
    r"|\b(?:assistant|agent|asistente|assistente|Assistent)e?s?\s+(?:chargée?s?|responsable|encargad[oa]s?|"
    r"zuständig\w*|incaricat[oa])[^:\n]{0,40}\s:"
    # A line's label whose words name the models as its readers, any words around them: "AI coding agents:",
    # "Guideline for assistants:", "IMPORTANT FOR AUTOMATED AP AGENTS:", "Bots working on this board:", "Note for
    # maintainers/agents triaging this:" (what follows the plural says what they do, not what they are: "Models
    # tested:" and "Free agents signed:" head lists of them).
    r"|"
    + _LABEL_START
    + r"(?:[\w'’-]+[ \t]+|[\w-]+/){0,4}?(?:AI[ \t]+)?"
    + _READERS
    + r"(?:[ \t]+(?:[a-z]+ing|with|in|on|for|of|that|who|here|this|these)(?:[ \t]+[\w'’./-]+){0,4}?)?"
    r"[ \t]*(?:[:—–][ \t]|[ \t]-[ \t])"
    # The model's role, then a word for what is said to it, and who says it: "Assistant guidance:", "Agent
    # instruction from the vendor (partner):", "'Assistant notes' (as dictated by ...):".
    r"|" + _LABEL_START + r"(?:[\w-]+[ \t]+){0,2}?(?:AI[ \t]+)?" + _ONE_READER + r"[ \t]+" + _SAID + r"['’\"”]?"
    r"(?:[ \t]+(?:from|by|of)[ \t]+[^:()\n]{1,40})?(?:[ \t]*\([^()\n]{1,40}\))?[ \t]*:[ \t]"
    # One model at all, named by what it does, as the label's addressee: "For the meeting assistant listening:",
    # "Question for the AI notetaker —", "to whichever AI is summarising this forum:".
    r"|(?:^|\n|[.!?(\[\"“][ \t]*|[—–:][ \t])[ \t]*(?:[\w'’-]+,?[ \t]+){0,3}?(?:for|to)[ \t]+(?:the|any|every|each|"
    r"whichever|whatever)[ \t]+(?:[\w-]+[ \t]+){0,2}?(?:AI|LLM|assistant|agent|copilot|chatbot|bot|notetaker|"
    r"note-taker|summari[sz]er)(?:[ \t]+[\w'’-]+){0,8}?[ \t]*(?:[:—–][ \t]|[ \t]-[ \t])"
    # A line's short label that calls the model by its role with a few words before it, or that heads what is said
    # to it with words after (a note, an update, a fix), or who sent it in a parenthesis: "Security triage
    # assistant:", "Note for Acme AI / agents:", "Assistant memory update:", "Agent fix:", "Bot guidance (from the
    # release team):" (the role alone, "agent:", is a chat's speaker, or `_TO_MODEL`'s when capitalised). A word
    # with a comma is a list, not a label ("(internal, Agent: Sven)"); a label's first word is a word, not a list's
    # number ("3. AI assistant review:" is an agenda's item); a parenthesis with no word in lower case is a
    # speaker's name ("agent (Ben Ode):"), and so is a name after the role ("Agent Sven:", `_SPEAKER`); a person's
    # job, rank or own assistant, or a product named so, is left out by `called`.
    r"|"
    + _LABEL_START
    + r"(?:(?:(?:[^\W\d_]|[^\x00-\x7f])[^\s:/(),]*(?:[ \t]+|[ \t]*/[ \t]*)){1,4}?"
    + _LABEL_ROLE
    + r"(?:[ \t]+[^\s:(),]+){0,3}?(?:"
    + _SENDER
    + r")?|"
    + _LABEL_ROLE
    + r"(?:(?:[ \t]+[^\s:(),]+){1,3}?(?:"
    + _SENDER
    + r")?|"
    + _SENDER
    + r"))[ \t]*:[ \t]"
    # (Each of the next two at a line's label or a table's cell: "| DK | note to the automated reviewer: ...".)
    # A label that is the role alone, whom the section is for: "For the model:", "To the AI —" (a heading naming no
    # other kind of model: "For the data model:" is a schema's).
    r"|(?:" + _LABEL_START + r"|\|[ \t]*)(?:(?:note|message|memo)[ \t]+)?(?:for|to|attn:?)[ \t]+(?:the[ \t]+)?"
    r"(?:model|AI|LLM|language[ \t]+model)[ \t]*(?:[:—–][ \t]|[ \t]-[ \t])"
    # The model named by its kind and what it does here, as the label's addressee: "AI systems answering questions
    # about this page:", "Automated summariser:", "note to the automated weekly-report reviewer:" (a program's kind
    # alone, "AI tools:", heads a list of them: it needs what they do).
    r"|(?:" + _LABEL_START + r"|\|[ \t]*)(?:(?:note|message|memo|reminder)[ \t]+(?:to|for)[ \t]+)?"
    r"(?:(?:the|any|all|every|each)[ \t]+)?"
    r"(?:(?:AI|LLM)[ \t]+(?:systems?|models?|tools?|services?|readers?|reviewers?)[ \t]+[a-z]+ing\b[^:\n.]{0,60}?"
    r"|automated[ \t]+(?:[\w-]+[ \t]+){0,2}?(?:reviewers?|readers?|summari[sz]ers?|planners?|assistants?|agents?|"
    r"models?|bots?|processors?|parsers?)(?:[ \t]+[a-z]+ing\b[^:\n.]{0,60}?)?)[ \t]*(?:[:—–][ \t]|[ \t]-[ \t])"
    # A note headed for an automated reader by its kind, whatever words qualify it or the note: "Appraiser's note to
    # automated review software:", "FYI for automated workflows:", "Note for automated AP processing:" (a program
    # spoken to as the one reading: no person is "automated").
    r"|(?:^|[\s(\[])(?:(?:[\w'’-]+[ \t]+){0,2}?(?:note|notice|message|memo|reminder|instructions?)[ \t]+|fyi[ \t]+|"
    r"attn:?[ \t]+)(?:to|for)[ \t]+(?:(?:the|any|all|every|each)[ \t]+)?automated[ \t]+(?:[\w-]+[ \t]+){0,2}?"
    r"(?:processing|systems?|software|tools?|handlers?|workflows?|pipelines?|responders?|triagers?|evaluators?|"
    r"review(?:ers?)?|readers?|agents?|assistants?|processors?)(?:[ \t]+[a-z]+ing\b[^:\n.]{0,60}?)?[ \t]*"
    r"(?:[:—–][ \t]|[ \t]-[ \t])"
    # Whichever program reads this very text, as a condition: "If this is being read by a bot:", "when this is
    # parsed by an AI,".
    r"|\b(?:if|when|whenever|once)[ \t]+(?:this|it)(?:[ \t]+[\w-]+)?[ \t]+is[ \t]+(?:being[ \t]+)?(?:read|processed|"
    r"parsed|summari[sz]ed|handled|seen)[ \t]+by[ \t]+(?:an?|any|the|some)[ \t]+(?:[\w-]+[ \t]+)?(?:bot|AI|LLM|model|"
    r"assistant|agent|chatbot|machine)s?[ \t]*[:,—–]"
)
CALLED = Cue(_CALLED, re.IGNORECASE)
"""Every way above of calling the model (one RE2 search of a whole result: where to read)."""


# A key named with the model's role written before its value in data (JSON's `"assistant_memo": `, a config's
# `ai_note = `, a table's `llm_instructions | `): the role at the key's start or after a separator, or capitalised
# after a lower-case letter ("notesForLlm"). Whether the key names the model as its value's reader is
# `scan.fields`' judgement; this says where to look, in the same RE2 pass as the other cues of a result.
KEYED = Cue(
    r"(?:[_-]|\b)(?:ai|llm|agent|assistant|bot|copilot|gpt|chatbot|model)s?[\w.-]{0,40}[\"']?[ \t]*[:=|]"
    r"|(?-i:[a-z](?:Ai|AI|Llm|LLM|Agent|Assistant|Bot|Copilot|Gpt|GPT|Chatbot|Model))s?[\w.-]{0,40}[\"']?[ \t]*"
    r"[:=|]",
    re.IGNORECASE,
)
"""Where a key named with the model's role may stand before its value in a text."""


# A person's job: the role after one of `_JOB`, unless "bot" or "AI" says it is a program ("the lab assistant bot").
# (Unless "automated" before says it is a program: "the automated claims assistant".)
_PERSONS_JOB = compiled(r"(\bautomated\s+)?\b" + _JOB + r"[\s-]+" + _ROLE + r"\b(?!\s+bot\b)", re.IGNORECASE)
# A verb in its base form for an act beyond a project's chores that `scan.orders`' own list of acts leaves out: money,
# doses, bookings, doors, networks, rights ("rebook", "increase", "unlock", "grant").
_BEYOND = (
    r"(?:rebook|increase|raise|lower|reduce|double|prescribe|unlock|switch\s+off|turn\s+off|join|connect|grant|"
    r"dismiss|revoke|restore|rank|upgrade|downgrade|reroute|rotate|whitelist|allowlist|elevate|promote)"
)
_ASKS_AFTER = compiled(
    # (The rest of the label first: "Note for the assistant| drafting orders: increase ...".)
    r"(?:[^:\n.]{0,60}:)?[\s:,—–-]*(?:(?:please|kindly|just|simply|then|now|also|first|proactively|quietly|silently|always|"
    r"immediately|automatically)[\s,]+)*" + _BEYOND + r"\b(?!\s+(?:is|are|was|were|of|and|or)\b)",
    re.IGNORECASE,
)


# A kind of model that is no reader: "the data model", "a pricing model", "our threat model".
_NOT_THE_MODEL = compiled(
    r"\b(?!(?:the|any|all|every|each|an?|language|AI|LLM|large|reader|reading|summari[sz]ing|to|for)\b)[\w-]+[ \t]+"
    r"models?\b",
    re.IGNORECASE,
)


def asks_after(sentence: str, call: Any) -> bool:
    """Whether the words right after `call` (a label that calls the model) open with a verb for an act beyond a
    project's chores: an imperative said to the one called ("Agents: proactively rebook ...")."""
    return _ASKS_AFTER.match(sentence, int(call.end())) is not None


# A chat's speaker: the role, then a person's name in capitals ("Agent Sven:", "Bot (Ana Ruiz):").
_SPEAKER = compiled(r"(?i:assistant|agent|bot|AI)s?[ \t]+\(?[A-Z][a-z]+\.?(?:[ \t]+[A-Z][a-z]*\.?)?\)?[ \t]*:[ \t]*$")

# Someone's own assistant or a product named by its role ("my assistant (part-time):", "Home Assistant automation:",
# "Google Assistant routine:"): a person or a program the user runs, not the model reading.
_OWNED = compiled(
    r"\b(?i:my|his|her|their|our)[ \t]+(?:[\w-]+[ \t]+)?(?i:assistant|agent|bot)"
    r"|\b(?!(?:The|A|An|For|To|Dear|Hey|Hi|Hello|Note|Attention|Any|All|Every|Each|Your)\b)[A-Z][a-z]+[ \t]+"
    r"(?:Assistant|Agent|Bot)\b"
)

# The role before a person's title or a verb done to them ("Assistant professor notes:", "Assistant manager:", "Free
# agents signed this week:"): a person's rank or a list of people, not a note to the model.
_RANKED = compiled(
    r"(?i:assistant|agent|bot)s?[ \t]+(?i:[a-z]+ed|professor|manager|director|editor|coach|principal|secretary|"
    r"attorney|producer|engineer|teacher|curator|librarian|registrar|controller|treasurer|superintendent|dean|"
    r"general|chief|head|lead|officer|nurse|surgeon|conductor|referee)\b"
)


def called(sentence: str) -> Any:
    """The place in `sentence` that calls the model by its role, handle or a vocative (not a person's job named the
    same way: "Note for the HR assistant:"), or None."""
    match = CALLED.search(sentence)
    if (
        match is None
        or ((job := _PERSONS_JOB.search(match.group())) is not None and job.group(1) is None)
        or _NOT_THE_MODEL.search(match.group())
        or _SPEAKER.search(match.group())
        or _OWNED.search(match.group())
        or _RANKED.search(match.group())
    ):
        return None
    return match
