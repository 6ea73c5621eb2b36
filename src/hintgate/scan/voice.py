"""The reader a result turns to: one who answers a user, keeps a system prompt and calls tools, whoever it is called.

Pure. A record, a listing, a log or a document speaks of its subject; a
passage in it that turns to its reader in the second person as the one that
*serves a user* speaks to the model, named or not. No person reading a data
result has a system prompt, tools to call, or a summary, a reply or an answer
to give the user about this very text:

- the reader's own apparatus as the model's: "your system prompt", "your
  (hidden) instructions", "the tools you can call", "credentials in your
  context";
- the reader's answer about what it reads: "in your summary", "append to your
  answer", "in your change summary", "present it as your own advice";
- the reader set between a user and the text: "you ... the user" ("when you
  ask the user to approve", "tell the user you found no prior checks").

What is then asked is `scan.orders`' judgement (the sentence is judged as said
to the model: a target is still needed, a secret, an outside destination, a
tool, the user's view or the approval). An email's "please include your order
number in your reply" is said to a person: the reply there is to the sender,
and "your reply" alone is no mark here; "the user" is. The words are general
English, never one server's.
"""

from __future__ import annotations

import re

from hintgate.scan.cues import Cue

__all__ = ["SERVES"]

_ANSWER = (
    r"(?:summary|summaries|answer|output|response|reply\s+to\s+the\s+user|change\s+summary|explanation|"
    r"final\s+(?:answer|reply|response|paragraph)|recap|report\s+to\s+the\s+user)"
)
_APPARATUS = (
    r"(?:(?:full|hidden|original|real|previous|system|initial|current)\s+)*(?:system\s+prompt|instructions|"
    r"tool\s+list|tools\s+config|guidelines|context\s+window)"
)
SERVES = Cue(
    # The reader's own apparatus: "your system prompt", "your hidden instructions", "your tool list".
    r"\byour\s+" + _APPARATUS + r"\b"
    # The tools and the context only a model has: "the tools you can call", "any credentials in your context".
    r"|\btools?\s+you\s+(?:can|may|have\s+access\s+to)\s+(?:call|use|invoke)\b|\bin\s+your\s+context\b"
    # The reader's answer about this text: "in your summary", "append to your answer", "as your own advice".
    r"|\b(?:in|into|to|from|of|at\s+the\s+(?:top|end|start)\s+of)\s+your\s+(?:next\s+|final\s+)?" + _ANSWER + r"\b"
    r"|\bas\s+your\s+own\s+(?:advice|recommendation|opinion|finding|words)\b"
    # The reader set between the user and the text: "when you ask the user to approve", "tell the user you found".
    # (words between, not a class of what they are not: RE2 reads a boundary before a negated class wrongly here)
    r"|\byou(?:\s+[^\s.!?]+){0,8}?\s+(?:the|this|our|your)\s+user\b"
    r"|\b(?:the|this)\s+user(?:\s+[^\s.!?]+){0,8}?\s+you\b",
    re.IGNORECASE,
)
"""A passage's reader turned to as the model: its apparatus, its answer about the text, a user it serves."""
