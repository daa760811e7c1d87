"""What an operator watches: Prometheus metrics of this process, and its access log.

`GET /metrics` answers the Prometheus text exposition format (version 0.0.4), written here by
hand (a few counters and histograms need no dependency):

* `zeenot_submissions_accepted_total{app, outcome}`: runs stored (`stored`) and retries of a
  stored run answered with its result (`retry`);
* `zeenot_submissions_refused_total{app, status, reason}`: refusals by HTTP status and a short
  reason code of ours (`REASONS`), never the client's words, so the label set stays bounded;
* `zeenot_verify_seconds{app}`: checking one submission's proofs (waiting for a batch included);
* `zeenot_store_seconds{app}`: the transaction that stores an accepted run;
* `zeenot_verify_batch_size{backend}`: how many proofs each verifier check covered
  (runtime/batching.py: batches form under concurrent load);
* `zeenot_http_request_seconds{method, route}` and `zeenot_http_requests_total{method, route,
  status}`: every request, by its route's template (`/api/apps/{app}/submissions/{sid}`), never
  its raw path;
* `process_start_time_seconds`: when this process started (a restart resets the counters).

Each process has its own registry: with `zeenot serve --workers N` a scrape reaches whichever
process the kernel hands the connection to. To see every process, run N single-worker servers
on their own ports (behind the load balancer) and scrape each; their sums are the server's.

The access log (`AccessLog`, logger `zeenot.access`) is one line per request: the method, the
route's template (an application's name filled in, as it is ours), the status, the duration
and the bytes sent. No ids, tokens, query values, bodies or client addresses: nothing a client
chose or that says who it is.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import logging.handlers
import math
import queue
import re
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
SIZES = (1, 2, 4, 8, 16, 32, 64, 128, 256)

_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
_LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")


def _escape(value: str, quote: bool = True) -> str:
    out = value.replace("\\", "\\\\").replace("\n", "\\n")
    return out.replace('"', '\\"') if quote else out


def _number(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if math.isnan(value):
        return "NaN"
    return repr(float(value))


def _labels(names: tuple[str, ...], values: tuple[str, ...], extra: str = "") -> str:
    parts = [f'{n}="{_escape(v)}"' for n, v in zip(names, values, strict=True)]
    if extra:
        parts.append(extra)
    return "{" + ",".join(parts) + "}" if parts else ""


class _Metric:
    kind = ""

    def __init__(self, name: str, help: str, labels: tuple[str, ...] = ()):
        if not _NAME.fullmatch(name) or not all(_LABEL.fullmatch(n) for n in labels):
            raise ValueError(f"not a Prometheus metric name or label: {name} {labels}")
        self.name, self.help, self.labelnames = name, help, tuple(labels)
        self._lock = threading.Lock()

    def _key(self, labels: dict[str, Any]) -> tuple[str, ...]:
        if set(labels) != set(self.labelnames):
            raise ValueError(f"{self.name} takes {self.labelnames}, not {sorted(labels)}")
        return tuple(str(labels[n]) for n in self.labelnames)

    def header(self, name: str) -> list[str]:
        return [f"# HELP {name} {_escape(self.help, quote=False)}", f"# TYPE {name} {self.kind}"]


class Counter(_Metric):
    """A count that only grows; exposed as `NAME_total`."""

    kind = "counter"

    def __init__(self, name: str, help: str, labels: tuple[str, ...] = ()):
        super().__init__(name, help, labels)
        self._values: dict[tuple[str, ...], float] = {} if labels else {(): 0.0}

    def inc(self, amount: float = 1.0, **labels: Any) -> None:
        if amount < 0:
            raise ValueError("a counter only grows")
        key = self._key(labels)
        with self._lock:
            self._values[key] = self._values.get(key, 0.0) + amount

    def value(self, **labels: Any) -> float:
        with self._lock:
            return self._values.get(self._key(labels), 0.0)

    def lines(self) -> list[str]:
        name = self.name + "_total"
        with self._lock:
            items = sorted(self._values.items())
        out = self.header(name)
        out += [f"{name}{_labels(self.labelnames, k)} {_number(v)}" for k, v in items]
        return out


class Gauge(_Metric):
    kind = "gauge"

    def __init__(self, name: str, help: str, value: float = 0.0):
        super().__init__(name, help)
        self._value = value

    def lines(self) -> list[str]:
        return [*self.header(self.name), f"{self.name} {_number(self._value)}"]


class Histogram(_Metric):
    """Observations counted in cumulative buckets (`le`), with their sum and count."""

    kind = "histogram"

    def __init__(
        self, name: str, help: str, labels: tuple[str, ...] = (), buckets: tuple[float, ...] = ()
    ):
        super().__init__(name, help, labels)
        if "le" in labels or list(buckets) != sorted(set(buckets)) or not buckets:
            raise ValueError("a histogram has increasing buckets and no `le` label of its own")
        self.buckets = (*buckets, math.inf)
        self._values: dict[tuple[str, ...], tuple[list[int], list[float]]] = {}

    def observe(self, value: float, **labels: Any) -> None:
        key = self._key(labels)
        with self._lock:
            counts, total = self._values.setdefault(key, ([0] * len(self.buckets), [0.0]))
            for i, bound in enumerate(self.buckets):
                if value <= bound:
                    counts[i] += 1
                    break
            total[0] += value

    @contextlib.contextmanager
    def time(self, **labels: Any) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.observe(time.perf_counter() - started, **labels)

    def count(self, **labels: Any) -> int:
        with self._lock:
            found = self._values.get(self._key(labels))
            return sum(found[0]) if found else 0

    def lines(self) -> list[str]:
        with self._lock:
            items = sorted((k, (list(c), t[0])) for k, (c, t) in self._values.items())
        out = self.header(self.name)
        for key, (counts, total) in items:
            running = 0
            for bound, n in zip(self.buckets, counts, strict=True):
                running += n
                le = f'le="{_number(bound)}"'
                out.append(f"{self.name}_bucket{_labels(self.labelnames, key, le)} {running}")
            out.append(f"{self.name}_sum{_labels(self.labelnames, key)} {_number(total)}")
            out.append(f"{self.name}_count{_labels(self.labelnames, key)} {running}")
        return out


class Registry:
    def __init__(self) -> None:
        self.metrics: list[Counter | Gauge | Histogram] = []

    def add(self, metric: Any) -> Any:
        self.metrics.append(metric)
        return metric

    def exposition(self) -> str:
        return "".join(line + "\n" for m in self.metrics for line in m.lines())


# ---- this process's metrics -----------------------------------------------------------------

REGISTRY = Registry()
ACCEPTED = REGISTRY.add(
    Counter(
        "zeenot_submissions_accepted",
        "Submissions accepted: stored, or a retry answered with the stored result.",
        ("app", "outcome"),
    )
)
REFUSED = REGISTRY.add(
    Counter(
        "zeenot_submissions_refused",
        "Submissions refused, by HTTP status and reason code (see docs/runtime.md).",
        ("app", "status", "reason"),
    )
)
VERIFY_SECONDS = REGISTRY.add(
    Histogram(
        "zeenot_verify_seconds",
        "Seconds to verify one submission's proofs, waiting for a batch included.",
        ("app",),
        SECONDS,
    )
)
STORE_SECONDS = REGISTRY.add(
    Histogram(
        "zeenot_store_seconds",
        "Seconds of the transaction that stores an accepted submission.",
        ("app",),
        SECONDS,
    )
)
BATCH_SIZE = REGISTRY.add(
    Histogram(
        "zeenot_verify_batch_size",
        "Proofs checked together by one verifier call (batches form under concurrent load).",
        ("backend",),
        SIZES,
    )
)
REQUEST_SECONDS = REGISTRY.add(
    Histogram(
        "zeenot_http_request_seconds",
        "Seconds from a request's arrival to the end of its answer, by route template.",
        ("method", "route"),
        SECONDS,
    )
)
REQUESTS = REGISTRY.add(
    Counter(
        "zeenot_http_requests",
        "Requests answered, by route template and status.",
        ("method", "route", "status"),
    )
)
DROPPED = REGISTRY.add(
    Counter(
        "zeenot_access_log_dropped",
        "Access-log lines dropped because stderr was not taking them fast enough.",
    )
)
REGISTRY.add(
    Gauge("process_start_time_seconds", "When this process started (Unix time).", time.time())
)

# The reason codes of refusals: a short word of ours per kind of refusal (bounded, so a label).
REASONS = (
    "size",  # 413: over --max-body
    "timeout",  # 408: the body did not arrive in time
    "content_type",  # 415
    "disconnect",  # the client went away mid-body
    "auth",  # 401/403: unsigned, unknown signer, bad signature, replayed nonce
    "app",  # 404: no such application here
    "shape",  # 400/422: not a submission of this application's shape (fields, id, proofs)
    "input",  # a public input of `main` of the wrong type, or missing
    "proof",  # a proof malformed or not verifying
    "context",  # a proof bound to another run, server or version
    "public_input",  # a proof's public input differs from the server's copy
    "worker",  # a server worker refused the verified values
    "replay",  # 409: a proof stored before
    "conflict",  # 409: an id used for another submission
    "period",  # 409: the client's run of this period is stored already
    "other",
)
_BY_TEXT = (
    ("shape", "not a zeenot submission"),
    ("shape", "a submission has exactly the fields"),
    ("shape", "`id` is 1 to 64"),
    ("shape", "`proofs` and `inputs` are objects"),
    ("disconnect", "disconnected"),
    ("context", "belongs to another run"),
    ("public_input", ": public input `"),
    ("worker", "refused the values"),
    ("worker", "failed on the values"),
    ("replay", "replayed proof"),
    ("conflict", "was used for another submission"),
    ("period", "one run per client per"),
    ("proof", "missing proof"),
    ("proof", "unexpected proof"),
    ("proof", "proof `"),
    ("input", "input"),
)


def reason_code(status: int, reason: str) -> str:
    """A refusal's reason as a bounded label: its code in `REASONS` (never the reason's text,
    which can quote what the client sent)."""
    if status == 413:
        return "size"
    if status == 408:
        return "timeout"
    if status == 415:
        return "content_type"
    if status in (401, 403):
        return "auth"
    if status == 404:
        return "app"
    for code, text in _BY_TEXT:
        if text in reason:
            return code
    return "shape" if status in (400, 422) else "other"


def refused(app: str, status: int, reason: str) -> None:
    REFUSED.inc(app=app, status=str(status), reason=reason_code(status, reason))


# ---- the access log -------------------------------------------------------------------------

access = logging.getLogger("zeenot.access")


LOG_QUEUE = 10_000  # access-log lines waiting for stderr before new ones are dropped


class _Dropping(logging.handlers.QueueHandler):
    """Hands lines to the writer thread; drops them (counted) when it is `LOG_QUEUE` behind."""

    def enqueue(self, record: logging.LogRecord) -> None:
        try:
            self.queue.put_nowait(record)
        except queue.Full:
            DROPPED.inc()


def log_to_stderr() -> None:
    """Send the access log to stderr, one line per request (once per process). A thread
    writes the lines: a stderr that is slow or never read (a pipe nobody drains) drops lines
    and never stalls the server's event loop."""
    if not access.handlers:
        handler = logging.StreamHandler(sys.stderr)
        formatter = logging.Formatter("%(asctime)s %(message)s", "%Y-%m-%dT%H:%M:%SZ")
        formatter.converter = time.gmtime
        handler.setFormatter(formatter)
        lines: queue.Queue[logging.LogRecord] = queue.Queue(LOG_QUEUE)
        access.addHandler(_Dropping(lines))
        writer = logging.handlers.QueueListener(lines, handler)
        writer.start()
        atexit.register(writer.stop)
    access.setLevel(logging.INFO)
    access.propagate = False


