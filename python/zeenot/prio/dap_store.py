"""One DAP aggregator's state in the runtime's data layer (`zeenot.runtime.store.Store`: SQLite
or PostgreSQL, migrated by Alembic; the tables are migration 0008's).

Every write that acknowledges something is one transaction, committed before the answer: an
uploaded report (the leader answers 201 after it), a helper's aggregation job together with the
report ids it consumed and its response (replays refused by the primary key `(task, report)`),
a collection job together with the batch it claims, a helper's aggregate share together with
its batch. Each aggregator keeps its own database; none of these rows travels to the other.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from zeenot.prio import dap_stats as stats
from zeenot.runtime.jobs import job_row
from zeenot.runtime.store import Conflict, Store, jobs_table, now
from zeenot.runtime.writers import WriterQueue

log = logging.getLogger("zeenot.prio")

metadata = sa.MetaData()
hpke_keys = sa.Table(
    "prio_hpke_keys",
    metadata,
    sa.Column("config_id", sa.Integer, primary_key=True),
    sa.Column("config", sa.LargeBinary),
    sa.Column("private_key", sa.LargeBinary),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)
reports = sa.Table(
    "prio_reports",
    metadata,
    sa.Column("task_id", sa.String(43), primary_key=True),
    sa.Column("report_id", sa.String(22), primary_key=True),
    sa.Column("time", sa.BigInteger),
    sa.Column("digest", sa.String(64)),
    sa.Column("public_share", sa.LargeBinary),
    sa.Column("leader_share", sa.LargeBinary),
    sa.Column("helper_share", sa.LargeBinary),
    sa.Column("state", sa.String(16)),
    sa.Column("agg_job", sa.String(22)),
    sa.Column("out_share", sa.LargeBinary),
    sa.Column("error", sa.String(64)),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)
agg_jobs = sa.Table(
    "prio_agg_jobs",
    metadata,
    sa.Column("task_id", sa.String(43), primary_key=True),
    sa.Column("job_id", sa.String(22), primary_key=True),
    sa.Column("request_sha256", sa.String(64)),
    sa.Column("response", sa.LargeBinary),
    sa.Column("state", sa.String(16)),
    sa.Column("reports", sa.Integer),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)
collection_jobs = sa.Table(
    "prio_collection_jobs",
    metadata,
    sa.Column("task_id", sa.String(43), primary_key=True),
    sa.Column("job_id", sa.String(22), primary_key=True),
    sa.Column("request_sha256", sa.String(64)),
    sa.Column("batch_start", sa.BigInteger),
    sa.Column("batch_duration", sa.BigInteger),
    sa.Column("agg_param", sa.LargeBinary),
    sa.Column("state", sa.String(16)),
    sa.Column("result", sa.LargeBinary),
    sa.Column("error", sa.Text),
    sa.Column("created_at", sa.DateTime(timezone=True)),
    sa.Column("finished_at", sa.DateTime(timezone=True)),
)
batches = sa.Table(
    "prio_batches",
    metadata,
    sa.Column("task_id", sa.String(43), primary_key=True),
    sa.Column("batch_start", sa.BigInteger, primary_key=True),
    sa.Column("batch_duration", sa.BigInteger),
    sa.Column("request_sha256", sa.String(64)),
    sa.Column("response", sa.LargeBinary),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)

AGGREGATE_JOB = "prio_aggregate"  # the jobs.py kind of a leader's aggregation job
# An aggregation job is retried (backoff capped at 5 minutes: about a month) rather than given
# up: the helper may have prepared its reports, and only this job id gets its answer back.
JOB_ATTEMPTS = 10_000
# reports of a job whose outcomes one transaction records (`DapStore.finish_reports`)
FINISH_CHUNK = max(1, int(os.environ.get("ZEENOT_PRIO_FINISH_CHUNK", "128")))


@dataclass(frozen=True)
class StoredReport:
    report_id: str
    time: int
    public_share: bytes
    leader_share: bytes
    helper_share: bytes
    pending: bool = True  # not yet prepared (a job's reports: `DapStore.job_reports`)


@dataclass(frozen=True)
class Upload:
    """An uploaded report as the leader stores it (`DapStore.put_reports`)."""

    task_id: str
    report_id: str
    time: int
    digest: str
    public_share: bytes
    leader_share: bytes
    helper_share: bytes

    def args(self) -> tuple[str, str, int, str, bytes, bytes, bytes]:
        return (
            self.task_id,
            self.report_id,
            self.time,
            self.digest,
            self.public_share,
            self.leader_share,
            self.helper_share,
        )

    def row(self) -> dict[str, Any]:
        return dict(zip(UPLOAD_COLUMNS, self.args(), strict=True))


UPLOAD_COLUMNS = (
    "task_id",
    "report_id",
    "time",
    "digest",
    "public_share",
    "leader_share",
    "helper_share",
)


@dataclass(frozen=True)
class Outcome:
    """What preparation made of one report: `aggregated` with an output share, or `rejected`
    with DAP's name of the reason (`vdaf_prep_error`, `hpke_decrypt_error`, …)."""

    report_id: str
    state: str
    out_share: bytes | None = None
    error: str | None = None

    def row(self) -> dict[str, Any]:
        return {"state": self.state, "out_share": self.out_share, "error": self.error}


