"""Epochs: a random value per application and database, drawn by the first process and
published, that every proof's context names (runtime/binding.py): a proof made for one
deployment is refused by another.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "epochs",
        sa.Column("app", sa.String(128), primary_key=True),
        sa.Column("epoch", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("epochs")
