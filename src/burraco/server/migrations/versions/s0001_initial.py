"""The server's first schema: players, tables, events, hands, matches, meta.

Revision ID: s0001
Revises:
"""
import sqlalchemy as sa
from alembic import op

revision = "s0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_players",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), unique=True, nullable=True),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("mu", sa.Float, nullable=True),
        sa.Column("sigma", sa.Float, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "server_tables",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("invite", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("state", sa.JSON, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "server_events",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("hand", sa.Integer, nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "server_hands",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("status", sa.String(24), nullable=False),
        sa.Column("record", sa.JSON, nullable=False),
        sa.Column("summary", sa.JSON, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
    )
    op.create_table(
        "server_matches",
        sa.Column("table_id", sa.String(40), primary_key=True),
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
    )
    op.create_index("ix_server_matches_player_id", "server_matches", ["player_id"])
    op.create_table(
        "server_meta",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for name in ("server_meta", "server_matches", "server_hands", "server_events",
                 "server_tables", "server_players"):
        op.drop_table(name)
