"""A value crossing between back ends as a Pedersen commitment (examples/split): one region
proved with the sigma back end hands its committed result to a region proved with Groth16, and
the other way round; the verifier links the two proofs by the commitment alone.
"""

from __future__ import annotations

import pytest

from zeenot import api
from zeenot.simulate import simulate

from .conftest import EXAMPLES, read_json

APP = EXAMPLES / "split" / "app.py"
RATE, CAP = {"cents_per_km": 7, "cap_cents": 10_000}, 10_000


@pytest.fixture(scope="module")
def circuits():
    km = api.compile(f"{APP}:monthly_km")
    premium = api.compile(f"{APP}:premium")
    return km, premium, api.setup(km, seed=11), api.setup(premium, seed=12)


def prove(circuit, keys, backend, inputs, blindings=None, seed=1):
    if backend == "sigma":
        return api.prove_sigma(circuit, inputs, blindings=blindings, seed=seed)
    return api.prove(circuit, keys, inputs, blindings=blindings, seed=seed)


def check(circuit, keys, proof):
    again = api.Proof.from_json(proof.to_json())  # what a verifier receives
    api.verify(circuit, keys.verifying_key if proof.backend == "groth16" else None, again)
    return again


@pytest.mark.slow
@pytest.mark.parametrize("first, second", [("sigma", "groth16"), ("groth16", "sigma")])
def test_committed_total_crosses_back_ends(circuits, first, second):
    km, premium, km_keys, premium_keys = circuits
    log = read_json(EXAMPLES / "split" / "inputs.json")
    total = simulate(api.load_target(f"{APP}:monthly_km"), log)

    p1 = prove(km, km_keys, first, log)
    assert p1.backend == first and set(p1.outputs) == {"committed"}
    # the total is not revealed: the output is a curve point, not the value
    (point,) = p1.outputs["committed"]
    assert len(point) == 2 and all(len(c) > 30 for c in point)
    opening = p1.opening
    assert opening is not None and opening.values == total and len(opening.blindings) == 1
    assert "blinding" not in p1.to_json() and repr(opening).startswith("Opening(<")

    inputs = {"total_km": opening.values, **RATE}
    p2 = prove(premium, premium_keys, second, inputs, {"total_km": opening.blindings})
    assert p2.outputs == min(total * 7, CAP)

    v1, v2 = check(km, km_keys, p1), check(premium, premium_keys, p2)
    api.check_link(v1, v2, "total_km")

    # A prover who feeds the second proof another total (with the same blinding) proves a
    # statement about a different commitment: the link fails...
    lie = prove(
        premium,
        premium_keys,
        second,
        {**inputs, "total_km": total - 100},
        {"total_km": opening.blindings},
    )
    with pytest.raises(api.ProofRejected):
        api.check_link(v1, check(premium, premium_keys, lie), "total_km")
    # ... and pasting the first proof's commitment into it does not verify.
    pasted = api.Proof(
        **{**lie.__dict__, "public_inputs": {**lie.public_inputs, "total_km": p1.outputs}}
    )
    with pytest.raises(api.ProofRejected):
        check(premium, premium_keys, pasted)


def test_committed_parameters_need_blindings(circuits):
    _, premium, _, premium_keys = circuits
    with pytest.raises(api.MalformedInput, match="missing blinding"):
        api.prove_sigma(premium, {"total_km": 5, **RATE})
    with pytest.raises(api.MalformedInput, match="not a Committed parameter"):
        api.prove_sigma(premium, {"total_km": 5, **RATE}, blindings={"total_km": 1, "x": 2})
    with pytest.raises(api.MalformedInput, match="non-negative integer"):
        api.prove_sigma(premium, {"total_km": 5, **RATE}, blindings={"total_km": -1})


def test_link_checks_what_it_links(circuits):
    km, premium, _, _ = circuits
    p = api.prove_sigma(premium, {"total_km": 5, **RATE}, blindings={"total_km": 3})
    with pytest.raises(api.MalformedInput):
        api.check_link(p, p, "total_km")  # `premium` does not return a Committed value
