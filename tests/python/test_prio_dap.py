"""zeenot's DAP-09 aggregators (zeenot.prio: dap_leader, dap_helper) as processes: uploads
stored before they are acknowledged, replays refused, aggregation jobs that survive kill -9 of
either aggregator with every acknowledged report counted exactly once, the collection flow, the
protocol's refusals; and the interop run with Divvi Up's janus_client and janus_collector.
"""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from zeenot.errors import MalformedInput
from zeenot.prio.dap_store import DapStore
from zeenot.prio.tasks import Task, b64url
from zeenot.runtime.store import Store

from .prio_servers import aggregators, new_task, until_answered
from .runtime_server import ROOT

SUM32 = {"type": "Prio3Sum", "bits": 32}
TP = 3600


def _sum32_values(seed: int | str, n: int) -> list[int]:
    """`n` Sum32 measurements, the same for the same seed."""
    rng = random.Random(seed)
    return [rng.randrange(2**32) for _ in range(n)]


def _hour() -> int:
    """The start of the previous hour: a batch interval wholly in the past."""
    return int(time.time()) // TP * TP - TP


def _states(db: Path, task: Task) -> dict[str, int]:
    return DapStore(Store(str(db))).report_states(task.task_id)


# ---- the task file and the store, without servers ---------------------------------------------


def test_task_file_round_trip_and_refusals(tmp_path: Path) -> None:
    path, credential, _, _ = new_task(tmp_path, SUM32)
    task = Task.load(path)
    assert Task.from_json(task.to_json()) == task
    assert hashlib.sha256(credential["token"].encode()).hexdigest() == task.collector_token_sha256
    good = task.to_json()
    for field, value, message in [
        ("task_id", "AAAA", "32 bytes"),
        ("task_id", b64url(bytes(32)) + "=", "base64url"),
        ("vdaf", {"type": "Prio3Sum"}, "exactly bits"),
        ("vdaf", {"type": "Prio3Average", "bits": 8}, "one of"),
        ("vdaf_verify_key", b64url(bytes(15)), "16 bytes"),
        ("time_precision", 0, "from 1"),
        ("aggregator_auth_token", "short", "at least 16"),
        ("collector_auth_token_sha256", "00", "64 lowercase hex"),
        ("leader", "ftp://x/", r"http\(s\) URL"),
        ("extra", 1, "no field"),
    ]:
        with pytest.raises(MalformedInput, match=message):
            Task.from_json({**good, field: value})


def test_store_acknowledges_a_report_once(tmp_path: Path) -> None:
    dstore = DapStore(Store(str(tmp_path / "leader.db")))
    put = dstore.put_report
    assert put("t", "r1", 100, "d1", b"p", b"l", b"h") == "stored"
    assert put("t", "r1", 100, "d1", b"p", b"l", b"h") == "repeated"  # a client's retry
    assert put("t", "r1", 100, "d2", b"p", b"l", b"h") == "replayed"  # another report, same id
    assert put("u", "r1", 100, "d2", b"p", b"l", b"h") == "stored"  # another task
    assert dstore.create_collection_job("t", "j", "x", 0, 3600) == "created"
    assert dstore.create_collection_job("t", "j", "x", 0, 3600) == "repeated"
    assert dstore.create_collection_job("t", "j", "y", 0, 3600) == "changed"
    assert dstore.create_collection_job("t", "k", "z", 1800, 3600) == "overlap"
    assert put("t", "r2", 200, "d3", b"p", b"l", b"h") == "collected"
    assert dstore.assign_pending("t", "job", 10) == 1
    assert dstore.assign_pending("t", "job2", 10) == 0  # each report to one job


# ---- the aggregators as processes -------------------------------------------------------------


def _clients(path: Path, credential: dict):  # type: ignore[no-untyped-def]
    from zeenot.prio.dap_client import Client, Collector

    task = Task.load(path)
    client = Client(task.task_id, task.leader, task.helper, task.vdaf, task.time_precision)
    collector = Collector(task.task_id, task.leader, task.vdaf, credential)
    return task, client, collector


