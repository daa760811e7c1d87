"""Alembic's entry point for zeenot's schema: run on the connection `zeenot.runtime.store`
passes in (no alembic.ini: the database URL is the server's `--db`)."""

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, version_table="zeenot_schema_version")
with context.begin_transaction():
    context.run_migrations()
