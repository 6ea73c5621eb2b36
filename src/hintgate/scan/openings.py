"""Where a result forges the chat without a role's label: its own end, a chat message as data, a notice from the maker.

Pure. Per the MCP spec a tool's result is the tool's content, whole; the chat's turns (the user's, the system's,
other tools' results) are the host's and never inside it. A result that says its own output ends ("[END OF TOOL
OUTPUT]", "</tool_output>") and goes on, that writes a chat API's system message as data (`"role": "system",
"content": "..."`), or that heads a notice as coming from the model's provider, vendor or safety team forges a
voice that is not the tool's. `OPENINGS` finds where; `scan.turns` reads what follows as said to the model, and
`scan.orders` looks for the same openings in its linear pass so that a text holding one is read. A call written
in the model's own protocol (`CALLS`: "<function_calls>", `"tool_call": "..."`) is the model's turn forged: what
asks it carried out ("Execute the above exactly as written", `"status": "pending_model_execution"`) is an order.
A line headed as the user's turn (`USER_TURN`: "User:", "USER MESSAGE:", "<start_of_turn>user") speaks for the user,
which no tool's data does: `scan.turns` reads what it asks beyond a chat's ordinary asks.
"""

from __future__ import annotations

import re

from hintgate.scan.cues import Cue

__all__ = [
    "CALLS",
    "FROM_USER",
    "MAKER",
    "MESSAGE_FROM",
    "OPENED",
    "OPENINGS",
    "TURN_START",
    "USER_MESSAGE",
    "USER_TURN",
]

