"""zeenot's batch upload (`POST /tasks/T/reports:batch`, zeenot.prio.dap_batch): the framing and
its bounds, each report judged as a single upload is (same refusals), outcomes per report,
nothing stored from a malformed batch, and, against kill -9, every acknowledged report counted
exactly once."""

from __future__ import annotations

import random
import struct
import time
from pathlib import Path

import httpx
import pytest

from zeenot.prio.dap_batch import (
    BATCH_MEDIA_TYPE,
    MAX_REPORT,
    MAX_REPORTS,
    BatchError,
    decode_batch,
    encode_batch,
)
from zeenot.prio.dap_store import DapStore
from zeenot.prio.tasks import Task, b64url
from zeenot.runtime.store import Store

from .prio_servers import aggregators, new_task, until_answered

SUM32 = {"type": "Prio3Sum", "bits": 32}
TP = 3600


def _hour() -> int:
    return int(time.time()) // TP * TP - TP


def _clients(path: Path, credential: dict):  # type: ignore[no-untyped-def]
    from zeenot.prio.dap_client import Client, Collector

    task = Task.load(path)
    client = Client(task.task_id, task.leader, task.helper, task.vdaf, task.time_precision)
    collector = Collector(task.task_id, task.leader, task.vdaf, credential)
    return task, client, collector


def _states(db: Path, task: Task) -> dict[str, int]:
    return DapStore(Store(str(db))).report_states(task.task_id)


# ---- the framing, without a server ------------------------------------------------------------


def test_batch_framing_round_trip_and_refusals() -> None:
    reports = [b"a", b"bc" * 100, bytes(range(256))]
    body = encode_batch(reports)
    assert decode_batch(body) == reports
    for bad, message in [
        (b"", "report count"),
        (struct.pack(">I", 0), "1 to"),
        (struct.pack(">I", MAX_REPORTS + 1) + b"\0" * 5 * (MAX_REPORTS + 1), "1 to"),
        (struct.pack(">I", 2**32 - 1), "1 to"),  # bounded before anything is allocated
        (struct.pack(">I", 3) + struct.pack(">I", 1) + b"x", "cannot hold 3"),
        (body[:-1], "ends inside report 2"),
        (body + b"\0", "1 bytes follow"),
        (struct.pack(">II", 1, 0) + b"x", "1 to"),  # an empty report
        (struct.pack(">II", 1, MAX_REPORT + 1) + b"x", "1 to"),
        (struct.pack(">IIBI", 2, 1, 7, 9) + b"x", "ends inside report 1"),
    ]:
        with pytest.raises(BatchError, match=message):
            decode_batch(bad)
    with pytest.raises(BatchError):
        encode_batch([])
    with pytest.raises(BatchError):
        encode_batch([b"x"] * (MAX_REPORTS + 1))


# ---- against the aggregators ------------------------------------------------------------------


def test_batch_outcomes_match_single_uploads_and_aggregate(tmp_path: Path) -> None:
    from zeenot.prio import dap_codec as codec
    from zeenot.prio.dap_client import DapRefused

    path, credential, lport, hport = new_task(tmp_path, SUM32, min_batch_size=5)
    with aggregators(tmp_path, path, lport, hport, job_size=16):
        task, client, collector = _clients(path, credential)
        rng = random.Random(3)
        at = _hour()
        values = [rng.randrange(2**32) for _ in range(30)]
        outcomes = client.upload_batch(values, at, size=12)  # three batches: 12, 12, 6
        assert [o.outcome for o in outcomes] == ["accepted"] * 30
        assert all(o.stored and o.status == 201 and o.report_id for o in outcomes)

        single = client.report(5, at)  # uploaded alone first: a batch repeats it
        assert client.put(single) == 201
        values.append(5)
        fresh = client.report(6, at)
        values.append(6)
        reused = client.report(7, at, report_id=single[:16])  # another report, a used id
        garbage = b"\x01" * 40
        r = codec.decode_report(client.report(8, at))
        other_config = bytearray(client.report(9, at))
        # the leader share's config id is the byte after id, time and the public share
        config_at = 16 + 8 + 4 + len(r.public_share)
        other_config[config_at] ^= 0x7F
        future = client.report(10, int(time.time()) + 10 * TP)
        batch = [single, fresh, reused, garbage, bytes(other_config), future, fresh]
        got = client.put_batch(batch)
        assert [o.outcome for o in got] == [
            "repeated",
            "accepted",
            "replayed",
            "rejected",
            "rejected",
            "rejected",
            "repeated",  # the same report twice in one batch is stored once
        ]
        assert [o.stored for o in got] == [True, True, False, False, False, False, True]
        assert [o.kind for o in got] == [
            None,
            None,
            "reportRejected",
            "invalidMessage",
            "outdatedConfig",
            "reportTooEarly",
            None,
        ]
        assert got[0].report_id == got[2].report_id == b64url(single[:16])
        # each refusal is the single upload's, status, type and detail
        for report, outcome in zip(batch[2:6], got[2:6], strict=True):
            with pytest.raises(DapRefused) as refused:
                client.put(report)
            assert (refused.value.status, refused.value.kind) == (outcome.status, outcome.kind)
            assert refused.value.detail == outcome.detail

        result = collector.collect(at, TP, timeout=120)
        assert result.result == sum(values) and result.report_count == len(values)
        assert _states(tmp_path / "leader.db", task) == {"aggregated": len(values)}
        # the batch is collected now: a batch into it is refused report by report
        late = client.put_batch([client.report(1, at)])
        assert (late[0].outcome, late[0].kind) == ("rejected", "reportRejected")
        assert "collected" in (late[0].detail or "")


