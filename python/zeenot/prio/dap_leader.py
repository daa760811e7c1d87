"""The DAP-09 leader: takes clients' reports, drives aggregation jobs with the helper, and runs
the collector's collection jobs (routes and contract: `zeenot.prio.dap_server`).

Upload (`PUT /tasks/{task}/reports`): the report is decoded (`invalidMessage`), its leader share
must name a config this leader holds (`outdatedConfig`), its time may lie at most `CLOCK_SKEW`
in the future (`reportTooEarly`) and not in a batch already claimed by a collection
(`reportRejected`); then it is stored, and only after the commit is it answered 201 (concurrent
uploads share one transaction: `zeenot.prio.dap_ingest`). The same
report again (a client retrying after a lost answer) is answered 201 and not stored twice;
another report under a used report id is refused (`reportRejected`): DAP's "MUST ignore".

Batch upload (`POST /tasks/{task}/reports:batch`, zeenot's extension: `zeenot.prio.dap_batch`):
up to 1,000 reports in one body, each judged as above, stored in one transaction, and answered
with one outcome per report.

Aggregation: a driver thread gives pending reports to aggregation jobs (at most `job_size`
each; a job of fewer waits up to `job_wait` seconds to fill up): the reports are marked and the
job is enqueued in one transaction (`runtime/jobs.py`: leased, retried, resumed by another
process after a kill -9). The job decrypts the leader's
shares, starts preparation (Prio3's `prepare_init` is deterministic, so a retried job sends the
helper the very same request), `PUT`s the `AggregationJobInitReq` to the helper, finishes
preparation with the helper's replies and stores the reports' outcomes (in transactions of at
most `dap_store.FINISH_CHUNK` reports, so that uploads do not wait for the write lock behind a
whole job). A kill anywhere in between leaves some or all reports pending in their job; the job
runs again over all its reports, so the helper gets the same request and answers its stored
response, only the pending reports are recorded, and each report is counted exactly once.

Collection (`PUT /tasks/{task}/collection_jobs/{job}`, the collector's token): the interval is
checked (`batchInvalid`), overlapping batches are refused (`batchOverlap`), and the batch is
claimed with the job (no report enters it from then on). The driver finishes the job once no
report of the interval is pending and at least `min_batch_size` are prepared: it asks the
helper for its share (`POST /tasks/{task}/aggregate_shares` with count and checksum), seals its
own to the collector and stores the `Collection`. Polls (`POST`) answer 202 until then, then 200.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import httpx
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from zeenot.errors import ZeenotError
from zeenot.prio import dap_codec as codec
from zeenot.prio import dap_http as http
from zeenot.prio import dap_stats as stats
from zeenot.prio.dap_batch import (
    BATCH_MEDIA_TYPE,
    MAX_BATCH_BODY,
    BatchError,
    BatchOutcome,
    decode_batch,
)
from zeenot.prio.dap_codec import CodecError, PrepareInit
from zeenot.prio.dap_helper import CLOCK_SKEW, aggregate_all, batch_checks
from zeenot.prio.dap_helper import collector_config as sealed_to
from zeenot.prio.dap_http import DapError
from zeenot.prio.dap_ingest import Ingest, IngestFailed
from zeenot.prio.dap_store import DapStore, Outcome, Upload
from zeenot.prio.tasks import Task, b64url, unb64url
from zeenot.prio.vdaf import Vdaf

log = logging.getLogger("zeenot.prio")
MAX_REPORT = 1 << 20  # bytes of one uploaded report
JOB_SIZE = 256
JOB_WAIT = 0.5  # seconds a report waits for its aggregation job to fill up, at most
HELPER_TIMEOUT = 60.0
INGEST_TIMEOUT = 120.0  # seconds an upload waits for its commit before it is answered 503


class Leader:
    def __init__(
        self,
        tasks: dict[str, Task],
        dstore: DapStore,
        job_size: int = JOB_SIZE,
        job_wait: float = JOB_WAIT,
    ):
        self.tasks = tasks
        self.dstore = dstore
        self.job_size = job_size
        self.job_wait = job_wait
        self.vdafs = {tid: Vdaf.from_description(t.vdaf) for tid, t in tasks.items()}
        self.keys = {cid: (config, key) for cid, config, key in dstore.hpke_keys()}
        self.ingest = Ingest(dstore)
        # one client (its connection pool, its TLS context built once) for every helper call
        self.http = httpx.Client(timeout=HELPER_TIMEOUT)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # upload ------------------------------------------------------------------------------

    async def upload(self, request: Request) -> Response:
        began = time.perf_counter()
        task = http.task_of(request, self.tasks)
        data = await http.body(request, http.REPORT, task, limit=MAX_REPORT)
        stats.since("upload.body", began)
        upload = self.check_report(task, data)
        state = await self._committed(lambda: self.ingest.submit(upload))
        refusal = _refusal(task, state)
        if refusal is not None:
            raise refusal
        stats.since("upload.handler", began)
        return Response(status_code=201)

    async def _committed(self, submit: Callable[[], Future[Any]]) -> Any:
        """The answer(s) of the group commit (`zeenot.prio.dap_ingest`); a 503 if the writer
        could not store them or did not answer within `INGEST_TIMEOUT` seconds (then nothing
        is acknowledged: a retried upload is answered as a repeat if it was stored)."""
        handed = time.perf_counter()
        try:
            future = submit()
            answer = await asyncio.wait_for(asyncio.wrap_future(future), INGEST_TIMEOUT)
        except (IngestFailed, TimeoutError) as exc:
            detail = str(exc) or "the upload was not committed in time"
            raise DapError(503, None, f"try again: {detail}") from None
        if stats.ENABLED:
            stats.since("upload.commit", handed)
            stats.since("ingest.wake", getattr(future, "resolved_at", time.perf_counter()))
        return answer

    async def upload_batch(self, request: Request) -> Response:
        """`POST /tasks/{task}/reports:batch` (zeenot's extension, `zeenot.prio.dap_batch`):
        the framing checked whole, then each report judged as `upload` judges one, the
        accepted ones stored in one transaction, then one outcome per report."""
        began = time.perf_counter()
        task = http.task_of(request, self.tasks)
        data = await http.body(request, BATCH_MEDIA_TYPE, task, limit=MAX_BATCH_BODY)
        stats.since("upload.body", began)
        try:
            bodies = decode_batch(data)
        except BatchError as exc:
            raise DapError(400, "invalidMessage", str(exc), task.task_id) from None
        checking = time.perf_counter()
        checked = await run_in_threadpool(self._check_all, task, bodies)
        stats.since("upload.check", checking)
        uploads = [c for c in checked if isinstance(c, Upload)]
        states = iter(await self._committed(lambda: self.ingest.submit_many(uploads)))
        outcomes = []
        for c in checked:
            if isinstance(c, DapError):
                outcomes.append(BatchOutcome("rejected", c.status, None, c.kind, c.detail))
                continue
            state = next(states)
            refusal = _refusal(task, state)
            if refusal is None:
                kind = "accepted" if state == "stored" else "repeated"
                outcomes.append(BatchOutcome(kind, 201, c.report_id))
            else:
                kind = "replayed" if state == "replayed" else "rejected"
                outcomes.append(
                    BatchOutcome(kind, refusal.status, c.report_id, refusal.kind, refusal.detail)
                )
        doc = {"reports": [o.to_json(http.DAP_ERROR) for o in outcomes]}
        stats.since("upload.handler", began)
        return JSONResponse(doc)

    def check_report(self, task: Task, data: bytes) -> Upload:
        """The report as the leader stores it, or the `DapError` that refuses it before the
        database is asked."""
        got = self._judge(task, data, codec.split_uploads([data])[0])
        if isinstance(got, DapError):
            raise got
        return got

    def _check_all(self, task: Task, bodies: list[bytes]) -> list[Upload | DapError]:
        """`check_report` of each body, the decoding in one native call."""
        return [
            self._judge(task, data, split)
            for data, split in zip(bodies, codec.split_uploads(bodies), strict=True)
        ]

    def _judge(
        self, task: Task, data: bytes, split: tuple[codec.Report, int] | str
    ) -> Upload | DapError:
        if isinstance(split, str):
            return DapError(400, "invalidMessage", split, task.task_id)
        report, config_id = split
        if config_id not in self.keys:
            return DapError(400, "outdatedConfig", f"no HPKE config {config_id} here", task.task_id)
        if report.time > time.time() + CLOCK_SKEW:
            return DapError(
                400, "reportTooEarly", "the report's time is in the future", task.task_id
            )
        return Upload(
            task.task_id,
            b64url(report.report_id),
            report.time,
            hashlib.sha256(data).hexdigest(),
            report.public_share,
            report.leader_share,
            report.helper_share,
        )

    # aggregation jobs (a jobs.py handler) --------------------------------------------------

    def aggregate(self, payload: dict[str, Any]) -> dict[str, int]:
        task = self.tasks.get(str(payload.get("task_id")))
        if task is None:
            raise RuntimeError("a job for a task this leader does not serve")
        job_id = str(payload["job_id"])
        began = time.perf_counter()
        pending = self.dstore.job_reports(task.task_id, job_id)  # all: the same request again
        if not any(r.pending for r in pending):
            return {"reports": 0}  # finished by an earlier run
        vdaf = self.vdafs[task.task_id]
        outcomes: list[Outcome] = []
        inits: list[PrepareInit] = []
        states: dict[str, bytes] = {}
        rids = [unb64url(r.report_id, "report id", 16) for r in pending]
        opened = codec.open_input_shares(
            list(self.keys.values()),
            codec.LEADER,
            task.task_id_bytes,
            [
                (rid, r.time, r.public_share, r.leader_share)
                for rid, r in zip(rids, pending, strict=True)
            ],
        )
        for rid, r, share in zip(rids, pending, opened, strict=True):
            if isinstance(share, str):
                outcomes.append(Outcome(r.report_id, "rejected", error=share))
                continue
            try:
                state, message = vdaf.leader_initialized(
                    task.verify_key, rid, r.public_share, share
                )
            except ZeenotError:
                outcomes.append(Outcome(r.report_id, "rejected", error="vdaf_prep_error"))
                continue
            inits.append(PrepareInit(rid, r.time, r.public_share, r.helper_share, bytes(message)))
            states[r.report_id] = bytes(state)
        if inits:
            outcomes += self._with_helper(task, job_id, vdaf, inits, states)
        finishing = time.perf_counter()
        self.dstore.finish_reports(task.task_id, job_id, outcomes)
        stats.since("job.finish", finishing)
        stats.since("job.run", began)
        return {"reports": len(outcomes)}

    def _with_helper(
        self,
        task: Task,
        job_id: str,
        vdaf: Vdaf,
        inits: list[PrepareInit],
        states: dict[str, bytes],
    ) -> list[Outcome]:
        request = codec.encode_init_req(inits)
        url = task.helper_url(f"tasks/{task.task_id}/aggregation_jobs/{job_id}")
        answer = self.http.put(
            url,
            content=request,
            headers={
                "content-type": http.AGG_JOB_INIT_REQ,
                "authorization": f"Bearer {task.aggregator_token}",
            },
        )
        if answer.status_code != 201 or answer.headers.get("content-type") != http.AGG_JOB_RESP:
            raise RuntimeError(f"the helper answered the aggregation job with {answer.status_code}")
        resps = codec.decode_job_resp(answer.content)
        if [r.report_id for r in resps] != [p.report_id for p in inits]:
            raise RuntimeError("the helper's answer names other reports, or in another order")
        outcomes = []
        for resp in resps:
            rid = b64url(resp.report_id)
            if resp.kind == "reject":
                outcomes.append(Outcome(rid, "rejected", error=resp.error or "rejected"))
                continue
            if resp.kind != "continue":
                outcomes.append(Outcome(rid, "rejected", error="step_mismatch"))
                continue
            try:
                out_share = vdaf.leader_continued(states[rid], resp.message)
            except ZeenotError:
                outcomes.append(Outcome(rid, "rejected", error="vdaf_prep_error"))
                continue
            outcomes.append(Outcome(rid, "aggregated", bytes(out_share)))
        return outcomes

    # collection jobs ---------------------------------------------------------------------

    async def put_collection_job(self, request: Request) -> Response:
        task = http.task_of(request, self.tasks)
        http.authorize(request, task, task.collector_token_sha256, None)
        job_id = http.path_id(request, "job_id", 16, task)
        data = await http.body(request, http.COLLECT_REQ, task, limit=1 << 16)
        try:
            start, duration, agg_param = codec.decode_collection_req(data)
        except CodecError as exc:
            raise DapError(400, "invalidMessage", str(exc), task.task_id) from None
        if agg_param:
            raise DapError(400, "invalidMessage", "Prio3's aggregation parameter is empty")
        batch_checks(task, start, duration)
        digest = hashlib.sha256(data).hexdigest()
        state = await run_in_threadpool(
            self.dstore.create_collection_job, task.task_id, job_id, digest, start, duration
        )
        if state == "changed":
            raise DapError(409, None, "this collection job exists with another request")
        if state == "overlap":
            raise DapError(
                400, "batchOverlap", "the interval overlaps a collected batch", task.task_id
            )
        return Response(status_code=201)

    async def poll_collection_job(self, request: Request) -> Response:
        task = http.task_of(request, self.tasks)
        http.authorize(request, task, task.collector_token_sha256, None)
        job_id = http.path_id(request, "job_id", 16, task)
        job = await run_in_threadpool(self.dstore.collection_job, task.task_id, job_id)
        if job is None:
            raise DapError(404, None, "no such collection job")
        if job["state"] == "pending":
            return Response(status_code=202, headers={"retry-after": "1"})
        if job["state"] == "deleted":
            return Response(status_code=204)
        if job["state"] == "failed":
            kind, _, detail = str(job["error"]).partition(" ")
            raise DapError(400, kind, detail, task.task_id)
        return http.encoded(bytes(job["result"]), http.COLLECTION)

    async def delete_collection_job(self, request: Request) -> Response:
        task = http.task_of(request, self.tasks)
        http.authorize(request, task, task.collector_token_sha256, None)
        job_id = http.path_id(request, "job_id", 16, task)
        if not await run_in_threadpool(self.dstore.delete_collection_job, task.task_id, job_id):
            raise DapError(404, None, "no such collection job")
        return Response(status_code=204)

    def try_collect(self, job: dict[str, Any]) -> bool:
        """Finish one pending collection job if its batch is ready; whether it ended."""
        task = self.tasks.get(job["task_id"])
        if task is None:
            return False
        start, duration = int(job["batch_start"]), int(job["batch_duration"])
        batch = self.dstore.batch(task.task_id, start, duration)
        if batch.pending or len(batch.report_ids) < task.min_batch_size:
            return False  # DAP: the leader waits for more reports to be prepared
        ids = [unb64url(r, "report id", 16) for r in batch.report_ids]
        req = codec.ShareRequest(start, duration, b"", len(ids), codec.checksum(ids))
        answer = self.http.post(
            task.helper_url(f"tasks/{task.task_id}/aggregate_shares"),
            content=codec.encode_share_req(req),
            headers={
                "content-type": http.AGG_SHARE_REQ,
                "authorization": f"Bearer {task.aggregator_token}",
            },
        )
        if answer.status_code != 200:
            kind = _problem_kind(answer)
            if answer.status_code >= 500 or kind is None:
                raise RuntimeError(
                    f"the helper answered the aggregate share with {answer.status_code}"
                )
            return self.dstore.end_collection_job(
                task.task_id, job["job_id"], "failed", None, f"{kind} the helper refused: {kind}"
            )
        if answer.headers.get("content-type") != http.AGG_SHARE:
            raise RuntimeError("the helper's aggregate share has another media type")
        helper_share = codec.decode_share(answer.content)
        vdaf = self.vdafs[task.task_id]
        leader_share = codec.seal_aggregate_share(
            sealed_to(task),
            codec.LEADER,
            aggregate_all(vdaf, batch.out_shares),
            task.task_id_bytes,
            start,
            duration,
        )
        tp = task.time_precision
        first = min(batch.times) // tp * tp
        last = max(batch.times) // tp * tp + tp
        collection = codec.encode_collection(
            len(ids), first, last - first, leader_share, helper_share
        )
        return self.dstore.end_collection_job(
            task.task_id, job["job_id"], "finished", collection, None
        )

    # the driver thread -------------------------------------------------------------------

    def drive_once(self) -> bool:
        """Start aggregation jobs for pending reports, then try pending collections; whether
        anything happened."""
        busy = False
        for task_id in self.tasks:
            job_id = b64url(secrets.token_bytes(16))
            assigning = time.perf_counter()
            got = self.dstore.assign_pending(task_id, job_id, self.job_size, self.job_wait)
            if got:
                stats.since("job.assign", assigning)
            busy |= got == self.job_size  # a full job: more may be waiting
        for job in self.dstore.pending_collection_jobs():
            try:
                busy |= self.try_collect(job)
            except (httpx.HTTPError, RuntimeError, CodecError) as exc:
                log.warning("collection job: %s", exc)
        return busy

    def start(self, poll: float = 0.2) -> None:
        def loop() -> None:
            while not self._stop.is_set():
                try:
                    busy = self.drive_once()
                except Exception:  # the database away for a moment: try again
                    log.exception("prio leader driver")
                    busy = False
                if not busy:
                    self._stop.wait(poll)

        self._thread = threading.Thread(target=loop, name="zeenot-prio-driver", daemon=True)
        self._thread.start()

    def stop_driving(self) -> None:
        """Stop the driver thread (a job under way in a job runner finishes first)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)

    def close(self) -> None:
        """Store the uploads queued, then let go of the helper's connections."""
        self.ingest.close()
        self.http.close()


def _refusal(task: Task, state: str) -> DapError | None:
    """The refusal of an upload the store did not take (`stored` and `repeated` are 201)."""
    if state == "replayed":
        return DapError(400, "reportRejected", "this report id was used before", task.task_id)
    if state == "collected":
        return DapError(
            400, "reportRejected", "the report's batch has been collected", task.task_id
        )
    return None


def _problem_kind(answer: httpx.Response) -> str | None:
    if answer.headers.get("content-type") != http.PROBLEM_MEDIA_TYPE:
        return None
    try:
        kind = answer.json().get("type", "")
    except ValueError:
        return None
    return kind[len(http.DAP_ERROR) :] if kind.startswith(http.DAP_ERROR) else None
