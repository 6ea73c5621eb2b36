"""Token counts: a calibrated o200k estimate by default; exact from bpe-openai's bundled vocabulary, offline."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from hintgate.store import tokens
from hintgate.store.tokens import count_tokens, estimate_tokens, output_text


def test_exact_counts_are_real_o200k_tokens() -> None:
    assert count_tokens("", exact=True) == (0, False)
    assert count_tokens("hello world", exact=True) == (2, False)
    assert count_tokens("<|endoftext|>", exact=True).tokens > 1  # text, never a control token


def test_counts_are_estimated_and_flagged_unless_exact_is_asked_for() -> None:
    assert count_tokens("") == (0, False)
    assert count_tokens("hello world") == (2, True)


@pytest.mark.parametrize(
    "text",
    [
        "Get the current time in a specific timezone. Use the IANA timezone name, e.g. 'Europe/Paris'.",
        '{"timezone":"Europe/Paris","datetime":"2026-11-23T14:10:55+01:00","day_of_week":"Monday","is_dst":false}',
        "commit 3f2a9c1\nAuthor: A <a@example.com>\n\n    Recorder counts tokens in its worker thread\n",
        "def handler(request: Request) -> Response:\n    return JSONResponse({'ok': True}, status_code=200)\n",
    ],
)
def test_the_estimate_is_close_to_the_exact_count_on_tool_text(text: str) -> None:
    exact = count_tokens(text, exact=True).tokens
    assert abs(estimate_tokens(text) - exact) <= max(2, exact * 0.15)


def test_the_estimate_never_loads_the_tokenizer() -> None:
    script = "from hintgate.store.tokens import count_tokens\nimport sys\ncount_tokens('hello world')\n"
    script += "print('bpe_openai' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "False"


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
        print(count_tokens("hello world", exact=True).tokens)
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "2"


def test_long_text_is_counted_up_to_a_bound_and_extrapolated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens, "EXACT_CHARS", 1000)
    text = "hello world " * 1000
    exact = len(text) // 12 * 2
    counted = count_tokens(text, exact=True)
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


def test_long_text_is_estimated_up_to_a_bound_and_extrapolated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens, "ESTIMATE_CHARS", 1200)
    seen: list[int] = []
    monkeypatch.setattr(tokens, "estimate_tokens", lambda text: seen.append(len(text)) or estimate_tokens(text))
    text = "hello world " * 1000
    counted = count_tokens(text)
    assert seen == [1200]
    assert counted.estimated
    assert abs(counted.tokens - estimate_tokens(text)) / estimate_tokens(text) < 0.02


def test_without_a_tokenizer_exact_counts_are_estimated_not_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens, "_encoding", None)
    monkeypatch.setattr(tokens, "_failed", True)
    assert count_tokens("twelve chars", exact=True) == (estimate_tokens("twelve chars"), True)


def test_an_estimate_is_the_same_whether_its_text_or_pieces_were_seen_before(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [
        '{"timezone":"Europe/Paris","datetime":"2026-11-23T14:10:55+01:00"}',
        "Héllo wörld, 日本語のテキスト 😀 and ASCII words again: words, words.",
        "  \n\n\t spaces, then CamelCaseWords and 1234567 digits !!! ... ",
        "x" * 40 + " " + "y" * 3,
    ]
    monkeypatch.setattr(tokens, "_CACHED_PIECES", 0)
    monkeypatch.setattr(tokens, "_CACHED_TEXT_CHARS", -1)
    uncached = [count_tokens(text) for text in texts]
    assert not tokens._TEXTS or all(text not in tokens._TEXTS for text in texts)
    monkeypatch.undo()

    for _ in range(2):  # seen for the first time, then from what was kept
        assert [count_tokens(text) for text in texts] == uncached
    assert all(text in tokens._TEXTS for text in texts)
