"""The classes of inference error that auto-run writes, each with invented tool names.

Names here are made up on purpose: a rule that only passes on names some
server really publishes would be a rule tuned to that server.
"""

from __future__ import annotations

from typing import Any

import pytest

from hintgate.hints.annotations import Hint, Inferred, Strength
from hintgate.hints.inference import infer

RO, D, IDEM, OW = Hint.READ_ONLY, Hint.DESTRUCTIVE, Hint.IDEMPOTENT, Hint.OPEN_WORLD


def value(found: dict[Hint, Inferred], hint: Hint) -> bool | None:
    inferred = found.get(hint)
    return None if inferred is None else inferred.value


def one_param(name: str, **spec: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {name: {"type": "string", **spec}}, "required": [name]}


# --- the action word is found by position, not presence ---------------------------------------


@pytest.mark.parametrize("name", ["gizmo_list", "gizmos.list", "GizmoList", "gizmo-list", "acme__gizmo_describe"])
def test_noun_verb_and_namespaced_names_find_a_read_action_at_the_end(name: str) -> None:
    assert value(infer(name), RO) is True


@pytest.mark.parametrize(
    "name",
    [
        "mark_memo_read",  # "read" is the state the memo is put in
        "markMemoRead",
        "memos.mark_read",
        "submit_appraisal_review",  # "review" is the thing submitted
        "review_payout_request",  # reviewing a request decides it
        "dismiss_gizmo_check",
        "acknowledge_alarm_status",
        "subscribe_mailing_list",
    ],
)
def test_a_read_word_used_as_object_or_state_never_makes_a_tool_read_only(name: str) -> None:
    assert value(infer(name), RO) is not True


def test_a_read_verb_in_action_position_reads_whatever_its_object_is() -> None:
    assert value(infer("get_memo_lineage"), RO) is True


def test_a_name_with_several_actions_takes_the_riskiest() -> None:
    found = infer("create_or_replace_gizmo")
    assert (value(found, RO), value(found, D)) == (False, True)
    assert value(infer("fetch_or_create_gizmo"), RO) is False


# --- execution surfaces -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "param", "spec"),
    [
        ("lookup_ledger", "sql", {"description": "Statement to run against the ledger."}),
        ("get_rows", "statement", {}),
        ("query_ledger", "q", {"description": "A SQL query to execute."}),
        ("inspect_page", "snippet", {"description": "JavaScript code evaluated in the page."}),
        ("probe_host", "line", {"description": "Shell command to run on the host."}),
        ("show_graph", "text", {"format": "cypher"}),
        ("fetch_report", "expr", {"examples": ["SELECT name FROM gizmos WHERE id = 1"]}),
    ],
)
def test_a_parameter_the_tool_runs_makes_it_a_non_idempotent_write(name: str, param: str, spec: dict[str, Any]) -> None:
    found = infer(name, "Runs it.", one_param(param, **spec))
    assert found[RO] == Inferred(False, "schema.exec-surface")
    assert value(found, IDEM) is False
    assert param in (found[RO].why or "")


def test_a_search_query_is_not_an_execution_surface() -> None:
    found = infer("query_gizmos", "Search gizmos.", one_param("query", description="Search terms to match."))
    assert value(found, RO) is True


@pytest.mark.parametrize(
    ("description", "param_description"),
    [
        ("Runs a read-only SQL query against the ledger.", "The SQL to execute."),
        ("Queries the ledger.", "The SQL to execute. Only SELECT statements are accepted."),
        ("Execute a read Cypher query on the graph.", "The Cypher query to execute."),
    ],
)
def test_a_surface_restricted_to_reads_in_so_many_words_keeps_a_read_name_read_only(
    description: str, param_description: str
) -> None:
    found = infer("query_ledger", description, one_param("sql", description=param_description))
    assert value(found, RO) is True


def test_code_given_to_a_create_is_stored_not_run() -> None:
    found = infer("create_macro", "Create a macro.", one_param("code", description="JavaScript source code."))
    assert found[RO] == Inferred(False, "name.verb.create")


