"""The fair-exchange arbiter's decisions (zeenot.cashlib.exchange).

* `cash_arbiter_decisions`: one row per resolved exchange, keyed by the SHA-256 of the
  exchange's escrow label (hex): the primary key is what refuses a second resolution of one
  exchange, whatever the number of arbiter processes. The row keeps the decision, the coin's
  serial (packed, hex) and the file key the seller proved, which the buyer fetches.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cash_arbiter_decisions",
        sa.Column("exchange", sa.String(64), primary_key=True),
        sa.Column("decision", sa.String(16), nullable=False),
        sa.Column("serial", sa.String(64), nullable=False),
        sa.Column("file_key", sa.LargeBinary, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("cash_arbiter_decisions")
