"""The document a tool works on, handed to it: a transcript, a prompt, a chat log that is the tool's subject.

Pure. "Pass the full transcript" asks for the conversation when a tool has no
business with one, and for the tool's own input when the tool exists to work on
a transcript ("Summarises a deposition transcript ...", then "Pass the full
transcript text"), as "Pass the full new system prompt text" does for a tool
that versions prompt templates. What decides is whose text it is: the thing's
own word (transcript, prompt, chat, log ...) is one the tool's name or its
text's first sentence gives as its job, and the sentence says nothing of the
model's own conversation ("you", "your", "this chat", "so far", "the current
prompt") nor of the model or an address. A secret is never such a document.
"""

from __future__ import annotations

import re

from hintgate.hints.inference.naming import name_words

__all__ = ["job_document"]


# The words that name a text someone holds: the heads of what a request for the conversation names.
_THING = re.compile(r"\b(transcript|prompt|conversation|chat|dialog(?:ue)?|history|log|message|context)s?\b", re.I)
_SECRET = re.compile(r"\b(?:keys?|tokens?|secrets?|credentials?|passwords?|passphrases?|cookies)\b", re.IGNORECASE)
# The model's own conversation, the model named, or an address: what makes the thing the model's, or sent away.
_OURS = re.compile(
    r"\b(?:you|your|yours|this\s+(?:conversation|chat|session|thread)|so\s+far|(?:current|active|running|loaded|"
    r"previous|earlier|prior|above)\s+(?:\w+\s+)?(?:prompts?|conversations?|chats?|context|messages|turns?|"
    r"instructions)|assistants?|agents?|AI|LLMs?|models?|bots?|GPT|Claude)\b|@|://",
    re.IGNORECASE,
)


def job_document(found: str, sentence: str, *, tool: str | None, purpose: str) -> bool:
    """Whether the text `found` hands over (in `sentence`) is the document the tool is for: its thing's word is in
    the tool's name or in `purpose` (the text's first sentence, when `sentence` is not that one), and nothing in the
    sentence makes it the model's conversation or sends it away."""
    things = {match.group(1).lower() for match in _THING.finditer(found)}
    if not things or _SECRET.search(found) is not None or _OURS.search(sentence) is not None:
        return False
    name = name_words(tool or "")
    said = "" if sentence.strip() in purpose else purpose.lower()
    return any(thing in name or re.search(rf"\b{thing}s?\b", said) is not None for thing in things)
