"""The DAP-09 helper: prepares the reports of the leader's aggregation jobs and answers its
aggregate-share requests (routes and contract: `zeenot.prio.dap_server`).

Aggregation job (`PUT /tasks/{task}/aggregation_jobs/{job}`, the leader's token): each
report is checked (a report id seen before: `report_replayed`; a time in a collected batch:
`batch_collected`; too far in the future: `report_too_early`; an unknown HPKE config:
`hpke_unknown_config_id`; a share that does not open: `hpke_decrypt_error`; an extension or an
undecodable share: `invalid_message`; a proof that does not verify: `vdaf_prep_error`), then the
job, its response and a row per report (the output share, or the rejection) are stored in one
transaction *before* the response leaves. The same request again (the leader retrying after a
lost answer or a kill) is answered with the stored response, byte for byte; another request
under the same job id is refused (409).

Aggregate share (`POST /tasks/{task}/aggregate_shares`): the batch interval must be a
multiple of the time precision; the helper's own count and checksum over its prepared reports
in the interval must equal the leader's (`batchMismatch` otherwise) and reach the task's
minimum batch size (`invalidBatchSize`); the share, sealed to the collector, is stored with the
batch and answered again to the same request (`batchQueriedTooManyTimes` to a different one,
`batchOverlap` to an overlapping interval).
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from zeenot.errors import ZeenotError
from zeenot.prio import dap_codec as codec
from zeenot.prio import dap_http as http
from zeenot.prio.dap_codec import CodecError, PrepareResp
from zeenot.prio.dap_http import DapError
from zeenot.prio.dap_store import DapStore, Outcome
from zeenot.prio.tasks import Task, b64url
from zeenot.prio.vdaf import Vdaf
from zeenot.runtime.store import Conflict

CLOCK_SKEW = 300  # seconds a report's time may lie in the future
MAX_JOB_REPORTS = 10_000
AGGREGATE_CHUNK = 4096


def batch_checks(task: Task, start: int, duration: int) -> None:
    """DAP's boundary check for a time-interval batch."""
    tp = task.time_precision
    if duration < tp or start % tp or duration % tp:
        raise DapError(
            400,
            "batchInvalid",
            f"a batch interval's start and duration are multiples of the time precision ({tp} s)"
            f" and its duration at least that",
            task.task_id,
        )