# --- artifact and restore verbs ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["convert_memo", "synthesize_speech", "generate_thumb", "backup_now", "compile_deck"])
def test_artifact_verbs_create_something(name: str) -> None:
    found = infer(name, "Does it.")
    assert (value(found, RO), value(found, D)) == (False, False)


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("export_ledger", "Does it."),
        ("download_attachment", "Does it."),
        ("exportAllMemos", "Does it."),
        ("gizmo_backup_status", "Does it."),
        ("vault_archive_download", "Download the latest archive of a vault."),
        ("download_vault_backup", "Downloads a backup of the vault."),
    ],
)
def test_exporting_downloading_and_backup_status_tools_read(name: str, description: str) -> None:
    found = infer(name, description)
    assert (value(found, RO), value(found, D), value(found, IDEM)) == (True, False, True)


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("vault_archive_download", "Does it."),
        ("download_vault_backup", "Does it."),
        ("download_vault_backup", "Backs up the vault, then downloads it."),
        ("vault_backup_import", "Does it."),
    ],
)
def test_two_job_nouns_without_a_description_that_says_which_acts_are_not_read_only(
    name: str, description: str
) -> None:
    assert value(infer(name, description), RO) is False


@pytest.mark.parametrize(
    ("name", "description", "schema"),
    [
        ("export_ledger", "Export the ledger.", one_param("targetDirectory")),
        ("download_attachment", "Download an attachment.", one_param("save_path")),
        ("export_ledger", "Exports the ledger to a file on disk.", None),
        ("vault_attachment", "Download the attachment into the given folder.", None),
        ("gizmo_attachment", "Download the attachment.", one_param("destination_path")),
    ],
)
def test_an_export_or_download_told_where_to_save_is_not_read_only(
    name: str, description: str, schema: dict[str, Any] | None
) -> None:
    assert value(infer(name, description, schema), RO) is False


@pytest.mark.parametrize("name", ["import_contacts", "gizmo_backup_import", "vault_import_keyset", "restore_database"])
def test_importing_and_restoring_overwrite_what_is_there(name: str) -> None:
    found = infer(name, "Does it.")
    assert (value(found, RO), value(found, D)) == (False, True)


@pytest.mark.parametrize(
    "description",
    [
        "Soft delete a memo (can be restored later).",
        "Deletes the memo. It can be recovered from the archive for 30 days.",
        "Moves the memo to the trash.",
        "Delete a gizmo: it is sent to the recycle bin.",
    ],
)
def test_a_delete_that_can_be_restored_is_not_destructive(description: str) -> None:
    found = infer("delete_memo", description)
    assert found[D] == Inferred(False, "desc.recoverable")
    assert value(found, RO) is False


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("delete_memo", "Permanently delete a memo. Deleted memos cannot be restored."),
        ("delete_memo", "Deletes the memo; it cannot be restored. Use archive_memo if it can be restored later."),
        ("force_delete_memo", "Deletes the memo even when it is in the trash. It can be restored from a backup."),
        ("rename_memo", "Renames a memo. The old name can be restored."),
    ],
)
def test_a_warning_a_forced_delete_or_another_verb_keeps_the_restorable_phrase_from_counting(
    name: str, description: str
) -> None:
    assert value(infer(name, description), D) is True


@pytest.mark.parametrize(
    "name", ["restore_gizmo", "revert_memo", "rollback_release", "overwrite_ledger", "sync_roster"]
)
def test_restore_verbs_replace_existing_state(name: str) -> None:
    found = infer(name, "Does it.")
    assert (value(found, RO), value(found, D)) == (False, True)


@pytest.mark.parametrize("name", ["pause_gizmo", "resume_gizmo", "stop_gizmo"])
def test_lifecycle_changes_of_existing_things_are_not_called_additive(name: str) -> None:
    found = infer(name, "Does it.")
    assert value(found, RO) is False
    assert D not in found


# --- description words against the name, and evidence strength --------------------------------


