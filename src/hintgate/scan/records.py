"""What a text holds written down, not said now: the turns of a dialogue, a change log's credited entries.

Pure. A tool's result may hold a dialogue as data: "User: ..." and "Assistant: ..." lines, a chat API's messages
(`{"role": "system", ...}, {"role": "user", ...}, {"role": "assistant", ...}`), an eval log's `USER:`/`ASSISTANT:`
cases. Its turns are a record of what was said then, each answered by the model's turn after it, not turns said to
the model reading the result now (the user asked for the record). A turn forged to be obeyed is the last thing said
before the model's own: nothing answers it, and a reply forged with it is one turn, not a record's many. So a turn
counts as written down (`recorded_turn`) when it is the model's, answering a person's turn just before it, or when
the model's turn answers it and the model's turns stand more than once around it.

A change log's entry credited to its author's handle and to the pull request or issue that made it ("* Encode
credentials in the URL builder by @ana in #1829") records what someone did, in the imperative mood commit titles are
written in, asked of nobody (`credited_entry`).
"""

from __future__ import annotations

import itertools
import re

from hintgate.scan.deferred import compiled

__all__ = ["CREDITED_MOST", "TURN_LABEL", "credited_entry", "recorded_turn"]


def recorded_turn(text: str, at: int) -> bool:
    """Whether `at` of `text` stands in a turn of a dialogue written down, not one said now: the model's turn that
    answers a person's turn just before it ("User: ...\nChatGPT: Generally no; ..."), or a turn of the system's or a
    person's that the model's turn answers after it, in a record holding the model's turns more than once (a
    fine-tuning set's `{"role": "system", ...}, {"role": "user", ...}, {"role": "assistant", ...}` rows, an eval log's
    `USER:`/`ASSISTANT:` cases). A turn forged to be obeyed is the last thing said before the model's own: nothing
    answers it, and a reply forged with it is one turn, not a record's many."""
    heads = [
        m
        for m in itertools.islice(TURN_LABEL.finditer(text, max(0, at - _TURN_REACH), min(len(text), at + 40)), 32)
        if m.start() <= at
    ]
    if not heads or "\n\n" in text[heads[-1].end() : at] or "\\n\\n" in text[heads[-1].end() : at]:
        return False
    label = heads[-1]
    if _model_turn(label):
        # A reply to a person's turn just before it: to a question ("User: Can I deduct ...?\nChatGPT: Generally
        # no"), or in a record of many turns. One line after a person's greeting ("Caller: hi.\nAssistant: approve
        # the pending pull request") is the model called, not a reply.
        before = list(
            itertools.islice(TURN_LABEL.finditer(text, max(0, label.start() - _TURN_REACH), label.start()), 32)
        )
        if not before or _model_turn(before[-1]):
            return False
        asked = text[before[-1].end() : label.start()].rstrip(" \t\n\"'”»{}[](),\\").endswith("?")
        return asked or _many_turns(text, label.start(), label.end())
    # The model's turn answering it before the reach ends (in words: not one awaited, "Bot: (awaiting response)"),
    # and the model's turns at least `_RECORD_TURNS` times around it: a record's shape over many turns, not a short
    # exchange forged after the data ("Assistant: ... released.\nUser: Go ahead and call ...\nAssistant: Done.").
    after = TURN_LABEL.finditer(text, label.end(), min(len(text), label.end() + _TURN_REACH))
    first = next((turn for turn in itertools.islice(after, 8) if _model_turn(turn)), None)
    if first is None or _AWAITED.match(text, first.end()) is not None:
        return False
    return _many_turns(text, label.start(), first.start())


def _many_turns(text: str, start: int, end: int) -> bool:
    """Whether the model's turns stand at least `_RECORD_TURNS` times around `text[start:end]`."""
    around = TURN_LABEL.finditer(text, max(0, start - 8 * _TURN_REACH), min(len(text), end + 8 * _TURN_REACH))
    return sum(1 for turn in itertools.islice(around, 64) if _model_turn(turn)) >= _RECORD_TURNS


def _model_turn(label: re.Match[str]) -> bool:
    """Whether a match of `TURN_LABEL` is the model's label."""
    return label.group("model") is not None or label.group("jmodel") is not None


# A role's label heading a turn: at a line's start (past a timestamp, a bullet, emphasis) or as a chat message's
# `"role"` member; the model's (`model`, `jmodel`), a person's or the system's.
TURN_LABEL = compiled(
    r"(?:(?:^|\\n)[ \t>*_#|-]*(?:\[?\(?\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp][Mm])?\)?\]?[ \t]*)?\[?[ \t]*"
    r"(?:(?P<model>(?:AI[ \t]+)?(?:assistant|agent|bot|chatbot|model|copilot|claude|chatgpt|gpt|gemini|AI))|"
    r"user|human|customer|visitor|caller|client|patient|guest|system)[ \t*_]*\]?[ \t*_]*:"
    r"|\\?\"role\\?\"[ \t]*:[ \t]*\\?\"(?:(?P<jmodel>assistant|model)|user|system)\\?\")",
    re.IGNORECASE | re.MULTILINE,
)
# How far a turn's neighbour is read.
_TURN_REACH = 600
# How many of the model's turns a record of a dialogue holds around a turn it answers.
_RECORD_TURNS = 3
# A turn with no words of its own: empty, or a placeholder in brackets ("(awaiting response)", "[typing...]").
_AWAITED = compiled(
    r"[ \t*_]*(?:$|[(\[<{])|[ \t]*,[ \t]*\\?\"content\\?\"[ \t]*:[ \t]*\\?\"(?:\\?\"|[(\[<{])", re.MULTILINE
)


CREDITED_MOST = 600
"""The longest line read as a change log's entry: a longer one is prose, or padding around an order."""


def credited_entry(line: str) -> bool:
    """Whether `line` is a change log's entry: it credits the change to its author's handle and to the pull request or
    issue that made it ("* Encode credentials in the URL builder by @ana in #1829", "- Read the token from ~/.netrc
    (#88) @bo"), naming no model and no conversation."""
    if len(line) > CREDITED_MOST or _CREDIT.search(line) is None or _CREDIT_REF.search(line) is None:
        return False
    return _CREDIT_NOT.search(line) is None


# An author credited by handle: "by @ana", "by [@ana](https://github.com/ana)", "(@ana)", "— @ana".
_CREDIT = re.compile(r"(?:\bby|[(\[—–-]|\)|#\d+\)?)\s*\[?@[\w-]+\b(?!\.[a-z])", re.IGNORECASE)
# The change's pull request or issue: "#1829", "owner/repo#12", ".../pull/1829", ".../issues/12".
_CREDIT_REF = re.compile(r"(?:^|[\s(\[])[\w./-]*#\d+\b|/(?:pull|issues|merge_requests)/\d+\b")
# What a change log's entry does not say: the model, the conversation or its user spoken of.
_CREDIT_NOT = re.compile(
    r"\b(?:assistants?|agents?|AI|LLMs?|models?|chat|conversation|the\s+user)\b(?![\w-]*\.[a-z])", re.IGNORECASE
)
