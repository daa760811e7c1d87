"""The collective authority (issue 29): per server, its DKG state, the providers' records it
accepted (each verified before it was stored, and stored before it was acknowledged), the
queries it leads, and what it published for each step of a query (kept, so that a step asked
again is answered with the same output: a server never key-switches one query twice).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cothority_state",  # the DKG: this server's dealing, received dealings, its share
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "cothority_records",
        sa.Column("digest", sa.String(64), primary_key=True),  # SHA-256 of the record's body
        sa.Column("provider", sa.String(64), nullable=False),
        sa.Column("record_id", sa.String(64), nullable=False),
        sa.Column("body", sa.Text, nullable=False),  # ciphertexts and proofs (JSON)
        sa.Column("received_from", sa.String(64)),  # the server that relayed it, or null
        sa.Column("accepted_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("provider", "record_id", name="one_record_an_id"),
    )
    op.create_table(
        "cothority_queries",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("querier", sa.String(64), nullable=False),
        sa.Column("query", sa.Text, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),  # running, done, failed
        sa.Column("transcript", sa.Text),
        sa.Column("error", sa.Text),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "cothority_steps",
        sa.Column("query", sa.String(64), primary_key=True),
        sa.Column("step", sa.String(64), primary_key=True),
        sa.Column("input_digest", sa.String(64), nullable=False),
        sa.Column("output", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("cothority_steps")
    op.drop_table("cothority_queries")
    op.drop_table("cothority_records")
    op.drop_table("cothority_state")
