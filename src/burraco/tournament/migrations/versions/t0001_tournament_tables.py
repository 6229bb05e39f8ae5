"""The tournament tables: events, entrants, rounds, tables, seats (and byes),
hands (the score sheets), adjustments, draws and the director's log.

Revision ID: t0001
Revises: 
Create Date: 2026-11-23
"""
import sqlalchemy as sa
from alembic import op


revision = 't0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('tournament_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('format', sa.String(length=40), nullable=False),
    sa.Column('rounds', sa.Integer(), nullable=False),
    sa.Column('hands', sa.Integer(), nullable=False),
    sa.Column('variant', sa.String(length=400), nullable=False),
    sa.Column('bye_vp', sa.Integer(), nullable=False),
    sa.Column('bye_mp', sa.Integer(), nullable=False),
    sa.Column('first_draw', sa.String(length=20), nullable=False),
    sa.Column('deal_sets', sa.Boolean(), nullable=False),
    sa.Column('seed', sa.Integer(), nullable=False),
    sa.Column('vp_table', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_events')),
    sa.UniqueConstraint('name', name=op.f('uq_tournament_events_name'))
    )
    op.create_table('tournament_draws',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('entrants', sa.String(length=2000), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['tournament_events.id'], name=op.f('fk_tournament_draws_event_id_tournament_events'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_draws'))
    )
    op.create_index(op.f('ix_tournament_draws_event_id'), 'tournament_draws', ['event_id'], unique=False)

    op.create_table('tournament_entrants',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('player1', sa.String(length=200), nullable=False),
    sa.Column('player2', sa.String(length=200), nullable=False),
    sa.Column('club', sa.String(length=200), nullable=False),
    sa.Column('rating', sa.Integer(), nullable=False),
    sa.Column('withdrawn', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['tournament_events.id'], name=op.f('fk_tournament_entrants_event_id_tournament_events'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_entrants')),
    sa.UniqueConstraint('event_id', 'number', name=op.f('uq_tournament_entrants_event_id_number'))
    )
    op.create_index(op.f('ix_tournament_entrants_event_id'), 'tournament_entrants', ['event_id'], unique=False)

    op.create_table('tournament_log',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.Column('action', sa.String(length=40), nullable=False),
    sa.Column('detail', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['tournament_events.id'], name=op.f('fk_tournament_log_event_id_tournament_events'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_log'))
    )
    op.create_index(op.f('ix_tournament_log_event_id'), 'tournament_log', ['event_id'], unique=False)

    op.create_table('tournament_rounds',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('closed', sa.Boolean(), nullable=False),
    sa.Column('started_at', sa.DateTime(), nullable=False),
    sa.Column('closed_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['tournament_events.id'], name=op.f('fk_tournament_rounds_event_id_tournament_events'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_rounds')),
    sa.UniqueConstraint('event_id', 'number', name=op.f('uq_tournament_rounds_event_id_number'))
    )
    op.create_index(op.f('ix_tournament_rounds_event_id'), 'tournament_rounds', ['event_id'], unique=False)

    op.create_table('tournament_adjustments',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('entrant_id', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=True),
    sa.Column('vp', sa.Integer(), nullable=False),
    sa.Column('mp', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['entrant_id'], ['tournament_entrants.id'], name=op.f('fk_tournament_adjustments_entrant_id_tournament_entrants'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['event_id'], ['tournament_events.id'], name=op.f('fk_tournament_adjustments_event_id_tournament_events'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_adjustments'))
    )
    op.create_index(op.f('ix_tournament_adjustments_event_id'), 'tournament_adjustments', ['event_id'], unique=False)

    op.create_table('tournament_tables',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('deal_set', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['round_id'], ['tournament_rounds.id'], name=op.f('fk_tournament_tables_round_id_tournament_rounds'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_tables')),
    sa.UniqueConstraint('round_id', 'number', name=op.f('uq_tournament_tables_round_id_number'))
    )
    op.create_index(op.f('ix_tournament_tables_round_id'), 'tournament_tables', ['round_id'], unique=False)

    op.create_table('tournament_hands',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('hand', sa.Integer(), nullable=False),
    sa.Column('ns', sa.Integer(), nullable=False),
    sa.Column('ew', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tournament_tables.id'], name=op.f('fk_tournament_hands_table_id_tournament_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_hands')),
    sa.UniqueConstraint('table_id', 'hand', name=op.f('uq_tournament_hands_table_id_hand'))
    )
    op.create_index(op.f('ix_tournament_hands_table_id'), 'tournament_hands', ['table_id'], unique=False)

    op.create_table('tournament_seats',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('entrant_id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=True),
    sa.Column('side', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['entrant_id'], ['tournament_entrants.id'], name=op.f('fk_tournament_seats_entrant_id_tournament_entrants'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['round_id'], ['tournament_rounds.id'], name=op.f('fk_tournament_seats_round_id_tournament_rounds'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['table_id'], ['tournament_tables.id'], name=op.f('fk_tournament_seats_table_id_tournament_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_seats')),
    sa.UniqueConstraint('round_id', 'entrant_id', name=op.f('uq_tournament_seats_round_id_entrant_id'))
    )
    op.create_index(op.f('ix_tournament_seats_round_id'), 'tournament_seats', ['round_id'], unique=False)



def downgrade() -> None:
    op.drop_index(op.f('ix_tournament_seats_round_id'), table_name='tournament_seats')

    op.drop_table('tournament_seats')
    op.drop_index(op.f('ix_tournament_hands_table_id'), table_name='tournament_hands')

    op.drop_table('tournament_hands')
    op.drop_index(op.f('ix_tournament_tables_round_id'), table_name='tournament_tables')

    op.drop_table('tournament_tables')
    op.drop_index(op.f('ix_tournament_adjustments_event_id'), table_name='tournament_adjustments')

    op.drop_table('tournament_adjustments')
    op.drop_index(op.f('ix_tournament_rounds_event_id'), table_name='tournament_rounds')

    op.drop_table('tournament_rounds')
    op.drop_index(op.f('ix_tournament_log_event_id'), table_name='tournament_log')

    op.drop_table('tournament_log')
    op.drop_index(op.f('ix_tournament_entrants_event_id'), table_name='tournament_entrants')

    op.drop_table('tournament_entrants')
    op.drop_index(op.f('ix_tournament_draws_event_id'), table_name='tournament_draws')

    op.drop_table('tournament_draws')
    op.drop_table('tournament_events')
