"""Tournaments online (issue 13 item 5): the director's key of an event, the
round clock, and the server table (``server_tables.id``) that plays a
tournament table online.

Revision ID: t0002
Revises: t0001
Create Date: 2026-11-23
"""
import sqlalchemy as sa
from alembic import op


revision = 't0002'
down_revision = 't0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tournament_events') as b:
        b.add_column(sa.Column('director_key', sa.String(length=64), nullable=True))
    with op.batch_alter_table('tournament_rounds') as b:
        b.add_column(sa.Column('clock_start', sa.Float(), nullable=True))
        b.add_column(sa.Column('clock_seconds', sa.Integer(), nullable=True))
        b.add_column(sa.Column('clock_form', sa.String(length=10), nullable=True))
    with op.batch_alter_table('tournament_tables') as b:
        b.add_column(sa.Column('online_id', sa.String(length=40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('tournament_tables') as b:
        b.drop_column('online_id')
    with op.batch_alter_table('tournament_rounds') as b:
        b.drop_column('clock_form')
        b.drop_column('clock_seconds')
        b.drop_column('clock_start')
    with op.batch_alter_table('tournament_events') as b:
        b.drop_column('director_key')
