"""What a shell command string does, read with a real parser (tree-sitter's bash grammar).

Pure. The text is parsed whole; every simple command in it is judged by
`programs.judge_argv` (pipelines, `&&`/`||`/`;` lists, `$(...)` and `<(...)`
substitutions, subshells, loops and functions: every command that could run
counts), and every redirection by what it does to its file: `>` overwrites
(destructive), `>>` appends (additive), `<` and here-documents read, and
`/dev/null` or a file descriptor (`2>&1`) changes nothing; a variable set
(`NAME=value`, `export NAME=value`) is inert unless it chooses what code later
commands run (`PATH`, `LD_PRELOAD`, `PAGER`: `programs.runs_code_from`). The text reads only
when every part reads; otherwise the riskiest part decides. A text the parser
marks as an error, a command word that is an expansion (`$CMD args`: what it
runs is not in the text), or a text too long to read is destructive.
"""

from __future__ import annotations

import threading
from typing import Any

from hintgate.hints.calls.judgement import Act, Judgement, riskiest, shorten
from hintgate.hints.calls.programs import judge_argv, runs_code_from
from hintgate.scan.deferred import compiled

__all__ = ["MAX_SHELL", "judge_shell"]

MAX_SHELL = 16_000
"""Characters of a command read; a longer one is judged destructive unread."""

_HARMLESS_TARGETS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "-"})
_WORDS = frozenset({"word", "string", "raw_string", "concatenation", "number", "ansi_c_string", "translated_string"})
_EXPANSIONS = frozenset(
    {"simple_expansion", "expansion", "command_substitution", "process_substitution", "arithmetic_expansion"}
)


_LOCAL = threading.local()
_DEFINES = compiled(r"\(\s*\)|\bfunction\b")
"""What a text that defines a shell function holds (`name() {...}`, `function name {...}`): only such a text's
tree is walked for their names."""


def _parser() -> Any:
    """This thread's bash parser, built at its first shell text (a parser is not shared between threads:
    long texts are judged on a worker thread while the event loop judges short ones)."""
    parser = getattr(_LOCAL, "parser", None)
    if parser is None:
        import tree_sitter
        import tree_sitter_bash

        parser = _LOCAL.parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
    return parser


def judge_shell(text: str, *, depth: int = 0, dialect: str | None = None) -> Judgement:
    """What running `text` in a POSIX shell does (or in fish or zsh, when `dialect` says so).

    Args:
        text: the command line, as the call gives it.
        depth: how deep inside `bash -c` texts this is (bounded).
        dialect: `fish` (read word by word: not bash's grammar) or `zsh` (read with bash's grammar, and word by
            word where that does not parse: glob qualifiers); None for bash and sh.
    """
    shown = shorten(text, 72)
    if len(text) > MAX_SHELL:
        return Judgement(Act.DESTRUCTIVE, f"a command of {len(text)} characters, too long to read", "shell")
    if depth > 6:
        return Judgement(Act.DESTRUCTIVE, f"{shown} (shells nested too deep to read)", "shell")
    if not text.strip():
        return Judgement(Act.READ, "an empty command", "shell", True)
    if dialect == "fish":
        return _other_shell(text, dialect, depth)
    tree = _parser().parse(text.encode("utf-8", "surrogatepass"))
    root = tree.root_node
    if root.has_error and dialect == "zsh":
        return _other_shell(text, dialect, depth)
    if root.has_error:
        return Judgement(Act.DESTRUCTIVE, f"a command that does not parse: {shown}", "shell")
    parts: list[Judgement] = []
    commands = 0
    # Functions the text defines (`count() { grep -c "$1" log; }`): their bodies are judged where they stand,
    # so a call of one runs nothing more than what is judged there.
    functions = (
        {
            _text(child)
            for node in _nodes(root)
            if node.type == "function_definition"
            for child in node.children[:2]
            if child.type == "word"
        }
        if _DEFINES.search(text)
        else set()
    )
    for node in _nodes(root):
        if node.type == "command":
            commands += 1
            parts.append(_command(node, depth, functions))
        elif node.type == "file_redirect":
            parts.append(_redirect(node))
        elif node.type == "variable_assignment":
            parts.append(_assignment(node))
    if not parts:
        return Judgement(Act.READ, shown, "shell", True)
    whole = riskiest(parts)
    worst = next(p for p in parts if p.act is whole.act)
    what = worst.what if commands <= 1 else f"{commands} commands: {worst.what}"
    if whole.act is Act.READ:
        what = shown
    return Judgement(whole.act, what, "shell", whole.idempotent, whole.open_world)


