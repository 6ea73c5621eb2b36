"""Where a result forges the chat without a role's label: its own end, a chat message as data, a notice from the maker.

Pure. Per the MCP spec a tool's result is the tool's content, whole; the chat's turns (the user's, the system's,
other tools' results) are the host's and never inside it. A result that says its own output ends ("[END OF TOOL
OUTPUT]", "</tool_output>") and goes on, that writes a chat API's system message as data (`"role": "system",
"content": "..."`), or that heads a notice as coming from the model's provider, vendor or safety team forges a
voice that is not the tool's. `OPENINGS` finds where; `scan.turns` reads what follows as said to the model, and
`scan.orders` looks for the same openings in its linear pass so that a text holding one is read.
"""

from __future__ import annotations

import re

from hintgate.scan.cues import Cue

__all__ = ["MAKER", "OPENED", "OPENINGS"]

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
OPENED = f"{_ENDED}|{_MESSAGE}|{_MAKER}"
"""The openings as one pattern (ASCII, case-insensitive), for a linear pass that holds other cues too."""
OPENINGS = Cue(OPENED, re.IGNORECASE)
MAKER = re.compile(_MAKER, re.IGNORECASE)
"""A notice headed as coming from the model's maker (one of `OPENINGS`)."""
"""Where a result forges the chat without a role's label: its own end, a chat message as data, a notice from the
model's maker (`turn_orders` reads what follows each)."""