_CONVERTOR = re.compile(r":[a-z]+}")


def route_template(scope: dict[str, Any], apps: frozenset[str]) -> str:
    """The matched route's template (`-` if none matched), with `{app}` filled in where it
    names an application served here (our name, not the client's)."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if path is None:
        return "-"
    template = _CONVERTOR.sub("}", path)
    if not hasattr(route, "endpoint"):  # a Mount: files below it
        template = template.rstrip("/") + "/{path}"
    app = scope.get("path_params", {}).get("app")
    if app in apps:
        template = template.replace("{app}", app)
    return template


class AccessLog:
    """ASGI middleware: one access-log line and the request metrics per HTTP request."""

    def __init__(self, app: Any, apps: frozenset[str] = frozenset(), log: bool = True):
        self.app, self.apps, self.log = app, apps, log

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status, sent = 500, 0

        async def counting(message: dict[str, Any]) -> None:
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = int(message["status"])
            elif message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, counting)
        finally:
            took = time.perf_counter() - started
            method = scope["method"] if scope["method"] in _METHODS else "OTHER"
            route = route_template(scope, self.apps)
            metric_route = route_template(scope, frozenset())
            REQUEST_SECONDS.observe(took, method=method, route=metric_route)
            REQUESTS.inc(method=method, route=metric_route, status=str(status))
            if self.log:
                access.info("%s %s %d %.1fms %dB", method, route, status, took * 1000, sent)


_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
