"""Trust levels: the default by where a source runs, and what `local` believes."""

from __future__ import annotations

from hintgate.hints.annotations import Annotations, Hint, Inferred, Origin, Strength, resolve
from hintgate.hints.catalog import resolve_tool
from hintgate.hints.trust import Trust, TrustFrom, trust_by_origin, trust_note


def test_a_server_launched_from_a_command_is_local_and_one_reached_by_url_untrusted() -> None:
    assert trust_by_origin("mcp", remote=False) is Trust.LOCAL
    assert trust_by_origin("mcp", remote=True) is Trust.UNTRUSTED


def test_openapi_operations_are_local_and_python_tools_trusted() -> None:
    assert trust_by_origin("openapi", remote=False) is Trust.LOCAL
    assert trust_by_origin("python", remote=False) is Trust.TRUSTED


def test_a_kind_the_function_does_not_know_is_untrusted() -> None:
    assert trust_by_origin("fake", remote=False) is Trust.UNTRUSTED


def test_a_local_server_s_declared_read_only_counts_where_no_evidence_disagrees() -> None:
    tool = resolve_tool(
        {"name": "show_things", "annotations": {"readOnlyHint": True, "openWorldHint": False}}, trust=Trust.LOCAL
    )
    assert tool.resolution.value(Hint.READ_ONLY) is True
    assert tool.resolution.hints[Hint.READ_ONLY].provenance.origin is Origin.DECLARED
    assert tool.resolution.value(Hint.OPEN_WORLD) is False
    assert tool.resolution.trusted


def test_a_local_server_s_lying_read_only_loses_to_strong_evidence_and_is_kept_as_set_aside() -> None:
    tool = resolve_tool(
        {"name": "purge_notes", "description": "Remove every note.", "annotations": {"readOnlyHint": True}},
        trust=Trust.LOCAL,
    )
    read_only = tool.resolution.hints[Hint.READ_ONLY]
    assert (read_only.value, read_only.distrusted) == (False, True)
    assert read_only.provenance.origin is Origin.INFERRED
    assert tool.resolution.value(Hint.DESTRUCTIVE) is True


def test_a_local_server_s_read_only_stands_against_an_action_servers_label_both_ways() -> None:
    # Starting, triggering or stopping something, connecting, generating: whether the environment
    # changes depends on what is started; the server's author knows, inference does not.
    for name, description in (
        ("trigger_long_operation", "Demonstrates a long running operation with progress updates."),
        ("start_search", "Start a streaming search that returns results progressively."),
        ("stop_tracing", "Stop trace recording."),
        ("connect", "Connect to a database instance and get back a connection id."),
        ("generate_types", "Generates TypeScript types for a project."),
        ("report_status", "Starts a background check of the cluster."),
    ):
        tool = resolve_tool(
            {"name": name, "description": description, "annotations": {"readOnlyHint": True}}, trust=Trust.LOCAL
        )
        read_only = tool.resolution.hints[Hint.READ_ONLY]
        assert (read_only.value, read_only.provenance.origin) == (True, Origin.DECLARED), name
        assert tool.resolution.inferred[Hint.READ_ONLY].strength is Strength.MODERATE, name


def test_a_local_server_s_read_only_still_loses_to_an_action_that_changes_what_it_acts_on() -> None:
    for name in ("create_note", "update_note", "send_message", "save_page", "execute_command", "click_button"):
        tool = resolve_tool(
            {"name": name, "description": "Does it.", "annotations": {"readOnlyHint": True}}, trust=Trust.LOCAL
        )
        read_only = tool.resolution.hints[Hint.READ_ONLY]
        assert (read_only.value, read_only.distrusted) == (False, True), name


def test_a_local_server_s_read_only_export_told_where_to_write_its_copy_loses() -> None:
    raw = {
        "name": "export_notebook_to_disk",
        "description": "Export a notebook as Markdown files.",
        "inputSchema": {"type": "object", "properties": {"directory": {"type": "string"}}},
        "annotations": {"readOnlyHint": True},
    }
    read_only = resolve_tool(raw, trust=Trust.LOCAL).resolution.hints[Hint.READ_ONLY]
    assert (read_only.value, read_only.distrusted, str(read_only.provenance)) == (
        False,
        True,
        "inferred:schema.export-path",
    )


