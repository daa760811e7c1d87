"""The DAP leader's store under concurrency: uploads stored in batches (group commit) answer as
one-by-one uploads would, and on PostgreSQL (READ COMMITTED) the two races the batch lock closes:
a report acknowledged while its batch is being claimed is counted, and of two overlapping
collections created at once only one is."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from tests.python.postgres import fresh_database

from zeenot.prio import dap_store
from zeenot.prio.dap_ingest import Ingest
from zeenot.prio.dap_store import DapStore, Upload
from zeenot.runtime.store import Store

TASK = "t" * 43
HOUR = 1_700_000_000 // 3600 * 3600


@pytest.fixture(params=["sqlite", "postgresql"])
def dstore(request: pytest.FixtureRequest, tmp_path: Path) -> DapStore:
    if request.param == "sqlite":
        return DapStore(Store(str(tmp_path / "leader.db")))
    return DapStore(Store(fresh_database(request.getfixturevalue("postgres_url"))))


@pytest.fixture
def pg_dstore(postgres_url: str) -> DapStore:
    return DapStore(Store(fresh_database(postgres_url)))


def _upload(n: int, at: int = HOUR, digest: str | None = None) -> Upload:
    rid = f"{n:022d}"
    return Upload(TASK, rid, at, digest or f"{n:064d}", b"p", b"l", b"h")


def test_a_batch_of_uploads_answers_as_uploads_one_by_one(dstore: DapStore) -> None:
    assert dstore.put_report(*_upload(1).args()) == "stored"
    assert dstore.create_collection_job(TASK, "c" * 22, "d", HOUR + 3600, 3600) == "created"
    answers = dstore.put_reports(
        [
            _upload(1),  # stored before, the same bytes
            _upload(1, digest="e" * 64),  # stored before, another report
            _upload(2),
            _upload(2),  # twice in the batch
            _upload(3),
            _upload(3, digest="e" * 64),
            _upload(4, at=HOUR + 3600),  # in the claimed batch
        ]
    )
    assert answers == [
        "repeated",
        "replayed",
        "stored",
        "repeated",
        "stored",
        "replayed",
        "collected",
    ]
    assert dstore.report_states(TASK) == {"pending": 3}


def test_group_commit_answers_each_upload_after_its_commit(dstore: DapStore) -> None:
    ingest = Ingest(dstore, max_batch=8)
    futures = [ingest.submit(_upload(n)) for n in range(40)]
    futures.append(ingest.submit(_upload(0, digest="e" * 64)))
    answers = [f.result(timeout=60) for f in futures]
    ingest.close()
    assert answers == ["stored"] * 40 + ["replayed"]
    assert dstore.report_states(TASK) == {"pending": 40}
    with pytest.raises(RuntimeError, match="shutting down"):
        ingest.submit(_upload(99))


def _slow_now_in(thread_name: str, monkeypatch: pytest.MonkeyPatch, delay: float) -> None:
    """`dap_store.now` (called between a transaction's check and its insert) sleeps in one
    thread: the window in which the other transaction runs."""
    real = dap_store.now

    def slow():  # type: ignore[no-untyped-def]
        if threading.current_thread().name == thread_name:
            time.sleep(delay)
        return real()

    monkeypatch.setattr(dap_store, "now", slow)


def test_a_report_stored_while_its_batch_is_claimed_is_counted(
    pg_dstore: DapStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    _slow_now_in("uploader", monkeypatch, 1.0)
    answer: list[str] = []
    uploader = threading.Thread(
        target=lambda: answer.extend(pg_dstore.put_reports([_upload(7)])), name="uploader"
    )
    uploader.start()
    time.sleep(0.3)  # the upload has checked the batches and waits before its insert
    assert pg_dstore.create_collection_job(TASK, "c" * 22, "d", HOUR, 3600) == "created"
    batch = pg_dstore.batch(TASK, HOUR, 3600)  # what the driver reads to finish the job
    uploader.join(30)
    assert answer in (["stored"], ["collected"])
    if answer == ["stored"]:  # acknowledged, so it must be in the claimed batch's count
        assert batch.pending + len(batch.report_ids) == 1


def test_two_overlapping_collections_created_at_once_make_one(
    pg_dstore: DapStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    _slow_now_in("first", monkeypatch, 1.0)
    states: dict[str, str] = {}

    def create(name: str, job: str, start: int, duration: int) -> None:
        states[name] = pg_dstore.create_collection_job(TASK, job, name, start, duration)

    first = threading.Thread(target=create, args=("first", "a" * 22, HOUR, 7200), name="first")
    first.start()
    time.sleep(0.3)  # the first has checked for overlaps and waits before its insert
    create("second", "b" * 22, HOUR + 3600, 3600)
    first.join(30)
    assert sorted(states.values()) == ["created", "overlap"]
    assert len(pg_dstore.collected_intervals(TASK)) == 1


def test_the_helper_refuses_a_job_whose_batch_was_claimed_meanwhile(
    pg_dstore: DapStore,
) -> None:
    from zeenot.prio.dap_store import Outcome
    from zeenot.runtime.store import Conflict

    assert pg_dstore.put_helper_batch(TASK, HOUR, 3600, "d", b"share")
    with pytest.raises(Conflict):
        pg_dstore.put_helper_job(
            TASK, "j" * 22, "d", b"resp", {"r" * 22: HOUR}, [Outcome("r" * 22, "aggregated", b"o")]
        )
    assert pg_dstore.helper_job(TASK, "j" * 22) is None


def test_postgres_statistics_follow_the_growing_reports_table(pg_dstore: DapStore) -> None:
    """Once the uploads have added `ANALYZE_AFTER` reports, a thread of the store analyzes the
    table (PostgreSQL's planner then knows its size; without statistics it looked an upload's
    report ids up by filtering the task's every report: docs/prio.md), and the next analysis
    waits for 10 % more rows."""
    import os

    def big(k: int) -> Upload:  # a Prio3Sum(32) report's size
        return Upload(TASK, f"{k:022d}", HOUR, f"{k:064d}", b"p" * 100, os.urandom(2700), b"h")

    def analyses() -> tuple[int, float]:
        with pg_dstore.engine.connect() as conn:
            count = conn.exec_driver_sql(
                "SELECT analyze_count FROM pg_stat_user_tables WHERE relname = 'prio_reports'"
            ).scalar()
            rows = conn.exec_driver_sql(
                "SELECT reltuples FROM pg_class WHERE relname = 'prio_reports'"
            ).scalar()
        return int(count or 0), float(rows or 0)

    assert pg_dstore.analyzer is not None
    assert pg_dstore.put_reports([big(k) for k in range(10)]) == ["stored"] * 10
    assert analyses()[0] == 0  # below the threshold: no analysis
    n = dap_store.ANALYZE_AFTER + 100
    for first in range(10, n, 500):
        batch = [big(k) for k in range(first, min(n, first + 500))]
        assert pg_dstore.put_reports(batch) == ["stored"] * len(batch)
    deadline = time.monotonic() + 120
    while analyses()[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.1)  # the analyzing thread's work, not a speed bar
    count, rows = analyses()
    assert count >= 1 and n / 2 <= rows <= 2 * n
