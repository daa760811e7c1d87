"""Logarithmic-size range proofs of ElGamal plaintexts (`plaintext_in_range(...,
method="bulletproofs")`): completeness at the edges, and every way of tampering rejected."""

from __future__ import annotations

import pytest

from zeenot.babyjub import encrypt, keygen, random_scalar
from zeenot.sigma import LogRangeProof, WitnessError, pedersen_commit, plaintext_in_range


@pytest.fixture(scope="module")
def key():
    return keygen()


@pytest.mark.parametrize("bits", [8, 16, 32, 64])
def test_edges_prove_and_verify(key, bits):
    _, pk = key
    for m in (0, 1, (1 << bits) - 1):
        r = random_scalar()
        stmt = plaintext_in_range(encrypt(m, pk, r), pk, bits, method="bulletproofs")
        proof = stmt.prove(m, r, context=b"ctx")
        assert stmt.verify(proof, context=b"ctx")
        assert stmt.verify(proof.to_bytes(), context=b"ctx")
        assert LogRangeProof.from_bytes(proof.to_bytes()) == proof


def test_smaller_than_bit_decomposition(key):
    _, pk = key
    r = random_scalar()
    ct = encrypt(12345, pk, r)
    log = plaintext_in_range(ct, pk, 32, method="bulletproofs").prove(12345, r).to_bytes()
    bits = plaintext_in_range(ct, pk, 32).prove(12345, r).to_bytes()
    assert len(log) < len(bits) / 5


def test_out_of_range_or_wrong_witness_cannot_be_proved(key):
    _, pk = key
    r = random_scalar()
    stmt = plaintext_in_range(encrypt(256, pk, r), pk, 8, method="bulletproofs")
    with pytest.raises(WitnessError):
        stmt.prove(256, r)
    other = plaintext_in_range(encrypt(5, pk, r), pk, 8, method="bulletproofs")
    with pytest.raises(WitnessError):
        other.prove(6, r)  # not what the ciphertext encrypts
    with pytest.raises(ValueError, match="bits"):
        plaintext_in_range(encrypt(5, pk, r), pk, 12, method="bulletproofs")


def test_tampering_is_rejected(key):
    _, pk = key
    r = random_scalar()
    ct = encrypt(77, pk, r)
    stmt = plaintext_in_range(ct, pk, 16, method="bulletproofs")
    proof = stmt.prove(77, r, context=b"a")
    assert not stmt.verify(proof, context=b"b")
    # the same proof for another ciphertext of the same value
    assert not plaintext_in_range(encrypt(77, pk, r + 1), pk, 16, method="bulletproofs").verify(
        proof, context=b"a"
    )
    # another commitment to the same value, or the range proof of another commitment
    recommitted = LogRangeProof(pedersen_commit(77, 5), proof.proof, proof.range_proof)
    assert not stmt.verify(recommitted, context=b"a")
    second = stmt.prove(77, r, context=b"a")
    mixed = LogRangeProof(proof.commitment, proof.proof, second.range_proof)
    assert not stmt.verify(mixed, context=b"a")
    # the proof for 16 bits is not one for 8 bits
    assert not plaintext_in_range(ct, pk, 8, method="bulletproofs").verify(proof, context=b"a")
    data = proof.to_bytes()
    for at in range(0, len(data), 17):
        bad = bytearray(data)
        bad[at] ^= 0x40
        assert not stmt.verify(bytes(bad), context=b"a"), at
    assert not stmt.verify(data[:-1], context=b"a")
    assert not stmt.verify(data + b"\0", context=b"a")
    assert not stmt.verify(b"", context=b"a")
