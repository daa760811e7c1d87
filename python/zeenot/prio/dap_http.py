"""The HTTP pieces both DAP-09 aggregators share: problem documents, exact media types, bounded
bodies, base64url ids in paths, bearer tokens, and the HPKE configuration resource.

Errors are RFC 9457 problem documents (`application/problem+json`) with DAP's
`urn:ietf:params:ppm:dap:error:*` types and a `taskid` member, as janus_core's
`HttpErrorResponse` parses them: `DapError(400, "invalidMessage", detail)`.
"""

from __future__ import annotations

import os
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from zeenot.errors import MalformedInput
from zeenot.prio.tasks import Task, request_token, unb64url
from zeenot.runtime.bodies import BodyRefused, bounded_body

PROBLEM_MEDIA_TYPE = "application/problem+json"
DAP_ERROR = "urn:ietf:params:ppm:dap:error:"
MAX_BODY = int(os.environ.get("ZEENOT_PRIO_MAX_BODY", str(64 << 20)))  # an aggregation job

# media types, exactly as janus_messages 0.7.145 declares them (`MEDIA_TYPE`)
HPKE_CONFIG_LIST = "application/dap-hpke-config-list"
REPORT = "application/dap-report"
AGG_JOB_INIT_REQ = "application/dap-aggregation-job-init-req"
AGG_JOB_CONTINUE_REQ = "application/dap-aggregation-job-continue-req"
AGG_JOB_RESP = "application/dap-aggregation-job-resp"
AGG_SHARE_REQ = "application/dap-aggregate-share-req"
AGG_SHARE = "application/dap-aggregate-share"
COLLECT_REQ = "application/dap-collect-req"
COLLECTION = "application/dap-collection"

TITLES = {
    "invalidMessage": "The message type for a response was incorrect or the payload was malformed.",
    "unrecognizedTask": "An endpoint received a message with an unknown task ID.",
    "unrecognizedAggregationJob": "An endpoint received a message with an unknown aggregation "
    "job ID.",
    "outdatedConfig": "The message was generated using an outdated configuration.",
    "reportRejected": "Report could not be processed.",
    "reportTooEarly": "Report could not be processed because it arrived too early.",
    "batchInvalid": "The batch implied by the query is invalid.",
    "invalidBatchSize": "The number of reports included in the batch is invalid.",
    "batchQueriedTooManyTimes": "The batch described by the query has been queried too many times.",
    "batchMismatch": "Leader and helper disagree on reports aggregated in a batch.",
    "unauthorizedRequest": "The request's authorization is not valid.",
    "missingTaskID": "HPKE configuration was requested without specifying a task ID.",
    "stepMismatch": "The leader and helper are not on the same step of VDAF preparation.",
    "batchOverlap": "The queried batch overlaps with a previously queried batch.",
}


class DapError(Exception):
    """A request refused: `status` and, for DAP's own errors, the problem type's short name."""

    def __init__(
        self, status: int, kind: str | None, detail: str, task_id: str | None = None
    ) -> None:
        super().__init__(detail)
        self.status, self.kind, self.detail, self.task_id = status, kind, detail, task_id

    def response(self) -> Response:
        if self.kind is None:
            return JSONResponse({"detail": self.detail}, status_code=self.status)
        doc: dict[str, Any] = {
            "type": DAP_ERROR + self.kind,
            "title": TITLES.get(self.kind, self.kind),
            "status": self.status,
            "detail": self.detail,
        }
        if self.task_id is not None:
            doc["taskid"] = self.task_id
        return JSONResponse(doc, status_code=self.status, media_type=PROBLEM_MEDIA_TYPE)


def task_of(request: Request, tasks: dict[str, Task]) -> Task:
    task_id = request.path_params["task_id"]
    task = tasks.get(task_id)
    if task is None:
        raise DapError(400, "unrecognizedTask", "this aggregator has no such task")
    return task


def path_id(request: Request, name: str, size: int, task: Task) -> str:
    """A base64url id from the path (16 bytes for jobs), checked and returned as given."""
    text = request.path_params[name]
    try:
        unb64url(text, name, size)
    except MalformedInput as exc:
        raise DapError(400, "invalidMessage", str(exc), task.task_id) from None
    return str(text)


def authorize(request: Request, task: Task, token_sha256: str | None, plain: str | None) -> None:
    """The request's bearer token (`Authorization: Bearer` or `DAP-Auth-Token`) must be the
    task's: given as its SHA-256 (the collector's) or in the clear (the aggregators')."""
    from zeenot.prio.tasks import check_token, token_digest

    given = request_token(request.headers)
    digest = token_sha256 if token_sha256 is not None else token_digest(plain or "")
    if not check_token(given, digest):
        raise DapError(403, "unauthorizedRequest", "missing or wrong bearer token", task.task_id)


async def body(request: Request, media_type: str, task: Task, limit: int = MAX_BODY) -> bytes:
    """The request body, of exactly `media_type` (415 otherwise), within `runtime/bodies.py`'s
    bounds (refused past `limit` bytes before it is all read, and past its timeout)."""
    given = request.headers.get("content-type")
    if given != media_type:
        raise DapError(415, None, f"the body's media type is {media_type}, not {given!r}")
    try:
        return await bounded_body(request, limit, f"a body is at most {limit} bytes")
    except BodyRefused as refusal:
        raise DapError(refusal.status, None, refusal.reason) from None


def encoded(data: bytes, media_type: str, status: int = 200, **headers: str) -> Response:
    return Response(data, status_code=status, media_type=media_type, headers=headers or None)
