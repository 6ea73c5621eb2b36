"""fish and zsh texts read as themselves: their loops, substitutions and glob qualifiers, failing closed."""

from __future__ import annotations

import pytest

from hintgate.hints.calls.judgement import Act
from hintgate.hints.calls.shell import judge_shell


@pytest.mark.parametrize(
    ("dialect", "text", "act"),
    [
        ("fish", "for f in *.md\n    wc -l $f\nend", Act.READ),
        ("fish", "string match -r 'rm -rf' (cat notes.txt)", Act.READ),
        ("fish", "set -l x 1; set x (math $x + 1); echo $x", Act.READ),
        ("fish", "function f; ls; end; f", Act.READ),
        ("fish", "ls 2>&1 | grep x", Act.READ),
        ("zsh", "print -l **/*.py(.mh-24)", Act.READ),
        ("zsh", 'for f in *.log(N); do print -- "$f: $(wc -l < $f)"; done', Act.READ),
        (
            "fish",
            "mkdir -p ~/.config/fish; and echo 'alias ll \"ls -lah\"' >> ~/.config/fish/config.fish",
            Act.ADDITIVE,
        ),
        ("fish", "echo hi >? new.txt", Act.ADDITIVE),
    ],
)
def test_fish_and_zsh_texts_that_only_read_or_add_are_read_as_such(dialect: str, text: str, act: Act) -> None:
    assert judge_shell(text, dialect=dialect).act is act


@pytest.mark.parametrize(
    ("dialect", "text"),
    [
        ("fish", "echo (rm -rf /)"),
        ("fish", "echo x(rm -rf /)"),
        ("fish", 'echo "$(rm x)"'),
        ("fish", "ls; and rm -rf x"),
        ("fish", "cat a > b"),
        ("fish", "function f; rm -rf ~; end; f"),
        ("fish", "cat <<EOF\nx\nEOF"),
        ("fish", "$cmd x"),
        ("fish", "echo 'left open"),
        ("fish", "echo hi>out"),
        ("zsh", "print -l *(e:'rm -rf /':)"),
        ("zsh", "ls >! out"),
        ("zsh", "for f (*.log) rm $f"),
    ],
)
def test_fish_and_zsh_writes_substitutions_and_what_cannot_be_read_are_destructive(dialect: str, text: str) -> None:
    assert judge_shell(text, dialect=dialect).act is Act.DESTRUCTIVE


def test_without_a_dialect_a_fish_text_stays_unparseable_bash() -> None:
    assert judge_shell("for f in *.md\n    wc -l $f\nend").act is Act.DESTRUCTIVE