def test_upload_aggregate_collect_with_refusals(tmp_path: Path) -> None:
    from zeenot.prio.dap_client import DapRefused

    path, credential, lport, hport = new_task(tmp_path, SUM32, min_batch_size=5)
    with aggregators(tmp_path, path, lport, hport, job_size=16):
        task, client, collector = _clients(path, credential)
        values = _sum32_values(1, 40)
        at = _hour()
        for v in values:
            assert client.upload(v, at) == 201
        # a retried report is acknowledged again and counted once; its id under another
        # report is refused
        report = client.report(7, at)
        assert client.put(report) == 201 and client.put(report) == 201
        values.append(7)
        rid = report[:16]
        other = client.report(8, at, report_id=rid)
        with pytest.raises(DapRefused) as refused:
            client.put(other)
        assert (refused.value.status, refused.value.kind) == (400, "reportRejected")
        # a report whose helper share does not open is prepared by nobody
        bad = bytearray(client.report(9, at))
        bad[-1] ^= 1
        assert client.put(bytes(bad)) == 201  # the leader cannot tell: the helper rejects it

        # the collector's door
        jobs = f"{task.leader}tasks/{task.task_id}/collection_jobs/{b64url(os.urandom(16))}"
        from zeenot.prio import dap_codec as codec

        req = codec.encode_collection_req(at, TP)
        ct = {"content-type": "application/dap-collect-req"}
        assert httpx.put(jobs, content=req, headers=ct).status_code == 403
        wrong = {**ct, "authorization": "Bearer " + "x" * 43}
        answer = httpx.put(jobs, content=req, headers=wrong)
        assert answer.status_code == 403
        assert answer.headers["content-type"] == "application/problem+json"
        assert answer.json()["type"] == "urn:ietf:params:ppm:dap:error:unauthorizedRequest"
        good = {"authorization": f"Bearer {credential['token']}"}
        params = {"content-type": "application/dap-collect-req; charset=utf-8", **good}
        assert httpx.put(jobs, content=req, headers=params).status_code == 415
        odd = codec.encode_collection_req(at + 1, TP)
        answer = httpx.put(jobs, content=odd, headers={**ct, **good})
        assert answer.json()["type"].endswith("batchInvalid")

        got = collector.collect(at, TP, timeout=90)
        assert got.result == sum(values) and got.report_count == len(values)
        assert got.interval == (at, TP)
        assert _states(tmp_path / "leader.db", task)["rejected"] == 1
        # the batch is collected: no report enters it, no overlapping batch is collected
        with pytest.raises(DapRefused, match="reportRejected"):
            client.upload(1, at)
        with pytest.raises(DapRefused, match="batchOverlap"):
            collector.start(at - TP, 2 * TP)


def test_a_leader_of_two_worker_processes_counts_each_report_once(tmp_path: Path) -> None:
    """`zeenot prio serve --workers 2`: two uvicorn processes over one database, each with its
    own group commit and driver; concurrent uploads (some repeated) land on both."""
    from concurrent.futures import ThreadPoolExecutor

    path, credential, lport, hport = new_task(tmp_path, SUM32, min_batch_size=5)
    with aggregators(tmp_path, path, lport, hport, job_size=8, workers=2):
        task, client, collector = _clients(path, credential)
        values = _sum32_values(2, 60)
        at = _hour()
        reports = [client.report(v, at) for v in values]
        with ThreadPoolExecutor(8) as pool:
            statuses = list(pool.map(client.put, reports + reports[:10]))
        assert statuses == [201] * 70
        got = collector.collect(at, TP, timeout=120)
        assert got.result == sum(values) and got.report_count == len(values)
        assert _states(tmp_path / "leader.db", task) == {"aggregated": len(values)}


def test_a_leader_split_from_its_driver_counts_each_report_once(tmp_path: Path) -> None:
    """`zeenot prio serve --no-drive` beside `zeenot prio drive` over the same database (the
    upload-serving process runs no jobs): every report is aggregated once, also when the driver
    is killed (SIGKILL) while its jobs run and started again."""
    from concurrent.futures import ThreadPoolExecutor

    path, credential, lport, hport = new_task(tmp_path, SUM32, min_batch_size=5)
    with aggregators(
        tmp_path, path, lport, hport, job_size=10, split=True, ZEENOT_JOB_LEASE="3"
    ) as (leader, _):
        assert leader.driver is not None
        task, client, collector = _clients(path, credential)
        values = _sum32_values(3, 120)
        at = _hour()
        reports = [client.report(v, at) for v in values]
        with ThreadPoolExecutor(4) as pool:
            statuses = list(pool.map(client.put, reports[:60]))
            leader.driver.kill9()  # its jobs of the first reports under way, or done
            statuses += list(pool.map(client.put, reports[60:] + reports[:5]))
            time.sleep(1.0)  # a serving process that drove jobs would have started some
            assert _states(tmp_path / "leader.db", task).get("pending", 0) >= 60  # it does not
            leader.driver.start()
        assert statuses == [201] * 125
        got = collector.collect(at, TP, timeout=120)
        assert got.result == sum(values) and got.report_count == len(values)
        assert _states(tmp_path / "leader.db", task) == {"aggregated": len(values)}


