"""Ratings for each rule set (issue 24, the leaderboard): ``server_ratings`` keeps a
registered player's OpenSkill rating for one preset (``italian``, ``burraco-2p``...)
at one number of players, rated only from that rule set's matches; the leaderboard
reads it, ordered by ``mu`` within a rule set.

Revision ID: s0004_ratings
Revises: s0003
"""
import sqlalchemy as sa
from alembic import op

revision = "s0004_ratings"
down_revision = "s0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_ratings",
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("rules", sa.String(64), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_server_ratings_rules_mu", "server_ratings", ["rules", "players", "mu"])


def downgrade() -> None:
    op.drop_index("ix_server_ratings_rules_mu", "server_ratings")
    op.drop_table("server_ratings")
