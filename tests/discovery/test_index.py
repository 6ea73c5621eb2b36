"""The index over tools: the right tool first, by words and by meaning, filters before ranking, the same order every
run."""

from __future__ import annotations

from typing import Any

import pytest

from hintgate.discovery.index import Ranking, ToolIndex, tool_texts


def tool(name: str, description: str = "", **properties: str) -> dict[str, Any]:
    schema = {"type": "object", "properties": {k: {"type": "string", "description": v} for k, v in properties.items()}}
    return {"name": name, "title": name, "description": description, "inputSchema": schema}


TOOLS = [
    tool("read_file", "Read the complete contents of a file.", path="Where the file is"),
    tool("write_file", "Create a new file or overwrite one.", path="Where to write", content="What to write"),
    tool("list_directory", "List the entries of a directory."),
    tool("get_current_time", "The current time in a timezone.", timezone="An IANA timezone name"),
    tool("take_screenshot", "Capture an image of the page."),
]


def names(index: ToolIndex, query: str, **kwargs: Any) -> list[str]:
    return [index.names[i] for i, _ in index.rank(query, **kwargs)]


def test_a_task_phrased_query_finds_its_tool_first() -> None:
    index = ToolIndex(TOOLS)
    assert names(index, "what time is it in Tokyo")[0] == "get_current_time"
    assert names(index, "show the folder's entries")[0] == "list_directory"
    assert names(index, "screenshot of the page")[0] == "take_screenshot"


def test_parameters_are_searched_by_name_and_description() -> None:
    index = ToolIndex(TOOLS)
    assert names(index, "IANA zone")[0] == "get_current_time"


def test_a_masked_tool_never_takes_a_place_in_the_ranking() -> None:
    index = ToolIndex(TOOLS)
    allowed = [name != "write_file" for name in index.names]
    found = names(index, "write a file", allowed=allowed, limit=10)
    assert "write_file" not in found
    assert found[0] == "read_file"


WORDS_ONLY = Ranking(semantic=0.0)


def test_by_words_alone_a_query_sharing_no_word_with_any_tool_finds_nothing() -> None:
    assert ToolIndex(TOOLS, Ranking(trigrams=0.0, semantic=0.0)).rank("zebra xylophone") == []


def test_a_task_sharing_no_word_with_its_tool_finds_it_by_meaning() -> None:
    memory = [
        tool("add_observations", "Add new observations to existing entities in the knowledge graph."),
        tool("list_disputes", "Fetch a list of disputes in Stripe."),
        tool("list_pods", "List pods in a namespace with their status."),
    ]
    index = ToolIndex([*TOOLS, *memory])
    assert names(index, "any chargebacks this week?")[0] == "list_disputes"
    assert names(ToolIndex([*TOOLS, *memory], WORDS_ONLY), "any chargebacks this week?") == []


def test_a_misspelt_word_still_finds_its_tool_by_its_trigrams() -> None:
    assert names(ToolIndex(TOOLS), "list the entires of a dirctory")[0] == "list_directory"
    assert names(ToolIndex(TOOLS, Ranking(trigrams=0.0, semantic=0.0)), "dirctory") == []


def test_a_query_that_reads_prefers_the_tool_that_reads_and_one_that_writes_the_other() -> None:
    twins = [
        {**tool("ledger_a", "Work with the ledger."), "annotations": {"readOnlyHint": True}},
        {**tool("ledger_b", "Work with the ledger."), "annotations": {"readOnlyHint": False}},
    ]
    index = ToolIndex([*twins, *TOOLS])
    assert names(index, "show the ledger")[0] == "ledger_a"
    assert names(index, "delete the ledger")[0] == "ledger_b"
    assert names(ToolIndex([*twins, *TOOLS], Ranking(intent=0.0)), "delete the ledger")[0] == "ledger_a"


def test_the_ranking_is_the_same_on_every_build_and_ties_keep_catalog_order() -> None:
    # Five names of the same word, no titles: the same words and the same meaning, so the scores tie exactly.
    twins = [{"name": name, "description": "Fetch a web page."} for name in ("twin", "Twin", "TWIN", "twin_", "_twin")]
    first = ToolIndex(twins).rank("fetch page", limit=5)
    assert [i for i, _ in first] == [0, 1, 2, 3, 4]
    assert len({score for _, score in first}) == 1
    assert ToolIndex(twins).rank("fetch page", limit=5) == first


def test_a_name_outweighs_the_same_word_in_a_long_description() -> None:
    noisy = tool("summarize", "Summarize text. " + "delete " * 3 + "words " * 60)
    index = ToolIndex([noisy, tool("delete_record", "Remove a record."), *TOOLS])
    assert names(index, "delete")[0] == "delete_record"


def test_a_mask_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(ValueError, match="allowed has 2 values for 5 tools"):
        ToolIndex(TOOLS).rank("file", allowed=[True, False])


def test_a_hostile_schema_is_read_up_to_its_bounds() -> None:
    huge = {"name": "x", "inputSchema": {"properties": {f"p{i}": {"description": "d" * 100_000} for i in range(500)}}}
    _, _, _, parameters = tool_texts(huge)
    assert len(parameters) <= 8192


def test_a_field_weighted_zero_is_not_searched() -> None:
    index = ToolIndex(TOOLS, Ranking(weights=(1.0, 1.0, 0.0, 0.0), trigrams=0.0, semantic=0.0))
    assert names(index, "IANA") == []


def test_nested_parameters_and_their_allowed_values_are_searched() -> None:
    nested = {
        "name": "manage",
        "inputSchema": {
            "properties": {
                "action": {"enum": ["rollout_restart", "scale"]},
                "target": {"type": "object", "properties": {"replicas": {"description": "How many copies"}}},
            }
        },
    }
    index = ToolIndex([nested, *TOOLS])
    assert names(index, "rollout restart")[0] == "manage"
    assert names(index, "how many replicas")[0] == "manage"


def test_a_word_most_tools_say_counts_little_even_where_only_one_name_says_it() -> None:
    # "find" is in one name only, but in most tools' descriptions: over whole tools (BM25F) it is a common word, and
    # the rare word the query also says ("news") decides.
    catalog = [
        tool("find_teams", "List the teams of an organization."),
        tool("headlines", "Find recent news articles about a topic."),
        tool("web_search", "Find pages on the web."),
        tool("file_search", "Find files whose names match a pattern."),
        tool("issue_search", "Find issues by their text."),
        tool("symbol_lookup", "Find a symbol by its name."),
    ]
    index = ToolIndex(catalog, Ranking(trigrams=0.0, intent=0.0, semantic=0.0))
    assert names(index, "find the news")[0] == "headlines"
