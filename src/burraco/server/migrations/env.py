"""Alembic environment of the server's migrations (run by :func:`burraco.server.db.migrate`)."""

from alembic import context

from burraco.server.db import VERSION_TABLE, metadata

conn = context.config.attributes["connection"]
context.configure(connection=conn, target_metadata=metadata, version_table=VERSION_TABLE)
with context.begin_transaction():
    context.run_migrations()
