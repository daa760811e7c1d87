"""Batching verification across concurrent requests: every valid proof accepted, every invalid
one rejected (and named), whatever it was batched with."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest

from zeenot import api
from zeenot.errors import MalformedInput, ProofRejected
from zeenot.runtime.batching import BatchingVerifier
from zeenot.verifier import SigmaChecks, Verifier

from .test_runtime_service import LOG, PAYD


@pytest.fixture(scope="module")
def proofs():
    from zeenot.application import load_application

    circuit = api.compile(load_application(PAYD).regions["weekly_premium"])
    keys = api.setup(circuit, seed=7)
    inputs = {"km": LOG["km"], "night_km": LOG["night_km"], "base_cents": 500, "cap_cents": 4000}
    good = [api.prove(circuit, keys, inputs, seed=i) for i in range(24)]
    return Verifier.of(circuit, keys.verifying_key), good


@pytest.fixture(scope="module")
def sigma_proofs():
    from zeenot.application import load_application

    circuit = api.compile(load_application(PAYD).regions["weekly_premium"])
    inputs = {"km": LOG["km"], "night_km": LOG["night_km"], "base_cents": 500, "cap_cents": 4000}
    good = [api.prove_sigma(circuit, inputs, seed=i) for i in range(12)]
    return SigmaChecks(circuit), good


@pytest.mark.parametrize("backend", ["groth16", "sigma"])
def test_concurrent_proofs_are_batched_and_judged_alone(backend, request) -> None:
    verifier, good = request.getfixturevalue("proofs" if backend == "groth16" else "sigma_proofs")
    raw = bytearray(good[3].proof)
    raw[5] ^= 1
    forged = [
        replace(good[1], outputs=[good[1].outputs[0] - 1, good[1].outputs[1]]),  # a lower premium
        replace(good[2], proof=bytes(raw)),  # not a valid encoding, or not a valid proof
    ]
    items = [*good, *forged] * 3
    batching = BatchingVerifier(verifier)
    start = threading.Barrier(8)

    def check(proof: api.Proof) -> str:
        try:
            start.wait(timeout=0.01)
        except threading.BrokenBarrierError:
            pass
        try:
            batching.verify(proof)
            return "valid"
        except (ProofRejected, MalformedInput):
            return "invalid"

    with ThreadPoolExecutor(8) as pool:
        verdicts = list(pool.map(check, items))
    expected = (["valid"] * len(good) + ["invalid"] * len(forged)) * 3
    assert verdicts == expected
    assert batching.proofs == len(items)
    assert batching.batches < len(items), "no batch formed under concurrent load"


def test_a_lone_proof_is_checked_at_once(proofs) -> None:
    verifier, good = proofs
    batching = BatchingVerifier(verifier)
    batching.verify(good[0])
    assert (batching.batches, batching.proofs) == (1, 1)
    with pytest.raises(ProofRejected):
        batching.verify(replace(good[0], outputs=[1, False]))