@dataclass(frozen=True)
class Batch:
    """The prepared reports of a batch interval: their ids, times and output shares, and how
    many reports in it are not prepared yet."""

    pending: int
    report_ids: list[str]
    times: list[int]
    out_shares: list[bytes]


def _batch_lock(conn: Connection, task_id: str, exclusive: bool) -> None:
    """On PostgreSQL, the task's batch lock until the transaction ends: shared by the
    transactions that add reports (checked against the claimed batches, then inserted),
    exclusive for those that claim a batch (checked for overlaps, then inserted). Under READ
    COMMITTED the check and the insert are two snapshots; without the lock a report committed
    after a claim could go uncounted, and two overlapping claims could both be made. SQLite
    has one writer at a time, and a stale read there fails the write (busy) instead."""
    if conn.dialect.name != "postgresql":
        return
    digest = hashlib.sha256(b"zeenot prio batches " + task_id.encode()).digest()
    key = int.from_bytes(digest[:8], "big", signed=True)
    lock = "pg_advisory_xact_lock" if exclusive else "pg_advisory_xact_lock_shared"
    conn.execute(sa.text(f"SELECT {lock}(:key)"), {"key": key})


def _aware(at: datetime) -> datetime:
    """SQLite gives naive datetimes back (stored as UTC)."""
    return at if at.tzinfo is not None else at.replace(tzinfo=timezone.utc)


def _overlaps(task_id: str, start: int, duration: int) -> Any:
    b = batches
    return sa.and_(
        b.c.task_id == task_id,
        b.c.batch_start < start + duration,
        b.c.batch_start + b.c.batch_duration > start,
    )


ANALYZE_AFTER = 1000  # reports added since PostgreSQL's last statistics, at least (below)


