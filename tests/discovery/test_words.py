"""Search terms: names split at case and separators, stop words dropped, words stemmed."""

from __future__ import annotations

from hintgate.discovery.words import MAX_TEXT, split_words, terms


def test_a_name_is_split_at_case_changes_and_separators() -> None:
    assert split_words("getFileInfo") == ["get", "file", "info"]
    assert split_words("browser-take_screenshot.v2") == ["browser", "take", "screenshot", "v2"]
    assert split_words("HTTPServerStatus") == ["http", "server", "status"]


def test_digits_stay_with_the_word_they_name() -> None:
    assert split_words("S3ListBuckets") == ["s3", "list", "buckets"]
    assert split_words("auth0_list_applications") == ["auth0", "list", "applications"]


def test_terms_drop_stop_words_and_meet_at_their_stems() -> None:
    assert terms(["Lists the files in a directory"]) == terms(["list file directory"])
    assert "the" not in terms(["the file"], stem=False)


def test_a_huge_text_is_read_only_up_to_its_bound() -> None:
    assert len(split_words("word " * (MAX_TEXT))) <= MAX_TEXT // 5 + 1
