"""Jobs in the data layer: work that must happen once it is decided, even if the process that
decided it is killed.

A job is a row (`jobs`, migration 0003): a kind, a JSON payload, a unique key (enqueueing the
same key twice is one job), a state (queued, running, done, failed) and a lease. Every server
process runs a `JobRunner` thread that claims due jobs with an atomic conditional UPDATE (one
process wins a job, however many share the database), renews the lease while the handler runs,
and marks the job done or, after a failure, queued again with a backoff until `max_attempts`.
A job whose process died (kill -9) keeps its lease until it expires; then the next process
claims it again. Delivery is therefore *at least once*: handlers are idempotent.

Built in, for every `zeenot serve`:

* `retention` (every hour, one process runs it): forgets expired nonces of signed requests and
  finished jobs older than `KEEP_FINISHED`; with `zeenot serve --retain-days N`, also the
  accepted runs and the refusals older than N days (the dashboard's aggregates stay).
* `forward` (with `--forward URL`): each accepted submission is handed to the operator's own
  system (billing, say) as a POST signed with the server's identity. The job is written in the
  submission's own transaction (a transactional outbox), so an acknowledged run is delivered
  even if the server is killed between acknowledging it and delivering it.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from zeenot.errors import MalformedInput
from zeenot.runtime.store import Conflict, Store, jobs_table, now

log = logging.getLogger("zeenot.jobs")

LEASE = 30.0  # seconds a claimed job is its process's before another may take it
MAX_ATTEMPTS = 8
BACKOFF = 2.0  # seconds before the first retry, doubled each time (capped at MAX_BACKOFF)
MAX_BACKOFF = 300.0
KEEP_FINISHED = dt.timedelta(days=7)
MAX_PAYLOAD = 64 * 1024

Handler = Callable[[dict[str, Any]], Any]


def job_row(
    kind: str,
    key: str,
    payload: dict[str, Any],
    *,
    max_attempts: int = MAX_ATTEMPTS,
    run_after: dt.datetime | None = None,
) -> dict[str, Any]:
    """A new job as a row, for `Jobs.enqueue` or for another transaction (`Store.accept`)."""
    data = json.dumps(payload, separators=(",", ":"))
    if len(data) > MAX_PAYLOAD or len(key) > 200 or not 1 <= len(kind) <= 64:
        raise ValueError("a job's key is at most 200 characters and its payload 64 KiB")
    t = now()
    return {
        "key": key,
        "kind": kind,
        "payload": data,
        "state": "queued",
        "attempts": 0,
        "max_attempts": max_attempts,
        "run_after": run_after or t,
        "created_at": t,
    }


@dataclass(frozen=True)
class Job:
    id: int
    key: str
    kind: str
    payload: dict[str, Any]
    attempts: int
    max_attempts: int


class Jobs:
    """The queue over one database."""

    def __init__(self, store: Store, *, max_backoff: float | None = None):
        self.store = store
        # the longest a failed job waits for its next attempt (`ZEENOT_JOB_MAX_BACKOFF`): an
        # operator whose peer is back within seconds, or a test that kills one, need not wait
        # out the doubling to five minutes
        self.max_backoff = max_backoff or float(
            os.environ.get("ZEENOT_JOB_MAX_BACKOFF", MAX_BACKOFF)
        )

    def enqueue(self, kind: str, key: str, payload: dict[str, Any], **options: Any) -> bool:
        """Add a job; False if a job with this key exists already (whatever its state)."""
        try:
            self.store._insert(jobs_table, **job_row(kind, key, payload, **options))
        except Conflict:
            return False
        return True

    def get(self, key: str) -> dict[str, Any] | None:
        t = jobs_table
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(t).where(t.c.key == key)).mappings().first()
        return dict(row) if row else None

    def claim(self, owner: str, kinds: list[str], lease: float = LEASE) -> Job | None:
        """Take one due job of `kinds`: queued and due, or running with an expired lease (its
        process died). The UPDATE is conditional on the state read, so of processes racing for
        one job exactly one changes its row."""
        t = jobs_table
        at = now()
        due = sa.or_(
            sa.and_(t.c.state == "queued", t.c.run_after <= at),
            sa.and_(t.c.state == "running", t.c.lease_until < at),
        )
        with self.store.engine.connect() as conn:
            candidates = conn.execute(
                sa.select(t.c.id).where(due, t.c.kind.in_(kinds)).order_by(t.c.id).limit(8)
            ).all()
        for (job_id,) in candidates:
            with self.store.engine.begin() as conn:
                claimed = conn.execute(
                    t.update()
                    .where(t.c.id == job_id, due)
                    .values(
                        state="running",
                        lease_owner=owner,
                        lease_until=at + dt.timedelta(seconds=lease),
                        attempts=t.c.attempts + 1,
                    )
                ).rowcount
                if claimed != 1:
                    continue  # another process took it first
                row = conn.execute(
                    sa.select(t.c.key, t.c.kind, t.c.payload, t.c.attempts, t.c.max_attempts).where(
                        t.c.id == job_id
                    )
                ).one()
            job = Job(job_id, row[0], row[1], json.loads(row[2]), row[3], row[4])
            if job.attempts > job.max_attempts:  # killed mid-run too often: give up
                self._finish(job, owner, "failed", error="its process stopped on every attempt")
                continue
            return job
        return None

    def renew(self, job: Job, owner: str, lease: float = LEASE) -> bool:
        t = jobs_table
        with self.store.engine.begin() as conn:
            return (
                conn.execute(
                    t.update()
                    .where(t.c.id == job.id, t.c.lease_owner == owner, t.c.state == "running")
                    .values(lease_until=now() + dt.timedelta(seconds=lease))
                ).rowcount
                == 1
            )

    def complete(self, job: Job, owner: str, result: Any = None) -> bool:
        """Mark the job done; False if this process lost its lease meanwhile (another one
        runs the job again: handlers are idempotent)."""
        return self._finish(job, owner, "done", result=result)

    def fail(self, job: Job, owner: str, error: str) -> bool:
        """A failed attempt: queued again after a backoff, or failed for good."""
        if job.attempts >= job.max_attempts:
            return self._finish(job, owner, "failed", error=error)
        delay = min(self.max_backoff, BACKOFF * 2 ** (job.attempts - 1))
        t = jobs_table
        with self.store.engine.begin() as conn:
            return (
                conn.execute(
                    t.update()
                    .where(t.c.id == job.id, t.c.lease_owner == owner, t.c.state == "running")
                    .values(
                        state="queued",
                        lease_owner=None,
                        lease_until=None,
                        last_error=error[:500],
                        run_after=now() + dt.timedelta(seconds=delay),
                    )
                ).rowcount
                == 1
            )

    def _finish(
        self, job: Job, owner: str, state: str, *, result: Any = None, error: str | None = None
    ) -> bool:
        t = jobs_table
        values: dict[str, Any] = {
            "state": state,
            "lease_owner": None,
            "lease_until": None,
            "finished_at": now(),
            "result": None if result is None else json.dumps(result)[:MAX_PAYLOAD],
        }
        if error is not None:
            values["last_error"] = error[:500]
        with self.store.engine.begin() as conn:
            return (
                conn.execute(
                    t.update()
                    .where(t.c.id == job.id, t.c.lease_owner == owner, t.c.state == "running")
                    .values(**values)
                ).rowcount
                == 1
            )

    def purge_finished(self, before: dt.datetime) -> int:
        t = jobs_table
        with self.store.engine.begin() as conn:
            done = conn.execute(
                t.delete().where(t.c.state.in_(["done", "failed"]), t.c.finished_at < before)
            )
        return int(done.rowcount or 0)

    def counts(self) -> dict[str, int]:
        t = jobs_table
        with self.store.engine.connect() as conn:
            rows = conn.execute(sa.select(t.c.state, sa.func.count()).group_by(t.c.state)).all()
        return {r[0]: int(r[1]) for r in rows}


@dataclass(frozen=True)
class Periodic:
    """A job enqueued once per `every` seconds (the key names the interval, so however many
    processes enqueue it, one job exists per interval)."""

    kind: str
    every: float

    def key(self, at: float) -> str:
        return f"{self.kind}:{int(at // self.every)}"


class JobRunner:
    """A thread that runs due jobs of the kinds it has handlers for, in this process."""

    def __init__(
        self,
        store: Store,
        handlers: dict[str, Handler],
        *,
        periodic: list[Periodic] | None = None,
        lease: float | None = None,
        poll: float = 1.0,
    ):
        self.jobs = Jobs(store)
        self.handlers = handlers
        self.periodic = periodic or []
        self.lease = lease or float(os.environ.get("ZEENOT_JOB_LEASE", LEASE))
        self.poll = poll
        self.owner = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._enqueued: set[str] = set()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name="zeenot-jobs", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                ran = self.run_once()
            except Exception:  # the database away for a moment: try again
                log.exception("job runner")
                ran = False
            if not ran:
                self._stop.wait(self.poll)

    def run_once(self) -> bool:
        """Enqueue the periodic jobs that are due, then run one job; whether one ran."""
        at = time.time()
        for p in self.periodic:
            key = p.key(at)
            if key not in self._enqueued:  # once per interval and process, not every poll
                self.jobs.enqueue(p.kind, key, {})
                self._enqueued = {k for k in self._enqueued if k.split(":")[0] != p.kind} | {key}
        job = self.jobs.claim(self.owner, sorted(self.handlers), self.lease)
        if job is None:
            return False
        self.run(job)
        return True

    def run(self, job: Job) -> None:
        done = threading.Event()

        def heartbeat() -> None:
            while not done.wait(self.lease / 3):
                if not self.jobs.renew(job, self.owner, self.lease):
                    log.warning("job %s: lease lost", job.key)
                    return

        beat = threading.Thread(target=heartbeat, name="zeenot-job-lease", daemon=True)
        beat.start()
        try:
            result = self.handlers[job.kind](job.payload)
        except Exception as exc:
            done.set()
            self.jobs.fail(job, self.owner, f"{type(exc).__name__}: {exc}")
            log.warning("job %s attempt %d failed: %s", job.key, job.attempts, type(exc).__name__)
        else:
            done.set()
            self.jobs.complete(job, self.owner, result)
        beat.join()


# ---- the built-in jobs ----------------------------------------------------------------------

RETENTION = Periodic("retention", 3600.0)


PERIOD_DAYS = {"day": 1, "week": 7, "month": 31, "year": 366}  # the longest of each


def retention(store: Store, retain_days: int | None = None, apps: tuple[str, ...] = ()) -> Handler:
    """The hourly clean-up; with `retain_days`, runs of `apps` and refusals older than that
    are deleted too, and finished jobs (a forwarded run's payload holds its result) after at
    most as long."""

    def handler(_: dict[str, Any]) -> dict[str, int]:
        at = now()
        keep = KEEP_FINISHED
        done = {"nonces": store.purge_nonces(at)}
        if retain_days is not None:
            cutoff = at - dt.timedelta(days=retain_days)
            keep = min(keep, dt.timedelta(days=retain_days))
            done["runs"] = sum(store.purge_runs(app, cutoff) for app in apps)
            done["rejections"] = store.purge_rejections(cutoff)
        done["jobs"] = Jobs(store).purge_finished(at - keep)
        return done

    return handler


def check_retention(retain_days: int | None, rules: dict[str, Any]) -> None:
    """`MalformedInput` unless `retain_days` keeps every run of the current period of each
    application with `Clients(one_run_per=…)` (`rules`: name → Clients or None): deleting one
    would let its client run again in the same period."""
    if retain_days is None:
        return
    if isinstance(retain_days, bool) or not isinstance(retain_days, int) or retain_days < 1:
        raise MalformedInput(f"--retain-days is a whole number of days from 1, not {retain_days}")
    for name, rule in sorted(rules.items()):
        period = getattr(rule, "one_run_per", None)
        if period is not None and retain_days < PERIOD_DAYS[period]:
            raise MalformedInput(
                f"--retain-days {retain_days} would delete runs of the current {period} of "
                f"`{name}` (one run per client per {period}): keep at least "
                f"{PERIOD_DAYS[period]} days"
            )


def forward(key: Any, url: str, audience: str, timeout: float = 30.0) -> Handler:
    """Deliver an accepted submission to `url`, signed by the server's `key` for `audience`;
    a 2xx answer completes the job, anything else is retried. The receiver tells repeated
    deliveries apart by `app` and `id`."""
    import httpx

    from zeenot.runtime.identity import SignedAuth

    auth = SignedAuth(key, audience)

    def handler(payload: dict[str, Any]) -> dict[str, int]:
        body = json.dumps(payload, separators=(",", ":")).encode()
        with httpx.Client(timeout=timeout, auth=auth) as http:
            answer = http.post(url, content=body, headers={"content-type": "application/json"})
        if not 200 <= answer.status_code < 300:
            raise RuntimeError(f"{url} answered {answer.status_code}")
        return {"status": answer.status_code}

    return handler
