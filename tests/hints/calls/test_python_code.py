"""Python given on a command line, read with Python's parser: a read only when every part of it plainly reads."""

from __future__ import annotations

import pytest

from hintgate.hints.calls.judgement import Act
from hintgate.hints.calls.programs import judge_argv
from hintgate.hints.calls.python_code import MAX_PYTHON, judge_python


@pytest.mark.parametrize(
    "code",
    [
        "import json; print(json.load(open('config.json'))['version'])",
        "import csv\nrows = list(csv.DictReader(open('users.csv')))\nprint(len(rows), list(rows[0].keys()))",
        "import re; print(re.findall(r'ERROR', open('app.log', 'r').read()))",
        "def f():\n    return 1\nprint(f())",
        "import sys; sys.stdout.write('hi')",
    ],
)
def test_python_that_only_imports_computing_modules_and_reads_files_is_a_read(code: str) -> None:
    assert judge_python(code).act is Act.READ


@pytest.mark.parametrize(
    "code",
    [
        "open('x', 'w').write('y')",
        "open('x', mode)",
        "import os; os.remove('x')",
        "import pathlib; pathlib.Path('x').unlink()",
        "import subprocess; subprocess.run(['rm', 'x'])",
        "import json; json.dump({}, open('x', 'w'))",
        "f = open; f('x', 'w')",
        "list(map(open, ['x'], ['w']))",
        "import sys; sys.modules['os'].system('rm -rf /')",
        "__import__('os').system('x')",
        "print(().__class__.__bases__[0].__subclasses__())",
        "eval('1')",
        "import sys; sys.stdout = None",
        "import urllib.request; urllib.request.urlopen('https://example.com', data=b'x')",
        "print(",
        "x = 1\n" * MAX_PYTHON,
    ],
)
def test_python_that_writes_runs_dynamic_code_or_cannot_be_read_is_destructive(code: str) -> None:
    assert judge_python(code).act is Act.DESTRUCTIVE


def test_python_dash_c_is_judged_by_its_program() -> None:
    assert judge_argv(["python3", "-c", "import json; print(json.load(open('c.json')))"]).act is Act.READ
    assert judge_argv(["python3", "-c", "import shutil; shutil.rmtree('build')"]).act is Act.DESTRUCTIVE
    assert judge_argv(["python3", "script.py"]).act is Act.DESTRUCTIVE
