"""`zeenot prio serve`: a DAP-09 aggregator, leader or helper, as an ASGI application (Starlette
on uvicorn), one process and one database per aggregator.

The HTTP contract, as Divvi Up's `janus_client` and `janus_collector` 0.7.145 exercise it (read
from their sources) and DAP-09 states it. URLs are relative to the aggregator's base URL (a
trailing slash is added); ids in paths are unpadded base64url (task: 32 bytes, jobs: 16).
Media types are compared exactly, without parameters, in both directions.

    GET  /hpke_config?task_id=T                      both; no auth
        200, `application/dap-hpke-config-list`, `Cache-Control: max-age=86400`: an
        HpkeConfigList. janus_client checks the media type byte for byte, takes the first
        config it supports (X25519 or P-256, HKDF-SHA256, AES-128-GCM …). Unknown task or
        none given: 400 `unrecognizedTask` / `missingTaskID`.

    PUT  /tasks/T/reports                            leader; no auth (clients are anonymous)
        body `application/dap-report` (a Report: report id, time, public share, the leader's
        and the helper's HpkeCiphertext). 201 once stored; janus_client accepts any 2xx and
        retries 5xx (not 501), 429 and network errors with exponential backoff, so a
        retried identical report must not count twice (it does not: 201, stored once).
        The client rounds the time down to a multiple of the task's time precision and seals
        each `PlaintextInputShare` (no extensions) with HPKE base mode, info
        `"dap-09 input share" || 0x01 || role` (leader 0x02, helper 0x03) and AAD
        `InputShareAad(task id, metadata, public share)`.

    POST /tasks/T/reports:batch                      leader; no auth (as the PUT above)
        zeenot's extension, not DAP's (`zeenot.prio.dap_batch`): body
        `application/vnd.zeenot.dap-report-batch` (a count, then length-prefixed Reports, at
        most 1,000). A framing error: 400 `invalidMessage`, nothing stored. Otherwise 200,
        `application/json`, one outcome per report once the accepted ones are committed.

    PUT  /tasks/T/collection_jobs/J                  leader; the collector's bearer token
        body `application/dap-collect-req` (CollectionReq: a time-interval Query, the empty
        aggregation parameter). janus_collector wants exactly 201 (a 200 is an error). The
        interval's start and duration are multiples of the time precision, the duration at
        least one (400 `batchInvalid`); an overlap with a collected batch: 400
        `batchOverlap`; the same job id with another body: 409.
    POST /tasks/T/collection_jobs/J                  leader; the collector's token
        empty body (`Content-Length: 0`). 202 (with `Retry-After`) while the job runs; then
        200 with `application/dap-collection`: a Collection (report count, the smallest
        interval of whole time-precision steps holding the reports, the leader's and the
        helper's aggregate shares sealed to the collector with info
        `"dap-09 aggregate share" || role || 0x00` and AAD
        `AggregateShareAad(task id, aggregation parameter, BatchSelector(the query's
        interval))`). A failed job: its problem document; a deleted one: 204.
    DELETE /tasks/T/collection_jobs/J                leader; the collector's token. 204.

    PUT  /tasks/T/aggregation_jobs/J                 helper; the aggregator token
        body `application/dap-aggregation-job-init-req` (empty aggregation parameter,
        time-interval partial batch selector, a PrepareInit per report: its report share and
        the leader's ping-pong `initialize` message). 201 with
        `application/dap-aggregation-job-resp`: a PrepareResp per report, in order —
        `continue` with the helper's ping-pong `finish` message (Prio3 has one round, so the
        job ends here), or `reject` with a PrepareError.
    POST /tasks/T/aggregate_shares                   helper; the aggregator token
        body `application/dap-aggregate-share-req` (BatchSelector, aggregation parameter,
        report count, checksum = XOR of SHA-256(report id)). 200 with
        `application/dap-aggregate-share`; mismatching count or checksum: 400
        `batchMismatch`. Idempotent: the same request, the same answer.

    GET  /health                                     both; liveness and the schema version
        503 (`"status": "failing"`) on a leader whose ingest writer is broken
        (`zeenot.prio.dap_ingest`): its uploads are answered 503 too, so restart it.

Tokens travel as `Authorization: Bearer TOKEN` (janus's `AuthenticationToken::Bearer`) or as
`DAP-Auth-Token: TOKEN` (its `DapAuth`); a missing or wrong one is 403 `unauthorizedRequest`.
Errors are problem documents (`application/problem+json`, DAP's error URNs, `taskid`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from zeenot.errors import MalformedInput
from zeenot.prio import dap_codec as codec
from zeenot.prio import dap_http as http
from zeenot.prio import dap_stats as stats
from zeenot.prio.dap_drive import Driver, load_tasks
from zeenot.prio.dap_helper import Helper
from zeenot.prio.dap_http import DapError
from zeenot.prio.dap_leader import JOB_SIZE, Leader
from zeenot.prio.dap_store import DapStore
from zeenot.prio.tasks import TASK_ID_BYTES, Task, unb64url
from zeenot.runtime.store import Store

ROLES = ("leader", "helper")


def build(
    role: str,
    tasks: dict[str, Task],
    store: Store,
    *,
    job_size: int = JOB_SIZE,
    run_jobs: bool = True,
) -> Starlette:
    """The aggregator's ASGI application; with `run_jobs`, the leader's driver
    (`zeenot.prio.dap_drive`) runs in this process while it is up (without, a `zeenot prio
    drive` process beside it aggregates the reports)."""
    if role not in ROLES:
        raise MalformedInput(f"--role is leader or helper, not {role!r}")
    dstore = DapStore(store)
    dstore.ensure_hpke_key(codec.generate_hpke)
    config_list = codec.hpke_config_list([config for _, config, _ in dstore.hpke_keys()])

    async def hpke_config(request: Request) -> Response:
        task_id = request.query_params.get("task_id")
        if task_id is None:
            raise DapError(400, "missingTaskID", "give the task id: ?task_id=")
        try:
            unb64url(task_id, "task_id", TASK_ID_BYTES)
        except MalformedInput as exc:
            raise DapError(400, "invalidMessage", str(exc)) from None
        if task_id not in tasks:
            raise DapError(400, "unrecognizedTask", "this aggregator has no such task")
        headers = {"cache-control": "max-age=86400"}
        return http.encoded(config_list, http.HPKE_CONFIG_LIST, **headers)

    async def health(_: Request) -> Response:
        version = await run_in_threadpool(store.schema_version)
        doc: dict[str, object] = {"status": "ok", "role": role, "schema": version}
        if leader is not None:
            doc["ingest_restarts"] = leader.ingest.restarts
            if leader.ingest.broken is not None:  # uploads cannot be stored: restart me
                doc.update(status="failing", detail=leader.ingest.broken)
                return JSONResponse(doc, status_code=503)
        return JSONResponse(doc)

    async def refused(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, DapError)
        return exc.response()

    routes = [Route("/health", health), Route("/hpke_config", hpke_config)]
    leader: Leader | None = None
    driver: Driver | None = None
    if role == "leader":
        leader = Leader(tasks, dstore, job_size)
        if run_jobs:
            driver = Driver(leader, store)
        jobs = "/tasks/{task_id}/collection_jobs/{job_id}"
        routes += [
            Route("/tasks/{task_id}/reports", leader.upload, methods=["PUT"]),
            Route("/tasks/{task_id}/reports:batch", leader.upload_batch, methods=["POST"]),
            Route(jobs, leader.put_collection_job, methods=["PUT"]),
            Route(jobs, leader.poll_collection_job, methods=["POST"]),
            Route(jobs, leader.delete_collection_job, methods=["DELETE"]),
        ]
    else:
        helper = Helper(tasks, dstore)
        routes += [
            Route(
                "/tasks/{task_id}/aggregation_jobs/{job_id}",
                helper.aggregation_job,
                methods=["PUT"],
            ),
            Route("/tasks/{task_id}/aggregate_shares", helper.aggregate_share, methods=["POST"]),
        ]

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        watch = asyncio.create_task(stats.watch_loop()) if stats.ENABLED else None
        if driver is not None:
            driver.start()
        try:
            yield
        finally:
            if driver is not None:
                await run_in_threadpool(driver.stop)
            if leader is not None:
                await run_in_threadpool(leader.close)
            if watch is not None:
                watch.cancel()
            stats.dump(role)

    return Starlette(routes=routes, exception_handlers={DapError: refused}, lifespan=lifespan)


def create_app() -> Starlette:
    """The uvicorn factory: the configuration comes from `zeenot prio serve`'s environment."""
    env = os.environ
    tasks = load_tasks([p for p in env["ZEENOT_PRIO_TASKS"].split(os.pathsep) if p])
    job_size = int(env.get("ZEENOT_PRIO_JOB_SIZE", str(JOB_SIZE)))
    run_jobs = env.get("ZEENOT_PRIO_DRIVE", "1") != "0"
    store = Store(env["ZEENOT_PRIO_DB"])
    return build(env["ZEENOT_PRIO_ROLE"], tasks, store, job_size=job_size, run_jobs=run_jobs)


