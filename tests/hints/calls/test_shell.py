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


@pytest.mark.parametrize(
    "text",
    [
        "PATH=/tmp/bin ls",
        "export PATH=./node_modules/.bin:$PATH; ls",
        "LD_PRELOAD=/tmp/hook.so cat notes.txt",
        "env PYTHONPATH=/tmp/x ls",
        "declare -x BASH_ENV=/tmp/init.sh",
        "PAGER='rm -rf ~' man ls",
        "LESSOPEN='|rm notes.txt' less notes.txt",
        "alias ls='rm -rf'",
        "env -S 'rm notes.txt'",
    ],
)
def test_a_variable_or_alias_that_chooses_what_later_commands_run_is_destructive(text: str) -> None:
    assert judge_shell(text).act is Act.DESTRUCTIVE


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("git reflog expire --expire=now --all", Act.DESTRUCTIVE),
        ("git reflog delete HEAD@{1}", Act.DESTRUCTIVE),
        ("git reflog show main", Act.READ),
        ("git diff --output=/etc/motd", Act.DESTRUCTIVE),
        ("git log -p --output=changes.patch", Act.DESTRUCTIVE),
        ("git format-patch -o out HEAD~1", Act.DESTRUCTIVE),
        ("git format-patch --stdout HEAD~1", Act.READ),
        ("git archive -o release.zip HEAD", Act.DESTRUCTIVE),
        ("git archive HEAD", Act.READ),
        ("git grep -O'rm -rf build' TODO", Act.DESTRUCTIVE),
        ("git difftool -y -x 'rm notes.txt'", Act.DESTRUCTIVE),
        ("git -c core.pager='rm notes.txt' log", Act.DESTRUCTIVE),
        ("git -c alias.st='!rm notes.txt' st", Act.DESTRUCTIVE),
        ("git --exec-path=/tmp/x status", Act.DESTRUCTIVE),
        ("git bugreport", Act.ADDITIVE),
        ("sed -e 's/a/b/e' notes.txt", Act.DESTRUCTIVE),
        ("sed -n -e 's/x/y/w out.txt' notes.txt", Act.DESTRUCTIVE),
        ("sed --expression='s|a|b|ge' notes.txt", Act.DESTRUCTIVE),
        ("sed -f edit.sed notes.txt", Act.DESTRUCTIVE),
        ("sed -n -e 's/a/b/p' notes.txt", Act.READ),
        ("curl -K settings.txt https://example.com", Act.DESTRUCTIVE),
        ("npm dist-tag add pkg@1.2.0 latest", Act.DESTRUCTIVE),
        ("npm owner rm bob pkg", Act.DESTRUCTIVE),
        ("npm dist-tag ls pkg", Act.READ),
        # A variable that sets data, a system PATH or a pager that only reads keeps a read a read.
        ("LANG=C sort names.txt", Act.READ),
        ("TZ=UTC date", Act.READ),
        ("GIT_PAGER=cat git log -5", Act.READ),
        ("env -i PATH=/usr/bin:/bin ls", Act.READ),
        ("git -c core.pager=cat log", Act.READ),
        ("git -c color.ui=always log", Act.READ),
        ("PAGER= git log", Act.READ),
        ("alias", Act.READ),
    ],
)
def test_sub_verbs_options_and_variables_that_write_or_start_programs_and_those_that_do_not(
    text: str, act: Act
) -> None:
    assert judge_shell(text).act is act


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("awk -v x=1 '{system(\"rm \" $1)}' list.txt", Act.DESTRUCTIVE),
        ("awk -F : '{system(\"rm notes.txt\")}' list.txt", Act.DESTRUCTIVE),
        ("awk -f report.awk list.txt", Act.DESTRUCTIVE),
        ("tar -tf backup.tar --to-command='rm notes.txt'", Act.DESTRUCTIVE),
        ("tar -tf backup.tar -I 'rm notes.txt'", Act.DESTRUCTIVE),
        ("tar -tf backup.tar --checkpoint=1 --checkpoint-action=exec='rm notes.txt'", Act.DESTRUCTIVE),
        ("sort --compress-program='rm notes.txt' list.txt", Act.DESTRUCTIVE),
        ("rsync -n -e 'sh -c \"rm notes.txt\"' src/ host:dst/", Act.DESTRUCTIVE),
        ("man -P 'rm notes.txt' ls", Act.DESTRUCTIVE),
        ("ssh -o ProxyCommand='rm notes.txt' host uptime", Act.DESTRUCTIVE),
        # The same options given a reading command, a stream compressor or the remote shell keep a read.
        ("awk -v x=1 '{print x, $1}' list.txt", Act.READ),
        ("awk -F, '{print $1}' list.txt", Act.READ),
        ("tar -I zstd -tf backup.tar", Act.READ),
        ("tar --checkpoint=10 --checkpoint-action=dot -tf backup.tar", Act.READ),
        ("sort --compress-program=gzip list.txt", Act.READ),
        ("rsync -avn -e 'ssh -p 2222' src/ host:dst/", Act.READ),
        ("man -P cat ls", Act.READ),
        ("ssh -o StrictHostKeyChecking=no host uptime", Act.READ),
    ],
)
def test_an_option_or_a_program_text_that_runs_a_command_is_judged_by_it(text: str, act: Act) -> None:
    assert judge_shell(text).act is act


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("psql -c 'SELECT 1' -o report.txt", Act.DESTRUCTIVE),
        ("psql -c 'SELECT 1' --output=report.txt", Act.DESTRUCTIVE),
        ("psql -L session.log -c 'SELECT 1'", Act.DESTRUCTIVE),
        ("mysql --tee=session.log -e 'SELECT 1'", Act.DESTRUCTIVE),
        ("sqlcmd -Q 'SELECT 1' -o report.txt", Act.DESTRUCTIVE),
        ("psql -o /dev/null -c 'SELECT 1'", Act.READ),
        ("psql -o /dev/null -c 'DELETE FROM t'", Act.DESTRUCTIVE),
    ],
)
def test_a_database_client_told_to_write_its_output_to_a_file_writes(text: str, act: Act) -> None:
    assert judge_shell(text).act is act


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("tree -o listing.txt", Act.DESTRUCTIVE),
        ("curl -c cookies.txt https://example.com", Act.DESTRUCTIVE),
        ("curl -D headers.txt https://example.com", Act.DESTRUCTIVE),
        ("curl --trace trace.txt https://example.com", Act.DESTRUCTIVE),
        ("wget -o fetch.log -O - https://example.com", Act.DESTRUCTIVE),
        ("wget -a fetch.log --spider https://example.com", Act.ADDITIVE),
        ("less -o copy.txt notes.txt", Act.DESTRUCTIVE),
        ("info -o ls.txt ls", Act.DESTRUCTIVE),
        ("file -C -m magic", Act.DESTRUCTIVE),
        ("dc -e '!rm notes.txt'", Act.DESTRUCTIVE),
        ("dc program.dc", Act.DESTRUCTIVE),
        # Told to write nowhere, or given nothing that writes, they still read.
        ("curl -c - https://example.com", Act.READ),
        ("wget -q -O - https://example.com", Act.READ),
        ("tree -L 2", Act.READ),
        ("dc -e '2 3 + p'", Act.READ),
        ("file notes.txt", Act.READ),
    ],
)
def test_a_reading_program_told_to_save_to_a_file_writes_it(text: str, act: Act) -> None:
    assert judge_shell(text).act is act


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("set -euo pipefail", Act.READ),
        ("set -o vi", Act.READ),
        ("set -gx EDITOR nano", Act.READ),
        ("set -l count 3", Act.READ),
        ("set -- -U a b", Act.READ),
        ("set -U theme dark", Act.DESTRUCTIVE),
        ("set -Ux EDITOR nano", Act.DESTRUCTIVE),
        ("set --universal theme dark", Act.DESTRUCTIVE),
    ],
)
def test_set_reads_within_the_session_and_a_setting_kept_for_later_sessions_writes(text: str, act: Act) -> None:
    assert judge_shell(text).act is act


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("count() { grep -c \"$1\" access.log; }; count ' 404 '; count ' 500 '", Act.READ),
        ('function sizes { du -sh "$@"; }; sizes src docs', Act.READ),
        ('wipe() { rm -rf "$1"; }; wipe /tmp/x', Act.DESTRUCTIVE),
        ('run() { "$@"; }; run rm -rf /', Act.DESTRUCTIVE),
        ("ls() { rm -rf ~; }; ls", Act.DESTRUCTIVE),
        ("count ' 404 '", Act.DESTRUCTIVE),  # no function of that name in the text: a program not known
    ],
)
def test_a_call_of_a_function_the_text_defines_runs_only_its_body(text: str, act: Act) -> None:
    assert judge_shell(text).act is act
