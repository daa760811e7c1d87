"""Point and ciphertext operations in the sigma back end (issue 12): an encryption, a sum of
ciphertexts, a public multiple and a re-randomisation proved as linear relations over the
committed values (Chaum–Pedersen style), not as a circuit; forged ciphertexts are rejected."""

from __future__ import annotations

import json

import pytest

from zeenot import Field, MaxSize, Private, Public, _native, api, babyjub, u8, u32, zk
from zeenot.babyjub import Ciphertext, Point, encrypt, rerandomize
from zeenot.errors import ProofRejected
from zeenot.simulate import simulate


@zk
def encrypted(m: Private[u32], r: Private[Field], pk: Public[Point]) -> Ciphertext:
    return encrypt(m, pk, r)


@zk
def tally(
    votes: Private[MaxSize[list[u8], 4]], rs: Private[tuple[Field, Field]], pk: Public[Point]
) -> Ciphertext:
    """Two encryptions summed, one doubled (a public multiple), then re-randomised."""
    a = encrypt(u32(votes[0]), pk, rs[0])
    b = encrypt(u32(sum(votes)), pk, rs[1])
    return rerandomize(a + 2 * b, pk, rs[0])


@zk
def folded(
    total: Public[Ciphertext], m: Private[u32], r: Private[Field], pk: Public[Point]
) -> Ciphertext:
    """A public ciphertext plus a fresh encryption (homomorphic aggregation)."""
    return total + encrypt(m, pk, r)


@zk
def squared_key(r: Private[Field], m: Private[u32], pk: Public[Point]) -> Point:
    """r·(m·pk): a private scalar times a point computed from private values."""
    return r * (m * pk)


SK, PK = babyjub.keygen()
R1, R2 = babyjub.random_scalar(), babyjub.random_scalar()


def pt(p: Point) -> dict[str, str]:
    return {"x": str(int(p.x)), "y": str(int(p.y))}


def ct(c: Ciphertext) -> dict[str, dict[str, str]]:
    return {"c1": pt(c.c1), "c2": pt(c.c2)}


def from_json(doc) -> Ciphertext:
    point = lambda d: Point(int(d["x"]), int(d["y"]))  # noqa: E731
    return Ciphertext(point(doc["c1"]), point(doc["c2"]))


def sigma_round_trip(fn, inputs):
    circuit = api.compile(fn)
    proof = api.prove_sigma(circuit, inputs, seed=1)
    received = api.Proof.from_json(proof.to_json())
    api.verify(circuit, None, received)
    return circuit, proof


def test_an_encryption_in_the_sigma_back_end():
    inputs = {"m": 42, "r": str(R1), "pk": pt(PK)}
    circuit, proof = sigma_round_trip(encrypted, inputs)
    assert proof.outputs == simulate(encrypted, inputs)
    ct = from_json(proof.outputs)
    assert babyjub.decrypt(SK, ct) == 42
    # no circuit: a commitment to m, its range proof and two point equations
    assert len(proof.proof) < 1500, len(proof.proof)
    assert circuit.stats["constraints"] > 2000  # what groth16 pays for the same


def test_sums_multiples_and_rerandomisation():
    inputs = {"votes": [1, 0, 1], "rs": [str(R1), str(R2)], "pk": pt(PK)}
    _, proof = sigma_round_trip(tally, inputs)
    assert proof.outputs == simulate(tally, inputs)
    assert babyjub.decrypt(SK, from_json(proof.outputs)) == 1 + 2 * 2
    total = encrypt(7, PK, R2)
    inputs = {"total": ct(total), "m": 5, "r": str(R1), "pk": pt(PK)}
    _, proof = sigma_round_trip(folded, inputs)
    assert babyjub.decrypt(SK, from_json(proof.outputs)) == 12


def _ints(value):
    """Field values as a proof file spells them: JSON integers."""
    if isinstance(value, dict):
        return {k: _ints(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_ints(v) for v in value]
    return int(value) if isinstance(value, str) else value


def test_a_forged_ciphertext_is_rejected():
    inputs = {"m": 42, "r": str(R1), "pk": pt(PK)}
    circuit, proof = sigma_round_trip(encrypted, inputs)
    doc = json.loads(proof.to_json())
    for forged in (
        encrypt(43, PK, R1),
        encrypt(42, PK, R2),
        rerandomize(encrypt(42, PK, R1), PK, 1),
    ):
        bad = dict(doc, outputs=_ints(ct(forged)))  # a proof file's one spelling of Fields
        with pytest.raises(ProofRejected):
            api.verify(circuit, None, api.Proof.from_json(json.dumps(bad)))
    # the same ciphertext under another public key: rejected
    _, other = babyjub.keygen()
    bad = dict(doc, public_inputs={"pk": _ints(pt(other))})
    with pytest.raises(ProofRejected):
        api.verify(circuit, None, api.Proof.from_json(json.dumps(bad)))


def test_what_is_not_linear_is_refused_with_its_line():
    with pytest.raises(_native.UnsupportedError, match="not a linear relation"):
        api.prove_sigma(api.compile(squared_key), {"r": str(R1), "m": 3, "pk": pt(PK)})
