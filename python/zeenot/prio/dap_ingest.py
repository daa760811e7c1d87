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
"""

from __future__ import annotations

import logging
import queue
import threading
from concurrent.futures import Future
from typing import Any

from zeenot.prio.dap_store import DapStore, Upload

log = logging.getLogger("zeenot.prio")
# the uploads, the future of their answers, and whether it takes one answer (a str) or a list
_Item = tuple[list[Upload], "Future[Any]", bool]
MAX_BATCH = 512  # uploads per transaction (a client's batch may take it past this, unsplit)


class Ingest:
    """The writer thread of one leader process (started on the first upload)."""

    def __init__(self, dstore: DapStore, max_batch: int = MAX_BATCH):
        self.dstore = dstore
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._closed = False

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
                raise RuntimeError("the leader is shutting down")
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="zeenot-prio-ingest", daemon=True
                )
                self._thread.start()
            self._queue.put((uploads, future, single))
        return future

    def close(self, timeout: float = 10.0) -> None:
        """Store what is queued, then stop the writer."""
        with self._lock:
            self._closed = True
            thread = self._thread
        if thread is not None:
            self._queue.put(None)
            thread.join(timeout)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            size = len(first[0])
            stop = False
            while size < self.max_batch:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
                size += len(item[0])
            self._store(batch)
            if stop:
                return

    def _store(self, batch: list[_Item]) -> None:
        uploads = [upload for group, _, _ in batch for upload in group]
        try:
            answers = self.dstore.put_reports(uploads)
        except Exception as exc:  # the database away: every upload of the batch fails (5xx)
            log.warning("storing %d uploads: %s", len(uploads), exc)
            for _, future, _ in batch:
                future.set_exception(exc)
            return
        at = 0
        for group, future, single in batch:
            got = answers[at : at + len(group)]
            future.set_result(got[0] if single else got)
            at += len(group)
