"""What a fish or zsh command text does, read word by word where the bash grammar does not fit.

Pure. fish and zsh are not bash: fish writes `(cmd)` for a substitution, `and`/`or` between commands and
`end` to close a block; zsh adds glob qualifiers (`*.py(.om[1,5])`). The text is split into commands at
their separators (`;`, a new line, `|`, `&`, parentheses, a lone brace) outside quotes; each command's
words are judged as an argv (`programs.judge_argv`), with the block keywords of the two shells skipped
and a loop's or a function's header read as no command. A substitution (`(cmd)` in fish, `$(cmd)` in both,
backticks) is judged as a command of its own, inside double quotes too. A redirection is judged by what it
does to its file: `>` overwrites, `>>` appends, fish's `>?` only creates, `<` and a descriptor or
`/dev/null` change nothing. Anything the reader cannot close (a quote, a parenthesis), a here-document, a
zsh glob qualifier that runs code (`e:...:`, `+func`) or a program chosen at run time is destructive.
"""

from __future__ import annotations

from collections.abc import Callable

from hintgate.hints.calls.judgement import Act, Judgement, riskiest, shorten

__all__ = ["SHELL_DIALECTS", "judge_other_shell"]

SHELL_DIALECTS = frozenset({"fish", "zsh"})
"""The shells read here (bash, sh, dash and ksh are read with the bash grammar)."""

Argv = Callable[[list[str]], Judgement]

_MAX_DEPTH = 6
_HARMLESS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "-"})
# Words that open, continue or close a block: the command is what follows them (or nothing).
_LEADING = frozenset({"and", "or", "not", "!", "if", "else", "elif", "while", "until", "do", "then", "begin", "time"})
_CLOSING = frozenset({"end", "done", "fi", "esac", "return", "break", "continue", "}"})
_HEADERS = frozenset({"for", "foreach", "select", "switch", "case", "function", "repeat"})
# Builtins of each shell that only compute or print (fish's manual: `math`, `string`, `count`, `contains`;
# zsh's `print`; the `[[` test of both zsh and bash).
_BUILTINS = {"fish": frozenset({"math", "string", "count", "contains"}), "zsh": frozenset({"print", "[["})}
# A zsh glob qualifier of these characters only selects files (by type, time, size, order, a range).
_QUALIFIER = frozenset("./@=p*%rwxRWXAIEsStfdlLoOnNmMaAcuUgGkKDFTY0123456789[],-^:hj")


class _Unread(Exception):
    """The text holds something the reader cannot close or judge."""


def judge_other_shell(text: str, dialect: str, argv: Argv, *, depth: int = 0) -> Judgement:
    """What running `text` in `dialect` (`fish` or `zsh`) does: the riskiest of its commands and redirections.

    Args:
        text: the command text.
        dialect: `fish` or `zsh`.
        argv: judges one command's words (`programs.judge_argv` with the shell judge).
        depth: how deep inside substitutions this is (bounded).
    """
    shown = shorten(text, 72)
    if depth > _MAX_DEPTH:
        return Judgement(Act.DESTRUCTIVE, f"{shown} (substitutions nested too deep to read)", "shell")
    try:
        commands, redirects, substitutions = _split(text, dialect)
    except _Unread as exc:
        return Judgement(Act.DESTRUCTIVE, f"a {dialect} text that does not parse ({exc}): {shown}", "shell")
    parts: list[Judgement] = [judge_other_shell(s, dialect, argv, depth=depth + 1) for s in substitutions]
    for operator, target in redirects:
        parts.append(_redirect(operator, target))
    defined: set[str] = set()
    for found in commands:
        words = _command_words(found, defined)
        if words:
            if words[0] in defined or words[0] in _BUILTINS[dialect]:
                parts.append(Judgement(Act.READ, " ".join(words), "shell", True))
            else:
                parts.append(argv(words))
    if not parts:
        return Judgement(Act.READ, shown, "shell", True)
    whole = riskiest(parts)
    what = shown if whole.act is Act.READ else next(p.what for p in parts if p.act is whole.act)
    return Judgement(whole.act, what, "shell", whole.idempotent, whole.open_world)


def _command_words(words: list[str], defined: set[str]) -> list[str]:
    """A command's words without the block keywords before it; a loop's, a case's or a function's header,
    and a closing word, are no command (a function's name is noted: a call of it runs its body)."""
    while words and words[0] in _LEADING:
        words = words[1:]
    if not words or words[0] in _CLOSING:
        return []
    if words[0] in _HEADERS:
        if words[0] == "function" and len(words) > 1:
            defined.add(words[1])
        return []
    if len(words) >= 2 and words[1] == "()" and words[0] not in _LEADING:
        defined.add(words[0])  # zsh `name () { ... }`
        return []
    return words


def _redirect(operator: str, target: str) -> Judgement:
    duplicated = operator.endswith("&") and (target.isdigit() or target == "-")  # `2>&1`, `>&-`
    if operator.startswith("<") or target in _HARMLESS or target.startswith("&") or duplicated:
        return Judgement(Act.READ, f"{operator} {target}", "shell", True)
    if operator.endswith(">?"):
        return Judgement(Act.ADDITIVE, f"creates {target} (never over one there)", "shell", True)
    if operator.endswith(">>"):
        return Judgement(Act.ADDITIVE, f"appends to {target}", "shell")
    return Judgement(Act.DESTRUCTIVE, f"overwrites {target or 'a file'}", "shell")


