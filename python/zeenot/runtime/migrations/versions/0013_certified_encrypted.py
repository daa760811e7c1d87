"""Certified data, path (b) (zeenot.certified.encrypted_server): a service's encrypted sums and
their proved decryptions.

* `certified_encrypted` (a service): one row per source, user key and period (the primary key
  refuses a replay), written when the user's bundle verifies — the bundle's SHA-256 and the
  service's re-randomised weighted sums (`sums`, JSON ciphertexts) — and completed once, when
  her DLEQ proofs of their decryptions verify (`result`, `decrypted_at`; NULL until then).

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "certified_encrypted",
        sa.Column("source_id", sa.BigInteger, primary_key=True),
        sa.Column("user_key", sa.String(160), primary_key=True),  # Baby Jubjub "x,y" (decimal)
        sa.Column("period", sa.BigInteger, primary_key=True),
        sa.Column("regions_hash", sa.String(64), nullable=False),
        sa.Column("bundle_sha256", sa.String(64), nullable=False),
        sa.Column("sums", sa.Text, nullable=False),  # the service's ciphertexts, JSON
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("result", sa.Text),  # the decrypted results, JSON; NULL until proved
        sa.Column("decrypted_at", sa.DateTime(timezone=True)),
    )


def downgrade() -> None:
    op.drop_table("certified_encrypted")
