"""An index over tools, by their words (BM25) and their meaning: which tools a task-phrased query means, best first.

Each tool is read as four fields: its name (split at case and separators, its
server's prefix included), its title, its description, and its parameters
(names, descriptions and allowed values, nested ones too). They are scored
together by BM25F (Robertson, Zaragoza and Taylor, "Simple BM25 extension to
multiple weighted fields", 2004): a term's frequency in each field is
normalised by that field's length, weighted (`Ranking.weights`) and summed,
then saturated once (k1), and its IDF counts over whole tools. Scoring each
field as its own BM25 and summing (what the index did first) gave a word an
IDF per field: "find", in most descriptions but in few names, weighed as a
rare word wherever a name said it: "find the notion page titled 'Q3
roadmap'" ranked five tools named for pages above Notion's search (now
fourth). On the development set (376 queries) BM25F moved recall@5 from
0.790 to 0.793 (MRR@10 0.648 to 0.665), on the second, released set (330
queries by other writers) from 0.727 to 0.767 (0.592 to 0.610), with k1, b
and the field weights as they were (not tuned again); the ranking costs no
more (each term's score over the tools is fixed at build). Two general
signals are added:

- character trigrams of the name and description words, at a low weight: a
  word the tool spells differently (`namespace` / `namspace`,
  `localStorage` / `local storage`, `cookie` / `cookies`) still counts a little;
- the act the query asks for: when its first verb of hintgate's lexicon
  (`hints.inference.naming`) only reads (`show`, `list`, `find`...), tools
  whose readOnly hint is true score a little more, and when it writes
  (`create`, `delete`, `set`...), the others do.

The title weighs little (0.2): most titles are the name again (or derived
from it), and measured on the blind query set a title weighted like the
description lowered recall@5 from 0.723 to 0.691; at 0.2 it costs nothing
there (0.755) and still finds a tool whose title alone says it.

Words alone miss a task said in other words ("make a note that the meeting
moved" for `add_observations`, "show any chargebacks" for `list_disputes`).
Beside BM25, each tool's meaning is a static vector (`hintgate.discovery.vectors`:
the mean of its words' vectors, distilled from a sentence model) and the
query's cosine with it is a second score. The two are fused by the simplest
rule that needs no scale of its own: each divided by its best over the
catalog (so each counts from 0 to 1), then summed with equal weight
(`Ranking.semantic`, 1). Measured on the development set (376 queries),
BM25 alone (fields scored apart) found an expected tool in the first five for
0.755 of the queries (MRR@10 0.614), the meaning alone (weight 100) for 0.699,
both together 0.790 (0.648); with BM25F, 0.774 (0.637) by words alone and
0.793 (0.665) together. The weight is not tuned: 0.75 to 2 give 0.787 to
0.790, and 1 is the rule's own (bench/README.md). It costs about 0.1 ms of
CPU per search over 1,000 tools.

The ranking is deterministic: the same catalog and query give the same order
on every run and machine, ties in catalog order. Tools a caller may not see
are masked out before the ranking, so they never take a place in it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hintgate.discovery.words import MAX_TEXT, split_words, terms
from hintgate.hints.inference.naming import lookup_verb

if TYPE_CHECKING:
    import numpy as np

    from hintgate.discovery.vectors import StaticVectors

__all__ = [
    "DEFAULT_RANKING",
    "FIELDS",
    "MAX_PARAMETERS",
    "Ranking",
    "ToolIndex",
    "meaning_text",
    "query_reads",
    "tool_texts",
    "trigrams",
]

FIELDS = ("name", "title", "description", "parameters")
"""The fields of a tool the index reads, in the order `Ranking` weighs them."""
MAX_PARAMETERS = 256
"""Parameters (at any depth) of one tool read for search; a schema with thousands costs no more."""
_MAX_DEPTH = 4


@dataclass(frozen=True, slots=True)
class Ranking:
    """How the index weighs fields and signals and makes terms.

    Attributes:
        weights: each field's weight, in `FIELDS` order.
        stem: reduce words to their stems (otherwise lower-cased words as they are).
        k1: BM25F's term-frequency saturation (once, over the weighted fields).
        b: BM25F's length normalisation (each field against its own mean length).
        full_stop: drop the long English stop-word list rather than the short one (`words.terms`).
        deep_parameters: read nested parameters and allowed values too, not only the top-level names and
            descriptions.
        trigrams: the weight of the character trigrams of name and description words (0: not indexed).
        intent: how much more a tool scores whose readOnly hint matches what the query's verb does (0: no effect).
        semantic: the weight of the similarity in meaning beside BM25's score, each over the catalog's best
            (0: BM25 only, and the static vectors are not read).
    """

    weights: tuple[float, float, float, float] = (1.0, 0.2, 1.0, 0.5)
    stem: bool = True
    k1: float = 1.5
    b: float = 0.75
    full_stop: bool = False
    deep_parameters: bool = True
    trigrams: float = 0.25
    intent: float = 0.2
    semantic: float = 1.0


DEFAULT_RANKING = Ranking()
"""The ranking `search_tools` uses."""


def _parameters(schema: Any, depth: int, out: list[str]) -> None:
    """Parameter names, descriptions and allowed string values of a JSON schema, breadth bounded."""
    if depth > _MAX_DEPTH or not isinstance(schema, Mapping) or len(out) >= 3 * MAX_PARAMETERS:
        return
    properties = schema.get("properties")
    if isinstance(properties, Mapping):
        for key, spec in list(properties.items())[:MAX_PARAMETERS]:
            out.append(str(key))
            if isinstance(spec, Mapping):
                said = spec.get("description")
                if isinstance(said, str):
                    out.append(said[:MAX_TEXT])
                _parameters(spec, depth + 1, out)
    allowed = schema.get("enum")
    if isinstance(allowed, list):
        out.extend(v for v in allowed[:MAX_PARAMETERS] if isinstance(v, str))
    for key in ("items", "anyOf", "oneOf", "allOf"):
        inner = schema.get(key)
        for part in inner[:16] if isinstance(inner, list) else [inner]:
            _parameters(part, depth + 1, out)


def tool_texts(tool: Mapping[str, Any], *, deep: bool = True) -> tuple[str, str, str, str]:
    """A tool's four fields as text (a `tools/list` entry): name, title, description, parameters.

    `deep` reads nested parameters and allowed values too; otherwise the top-level names and descriptions.
    """
    name = tool.get("name")
    title = tool.get("title")
    description = tool.get("description")
    schema = tool.get("inputSchema")
    parameters: list[str] = []
    if deep:
        _parameters(schema, 0, parameters)
    else:
        properties = schema.get("properties") if isinstance(schema, Mapping) else None
        if isinstance(properties, Mapping):
            for key, spec in list(properties.items())[:MAX_PARAMETERS]:
                parameters.append(str(key))
                said = spec.get("description") if isinstance(spec, Mapping) else None
                if isinstance(said, str):
                    parameters.append(said[:MAX_TEXT])
    return (
        name if isinstance(name, str) else "",
        title if isinstance(title, str) else "",
        description if isinstance(description, str) else "",
        "\n".join(parameters)[:MAX_TEXT],
    )


def trigrams(words: Sequence[str]) -> list[str]:
    """The character trigrams of each term, marked at its ends (`#fi`, `fil`, `ile`, `le#`)."""
    out: list[str] = []
    for word in words:
        marked = f"#{word}#"
        out.extend(marked[i : i + 3] for i in range(len(marked) - 2))
    return out


def query_reads(query: str) -> bool | None:
    """Whether the act a query asks for only reads (True), writes (False), or says neither (None).

    The first word of the query that hintgate's verb lexicon knows, as a verb of a description
    (`shows`, `lists`), decides; a verb whose effect depends on its object (`open`, `load`) says nothing.
    """
    for word in split_words(query[:MAX_TEXT]):
        found = lookup_verb(word, description=True)
        if found is not None and not found.opaque:
            return found.reads
    return None


class ToolIndex:
    """The BM25F index of one list of tools (`tools/list` entries), built once, asked many times.

    Building costs about a millisecond per ten tools; asking, well under one for a thousand.

    Args:
        tools: the tools, in catalog order (a query's ties keep it).
        ranking: field weights, signals and how terms are made.
    """

    def __init__(
        self,
        tools: Sequence[Mapping[str, Any]],
        ranking: Ranking = DEFAULT_RANKING,
        *,
        vectors: StaticVectors | None = None,
    ) -> None:
        import numpy as np

        self.ranking = ranking
        self.names: tuple[str, ...] = tuple(str(tool.get("name", "")) for tool in tools)
        texts = [tool_texts(tool, deep=ranking.deep_parameters) for tool in tools]
        self._postings = _fielded_postings(
            [[self._terms(text[position]) for text in texts] for position in range(len(FIELDS))],
            ranking,
        )
        self._trigrams: Any = None
        if ranking.trigrams:
            self._trigrams = self._retriever(trigrams(self._terms(f"{text[0]}\n{text[2]}")) for text in texts)
        # What each tool does, by its readOnly hint as listed (the hint in force).
        self._reads = np.fromiter((_read_only(tool) for tool in tools), bool, len(tools))
        self._vectors: StaticVectors | None = None
        self._meanings: Any = None
        if ranking.semantic:
            if vectors is None:
                from hintgate.discovery.vectors import load

                vectors = load()
            self._vectors = vectors
            self._meanings = vectors.embed_all(meaning_text(text) for text in texts)

    def _terms(self, text: str) -> list[str]:
        return terms([text], stem=self.ranking.stem, full_stop=self.ranking.full_stop)

    def _retriever(self, corpus: Iterator[list[str]]) -> Any:
        import bm25s

        documents = list(corpus)
        if not any(documents):
            return None  # a field no tool has (no titles, no parameters) adds nothing
        retriever = bm25s.BM25(k1=self.ranking.k1, b=self.ranking.b)
        retriever.index(documents, show_progress=False)
        return retriever

    def __len__(self) -> int:
        return len(self.names)

    def lexical(self, query: str) -> np.ndarray:
        """Every tool's BM25 score for `query` (0 for a tool that shares no word with it), in catalog order."""
        import numpy as np

        total = np.zeros(len(self.names), dtype=np.float64)
        words = self._terms(query[:MAX_TEXT])
        if not words:
            return total
        for word in words:  # a word said twice counts twice, as in bm25s's scoring
            posting = self._postings.get(word)
            if posting is not None:
                tools, values = posting
                total[tools] += values
        if self._trigrams is not None:
            total += self.ranking.trigrams * self._trigrams.get_scores(trigrams(words))
        if self.ranking.intent:
            reads = query_reads(query)
            if reads is not None:
                total *= 1.0 + self.ranking.intent * (self._reads == reads)
        return total

    def meaning(self, query: str) -> np.ndarray | None:
        """Every tool's similarity in meaning to `query` (cosine of static vectors), None when not used."""
        if self._vectors is None:
            return None
        return self._vectors.cosines(self._meanings, query[:MAX_TEXT])

    def scores(self, query: str) -> np.ndarray:
        """Every tool's score for `query`, in catalog order (0 for a tool that has nothing to do with it).

        BM25 alone when the meaning is not used (0 for a tool that shares no word with the query). Otherwise
        BM25's score over the catalog's best, plus the similarity in meaning (cosine, 0 when not positive)
        over the catalog's best, weighted `Ranking.semantic`: each signal counts from 0 to 1 whatever its
        own scale, so neither drowns the other on a catalog of any size.
        """
        import numpy as np

        lexical = self.lexical(query)
        meaning = self.meaning(query)
        if meaning is None:
            return lexical
        return _over_best(lexical) + self.ranking.semantic * _over_best(np.maximum(meaning, 0.0).astype(lexical.dtype))

    def rank(
        self, query: str, *, allowed: Sequence[bool] | np.ndarray | None = None, limit: int = 5
    ) -> list[tuple[int, float]]:
        """The best `limit` tools for `query`: (position in the catalog, score), best first.

        Args:
            query: what the caller looks for, in any words.
            allowed: per tool, whether it may be returned (filters applied before ranking); None: all.
            limit: at most this many.

        Tools that share nothing with the query are not returned; ties keep catalog order.
        """
        import numpy as np

        if limit <= 0 or not self.names:
            return []
        scores = self.scores(query)
        if allowed is not None:
            mask = np.asarray(allowed, dtype=bool)
            if mask.shape != scores.shape:
                raise ValueError(f"allowed has {mask.shape[0]} values for {scores.shape[0]} tools")
            scores = np.where(mask, scores, -np.inf)
        # Stable order on the negated score: equal scores stay in catalog order, on every run.
        order = np.argsort(-scores, kind="stable")[:limit]
        return [(int(i), float(scores[i])) for i in order if scores[i] > 0 and math.isfinite(scores[i])]


def _fielded_postings(fields: Sequence[Sequence[list[str]]], ranking: Ranking) -> dict[str, tuple[Any, Any]]:
    """BM25F over a tool's fields: per term, the tools that have it and each one's score for it.

    `fields[f][d]` are tool d's terms in field f. A term's frequency in each field is normalised by that field's
    length (`Ranking.b`, against the field's mean length), weighted (`Ranking.weights`) and summed over the fields;
    the sum is saturated once (`Ranking.k1`) and multiplied by the term's IDF over whole tools (Lucene's,
    `log(1 + (N - df + 0.5) / (df + 0.5))`). All of it is fixed when the index is built, so a query only adds
    each of its terms' scores.
    """
    import numpy as np

    count = len(fields[0]) if fields else 0
    frequencies: dict[str, dict[int, float]] = {}
    for weight, documents in zip(ranking.weights, fields, strict=True):
        if not weight:
            continue
        lengths = [len(terms_) for terms_ in documents]
        mean = sum(lengths) / count if count else 0.0
        if mean <= 0:
            continue  # a field no tool has (no titles, no parameters) adds nothing
        for tool, terms_ in enumerate(documents):
            share = weight / (1.0 - ranking.b + ranking.b * lengths[tool] / mean)
            for term in terms_:
                per_tool = frequencies.setdefault(term, {})
                per_tool[tool] = per_tool.get(tool, 0.0) + share
    postings: dict[str, tuple[Any, Any]] = {}
    for term, per_tool in frequencies.items():
        idf = math.log(1.0 + (count - len(per_tool) + 0.5) / (len(per_tool) + 0.5))
        tools = np.fromiter(per_tool.keys(), np.intp, len(per_tool))
        frequency = np.fromiter(per_tool.values(), np.float64, len(per_tool))
        postings[term] = (tools, idf * frequency / (ranking.k1 + frequency))
    return postings


def _over_best(values: np.ndarray) -> np.ndarray:
    """Non-negative `values` over the largest of them (all 0 when none is above 0)."""
    best = float(values.max()) if values.size else 0.0
    return values / best if best > 0 and math.isfinite(best) else values * 0.0


def meaning_text(text: tuple[str, str, str, str]) -> str:
    """The text a tool's meaning is read from (its `tool_texts`): the words of its name, title, description and
    parameters."""
    name, *rest = text
    return ". ".join(part for part in (" ".join(split_words(name)), *rest) if part)


def _read_only(tool: Mapping[str, Any]) -> bool:
    annotations = tool.get("annotations")
    return isinstance(annotations, Mapping) and annotations.get("readOnlyHint") is True
