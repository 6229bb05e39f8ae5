"""A draw of lots is for one round (issue 26 item 4): ``tournament_draws.round``,
the round whose standings it resolves.  A draw recorded before gets the round
the standings showed when it was recorded, as far as the database can tell:
the last round of its event with a result that started before the draw (0
when none).

Revision ID: t0005
Revises: t0004
Create Date: 2027-02-01
"""
from typing import Any, Dict, List, Tuple

import sqlalchemy as sa
from alembic import op


revision = 't0005'
down_revision = 't0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tournament_draws') as b:
        b.add_column(sa.Column('round', sa.Integer(), nullable=False, server_default='0'))
    draws = sa.table('tournament_draws', sa.column('id', sa.Integer()),
                     sa.column('event_id', sa.Integer()), sa.column('created_at', sa.DateTime()),
                     sa.column('round', sa.Integer()))
    rounds = sa.table('tournament_rounds', sa.column('id', sa.Integer()),
                      sa.column('event_id', sa.Integer()), sa.column('number', sa.Integer()),
                      sa.column('started_at', sa.DateTime()))
    tables = sa.table('tournament_tables', sa.column('id', sa.Integer()),
                      sa.column('round_id', sa.Integer()))
    hands = sa.table('tournament_hands', sa.column('table_id', sa.Integer()))
    conn = op.get_bind()
    with_result = (sa.select(rounds.c.event_id, rounds.c.number, rounds.c.started_at)
                   .where(sa.exists().where(tables.c.round_id == rounds.c.id)
                          .where(hands.c.table_id == tables.c.id)))
    played: Dict[int, List[Tuple[int, Any]]] = {}
    for ev, number, started in conn.execute(with_result).all():
        played.setdefault(ev, []).append((number, started))
    for did, ev, created in conn.execute(sa.select(draws.c.id, draws.c.event_id,
                                                   draws.c.created_at)).all():
        rnd = max((n for n, started in played.get(ev, [])
                   if created is None or started is None or started <= created), default=0)
        conn.execute(draws.update().where(draws.c.id == did).values(round=rnd))


def downgrade() -> None:
    with op.batch_alter_table('tournament_draws') as b:
        b.drop_column('round')
