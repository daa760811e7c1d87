"""Writers of one SQLite file taking turns in the kernel's queue, and WAL checkpoints kept out of
their turns; on PostgreSQL, nothing (its writers do not serialise on one lock).

Used by every writer that commits under load: a DAP aggregator's uploads and jobs
(`zeenot.prio.dap_store`) and the e-cash bank's deposits (`zeenot.cashlib.bank`), whether one
process writes or several share the file.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import sqlalchemy as sa

from zeenot.runtime.store import Store

log = logging.getLogger(__name__)

CHECKPOINT_EVERY = 1.0  # seconds between a writing process's WAL checkpoints (SQLite)
CHECKPOINT_WAIT = 1.0  # at most this long a checkpoint waits for the writers to be idle
IDLE_POLL = 0.002  # seconds between two looks at the writers while a checkpoint waits

Timer = Callable[[str, float], None]  # (what, its start by `time.perf_counter()`)


def _no_timer(_what: str, _start: float) -> None:
    return None


def _no_autocheckpoint(dbapi_conn: Any, _record: Any, _proxy: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA wal_autocheckpoint=0")
    cur.close()


class WriterQueue:
    """On SQLite, the writers of one database file take turns through a kernel lock (`flock` on
    `<file>.writer.lock`), every thread and process over the file, before their write
    transaction; on PostgreSQL it does nothing.

    SQLite lets one transaction write at a time and makes the others wait in its busy handler,
    which polls with growing sleeps (1, 2, 5, 10, 15, 20, 25 … ms): a writer that found the lock
    taken wakes only at its next poll, up to tens of milliseconds after the lock was released,
    and may find it taken again by then. Under load that was the tail of a DAP leader's uploads
    (waiting behind the driver's job transactions) and the wall time of two bank processes
    depositing into one file. In the kernel's queue a waiter wakes when the lock is released.

    A turn lasts to the end of the commit, and SQLite's automatic checkpoint (copying the WAL
    into the database, with an fsync) runs inside the commit that crosses its threshold: it
    would hold everyone's turn for as long as it takes (measured: up to 1.7 s on a shared
    disk). So the engine's connections do not checkpoint on commit (`wal_autocheckpoint=0`)
    and a thread of each writing process checkpoints every `CHECKPOINT_EVERY` seconds outside
    any turn (`PASSIVE`: it waits for no writer and none waits for it). Of the processes
    writing one file, one checkpoints at a time (`<file>.checkpoint.lock`, not waited for: a
    process that finds it taken skips its tick), and a checkpoint starts when no writer holds
    or waits for a turn (this process's count, and a non-blocking try of the writers' lock for
    the others), after at most `CHECKPOINT_WAIT` seconds of waiting for that.

    `timer(what, start)` hears `store.turn` (the wait for a turn) and `store.checkpoint`."""

    def __init__(self, store: Store, timer: Timer = _no_timer):
        lock = store.url.removeprefix("sqlite:///") + ".writer.lock"
        self.path = lock if store.is_sqlite else None
        self.engine = store.engine
        self._timer = timer
        self._local = threading.Lock()  # one fd per process: flock does not exclude its own fd
        self._fd: int | None = None
        self._pid = 0  # the process that opened `_fd` (a forked child opens its own)
        self._busy = 0  # this process's writers in or waiting for a turn
        self._count = threading.Lock()
        if self.path is not None and not sa.event.contains(
            self.engine, "checkout", _no_autocheckpoint
        ):
            sa.event.listen(self.engine, "checkout", _no_autocheckpoint)

    def checkpoint(self) -> tuple[int, int, int]:
        """A passive checkpoint now: (busy, frames in the WAL, frames checkpointed)."""
        began = time.perf_counter()
        with self.engine.connect() as conn:
            row = conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
        self._timer("store.checkpoint", began)
        return int(row[0]), int(row[1]), int(row[2])

    def _idle(self, probe: int) -> bool:
        """No writer holds or waits for a turn: none of this process, and the writers' lock
        free (taken and given back at once through `probe`, a descriptor of its own)."""
        if self._busy:
            return False
        try:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(probe, fcntl.LOCK_UN)
        return True

    def checkpoint_when_idle(self) -> tuple[int, int, int] | None:
        """A passive checkpoint, unless another process of the file is checkpointing (None),
        started once the writers are idle or `CHECKPOINT_WAIT` seconds have passed."""
        assert self.path is not None
        flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC
        mine = os.open(self.path.removesuffix(".writer.lock") + ".checkpoint.lock", flags, 0o600)
        probe = os.open(self.path, flags, 0o600)
        try:
            try:
                fcntl.flock(mine, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return None
            deadline = time.monotonic() + CHECKPOINT_WAIT
            while not self._idle(probe) and time.monotonic() < deadline:
                time.sleep(IDLE_POLL)
            return self.checkpoint()
        finally:
            os.close(probe)
            os.close(mine)  # and the lock with it

    def _start_checkpoints(self) -> None:
        me = weakref.ref(self)

        def loop() -> None:
            while True:
                time.sleep(CHECKPOINT_EVERY)
                queue = me()
                if queue is None:  # the store is gone
                    return
                try:
                    queue.checkpoint_when_idle()
                except Exception as exc:  # the database busy or away: the next tick tries again
                    log.warning("checkpointing %s: %s", queue.path, exc)
                del queue

        threading.Thread(target=loop, name="zeenot-checkpoint", daemon=True).start()

    @contextlib.contextmanager
    def turn(self) -> Iterator[None]:
        if self.path is None:
            yield
            return
        waiting = time.perf_counter()
        with self._count:
            self._busy += 1
        try:
            with self._local:
                if self._fd is None or self._pid != os.getpid():
                    self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
                    self._pid = os.getpid()
                    self._start_checkpoints()  # this process writes: it checkpoints too
                fcntl.flock(self._fd, fcntl.LOCK_EX)
                self._timer("store.turn", waiting)
                try:
                    yield
                finally:
                    fcntl.flock(self._fd, fcntl.LOCK_UN)
        finally:
            with self._count:
                self._busy -= 1

    @contextlib.contextmanager
    def begin(self) -> Iterator[sa.Connection]:
        """A write transaction, in its turn."""
        with self.turn(), self.engine.begin() as conn:
            yield conn