def test_an_opaque_action_is_not_made_read_only_by_the_descriptions_opening_read() -> None:
    found = infer("process_ledger", "Gets the ledger totals.")
    assert value(found, RO) is False
    assert "process" in (found[RO].why or "")


def test_a_writing_action_against_read_only_in_the_description_takes_the_riskier_value() -> None:
    found = infer("deploy_gizmo", "Read-only: shows what a deploy would do.")
    assert found[RO] == Inferred(False, "conflict.read-only")
    assert found[RO].why is not None


def test_weak_evidence_may_make_a_tool_riskier() -> None:
    found = infer("get_gizmo", "Get a gizmo. It also updates the access counter.")
    assert found[RO] == Inferred(False, "desc.side-effect")
    assert found[RO].strength is Strength.WEAK


def test_weak_evidence_never_makes_a_tool_safer_on_its_own() -> None:
    found = infer("tally", "Entry totals; deleted entries are moved to the trash.", one_param("path"))
    assert D not in found
    assert OW not in found


def test_an_action_verb_in_action_position_is_strong_evidence() -> None:
    assert infer("list_gizmos")[RO].strength is Strength.STRONG
    assert infer("gizmo_list", http_method="GET")[RO].strength is Strength.STRONG


# --- OpenAPI operations -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("approveDeploymentReview", "Approve or reject a pending review."),
        ("reviewPendingDeployments", "Review pending deployments for a workflow run."),
        ("markNotificationRead", "Marks a notification as read."),
        ("reconcileLedger", "Read-only reconciliation of the ledger."),
        ("setGizmoView", "Gets the gizmo's view settings and stores new ones."),
    ],
)
def test_a_post_stays_a_write_unless_its_action_verb_only_reads(name: str, description: str) -> None:
    found = infer(name, description, http_method="POST")
    assert found[RO] == Inferred(False, "http.post")


@pytest.mark.parametrize("name", ["searchGizmos", "gizmos.list", "validate_ledger", "previewInvoice"])
def test_a_post_whose_action_verb_only_reads_is_read_only(name: str) -> None:
    assert infer(name, "", http_method="POST")[RO] == Inferred(True, "http.post.read-name")


def test_an_action_parameter_offering_a_write_makes_the_tool_as_risky_as_that_write() -> None:
    schema = {"type": "object", "properties": {"action": {"type": "string", "enum": ["list", "get", "purge"]}}}
    found = infer("gizmo_data", "Retrieve gizmo data; the action parameter picks the operation.", schema)
    assert found[RO] == Inferred(False, "schema.action-enum")
    assert value(found, D) is True


def test_an_action_parameter_offering_only_reads_leaves_a_read_tool_read_only() -> None:
    schema = {"type": "object", "properties": {"operation": {"type": "string", "enum": ["list", "describe"]}}}
    assert value(infer("gizmo_data", "Retrieve gizmo data.", schema), RO) is True


@pytest.mark.parametrize(
    "description",
    [
        "Telemetry store: run a log query or a management (dot) command.",
        "Sends a T-SQL batch to the server.",
        "Executes CQL on the cluster's default keyspace.",
        "Runs a database command and returns the reply document.",
    ],
)
def test_a_read_named_tool_that_says_it_runs_statements_or_commands_is_not_read_only(description: str) -> None:
    schema = {
        "type": "object",
        "properties": {"database": {"type": "string"}, "text": {"type": "string"}},
        "required": ["database", "text"],
    }
    found = infer("gizmo_query", description, schema)
    assert value(found, RO) is False
    assert found[RO].rule == "schema.exec-surface"


def test_a_tool_that_says_it_runs_only_read_statements_stays_read_only() -> None:
    schema = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    found = infer("gizmo_query", "Runs a read-only SQL query against the ledger.", schema)
    assert value(found, RO) is True


def test_a_read_named_tool_that_runs_a_graph_traversal_language_is_not_read_only() -> None:
    schema = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    found = infer("graph_query", "Run Gremlin traversals against the graph.", schema)
    assert value(found, RO) is False
