"""Who made a table, and from where: the columns the open-table limits count
(``burraco serve --tables-per-player``, ``--tables-per-address``; issue 23).

``owner`` is the player who created the table (or asked for its rematch),
``address`` the client address the request came from; both null for tables
made before this revision (and for tables a tournament seats).  Indexed with
``status`` so that counting a player's or an address's open tables reads only
theirs.

Revision ID: s0002_table_creator
Revises: s0001
"""
import sqlalchemy as sa
from alembic import op

revision = "s0002_table_creator"
down_revision = "s0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("server_tables") as b:
        b.add_column(sa.Column("owner", sa.String(40), nullable=True))
        b.add_column(sa.Column("address", sa.String(64), nullable=True))
    op.create_index("ix_server_tables_owner_status", "server_tables", ["owner", "status"])
    op.create_index("ix_server_tables_address_status", "server_tables", ["address", "status"])


def downgrade() -> None:
    op.drop_index("ix_server_tables_address_status", "server_tables")
    op.drop_index("ix_server_tables_owner_status", "server_tables")
    with op.batch_alter_table("server_tables") as b:
        b.drop_column("address")
        b.drop_column("owner")
