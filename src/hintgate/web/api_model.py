"""The base of every REST API body: fields are read by their Python name or their JSON alias."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["ApiModel"]


class ApiModel(BaseModel):
    """A REST API body: accepts each field under its name and its camelCase alias alike."""

    model_config = ConfigDict(populate_by_name=True)
