"""The sheets sent from the players' phones (issue 26): ``tournament_sheet_entries``,
one row a side of a table of a round (:data:`burraco.tournament.schema.ENTRIES`).
The versions before made it with ``create_all`` on first use, outside the
migrations: a database that has it already keeps it and its rows.

Revision ID: t0006
Revises: t0005
Create Date: 2027-02-08
"""
import sqlalchemy as sa
from alembic import op


revision = 't0006'
down_revision = 't0005'
branch_labels = None
depends_on = None

TABLE = 'tournament_sheet_entries'


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table(TABLE):
        return
    op.create_table(
        TABLE,
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('event', sa.String(length=200), nullable=False),
        sa.Column('round_no', sa.Integer(), nullable=False),
        sa.Column('table_no', sa.Integer(), nullable=False),
        sa.Column('side', sa.Integer(), nullable=False),
        sa.Column('entrant', sa.Integer(), nullable=False),
        sa.Column('hands', sa.Text(), nullable=False),
        sa.Column('at', sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('event', 'round_no', 'table_no', 'side'),
    )


def downgrade() -> None:
    op.drop_table(TABLE)
