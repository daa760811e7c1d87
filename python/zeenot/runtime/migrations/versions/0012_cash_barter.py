"""The barter arbiter's disputes (zeenot.cashlib.barter).

* `cash_barter_disputes`: one row per disputed barter, keyed by the SHA-256 of the exchange's
  escrow label (hex): the primary key refuses a second complaint. `state` moves once, from
  `pending` to `swapped` (Alice answered with her key in her window) or `endorsed` (she did not:
  the escrowed endorsement pays Bob), by conditional updates. The row keeps the coin's serial,
  Bob's file key (for Alice), Alice's (for Bob, once swapped) and the end of Alice's window.

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cash_barter_disputes",
        sa.Column("exchange", sa.String(64), primary_key=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("serial", sa.String(64), nullable=False),
        sa.Column("bob_key", sa.LargeBinary, nullable=False),
        sa.Column("alice_key", sa.LargeBinary, nullable=True),
        sa.Column("respond_by", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("cash_barter_disputes")
