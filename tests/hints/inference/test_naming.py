"""Name, description and input-schema rules of hint inference."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from hintgate.hints.annotations import Hint, Inferred
from hintgate.hints.inference import infer
from hintgate.hints.inference.naming import VERBS, name_words, parse_name, singular, tokenize, verb_of
from hintgate.hints.inference.schema import schema_facts
from hintgate.hints.inference.text import lead, lead_verbs

RO, D, IDEM, OW = Hint.READ_ONLY, Hint.DESTRUCTIVE, Hint.IDEMPOTENT, Hint.OPEN_WORLD
PACKAGE = Path(__file__).parents[3] / "src" / "hintgate" / "hints" / "inference"


def value(found: dict[Hint, Inferred], hint: Hint) -> bool | None:
    inferred = found.get(hint)
    return None if inferred is None else inferred.value


def schema(*names: str, required: tuple[str, ...] = (), **specs: dict[str, Any]) -> dict[str, Any]:
    properties: dict[str, Any] = {n: {"type": "string"} for n in names}
    properties.update(specs)
    return {"type": "object", "properties": properties, "required": list(required)}


# --- tokenizer --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "tokens"),
    [
        ("list_applications", ("list", "applications")),
        ("listApplications", ("list", "applications")),
        ("ListApplications", ("list", "applications")),
        ("list-applications", ("list", "applications")),
        ("memory.show", ("memory", "show")),
        ("github__create_issue", ("github", "create", "issue")),
        ("API-get-users", ("api", "get", "users")),
        ("GET_USERS", ("get", "users")),
        ("getURLInfo", ("get", "url", "info")),
        ("auth0_list_applications", ("auth0", "list", "applications")),
        ("mongodb-find", ("mongodb", "find")),
        ("s3_put_object", ("s3", "put", "object")),
        ("get2fa_codes", ("get2", "fa", "codes")),
        ("kubectl get/pods", ("kubectl", "get", "pods")),
        ("sequentialthinking", ("sequentialthinking",)),
        ("", ()),
    ],
)
def test_tokenizer_splits_every_common_name_shape(name: str, tokens: tuple[str, ...]) -> None:
    assert tokenize(name) == tokens


def test_verb_is_found_after_vendor_prefixes_without_naming_vendors() -> None:
    parts = parse_name("firecrawl_monitor_delete")
    assert parts.verb == "delete"
    assert parse_name("acme-user-services").verb is None
    assert parse_name("acme-user-services-writer").verb == "writer"  # an agent noun: who writes
    assert parse_name("moduleSearch").verb == "search"


def test_object_and_qualifiers_are_separated_from_the_verb() -> None:
    parts = parse_name("force_delete_all_branches")
    assert parts.verb == "delete"
    assert parts.object == ("branches",)
    assert parts.qualifiers == frozenset({"force", "all"})


# --- verb tables ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["get_user", "list_users", "search_docs", "find_symbol", "query_logs", "describe_table", "git_status"]
)
def test_read_verbs_make_a_tool_read_only_and_idempotent(name: str) -> None:
    found = infer(name)
    assert (value(found, RO), value(found, D), value(found, IDEM)) == (True, False, True)
    assert found[RO].rule == "name.verb.read"


@pytest.mark.parametrize("name", ["create_issue", "add_observations", "insert_rows", "append_log"])
def test_creating_verbs_are_additive_and_not_idempotent(name: str) -> None:
    found = infer(name)
    assert (value(found, RO), value(found, D), value(found, IDEM)) == (False, False, False)
    assert found[RO].rule == "name.verb.create"


@pytest.mark.parametrize("name", ["update_project", "set_config_value", "upsert_record", "configure_alerts"])
def test_updating_verbs_overwrite_so_are_destructive_and_idempotent(name: str) -> None:
    found = infer(name)
    assert (value(found, RO), value(found, D), value(found, IDEM)) == (False, True, True)


@pytest.mark.parametrize("name", ["delete_branch", "drop_collection", "purge_queue", "kill_process", "revoke_token"])
def test_deleting_verbs_are_destructive_and_idempotent(name: str) -> None:
    found = infer(name)
    assert (value(found, RO), value(found, D), value(found, IDEM)) == (False, True, True)
    assert found[RO].rule == "name.verb.delete"


@pytest.mark.parametrize("name", ["run_script", "execute_sql", "eval_js"])
def test_execution_verbs_are_never_read_only_and_leave_destructive_at_default(name: str) -> None:
    found = infer(name)
    assert value(found, RO) is False
    assert D not in found
    assert value(found, IDEM) is False


def test_send_verbs_reach_the_open_world() -> None:
    found = infer("send_email")
    assert (value(found, RO), value(found, D), value(found, OW)) == (False, False, True)


def test_navigation_verbs_are_open_world_writes() -> None:
    found = infer("browser_navigate", "Navigate to a URL")
    assert (value(found, RO), value(found, OW)) == (False, True)


@pytest.mark.parametrize("name", ["generate_api_key", "resolve_issue", "load_dataset", "simulate_payment"])
def test_opaque_verbs_never_guess_read_only(name: str) -> None:
    assert value(infer(name), RO) is not True


def test_a_read_verb_followed_by_a_writing_verb_is_not_read_only() -> None:
    found = infer("get_or_create_user")
    assert found[RO] == Inferred(False, "name.verbs.mixed")


def test_nouns_that_look_like_verbs_after_the_verb_do_not_block_read_only() -> None:
    assert value(infer("get_console_message"), RO) is True
    assert value(infer("list_data_set"), RO) is True


def test_soft_qualifier_makes_a_delete_not_destructive() -> None:
    found = infer("soft_delete_note")
    assert found[D] == Inferred(False, "name.qualifier.soft")
    assert value(found, RO) is False


def test_force_qualifier_makes_a_tool_destructive() -> None:
    found = infer("force_push_branch")
    assert found[D] == Inferred(True, "name.qualifier.force")


@pytest.mark.parametrize(
    ("name", "action"),
    [
        ("crop_record_search", "search"),
        ("cropRecordSearch", "search"),
        ("plc_register_read", "read"),
        ("mailing_list_add", "add"),
        ("message_delete", "delete"),
        ("schedule_list", "list"),
    ],
)
def test_a_thing_kept_before_a_final_verb_is_its_object(name: str, action: str) -> None:
    parts = parse_name(name)
    assert parts.verb == action
    assert parts.later_writes == ()


@pytest.mark.parametrize(
    ("name", "action"),
    [("batch_release_status", "status"), ("app_link_check", "check"), ("run_query", "run"), ("copy_file_list", "copy")],
)
def test_a_noun_like_verb_after_another_word_is_the_object_of_a_final_verb_but_first_it_acts(
    name: str, action: str
) -> None:
    assert parse_name(name).verb == action


@pytest.mark.parametrize("name", ["port_berth_schedule", "arc_flash_label", "blog_post"])
def test_a_thing_kept_named_last_after_other_words_is_no_action(name: str) -> None:
    assert parse_name(name).verb is None


@pytest.mark.parametrize("name", ["crop_record_search", "plc_register_read", "get_register", "read_register"])
def test_a_record_or_register_read_is_read_only(name: str) -> None:
    assert infer(name)[RO] == Inferred(True, "name.verb.read")


@pytest.mark.parametrize(
    ("name", "action"),
    [("record_audio", "record"), ("register_user", "register"), ("list_record", "list"), ("list_data_set", "list")],
)
def test_a_thing_kept_that_stands_alone_or_last_keeps_the_first_verb(name: str, action: str) -> None:
    assert parse_name(name).verb == action


@pytest.mark.parametrize(
    ("name", "rule"),
    [
        ("adjust_inventory", "name.verb.edit"),
        ("reroute_shipment", "name.verb.edit"),
        ("override_rate", "name.verb.update"),
        ("change_plan", "name.verb.update"),
        ("void_invoice", "name.verb.delete"),
        ("waive_fee", "name.verb.change"),
        ("withdraw_funds", "name.verb.change"),
        ("release_payment", "name.verb.change"),
        ("buy_ticket", "name.verb.change"),
        ("purchase_license", "name.verb.change"),
        ("forward_email", "name.verb.send"),
        ("push_changes", "name.verb.send"),
        ("excuse_absence", "name.verb.transition"),
        ("grant_role", "name.verb.transition"),
    ],
)
def test_verbs_of_changing_records_money_and_access_are_writing_actions(name: str, rule: str) -> None:
    parts = parse_name(name)
    assert (parts.writes, parts.reads) == (True, False)
    assert infer(name)[RO] == Inferred(False, rule)


@pytest.mark.parametrize("name", ["get_override", "list_push_subscriptions", "get_forward_rules", "get_release"])
def test_those_verbs_after_a_read_verb_are_its_object(name: str) -> None:
    parts = parse_name(name)
    assert (parts.reads, parts.writes) == (True, False)


@pytest.mark.parametrize(
    ("name", "may_write"), [("process_order", False), ("order_summary", False), ("process_refund", True)]
)
def test_a_name_whose_action_is_opaque_or_missing_neither_reads_nor_writes(name: str, may_write: bool) -> None:
    parts = parse_name(name)
    assert (parts.reads, parts.writes, parts.may_write) == (False, False, may_write)


@pytest.mark.parametrize(
    ("word", "one"),
    [
        ("secrets", "secret"),
        ("policies", "policy"),
        ("addresses", "address"),
        ("patches", "patch"),
        ("cookies", "cookie"),
        ("status", "status"),
        ("class", "class"),
        ("analysis", "analysis"),
        ("ids", "ids"),
    ],
)
def test_a_plural_has_its_regular_singular(word: str, one: str) -> None:
    assert singular(word) == one


def test_a_names_words_are_its_tokens_and_their_singulars() -> None:
    assert name_words("vault_getSecrets") == {"vault", "get", "secrets", "secret"}
    assert {"history", "ssh"} <= name_words("readSSHChatHistories")


@pytest.mark.parametrize(
    ("word", "rule"),
    [
        ("cancels", "name.verb.delete"),
        ("cancelled", "name.verb.delete"),
        ("cancellation", "name.verb.delete"),
        ("removal", "name.verb.delete"),
        ("dismissal", "name.verb.transition"),
        ("approved", "name.verb.transition"),
        ("closing", "name.verb.change"),
        ("modified", "name.verb.edit"),
        ("adjustment", "name.verb.edit"),
        ("dropped", "name.verb.delete"),
    ],
)
def test_a_verb_is_known_in_its_regular_forms(word: str, rule: str) -> None:
    found = verb_of(word)
    assert found is not None
    assert found.rule == rule


@pytest.mark.parametrize("word", ["signal", "general", "market", "marketing", "closely", "settings", "wedding"])
def test_a_word_that_only_looks_inflected_is_no_verb(word: str) -> None:
    assert verb_of(word) is None


def test_verb_table_has_no_word_in_two_classes() -> None:
    assert len(VERBS) == len(set(VERBS))


# --- verbs whose object decides, agent nouns ----------------------------------------------------


@pytest.mark.parametrize("name", ["parse_invoice_pdf", "gadget_parse", "extract_table_rows", "research_topics"])
def test_parsing_extracting_and_researching_read(name: str) -> None:
    assert value(infer(name), RO) is True


@pytest.mark.parametrize("name", ["extract_archive", "extractZipToFolder", "gadget_extract_tarball", "unzip_bundle"])
def test_extracting_an_archive_writes_its_files_out(name: str) -> None:
    found = infer(name)
    assert value(found, RO) is False
    assert found[RO].rule == "name.verb.artifact"


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("convert_distance", "Convert a distance between miles and kilometres."),
        ("convertCurrency", "Converts an amount from one currency to another."),
        ("gizmo_tool", "Convert a temperature between Celsius and Fahrenheit."),
    ],
)
def test_converting_a_value_is_neither_called_a_write_nor_a_read(name: str, description: str) -> None:
    found = infer(name, description)
    assert value(found, RO) is None
    assert value(found, D) is None


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("convert_document", "Convert a document to PDF."),
        ("convert_image_to_png", None),
        ("gizmo_tool", "Convert the given file to Markdown and save it beside the original."),
        ("convert", None),
    ],
)
def test_converting_a_stored_thing_makes_a_new_one(name: str, description: str | None) -> None:
    found = infer(name, description)
    assert value(found, RO) is False
    assert found[RO].rule.endswith("verb.artifact")


@pytest.mark.parametrize("name", ["resolve_widget_id", "resolveHostname", "gizmo_resolve_alias", "resolve_part_name"])
def test_resolving_a_name_or_identifier_looks_it_up(name: str) -> None:
    assert value(infer(name), RO) is True


@pytest.mark.parametrize("name", ["resolve_ticket", "resolve_outage_by_id", "resolve_dispute_for_name", "resolve"])
def test_resolving_anything_else_stays_opaque(name: str) -> None:
    assert RO not in infer(name)


@pytest.mark.parametrize("name", ["ledger_writer", "gadget_updater", "job_runner", "parts_importer"])
def test_a_name_without_a_verb_acts_through_a_writing_agent_noun(name: str) -> None:
    assert value(infer(name), RO) is False
    assert value(infer(name, "Lists the ledgers."), RO) is False  # the riskier of name and description


def test_a_writing_agent_noun_only_ever_makes_a_tool_look_riskier() -> None:
    # "update" would say idempotent; an agent noun is not an action in action position.
    found = infer("gadget_updater", "Select and run one of the gadget write operations.")
    assert found[RO].rule == "name.agent-noun"
    assert value(found, D) is True
    assert value(found, IDEM) in (None, False)
    assert value(infer("parts_importer"), D) is True  # "import" may overwrite: the cautious side is kept
    assert value(infer("parts_exporter"), RO) is None  # "export" reads: the safer side is not


@pytest.mark.parametrize("name", ["gadget_config_reader", "ledgerViewer", "increment_counter"])
def test_a_read_agent_noun_alone_never_makes_a_tool_read_only(name: str) -> None:
    assert RO not in infer(name)
    assert RO not in infer(name, "Increments the counter by one.")
    assert value(infer(name, "Returns the ledger's entries."), RO) is True


@pytest.mark.parametrize("name", ["current_user", "order_number", "gizmo_folder"])
def test_nouns_ending_in_er_that_name_no_verb_are_not_agent_nouns(name: str) -> None:
    assert parse_name(name).verb is None


def test_a_verb_before_an_agent_noun_stays_the_action() -> None:
    # "update the reader", "reset the counter": the agent noun is the object.
    assert value(infer("update_card_reader"), RO) is False
    assert value(infer("reset_page_counter"), RO) is False
    assert (
        value(infer("update_card_reader", "Update a card reader's settings; read-only ones are skipped."), RO) is False
    )


def test_a_read_only_statement_settles_a_noun_or_verb_before_a_reader_head() -> None:
    statement = "Select and run one of these read operations (read-only): list-releases, get-release."
    assert value(infer("gizmo-deploy-records-reader"), RO) is False
    found = infer("gizmo-deploy-records-reader", statement)
    assert value(found, RO) is True
    assert found[RO].rule == "desc.read-only"
    assert value(infer("gizmo-deploy-records-updater", statement), RO) is False


# --- description rules ------------------------------------------------------------------------


def test_delete_with_permanently_in_description_is_destructive() -> None:
    found = infer("remove_workspace", "Permanently delete a workspace.")
    assert found[D] == Inferred(True, "desc.irreversible")


def test_cannot_be_undone_anywhere_in_description_marks_destructive() -> None:
    found = infer("archive_monitor", "Stops a monitor.\n\nThis cannot be undone.")
    assert found[D] == Inferred(True, "desc.irreversible")


def test_soft_delete_in_the_description_of_a_delete_makes_it_additive() -> None:
    found = infer("delete_note", "Soft delete a note; it can be restored from the trash.")
    assert found[D] == Inferred(False, "desc.recoverable")
    assert value(found, RO) is False
    assert value(infer("purge_note", "Purge a note: it cannot be restored from the trash."), D) is True


def test_soft_qualifier_in_the_name_makes_a_delete_additive() -> None:
    found = infer("soft_delete_note", "Delete a note; it can be restored from the trash.")
    assert found[D] == Inferred(False, "name.qualifier.soft")


def test_overwrite_in_description_is_destructive() -> None:
    found = infer("write_file", "Create a new file or completely overwrite an existing file.")
    assert found[D] == Inferred(True, "desc.overwrite")


def test_never_overwrite_is_not_an_overwrite() -> None:
    found = infer("write_pdf", "Create a PDF. NEVER overwrite the original file.")
    assert found[D].rule != "desc.overwrite"


def test_read_only_statement_in_first_sentence_makes_a_nameless_tool_read_only() -> None:
    found = infer("netlify-team-services-reader", "Select and run one of these operations (read-only) get-teams")
    assert found[RO] == Inferred(True, "desc.read-only")


@pytest.mark.parametrize(
    "description",
    [
        "Execute SQL. Queries run in read-only mode by default.",
        "Run SQL in read-only mode by default.",
        "Switch databases; this tool is not read-only.",
    ],
)
def test_read_only_by_default_or_negated_does_not_make_a_tool_read_only(description: str) -> None:
    assert value(infer("run_query", description), RO) is False


def test_does_not_modify_makes_a_tool_read_only() -> None:
    assert infer("inspect_state", "Shows state without modifying anything.")[RO].value is True


def test_get_tool_that_updates_something_is_not_read_only() -> None:
    found = infer("get_quickstart_guide", "Fetch the guide. Resolves URLs and updates them on the application.")
    assert found[RO] == Inferred(False, "desc.side-effect")
    assert D not in found  # a read verb's destructive=false follows from read-only, which is gone


def test_get_tool_that_saves_to_disk_is_not_read_only() -> None:
    found = infer("lighthouse_audit", "Get Lighthouse scores. Full reports are saved to disk.")
    assert found[RO] == Inferred(False, "desc.saves-file")


def test_read_named_tool_whose_description_opens_with_a_write_is_not_read_only() -> None:
    found = infer("search_feedback", "Send structured feedback on a previous search result.")
    assert found[RO] == Inferred(False, "desc.verb.write")


def test_run_opening_a_read_description_does_not_veto_the_read_name() -> None:
    assert value(infer("find", "Run a find query against a MongoDB collection"), RO) is True


def test_nameless_tool_takes_its_description_opening_verbs() -> None:
    found = infer("collection-indexes", "Describe the indexes for a collection")
    assert found[RO] == Inferred(True, "desc.verb.read")


def test_several_opening_verbs_merge_to_the_riskiest() -> None:
    found = infer("browser_tabs", "List, create, close, or select a browser tab.")
    assert value(found, RO) is False
    assert found[RO].rule != "desc.verb.read"


def test_preamble_is_skipped_before_the_opening_verb() -> None:
    assert [w for w, _ in lead_verbs(lead("this tool will fetch a list of customers."))] == ["fetch"]
    assert [w for w, _ in lead_verbs("get config value")] == ["get"]


def test_third_person_verbs_are_recognised_in_descriptions() -> None:
    assert [w for w, _ in lead_verbs("lists, queries and retrieves things")] == ["lists", "queries", "retrieves"]


# --- input schema rules -----------------------------------------------------------------------


def test_output_path_parameter_takes_read_only_away() -> None:
    spec = {"savePath": {"type": "string", "description": "Local path to save the artifact to"}}
    found = infer("get_resource", "Retrieves a resource.", schema(**spec))
    assert found[RO] == Inferred(False, "schema.output-path")


def test_path_described_as_save_target_is_an_output_path() -> None:
    spec = {"responseFilePath": {"type": "string", "description": "Path to save the response body to."}}
    assert schema_facts(schema(**spec)).output_path


def test_bare_file_name_in_the_servers_output_area_is_not_an_output_path() -> None:
    spec = {"filename": {"type": "string", "description": "File name to save the console messages to."}}
    assert not schema_facts(schema(**spec)).output_path


def test_dry_run_flag_means_the_tool_changes_something() -> None:
    found = infer("sync_files", "Synchronise files.", schema("dry_run"))
    assert found[RO] == Inferred(False, "schema.dry-run")


def test_force_flag_is_destructive() -> None:
    found = infer("kubectl_apply", "Apply a manifest", schema(force={"type": "boolean"}))
    assert found[D] == Inferred(True, "schema.force-flag")


def test_confirm_flag_is_destructive() -> None:
    found = infer("drop_all", "Drops.", schema(confirm={"type": "boolean"}))
    assert found[D] == Inferred(True, "schema.confirm-flag")


def test_url_parameter_makes_a_tool_open_world() -> None:
    found = infer("summarize", "Summarize a document.", schema("url"))
    assert found[OW] == Inferred(True, "schema.url-param")


def test_required_local_path_parameter_alone_does_not_make_a_tool_closed_world() -> None:
    found = infer("read_text", "Read a text.", schema("path", required=("path",)))
    assert OW not in found


def test_optional_path_parameter_says_nothing_about_the_world() -> None:
    assert OW not in infer("get_instrumentation", "Get the configuration.", schema("file_path"))


def test_malformed_schemas_are_ignored() -> None:
    for bad in ({"properties": ["x"]}, {"properties": {"x": 3}}, {"properties": {1: {}}}):
        assert value(infer("get_user", "Get a user", bad), RO) is True


# --- open world -------------------------------------------------------------------------------


def test_web_words_make_a_tool_open_world() -> None:
    assert infer("web_search", "Search.")[OW] == Inferred(True, "name.web")
    assert infer("fetch", "Fetches a URL from the internet.")[OW] == Inferred(True, "desc.web")


@pytest.mark.parametrize(
    ("name", "description", "rule"),
    [
        ("read_graph", "Read the entire knowledge graph", "desc.local"),
        ("git_log", "Shows the commit logs of the git repository", "desc.local"),
        ("get_current_time", "Get current time in a specific timezone", "desc.compute"),
        ("confirm_cost", "Ask the user to confirm the cost.", "desc.ask-user"),
    ],
)
def test_closed_domains_are_not_open_world(name: str, description: str, rule: str) -> None:
    assert infer(name, description)[OW] == Inferred(False, rule)


@pytest.mark.parametrize(
    "name", ["memory.show", "session.get", "write_memories", "get_gizmo_config", "clear_cache", "read_local_file"]
)
def test_names_of_memory_session_config_and_local_file_tools_are_closed_world(name: str) -> None:
    assert infer(name, "Does it.")[OW] == Inferred(False, "name.local")


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("browser_session_get", "Get data."),
        (
            "fetch_config",
            "Fetch the configuration of the given URL.",
        ),
        ("gizmo_local_search", "Search for places."),
    ],
)
def test_web_words_beat_local_names_and_local_alone_is_not_local_files(name: str, description: str) -> None:
    assert value(infer(name, description), OW) is not False


@pytest.mark.parametrize("description", ["Toggles logging on or off; the log lines are simulated."])
def test_weak_evidence_alone_never_makes_a_tool_closed_world(description: str) -> None:
    assert OW not in infer("toggle_logging", description)


def test_cloud_api_without_signals_leaves_open_world_to_the_default() -> None:
    assert OW not in infer("list_customers", "This tool will fetch a list of Customers from Stripe.")


def test_a_tool_with_nothing_to_go_on_gets_no_hints() -> None:
    assert infer("sequentialthinking_xyz") == {}


# --- rule ids are documented ------------------------------------------------------------------


def test_every_rule_id_produced_on_examples_is_documented_in_a_docstring() -> None:
    docs = "\n".join(path.read_text(encoding="utf-8") for path in PACKAGE.glob("*.py"))
    examples = [
        infer("get_user"),
        infer("force_delete_x", "Permanently removes it. It overwrites all.", schema("dry_run")),
        infer("browser_tabs", "List, create, close, or select a browser tab."),
        infer("x", "Soft delete; saves it to disk and creates things."),
        infer("y", "Ask the user to confirm."),
    ]
    rules = {f.rule for found in examples for f in found.values()}
    assert "desc.verb.<class>" in docs
    for rule in rules:
        documented = rule
        if rule.startswith("desc.verb.") and rule != "desc.verb.write":
            documented = rule.replace("desc.", "name.", 1)  # documented once, as desc.verb.<class>
        assert re.search(rf"\b{re.escape(documented)}\b", docs), rule
