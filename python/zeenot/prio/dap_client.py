"""A DAP-09 client and collector in Python, doing what `janus_client` and `janus_collector` do
(the interop harness checks zeenot's aggregators against those; this one serves the tests that
need no Rust toolchain, the load test, and examples).

    client = Client(task_id, leader, helper, vdaf, time_precision)
    client.upload(measurement)                     # shard, seal, PUT …/reports
    client.upload_batch(measurements)              # POST …/reports:batch (zeenot's extension)
    collector = Collector(task_id, leader, vdaf, credential)
    result, count = collector.collect(start, duration)
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any

import httpx

from zeenot.prio import dap_codec as codec
from zeenot.prio import dap_http as http
from zeenot.prio.dap_batch import BATCH_MEDIA_TYPE, MAX_REPORTS, BatchOutcome, encode_batch
from zeenot.prio.tasks import b64url, unb64url
from zeenot.prio.vdaf import Vdaf


class DapRefused(Exception):
    """An aggregator answered with an error: its status and problem type (short name)."""

    def __init__(self, status: int, kind: str | None, detail: str):
        super().__init__(f"{status} {kind or ''} {detail}".strip())
        self.status, self.kind, self.detail = status, kind, detail


def _refused(answer: httpx.Response) -> DapRefused:
    kind = detail = None
    if answer.headers.get("content-type") == http.PROBLEM_MEDIA_TYPE:
        doc = answer.json()
        kind = str(doc.get("type", "")).removeprefix(http.DAP_ERROR)
        detail = doc.get("detail")
    return DapRefused(answer.status_code, kind, str(detail or answer.text[:200]))


class Client:
    def __init__(
        self,
        task_id: str,
        leader: str,
        helper: str,
        vdaf: dict[str, Any],
        time_precision: int,
        http_client: httpx.Client | None = None,
    ):
        self.task_id = task_id
        self.leader, self.helper = leader.rstrip("/") + "/", helper.rstrip("/") + "/"
        self.vdaf = Vdaf.from_description(vdaf)
        self.time_precision = time_precision
        self.http = http_client or httpx.Client(timeout=30)
        self._configs: tuple[bytes, bytes] | None = None

    def configs(self) -> tuple[bytes, bytes]:
        """Both aggregators' first HPKE config (GET /hpke_config?task_id=…), fetched once."""
        if self._configs is None:
            got = []
            for base in (self.leader, self.helper):
                answer = self.http.get(base + "hpke_config", params={"task_id": self.task_id})
                if answer.status_code != 200:
                    raise _refused(answer)
                if answer.headers.get("content-type") != http.HPKE_CONFIG_LIST:
                    raise DapRefused(answer.status_code, None, "not an HPKE config list")
                got.append(codec.decode_hpke_config_list(answer.content)[0])
            self._configs = (got[0], got[1])
        return self._configs

    def report(
        self, measurement: Any, at: int | None = None, report_id: bytes | None = None
    ) -> bytes:
        """An encoded Report of `measurement` at time `at` (rounded down to the time precision)."""
        report_id = report_id or secrets.token_bytes(16)
        at = int(time.time() if at is None else at)
        at -= at % self.time_precision
        public_share, shares = self.vdaf.shard(measurement, report_id)
        return codec.encode_report(
            unb64url(self.task_id, "task_id", 32),
            report_id,
            at,
            bytes(public_share),
            (bytes(shares[0]), bytes(shares[1])),
            self.configs(),
        )

    def put(self, report: bytes) -> int:
        """PUT an encoded report; its status (`DapRefused` for an error)."""
        answer = self.http.put(
            f"{self.leader}tasks/{self.task_id}/reports",
            content=report,
            headers={"content-type": http.REPORT},
        )
        if answer.status_code >= 300:
            raise _refused(answer)
        return answer.status_code

    def upload(self, measurement: Any, at: int | None = None) -> int:
        return self.put(self.report(measurement, at))

    def put_batch(self, reports: list[bytes]) -> list[BatchOutcome]:
        """POST encoded reports (at most `dap_batch.MAX_REPORTS`) to the leader's batch upload
        (zeenot's extension): one outcome per report, in order; `outcome.stored` says whether
        the leader holds it. A refusal of the whole batch is a `DapRefused` (then no report is
        acknowledged: send the same batch again after a 5xx or a network error)."""
        answer = self.http.post(
            f"{self.leader}tasks/{self.task_id}/reports:batch",
            content=encode_batch(reports),
            headers={"content-type": BATCH_MEDIA_TYPE},
        )
        if answer.status_code != 200:
            raise _refused(answer)
        if answer.headers.get("content-type") != "application/json":
            raise DapRefused(answer.status_code, None, "the batch answer is not JSON")
        entries = answer.json().get("reports")
        if not isinstance(entries, list) or len(entries) != len(reports):
            raise DapRefused(answer.status_code, None, "the batch answer lists other reports")
        return [BatchOutcome.from_json(e, http.DAP_ERROR) for e in entries]

    def upload_batch(
        self, measurements: list[Any], at: int | None = None, size: int = MAX_REPORTS
    ) -> list[BatchOutcome]:
        """Shard, seal and upload `measurements` in batches of at most `size` reports."""
        if not 1 <= size <= MAX_REPORTS:
            raise ValueError(f"a batch is 1 to {MAX_REPORTS} reports")
        reports = [self.report(m, at) for m in measurements]
        outcomes: list[BatchOutcome] = []
        for i in range(0, len(reports), size):
            outcomes += self.put_batch(reports[i : i + size])
        return outcomes


