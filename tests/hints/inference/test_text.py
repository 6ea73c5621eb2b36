"""Description rules: an export that writes somewhere is a write; an attachment from mail or a chat is open world."""

from __future__ import annotations

import pytest

from hintgate.hints.annotations import Hint
from hintgate.hints.inference import infer


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("export_document", "Export the conversation to a new Google Doc in your Drive."),
        ("export_note", "Export the note as a PDF file."),
        ("export_sheet", "Exports the table into a new spreadsheet."),
    ],
)
def test_an_export_that_creates_a_file_or_a_document_in_a_store_is_a_write(name: str, description: str) -> None:
    found = infer(name, description, {"type": "object", "properties": {"id": {"type": "string"}}})
    assert found[Hint.READ_ONLY].value is False


def test_an_export_that_returns_what_it_exports_reads() -> None:
    found = infer("export_notes", "Export notes and return them as JSON.", {"type": "object", "properties": {}})
    assert found[Hint.READ_ONLY].value is True


@pytest.mark.parametrize(
    "description",
    [
        "Download an attachment from a Gmail message.",
        "Get the attachment of a chat message.",
        "Fetch attachments of an email in the inbox.",
    ],
)
def test_fetching_an_attachment_from_mail_or_a_chat_is_open_world(description: str) -> None:
    found = infer("get_attachment", description, {"type": "object", "properties": {"id": {"type": "string"}}})
    assert found[Hint.OPEN_WORLD].value is True
    assert found[Hint.OPEN_WORLD].rule == "desc.messages"


@pytest.mark.parametrize(
    "description",
    [
        "Delete a collection. Its notes are moved to uncategorized, not deleted.",
        "Delete a note template (no data loss: notes made from it are kept).",
        "Remove a tag from the index; nothing is deleted.",
    ],
)
def test_a_delete_whose_description_says_nothing_is_lost_keeps_a_local_servers_non_destructive_declaration(
    description: str,
) -> None:
    from hintgate.hints.catalog import resolve_tool
    from hintgate.hints.trust import Trust

    declared = {"readOnlyHint": False, "destructiveHint": False}
    tool = resolve_tool({"name": "delete_item", "description": description, "annotations": declared}, trust=Trust.LOCAL)
    assert tool.resolution.value(Hint.DESTRUCTIVE) is False


def test_a_plain_delete_still_overrules_a_local_servers_non_destructive_declaration() -> None:
    from hintgate.hints.catalog import resolve_tool
    from hintgate.hints.trust import Trust

    declared = {"readOnlyHint": False, "destructiveHint": False}
    tool = resolve_tool(
        {"name": "delete_file", "description": "Delete a file.", "annotations": declared}, trust=Trust.LOCAL
    )
    assert tool.resolution.value(Hint.DESTRUCTIVE) is True
