"""PowerShell scripts and cmd.exe lines, judged by the commands they run."""

from __future__ import annotations

import pytest

from hintgate.hints.calls import ArgumentJudge
from hintgate.hints.calls.judgement import Act
from hintgate.hints.calls.windows_shells import judge_cmd, judge_powershell

R, A, D = Act.READ, Act.ADDITIVE, Act.DESTRUCTIVE


@pytest.mark.parametrize(
    ("script", "act"),
    [
        ("Get-ChildItem C:\\Logs -Recurse -Filter *.log | Measure-Object -Property Length -Sum", R),
        ("ls C:\\Logs | sort Length | select -First 5", R),
        ("Remove-Item C:\\Temp\\* -Recurse -WhatIf", R),
        ("(Invoke-WebRequest -Uri https://example.com -UseBasicParsing).StatusCode", R),
        ('$n = (Get-Process).Count; Write-Output "count: $n"', R),
        ("Get-Content a.txt # | Remove-Item b.txt", R),
        ('Add-Content -Path .\\build.log -Value "$(Get-Date) build ok"', A),
        ("New-Item -ItemType Directory out", A),
        ("Remove-Item C:\\Temp\\* -Recurse", D),
        ('Write-Output "now $(Remove-Item x.txt)"', D),
        ("Get-ChildItem | ForEach-Object { Remove-Item $_ }", D),
        ("[System.IO.File]::Delete('C:\\x.txt')", D),
        ("(Get-Item x.txt).Delete()", D),
        (". .\\setup.ps1", D),
        ("& 'C:\\tools\\deploy.ps1'", D),
        ("Invoke-WebRequest -Uri https://example.com/f.zip -OutFile f.zip", D),
        ("Invoke-RestMethod -Uri https://api.example.com/x -Method Delete", D),
        ("Get-Process | Tee-Object procs.txt", D),
        ("git push --force", D),
    ],
)
def test_a_powershell_script_is_judged_by_the_verbs_of_its_commands(script: str, act: Act) -> None:
    assert judge_powershell(script).act is act


@pytest.mark.parametrize(
    ("line", "act"),
    [
        ("dir /s /b C:\\build\\*.log", R),
        ("type config.ini | findstr port", R),
        ("dir 2>nul", R),
        ("mkdir out", A),
        ("echo done >> build.log", A),
        ("echo done > build.log", D),
        ("del /q /s C:\\build\\*.obj", D),
        ("dir & rd /s /q C:\\build", D),
        ("deploy.bat", D),
    ],
)
def test_a_cmd_line_is_judged_by_its_commands_and_redirections(line: str, act: Act) -> None:
    assert judge_cmd(line).act is act


def test_the_one_free_text_of_a_tool_that_names_powershell_is_a_script() -> None:
    listed = {
        "name": "ps",
        "description": "Run a PowerShell 7 script on the build host.",
        "inputSchema": {"type": "object", "properties": {"script": {"type": "string"}}, "required": ["script"]},
    }
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    read = judge.judge({"script": "Get-ChildItem C:\\Logs"})
    gone = judge.judge({"script": "Remove-Item C:\\Logs -Recurse"})
    assert read is not None
    assert read.act is R
    assert gone is not None
    assert gone.act is D


def test_a_tool_that_names_both_a_windows_and_a_posix_shell_is_not_read_as_either() -> None:
    listed = {
        "name": "sh",
        "description": "Run a command in bash or PowerShell.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
    }
    judge = ArgumentJudge.of(listed)
    assert judge is None or "windows" not in judge.kinds


@pytest.mark.parametrize(
    "script",
    [
        "Get-Process > procs.txt",
        "Get-Process *> all.txt",
        "Remove-Item x.txt -WhatIf:$false",
        "[IO.File]::Replace('a.txt', 'b.txt', 'c.bak')",
        "New-Item -ItemType File notes.txt -Value x -Force",
    ],
)
def test_powershell_redirections_switched_off_dry_runs_static_calls_and_forced_creates_are_destructive(
    script: str,
) -> None:
    assert judge_powershell(script).act is D


def test_powershell_output_sent_nowhere_or_appended() -> None:
    assert judge_powershell("Get-Process 2>$null").act is R
    assert judge_powershell("Get-Date >> log.txt").act is A


def test_cmd_sort_told_to_write_its_output_is_destructive() -> None:
    assert judge_cmd("sort names.txt /o names.txt").act is D


@pytest.mark.parametrize(
    "script",
    [
        "New-Alias ls Remove-Item; ls C:\\data",
        "$function:dir = $function:Remove-Item; dir C:\\data",
        "$alias:ls = 'Remove-Item'; ls C:\\data",
    ],
)
def test_a_powershell_command_name_given_another_meaning_is_destructive(script: str) -> None:
    assert judge_powershell(script).act is D


@pytest.mark.parametrize(
    ("script", "act"),
    [
        ("if (Test-Path C:\\logs\\a.log) { Get-Content C:\\logs\\a.log -Tail 20 } else { Write-Output 'none' }", R),
        ("if (Test-Path C:\\tmp\\x) { Remove-Item C:\\tmp\\x }", D),
        ("foreach ($f in Get-ChildItem C:\\logs) { $f.Name }", R),
        ("try { Get-Service sshd } catch { Stop-Service sshd }", D),
    ],
)
def test_powershell_keywords_run_nothing_themselves_and_their_parts_are_judged(script: str, act: Act) -> None:
    assert judge_powershell(script).act is act


@pytest.mark.parametrize("script", ["Get-Item x.txt | % Delete", "Get-Process | ForEach-Object -MemberName Kill"])
def test_foreach_object_given_a_member_name_calls_that_method_so_it_is_destructive(script: str) -> None:
    assert judge_powershell(script).act is D


@pytest.mark.parametrize(
    ("line", "act"),
    [
        ("schtasks /query /fo csv", Act.READ),
        ("reg query HKCU\\Software\\Example /s", Act.READ),
        ("sc \\\\build01 queryex wuauserv", Act.READ),
        ("schtasks /change /tn Backup /disable", Act.DESTRUCTIVE),
        ("reg add HKCU\\Software\\Example /v x /d 1", Act.DESTRUCTIVE),
        ("sc config wuauserv start= disabled", Act.DESTRUCTIVE),
    ],
)
def test_windows_programs_read_only_with_their_documented_query_operand(line: str, act: Act) -> None:
    assert judge_cmd(line).act is act


@pytest.mark.parametrize(
    ("script", "act"),
    [
        ("New-Item -ItemType Directory -Path .\\artifacts\\logs -Force | Out-Null", Act.ADDITIVE),
        ("New-Item -Path notes.txt -Force", Act.DESTRUCTIVE),
        ("New-Item -ItemType File -Path notes.txt -Force", Act.DESTRUCTIVE),
    ],
)
def test_new_item_forced_only_replaces_a_file_never_a_directory(script: str, act: Act) -> None:
    assert judge_powershell(script).act is act