class _Analyzer:
    """On PostgreSQL, fresh planner statistics of the reports table while it grows.

    Autovacuum analyzes a table a minute or more after it changed by 10 %; until then a table
    that grew from empty has none, and the planner looked the report ids of an upload up
    through the (task, state, job) index, filtering the whole task's reports: measured, 34 ms
    per 50-report upload at 20,000 reports (0.8 ms through the primary key once analyzed), on
    the upload's path and growing with the table. So this process counts the reports it adds
    and, once they pass max(`ANALYZE_AFTER`, 10 % of the rows at the last analysis), a thread
    of its own runs `ANALYZE` (it takes no lock that writers wait for), off every request's
    path. On SQLite nothing happens (its planner chose the primary key)."""

    def __init__(self, engine: sa.Engine):
        self.engine = engine
        self._added = 0
        self._rows = 0.0  # the table's rows at the last analysis
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def added(self, n: int) -> None:
        with self._lock:
            self._added += n
            if self._added < max(ANALYZE_AFTER, self._rows / 10):
                return
            self._added = 0
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="zeenot-prio-analyze", daemon=True
                )
                self._thread.start()
        self._wake.set()

    def _run(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            began = time.perf_counter()
            try:
                with self.engine.connect() as conn:
                    conn.exec_driver_sql(f"ANALYZE {reports.name}")
                    rows = conn.exec_driver_sql(
                        f"SELECT reltuples FROM pg_class WHERE relname = '{reports.name}'"
                    ).scalar()
                    conn.commit()
                with self._lock:
                    self._rows = max(0.0, float(rows or 0))
            except Exception as exc:  # the database away: the next threshold tries again
                log.warning("analyzing %s: %s", reports.name, exc)
            stats.since("store.analyze", began)


class DapStore:
    """An aggregator's DAP state over one `Store` (its engine and its migrations)."""

    def __init__(self, store: Store):
        self.store = store
        self.engine = store.engine
        self.writers = WriterQueue(store, stats.since)
        self.analyzer = _Analyzer(self.engine) if not store.is_sqlite else None

    @contextlib.contextmanager
    def begin(self) -> Iterator[Connection]:
        """A write transaction, in its turn (`WriterQueue`)."""
        with self.writers.begin() as conn:
            yield conn

    # HPKE keys -------------------------------------------------------------------------------

    def hpke_keys(self) -> list[tuple[int, bytes, bytes]]:
        """(config id, encoded HpkeConfig, private key), newest first."""
        t = hpke_keys
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(t.c.config_id, t.c.config, t.c.private_key).order_by(
                    t.c.created_at.desc()
                )
            ).all()
        return [(int(r[0]), bytes(r[1]), bytes(r[2])) for r in rows]

    def ensure_hpke_key(self, generate: Callable[[int], tuple[bytes, bytes]]) -> None:
        """Draw this aggregator's first key pair (config id 1) unless one exists; of processes
        starting together, the first insert wins and the others read it."""
        if self.hpke_keys():
            return
        config, private_key = generate(1)
        try:
            self.store._insert(
                hpke_keys, config_id=1, config=config, private_key=private_key, created_at=now()
            )
        except Conflict:
            pass

    # the leader: uploads ---------------------------------------------------------------------

    def put_report(
        self,
        task_id: str,
        report_id: str,
        time: int,
        digest: str,
        public_share: bytes,
        leader_share: bytes,
        helper_share: bytes,
    ) -> str:
        """Store an uploaded report: `stored`; `repeated` (this very report was stored before:
        nothing written), `replayed` (its id was used by another report), `collected` (its
        time lies in a batch claimed by a collection)."""
        r = reports
        try:
            with self.begin() as conn:
                _batch_lock(conn, task_id, exclusive=False)
                if self._in_collected_batch(conn, task_id, time):
                    return "collected"
                conn.execute(
                    r.insert().values(
                        task_id=task_id,
                        report_id=report_id,
                        time=time,
                        digest=digest,
                        public_share=public_share,
                        leader_share=leader_share,
                        helper_share=helper_share,
                        state="pending",
                        created_at=now(),
                    )
                )
            return "stored"
        except sa.exc.IntegrityError:
            pass
        with self.engine.connect() as conn:
            stored = conn.execute(
                sa.select(r.c.digest).where(r.c.task_id == task_id, r.c.report_id == report_id)
            ).scalar()
        return "repeated" if stored == digest else "replayed"

    def put_reports(self, uploads: list[Upload]) -> list[str]:
        """Store many uploaded reports in one transaction (one commit, one fsync): for each, in
        order, what `put_report` answers (a report stored before is `repeated` even once its
        batch is claimed). A report id that appears twice in `uploads` is
        judged like a second upload after the first. If another process inserted one of these
        ids meanwhile, the transaction is rolled back and each report is stored on its own."""
        r = reports
        answers: list[str] = []
        try:
            with self.begin() as conn:
                checking = time.perf_counter()
                claimed: dict[str, list[tuple[int, int]]] = {}
                known: dict[tuple[str, str], str] = {}
                for task_id in sorted({u.task_id for u in uploads}):
                    _batch_lock(conn, task_id, exclusive=False)
                    claimed[task_id] = self._claimed(conn, task_id)
                    ids = [u.report_id for u in uploads if u.task_id == task_id]
                    for i in range(0, len(ids), 500):
                        known.update(
                            ((task_id, str(row[0])), str(row[1]))
                            for row in conn.execute(
                                sa.select(r.c.report_id, r.c.digest).where(
                                    r.c.task_id == task_id, r.c.report_id.in_(ids[i : i + 500])
                                )
                            )
                        )
                stats.since("store.checks", checking)
                rows = []
                at = now()
                for u in uploads:
                    key = (u.task_id, u.report_id)
                    if key in known:
                        answers.append("repeated" if known[key] == u.digest else "replayed")
                    elif any(s <= u.time < s + d for s, d in claimed[u.task_id]):
                        answers.append("collected")
                    else:
                        known[key] = u.digest
                        rows.append({**u.row(), "state": "pending", "created_at": at})
                        answers.append("stored")
                if rows:
                    inserting = time.perf_counter()
                    conn.execute(r.insert(), rows)
                    stats.since("store.insert", inserting)
                committing = time.perf_counter()
            stats.since("store.commit", committing)
            if self.analyzer is not None and rows:
                self.analyzer.added(len(rows))
            return answers
        except sa.exc.IntegrityError:
            return [self.put_report(*u.args()) for u in uploads]

    def _claimed(self, conn: Connection, task_id: str) -> list[tuple[int, int]]:
        b = batches
        rows = conn.execute(
            sa.select(b.c.batch_start, b.c.batch_duration).where(b.c.task_id == task_id)
        ).all()
        return [(int(x[0]), int(x[1])) for x in rows]

    def _in_collected_batch(self, conn: Connection, task_id: str, time: int) -> bool:
        b = batches
        found = conn.execute(
            sa.select(b.c.batch_start)
            .where(
                b.c.task_id == task_id,
                b.c.batch_start <= time,
                b.c.batch_start + b.c.batch_duration > time,
            )
            .limit(1)
        ).first()
        return found is not None

    def collected_intervals(self, task_id: str) -> list[tuple[int, int]]:
        """The task's claimed batch intervals, (start, duration)."""
        b = batches
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(b.c.batch_start, b.c.batch_duration).where(b.c.task_id == task_id)
            ).all()
        return [(int(r[0]), int(r[1])) for r in rows]

    # the leader: aggregation jobs ------------------------------------------------------------

    def assign_pending(self, task_id: str, job_id: str, limit: int, wait: float = 0.0) -> int:
        """Give up to `limit` unassigned pending reports of the task to a new aggregation job
        and enqueue the job (jobs.py) in the same transaction; how many it got. A job of fewer
        than `limit` reports starts only once one of them has waited `wait` seconds (under load
        jobs fill up: fewer round trips and commits per report). The update is conditional, so
        of leader processes racing, each report goes to one job. The reports are chosen before
        the writer's turn (a read; the update is conditional), so the write lock is held for
        the update and the job's row only."""
        r = reports
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(r.c.report_id, r.c.created_at)
                .where(r.c.task_id == task_id, r.c.state == "pending", r.c.agg_job.is_(None))
                # `time + 0`: ordering by the bare column let SQLite walk the (task, time) index
                # over every report of the task, aggregated or not (the cost grew with the
                # table); so it takes the unassigned reports' index and sorts only those
                .order_by(r.c.time + 0, r.c.report_id)
                .limit(limit)
            ).all()
        if not rows:
            return 0
        if len(rows) < limit and wait > 0:
            oldest = min(_aware(row[1]) for row in rows)
            if (now() - oldest).total_seconds() < wait:
                return 0
        ids = [row[0] for row in rows]
        with self.begin() as conn:
            got = conn.execute(
                r.update()
                .where(r.c.task_id == task_id, r.c.report_id.in_(ids), r.c.agg_job.is_(None))
                .values(agg_job=job_id)
            ).rowcount
            if got:
                payload = {"task_id": task_id, "job_id": job_id}
                key = f"{AGGREGATE_JOB}:{task_id}:{job_id}"
                row = job_row(AGGREGATE_JOB, key, payload, max_attempts=JOB_ATTEMPTS)
                conn.execute(jobs_table.insert().values(**row))
        return int(got or 0)

    def job_reports(self, task_id: str, job_id: str) -> list[StoredReport]:
        """Every report of a leader's aggregation job, prepared or not (`pending`), in a fixed
        order: a job run again (after a kill, perhaps between two of `finish_reports`'
        transactions) sends the helper the very same request, which the helper answers with
        its stored response."""
        r = reports
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(
                    r.c.report_id,
                    r.c.time,
                    r.c.public_share,
                    r.c.leader_share,
                    r.c.helper_share,
                    r.c.state,
                ).where(r.c.task_id == task_id, r.c.agg_job == job_id)
            ).all()
        # sorted here: an ORDER BY report_id let SQLite walk the primary key over every report
        # of the task instead of the job's index
        rows = sorted(rows, key=lambda x: str(x[0]))
        return [
            StoredReport(x[0], int(x[1]), bytes(x[2]), bytes(x[3]), bytes(x[4]), x[5] == "pending")
            for x in rows
        ]

    def finish_reports(self, task_id: str, job_id: str, outcomes: Iterable[Outcome]) -> int:
        """Record the outcome of each report of a leader's aggregation job; only reports still
        pending in that job change (a second run of the job changes nothing). In transactions
        of at most `FINISH_CHUNK` reports (an executemany each), so that an upload waiting for
        the write lock waits behind a part of a job, not the whole of it; a job killed between
        two of them runs again and records the rest."""
        r = reports
        rows = [{"rid": o.report_id, **o.row()} for o in outcomes]
        if not rows:
            return 0
        statement = (
            r.update()
            .where(
                r.c.task_id == task_id,
                r.c.report_id == sa.bindparam("rid"),
                r.c.agg_job == job_id,
                r.c.state == "pending",
            )
            .values(
                state=sa.bindparam("state"),
                out_share=sa.bindparam("out_share"),
                error=sa.bindparam("error"),
            )
        )
        done = 0
        for i in range(0, len(rows), FINISH_CHUNK):
            with self.begin() as conn:
                done += int(conn.execute(statement, rows[i : i + FINISH_CHUNK]).rowcount)
        return done

    # the helper: aggregation jobs ------------------------------------------------------------

    def helper_job(self, task_id: str, job_id: str) -> tuple[str, bytes] | None:
        t = agg_jobs
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(t.c.request_sha256, t.c.response).where(
                    t.c.task_id == task_id, t.c.job_id == job_id
                )
            ).first()
        return (str(row[0]), bytes(row[1])) if row else None

    def seen(self, task_id: str, report_ids: list[str]) -> set[str]:
        r = reports
        found: set[str] = set()
        with self.engine.connect() as conn:
            for i in range(0, len(report_ids), 500):
                chunk = report_ids[i : i + 500]
                found.update(
                    row[0]
                    for row in conn.execute(
                        sa.select(r.c.report_id).where(
                            r.c.task_id == task_id, r.c.report_id.in_(chunk)
                        )
                    )
                )
        return found

    def put_helper_job(
        self,
        task_id: str,
        job_id: str,
        request_sha256: str,
        response: bytes,
        times: dict[str, int],
        outcomes: list[Outcome],
    ) -> None:
        """Store a helper's aggregation job: its request's digest and its response, and a row
        per report it prepared or rejected (as replay protection: `Conflict` if any report id,
        or the job, was stored before, or if a report it prepared lies in a batch claimed
        since; then nothing is written)."""
        at = now()
        try:
            with self.begin() as conn:
                _batch_lock(conn, task_id, exclusive=False)
                claimed = self._claimed(conn, task_id)
                if any(
                    s <= times[o.report_id] < s + d
                    for o in outcomes
                    if o.state == "aggregated"
                    for s, d in claimed
                ):  # a batch was claimed since the job was judged: judge it again
                    raise Conflict("prio_batches")
                conn.execute(
                    agg_jobs.insert().values(
                        task_id=task_id,
                        job_id=job_id,
                        request_sha256=request_sha256,
                        response=response,
                        state="finished",
                        reports=len(outcomes),
                        created_at=at,
                    )
                )
                rows = [
                    {
                        "task_id": task_id,
                        "report_id": o.report_id,
                        "time": times[o.report_id],
                        "agg_job": job_id,
                        "created_at": at,
                        **o.row(),
                    }
                    for o in outcomes
                    if o.error != "report_replayed"  # the first report with that id stays
                ]
                if rows:
                    conn.execute(reports.insert(), rows)
        except sa.exc.IntegrityError:
            raise Conflict("prio_reports") from None
        if self.analyzer is not None and rows:
            self.analyzer.added(len(rows))

    # collection ------------------------------------------------------------------------------

    def create_collection_job(
        self, task_id: str, job_id: str, request_sha256: str, start: int, duration: int
    ) -> str:
        """`created` (the job, and its batch claimed: no report enters it from now on),
        `repeated` (this job with this request exists), `changed` (this job id with another
        request), `overlap` (another collection's batch overlaps this one)."""
        c = collection_jobs
        with self.begin() as conn:
            _batch_lock(conn, task_id, exclusive=True)
            row = conn.execute(
                sa.select(c.c.request_sha256).where(c.c.task_id == task_id, c.c.job_id == job_id)
            ).first()
            if row is not None:
                return "repeated" if row[0] == request_sha256 else "changed"
            if conn.execute(
                sa.select(batches.c.batch_start).where(_overlaps(task_id, start, duration))
            ).first():
                return "overlap"
            at = now()
            conn.execute(
                batches.insert().values(
                    task_id=task_id, batch_start=start, batch_duration=duration, created_at=at
                )
            )
            conn.execute(
                c.insert().values(
                    task_id=task_id,
                    job_id=job_id,
                    request_sha256=request_sha256,
                    batch_start=start,
                    batch_duration=duration,
                    agg_param=b"",
                    state="pending",
                    created_at=at,
                )
            )
        return "created"

    def collection_job(self, task_id: str, job_id: str) -> dict[str, Any] | None:
        c = collection_jobs
        with self.engine.connect() as conn:
            row = (
                conn.execute(sa.select(c).where(c.c.task_id == task_id, c.c.job_id == job_id))
                .mappings()
                .first()
            )
        return dict(row) if row else None

    def pending_collection_jobs(self, limit: int = 16) -> list[dict[str, Any]]:
        c = collection_jobs
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(c).where(c.c.state == "pending").order_by(c.c.created_at).limit(limit)
            ).mappings()
            return [dict(r) for r in rows]

    def end_collection_job(
        self, task_id: str, job_id: str, state: str, result: bytes | None, error: str | None
    ) -> bool:
        """Move a pending job to `finished` (with its Collection) or `failed`; False if another
        process finished it first."""
        c = collection_jobs
        with self.begin() as conn:
            return (
                conn.execute(
                    c.update()
                    .where(c.c.task_id == task_id, c.c.job_id == job_id, c.c.state == "pending")
                    .values(state=state, result=result, error=error, finished_at=now())
                ).rowcount
                == 1
            )

    def delete_collection_job(self, task_id: str, job_id: str) -> bool:
        """Forget a job's result (the batch stays claimed: it was, or may have been, collected)."""
        c = collection_jobs
        with self.begin() as conn:
            return (
                conn.execute(
                    c.update()
                    .where(c.c.task_id == task_id, c.c.job_id == job_id)
                    .values(state="deleted", result=None)
                ).rowcount
                == 1
            )

    def batch(self, task_id: str, start: int, duration: int) -> Batch:
        """The reports whose time lies in `[start, start + duration)`: how many are pending,
        and the prepared ones (rejected reports are in no batch)."""
        r = reports
        inside = sa.and_(r.c.task_id == task_id, r.c.time >= start, r.c.time < start + duration)
        with self.engine.connect() as conn:
            pending = conn.execute(
                sa.select(sa.func.count()).where(inside, r.c.state == "pending")
            ).scalar()
            rows = conn.execute(
                sa.select(r.c.report_id, r.c.time, r.c.out_share)
                .where(inside, r.c.state == "aggregated")
                .order_by(r.c.report_id)
            ).all()
        return Batch(
            int(pending or 0),
            [x[0] for x in rows],
            [int(x[1]) for x in rows],
            [bytes(x[2]) for x in rows],
        )

    # the helper: aggregate shares ------------------------------------------------------------

    def helper_batch(self, task_id: str, start: int) -> tuple[int, str, bytes] | None:
        """(duration, request digest, AggregateShare) of a batch the helper answered."""
        b = batches
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(b.c.batch_duration, b.c.request_sha256, b.c.response).where(
                    b.c.task_id == task_id, b.c.batch_start == start
                )
            ).first()
        if row is None or row[2] is None:
            return None
        return int(row[0]), str(row[1]), bytes(row[2])

    def put_helper_batch(
        self, task_id: str, start: int, duration: int, request_sha256: str, response: bytes
    ) -> bool:
        """Record the AggregateShare answered for a batch; False if the batch overlaps one
        answered before (nothing written)."""
        with self.begin() as conn:
            _batch_lock(conn, task_id, exclusive=True)
            if conn.execute(
                sa.select(batches.c.batch_start).where(_overlaps(task_id, start, duration))
            ).first():
                return False
            conn.execute(
                batches.insert().values(
                    task_id=task_id,
                    batch_start=start,
                    batch_duration=duration,
                    request_sha256=request_sha256,
                    response=response,
                    created_at=now(),
                )
            )
        return True

    # counts, for tests and the operator ------------------------------------------------------

    def report_states(self, task_id: str) -> dict[str, int]:
        r = reports
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(r.c.state, sa.func.count())
                .where(r.c.task_id == task_id)
                .group_by(r.c.state)
            ).all()
        return {str(s): int(n) for s, n in rows}
