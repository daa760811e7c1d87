"""Batch verification across concurrent requests, without waiting for a batch to fill.

A server verifies each submission in its own thread. When a check is already running, proofs
that arrive meanwhile queue up, and the next thread to find the verifier idle checks the whole
queue at once: Groth16 proofs with one random linear combination
(`Groth16Verifier.verify_batch`: a few pairings for the lot), sigma proofs of a circuit with one
multi-exponentiation (`sigma_program_verify_batch`: every compressed and circuit proof with its
own random weight), docs/threat-model.md. Under light load every proof is checked alone and at
once; under heavy load batches form by themselves. If a batch fails, its members are checked one
by one, so a forged proof costs its sender a rejection and the others nothing but time.

The native verifiers release the GIL, so a batch runs while the server's other threads parse
requests and write to the database.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future

from zeenot import _native
from zeenot.runtime import metrics
from zeenot.verifier import Checks, Groth16Checks, Item, Verifier, judge


class BatchingVerifier:
    """`verify(proof)` as `Verifier.verify` (or `api.verify` for a sigma proof), batched with
    whatever else is waiting. `checks`: a `Verifier` (Groth16) or any `Checks`."""

    def __init__(self, checks: Verifier | Checks, max_batch: int = 256):
        self.checks = Groth16Checks(checks) if isinstance(checks, Verifier) else checks
        self.max_batch = max_batch
        self._cond = threading.Condition()
        self._queue: list[tuple[Item, Future[bool]]] = []
        self._busy = False
        self.backend = "groth16" if isinstance(self.checks, Groth16Checks) else "sigma"
        self.batches = 0  # how many checks ran, and over how many proofs (for benchmarks)
        self.proofs = 0

    def verify(self, proof: object) -> None:
        """Return if valid; `ProofRejected` / `MalformedInput` as `Verifier.verify`."""
        item = self.checks.item(proof)  # type: ignore[arg-type]
        done: Future[bool] = Future()
        with self._cond:
            self._queue.append((item, done))
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
        done.result()  # raises ProofRejected / MalformedInput for this proof

    def _check(self, batch: list[tuple[Item, Future[bool]]]) -> None:
        self.batches += 1
        self.proofs += len(batch)
        metrics.BATCH_SIZE.observe(len(batch), backend=self.backend)
        if len(batch) > 1:
            try:
                if self.checks.batch([item for item, _ in batch]):
                    for _, done in batch:
                        done.set_result(True)
                    return
            except (_native.ZeenotError, ValueError):
                pass  # a malformed member: checked alone below, where it is named
        for item, done in batch:
            try:
                judge(self.checks, item)
                done.set_result(True)
            except BaseException as exc:  # noqa: BLE001 - delivered to the waiting request
                done.set_exception(exc)