def test_helper_answers_a_repeated_job_identically(tmp_path: Path) -> None:
    """The leader killed after the helper committed a job sends the same request again: the
    helper answers the stored response, byte for byte, and refuses another body (409)."""
    from zeenot.prio import dap_codec as codec

    path, credential, lport, hport = new_task(tmp_path, SUM32, min_batch_size=1)
    with aggregators(tmp_path, path, lport, hport) as (leader, helper):
        task, client, _ = _clients(path, credential)
        client.configs()  # both HPKE configs, before the leader goes
        leader.stop()  # no driver: this test plays the leader
        from zeenot.prio import messages

        # a well-formed ping-pong message whose prepare share is junk: the helper rejects the
        # reports (vdaf_prep_error), which is as good as any answer to repeat
        junk = messages.encode("PingPongMessage", {"type": "initialize", "prep_share": b"\0" * 32})
        inits = []
        for v in (1, 2, 3):
            r = codec.decode_report(client.report(v, _hour()))
            inits.append(
                codec.PrepareInit(r.report_id, r.time, r.public_share, r.helper_share, junk)
            )
        body = codec.encode_init_req(inits)
        url = f"{helper.url}tasks/{task.task_id}/aggregation_jobs/{b64url(os.urandom(16))}"
        headers = {
            "content-type": "application/dap-aggregation-job-init-req",
            "authorization": f"Bearer {task.aggregator_token}",
        }
        first = httpx.put(url, content=body, headers=headers)
        assert first.status_code == 201
        assert first.headers["content-type"] == "application/dap-aggregation-job-resp"
        again = httpx.put(url, content=body, headers=headers)
        assert again.status_code == 201 and again.content == first.content
        assert [r.error for r in codec.decode_job_resp(first.content)] == ["vdaf_prep_error"] * 3
        assert httpx.put(url, content=body[:-1] + b"\1", headers=headers).status_code == 409
        # the same reports in another job are replays
        other = url.rsplit("/", 1)[0] + "/" + b64url(os.urandom(16))
        resps = codec.decode_job_resp(httpx.put(other, content=body, headers=headers).content)
        assert [r.error for r in resps] == ["report_replayed"] * 3


def _put_until_acknowledged(client, report: bytes) -> None:  # type: ignore[no-untyped-def]
    """Upload as janus_client does: retry the same report on a network error or a 5xx."""
    until_answered(lambda: client.put(report), "a report")


@pytest.mark.slow
@pytest.mark.parametrize("victim", ["helper", "leader"])
def test_kill9_during_ingestion_and_aggregation_counts_each_report_once(
    tmp_path: Path, victim: str
) -> None:
    """Four clients upload 400 reports while the victim is killed (SIGKILL) three times and
    restarted on its database: uploads in flight, aggregation jobs in flight at the helper or
    in the leader's job runner. Every report is acknowledged in the end (retried as janus_client
    retries) and counted exactly once."""
    from concurrent.futures import ThreadPoolExecutor

    path, credential, lport, hport = new_task(tmp_path, SUM32, min_batch_size=10)
    task, client, collector = _clients(path, credential)
    values = _sum32_values(victim, 400)
    at = _hour()
    # a job that failed while the helper was down is retried within 2 s, not after the
    # doubling backoff's minutes: the test waits for the count, not for the backoff
    with aggregators(
        tmp_path, path, lport, hport, job_size=20, ZEENOT_JOB_LEASE="3", ZEENOT_JOB_MAX_BACKOFF="2"
    ) as (leader, helper):
        reports = [client.report(v, at) for v in values]  # HPKE configs fetched before kills
        target = helper if victim == "helper" else leader
        with ThreadPoolExecutor(4) as pool:
            uploads = [pool.submit(_put_until_acknowledged, client, r) for r in reports]
            for _ in range(3):
                time.sleep(1.5)  # uploads and aggregation jobs under way
                target.kill9()
                time.sleep(0.3)
                target.start()
            for u in uploads:
                u.result()
        got = collector.collect(at, TP, timeout=240)
        states = _states(tmp_path / "leader.db", task)
        assert states == {"aggregated": len(reports)}
        # Whether a kill landed inside an aggregation job depends on timing (on a quiet machine
        # the leader's jobs can finish between kills); what must hold either way is below.
        assert got.report_count == len(reports)
        assert got.result == sum(values)


# ---- interoperability with janus 0.7.145 ------------------------------------------------------

HARNESS = ROOT / "interop" / "janus" / "target" / "release"


@pytest.mark.slow
def test_janus_client_and_collector_against_zeenot() -> None:
    missing = [b for b in ("upload", "collect") if not (HARNESS / b).exists()]
    if missing:
        pytest.skip(
            f"the janus interop harness is not built ({', '.join(missing)} missing): "
            "cd interop/janus && cargo build --release"
        )
    import sys

    done = subprocess.run(
        [str(ROOT / "scripts" / "janus_interop.sh")],
        cwd=ROOT,
        env={**os.environ, "JANUS_INTEROP_NO_BUILD": "1", "PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [line for line in done.stdout.splitlines() if "== plain" in line]
    assert len(lines) == 4, done.stdout
