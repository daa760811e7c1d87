"""Verifiable escrow of a committed scalar (`zeenot.cashlib.escrow`): decryption recovers the
value exactly, and a wrong chunk, a chunk out of range, a commitment to another value, another
label and a wrong decryption claim are each rejected."""

from __future__ import annotations

import pytest

from zeenot.babyjub import BASE8, SUBGROUP_ORDER, Ciphertext, Point, keygen, random_scalar
from zeenot.cashlib import escrow as E
from zeenot.cashlib.escrow import Decryption, Escrow, EscrowError
from zeenot.errors import ZeenotError
from zeenot.sigma import pedersen_commit

LABEL = b"release to the seller if the buyer's key for contract #42 is not shown by block 900"


@pytest.fixture(scope="module")
def arbiter():
    return keygen()


@pytest.fixture(scope="module")
def made(arbiter):
    """One honest escrow of a full-width scalar (reused: proving is the slow part)."""
    _, pk = arbiter
    v, r = SUBGROUP_ORDER - 12345, random_scalar()
    c = pedersen_commit(v, r)
    return v, r, c, E.escrow(v, r, c, pk, LABEL, seed=7)


def test_round_trip_recovers_the_value(arbiter, made):
    sk, pk = arbiter
    v, _, c, esc = made
    assert E.verify_escrow(esc, c, pk, LABEL)
    data = esc.to_bytes()
    assert len(data) == 5476
    assert Escrow.from_bytes(data) == esc
    assert E.verify_escrow(data, c, pk, LABEL)
    dec = E.decrypt(sk, data, c, LABEL)
    assert dec.value == v
    assert E.verify_decryption(esc, c, pk, LABEL, dec)


@pytest.mark.parametrize("v", [0, 1, (1 << 16) - 1, 1 << 16, (1 << 250) + 3, SUBGROUP_ORDER - 1])
def test_edges(arbiter, v):
    sk, pk = arbiter
    r = random_scalar()
    c = pedersen_commit(v, r)
    esc = E.escrow(v, r, c, pk, "edge")
    assert E.verify_escrow(esc, c, pk, "edge")
    assert E.decrypt(sk, esc, c, "edge").value == v


def test_commitment_to_another_value_rejected(arbiter, made):
    sk, pk = arbiter
    v, r, _, esc = made
    other = pedersen_commit(v + 1, r)
    assert not E.verify_escrow(esc, other, pk, LABEL)
    with pytest.raises(EscrowError):
        E.decrypt(sk, esc, other, LABEL)
    # The prover cannot escrow a value its commitment does not hold.
    with pytest.raises(EscrowError, match="does not open"):
        E.escrow(v + 1, r, pedersen_commit(v, r), pk, LABEL)


def test_another_label_or_key_rejected(arbiter, made):
    sk, pk = arbiter
    _, _, c, esc = made
    assert not E.verify_escrow(esc, c, pk, LABEL + b".")
    assert not E.verify_escrow(esc, c, pk, b"")
    with pytest.raises(EscrowError):
        E.decrypt(sk, esc, c, b"another condition")
    _, pk2 = keygen()
    assert not E.verify_escrow(esc, c, pk2, LABEL)
    assert not E.verify_escrow(esc, c, Point.identity(), LABEL)


def test_wrong_chunk_rejected(arbiter, made):
    """A chunk ciphertext replaced (another plaintext, or the same plaintext re-encrypted), or
    two chunks swapped: the sigma proof no longer verifies."""
    _, pk = arbiter
    v, _, c, esc = made
    chunks = [(v >> (16 * k)) & 0xFFFF for k in range(16)]
    cts = list(esc.ciphertexts)
    r = random_scalar()
    for replacement in (
        Ciphertext(r * BASE8, (chunks[3] + 1) * BASE8 + r * pk),
        Ciphertext(r * BASE8, chunks[3] * BASE8 + r * pk),
    ):
        bad = cts.copy()
        bad[3] = replacement
        tampered = Escrow(tuple(bad), esc.commitments, esc.proof, esc.range_proof)
        assert not E.verify_escrow(tampered, c, pk, LABEL)
    swapped = cts.copy()
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not E.verify_escrow(
        Escrow(tuple(swapped), esc.commitments, esc.proof, esc.range_proof), c, pk, LABEL
    )
    ds = list(esc.commitments)
    ds[5] = ds[5] + BASE8
    moved = Escrow(esc.ciphertexts, tuple(ds), esc.proof, esc.range_proof)
    assert not E.verify_escrow(moved, c, pk, LABEL)


