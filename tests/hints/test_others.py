"""The tools of every server but one, as the poisoning scan and the close-name check see them."""

from __future__ import annotations

import itertools

from hintgate.hints.others import OtherTools, tool_owners

BY_SERVER = {
    "mail": ["send_email", "list_inbox"],
    "work_mail": ["send_email"],
    "calc": ["add"],
}


def view(by_server: dict[str, list[str]], server: str) -> dict[str, str]:
    return dict(OtherTools(tool_owners(by_server), by_server[server]))


def test_a_name_two_servers_list_is_another_servers_tool_for_every_server_that_does_not_list_it() -> None:
    assert view(BY_SERVER, "calc") == {"send_email": "mail", "list_inbox": "mail"}
    for server in ("mail", "work_mail"):  # its own tool, whoever else has one of that name
        assert "send_email" not in view(BY_SERVER, server)
    assert view(BY_SERVER, "work_mail") == {"list_inbox": "mail", "add": "calc"}


def test_what_a_view_holds_does_not_depend_on_the_order_the_servers_were_listed_in() -> None:
    names = {server: set(view(BY_SERVER, server)) for server in BY_SERVER}
    for order in itertools.permutations(BY_SERVER):
        shuffled = {server: BY_SERVER[server] for server in order}
        assert {server: set(view(shuffled, server)) for server in BY_SERVER} == names


def test_lookups_iteration_and_length_agree() -> None:
    others = OtherTools.of(BY_SERVER, "work_mail")
    assert len(others) == len(list(others)) == 2
    assert "add" in others
    assert "send_email" not in others
    assert "nope" not in others
    assert others.get("add") == "calc"
    assert others.get("send_email") is None
    assert others.get("nope", "-") == "-"
    assert OtherTools.of(BY_SERVER, "unlisted") == tool_owners(BY_SERVER)
