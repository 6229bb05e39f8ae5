"""The director's log can be undone (issue 26): ``tournament_log.undone``; a
table that could not play keeps the VP given to each side
(``tournament_tables.given``, ``given_vp_ns``, ``given_vp_ew``).  Plain
``ADD COLUMN`` (no table copy), so SQLite keeps every row and foreign key.

Revision ID: t0004
Revises: t0003
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op


revision = 't0004'
down_revision = 't0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('tournament_log', sa.Column('undone', sa.Boolean(), nullable=False,
                                              server_default=sa.false()))
    op.add_column('tournament_tables', sa.Column('given', sa.String(length=20), nullable=True))
    op.add_column('tournament_tables', sa.Column('given_vp_ns', sa.Integer(), nullable=True))
    op.add_column('tournament_tables', sa.Column('given_vp_ew', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('tournament_tables') as b:
        b.drop_column('given_vp_ew')
        b.drop_column('given_vp_ns')
        b.drop_column('given')
    with op.batch_alter_table('tournament_log') as b:
        b.drop_column('undone')
