"""Hand reviews (issue 28): ``server_reviews`` keeps the search's review of one seat's
play in one finished hand at one budget, keyed ``(table_id, hand, seat, budget)``:
asked twice, by anyone in any server process, it is computed once.  A row is
``queued``, ``running`` (with its progress), ``done`` (with the review's JSON) or
``failed``; ``player_id`` and ``address`` say who asked (the caps on reviews in
progress count them), ``updated_at`` is the heartbeat of the process computing it.

Revision ID: s0005_reviews
Revises: s0004_ratings
"""
import sqlalchemy as sa
from alembic import op

revision = "s0005_reviews"
down_revision = "s0004_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_reviews",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("budget", sa.String(64), primary_key=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("review", sa.JSON, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("player_id", sa.String(40), nullable=True),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_server_reviews_player_state", "server_reviews", ["player_id", "state"])
    op.create_index("ix_server_reviews_address_state", "server_reviews", ["address", "state"])


def downgrade() -> None:
    op.drop_index("ix_server_reviews_address_state", "server_reviews")
    op.drop_index("ix_server_reviews_player_state", "server_reviews")
    op.drop_table("server_reviews")