def serve(
    role: str,
    task_paths: list[str],
    db: str,
    host: str,
    port: int,
    job_size: int,
    workers: int = 1,
    drive: bool = True,
) -> int:
    import uvicorn

    if role not in ROLES:
        raise MalformedInput(f"--role is leader or helper, not {role!r}")
    if not 1 <= job_size <= 10_000:
        raise MalformedInput("--job-size is from 1 to 10000 reports")
    if not 1 <= workers <= 64:
        raise MalformedInput("--workers is from 1 to 64")
    if not drive and role != "leader":
        raise MalformedInput("--no-drive is for a leader (a helper drives no jobs)")
    paths = [str(Path(p).resolve()) for p in task_paths]
    tasks = load_tasks(paths)  # a diagnostic here, before the server starts
    Store(db)  # migrated once, before the server starts
    os.environ.update(
        ZEENOT_PRIO_TASKS=os.pathsep.join(paths),
        ZEENOT_PRIO_ROLE=role,
        ZEENOT_PRIO_DB=db,
        ZEENOT_PRIO_JOB_SIZE=str(job_size),
        ZEENOT_PRIO_DRIVE="1" if drive else "0",
    )
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    print(
        f"zeenot prio {role}: {len(tasks)} task(s) on http://{host}:{port}/",
        file=sys.stderr,
        flush=True,
    )
    uvicorn.run(
        "zeenot.prio.dap_server:create_app",
        factory=True,
        host=host,
        port=port,
        log_level="warning",
        workers=workers,
    )
    return 0
