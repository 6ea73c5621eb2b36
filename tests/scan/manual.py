"""An honest manual of any length: prose, code and links with the words phrases start with ("before", "you
must", "ignore"), none of them an order to the model. The long text the scan's fast paths are tested on."""

from __future__ import annotations

MANUAL = (
    "## Configuring the client\n\nThe client reads its settings from `config.toml`. Before you run it, install "
    "the dependencies and set the API key in the environment. You must restart the client after changing the "
    "file. See [the reference](https://docs.example.com/reference?section=config), and always pin versions. "
    "Errors are logged to `logs/client.log`; ignore the warnings about deprecated options for now.\n\n"
)


def honest(length: int) -> str:
    """`length` characters of the manual, repeated."""
    return (MANUAL * (length // len(MANUAL) + 1))[:length]
