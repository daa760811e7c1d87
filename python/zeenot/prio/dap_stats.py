"""Where a leader's upload spends its time: timers for measurements, off unless asked for.

With `ZEENOT_PRIO_STATS=PREFIX` in an aggregator's environment, the leader's processes keep the
duration of each step of an upload (and of the driver's database transactions) in memory and
write their summary (count, mean, p50, p90, p99, max, in milliseconds) to
`PREFIX.<what>.<pid>.json` when they stop. Without it `record` returns at once and nothing is
kept or logged; no request's content is ever recorded, only durations.

The names (`zeenot.prio.dap_leader`, `dap_ingest`, `dap_store`, `dap_drive`):

    upload.handler   an upload's handler, from its first line to its answer
    upload.body      reading the request body
    upload.check     decoding and checking the reports (in the thread pool: its wait included)
    upload.commit    from handing the uploads to the writer to the handler resuming
    ingest.queue     from the hand-over to the writer thread taking the uploads
    ingest.store     the writer's transaction (reads, insert, commit)
    store.checks     the checks of a transaction of uploads before its insert (the batch lock
                     on PostgreSQL, the claimed batches, the report ids already stored)
    store.insert     the insert of a transaction of uploads (on SQLite: waiting for the write
                     lock, which the first write of a transaction takes, included)
    store.commit     its commit (an fsync on SQLite)
    store.analyze    PostgreSQL's `ANALYZE` of the reports table (a thread of its own)
    ingest.wake      from the writer resolving an upload's future to its handler running again
                     (the event loop's and the GIL's wait)
    loop.lag         how late a 5 ms timer of the event loop fires (its responsiveness)
    job.assign       the driver's transaction giving pending reports to a job
    job.run          one aggregation job, end to end
    job.finish       its transaction(s) recording the reports' outcomes
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

ENV = "ZEENOT_PRIO_STATS"
_PREFIX = os.environ.get(ENV, "")
ENABLED = bool(_PREFIX)
_CAP = 2_000_000  # samples kept per name, at most
_samples: dict[str, list[float]] = {}


def record(name: str, seconds: float) -> None:
    """Keep one duration (when enabled)."""
    if not ENABLED:
        return
    got = _samples.setdefault(name, [])  # setdefault and append are atomic under the GIL
    if len(got) < _CAP:
        got.append(seconds)


def since(name: str, start: float) -> None:
    """Keep the time from `start` (a `time.perf_counter()`) to now."""
    if ENABLED:
        record(name, time.perf_counter() - start)


def summary() -> dict[str, dict[str, float]]:
    """Per name: count, mean, p50, p90, p99 and max, in milliseconds."""
    out: dict[str, dict[str, float]] = {}
    for name, values in sorted(_samples.items()):
        if not values:
            continue
        ordered = sorted(values)
        n = len(ordered)

        def at(p: float, ordered: list[float] = ordered, n: int = n) -> float:
            return ordered[min(n - 1, int(p * n))] * 1e3

        out[name] = {
            "count": n,
            "mean": sum(ordered) / n * 1e3,
            "p50": at(0.5),
            "p90": at(0.9),
            "p99": at(0.99),
            "max": ordered[-1] * 1e3,
        }
    return out


def dump(what: str) -> Path | None:
    """Write the summary to `PREFIX.<what>.<pid>.json` (when enabled); its path."""
    if not ENABLED:
        return None
    path = Path(f"{_PREFIX}.{what}.{os.getpid()}.json")
    path.write_text(json.dumps(summary(), indent=2) + "\n")
    return path


async def watch_loop(period: float = 0.005) -> None:
    """Record how late the event loop wakes a `period`-second timer, until cancelled."""
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + period
        await asyncio.sleep(period)
        record("loop.lag", max(0.0, loop.time() - due))
