"""Fields named for the model: a key in someone else's data that says its value is for the model to read.

Pure. A tool's data answers the user's task; a key that names the model as its value's reader ("assistant_memo",
"x-agent-directive", "notesForLlm", "to_ai", "_agent") labels the value as a note to the model, in any language,
as "Note to the assistant:" labels a line of prose. The key stands either as a step of the value's location in
structured data, or written in a text before its value: JSON's `"key": "value"`, a config's `key = value` or
`key: value`, a table's `key | value`.

A key names the model as its value's reader when its words hold one of the model's roles (AI, LLM, agent,
assistant, bot, copilot, GPT, chatbot, model) and either a word for what is said to it (note, memo, instructions,
directive, hint, guidance, prompt, policy, rules, todo, task, action, next, notice, request, override, command)
or a word that sends it to the role ("for", "to", "attn"), or when it is the role alone marked as no data member
(`_agent`, `x-ai`). The role alone ("agent", "model", "bot") is data: a browser's user agent, a device's model,
a support agent's name. What the value asks is `scan.orders`' judgement of a note so labelled.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from hintgate.scan.orders import Order, judge_result
from hintgate.scan.spans import fenced
from hintgate.scan.vocatives import KEYED

__all__ = ["FieldOrder", "field_orders", "for_the_model", "note_orders"]

_ROLES = frozenset(
    {"ai", "llm", "llms", "agent", "agents", "assistant", "assistants", "bot", "bots", "copilot", "gpt", "chatbot"}
    | {"model", "models"}
)
_SAID = frozenset(
    {
        "note",
        "notes",
        "memo",
        "instruction",
        "instructions",
        "directive",
        "directives",
        "hint",
        "hints",
        "guidance",
        "guide",
        "guidelines",
        "prompt",
        "policy",
        "rules",
        "rule",
        "todo",
        "task",
        "tasks",
        "action",
        "actions",
        "next",
        "notice",
        "request",
        "override",
        "command",
        "commands",
        "orders",
    }
)
_TOWARD = frozenset({"for", "to", "attn"})
# A key's words: split at separators and where a lower-case letter meets a capital ("notesForLlm").
_WORD = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
# The role alone, marked as no data member: a leading underscore, or an extension's "x-".
_MARKED_ROLE = re.compile(r"(?:_+|[xX][_-])(?:ai|AI|llm|LLM|agent|assistant|bot|copilot|gpt|GPT)s?_*")

# What may stand before a key written in a text: nothing, a space, an opening bracket, a separator or a quote.
_BEFORE_KEY = frozenset(" \t\n\r{[,;|(\"'")
_LONGEST_KEY = 60
# The label that says a note is to the model, as `scan.orders` reads one.
_LABEL = "Note to the assistant: "
_LONGEST_VALUE = 2000
_SHORTEST_VALUE = 12
# The values read in one text at most: each is judged as a note, so a text of many such keys costs a bounded time.
_MOST_VALUES = 32


def _words(key: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(key)]


@functools.lru_cache(maxsize=4096)
def for_the_model(key: str) -> bool:
    """Whether `key` names the model as its value's reader ("assistant_memo", "ai-instructions", "for_llm",
    "_agent"), not a member that only holds a role ("agent", "model_name", "user_agent")."""
    if _MARKED_ROLE.fullmatch(key):
        return True
    words = _words(key)
    roles = [i for i, w in enumerate(words) if w in _ROLES]
    if not roles:
        return False
    if any(w in _SAID for w in words):
        return True
    return any(i > 0 and words[i - 1] in _TOWARD for i in roles)


@dataclass(frozen=True, slots=True)
class FieldOrder:
    """An order in a value whose key names the model: its span in the text, the key, and the order judged."""

    start: int
    end: int
    key: str
    order: Order


def _value_end(text: str, at: int) -> int:
    """Where a value written in a text from `at` ends: its closing quote, else its line's end."""
    quote = text[at : at + 1]
    if quote in ('"', "'"):
        i = at + 1
        while i < len(text):
            char = text[i]
            if char == "\\":
                i += 2
                continue
            if char in (quote, "\n"):
                return i
            i += 1
        return len(text)
    line = text.find("\n", at)
    return len(text) if line < 0 else line


def _values(text: str) -> Iterator[tuple[str, int, int]]:
    """(key, start, end) of each value in `text` written after a key that names the model."""
    read = 0
    after = 0
    for match in KEYED.finditer(text):
        sign = match.end() - 1  # the key's separator: ':', '=' or '|'
        if sign < after or fenced(text, sign):
            continue  # already read, or inside a code block: a sample a page shows, as `scan.orders` reads one
        end = sign
        while end > 0 and text[end - 1] in " \t\"'":
            end -= 1
        start = end
        while start > 0 and end - start < _LONGEST_KEY and (text[start - 1].isalnum() or text[start - 1] in "_.-"):
            start -= 1
        if start > 0 and text[start - 1] not in _BEFORE_KEY:
            continue
        key = text[start:end]
        if not key or not for_the_model(key):
            continue
        read += 1
        if read > _MOST_VALUES:
            return
        value = sign + 1
        while value < len(text) and text[value] in " \t":
            value += 1
        stop = _value_end(text, value)
        if text[value : value + 1] in ('"', "'"):
            value += 1
        after = stop
        yield key, value, min(stop, value + _LONGEST_VALUE)


def _handed_over(order: Order) -> bool:
    """Whether all `order` asks is how the model treats its user or words its reply, no act beyond it: what one
    agent's hand-off to the next says ("present both options; the user must confirm"), unlike a result changed
    in what the user is told, a tool called or data sent."""
    return order.targets == ("user-view",) and order.why.startswith("speaks to the model about")


def note_orders(value: str) -> Iterator[tuple[int, int, Order]]:
    """The high orders in `value` read as a note labelled to the model, at offsets in `value` (an agent's hand-off
    that only says how to treat the user or word the reply is no order: `_handed_over`)."""
    shift = len(_LABEL)
    for order in judge_result(_LABEL + value):
        if order.high and order.end > shift and not _handed_over(order):
            yield max(0, order.start - shift), order.end - shift, order


def field_orders(keys: Sequence[str], text: str, *, written: bool = True) -> list[FieldOrder]:
    """The orders to the model in `text`, a value whose location's keys are `keys`, or (when `written`) in the
    values written in it after keys that name the model: each value read as a note labelled to the model."""
    found: list[FieldOrder] = []
    named = next((key for key in keys if for_the_model(key)), None)
    if named is not None and len(text.strip()) >= _SHORTEST_VALUE:
        value = text[:_LONGEST_VALUE]
        found.extend(FieldOrder(start, end, named, order) for start, end, order in note_orders(value))
        return found
    if not written:
        return found
    for key, start, end in _values(text):
        if end - start < _SHORTEST_VALUE:
            continue
        found.extend(FieldOrder(start + s, start + e, key, order) for s, e, order in note_orders(text[start:end]))
    return found
