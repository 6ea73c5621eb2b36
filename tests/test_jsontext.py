"""JSON from another party is read with no lone surrogate in it (`hintgate.jsontext`)."""

from __future__ import annotations

import json

import pytest

from hintgate import jsontext


def test_half_a_surrogate_pair_in_a_string_or_a_key_becomes_one_replacement_character() -> None:
    line = b'{"jsonrpc": "2.0", "result": {"a\\udc01": ["x\\ud800y", {"k": "\\uDBFF"}]}}'
    value = jsontext.loads(line)
    assert value == {"jsonrpc": "2.0", "result": {"a\ufffd": ["x\ufffdy", {"k": "\ufffd"}]}}
    json.dumps(value, ensure_ascii=False).encode("utf-8")  # writable as UTF-8 now


def test_a_whole_pair_and_text_without_escapes_are_read_as_they_are() -> None:
    assert jsontext.loads('{"t": "\\ud83d\\ude00 caf\u00e9"}') == {"t": "\U0001f600 caf\u00e9"}
    assert jsontext.loads(b'["\\\\ud800"]') == ["\\ud800"]  # an escaped backslash, then letters


def test_what_is_not_json_fails_as_json_loads_fails() -> None:
    with pytest.raises(json.JSONDecodeError):
        jsontext.loads(b'{"a": "\\ud800"')


def test_content_nested_past_the_depth_is_kept_as_it_is() -> None:
    nested: object = "\ud800"
    for _ in range(jsontext.DEPTH + 5):
        nested = [nested]
    kept = jsontext.readable(nested)
    while isinstance(kept, list):
        kept = kept[0]
    assert kept == "\ud800"  # left for a reader that goes no deeper
    shallow = jsontext.readable([[["\ud800"]]])
    assert shallow == [[["\ufffd"]]]


def test_a_lone_surrogate_in_a_text_becomes_one_replacement_character_and_a_text_without_one_is_kept() -> None:
    assert jsontext.replace_lone_surrogates("a\ud800b \udfff \U0001f600") == "a\ufffdb \ufffd \U0001f600"
    text = "caf\u00e9 \U0001f600"
    assert jsontext.replace_lone_surrogates(text) is text
    assert jsontext.replace_lone_surrogates("plain") == "plain"
