"""Prio over DAP-09 (zeenot.prio): one aggregator's state, leader or helper, in its own database.

* `prio_hpke_keys`: this aggregator's HPKE key pairs (the private key never leaves its
  database; the task file holds no aggregator key).
* `prio_reports`: one row per report id a task has seen. The leader stores the uploaded report
  (its public share and both encrypted input shares) before it acknowledges it; the helper
  stores the report ids of its aggregation jobs (replays refused by the primary key). Both keep
  each report's state and, once prepared, their output share.
* `prio_agg_jobs`: aggregation jobs; the helper keeps each request's SHA-256 and its response,
  so a repeated request is answered identically and a changed one refused.
* `prio_collection_jobs`: the leader's collection jobs and their finished `Collection`.
* `prio_batches`: collected batch intervals (no report enters them afterwards; no other
  collection overlaps them); the helper keeps each `AggregateShare` it answered.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "prio_hpke_keys",
        sa.Column("config_id", sa.Integer, primary_key=True),
        sa.Column("config", sa.LargeBinary, nullable=False),  # the encoded HpkeConfig
        sa.Column("private_key", sa.LargeBinary, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "prio_reports",
        sa.Column("task_id", sa.String(43), primary_key=True),
        sa.Column("report_id", sa.String(22), primary_key=True),
        sa.Column("time", sa.BigInteger, nullable=False),
        sa.Column("digest", sa.String(64)),  # the leader: SHA-256 of the uploaded Report
        sa.Column("public_share", sa.LargeBinary),
        sa.Column("leader_share", sa.LargeBinary),  # encoded HpkeCiphertext (leader only)
        sa.Column("helper_share", sa.LargeBinary),  # idem
        sa.Column("state", sa.String(16), nullable=False),  # pending, aggregated, rejected
        sa.Column("agg_job", sa.String(22)),
        sa.Column("out_share", sa.LargeBinary),
        sa.Column("error", sa.String(64)),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("prio_reports_by_job", "prio_reports", ["task_id", "agg_job"])
    op.create_index("prio_reports_by_time", "prio_reports", ["task_id", "time"])
    op.create_index("prio_reports_unassigned", "prio_reports", ["task_id", "state", "agg_job"])
    op.create_table(
        "prio_agg_jobs",
        sa.Column("task_id", sa.String(43), primary_key=True),
        sa.Column("job_id", sa.String(22), primary_key=True),
        sa.Column("request_sha256", sa.String(64)),
        sa.Column("response", sa.LargeBinary),
        sa.Column("state", sa.String(16), nullable=False),  # running, finished
        sa.Column("reports", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "prio_collection_jobs",
        sa.Column("task_id", sa.String(43), primary_key=True),
        sa.Column("job_id", sa.String(22), primary_key=True),
        sa.Column("request_sha256", sa.String(64), nullable=False),
        sa.Column("batch_start", sa.BigInteger, nullable=False),
        sa.Column("batch_duration", sa.BigInteger, nullable=False),
        sa.Column("agg_param", sa.LargeBinary, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),  # pending, finished, failed, deleted
        sa.Column("result", sa.LargeBinary),  # the encoded Collection
        sa.Column("error", sa.Text),  # a DAP problem type and detail, when failed
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True)),
    )
    op.create_index("prio_collection_jobs_pending", "prio_collection_jobs", ["state"])
    op.create_table(
        "prio_batches",
        sa.Column("task_id", sa.String(43), primary_key=True),
        sa.Column("batch_start", sa.BigInteger, primary_key=True),
        sa.Column("batch_duration", sa.BigInteger, nullable=False),
        sa.Column("request_sha256", sa.String(64)),  # the helper: the AggregateShareReq's
        sa.Column("response", sa.LargeBinary),  # the helper: the AggregateShare it answered
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for table in (
        "prio_batches",
        "prio_collection_jobs",
        "prio_agg_jobs",
        "prio_reports",
        "prio_hpke_keys",
    ):
        op.drop_table(table)
