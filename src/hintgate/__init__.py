"""hintgate: an MCP gateway that makes tool annotations complete, explainable and enforced."""

from hintgate.errors import HintgateError
from hintgate.hints.annotations import (
    Annotations,
    Hint,
    Inferred,
    Origin,
    Provenance,
    Resolution,
    Resolved,
    Tier,
    parse_annotations,
    resolve,
)

__version__ = "0.1.0"

__all__ = [
    "Annotations",
    "Hint",
    "HintgateError",
    "Inferred",
    "Origin",
    "Provenance",
    "Resolution",
    "Resolved",
    "Tier",
    "__version__",
    "parse_annotations",
    "resolve",
]