def _other_shell(text: str, dialect: str, depth: int) -> Judgement:
    from hintgate.hints.calls.other_shells import judge_other_shell

    def inner(text: str) -> Judgement:
        return judge_shell(text, depth=depth + 1)

    return judge_other_shell(text, dialect, lambda words: judge_argv(words, inner, depth=depth), depth=depth)


def _nodes(root: Any) -> Any:
    """Every node of the tree, depth first (iterative: a deep text cannot exhaust the stack)."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


def _text(node: Any) -> str:
    raw = node.text.decode("utf-8", "surrogatepass") if node.text is not None else ""
    if node.type == "raw_string" and len(raw) >= 2:
        return raw[1:-1]
    if node.type == "string" and len(raw) >= 2:
        return raw[1:-1]
    if node.type == "concatenation":
        return "".join(_text(c) for c in node.children)
    return raw


def _command(node: Any, depth: int, functions: frozenset[str] | set[str] = frozenset()) -> Judgement:
    """One simple command: its words (assignments before it skipped), judged as an argv; a call of a function
    the text defines runs its body, judged where it is defined."""
    words: list[str] = []
    for child in node.children:
        kind = child.type
        if kind == "variable_assignment":
            continue
        if kind == "command_name":
            inner = child.children[0] if child.children else child
            if inner.type in _EXPANSIONS or any(c.type in _EXPANSIONS for c in _nodes(inner)):
                shown = shorten(_text(node), 72)
                return Judgement(Act.DESTRUCTIVE, f"{shown} (the program is chosen at run time)", "shell")
            words.append(_text(inner))
        elif kind in _WORDS or kind in _EXPANSIONS:
            words.append(_text(child))
    if not words:
        return Judgement(Act.READ, shorten(_text(node), 72), "shell", True)
    if words[0] in functions:
        return Judgement(Act.READ, f"{shorten(_text(node), 60)} (a function defined in the text)", "shell", True)
    return judge_argv(words, lambda text: judge_shell(text, depth=depth + 1), depth=depth)


def _assignment(node: Any) -> Judgement:
    """`NAME=value` (alone, before a command, or exported): inert, unless NAME chooses what code runs."""
    name = node.children[0] if node.children else node
    value = _text(node.children[2]) if len(node.children) > 2 else ""
    shown = shorten(_text(node), 60)
    if runs_code_from(_text(name), value):
        return Judgement(Act.DESTRUCTIVE, f"{shown} (what later commands run is not in the text)", "shell")
    return Judgement(Act.READ, shown, "shell", True)


def _redirect(node: Any) -> Judgement:
    operator = ""
    target = ""
    for child in node.children:
        if child.type in {">", ">>", "<", "&>", "&>>", ">|", "<&", ">&", "<>", ">&-", "<&-"}:
            operator = child.type
        elif child.type in _WORDS or child.type in _EXPANSIONS:
            target = _text(child)
    shown = shorten(_text(node), 60)
    if operator in {"<", "<&", ">&-", "<&-"} or target in _HARMLESS_TARGETS or target.isdigit():
        return Judgement(Act.READ, shown, "shell", True)
    if operator in {">>", "&>>"}:
        return Judgement(Act.ADDITIVE, f"appends to {target}", "shell")
    return Judgement(Act.DESTRUCTIVE, f"overwrites {target or 'a file'}", "shell")
