"""Seat codes (issue 23 item 3): each entrant's code, which claims its seat
online, and who holds each claimed seat (``tournament_claims``).  Entrants
registered before get a fresh code here.

Revision ID: t0003
Revises: t0002
Create Date: 2027-01-10
"""
import secrets
from typing import Dict, Set

import sqlalchemy as sa
from alembic import op


revision = 't0003'
down_revision = 't0002'
branch_labels = None
depends_on = None

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # as burraco.tournament.codes, frozen here


def _code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(8))


def upgrade() -> None:
    with op.batch_alter_table('tournament_entrants') as b:
        b.add_column(sa.Column('code', sa.String(length=16), nullable=True))
    entrants = sa.table('tournament_entrants', sa.column('id', sa.Integer()),
                        sa.column('event_id', sa.Integer()), sa.column('code', sa.String()))
    conn = op.get_bind()
    taken: Dict[int, Set[str]] = {}
    for eid, ev in conn.execute(sa.select(entrants.c.id, entrants.c.event_id)).all():
        used = taken.setdefault(ev, set())
        code = _code()
        while code in used:
            code = _code()
        used.add(code)
        conn.execute(entrants.update().where(entrants.c.id == eid).values(code=code))
    op.create_table('tournament_claims',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('entrant_id', sa.Integer(), nullable=False),
    sa.Column('slot', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.String(length=64), nullable=False),
    sa.Column('player_name', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['entrant_id'], ['tournament_entrants.id'], name=op.f('fk_tournament_claims_entrant_id_tournament_entrants'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['event_id'], ['tournament_events.id'], name=op.f('fk_tournament_claims_event_id_tournament_events'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_claims')),
    sa.UniqueConstraint('entrant_id', 'slot', name=op.f('uq_tournament_claims_entrant_id_slot')),
    sa.UniqueConstraint('event_id', 'player_id', name=op.f('uq_tournament_claims_event_id_player_id'))
    )
    op.create_index(op.f('ix_tournament_claims_event_id'), 'tournament_claims', ['event_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_tournament_claims_event_id'), table_name='tournament_claims')
    op.drop_table('tournament_claims')
    with op.batch_alter_table('tournament_entrants') as b:
        b.drop_column('code')