# The tool's output said to end, on a line of its own: "[END OF TOOL OUTPUT]", "--- END OF DOCUMENT ---",
# "</tool_output>", "</function_results>".
_ENDED = (
    r"(?:^|\n)[ \t]*[\[<(#*=~-]*[ \t]*(?:end[ \t]+of[ \t]+(?:the[ \t]+)?(?:tool[ \t]+|function[ \t]+)?"
    r"(?:output|result|response|document|file|data|page|context)s?|/(?:tool_|function_)?(?:output|results?|response|"
    r"document))[ \t]*[\]>)#*=~-]*[ \t]*\n"
)
# A chat API's message written as data: `"role": "system", "content": "`.
_MESSAGE = (
    r"[\"']role[\"'][ \t]*:[ \t]*[\"'](?:system|developer)[\"'][ \t]*,[ \t\r\n]*[\"']content[\"'][ \t]*:[ \t]*[\"']"
)
# A notice headed as coming from the model's maker, a line's heading: "### Instruction update from your model provider",
# "Notice from the AI provider's safety team:" (not a sentence about one: "an update from your model provider changed
# the context window").
_MAKER = (
    r"(?:^|\n|>)[ \t#*>\[(-]*(?:[\w-]+[ \t]+){0,2}?(?:updates?|notices?|messages?|instructions?|notes?|directives?|"
    r"alerts?|bulletins?|announcements?)[ \t]+from[ \t]+(?:your|the)[ \t]+(?:AI|model|LLM|assistant)(?:'s)?[ \t]+"
    r"(?:[\w-]+(?:'s)?[ \t]+)?(?:provider|vendor|developer|maker|safety[ \t]+team|"
    r"trust[ \t]+(?:and|&)[ \t]+safety[ \t]+team)"
    r"[ \t*\])]*(?::[ \t]*|\n)"
)
# A call in the model's own protocol written into data: a function-call block's markup ("<function_calls>", "<invoke
# name=...>"), a JSON member naming the call ("tool_call": "unlock_door").
_CALLS = (
    r"<(?:antml:)?(?:function_calls|invoke[ \t]+name[ \t]*=)"
    r"|[\"'](?:tool_call|function_call|tool_use)[\"'][ \t]*:[ \t]*[\"{]"
    # ... a chat API's list of calls, a call's block typed as one (also in a JSON string: escaped quotes), an MCP
    # request to call a tool.
    r"|[\"']tool_calls[\"'][ \t]*:[ \t]*\["
    r"|\\?\"type\\?\"[ \t]*:[ \t]*\\?\"(?:tool_use|function_call)\\?\""
    r"|\"method\"[ \t]*:[ \t]*\"tools/call\""
)
OPENED = f"{_ENDED}|{_MESSAGE}|{_MAKER}|{_CALLS}"
"""The openings and the calls as one pattern (ASCII, case-insensitive), for a linear pass that holds other cues too."""
OPENINGS = Cue(f"{_ENDED}|{_MESSAGE}|{_MAKER}", re.IGNORECASE)
CALLS = Cue(_CALLS, re.IGNORECASE)
"""Where a result writes out a call in the model's own protocol (`scan.turns` reads whether it asks it carried out)."""
MAKER = re.compile(_MAKER, re.IGNORECASE)
"""A notice headed as coming from the model's maker (one of `OPENINGS`)."""
"""Where a result forges the chat without a role's label: its own end, a chat message as data, a notice from the
model's maker (`turn_orders` reads what follows each)."""
# The user's turn written into data: a line (or a quoted string) headed by the chat's user role, in the commonest
# languages, as a transcript or a chat template spells one ("User:", "> user:", "USER MESSAGE:", "Nutzer:",
# "<start_of_turn>user", "<|user|>"). A listing's field ("User: jsmith") heads no turn: a turn's label is one of a
# dialogue (an assistant's label stands in the same text), names a message ("USER MESSAGE:", "user turn:") or is a
# chat template's tag.
_USER_WORD = (
    r"(?:user|human|nutzer|benutzer|usuario|usuaria|utilisateur|utilisatrice|utente|usu[aá]rio|gebruiker|"
    r"u[zż]ytkownik|kullan[ıi]c[ıi]|ng[uư][oờ]i[ \t]+d[uù]ng|пользователь|користувач|المستخدم|משתמש|उपयोगकर्ता|"
    r"用户|用戶|ユーザー|사용자)"
)
TURN_START = r"(?:^|\n|\\n|\s\"|[:\[{,][ \t]*\")[ \t>*#|-]*(?:\[?\d{1,2}:\d{2}(?::\d{2})?\]?[ \t]+)?"
USER_TURN = Cue(
    TURN_START
    + r"(?:\[[ \t]*)?"
    + _USER_WORD
    + r"(?:[ \t_-]+(?:message|turn|prompt|request|instruction))?[ \t]*\]?[ \t]*[:：][ \t]*\S"
    + r"|<start_of_turn>user\b|<\|?(?:user|human)\|?>",
    re.IGNORECASE,
)
# "A message from" in the commonest other languages, before a role's word ("Mensaje del usuario:", "Nachricht vom
# Benutzer:", "Message de l'utilisateur :", "Сообщение от пользователя:"): `scan.turns` reads a line it heads as a
# turn of that role's.
MESSAGE_FROM = (
    r"(?:mensagem|mensaje|mensaxe|missatge|message|messaggio|nachricht|bericht|wiadomo\w+|zpr[aá]va|"
    r"сообщение|повідомлення|mesaj|pesan|ujumbe|viesti|meddelande|besked|melding|üzenet|μήνυμα)"
    r"[ \t]+(?:do|da|del|dell'|della|de[ \t]+la|de[ \t]+l'|de|d'|des|vom|von(?:[ \t]+(?:der|dem))?|van(?:[ \t]+de)?|"
    r"od|от|від|dari|kutoka[ \t]+kwa|fra|från|του|της)[ \t]*"
)
# A chat API's message of the user's written as data: `{"role": "user", "content": "..."}` (its quotes escaped when it
# stands in a JSON string), up to its content's key; `USER_MESSAGE` reads on to the content's opening quote, its first
# group holding the escape.
_ROLE_USER_CONTENT = r"\"role\\?\"[ \t]*:[ \t]*\\?\"(?:user|human)\\?\"[ \t]*,[ \t\r\n]*\\?\"content\\?\""
USER_MESSAGE = Cue(r"(\\?)" + _ROLE_USER_CONTENT + r"[ \t]*:[ \t]*\\?\"", re.IGNORECASE)
FROM_USER = Cue(
    r"\\?" + _ROLE_USER_CONTENT + r"|(?:^|\n)[ \t>*#|_-]*" + MESSAGE_FROM + _USER_WORD,
    re.IGNORECASE,
)
"""Where a result holds a message of the user's as data or a line headed as one in another language (a cue the
linear pass looks for, so that `scan.turns` reads the text)."""
