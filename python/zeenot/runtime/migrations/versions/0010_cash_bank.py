"""The e-cash bank (zeenot.cashlib.bank): its key, its accounts and its deposits.

* `cash_bank_keys`: the bank's issuer key (one row; the secret never leaves its database) and
  the wallet size `2^level`.
* `cash_accounts`: each account's public key `u·G` (packed, hex), the key a withdrawal binds.
* `cash_deposits`: one row per deposited coin, keyed by its serial `S` (packed, hex): the
  primary key is what makes a serial acceptable once, whatever the number of processes; `R` and
  the tag `T` identify a double spender from a second spend of the same serial.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cash_bank_keys",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("level", sa.Integer, nullable=False),
        sa.Column("secret", sa.LargeBinary, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "cash_accounts",
        sa.Column("public_key", sa.String(64), primary_key=True),
        sa.Column("account", sa.String(128), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "cash_deposits",
        sa.Column("serial", sa.String(64), primary_key=True),
        sa.Column("r", sa.String(64), nullable=False),
        sa.Column("tag", sa.String(64), nullable=False),
        sa.Column("merchant", sa.String(128), nullable=False),
        sa.Column("info_sha256", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("cash_deposits")
    op.drop_table("cash_accounts")
    op.drop_table("cash_bank_keys")
