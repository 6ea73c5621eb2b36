"""What a PowerShell script or a cmd.exe command line does, by the commands it runs.

Pure. PowerShell names its commands Verb-Noun with a documented list of
approved verbs (`Get-Verb`): the verbs that only look (`Get`, `Find`,
`Test`, `Measure`, `Select`, `Format`, `ConvertTo`...) read, `Add`, `New`
and `Install` add, every other verb changes something (`Set`, `Remove`,
`Stop`, `Move`, `Copy`, `Clear`, `Export`...). A command given
`-WhatIf` only reports what it would do. `Invoke-WebRequest` and
`Invoke-RestMethod` read with their default GET unless told another
`-Method` or to save the answer (`-OutFile`). The default aliases
(`ls`, `cat`, `rm`, `del`...) are their commands. Each statement, pipeline
stage, script block and subexpression (`$(...)`, also inside a
double-quoted string) is judged; a command not known (a native program, a
script), a method call on an object (`.Delete()`), any static method call
(`[IO.File]::Replace(...)`), `-WhatIf:$false` and a create told `-Force`
are destructive; `>` to a file replaces it, `>>` appends (`$null` is
nowhere).

cmd.exe: its built-in commands that list or print (`dir`, `type`, `echo`,
`cd`, `set` of the session, `where`, `findstr`) read; `md`/`mkdir` add;
`del`, `erase`, `rd`, `copy`, `move`, `ren` and any other program change
something; `>` overwrites, `>>` appends.

The riskiest part wins.
"""

from __future__ import annotations

import re

from hintgate.hints.calls.judgement import Act, Judgement, shorten
from hintgate.scan.deferred import compiled

__all__ = ["judge_cmd", "judge_powershell"]

R, A, D = Act.READ, Act.ADDITIVE, Act.DESTRUCTIVE

_READ_VERBS = frozenset(
    {"get", "find", "search", "test", "measure", "select", "where", "sort", "format", "compare", "resolve", "read"}
    | {"show", "group", "convertto", "convertfrom", "join", "split", "foreach", "wait"}
)
_ADD_VERBS = frozenset({"add", "new", "install"})
# Commands of other verbs that change nothing beyond the session or print to the output stream.
_READ_COMMANDS = frozenset(
    {"set-location", "push-location", "pop-location", "start-sleep", "out-host", "out-string", "out-null"}
    | {"out-default", "write-output", "write-host", "write-verbose", "write-debug", "write-information"}
    | {"write-warning", "write-error", "write-progress", "import-csv", "import-clixml"}
    | {"import-powershelldatafile"}
)
_ALIASES = {
    **dict.fromkeys(("ls", "dir", "gci"), "get-childitem"),
    **dict.fromkeys(("cat", "gc", "type"), "get-content"),
    **dict.fromkeys(("echo", "write"), "write-output"),
    **dict.fromkeys(("rm", "del", "erase", "rd", "rmdir", "ri"), "remove-item"),
    **dict.fromkeys(("cp", "copy", "cpi"), "copy-item"),
    **dict.fromkeys(("mv", "move", "mi"), "move-item"),
    **dict.fromkeys(("cd", "sl", "chdir"), "set-location"),
    **dict.fromkeys(("pwd", "gl"), "get-location"),
    **dict.fromkeys(("select",), "select-object"),
    **dict.fromkeys(("where", "?"), "where-object"),
    **dict.fromkeys(("foreach", "%"), "foreach-object"),
    **dict.fromkeys(("sort",), "sort-object"),
    **dict.fromkeys(("measure",), "measure-object"),
    **dict.fromkeys(("ft",), "format-table"),
    **dict.fromkeys(("fl",), "format-list"),
    **dict.fromkeys(("ni",), "new-item"),
    **dict.fromkeys(("iwr",), "invoke-webrequest"),
    **dict.fromkeys(("irm",), "invoke-restmethod"),
    **dict.fromkeys(("gps", "ps"), "get-process"),
    **dict.fromkeys(("gsv",), "get-service"),
}
_READ_METHODS = frozenset(
    {"tostring", "substring", "replace", "split", "trim", "trimend", "trimstart", "contains", "startswith"}
    | {"endswith", "gettype", "toupper", "tolower", "indexof", "equals", "padleft", "padright", "join", "format"}
)
_PS_COMMENTS = compiled(r"<#.*?#>|#[^\n]*", re.S)
_SINGLE = compiled(r"'(?:[^']|'')*'")
_DOUBLE = compiled(r"\"(?:[^\"`]|`.)*\"", re.S)
_SUBEXPRESSION = compiled(r"\$\(([^()]*(?:\([^()]*\)[^()]*)*)\)")
_SEPARATORS = compiled(r"\$\(|[;|\n(){}]|&&|\|\|")
_ASSIGNMENT = compiled(r"^\s*(?:\[[^\]]*\]\s*)*\$[\w:]+\s*[-+*/]?=\s*")
_METHOD_CALL = compiled(r"(?:\.|(::))(\w+)\s*\(")
_PS_REDIRECT = compiled(r"(?:[\d*])?(>>?)\s*(&\d|\$null\b|[^\s;|&)}]+)", re.I)
_WEB = frozenset({"invoke-webrequest", "invoke-restmethod"})


