"""Proofs bound to their run (runtime/binding.py): the reviewer's attacks, as tests.

A Groth16 proof re-randomises: `(-A, -B, C)` is another valid proof of the same statement. The
runtime's proofs therefore carry a public `@context` that digests the run they belong to; a
proof moved to another id, policy, epoch or region call fails, whatever its bytes."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from zeenot import api
from zeenot.application import load_application
from zeenot.errors import ProofRejected
from zeenot.runtime.binding import CONTEXT, bound, run_context, with_context
from zeenot.runtime.service import Rejected, Service
from zeenot.runtime.store import Store
from zeenot.types import P

from .test_runtime_service import LOG, PAYD, CarRunner, _body, _Local

G1, G2 = 32, 64  # arkworks' compressed BN254 points; the y sign is bit 7 of the last byte


def negated(proof: dict) -> dict:
    """`(-A, -B, C)`: another valid Groth16 proof of the same statement."""
    raw = bytearray.fromhex(proof["proof"])
    raw[G1 - 1] ^= 0x80
    raw[G1 + G2 - 1] ^= 0x80
    return {**proof, "proof": raw.hex()}


@pytest.fixture()
def payd(tmp_path: Path):
    app = load_application(PAYD)
    store = Store(str(tmp_path / "zeenot.db"))
    service = Service(app, store)
    runner = CarRunner(app, "http://unused")
    runner.http = _Local(service)  # type: ignore[assignment]
    return service, runner, store


def _submit(service: Service, doc: dict, client: str | None = None):
    """Submit as signed by `client` (default: the car `CarRunner` proved as)."""
    return service.submit(json.dumps(doc).encode(), client or f"car-{doc['id']}")


def test_a_negated_proof_is_valid_for_its_own_statement(payd) -> None:
    """The premise: malleating A and B gives other bytes that verify (so digests of proof
    bytes cannot tell runs apart)."""
    service, runner, _ = payd
    doc = _body(runner, "alice-1")
    twin = api.Proof.from_json(json.dumps(negated(doc["proofs"]["quote.0"])))
    assert twin.proof.hex() != doc["proofs"]["quote.0"]["proof"]
    service.regions["weekly_premium"].verify(twin)


@pytest.mark.parametrize(
    ("sid", "policy"), [("mallory-1", "P-1042"), ("mallory-2", "P-9999"), ("alice-1", "P-9999")]
)
def test_a_malleated_proof_moved_to_another_run_is_refused(payd, sid, policy) -> None:
    """(-A, -B, C) of Alice's proof under a new id and/or another policy: 422, no row."""
    service, runner, store = payd
    alice = _body(runner, "alice-1", policy="P-1042")
    forged = {**alice, "id": sid, "inputs": {"policy": policy}}
    forged["proofs"] = {"quote.0": negated(alice["proofs"]["quote.0"])}
    with pytest.raises(Rejected) as info:
        _submit(service, forged)
    assert info.value.status == 422 and "belongs to another run" in info.value.reason
    assert store.count_submissions("payd") == 0
    assert store.submission("payd", sid) is None


def test_a_victims_proof_posted_first_does_not_lose_the_victims_run(payd) -> None:
    """An attacker who sees Alice's submission posts a malleated copy first, under Alice's
    id and inputs but signed as itself: the proofs are bound to Alice (payd knows its clients),
    so it is refused, and Alice's own post is accepted. Alice's own re-randomised retry is the
    same run (200)."""
    service, runner, store = payd
    alice = _body(runner, "alice-1")
    copy = {**alice, "proofs": {"quote.0": negated(alice["proofs"]["quote.0"])}}
    with pytest.raises(Rejected) as info:
        _submit(service, copy, client="car-mallory")
    assert info.value.status == 422 and "belongs to another run" in info.value.reason
    status, first = _submit(service, alice)
    assert status == 201
    status, again = _submit(service, copy)
    assert status == 200 and again == first
    assert store.count_submissions("payd") == 1


def test_a_proof_made_for_another_deployment_is_refused(tmp_path: Path) -> None:
    """Another database draws another epoch: a proof made against the first server is refused
    by the second, even under the same id and inputs (sigma: no keys tell the two apart)."""
    source = tmp_path / "app.py"
    source.write_text(PAYD.read_text() + '\n\nBACKENDS = {"weekly_premium": "sigma"}\n')
    first = Service(load_application(source), Store(str(tmp_path / "first.db")))
    runner = CarRunner(first.app, "http://unused")
    runner.http = _Local(first)  # type: ignore[assignment]
    doc = json.loads(runner.prepare(LOG, submission_id="alice-1"))
    second = Service(load_application(source), Store(str(tmp_path / "second.db")))
    assert second.epoch != first.epoch
    with pytest.raises(Rejected, match="belongs to another run"):
        _submit(second, doc)
    assert _submit(first, doc)[0] == 201


def test_the_context_names_every_public_input_of_main() -> None:
    args = ("payd", "f" * 64, "e" * 32, "alice-1", "quote.0")
    base = run_context(*args, {"policy": "P-1"})
    assert base == run_context(*args, {"policy": "P-1"})
    assert base != run_context(*args, {"policy": "P-2"})
    assert base != run_context(*args, {"policy": "P-1", "week": 3})
    assert base != run_context("payd", "f" * 64, "e" * 32, "alice-2", "quote.0", {"policy": "P-1"})
    assert base != run_context("payd", "f" * 64, "e" * 32, "alice-1", "quote.1", {"policy": "P-1"})
    assert 0 <= int(base) < P


@pytest.mark.parametrize("backend", ["groth16", "sigma"])
def test_the_circuit_binds_the_context(backend: str) -> None:
    """The context input is read by no instruction, yet both back ends bind it: Groth16 through
    the QAP's input rows, sigma through its Fiat-Shamir context. A proof whose context is
    changed after proving is rejected."""
    circuit = bound(api.compile(f"{PAYD}:weekly_premium"))
    assert isinstance(circuit, api.Circuit)
    inputs = {
        "km": LOG["km"],
        "night_km": LOG["night_km"],
        "base_cents": 500,
        "cap_cents": 4000,
        CONTEXT: "12345",
    }
    if backend == "groth16":
        keys = api.setup(circuit, seed=7)
        proof = api.prove(circuit, keys, inputs, seed=8)
        vk: bytes | None = keys.verifying_key
    else:
        proof, vk = api.prove_sigma(circuit, inputs, seed=8), None
    api.verify(circuit, vk, proof)
    moved = replace(proof, public_inputs={**proof.public_inputs, CONTEXT: 12346})
    with pytest.raises(ProofRejected):
        api.verify(circuit, vk, moved)


def test_with_context_keeps_the_program_and_appends_one_public_input() -> None:
    plain = api.compile(f"{PAYD}:weekly_premium")
    assert isinstance(plain, api.Circuit)
    ctx = with_context(plain.program)
    assert ctx.public_leaf_names() == [*plain.program.public_leaf_names(), CONTEXT]
    assert len(ctx.ir["body"]) == len(plain.program.ir["body"])
    circuit = api.Circuit(ctx)
    assert circuit.hash != plain.hash
    assert circuit.stats["constraints"] == plain.stats["constraints"]
    with pytest.raises(ValueError, match="bound to a context already"):
        with_context(ctx)