def test_malformed_or_oversize_batches_are_refused_whole(tmp_path: Path) -> None:
    path, credential, lport, hport = new_task(tmp_path, SUM32)
    with aggregators(tmp_path, path, lport, hport, ZEENOT_PRIO_MAX_BATCH_BODY=str(64 << 10)) as (
        leader,
        _,
    ):
        task, client, _ = _clients(path, credential)
        url = f"{leader.url}tasks/{task.task_id}/reports:batch"
        ct = {"content-type": BATCH_MEDIA_TYPE}
        at = _hour()
        reports = [client.report(v, at) for v in range(3)]
        body = encode_batch(reports)
        for bad in (
            body + b"\0",  # trailing bytes after three good reports
            body[:-1],  # the last report cut short
            struct.pack(">I", MAX_REPORTS + 1) + body[4:],  # past the count's bound
            b"",
        ):
            answer = httpx.post(url, content=bad, headers=ct)
            assert answer.status_code == 400, answer.text
            assert answer.headers["content-type"] == "application/problem+json"
            assert answer.json()["type"].endswith("invalidMessage")
        assert _states(tmp_path / "leader.db", task) == {}  # none of the good three stored
        # the body's bound (64 KiB here): 413 before it is all read
        big = encode_batch([reports[0]] * 200)
        assert len(big) > 64 << 10
        assert httpx.post(url, content=big, headers=ct).status_code == 413
        # media type compared exactly, task known
        plain = {"content-type": BATCH_MEDIA_TYPE + "; charset=utf-8"}
        assert httpx.post(url, content=body, headers=plain).status_code == 415
        unknown = f"{leader.url}tasks/{b64url(bytes(32))}/reports:batch"
        assert (
            httpx.post(unknown, content=body, headers=ct)
            .json()["type"]
            .endswith("unrecognizedTask")
        )
        # DAP's single upload is unchanged beside it
        assert client.put(reports[0]) == 201
        assert _states(tmp_path / "leader.db", task) == {"pending": 1}


def _post_until_acknowledged(client, batch: list[bytes]) -> list:  # type: ignore[no-untyped-def]
    """Send a batch until it is answered (a network error or a 5xx: the same batch again)."""
    return until_answered(lambda: client.put_batch(batch), "a batch")  # type: ignore[no-any-return]


@pytest.mark.slow
def test_kill9_of_the_leader_during_batch_uploads_counts_each_report_once(
    tmp_path: Path,
) -> None:
    """Two clients send 300 reports in batches of 15 while the leader is killed (SIGKILL) twice
    and restarted: a batch whose answer was lost is sent again, its stored reports come back
    `repeated`, and every report is counted exactly once."""
    from concurrent.futures import ThreadPoolExecutor

    path, credential, lport, hport = new_task(tmp_path, SUM32, min_batch_size=10)
    task, client, collector = _clients(path, credential)
    rng = random.Random(4)
    values = [rng.randrange(2**32) for _ in range(300)]
    at = _hour()
    with aggregators(tmp_path, path, lport, hport, job_size=20, ZEENOT_JOB_LEASE="3") as (
        leader,
        _,
    ):
        reports = [client.report(v, at) for v in values]
        batches = [reports[i : i + 15] for i in range(0, len(reports), 15)]
        with ThreadPoolExecutor(2) as pool:
            answers = [pool.submit(_post_until_acknowledged, client, b) for b in batches]
            for _ in range(2):
                time.sleep(1.5)
                leader.kill9()
                time.sleep(0.3)
                leader.start()
            outcomes = [o for a in answers for o in a.result()]
        assert all(o.stored for o in outcomes)
        got = collector.collect(at, TP, timeout=240)
        assert _states(tmp_path / "leader.db", task) == {"aggregated": len(values)}
        assert got.report_count == len(values) and got.result == sum(values)


def test_kill9_of_the_leader_under_synchronous_normal_keeps_every_acknowledged_report(
    tmp_path: Path,
) -> None:
    """With SQLite's `synchronous=NORMAL` (the opt-in `ZEENOT_SQLITE_SYNCHRONOUS=normal`: no
    flush per commit) a leader killed with SIGKILL while batches arrive still holds every report
    it acknowledged: a commit is in the operating system's cache before the answer goes out
    (power loss is another matter: docs/prio.md)."""
    import threading

    path, _credential, lport, hport = new_task(tmp_path, SUM32, min_batch_size=10)
    task, client, _ = _clients(path, _credential)
    at = _hour()
    acknowledged: list[str] = []
    stop = threading.Event()

    def send() -> None:
        while not stop.is_set():
            try:
                outcomes = client.put_batch([client.report(7, at) for _ in range(15)])
            except Exception:  # killed under the request: its reports were not acknowledged
                return
            acknowledged.extend(o.report_id for o in outcomes if o.stored and o.report_id)

    with aggregators(
        tmp_path, path, lport, hport, job_size=20, ZEENOT_SQLITE_SYNCHRONOUS="normal"
    ) as (leader, _):
        sender = threading.Thread(target=send)
        sender.start()
        deadline = time.monotonic() + 60
        while len(acknowledged) < 150 and time.monotonic() < deadline:
            time.sleep(0.05)
        leader.kill9()
        stop.set()
        sender.join(30)
        assert len(acknowledged) >= 150
        store = Store(str(tmp_path / "leader.db"))
        with store.engine.connect() as conn:
            stored = {
                str(r[0])
                for r in conn.exec_driver_sql(
                    "SELECT report_id FROM prio_reports WHERE task_id = ?", (task.task_id,)
                )
            }
        assert set(acknowledged) <= stored
        assert len(stored) <= len(acknowledged) + 15  # at most the batch the kill cut short
