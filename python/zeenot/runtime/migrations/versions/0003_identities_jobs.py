"""Who: registered clients, request nonces (replays refused across processes), jobs, and the
client and period of a submission (one run per client per period, enforced by a unique index).

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clients",
        sa.Column("app", sa.String(128), primary_key=True),
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("public_key", sa.String(64), nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("app", "public_key", name="one_client_a_key"),
    )
    op.create_table(
        "nonces",
        sa.Column("scope", sa.String(200), primary_key=True),
        sa.Column("nonce", sa.String(64), primary_key=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("nonces_by_expiry", "nonces", ["expires_at"])
    op.create_table(
        "jobs",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(200), nullable=False, unique=True),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("max_attempts", sa.Integer, nullable=False),
        sa.Column("run_after", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_owner", sa.String(64)),
        sa.Column("lease_until", sa.DateTime(timezone=True)),
        sa.Column("last_error", sa.Text),
        sa.Column("result", sa.Text),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True)),
    )
    op.create_index("jobs_due", "jobs", ["state", "run_after"])
    # NULL clients (applications without clients) never collide: NULLs are distinct in a
    # unique index on SQLite and PostgreSQL alike.
    op.add_column("submissions", sa.Column("client", sa.String(64)))
    op.add_column("submissions", sa.Column("period", sa.String(16)))
    op.create_index(
        "submissions_one_per_period", "submissions", ["app", "client", "period"], unique=True
    )


def downgrade() -> None:
    op.drop_index("submissions_one_per_period", "submissions")
    op.drop_column("submissions", "period")
    op.drop_column("submissions", "client")
    for table in ("jobs", "nonces", "clients"):
        op.drop_table(table)
