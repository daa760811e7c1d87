"""Batch verification across concurrent requests, without waiting for a batch to fill.

A server verifies each submission in its own thread. When a Groth16 check is already running,
proofs that arrive meanwhile queue up, and the next thread to find the verifier idle checks the
whole queue with one random linear combination (`Groth16Verifier.verify_batch`: a few pairings
for the lot, docs/threat-model.md). Under light load every proof is checked alone and at once;
under heavy load batches form by themselves. If a batch fails, its members are checked one by
one, so a forged proof costs its sender a rejection and the others nothing but time.

The native verifier releases the GIL, so a batch runs while the server's other threads parse
requests and write to the database.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future

from zeenot import _native
from zeenot.errors import MalformedInput, ProofRejected
from zeenot.verifier import Verifier

Item = tuple[list[str], bytes]


class BatchingVerifier:
    """`verify(proof)` as `Verifier.verify`, batched with whatever else is waiting."""

    def __init__(self, verifier: Verifier, max_batch: int = 256):
        self.verifier, self.max_batch = verifier, max_batch
        self._cond = threading.Condition()
        self._queue: list[tuple[Item, Future[bool]]] = []
        self._busy = False
        self.batches = 0  # how many checks ran, and over how many proofs (for benchmarks)
        self.proofs = 0

    def verify(self, proof: object) -> None:
        """Return if valid; `ProofRejected` / `MalformedInput` as `Verifier.verify`."""
        public = self.verifier.public_values(proof)  # type: ignore[arg-type]
        done: Future[bool] = Future()
        with self._cond:
            self._queue.append(((public, proof.proof), done))  # type: ignore[attr-defined]
            while not done.done():
                if self._busy:
                    self._cond.wait()
                    continue
                self._busy = True
                batch, self._queue = self._queue[: self.max_batch], self._queue[self.max_batch :]
                self._cond.release()
                try:
                    self._check(batch)
                except BaseException as exc:  # noqa: BLE001 - no waiting request left hanging
                    for _, pending in batch:
                        if not pending.done():
                            pending.set_exception(exc)
                finally:
                    self._cond.acquire()
                    self._busy = False
                    self._cond.notify_all()
        if not done.result():
            raise ProofRejected("the proof does not verify against these public inputs and outputs")

    def _check(self, batch: list[tuple[Item, Future[bool]]]) -> None:
        self.batches += 1
        self.proofs += len(batch)
        prepared = self.verifier.prepared
        if len(batch) > 1:
            try:
                if prepared.verify_batch([item for item, _ in batch]):
                    for _, done in batch:
                        done.set_result(True)
                    return
            except (_native.ZeenotError, ValueError):
                pass  # a malformed member: checked alone below, where it is named
        for (public, raw), done in batch:
            try:
                done.set_result(bool(prepared.verify(public, raw)))
            except (_native.DecodeError, ValueError) as exc:
                done.set_exception(MalformedInput(f"malformed proof: {exc}"))
            except BaseException as exc:  # noqa: BLE001 - delivered to the waiting request
                done.set_exception(exc)
