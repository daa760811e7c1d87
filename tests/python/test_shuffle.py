"""The verifiable shuffle from Python (zeenot.shuffle): honest shuffles verify and keep the
multiset of plaintext rows; tampered outputs, other contexts or keys, truncated or bit-flipped
proofs and wrong shapes are rejected."""

from __future__ import annotations

import random

import pytest

from zeenot import _native
from zeenot.babyjub import BASE8, Ciphertext, Point, decrypt
from zeenot.shuffle import shuffle, verify_shuffle

CTX = b"query 7 / server 1"


def pack(p: Point) -> bytes:
    return _native.bj_pack(str(int(p.x)), str(int(p.y)))


def unpack(b: bytes) -> Point:
    x, y = _native.bj_unpack(b)
    return Point(int(x), int(y))


def encrypt(m: int, pk: Point, r: int) -> bytes:
    return pack(r * BASE8) + pack(m * BASE8 + r * pk)


def decrypt_rows(sk: int, rows: list[list[bytes]]) -> list[tuple[int, ...]]:
    out = []
    for row in rows:
        cts = [Ciphertext(unpack(c[:32]), unpack(c[32:])) for c in row]
        out.append(tuple(decrypt(sk, c, bits=16) for c in cts))
    return sorted(out)


def setup(n: int, w: int, seed: int) -> tuple[int, bytes, Point, list[list[bytes]]]:
    rnd = random.Random(seed)
    sk = rnd.randrange(1, 2**200)
    pk = sk * BASE8
    rows = [[encrypt(10 * j + k, pk, rnd.randrange(1, 2**200)) for k in range(w)] for j in range(n)]
    return sk, pack(pk), pk, rows


@pytest.mark.parametrize("n", [1, 2, 10, 100])
@pytest.mark.parametrize("w", [1, 3])
def test_honest_shuffle_verifies_and_keeps_the_rows(n: int, w: int) -> None:
    sk, pk, _, rows = setup(n, w, 1000 * n + w)
    out, proof = shuffle(pk, rows, CTX)
    assert len(out) == n and all(len(r) == w and all(len(c) == 64 for c in r) for r in out)
    assert verify_shuffle(pk, rows, out, proof, CTX)
    assert decrypt_rows(sk, rows) == decrypt_rows(sk, out)
    assert not {c for r in out for c in r} & {c for r in rows for c in r}


def test_rng_makes_it_reproducible() -> None:
    _, pk, _, rows = setup(5, 2, 3)
    a = shuffle(pk, rows, CTX, rng=random.Random(9))
    b = shuffle(pk, rows, CTX, rng=random.Random(9))
    c = shuffle(pk, rows, CTX, rng=random.Random(10))
    assert a == b and a != c


@pytest.fixture(scope="module")
def shuffled() -> tuple[bytes, Point, list[list[bytes]], list[list[bytes]], bytes]:
    _, pk, pk_point, rows = setup(10, 3, 5)
    out, proof = shuffle(pk, rows, CTX, rng=random.Random(6))
    assert verify_shuffle(pk, rows, out, proof, CTX)
    return pk, pk_point, rows, out, proof


def test_rejects_tampered_outputs(shuffled) -> None:
    pk, pk_point, rows, out, proof = shuffled

    def rejected(bad: list[list[bytes]]) -> bool:
        return verify_shuffle(pk, rows, bad, proof, CTX) is False

    replaced = [list(r) for r in out]
    replaced[3] = [encrypt(7, pk_point, 12345 + k) for k in range(3)]
    assert rejected(replaced)
    duplicated = [list(r) for r in out]
    duplicated[4] = list(duplicated[3])
    assert rejected(duplicated)
    assert rejected(out[1:])  # a dropped row
    assert rejected(out + [out[0]])  # an extra row
    changed = [list(r) for r in out]
    c1, c2 = unpack(changed[0][1][:32]), unpack(changed[0][1][32:])
    changed[0][1] = pack(c1) + pack(c2 + BASE8)  # plaintext + 1
    assert rejected(changed)
    swapped = [list(r) for r in out]
    swapped[0][2], swapped[1][2] = swapped[1][2], swapped[0][2]  # attributes across records
    assert rejected(swapped)
    exchanged = [out[1], out[0], *out[2:]]
    assert rejected(exchanged)
    assert rejected([r[:2] for r in out])  # wrong width
    assert rejected([[b"\xff" * 64] * 3] + out[1:])  # not a point
    assert rejected([["not bytes"] * 3] + out[1:])  # type: ignore[list-item]


def test_rejects_other_context_key_or_statement(shuffled) -> None:
    pk, _, rows, out, proof = shuffled
    assert not verify_shuffle(pk, rows, out, proof, b"query 8 / server 1")
    _, other_pk, _, _ = setup(1, 1, 77)
    assert not verify_shuffle(other_pk, rows, out, proof, CTX)
    assert not verify_shuffle(pk, out, rows, proof, CTX)


def test_rejects_truncated_flipped_and_misshapen_proofs(shuffled) -> None:
    pk, _, rows, out, proof = shuffled
    for cut in (0, 11, 12, len(proof) // 2, len(proof) - 1):
        assert not verify_shuffle(pk, rows, out, proof[:cut], CTX)
    assert not verify_shuffle(pk, rows, out, proof + b"\x00", CTX)
    rnd = random.Random(1)
    for bit in [0, 40, 64, 95] + rnd.sample(range(len(proof) * 8), 60):
        flipped = bytearray(proof)
        flipped[bit // 8] ^= 1 << (bit % 8)
        assert not verify_shuffle(pk, rows, out, bytes(flipped), CTX), bit
    # the header's N and w are checked against the rows before anything is read
    wrong_n = proof[:4] + (11).to_bytes(4, "little") + proof[8:]
    assert not verify_shuffle(pk, rows, out, wrong_n, CTX)
    wrong_w = proof[:8] + (1).to_bytes(4, "little") + proof[12:]
    assert not verify_shuffle(pk, rows, out, wrong_w, CTX)
    huge = proof[:4] + (2**32 - 1).to_bytes(4, "little") + proof[8:]
    assert not verify_shuffle(pk, rows, out, huge, CTX)
    assert not verify_shuffle(pk, rows, out, "proof", CTX)  # type: ignore[arg-type]


def test_malformed_own_data_is_a_value_error(shuffled) -> None:
    pk, _, rows, out, proof = shuffled
    with pytest.raises(ValueError, match="pk"):
        shuffle(pk[:31], rows, CTX)
    with pytest.raises(ValueError, match="public key"):
        shuffle(b"\xff" * 32, rows, CTX)
    with pytest.raises(ValueError, match="at least one row"):
        shuffle(pk, [], CTX)
    with pytest.raises(ValueError, match="at least one ciphertext"):
        shuffle(pk, [[]], CTX)
    with pytest.raises(ValueError, match=r"rows\[1\] has 2"):
        shuffle(pk, [rows[0], rows[1][:2]], CTX)
    with pytest.raises(ValueError, match="64 bytes"):
        shuffle(pk, [[rows[0][0][:63]]], CTX)
    with pytest.raises(ValueError, match="malformed rows"):
        shuffle(pk, [[b"\xff" * 64]], CTX)
    with pytest.raises(ValueError, match="context"):
        shuffle(pk, rows, "ctx")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="malformed input rows"):
        verify_shuffle(pk, [[b"\xff" * 64] * 3] + rows[1:], out, proof, CTX)
