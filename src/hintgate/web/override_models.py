"""The REST API's override models: what a tool's `overrides` shows, and what `PATCH .../overrides` takes."""

from __future__ import annotations

from pydantic import ConfigDict, Field, StrictBool, StrictStr, field_validator

from hintgate.hints.titles import title_problem
from hintgate.web.api_model import ApiModel

__all__ = ["Overrides", "OverridesIn"]


class Overrides(ApiModel):
    """Operator overrides of a tool's hints, by where they were set."""

    config: dict[str, bool] = Field(description="From the config file.")
    stored: dict[str, bool] = Field(description="Set through the API or dashboard; they win over the config file's.")
    config_title: str | None = Field(default=None, description="The config file's title.")
    stored_title: str | None = Field(default=None, description="Set through the API, CLI or dashboard; wins.")


class OverridesIn(ApiModel):
    """Per hint: true or false to override, null to go back to inheriting; likewise `title` (text or null).

    Fields left out are left alone.
    """

    model_config = ConfigDict(extra="forbid")

    readOnlyHint: StrictBool | None = None
    destructiveHint: StrictBool | None = None
    idempotentHint: StrictBool | None = None
    openWorldHint: StrictBool | None = None
    title: StrictStr | None = Field(default=None, description="The tool's title; null goes back to inheriting.")

    @field_validator("title")
    @classmethod
    def _title_is_a_label(cls, title: str | None) -> str | None:
        if title is not None and (problem := title_problem(title)):
            raise ValueError(problem)
        return title