def _split(text: str, dialect: str) -> tuple[list[list[str]], list[tuple[str, str]], list[str]]:
    """The commands (each a list of words), the redirections and the substitutions of a text."""
    commands: list[list[str]] = [[]]
    redirects: list[tuple[str, str]] = []
    substitutions: list[str] = []
    word: list[str] = []
    started = False  # a word is being read (an empty quoted word counts)
    at = 0
    size = len(text)

    def end_word() -> None:
        nonlocal word, started
        if started:
            commands[-1].append("".join(word))
        word, started = [], False

    def end_command() -> None:
        end_word()
        if commands[-1]:
            commands.append([])

    while at < size:
        char = text[at]
        if char in " \t\r":
            end_word()
            at += 1
        elif char == "\\":
            if at + 1 < size and text[at + 1] == "\n":
                at += 2  # a line continued
                continue
            word.append(text[at + 1 : at + 2])
            started = True
            at += 2
        elif char == "'":
            close = _single_quote_end(text, at, dialect)
            word.append(text[at + 1 : close].replace("\\'", "'") if dialect == "fish" else text[at + 1 : close])
            started = True
            at = close + 1
        elif char == '"':
            close, inside = _double_quote(text, at)
            substitutions.extend(inside)
            word.append(text[at + 1 : close])
            started = True
            at = close + 1
        elif char == "#" and not started:
            newline = text.find("\n", at)
            at = size if newline < 0 else newline
        elif char == "`" or (char == "$" and text[at + 1 : at + 2] == "("):
            close, command = _substitution(text, at)
            substitutions.append(command)
            word.append("$SUBSTITUTED")
            started = True
            at = close + 1
        elif char == "(":
            close = _matching(text, at)
            inner = text[at + 1 : close]
            if dialect == "zsh" and started:
                if not set(inner) <= _QUALIFIER or "e" in inner or "+" in inner:
                    raise _Unread("a glob qualifier that may run code")
                word.append(f"({inner})")  # a glob qualifier: which files the pattern names
            elif dialect == "fish":
                substitutions.append(inner)  # `(cmd)`: a command substitution
                word.append("$SUBSTITUTED")
                started = True
            elif inner.strip() == "" and commands[-1] and not started:
                commands[-1].append("()")  # zsh `name () { ... }`
            else:
                end_command()
                substitutions.append(inner)  # a subshell: its commands run
                end_command()
            at = close + 1
        elif char in "<>" or (char == "&" and text[at + 1 : at + 2] == ">"):
            at = _redirection(text, at, word, started, redirects, substitutions)
            word, started = [], False
        elif char in ";\n|&)" or (char in "{}" and not started and (at + 1 >= size or text[at + 1] in " \t\n;")):
            end_command()  # a separator, or a lone brace opening or closing a group
            at += 1
        else:
            word.append(char)
            started = True
            at += 1
    end_command()
    return [c for c in commands if c], redirects, substitutions


def _redirection(
    text: str,
    at: int,
    word: list[str],
    started: bool,
    redirects: list[tuple[str, str]],
    substitutions: list[str],
) -> int:
    """Reads a redirection at `at` (its operator, then its target word); returns where reading goes on."""
    if started and not "".join(word).isdigit():
        raise _Unread("a redirection glued to a word")  # `echo hi>file` is read by no shortcut here
    operator = ""
    while at < len(text) and text[at] in "<>&|!?" and len(operator) < 3:
        operator += text[at]
        at += 1
    if operator in {"<<", "<<-"}:
        raise _Unread("a here-document")
    if operator in {"<(", ">("} or text[at : at + 1] == "(":
        close = _matching(text, at)
        substitutions.append(text[at + 1 : close])  # process substitution: its commands run
        return close + 1
    while at < len(text) and text[at] in " \t":
        at += 1
    start = at
    while at < len(text) and text[at] not in " \t\n;|&()<>":
        at += 1
    target = text[start:at].strip("'\"")
    if operator == "<<<":
        return at  # a here-string: read
    if not target and operator not in {">&", "<&"}:
        raise _Unread("a redirection without a target")
    redirects.append((operator, target))
    return at


def _single_quote_end(text: str, at: int, dialect: str) -> int:
    """Where the single-quoted string opened at `at` closes (fish lets `\\'` stand inside)."""
    cursor = at + 1
    while cursor < len(text):
        if text[cursor] == "\\" and dialect == "fish":
            cursor += 2
            continue
        if text[cursor] == "'":
            return cursor
        cursor += 1
    raise _Unread("a quote left open")


def _double_quote(text: str, at: int) -> tuple[int, list[str]]:
    """Where the double-quoted string opened at `at` closes, and the substitutions it holds (`$(...)`,
    backticks): they run."""
    inside: list[str] = []
    cursor = at + 1
    while cursor < len(text):
        char = text[cursor]
        if char == "\\":
            cursor += 2
            continue
        if char == '"':
            return cursor, inside
        if char == "`" or (char == "$" and text[cursor + 1 : cursor + 2] == "("):
            close, command = _substitution(text, cursor)
            inside.append(command)
            cursor = close + 1
            continue
        cursor += 1
    raise _Unread("a quote left open")


def _substitution(text: str, at: int) -> tuple[int, str]:
    """Where the command substitution opened at `at` (a backtick or `$(`) closes, and the command it runs."""
    if text[at] == "`":
        close = text.find("`", at + 1)
        if close < 0:
            raise _Unread("a backtick left open")
        return close, text[at + 1 : close]
    close = _matching(text, at + 1)
    return close, text[at + 2 : close]


def _matching(text: str, at: int) -> int:
    """Where the parenthesis opened at `at` closes (quotes inside skipped)."""
    depth = 0
    cursor = at
    while cursor < len(text):
        char = text[cursor]
        if char == "\\":
            cursor += 2
            continue
        if char in "'\"":
            close = text.find(char, cursor + 1)
            if close < 0:
                raise _Unread("a quote left open")
            cursor = close + 1
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return cursor
        cursor += 1
    raise _Unread("a parenthesis left open")
