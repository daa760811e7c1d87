"""The leader's ingest writer (zeenot.prio.dap_ingest) is supervised: an upload is always
answered. A waiter that went away does not stop the writer; a writer thread that dies fails the
uploads it held (nothing acknowledged) and another takes over the queue; one that keeps dying
breaks the ingest, and then the leader answers uploads and its health check with 503 instead of
leaving them hanging."""

from __future__ import annotations

import secrets
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from zeenot.prio import Vdaf, dap_ingest
from zeenot.prio import dap_codec as codec
from zeenot.prio.dap_ingest import Ingest, IngestFailed
from zeenot.prio.dap_server import build
from zeenot.prio.dap_store import DapStore, Upload
from zeenot.prio.tasks import new_task, unb64url
from zeenot.runtime.store import Store

TASK = "t" * 43
HOUR = 1_700_000_000 // 3600 * 3600
SUM32 = {"type": "Prio3Sum", "bits": 32}


class Dying(BaseException):
    """What no `except Exception` catches: a writer thread ends with it."""


def _upload(n: int) -> Upload:
    return Upload(TASK, f"{n:022d}", HOUR, f"{n:064d}", b"p", b"l", b"h")


def test_a_cancelled_upload_does_not_stop_the_writer(tmp_path: Path) -> None:
    """A client that disconnects while its upload is being committed cancels the upload's
    future; the writer skips it and answers the uploads after it (it used to die resolving
    the cancelled future, and every later upload hung)."""
    dstore = DapStore(Store(str(tmp_path / "leader.db")))
    entered, release = threading.Event(), threading.Event()
    real = dstore.put_reports

    def held(uploads: list[Upload]) -> list[str]:
        entered.set()
        assert release.wait(30)
        return real(uploads)

    dstore.put_reports = held  # type: ignore[method-assign]
    ingest = Ingest(dstore)
    first = ingest.submit(_upload(1))
    assert entered.wait(30)
    assert first.cancel()  # the handler's waiter is gone
    release.set()
    assert ingest.submit(_upload(2)).result(timeout=30) == "stored"
    ingest.close()
    assert ingest.restarts == 0
    # the cancelled upload was stored all the same: a retry is answered as a repeat
    assert dstore.put_reports([_upload(1)]) == ["repeated"]


def test_a_dying_writer_fails_its_uploads_and_another_takes_over(tmp_path: Path) -> None:
    dstore = DapStore(Store(str(tmp_path / "leader.db")))
    real = dstore.put_reports
    calls: list[int] = []

    def dies_once(uploads: list[Upload]) -> list[str]:
        calls.append(len(uploads))
        if len(calls) == 1:
            raise Dying()
        return real(uploads)

    dstore.put_reports = dies_once  # type: ignore[method-assign]
    ingest = Ingest(dstore)
    with pytest.raises(IngestFailed, match="died"):
        ingest.submit(_upload(1)).result(timeout=30)
    assert ingest.submit(_upload(2)).result(timeout=30) == "stored"
    assert ingest.restarts == 1 and ingest.broken is None
    # a round that fails with an ordinary exception fails its uploads; the writer goes on
    dstore.put_reports = lambda uploads: ["stored"]  # type: ignore[method-assign,assignment]
    with pytest.raises(IngestFailed, match="storing the uploads"):
        ingest.submit_many([_upload(3), _upload(4)]).result(timeout=30)  # one answer for two
    dstore.put_reports = real  # type: ignore[method-assign]
    assert ingest.submit(_upload(5)).result(timeout=30) == "stored"
    ingest.close()
    assert ingest.restarts == 1
    assert dstore.report_states(TASK) == {"pending": 2}  # 2 and 5: nothing else was stored


def _report(task: Any, leader_config: bytes) -> bytes:
    helper_config, _ = codec.generate_hpke(7)
    vdaf = Vdaf.from_description(SUM32)
    rid = secrets.token_bytes(16)
    public, shares = vdaf.shard(1234, rid)
    pair = (bytes(shares[0]), bytes(shares[1]))
    at = int(time.time()) // 3600 * 3600
    tid = unb64url(task.task_id, "task_id", 32)
    return codec.encode_report(tid, rid, at, bytes(public), pair, (leader_config, helper_config))


def test_a_broken_ingest_answers_503_and_fails_the_health_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over HTTP (a leader serving without its driver): while the writer dies, each upload is
    answered 503 at once (not left hanging); past `MAX_RESTARTS` the health check is 503 too."""
    task, _ = new_task("http://127.0.0.1:1/", "http://127.0.0.1:2/", SUM32, 3600, 1)
    store = Store(str(tmp_path / "leader.db"))
    app = build("leader", {task.task_id: task}, store, run_jobs=False)
    leader_config = DapStore(store).hpke_keys()[0][1]

    def dies(self: DapStore, uploads: list[Upload]) -> list[str]:
        raise Dying()

    url = f"/tasks/{task.task_id}/reports"
    headers = {"content-type": "application/dap-report"}
    with TestClient(app) as client:
        assert (
            client.put(url, content=_report(task, leader_config), headers=headers).status_code
            == 201
        )
        assert client.get("/health").json()["ingest_restarts"] == 0
        monkeypatch.setattr(DapStore, "put_reports", dies)
        for _ in range(dap_ingest.MAX_RESTARTS + 1):
            answer = client.put(url, content=_report(task, leader_config), headers=headers)
            assert answer.status_code == 503
        health = client.get("/health")
        assert health.status_code == 503 and health.json()["status"] == "failing"
        # new uploads are refused at once, without a writer
        answer = client.put(url, content=_report(task, leader_config), headers=headers)
        assert answer.status_code == 503 and "died" in answer.json()["detail"]
    assert DapStore(store).report_states(task.task_id) == {"pending": 1}
