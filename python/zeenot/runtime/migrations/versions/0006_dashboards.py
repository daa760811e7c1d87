"""Dashboards: per application, the aggregates the dashboard reads (the number of accepted
runs, and the state of the application's `dashboard_fold`), updated in the transaction that
accepts each run, so that a dashboard poll reads one row however many runs are stored (and
the aggregates outlive the runs that retention deletes). An index on the rejections' time for
retention.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dashboards",
        sa.Column("app", sa.String(128), primary_key=True),
        sa.Column("accepted", sa.BigInteger, nullable=False),
        sa.Column("fold", sa.String(64)),  # the SHA-256 of the fold's source that made `state`
        sa.Column("state", sa.Text),  # JSON
        sa.Column("error", sa.Text),  # the fold's last failure, if any
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    # runs stored before: counted now; a fold's state is rebuilt by the first server to start
    op.execute(
        "INSERT INTO dashboards (app, accepted, updated_at) "
        "SELECT app, COUNT(*), MAX(accepted_at) FROM submissions GROUP BY app"
    )
    op.create_index("rejections_by_time", "rejections", ["rejected_at"])


def downgrade() -> None:
    op.drop_index("rejections_by_time", "rejections")
    op.drop_table("dashboards")