def test_chunk_out_of_range_rejected(arbiter):
    """Chunks that recombine to the committed value but with one chunk ≥ 2^16 (so the arbiter's
    search would fail): the sigma proof holds, but no 16-bit range proof exists; a 32-bit one
    does not verify as 16-bit, and the honest escrow's range proof does not fit these chunks."""
    sk, pk = arbiter
    v, r = (5 << 16) + 7, random_scalar()
    c = pedersen_commit(v, r)
    chunks = [(v >> (16 * k)) & 0xFFFF for k in range(16)]
    chunks[0] += 1 << 16  # 2^16 + 7
    chunks[1] -= 1  # 4: the sum is still v
    assert sum(x << (16 * k) for k, x in enumerate(chunks)) == v
    with pytest.raises(EscrowError, match="range proof"):
        E._prove(chunks, r, c, pk, LABEL)
    cheat = E._prove(chunks, r, c, pk, LABEL, range_bits=32)
    assert not E.verify_escrow(cheat, c, pk, LABEL)
    honest = E.escrow(v, r, c, pk, LABEL)
    spliced = Escrow(cheat.ciphertexts, cheat.commitments, cheat.proof, honest.range_proof)
    assert not E.verify_escrow(spliced, c, pk, LABEL)
    with pytest.raises(EscrowError):
        E.decrypt(sk, cheat, c, LABEL)


def test_wrong_decryption_claim_rejected(arbiter, made):
    sk, pk = arbiter
    _, _, c, esc = made
    dec = E.decrypt(sk, esc, c, LABEL, seed=3)
    assert E.verify_decryption(esc, c, pk, LABEL, dec)
    wrong = list(dec.chunks)
    wrong[2] = (wrong[2] + 1) % (1 << 16)
    assert not E.verify_decryption(esc, c, pk, LABEL, Decryption(tuple(wrong), dec.proof))
    assert not E.verify_decryption(esc, c, pk, LABEL, Decryption(dec.chunks[:-1], dec.proof))
    out_of_range = (dec.chunks[0] + (1 << 16),) + dec.chunks[1:]
    assert not E.verify_decryption(esc, c, pk, LABEL, Decryption(out_of_range, dec.proof))
    bad_proof = bytearray(dec.proof)
    bad_proof[-1] ^= 1
    assert not E.verify_decryption(esc, c, pk, LABEL, Decryption(dec.chunks, bytes(bad_proof)))
    # The proof is bound to the label and to the arbiter's key.
    assert not E.verify_decryption(esc, c, pk, LABEL + b"!", dec)
    sk2, pk2 = keygen()
    assert not E.verify_decryption(esc, c, pk2, LABEL, dec)
    # Another arbiter cannot decrypt (its key does not match the escrow's).
    with pytest.raises(EscrowError):
        E.decrypt(sk2, esc, c, LABEL)


def test_malformed_input_is_a_clear_error(arbiter, made):
    _, pk = arbiter
    _, _, c, esc = made
    data = esc.to_bytes()
    for bad in (b"", data[:100], data + b"\0" * 5000, data[:32] + b"\xff" * 32 + data[64:]):
        assert not E.verify_escrow(bad, c, pk, LABEL)
        with pytest.raises(EscrowError) as info:
            Escrow.from_bytes(bad)
        assert isinstance(info.value, ZeenotError) and isinstance(info.value, ValueError)
    with pytest.raises(EscrowError, match="label"):
        E.verify_escrow(esc, c, pk, b"x" * (E.MAX_LABEL_BYTES + 1))
    with pytest.raises(TypeError):
        E.escrow(1.5, 2, c, pk, LABEL)
    with pytest.raises(TypeError):
        E.verify_escrow(esc, "not a point", pk, LABEL)
