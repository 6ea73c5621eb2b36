"""What a short Python program given on a command line (`python3 -c '...'`) does, read with Python's own parser.

Pure. Only a program that plainly reads is judged a read: it imports only modules
that compute (`json`, `csv`, `re`, `math`, `statistics`, `collections`,
`datetime`...), opens files only to read them (a literal mode of `r`, `rb` or
`rt`, or none), and calls only builtins and methods that compute or print
(`print`, `len`, `sorted`, `json.load`, `.split`, `.items`...). Anything else
is destructive: another import (`os`, `subprocess`, `pathlib`, `shutil`,
`urllib`), a file opened to write or with a mode not written out, dynamic code
(`eval`, `exec`, `getattr`, `__import__`, a dunder attribute), an assignment to
an attribute, a call of a name rebound in the program, or a text that does not
parse or is too long to read.
"""

from __future__ import annotations

import ast

from hintgate.hints.calls.judgement import Act, Judgement, shorten
from hintgate.hints.calls.word_tables import word_set

__all__ = ["judge_python"]

MAX_PYTHON = 4_000
"""Characters of a program read; a longer one is destructive unread."""

_MODULES = frozenset(
    {"json", "csv", "re", "math", "statistics", "collections", "itertools", "functools", "datetime", "string"}
    | {"textwrap", "sys", "pprint", "operator", "decimal", "fractions", "heapq", "bisect", "typing", "hashlib"}
    | {"base64", "binascii", "glob", "fnmatch", "time", "calendar", "unicodedata", "difflib", "zlib", "struct"}
)
_BUILTINS = frozenset(
    {"print", "len", "sorted", "sum", "min", "max", "list", "dict", "set", "tuple", "str", "int", "float", "bool"}
    | {"range", "enumerate", "zip", "map", "filter", "any", "all", "repr", "round", "abs", "isinstance", "reversed"}
    | {"frozenset", "bytes", "ord", "chr", "hex", "oct", "bin", "divmod", "pow", "format", "hash", "iter", "next"}
    | {"type", "id", "callable", "issubclass", "slice", "bytearray", "ascii", "open"}
)
_FORBIDDEN_NAMES = frozenset(
    {"eval", "exec", "compile", "__import__", "getattr", "setattr", "delattr", "globals", "locals", "vars"}
    | {"breakpoint", "input", "__builtins__", "memoryview", "help", "exit", "quit"}
)


# Methods and module functions that compute, parse or print, whatever they are called on.
_METHODS = word_set(
    """
    load loads dumps dump_to_string reader DictReader writer DictWriter writerow writerows writeheader
    read readline readlines keys values items get split rsplit strip lstrip rstrip lower upper title join format
    startswith endswith replace count index find rfind splitlines encode decode isdigit isalpha isalnum zfill
    ljust rjust center partition rpartition casefold most_common append extend sort copy pop setdefault
    search match fullmatch findall finditer sub subn compile group groups groupdict span start end
    sqrt floor ceil log exp mean median mode stdev variance pstdev quantiles fsum isclose prod
    Counter defaultdict OrderedDict namedtuple deque chain groupby islice product permutations combinations
    accumulate reduce partial now today utcnow strptime strftime fromisoformat isoformat fromtimestamp timestamp
    date timedelta glob iglob fnmatch sha256 sha1 md5 blake2b hexdigest digest b64decode b64encode
    hexlify unhexlify dedent indent pprint pformat time monotonic perf_counter getvalue write flush
    """
)
_READ_MODES = frozenset({"r", "rb", "rt", "br", "tr"})


class _Acts(Exception):
    """The program does something beyond reading."""


def judge_python(code: str) -> Judgement:
    """What running `code` with a Python interpreter does: a read only when every part of it plainly reads."""
    shown = shorten(code, 60)
    if len(code) > MAX_PYTHON:
        return Judgement(Act.DESTRUCTIVE, f"a Python program of {len(code)} characters, too long to read", "python")
    try:
        tree = ast.parse(code)
        _check(tree)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return Judgement(Act.DESTRUCTIVE, f"Python that does not parse: {shown}", "python")
    except _Acts as exc:
        return Judgement(Act.DESTRUCTIVE, f"{shown} ({exc})", "python")
    return Judgement(Act.READ, f"{shown} (Python that only reads)", "python", True)


def _check(tree: ast.AST) -> None:
    bound = {target.id for node in ast.walk(tree) for target in _targets(node) if isinstance(target, ast.Name)}
    defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    callees = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            if isinstance(node, ast.ImportFrom) and node.level:
                raise _Acts("a relative import")
            for name in names:
                if name.split(".")[0] not in _MODULES:
                    raise _Acts(f"imports {name}")
        elif isinstance(node, ast.Name) and (node.id in _FORBIDDEN_NAMES or node.id.startswith("__")):
            raise _Acts(f"uses {node.id}")
        elif isinstance(node, ast.Name) and node.id == "open" and id(node) not in callees:
            raise _Acts("passes open on")  # `map(open, names, modes)`: a mode not read here
        elif isinstance(node, ast.FunctionDef) and node.decorator_list:
            raise _Acts("a decorated function")
        elif isinstance(node, ast.Attribute):
            if node.attr.startswith("_") or node.attr == "modules":
                raise _Acts(f"reaches .{node.attr}")
            if isinstance(node.ctx, ast.Store | ast.Del):
                raise _Acts(f"sets .{node.attr}")
        elif isinstance(node, ast.Call):
            _call(node, bound, defined)
        elif isinstance(node, ast.AsyncFunctionDef | ast.ClassDef | ast.Global | ast.Nonlocal | ast.Await):
            raise _Acts(f"a {type(node).__name__} hintgate does not read")


def _targets(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.Assign):
        return [t for target in node.targets for t in ast.walk(target)]
    if isinstance(node, ast.AugAssign | ast.AnnAssign | ast.NamedExpr | ast.For | ast.comprehension):
        return list(ast.walk(node.target))
    if isinstance(node, ast.With):
        return [t for item in node.items if item.optional_vars is not None for t in ast.walk(item.optional_vars)]
    if isinstance(node, ast.ExceptHandler) and node.name:
        return [ast.Name(id=node.name)]
    return []


def _call(node: ast.Call, bound: set[str], defined: set[str]) -> None:
    function = node.func
    if isinstance(function, ast.Name):
        name = function.id
        if name in defined and name not in bound:
            return  # a function the program defines: its body is read where it stands
        if name not in _BUILTINS or name in bound:
            raise _Acts(f"calls {name}")
        if name == "open" and not _reads(node):
            raise _Acts("opens a file to write, or in a mode not written out")
        return
    if isinstance(function, ast.Attribute):
        if function.attr not in _METHODS:
            raise _Acts(f"calls .{function.attr}")
        return
    raise _Acts("calls what an expression returns")


def _reads(node: ast.Call) -> bool:
    """Whether an `open(...)` call reads: its mode a literal read mode, or none given."""
    mode: ast.expr | None = node.args[1] if len(node.args) > 1 else None
    for keyword in node.keywords:
        if keyword.arg == "mode":
            mode = keyword.value
        elif keyword.arg is None or keyword.arg == "opener":
            return False
    if len(node.args) > 2 and any(isinstance(a, ast.Starred) for a in node.args):
        return False
    if any(isinstance(a, ast.Starred) for a in node.args):
        return False
    if mode is None:
        return True
    return isinstance(mode, ast.Constant) and isinstance(mode.value, str) and mode.value in _READ_MODES
