"""Peers (ZØ's ClientShare tier): rounds of a secret-shared sum relayed through the server.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "round_peers",
        sa.Column("app", sa.String(128), primary_key=True),
        sa.Column("round", sa.String(64), primary_key=True),
        sa.Column("peer", sa.String(64), primary_key=True),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("public_key", sa.String(64), nullable=False),
        sa.Column("token_sha256", sa.String(64), nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("app", "round", "position", name="one_peer_a_position"),
    )
    op.create_table(
        "round_shares",
        sa.Column("app", sa.String(128), primary_key=True),
        sa.Column("round", sa.String(64), primary_key=True),
        sa.Column("peer", sa.String(64), primary_key=True),
        sa.Column("commitments", sa.Text, nullable=False),
        sa.Column("shared_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "mailbox",
        sa.Column("app", sa.String(128), primary_key=True),
        sa.Column("round", sa.String(64), primary_key=True),
        sa.Column("recipient", sa.String(64), primary_key=True),
        sa.Column("sender", sa.String(64), primary_key=True),
        sa.Column("sealed", sa.LargeBinary, nullable=False),
    )
    op.create_table(
        "round_partials",
        sa.Column("app", sa.String(128), primary_key=True),
        sa.Column("round", sa.String(64), primary_key=True),
        sa.Column("peer", sa.String(64), primary_key=True),
        sa.Column("partial", sa.Text, nullable=False),
        sa.Column("combined_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for table in ("round_partials", "mailbox", "round_shares", "round_peers"):
        op.drop_table(table)