class Helper:
    def __init__(self, tasks: dict[str, Task], dstore: DapStore):
        self.tasks = tasks
        self.dstore = dstore
        self.vdafs = {tid: Vdaf.from_description(t.vdaf) for tid, t in tasks.items()}
        self.keys = {cid: (config, key) for cid, config, key in dstore.hpke_keys()}

    # aggregation jobs --------------------------------------------------------------------

    async def aggregation_job(self, request: Request) -> Response:
        task = http.task_of(request, self.tasks)
        http.authorize(request, task, None, task.aggregator_token)
        job_id = http.path_id(request, "job_id", 16, task)
        data = await http.body(request, http.AGG_JOB_INIT_REQ, task)
        out = await run_in_threadpool(self.initialize, task, job_id, data)
        return http.encoded(out, http.AGG_JOB_RESP, status=201)

    def initialize(self, task: Task, job_id: str, data: bytes) -> bytes:
        digest = hashlib.sha256(data).hexdigest()
        for _ in range(3):  # a concurrent job took one of these reports: judge them again
            stored = self.dstore.helper_job(task.task_id, job_id)
            if stored is not None:
                if stored[0] != digest:
                    raise DapError(
                        409, None, "this aggregation job exists with another request", task.task_id
                    )
                return stored[1]
            response, times, outcomes = self.prepare(task, data)
            try:
                self.dstore.put_helper_job(task.task_id, job_id, digest, response, times, outcomes)
            except Conflict:
                continue
            return response
        raise DapError(503, None, "concurrent aggregation jobs keep colliding; retry")

    def prepare(self, task: Task, data: bytes) -> tuple[bytes, dict[str, int], list[Outcome]]:
        try:
            agg_param, inits = codec.decode_init_req(data)
        except CodecError as exc:
            raise DapError(400, "invalidMessage", str(exc), task.task_id) from None
        if agg_param:
            raise DapError(400, "invalidMessage", "Prio3's aggregation parameter is empty")
        if not 1 <= len(inits) <= MAX_JOB_REPORTS:
            raise DapError(400, "invalidMessage", f"a job has 1 to {MAX_JOB_REPORTS} reports")
        ids = [b64url(p.report_id) for p in inits]
        if len(set(ids)) != len(ids):
            raise DapError(400, "invalidMessage", "a report id appears twice in the job")
        seen = self.dstore.seen(task.task_id, ids)
        collected = self.dstore.collected_intervals(task.task_id)
        vdaf = self.vdafs[task.task_id]
        horizon = int(time.time()) + CLOCK_SKEW
        errors: list[str | None] = []
        for rid, p in zip(ids, inits, strict=True):
            if rid in seen:
                errors.append("report_replayed")
            elif p.time > horizon:
                errors.append("report_too_early")
            elif any(start <= p.time < start + length for start, length in collected):
                errors.append("batch_collected")
            else:
                errors.append(None)
        todo = [p for p, error in zip(inits, errors, strict=True) if error is None]
        opened = iter(
            codec.open_input_shares(
                list(self.keys.values()),
                codec.HELPER,
                task.task_id_bytes,
                [(p.report_id, p.time, p.public_share, p.encrypted_share) for p in todo],
            )
        )
        resps: list[PrepareResp] = []
        outcomes: list[Outcome] = []
        for rid, p, error in zip(ids, inits, errors, strict=True):
            out_share = message = b""
            if error is None:
                error, out_share, message = self._prepare_one(vdaf, task, p, next(opened))
            if error is None:
                resps.append(PrepareResp(p.report_id, "continue", message))
                outcomes.append(Outcome(rid, "aggregated", out_share))
            else:
                resps.append(PrepareResp(p.report_id, "reject", error=error))
                outcomes.append(Outcome(rid, "rejected", error=error))
        times = {rid: p.time for rid, p in zip(ids, inits, strict=False)}
        return codec.encode_job_resp(resps), times, outcomes

    @staticmethod
    def _prepare_one(
        vdaf: Vdaf, task: Task, p: Any, share: bytes | str
    ) -> tuple[str | None, bytes, bytes]:
        """(error, output share, ping-pong reply) for one report whose input share was opened
        (or failed to open: DAP's name of the failure)."""
        if isinstance(share, str):
            return share, b"", b""
        try:
            out_share, reply = vdaf.helper_initialized(
                task.verify_key, p.report_id, p.public_share, share, p.message
            )
        except ZeenotError:
            return "vdaf_prep_error", b"", b""
        return None, bytes(out_share), bytes(reply)

    # aggregate shares --------------------------------------------------------------------

    async def aggregate_share(self, request: Request) -> Response:
        task = http.task_of(request, self.tasks)
        http.authorize(request, task, None, task.aggregator_token)
        data = await http.body(request, http.AGG_SHARE_REQ, task, limit=1 << 16)
        out = await run_in_threadpool(self.share, task, data)
        return http.encoded(out, http.AGG_SHARE)

    def share(self, task: Task, data: bytes) -> bytes:
        try:
            req = codec.decode_share_req(data)
        except CodecError as exc:
            raise DapError(400, "invalidMessage", str(exc), task.task_id) from None
        if req.agg_param:
            raise DapError(400, "invalidMessage", "Prio3's aggregation parameter is empty")
        batch_checks(task, req.start, req.duration)
        digest = hashlib.sha256(data).hexdigest()
        answered = self.dstore.helper_batch(task.task_id, req.start)
        if answered is not None:
            duration, stored_digest, response = answered
            if duration == req.duration and stored_digest == digest:
                return response  # the same request again: the same answer
            raise DapError(
                400, "batchQueriedTooManyTimes", "this batch was answered before", task.task_id
            )
        batch = self.dstore.batch(task.task_id, req.start, req.duration)
        ids = [_unb64(r) for r in batch.report_ids]
        if len(ids) != req.report_count or codec.checksum(ids) != req.checksum:
            raise DapError(
                400,
                "batchMismatch",
                f"the helper prepared {len(ids)} reports in this interval, with another checksum"
                if len(ids) != req.report_count
                else "the helper's checksum over this interval differs",
                task.task_id,
            )
        if len(ids) < task.min_batch_size:
            raise DapError(
                400,
                "invalidBatchSize",
                f"{len(ids)} reports, fewer than the minimum batch size {task.min_batch_size}",
                task.task_id,
            )
        vdaf = self.vdafs[task.task_id]
        sealed = codec.seal_aggregate_share(
            collector_config(task),
            codec.HELPER,
            aggregate_all(vdaf, batch.out_shares),
            task.task_id_bytes,
            req.start,
            req.duration,
        )
        response = codec.encode_share(sealed)
        if not self.dstore.put_helper_batch(
            task.task_id, req.start, req.duration, digest, response
        ):
            answered = self.dstore.helper_batch(task.task_id, req.start)
            if answered is not None and answered[1] == digest:
                return answered[2]  # a concurrent identical request stored its answer first
            raise DapError(
                400, "batchOverlap", "the interval overlaps a batch answered before", task.task_id
            )
        return response


def aggregate_all(vdaf: Vdaf, out_shares: list[bytes]) -> bytes:
    """The aggregate share of any number of output shares: summed `AGGREGATE_CHUNK` at a time
    and the partial sums merged (the binding bounds the shares of one call)."""
    if not out_shares:
        return bytes(vdaf.merge([]))
    parts = [
        bytes(vdaf.aggregate(out_shares[i : i + AGGREGATE_CHUNK]))
        for i in range(0, len(out_shares), AGGREGATE_CHUNK)
    ]
    return parts[0] if len(parts) == 1 else bytes(vdaf.merge(parts))


def collector_config(task: Task) -> bytes:
    c = task.collector_config
    return codec.hpke_config(c.id, c.kem_id, c.kdf_id, c.aead_id, c.public_key)


def _unb64(text: str) -> bytes:
    from zeenot.prio.tasks import unb64url

    return unb64url(text, "report id", 16)
