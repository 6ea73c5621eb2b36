"""How the stdio transport writes a message: one compact line, a result the scan wrote already not encoded again."""

from __future__ import annotations

import json

from hintgate.results import WrittenResult
from hintgate.server.stdio import encoded_line

RESULT = {"content": [{"type": "text", "text": "Zürich, 12:00 \u2028"}], "isError": False}


def _plain(message: dict[str, object]) -> bytes:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def test_a_response_whose_result_the_scan_wrote_is_written_around_that_text_byte_for_byte_as_encoded() -> None:
    written = WrittenResult(RESULT, json.dumps(RESULT, separators=(",", ":"), ensure_ascii=False))
    for request_id in (7, "a-\u00e9"):
        assert encoded_line({"jsonrpc": "2.0", "id": request_id, "result": written}) == _plain(
            {"jsonrpc": "2.0", "id": request_id, "result": RESULT}
        )


def test_the_scans_text_is_what_goes_out_and_other_messages_are_encoded_whole() -> None:
    reused = WrittenResult(RESULT, '{"reused":true}')
    assert (
        encoded_line({"jsonrpc": "2.0", "id": 1, "result": reused})
        == b'{"jsonrpc":"2.0","id":1,"result":{"reused":true}}\n'
    )
    # Another shape (a notification, a plain result) is encoded whole.
    notification = {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1}}
    assert encoded_line(notification) == _plain(notification)
    assert encoded_line({"jsonrpc": "2.0", "id": 2, "result": RESULT}) == _plain(
        {"jsonrpc": "2.0", "id": 2, "result": RESULT}
    )
