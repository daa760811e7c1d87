"""The runtime's first schema: keys, published parameters, submissions, proofs, rejections.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "keys",
        sa.Column("app", sa.String(128), primary_key=True),
        sa.Column("region", sa.String(128), primary_key=True),
        sa.Column("program_hash", sa.String(64), primary_key=True),
        sa.Column("proving_key", sa.LargeBinary, nullable=False),
        sa.Column("verifying_key", sa.LargeBinary, nullable=False),
        sa.Column("proving_key_sha256", sa.String(64), nullable=False),
        sa.Column("verifying_key_sha256", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "parameters",
        sa.Column("app", sa.String(128), primary_key=True),
        sa.Column("source_sha256", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "submissions",
        sa.Column("app", sa.String(128), primary_key=True),
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("result", sa.Text, nullable=False),
        sa.Column("accepted_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("submissions_by_time", "submissions", ["app", "accepted_at"])
    op.create_table(
        "proofs",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("app", sa.String(128), nullable=False),
        sa.Column("submission", sa.String(64), nullable=False),
    )
    op.create_table(
        "rejections",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("app", sa.String(128), nullable=False),
        sa.Column("submission", sa.String(64)),
        sa.Column("status", sa.Integer, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("rejected_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for table in ("rejections", "proofs", "submissions", "parameters", "keys"):
        op.drop_table(table)
