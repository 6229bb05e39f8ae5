"""Server-side sessions and the login back-off (issue 23): ``server_sessions``
(a cookie's token is kept only as its SHA-256) and ``server_auth_failures``.

Revision ID: s0003
Revises: s0002_table_creator
"""
import sqlalchemy as sa
from alembic import op

revision = "s0003"
down_revision = "s0002_table_creator"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(40), nullable=False),
        sa.Column("issued_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float, nullable=False),
    )
    op.create_index("ix_server_sessions_player_id", "server_sessions", ["player_id"])
    op.create_table(
        "server_auth_failures",
        sa.Column("scope", sa.String(8), primary_key=True),
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("last_at", sa.Float, nullable=False),
        sa.Column("blocked_until", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_auth_failures")
    op.drop_index("ix_server_sessions_player_id", table_name="server_sessions")
    op.drop_table("server_sessions")
