"""The leader's aggregation jobs record their outcomes in small transactions
(`dap_store.FINISH_CHUNK`), so that uploads wait for the write lock behind part of a job, not
the whole of it. A job that dies between two of them runs again over all its reports: the
helper gets the very same request (and answers its stored response), and only the reports
still pending are recorded. And SQLite's writers take turns through the kernel's queue
(`zeenot.runtime.writers.WriterQueue`), across threads and processes."""

from __future__ import annotations

import contextlib
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy.engine import Connection

from zeenot.prio import Vdaf, dap_store
from zeenot.prio import dap_codec as codec
from zeenot.prio.dap_helper import Helper
from zeenot.prio.dap_leader import Leader
from zeenot.prio.dap_store import DapStore
from zeenot.prio.tasks import new_task, unb64url
from zeenot.runtime.store import Store

SUM32 = {"type": "Prio3Sum", "bits": 32}


def test_a_job_killed_between_its_transactions_runs_again_with_the_same_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    task, _ = new_task("http://leader.test/", "http://helper.test/", SUM32, 3600, 1)
    tasks = {task.task_id: task}
    lstore, hstore = (
        DapStore(Store(str(tmp_path / "l.db"))),
        DapStore(Store(str(tmp_path / "h.db"))),
    )
    for s in (lstore, hstore):
        s.ensure_hpke_key(codec.generate_hpke)
    helper = Helper(tasks, hstore)
    requests: list[bytes] = []

    def answer(request: httpx.Request) -> httpx.Response:
        requests.append(request.content)
        job_id = request.url.path.rsplit("/", 1)[1]
        body = helper.initialize(task, job_id, request.content)
        ctype = "application/dap-aggregation-job-resp"
        return httpx.Response(201, content=body, headers={"content-type": ctype})

    leader = Leader(tasks, lstore, job_size=7)
    leader.http = httpx.Client(transport=httpx.MockTransport(answer))
    vdaf = Vdaf.from_description(SUM32)
    configs = (lstore.hpke_keys()[0][1], hstore.hpke_keys()[0][1])
    at = int(time.time()) // 3600 * 3600
    values = [3, 5, 7, 11, 13, 17, 19]
    uploads = []
    for i, v in enumerate(values):
        rid = secrets.token_bytes(16)
        public, shares = vdaf.shard(v, rid)
        leader_share = bytes(shares[0])
        if i == 0:  # a proof that fails: rejected, recorded like the others
            leader_share = bytes([leader_share[0] ^ 1]) + leader_share[1:]
        pair = (leader_share, bytes(shares[1]))
        tid = unb64url(task.task_id, "task_id", 32)
        uploads.append(
            leader.check_report(
                task, codec.encode_report(tid, rid, at, bytes(public), pair, configs)
            )
        )
    assert lstore.put_reports(uploads) == ["stored"] * 7
    job_id = "j" * 22
    assert lstore.assign_pending(task.task_id, job_id, 7) == 7

    # three reports to a transaction; the second transaction dies (the leader killed there)
    monkeypatch.setattr(dap_store, "FINISH_CHUNK", 3)
    real_begin = lstore.begin
    calls = []

    @contextlib.contextmanager
    def dies_second() -> Iterator[Connection]:
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("killed")
        with real_begin() as conn:
            yield conn

    monkeypatch.setattr(lstore, "begin", dies_second)  # the leader's store only
    payload = {"task_id": task.task_id, "job_id": job_id}
    with pytest.raises(RuntimeError, match="killed"):
        leader.aggregate(payload)
    states = lstore.report_states(task.task_id)
    assert states.get("pending") == 4 and sum(states.values()) == 7
    monkeypatch.setattr(lstore, "begin", real_begin)

    # run again: the same request (the helper would refuse another with 409), the rest recorded
    assert leader.aggregate(payload) == {"reports": 7}
    assert len(requests) == 2 and requests[0] == requests[1]
    assert lstore.report_states(task.task_id) == {"aggregated": 6, "rejected": 1}
    assert leader.aggregate(payload) == {"reports": 0}  # done: nothing sent again
    assert len(requests) == 2
    lb, hb = lstore.batch(task.task_id, at, 3600), hstore.batch(task.task_id, at, 3600)
    assert len(lb.report_ids) == 6 and lb.report_ids == hb.report_ids
    shares = [vdaf.aggregate(lb.out_shares), vdaf.aggregate(hb.out_shares)]
    assert vdaf.unshard(shares, 6) == sum(values[1:])
    leader.close()