def test_a_local_server_s_non_destructive_write_stands_against_its_name_alone() -> None:
    # Whether an update or a delete loses data depends on what the server keeps (versions, a trash):
    # the name's verb says the tool writes, not that what it replaces is lost.
    for name, description in (
        ("update_note", "A note's new text, kept as a new version beside the earlier ones."),
        ("delete_template", "Templates stop being offered for new notes."),
        ("restore_note_version", ""),
        ("set_note_tags", "Tags of a note."),
    ):
        tool = resolve_tool(
            {"name": name, "description": description, "annotations": {"destructiveHint": False}},
            trust=Trust.LOCAL,
        )
        destructive = tool.resolution.hints[Hint.DESTRUCTIVE]
        assert (destructive.value, destructive.provenance.origin) == (False, Origin.DECLARED), name
        assert tool.resolution.value(Hint.READ_ONLY) is False, name


def test_a_local_server_s_non_destructive_write_loses_when_its_text_says_the_data_is_lost() -> None:
    for name, description in (
        ("delete_concept", "Permanently delete a concept."),
        ("delete_repository", "Delete a repository. This cannot be undone."),
        ("delete_file", "Delete a file."),
        ("update_note", "Overwrite a note's text."),
        ("purge_note", "Remove a note."),
        ("hard_delete_note", ""),
    ):
        tool = resolve_tool(
            {"name": name, "description": description, "annotations": {"destructiveHint": False}},
            trust=Trust.LOCAL,
        )
        destructive = tool.resolution.hints[Hint.DESTRUCTIVE]
        assert (destructive.value, destructive.distrusted) == (True, False), name


def test_a_local_server_s_read_only_set_aside_takes_its_declared_destructive_false_with_it() -> None:
    # The spec gives destructiveHint no meaning on a tool declared read-only: once read-only falls,
    # nothing the server said about the write it did not declare stands.
    tool = resolve_tool(
        {"name": "drop_table", "annotations": {"readOnlyHint": True, "destructiveHint": False}},
        trust=Trust.LOCAL,
    )
    assert tool.resolution.value(Hint.READ_ONLY) is False
    assert tool.resolution.value(Hint.DESTRUCTIVE) is True


def test_a_trusted_server_s_lying_read_only_stands() -> None:
    tool = resolve_tool({"name": "purge_notes", "annotations": {"readOnlyHint": True}}, trust=Trust.TRUSTED)
    assert tool.resolution.value(Hint.READ_ONLY) is True


def test_weak_evidence_does_not_overrule_a_local_server_s_declaration() -> None:
    weak = resolve(
        declared=Annotations(destructive=False, read_only=False),
        inferred={Hint.DESTRUCTIVE: Inferred(True, "desc.word", Strength.WEAK)},
        trust=Trust.LOCAL,
    )
    assert weak.value(Hint.DESTRUCTIVE) is False
    strong = resolve(
        declared=Annotations(destructive=False, read_only=False),
        inferred={Hint.DESTRUCTIVE: Inferred(True, "name.verb.delete", Strength.STRONG)},
        trust=Trust.LOCAL,
    )
    assert (strong.value(Hint.DESTRUCTIVE), strong.hints[Hint.DESTRUCTIVE].distrusted) == (True, False)


def test_a_local_server_may_always_say_its_tool_is_riskier() -> None:
    tool = resolve_tool({"name": "get_thing", "annotations": {"readOnlyHint": False}}, trust=Trust.LOCAL)
    assert tool.resolution.value(Hint.READ_ONLY) is False


def test_trusted_shorthand_still_means_trusted_or_untrusted() -> None:
    assert resolve(declared=Annotations(), trust=Trust.TRUSTED).trust is Trust.TRUSTED
    assert resolve(declared=Annotations()).trust is Trust.UNTRUSTED


def test_the_note_on_a_server_that_is_not_trusted_says_where_its_trust_came_from_and_the_command_that_changes_it() -> (
    None
):
    note = trust_note("fetch", Trust.UNTRUSTED, TrustFrom.ORIGIN)
    assert note is not None
    assert note.startswith("fetch: untrusted (the default for where it runs): ")
    assert note.endswith("hintgate trust fetch")
    assert trust_note("git", Trust.TRUSTED, TrustFrom.CONFIG) is None
