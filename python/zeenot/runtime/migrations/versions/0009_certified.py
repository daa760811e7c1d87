"""Certified data (zeenot.certified, issue 30): a source's accounts and readings, a service's
verified results.

* `certified_accounts` (a source): who may fetch blocks — the account's name, its Ed25519 key
  (the signed requests' signer) and the Baby Jubjub key its blocks are issued to.
* `certified_readings` (a source): what it measured, one row per account and period, final
  once written (a period is never signed over two different sets of values); `signed_at` is
  when the account first fetched the signed block.
* `certified_results` (a service): one verified result per source, user key and period (the
  primary key refuses a replay), with the proof's SHA-256.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "certified_accounts",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("auth_key", sa.String(64), nullable=False),  # Ed25519, hex
        sa.Column("user_key", sa.String(160), nullable=False),  # Baby Jubjub "x,y" (decimal)
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "certified_readings",
        sa.Column("account", sa.String(64), primary_key=True),
        sa.Column("period", sa.BigInteger, primary_key=True),
        sa.Column("bits", sa.Integer, nullable=False),
        sa.Column("values_json", sa.Text, nullable=False),
        sa.Column("values_sha256", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("signed_at", sa.DateTime(timezone=True)),
    )
    op.create_table(
        "certified_results",
        sa.Column("source_id", sa.BigInteger, primary_key=True),
        sa.Column("user_key", sa.String(160), primary_key=True),
        sa.Column("period", sa.BigInteger, primary_key=True),
        sa.Column("program_hash", sa.String(64), nullable=False),
        sa.Column("result", sa.Text, nullable=False),  # the proof's outputs, JSON
        sa.Column("proof_sha256", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for table in ("certified_results", "certified_readings", "certified_accounts"):
        op.drop_table(table)
