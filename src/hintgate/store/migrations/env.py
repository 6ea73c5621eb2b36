"""Alembic's environment for the store: migrations run on a connection the store hands over.

There is no `alembic.ini`: `hintgate.store` builds the configuration in code
and puts an open synchronous connection in `config.attributes["connection"]`.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from hintgate.store.tables import metadata

connection: Connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,
    # SQLite cannot ALTER most things: later migrations rebuild tables in batch mode there.
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