TURNS = """
import os, sys, time
from zeenot.prio.dap_store import DapStore
from zeenot.runtime.store import Store
dstore = DapStore(Store(sys.argv[1]))
for _ in range(30):
    with dstore.writers.turn():
        with open(sys.argv[2], "a") as log:
            log.write(f"in {os.getpid()}\\n")
        time.sleep(0.002)
        with open(sys.argv[2], "a") as log:
            log.write(f"out {os.getpid()}\\n")
"""


def test_writers_take_turns_across_processes(tmp_path: Path) -> None:
    """No two turns at a SQLite file's writer queue overlap, whichever process holds them:
    three processes log entering and leaving their turns, and the log never nests."""
    db, log = str(tmp_path / "l.db"), tmp_path / "turns.log"
    Store(db)  # migrated once, before the writers start
    procs = [
        subprocess.Popen([sys.executable, "-c", TURNS, db, str(log)], env=os.environ.copy())
        for _ in range(3)
    ]
    assert [p.wait(120) for p in procs] == [0, 0, 0]
    lines = log.read_text().split()
    events = list(zip(lines[0::2], lines[1::2], strict=True))
    assert len(events) == 180
    for enter, leave in zip(events[0::2], events[1::2], strict=True):
        assert enter[0] == "in" and leave == ("out", enter[1])


def test_writers_checkpoint_outside_their_turns(tmp_path: Path) -> None:
    """A commit does not checkpoint the WAL (it would hold every writer's turn meanwhile); the
    writing process checkpoints apart, and a passive checkpoint takes every frame written."""
    from zeenot.prio.dap_store import Upload

    dstore = DapStore(Store(str(tmp_path / "l.db")))
    rows = [Upload("t" * 43, f"{n:022d}", 0, "d", b"p" * 500, b"l", b"h") for n in range(200)]
    assert dstore.put_reports(rows) == ["stored"] * 200
    with dstore.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
    busy, frames, done = dstore.writers.checkpoint()
    assert busy == 0 and frames > 0 and done == frames


def test_checkpoints_wait_for_idle_writers_and_one_process_checkpoints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkpoint starts only once no writer holds or waits for a turn (here: held by
    another thread until released; the bound `CHECKPOINT_WAIT` is raised out of reach), and a
    process that finds another checkpointing the file skips its tick."""
    import fcntl
    import threading

    from zeenot.prio.dap_store import Upload
    from zeenot.runtime import writers

    monkeypatch.setattr(writers, "CHECKPOINT_WAIT", 600.0)
    db = tmp_path / "l.db"
    dstore = DapStore(Store(str(db)))
    rows = [Upload("t" * 43, f"{n:022d}", 0, "d", b"p" * 500, b"l", b"h") for n in range(50)]
    assert dstore.put_reports(rows) == ["stored"] * 50
    held, release = threading.Event(), threading.Event()

    def writer() -> None:
        with dstore.writers.turn():
            held.set()
            release.wait(60)

    got: list[object] = []
    holding = threading.Thread(target=writer)
    holding.start()
    assert held.wait(60)
    checkpointing = threading.Thread(
        target=lambda: got.append(dstore.writers.checkpoint_when_idle())
    )
    checkpointing.start()
    checkpointing.join(0.3)
    assert checkpointing.is_alive() and not got  # waiting for the writer
    release.set()
    holding.join(60)
    checkpointing.join(60)
    busy, frames, done = got[0]  # type: ignore[misc]
    assert busy == 0 and frames > 0 and done == frames
    # another process's checkpoint under way (its lock taken; flock excludes another open file
    # description as it excludes another process): this one skips its tick
    fd = os.open(str(db) + ".checkpoint.lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        assert dstore.writers.checkpoint_when_idle() is None
    finally:
        os.close(fd)
    assert dstore.writers.checkpoint_when_idle() is not None
