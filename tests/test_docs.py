"""Documentation that tests check: every lint rule is documented as it is defined."""

from __future__ import annotations

import re
from pathlib import Path

from hintgate.lint import RULES

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_every_lint_rule_is_documented_with_its_id_and_severity() -> None:
    text = (DOCS / "lint.md").read_text(encoding="utf-8")
    rows = {
        m.group(1): (m.group(2), m.group(3))
        for m in re.finditer(r"^\| (HG\d{3}) \| ([a-z-]+) \| (error|warning|note) \|", text, re.MULTILINE)
    }
    assert rows == {code: (rule.id, rule.severity.value) for code, rule in RULES.items()}
