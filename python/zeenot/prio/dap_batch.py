"""Batch upload, a zeenot extension to DAP-09 (not in the draft; Janus does not speak it).

DAP uploads one report per `PUT /tasks/{task}/reports`; a client with many reports pays an HTTP
exchange, and the leader an HTTP request, for each. `POST /tasks/{task}/reports:batch` carries up
to `MAX_REPORTS` reports, each exactly the bytes DAP's upload would carry, in one body of media
type `BATCH_MEDIA_TYPE`:

    uint32 count;                       -- big-endian, 1 to MAX_REPORTS
    struct { uint32 length; opaque report[length]; } reports[count];   -- length 1 to MAX_REPORT

and nothing after the last report. The framing is checked whole before anything else (a bad
count, a length past the bounds or past the body, trailing bytes: 400 `invalidMessage`, nothing
stored). Each report is then judged as a single upload would be, with the same checks and the
same problem types, and the reports that pass are stored in one transaction before the answer.
The answer (200, `application/json`) lists one outcome per report, in order:

    {"reports": [{"outcome": "accepted", "status": 201, "report_id": "…"},
                 {"outcome": "repeated", "status": 201, "report_id": "…"},
                 {"outcome": "replayed", "status": 400, "type": "urn:…:reportRejected", …},
                 {"outcome": "rejected", "status": 400, "type": "urn:…:invalidMessage", …}]}

`accepted`: stored now; `repeated`: this very report was stored before (DAP's retry: counted
once); both are what a single upload answers 201, and such a report is stored. `replayed`: its id
belongs to another stored report (DAP's "MUST ignore"); `rejected`: refused by a check
(`invalidMessage`, `outdatedConfig`, `reportTooEarly`, `reportRejected` for a collected batch).
`status`, `type` and `detail` are what the single upload's answer would have been. An error of
the whole request (unknown task, media type, body too large, the database away) is answered as
for a single upload, and then no report of the batch is acknowledged.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from typing import Any

BATCH_MEDIA_TYPE = "application/vnd.zeenot.dap-report-batch"
MAX_REPORTS = int(os.environ.get("ZEENOT_PRIO_MAX_BATCH", "1000"))
MAX_REPORT = 1 << 20  # bytes of one report (as for a single upload)
MAX_BATCH_BODY = int(os.environ.get("ZEENOT_PRIO_MAX_BATCH_BODY", str(32 << 20)))
OUTCOMES = ("accepted", "repeated", "replayed", "rejected")
STORED = frozenset({"accepted", "repeated"})


class BatchError(ValueError):
    """A batch body whose framing is wrong: refused whole."""


def encode_batch(reports: list[bytes]) -> bytes:
    """The body of a batch upload of these encoded reports."""
    if not 1 <= len(reports) <= MAX_REPORTS:
        raise BatchError(f"a batch holds 1 to {MAX_REPORTS} reports, not {len(reports)}")
    parts = [struct.pack(">I", len(reports))]
    for report in reports:
        if not 1 <= len(report) <= MAX_REPORT:
            raise BatchError(f"a report is 1 to {MAX_REPORT} bytes, not {len(report)}")
        parts += [struct.pack(">I", len(report)), report]
    return b"".join(parts)


def decode_batch(body: bytes, max_reports: int = MAX_REPORTS) -> list[bytes]:
    """The reports of a batch body, each checked against the bounds before it is sliced."""
    view = memoryview(body)
    if len(view) < 4:
        raise BatchError("a batch starts with its report count (4 bytes)")
    (count,) = struct.unpack_from(">I", view, 0)
    if not 1 <= count <= max_reports:
        raise BatchError(f"a batch holds 1 to {max_reports} reports, not {count}")
    if count * 5 > len(view) - 4:  # each report takes at least its length and one byte
        raise BatchError(f"a body of {len(view)} bytes cannot hold {count} reports")
    reports: list[bytes] = []
    at = 4
    for i in range(count):
        if at + 4 > len(view):
            raise BatchError(f"the batch ends before report {i}'s length")
        (length,) = struct.unpack_from(">I", view, at)
        at += 4
        if not 1 <= length <= MAX_REPORT:
            raise BatchError(f"report {i} is 1 to {MAX_REPORT} bytes, not {length}")
        if at + length > len(view):
            raise BatchError(f"the batch ends inside report {i}")
        reports.append(bytes(view[at : at + length]))
        at += length
    if at != len(view):
        raise BatchError(f"{len(view) - at} bytes follow the last report")
    return reports


@dataclass(frozen=True)
class BatchOutcome:
    """What the leader made of one report of a batch (the answer's entry, read back)."""

    outcome: str  # accepted, repeated, replayed, rejected
    status: int  # what a single upload would have answered
    report_id: str | None = None  # base64url, when the report decoded
    kind: str | None = None  # DAP's problem type, short name (reportRejected, …)
    detail: str | None = None

    @property
    def stored(self) -> bool:
        """Whether the leader holds this report (stored now or before)."""
        return self.outcome in STORED

    def to_json(self, problem_prefix: str) -> dict[str, Any]:
        doc: dict[str, Any] = {"outcome": self.outcome, "status": self.status}
        if self.report_id is not None:
            doc["report_id"] = self.report_id
        if self.kind is not None:
            doc["type"] = problem_prefix + self.kind
        if self.detail is not None:
            doc["detail"] = self.detail
        return doc

    @classmethod
    def from_json(cls, doc: Any, problem_prefix: str) -> BatchOutcome:
        if not isinstance(doc, dict) or doc.get("outcome") not in OUTCOMES:
            raise BatchError(f"not a batch outcome: {str(doc)[:100]}")
        status = doc.get("status")
        if not isinstance(status, int):
            raise BatchError("a batch outcome's status is an integer")
        kind = doc.get("type")
        if kind is not None:
            kind = str(kind).removeprefix(problem_prefix)
        rid = doc.get("report_id")
        detail = doc.get("detail")
        return cls(
            str(doc["outcome"]),
            status,
            None if rid is None else str(rid),
            kind,
            None if detail is None else str(detail),
        )
