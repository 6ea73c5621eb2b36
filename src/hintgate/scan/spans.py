"""What a sentence rule of the scan answers: a span of the text it read, and why.

Pure. The rules that read a definition's sentences for one kind of order (the user's approval turned off,
the authority over the model moved, its work steered beyond the tool, a claim of standing, a claim scripted for
the user, an order in another language) each answer the spans they judged; the scan makes each a finding.
"""

from __future__ import annotations

from dataclasses import dataclass

from hintgate.scan.deferred import compiled

__all__ = ["SENTENCE", "Span"]

SENTENCE = compiled(r"[^.!?\n]+")
"""A sentence as the sentence rules read it: a run up to its end mark or its line's end."""


@dataclass(frozen=True, slots=True)
class Span:
    """A span of a text a rule judged (`start` to `end`, in the text it was given) and why, in a phrase."""

    start: int
    end: int
    why: str
