"""Shell command lines judged with tree-sitter's bash grammar: every command and redirection counts."""

from __future__ import annotations

import pytest

from hintgate.hints.calls.judgement import Act
from hintgate.hints.calls.programs import judge_argv
from hintgate.hints.calls.shell import judge_shell


@pytest.mark.parametrize(
    "text",
    [
        "ls -la /srv",
        "cat app.log | grep ERROR | sort | uniq -c | head -20",
        "find . -name '*.py' | xargs wc -l",
        "git log --oneline -5 && git status",
        "ls 2>&1 > /dev/null",
        "bash -c 'cat /etc/hostname'",
        "sudo -u www-data cat /var/www/.env",
        'echo "$(date)"',
        "kubectl get pods -n prod",
    ],
)
def test_command_lines_that_only_read_resolve_read_only(text: str) -> None:
    assert judge_shell(text).act is Act.READ


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("echo hi >> notes.txt", Act.ADDITIVE),
        ("echo hi > notes.txt", Act.DESTRUCTIVE),
        ("cat a | tee out.txt", Act.DESTRUCTIVE),
        ("cat a | tee -a out.txt", Act.ADDITIVE),
        ("mkdir -p build", Act.ADDITIVE),
        ("ls && rm -rf build", Act.DESTRUCTIVE),
        ("find /tmp -name '*.tmp' -delete", Act.DESTRUCTIVE),
        ("find . -exec rm {} \\;", Act.DESTRUCTIVE),
        ("ls | xargs rm", Act.DESTRUCTIVE),
        ("sed -i 's/a/b/' config.ini", Act.DESTRUCTIVE),
        ("bash -c 'rm -rf /'", Act.DESTRUCTIVE),
        ("env FOO=1 sudo rm x", Act.DESTRUCTIVE),
        ("echo $(rm -rf ~)", Act.DESTRUCTIVE),
        ("curl -X DELETE https://api.example.com/items/1", Act.DESTRUCTIVE),
        ("git push --force origin main", Act.DESTRUCTIVE),
    ],
)
def test_writes_resolve_by_the_riskiest_part(text: str, act: Act) -> None:
    assert judge_shell(text).act is act


@pytest.mark.parametrize("text", ["echo 'unterminated", "$TOOL --all", "frobnicate --now"])
def test_unparseable_lines_unknown_programs_and_programs_chosen_at_run_time_are_destructive(text: str) -> None:
    assert judge_shell(text).act is Act.DESTRUCTIVE


def test_curl_reaches_the_open_world() -> None:
    assert judge_shell("curl -s https://example.com").open_world is True


def test_an_argv_list_has_no_shell_so_separators_are_only_words() -> None:
    assert judge_argv(["echo", "hello; rm -rf /"]).act is Act.READ


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("ifconfig eth0", Act.READ),
        ("ifconfig eth0 down", Act.DESTRUCTIVE),
        ("route -n", Act.READ),
        ("route add default gw 10.0.0.1", Act.DESTRUCTIVE),
        ("arp -d 10.0.0.1", Act.DESTRUCTIVE),
        ("nmcli con show", Act.READ),
        ("nmcli radio wifi off", Act.DESTRUCTIVE),
        ("openssl x509 -in cert.pem -noout -text", Act.READ),
        ("openssl genrsa -out key.pem 2048", Act.DESTRUCTIVE),
        ("http GET example.com/items", Act.READ),
        ("http DELETE example.com/items/1", Act.DESTRUCTIVE),
        ("http example.com/items name=bob", Act.ADDITIVE),
        ("http example.com/items q==1 Accept:text/html", Act.READ),
        ("source ./deploy.sh", Act.DESTRUCTIVE),
        ("journalctl -u nginx --since today", Act.READ),
        ("journalctl --vacuum-time=2d", Act.DESTRUCTIVE),
        ("dmesg -C", Act.DESTRUCTIVE),
        ("history -c", Act.DESTRUCTIVE),
        ("kill -0 1234", Act.READ),
        ("make -n", Act.READ),
        ("make deploy", Act.DESTRUCTIVE),
        ("ansible-playbook site.yml --check", Act.READ),
        ("ansible-playbook site.yml", Act.DESTRUCTIVE),
        ("pg_dump app", Act.READ),
        ("pg_dump -f app.sql app", Act.DESTRUCTIVE),
        ("xxd -r dump.hex out.bin", Act.DESTRUCTIVE),
        ("python3 -m pip list", Act.READ),
        ("python3 -m pip install httpx", Act.ADDITIVE),
        ("uv pip install httpx", Act.ADDITIVE),
        ("git apply --check fix.patch", Act.READ),
    ],
)
def test_programs_that_read_unless_a_verb_or_option_makes_them_write(text: str, act: Act) -> None:
    assert judge_shell(text).act is act
