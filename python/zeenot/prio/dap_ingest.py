"""Group commit for the leader's uploads: reports arriving together are stored in one
transaction, and each upload is answered only after the commit that stored it.

One writer thread takes the uploads waiting in its queue (about `MAX_BATCH`), stores them with
`DapStore.put_reports` (one commit, so one fsync on SQLite, for all of them) and then resolves each
submission's future with its answers (`stored`, `repeated`, `replayed`, `collected`) or with the
error the store raised. A submission is one report (DAP's PUT) or a client's batch
(`POST …/reports:batch`); a batch is never split across transactions. While it commits, the
next uploads queue up: under load the batches grow by themselves, and a lone upload waits for
no timer. "Stored before acknowledged" holds as before:
the HTTP answer awaits the future, and the future is resolved after the commit.

The writer is supervised, so an upload is always answered. A future whose waiter went away (a
client that disconnected: its handler cancelled, and the future with it) is skipped, not
resolved. Any other failure of a round fails that round's uploads with `IngestFailed` (the
leader answers 503: nothing was acknowledged, and janus_client retries a 5xx) and the writer
goes on; a writer thread that dies all the same (an exception that is not an `Exception`) fails
the uploads it held, and another writer takes over the queue, at most `MAX_RESTARTS` times in a
process. After that the ingest is broken: every upload queued or submitted fails at once with
`IngestFailed`, and the leader's `/health` answers 503 so that its supervisor restarts it.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from concurrent.futures import Future, InvalidStateError
from typing import Any

from zeenot.prio import dap_stats as stats
from zeenot.prio.dap_store import DapStore, Upload

log = logging.getLogger("zeenot.prio")
MAX_BATCH = 512  # uploads per transaction (a client's batch may take it past this, unsplit)
MAX_RESTARTS = 5  # writer threads that may die in one process before the ingest is broken


class IngestFailed(RuntimeError):
    """The uploads were not stored by this writer (the leader answers 503)."""


class _Item:
    """One submission: its uploads, the future of their answers, and whether it takes one
    answer (a str) or a list."""

    __slots__ = ("uploads", "future", "single", "at")

    def __init__(self, uploads: list[Upload], future: Future[Any], single: bool):
        self.uploads, self.future, self.single = uploads, future, single
        self.at = time.perf_counter()


def _settle(future: Future[Any], result: Any = None, error: BaseException | None = None) -> None:
    """Resolve `future`, unless its waiter cancelled it (or it was resolved already)."""
    if future.done():
        return
    future.resolved_at = time.perf_counter()  # type: ignore[attr-defined]  # dap_stats' wake
    try:
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
    except InvalidStateError:  # cancelled meanwhile by its waiter: nobody to answer
        pass


class Ingest:
    """The writer thread of one leader process (started on the first upload)."""

    def __init__(self, dstore: DapStore, max_batch: int = MAX_BATCH):
        self.dstore = dstore
        self.max_batch = max_batch
        self.restarts = 0
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._broken: str | None = None

    @property
    def broken(self) -> str | None:
        """Why the ingest no longer stores uploads, or None while it does."""
        return self._broken

    def submit(self, upload: Upload) -> Future[str]:
        """The future of `upload`'s answer, resolved once it is committed (or refused)."""
        return self._enqueue([upload], single=True)

    def submit_many(self, uploads: list[Upload]) -> Future[list[str]]:
        """The future of the answers to `uploads`, in order, resolved once all of them are
        committed (in one transaction) or refused."""
        return self._enqueue(uploads, single=False)

    def _enqueue(self, uploads: list[Upload], single: bool) -> Future[Any]:
        future: Future[Any] = Future()
        if not uploads:
            future.set_result([])
            return future
        with self._lock:
            if self._closed:
                raise IngestFailed("the leader is shutting down")
            if self._broken is not None:
                raise IngestFailed(self._broken)
            if self._thread is None:
                self._start()
            self._queue.put(_Item(uploads, future, single))
        return future

    def _start(self) -> None:
        """A writer thread (under `_lock`)."""
        self._thread = threading.Thread(target=self._run, name="zeenot-prio-ingest", daemon=True)
        self._thread.start()

    def close(self, timeout: float = 10.0) -> None:
        """Store what is queued, then stop the writer."""
        with self._lock:
            self._closed = True
            thread = self._thread
        if thread is not None:
            self._queue.put(None)
            thread.join(timeout)

    def _run(self) -> None:
        held: list[_Item] = []
        try:
            while True:
                first = self._queue.get()
                if first is None:
                    return
                held = [first]
                size = len(first.uploads)
                stop = False
                while size < self.max_batch:
                    try:
                        item = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if item is None:
                        stop = True
                        break
                    held.append(item)
                    size += len(item.uploads)
                try:
                    self._store(held)
                except Exception as exc:  # a bug of this round: its uploads fail, not the writer
                    log.exception("the ingest: a round of %d submissions failed", len(held))
                    for item in held:
                        _settle(item.future, error=IngestFailed(f"storing the uploads: {exc}"))
                held = []
                if stop:
                    return
        except BaseException as exc:  # the thread ends here; a successor takes the queue
            self._died(held, exc)

    def _died(self, held: list[_Item], exc: BaseException) -> None:
        """The writer thread is dying: hand the queue to a new writer (or, past `MAX_RESTARTS`,
        mark the ingest broken and fail everything queued), then fail what it held. Decided
        first, so that whoever sees a failed upload also sees the ingest broken, if it is."""
        log.error("the leader's ingest writer died: %r", exc)
        with self._lock:
            self.restarts += 1
            restarted = not self._closed and self.restarts <= MAX_RESTARTS
            if restarted:
                self._start()
            else:
                if not self._closed:
                    self._broken = f"the ingest writer died {self.restarts} times"
                self._thread = None
        for item in held:
            _settle(item.future, error=IngestFailed("the ingest writer died"))
        if restarted:
            return
        why = self._broken or "the leader is shutting down"
        while True:  # new submissions are refused now, so the queue only empties
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return
            if item is not None:
                _settle(item.future, error=IngestFailed(why))

    def _store(self, batch: list[_Item]) -> None:
        taken = time.perf_counter()
        for item in batch:
            stats.record("ingest.queue", taken - item.at)
        uploads = [upload for item in batch for upload in item.uploads]
        try:
            answers = self.dstore.put_reports(uploads)
        except Exception as exc:  # the database away: every upload of the batch fails (5xx)
            log.warning("storing %d uploads: %s", len(uploads), exc)
            for item in batch:
                _settle(item.future, error=exc)
            return
        finally:
            stats.since("ingest.store", taken)
        if len(answers) != len(uploads):
            raise RuntimeError(f"{len(answers)} answers to {len(uploads)} uploads")
        at = 0
        for item in batch:
            got = answers[at : at + len(item.uploads)]
            _settle(item.future, got[0] if item.single else got)
            at += len(item.uploads)