@dataclass(frozen=True)
class Collection:
    result: Any
    report_count: int
    interval: tuple[int, int]


class Collector:
    def __init__(
        self,
        task_id: str,
        leader: str,
        vdaf: dict[str, Any],
        credential: dict[str, Any],
        http_client: httpx.Client | None = None,
    ):
        self.task_id = task_id
        self.leader = leader.rstrip("/") + "/"
        self.vdaf = Vdaf.from_description(vdaf)
        self.token = str(credential["token"])
        public_key = unb64url(credential["public_key"], "the credential's public_key")
        self.config = codec.hpke_config(int(credential["id"]), 0x20, 1, 1, public_key)
        self.private_key = unb64url(credential["private_key"], "the credential's private_key")
        self.http = http_client or httpx.Client(timeout=30)

    def _url(self, job_id: str) -> str:
        return f"{self.leader}tasks/{self.task_id}/collection_jobs/{job_id}"

    def _headers(self, **more: str) -> dict[str, str]:
        return {"authorization": f"Bearer {self.token}", **more}

    def start(self, start: int, duration: int, job_id: str | None = None) -> str:
        job_id = job_id or b64url(secrets.token_bytes(16))
        answer = self.http.put(
            self._url(job_id),
            content=codec.encode_collection_req(start, duration),
            headers=self._headers(**{"content-type": http.COLLECT_REQ}),
        )
        if answer.status_code != 201:
            raise _refused(answer)
        return job_id

    def poll(self, job_id: str, start: int, duration: int) -> Collection | None:
        answer = self.http.post(self._url(job_id), headers=self._headers())
        if answer.status_code == 202:
            return None
        if answer.status_code != 200 or answer.headers.get("content-type") != http.COLLECTION:
            raise _refused(answer)
        count, first, length, leader, helper = codec.decode_collection(answer.content)
        task_id = unb64url(self.task_id, "task_id", 32)
        shares = [
            codec.open_aggregate_share(
                self.config, self.private_key, role, sealed, task_id, start, duration
            )
            for role, sealed in ((codec.LEADER, leader), (codec.HELPER, helper))
        ]
        result = self.vdaf.unshard(shares, count)
        return Collection(result, count, (first, length))

    def collect(self, start: int, duration: int, timeout: float = 60.0) -> Collection:
        job_id = self.start(start, duration)
        deadline = time.monotonic() + timeout
        while True:
            got = self.poll(job_id, start, duration)
            if got is not None:
                self.http.delete(self._url(job_id), headers=self._headers())
                return got
            if time.monotonic() > deadline:
                raise TimeoutError("the collection job did not finish in time")
            time.sleep(0.2)
