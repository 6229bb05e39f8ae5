"""Alembic environment of the tournament tables.

Run from :func:`burraco.tournament.store.migrate`, which hands over a connection
in ``config.attributes["connection"]``; with none, ``sqlalchemy.url`` of the
config (or ``BURRACO_DB``, or the default SQLite file) is used.  The version is
kept in ``alembic_version_tournament`` so the server's migrations, with their
own version table, share the database; only ``tournament_*`` tables are ours.
"""

from typing import Optional

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.schema import SchemaItem

from burraco.tournament.schema import VERSION_TABLE, Base, make_engine

config = context.config


def _include(obj: SchemaItem, name: Optional[str], type_: str, reflected: bool,
             compare_to: Optional[SchemaItem]) -> bool:
    if type_ == "table":
        return bool(name and name.startswith("tournament_"))
    return True


def run() -> None:
    conn = config.attributes.get("connection")
    if conn is None:
        engine = make_engine(config.get_main_option("sqlalchemy.url"))
        with engine.begin() as c:
            _configure(c)
    else:
        _configure(conn)


def _configure(conn: Connection) -> None:
    context.configure(connection=conn, target_metadata=Base.metadata,
                      version_table=VERSION_TABLE, include_object=_include,
                      render_as_batch=conn.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


run()
