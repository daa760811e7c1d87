"""Batch verification of shuffles from Python (zeenot.shuffle.verify_batch): a chain of honest
shuffles verifies in one batch; a batch with one bad proof (a tampered response, proofs
swapped between two statements, a proof of another list, another context) is rejected and the
bad one named; malformed items are refused or `False` as documented."""

from __future__ import annotations

import random

import pytest

from zeenot import _native
from zeenot.babyjub import BASE8, Point
from zeenot.shuffle import shuffle, verify_batch, verify_shuffle

Item = tuple[bytes, list[list[bytes]], list[list[bytes]], bytes, bytes]


def pack(p: Point) -> bytes:
    return _native.bj_pack(str(int(p.x)), str(int(p.y)))


def setup(n: int, seed: int) -> tuple[bytes, list[list[bytes]]]:
    """A key and `n` rows of one encryption each (row `j` holds `j`)."""
    rnd = random.Random(seed)
    pk = rnd.randrange(1, 2**200) * BASE8
    rows = []
    for j in range(n):
        r = rnd.randrange(1, 2**200)
        rows.append([pack(r * BASE8) + pack(j * BASE8 + r * pk)])
    return pack(pk), rows


def chain(k: int, n: int, seed: int) -> list[Item]:
    """`k` shuffles of `n` rows of width 1, each the next one's input, one context each."""
    pk, rows = setup(n, seed)
    rnd = random.Random(seed + 1)
    items: list[Item] = []
    for i in range(k):
        ctx = b"query 7|server %d" % i
        out, proof = shuffle(pk, rows, ctx, rng=rnd)
        items.append((pk, rows, out, proof, ctx))
        rows = out
    return items


def tamper(proof: bytes, at: int) -> bytes:
    """The proof with one byte of a response changed (scalars are at the end, little-endian:
    the low byte of a scalar `at` scalars from the end stays canonical)."""
    b = bytearray(proof)
    b[len(proof) - 32 * at] ^= 0x01
    return bytes(b)


def test_a_chain_verifies_in_one_batch() -> None:
    items = chain(4, 20, 1)
    assert verify_batch(items) == [True] * 4
    assert verify_batch([]) == []
    assert all(verify_shuffle(*item) for item in items)


def test_a_tampered_response_is_named() -> None:
    items = chain(4, 12, 2)
    pk, cin, cout, proof, ctx = items[2]
    items[2] = (pk, cin, cout, tamper(proof, 3), ctx)
    assert verify_batch(items) == [True, True, False, True]


def test_proofs_swapped_between_statements_are_named() -> None:
    items = chain(3, 10, 3)
    (a0, a1, a2, pa, ca), (b0, b1, b2, pb, cb) = items[0], items[1]
    items[0], items[1] = (a0, a1, a2, pb, ca), (b0, b1, b2, pa, cb)
    assert verify_batch(items) == [False, False, True]


def test_a_proof_for_another_list_is_named() -> None:
    items = chain(3, 10, 4)
    pk, cin, cout, _, ctx = items[1]
    other_out, other_proof = shuffle(pk, cin, ctx, rng=random.Random(99))
    assert verify_shuffle(pk, cin, other_out, other_proof, ctx)
    items[1] = (pk, cin, cout, other_proof, ctx)
    assert verify_batch(items) == [True, False, True]
    items[1] = (pk, cin, cout, items[1][3], b"query 8|server 1")  # another context
    assert verify_batch(items) == [True, False, True]


def test_malformed_items() -> None:
    items = chain(2, 5, 5)
    pk, cin, cout, proof, ctx = items[1]
    short = (pk, cin, cout[:4], proof, ctx)  # another shape: False, the rest still checked
    assert verify_batch([items[0], short]) == [True, False]
    assert verify_batch([items[0], (pk, cin, cout, proof[:-1], ctx)]) == [True, False]
    off = bytearray(cout[0][0])
    off[31] ^= 0x01  # almost surely no longer a point of the subgroup
    bad_rows = [[bytes(off)], *cout[1:]]
    assert verify_batch([items[0], (pk, cin, bad_rows, proof, ctx)]) == [True, False]
    assert verify_batch([items[0], (pk, bad_rows, cout, proof, ctx)]) == [True, False]
    with pytest.raises(ValueError, match=r"items\[1\] pk"):
        verify_batch([items[0], (b"\x00" * 31, cin, cout, proof, ctx)])
    with pytest.raises(ValueError, match=r"items\[1\]"):
        verify_batch([items[0], (b"\xff" * 32, cin, cout, proof, ctx)])
    with pytest.raises(ValueError, match="items"):
        verify_batch("not a list")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at most"):
        verify_batch([items[0]] * 4097)
