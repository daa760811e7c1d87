"""Peers' rounds in attempts: a round whose peers stall or cheat restarts without them
(runtime/relay.py). `round_attempts` holds each attempt's roster (its present peers with the
keys they use in it), who was dropped and why, and when it started; shares, mailboxes and
partial sums are keyed by attempt, and a share announces its sender's key for the next attempt.
Rows written before this revision are attempt 0.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _columns(table: str) -> list[sa.Column]:
    """The columns of `table` after (app, round[, attempt]), built afresh for each use."""
    return {
        "round_shares": [
            sa.Column("peer", sa.String(64), primary_key=True),
            sa.Column("commitments", sa.Text, nullable=False),
            sa.Column("shared_at", sa.DateTime(timezone=True), nullable=False),
        ],
        "mailbox": [
            sa.Column("recipient", sa.String(64), primary_key=True),
            sa.Column("sender", sa.String(64), primary_key=True),
            sa.Column("sealed", sa.LargeBinary, nullable=False),
        ],
        "round_partials": [
            sa.Column("peer", sa.String(64), primary_key=True),
            sa.Column("partial", sa.Text, nullable=False),
            sa.Column("combined_at", sa.DateTime(timezone=True), nullable=False),
        ],
    }[table]


def _rekey(table: str, extra: list[sa.Column], *, attempt: bool) -> None:
    """Rebuild `table` with (or without) an `attempt` column in its primary key, rows kept
    (attempt 0); portable to SQLite, which cannot alter a primary key in place."""
    columns = _columns(table)
    head = [
        sa.Column("app", sa.String(128), primary_key=True),
        sa.Column("round", sa.String(64), primary_key=True),
    ]
    if attempt:
        head.append(sa.Column("attempt", sa.Integer, primary_key=True))
    op.create_table(f"{table}_new", *head, *columns, *extra)
    names = ["app", "round", *[c.name for c in columns]]
    listed = ", ".join(f'"{n}"' for n in names)
    if attempt:
        op.execute(
            f'INSERT INTO "{table}_new" ({listed}, "attempt") SELECT {listed}, 0 FROM "{table}"'
        )
    else:
        op.execute(
            f'INSERT INTO "{table}_new" ({listed}) SELECT {listed} FROM "{table}" '
            'WHERE "attempt" = 0'
        )
    op.drop_table(table)
    op.rename_table(f"{table}_new", table)


def upgrade() -> None:
    op.create_table(
        "round_attempts",
        sa.Column("app", sa.String(128), primary_key=True),
        sa.Column("round", sa.String(64), primary_key=True),
        sa.Column("attempt", sa.Integer, primary_key=True),
        sa.Column("roster", sa.Text, nullable=False),  # [{peer, position, public_key}]
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("dropped", sa.Text, nullable=False),  # [{peer, reason}] from the attempt before
        sa.Column("failed", sa.Text),  # why the round cannot go on, if it cannot
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    )
    _rekey("round_shares", [sa.Column("next_key", sa.String(64))], attempt=True)
    _rekey("mailbox", [], attempt=True)
    _rekey("round_partials", [], attempt=True)


def downgrade() -> None:
    for table in ("round_shares", "mailbox", "round_partials"):
        _rekey(table, [], attempt=False)
    op.drop_table("round_attempts")