def _member_call(arguments: list[str]) -> bool:
    """Whether ForEach-Object is given a member's name (positional or `-MemberName`) that may be a method
    it calls, rather than a script block (judged on its own) or a method known only to read."""
    named = [a for a in arguments if a.lower() not in {"-membername", "-process", "-begin", "-end"}]
    members = [a for a in named if not a.startswith(("-", "'", '"', "$"))]
    return any(m.lower() not in _READ_METHODS for m in members[:1])


_PS_KEYWORDS = frozenset(
    {"if", "elseif", "else", "for", "while", "do", "until", "switch", "try", "catch", "finally", "return"}
    | {"break", "continue", "param", "begin", "process", "end", "throw", "exit"}
)
_REDEFINES = compiled(r"^\s*\$(?:function|alias):", re.I)


def judge_powershell(text: str) -> Judgement:
    """What a PowerShell script does: the riskiest of its commands."""
    shown = shorten(text, 72)
    bare = _SINGLE.sub("''", _PS_COMMENTS.sub(" ", text))
    inner: list[str] = []

    def lift(match: re.Match[str]) -> str:
        inner.extend(_SUBEXPRESSION.findall(match.group(0)))  # "$(Get-Date) ok": its commands run
        return "''"

    bare = _DOUBLE.sub(lift, bare)
    acts: list[tuple[Act, bool]] = []
    for static, method in _METHOD_CALL.findall(bare):
        if static or method.lower() not in _READ_METHODS:
            # `(Get-Item x).Delete()`, `[IO.File]::Replace(...)`: a method may change what it is called on.
            acts.append((D, False))
    for arrow, target in _PS_REDIRECT.findall(bare):
        if target.lower() not in {"$null", "&1", "&2"}:
            acts.append((A if arrow == ">>" else D, False))  # `> file` replaces it, `>> file` appends
    for segment in [*_SEPARATORS.split(bare), *inner]:
        acts.append(_ps_segment(segment))
    if not acts:
        return Judgement(R, shown, "powershell", True)
    act = max(a for a, _ in acts)
    opens = any(o for _, o in acts)
    return Judgement(act, shown, "powershell", True if act is R else None, True if opens else None)


def _ps_segment(segment: str) -> tuple[Act, bool]:
    """(act, reaches the network) of one statement or pipeline stage."""
    if _REDEFINES.match(segment):
        return D, False  # `$function:ls = ...`, `$alias:ls = ...`: a command name given another meaning
    body = _ASSIGNMENT.sub("", segment).strip()
    if not body or body[0] in "$'\"[0123456789-+,=!<>*/" or re.match(r"\.\w", body):
        return R, False  # an expression, a value, a member of what came before: no command runs
    words = body.split()
    name = words[0].lower().lstrip("&").strip()
    if not name:
        return (D, False) if len(words) < 2 else _ps_command(words[1].lower(), words[2:])
    if name == ".":
        return D, False  # dot-sourcing runs a script
    if name in _PS_KEYWORDS:
        return R, False  # `if (...) { ... }`: the structure runs nothing itself; its parts are judged each
    return _ps_command(_ALIASES.get(name, name), words[1:])


