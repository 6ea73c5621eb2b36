"""`hintgate pins`: list, show, accept, export and import on a store, with no gateway running."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from tests import tools
from typer.testing import CliRunner

from hintgate.cli.app import app
from hintgate.hints.pins import PinState, reconcile
from hintgate.store import Store

NOW = datetime(2026, 3, 1, tzinfo=UTC)


def tool(name: str, description: str) -> dict[str, Any]:
    return tools.tool(name, description, schema={"type": "object", "properties": {}})


def seed(db: str, *, manual: bool = False) -> None:
    listing = {
        "mail": [("mail_send_email", tool("send_email", "Send an email — to anyone."))],
        "docs": [("docs_get_doc", tool("get_doc", "Get a doc.")), ("docs_list_docs", tool("list_docs", "List."))],
    }
    found = reconcile({}, listing, now=NOW, manual=frozenset({"docs"} if manual else ()))

    async def write() -> None:
        async with await Store.open(db, replica="t") as store:
            await store.pins.save(found.pins, found.events)

    asyncio.run(write())


def pins_of(db: str) -> dict[tuple[str, str], Any]:
    async def read() -> Any:
        async with await Store.open(db, replica="t", recover=False) as store:
            return {p.key: p for p in await store.pins.all()}

    return asyncio.run(read())


def run(*args: str) -> Any:
    return CliRunner().invoke(app, ["pins", *args], catch_exceptions=False)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'hintgate.db'}"


def test_list_shows_every_pin_with_its_state_and_json_carries_the_definitions(db: str) -> None:
    seed(db, manual=True)
    text = run("list", "--db", db)
    assert text.exit_code == 0, text.output
    assert "docs_get_doc" in text.stdout
    assert "quarantined" in text.stdout
    rows = json.loads(run("list", "--db", db, "--format", "json", "--server", "mail").stdout)
    assert [(r["name"], r["state"]) for r in rows] == [("mail_send_email", "accepted")]
    assert json.loads(rows[0]["definition"])["description"] == "Send an email — to anyone."
    bad = run("list", "--db", db, "--state", "held")
    assert bad.exit_code == 2
    assert "--state" in bad.output


def test_accept_releases_one_tool_a_servers_held_tools_or_all_and_says_what_it_did(db: str) -> None:
    seed(db, manual=True)
    one = run("accept", "docs_get_doc", "--db", db, "--by", "alice")
    assert one.exit_code == 0, one.output
    assert "accepted docs_get_doc (docs)" in one.stdout
    pins = pins_of(db)
    assert pins[("docs", "get_doc")].state is PinState.ACCEPTED
    assert pins[("docs", "get_doc")].accepted_by == "alice"
    assert pins[("docs", "list_docs")].state is PinState.QUARANTINED
    server = run("accept", "--server", "docs", "--db", db)
    assert "accepted docs_list_docs" in server.stdout
    assert "nothing to accept" in run("accept", "--all", "--db", db).stdout
    assert pins_of(db)[("mail", "send_email")].accepted_by == "first use"  # --all leaves first-use pins be


def test_accept_needs_exactly_one_choice_and_a_known_tool(db: str) -> None:
    seed(db)
    neither = run("accept", "--db", db)
    assert neither.exit_code == 2
    assert "give one of" in neither.output
    both = run("accept", "docs_get_doc", "--all", "--db", db)
    assert both.exit_code == 2
    unknown = run("accept", "nope", "--db", db)
    assert unknown.exit_code == 2
    assert "no pinned tool named 'nope'" in unknown.output


def test_export_then_import_into_another_store_round_trips_the_accepted_pins(db: str, tmp_path: Path) -> None:
    seed(db, manual=True)
    exported = tmp_path / "pins.yaml"
    assert run("export", str(exported), "--db", db).exit_code == 0
    again = run("export", "--db", db)
    assert again.stdout == exported.read_text()  # stable: the same pins are the same bytes
    assert "get_doc" not in again.stdout  # held, never accepted: not exported
    other = f"sqlite:///{tmp_path / 'other.db'}"
    imported = run("import", str(exported), "--db", other)
    assert imported.exit_code == 0, imported.output
    assert "1 pins read" in imported.stdout
    [pin] = pins_of(other).values()
    original = pins_of(db)[("mail", "send_email")]
    assert (pin.server, pin.tool, pin.accepted_sha256) == ("mail", "send_email", original.accepted_sha256)
    assert pin.reviewed
    as_json = tmp_path / "pins.json"
    run("export", str(as_json), "--db", other)
    assert json.loads(as_json.read_text())["pins"][0]["sha256"] == original.accepted_sha256


def test_import_refuses_a_file_whose_hash_does_not_match_and_names_the_entry(db: str, tmp_path: Path) -> None:
    seed(db)
    exported = tmp_path / "pins.json"
    run("export", str(exported), "--db", db)
    document = json.loads(exported.read_text())
    document["pins"][1]["definition"]["description"] = "Edited."
    exported.write_text(json.dumps(document))
    refused = run("import", str(exported), "--db", db)
    assert refused.exit_code == 2
    assert "pins[1]" in refused.output
    assert "sha256" in refused.output
    missing = run("import", str(tmp_path / "nope.yaml"), "--db", db)
    assert missing.exit_code == 2
    assert "cannot read the pins file" in missing.output


def test_block_keeps_a_held_tool_blocked_with_who_and_why_and_show_and_list_say_so(db: str) -> None:
    seed(db, manual=True)
    done = run("block", "docs_get_doc", "--db", db, "--by", "alice", "--reason", "  not reviewed by legal ")
    assert done.exit_code == 0, done.output
    assert "kept blocked docs_get_doc (docs)" in done.stdout
    pin = pins_of(db)[("docs", "get_doc")]
    assert pin.state is PinState.QUARANTINED
    assert pin.blocked is not None
    assert (pin.blocked.by, pin.blocked.reason) == ("alice", "not reviewed by legal")
    shown = run("show", "docs_get_doc", "--db", db)
    assert "kept blocked by alice" in shown.stdout
    assert "blocked by alice: not reviewed by legal" in shown.stdout  # the history line
    [row] = json.loads(
        run("list", "--db", db, "--format", "json", "--server", "docs", "--state", "quarantined").stdout
    )[:1]
    assert row["blocked"]["by"] == "alice"
    assert "blocked" in run("list", "--db", db).stdout


def test_block_refuses_an_unknown_tool_and_one_that_is_not_held(db: str) -> None:
    seed(db)
    unknown = run("block", "nope", "--db", db)
    assert unknown.exit_code == 2
    assert "no pinned tool named 'nope'" in unknown.output
    accepted = run("block", "mail_send_email", "--db", db)
    assert accepted.exit_code == 2
    assert "is not held (accepted)" in accepted.output
    assert pins_of(db)[("mail", "send_email")].blocked is None
