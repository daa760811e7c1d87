"""Jobs in the data layer (`zeenot.runtime.jobs`): enqueued once per key, claimed by one process
at a time with a lease, retried with a backoff, and resumed by the next process when the one
running a job is killed (-9): a real `zeenot serve` whose delivery job (`--forward`) is cut off
mid-request completes it after a restart. On SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import json
import os
import signal
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from zeenot.application import load_application
from zeenot.runtime.client import Runner
from zeenot.runtime.identity import Key, verify_request
from zeenot.runtime.jobs import JobRunner, Jobs, Periodic, retention
from zeenot.runtime.store import Store, now

from .runtime_server import ROOT, bearer, operator_token, serve

PAYD = ROOT / "examples" / "payd" / "app.py"
LOG = json.loads((ROOT / "examples" / "payd" / "log.json").read_text())


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path: Path) -> Store:
    if request.param == "sqlite":
        return Store(str(tmp_path / "jobs.db"))
    return Store(request.getfixturevalue("postgres_url"))


def test_enqueue_is_idempotent_and_one_owner_claims(store: Store) -> None:
    jobs = Jobs(store)
    kind = f"k{time.monotonic_ns()}"
    assert jobs.enqueue(kind, f"{kind}:1", {"n": 1}) is True
    assert jobs.enqueue(kind, f"{kind}:1", {"n": 2}) is False  # the same key: one job
    job = jobs.claim("a", [kind])
    assert job is not None and job.payload == {"n": 1} and job.attempts == 1
    assert jobs.claim("b", [kind]) is None  # leased to `a`
    assert jobs.complete(job, "b") is False  # not b's
    assert jobs.complete(job, "a", {"ok": True}) is True
    assert jobs.get(f"{kind}:1")["state"] == "done"


def test_a_failed_job_is_retried_then_given_up(store: Store) -> None:
    jobs = Jobs(store)
    kind = f"f{time.monotonic_ns()}"
    jobs.enqueue(kind, f"{kind}:1", {}, max_attempts=2)
    job = jobs.claim("a", [kind])
    assert job is not None and jobs.fail(job, "a", "boom")
    row = jobs.get(f"{kind}:1")
    assert row["state"] == "queued" and row["last_error"] == "boom"
    assert jobs.claim("a", [kind]) is None  # backing off
    _due_now(store, f"{kind}:1")
    job = jobs.claim("b", [kind])
    assert job is not None and job.attempts == 2
    jobs.fail(job, "b", "boom again")
    assert jobs.get(f"{kind}:1")["state"] == "failed"


def test_the_backoff_is_capped_by_the_operator(store: Store, monkeypatch) -> None:
    """`ZEENOT_JOB_MAX_BACKOFF` caps the doubling: the fourth failure waits 1 s, not 16."""
    monkeypatch.setenv("ZEENOT_JOB_MAX_BACKOFF", "1")
    jobs = Jobs(store)
    kind = f"b{time.monotonic_ns()}"
    jobs.enqueue(kind, f"{kind}:1", {})
    for attempt in range(1, 5):
        job = jobs.claim("a", [kind])
        assert job is not None and job.attempts == attempt
        before = now()
        jobs.fail(job, "a", "down")
        wait = jobs.get(f"{kind}:1")["run_after"].replace(tzinfo=None) - before.replace(tzinfo=None)
        assert wait <= dt.timedelta(seconds=1.5)
        _due_now(store, f"{kind}:1")
    assert Jobs(store, max_backoff=300.0).max_backoff == 300.0


def test_an_expired_lease_is_claimed_again(store: Store) -> None:
    jobs = Jobs(store)
    kind = f"l{time.monotonic_ns()}"
    jobs.enqueue(kind, f"{kind}:1", {})
    # a lease long enough to outlast the next claim on a loaded machine (parallel workers)
    dead = jobs.claim("dead-process", [kind], lease=2.0)
    assert dead is not None
    assert jobs.claim("next", [kind]) is None
    time.sleep(2.5)
    again = jobs.claim("next", [kind])
    assert again is not None and again.attempts == 2
    assert jobs.complete(dead, "dead-process") is False  # too late: its lease went
    assert jobs.complete(again, "next") is True


def test_runners_racing_over_one_database_run_each_job_once(store: Store) -> None:
    kind = f"r{time.monotonic_ns()}"
    jobs = Jobs(store)
    for i in range(30):
        jobs.enqueue(kind, f"{kind}:{i}", {"i": i})
    ran: list[int] = []
    lock = threading.Lock()

    def handler(payload: dict[str, Any]) -> None:
        with lock:
            ran.append(payload["i"])

    runners = [JobRunner(store, {kind: handler}, poll=0.05) for _ in range(3)]
    for r in runners:
        r.start()
    deadline = time.monotonic() + 60
    while len(ran) < 30 and time.monotonic() < deadline:
        time.sleep(0.1)
    for r in runners:
        r.stop()
    assert sorted(ran) == list(range(30))


def test_retention_forgets_expired_nonces_and_old_jobs(store: Store) -> None:
    old = now() - dt.timedelta(seconds=10)
    assert store.use_nonce("test", f"n{time.monotonic_ns()}", old)
    summary = retention(store)({})
    assert summary["nonces"] >= 1
    periodic = Periodic("retention", 3600)
    assert periodic.key(7200.5) == "retention:2"


def _due_now(store: Store, key: str) -> None:
    from zeenot.runtime.store import jobs_table

    with store.engine.begin() as conn:
        conn.execute(jobs_table.update().where(jobs_table.c.key == key).values(run_after=now()))


# ---- kill -9 of a real server ---------------------------------------------------------------


class _Sink:
    """The operator's billing system: verifies the server's signature and records deliveries;
    `hang` keeps requests open (a delivery in flight when the server is killed)."""

    def __init__(self, server_key: Key):
        self.hang = threading.Event()
        self.received: list[dict[str, Any]] = []
        self.started = threading.Event()
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers["content-length"]))
                sink.started.set()
                if sink.hang.is_set():
                    time.sleep(20)  # the server is killed meanwhile
                    return
                signer = verify_request(
                    "POST",
                    self.path,
                    body,
                    {k.lower(): v for k, v in self.headers.items()},
                    audience="billing",
                    lookup=lambda n: server_key.private.public_key() if n == "insurer" else None,
                    use_nonce=lambda *_: True,
                    scope="server",
                )
                sink.received.append({"signer": signer, **json.loads(body)})
                self.send_response(200)
                self.end_headers()

            def log_message(self, *_: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/inbox"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()


def _wait(predicate, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.1)


def test_a_job_survives_kill_9_and_completes_after_restart(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("ZEENOT_JOB_LEASE", "2")
    key = Key.generate("insurer")
    key.save(tmp_path / "insurer.key")
    car = Key.generate("car-1")
    token_file, token = operator_token(tmp_path)
    sink = _Sink(key)
    sink.hang.set()
    db = str(tmp_path / "zeenot.db")
    args = ["--identity", str(tmp_path / "insurer.key"), "--operator-token-file", str(token_file)]
    args += ["--forward", sink.url, "--forward-to", "billing"]
    jobs = Jobs(Store(db))
    with serve([PAYD], db, *args) as (url, proc):
        import httpx

        public = {"name": "car-1", "public_key": car.public_key}
        r = httpx.post(f"{url}/api/apps/payd/clients", json=public, headers=bearer(token))
        assert r.status_code == 201
        runner = Runner(load_application(PAYD), url, key=car)
        assert runner.run(LOG, submission_id="w-1")["status"] == "accepted"
        runner.close()
        assert sink.started.wait(30)  # the delivery is in flight, its job leased
        row = jobs.get("forward:payd:w-1")
        assert row["state"] == "running" and row["attempts"] == 1
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    row = jobs.get("forward:payd:w-1")
    assert row["state"] == "running" and sink.received == []  # the dead process's lease
    sink.hang.clear()
    with serve([PAYD], db, *args):
        _wait(lambda: jobs.get("forward:payd:w-1")["state"] == "done")
    row = jobs.get("forward:payd:w-1")
    assert row["attempts"] == 2
    assert len(sink.received) == 1
    delivered = sink.received[0]
    assert delivered["signer"] == "insurer" and delivered["app"] == "payd"
    assert delivered["id"] == "w-1" and delivered["result"]["premium_cents"] == 2603
    sink.http.shutdown()
