"""Token counts: o200k from the vocabulary bundled in bpe-openai, offline, estimated past a bound."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from hintgate.store import tokens
from hintgate.store.tokens import count_tokens, output_text


def test_counts_are_real_o200k_tokens() -> None:
    assert count_tokens("") == (0, False)
    assert count_tokens("hello world") == (2, False)
    assert count_tokens("<|endoftext|>").tokens > 1  # text, never a control token


def test_the_vocabulary_loads_without_the_network() -> None:
    script = textwrap.dedent(
        """
        import socket
        def refuse(*args, **kwargs):
            raise OSError("no network in this test")
        # Connecting is refused, not the socket class itself: ssl (imported by the database
        # drivers the store package loads) subclasses it.
        socket.socket.connect = refuse
        socket.socket.connect_ex = refuse
        socket.create_connection = refuse
        socket.getaddrinfo = refuse
        from hintgate.store.tokens import count_tokens
        print(count_tokens("hello world").tokens)
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "2"


def test_long_text_is_counted_up_to_a_bound_and_extrapolated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens, "EXACT_CHARS", 1000)
    text = "hello world " * 1000
    exact = len(text) // 12 * 2
    counted = count_tokens(text)
    assert counted.estimated
    assert abs(counted.tokens - exact) / exact < 0.02


def test_output_text_is_what_the_model_reads() -> None:
    result = {
        "content": [
            {"type": "text", "text": "one"},
            {"type": "image", "data": "AAAA", "mimeType": "image/png"},
            {"type": "resource", "resource": {"uri": "file:///x", "text": "two"}},
        ],
        "structuredContent": {"ignored": True},
    }
    assert output_text(result) == "one\ntwo"
    assert output_text({"content": [], "structuredContent": {"a": 1}}) == '{"a":1}'
    assert output_text({"content": [{"type": "image", "data": "AAAA", "mimeType": "image/png"}]}) == ""
    assert output_text(None, "upstream timed out") == "upstream timed out"
    assert output_text({"odd": "shape"}) == '{"odd":"shape"}'


def test_without_a_tokenizer_counts_are_estimated_not_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens, "_encoding", None)
    monkeypatch.setattr(tokens, "_failed", True)
    assert count_tokens("twelve chars") == (3, True)