def _ps_command(name: str, arguments: list[str]) -> tuple[Act, bool]:
    flags = {a.lower().split(":", 1)[0] for a in arguments if a.startswith("-")}
    switched_off = {a.lower().split(":", 1)[0] for a in arguments if a.lower().endswith((":$false", ":0"))}
    if "-whatif" in flags - switched_off:
        return R, False  # `-WhatIf` reports what would happen (`-WhatIf:$false` does it)
    if name == "foreach-object" and _member_call(arguments):
        return D, False  # `% Delete`, `-MemberName Kill`: calls that method of every object piped in
    if name in {"new-alias", "set-alias"}:
        return D, False  # a command name given another meaning: what a later line runs is not what it says
    if name in _WEB:
        method = next((arguments[i + 1] for i, a in enumerate(arguments[:-1]) if a.lower() == "-method"), "GET")
        if "-outfile" in flags or method.strip("'\"").upper() not in {"GET", "HEAD", "OPTIONS"}:
            return D, True
        return R, True
    if name == "tee-object":
        return (R if "-variable" in flags else D), False  # else it saves to a file
    if name in _READ_COMMANDS:
        return R, False
    verb, dash, _noun = name.partition("-")
    if not dash:
        return D, False  # a native program or a script: what it does is not said here
    if verb in _READ_VERBS and not flags & {"-repair", "-fix"}:
        return R, False
    if verb in _ADD_VERBS:
        # `New-Item -Force` replaces a file that exists; a directory told -Force keeps what it holds (the
        # cmdlet's documentation), so it only creates.
        kind = next((arguments[i + 1] for i, a in enumerate(arguments[:-1]) if a.lower() in {"-itemtype", "-type"}), "")
        directory = name == "new-item" and kind.strip("'\"").lower() in {"directory", "dir"}
        return (D if "-force" in flags and not directory else A), False
    return D, False


_CMD_READS = frozenset(
    {"dir", "type", "echo", "cd", "chdir", "where", "findstr", "find", "more", "ver", "vol", "tree", "whoami"}
    | {"hostname", "tasklist", "ipconfig", "systeminfo", "path", "pushd", "popd", "sort", "fc", "comp", "cls"}
    | {"title", "time", "date", "set", "setlocal", "endlocal", "rem", "exit", "help"}
)
_CMD_ADDS = frozenset({"md", "mkdir"})
# Windows programs whose first operand chooses what they do, and the operands that only show (Microsoft's
# command reference: `schtasks /query`, `reg query`, `sc query` and its other q- commands).
_CMD_QUERIES: dict[str, frozenset[str]] = {
    "schtasks": frozenset({"/query"}),
    "reg": frozenset({"query"}),
    "sc": frozenset({"query", "queryex", "qc", "qdescription", "qfailure", "qtriggerinfo", "qprivs", "qsidtype"})
    | frozenset({"getdisplayname", "getkeyname", "enumdepend", "showsid"}),
}
_CMD_SEPARATORS = compiled(r"&&|\|\||(?<![>\d])&(?!\d)|[|\n()]")
_CMD_REDIRECT = compiled(r"\d?(>>?)\s*(&\d|[^\s&|]+)")


def judge_cmd(text: str) -> Judgement:
    """What a cmd.exe command line does: the riskiest of its commands and redirections."""
    shown = shorten(text, 72)
    bare = re.sub(r"\"[^\"]*\"", '""', text)
    act = R
    for segment in _CMD_SEPARATORS.split(bare):
        words = segment.replace("@", " ").split()
        if not words:
            continue
        name = words[0].lower()
        if name in {"time", "date"} and not any(w.startswith("/t") or w.startswith("/T") for w in words[1:]):
            act = max(act, D)  # without /t they set the clock
        elif name == "set" and any("=" in w for w in words[1:]):
            act = max(act, R)  # a variable of this session
        elif name == "sort" and any(w.lower().startswith("/o") for w in words[1:]):
            act = D  # `sort /o file` writes its output there
        elif name in _CMD_READS:
            pass
        elif name.removesuffix(".exe") in _CMD_QUERIES:
            operands = [w for w in words[1:] if not w.startswith("\\\\")]  # `sc \\host query`: a host first
            if not operands or operands[0].lower() not in _CMD_QUERIES[name.removesuffix(".exe")]:
                act = D
        elif name in _CMD_ADDS:
            act = max(act, A)
        else:
            act = D
        for arrow, target in _CMD_REDIRECT.findall(segment):
            if target.lower() not in {"nul", "&1", "&2"}:
                act = max(act, A if arrow == ">>" else D)  # `>` replaces the file, `>>` appends
    return Judgement(act, shown, "cmd", True if act is R else None)
