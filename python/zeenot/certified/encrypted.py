"""Path (b), CRISP's own shape: the user hands the service ciphertexts of her signed values,
the service computes on them with its private weights, the user decrypts with a proof.

1. The user encrypts every value of a signed block under her own exp-ElGamal key
   (`encrypt_block`) and proves, in a `@zk` function written like
   `examples/genome/encrypted.py`, that the ciphertexts encrypt exactly the block's values:
   the circuit recomputes the block's commitment, checks the source's signature and her key,
   checks each `encrypt(v_i, user, r_i) == ct_i`, and returns `ciphertexts_digest(cts)` — a
   Poseidon hash of the ciphertexts — as its one public output, so the proof's public inputs do
   not grow with the block. The service recomputes the digest from the ciphertexts it received
   and compares (`check_ciphertexts`).
2. The service computes `Σ w_i·ct_i` with its private weights and re-randomises it
   (`weighted_sum`): without the fresh randomness the user, who knows every `r_i`, would see
   `Σ w_i·r_i` in the first point.
3. The user decrypts (`zeenot.babyjub.decrypt`) and proves the decryption with `decrypts`
   (below: `ct.c2 - sk·ct.c1 == m·B8` and `pk == sk·B8`); the service verifies the proof
   against its own ciphertext and the user's key before it accepts `m`.
"""

from collections.abc import Sequence

from zeenot.babyjub import (
    BASE8,
    Ciphertext,
    Point,
    encrypt,
    random_scalar,
    rerandomize,
)
from zeenot.types import Field, Private, Public, check, poseidon, u64, zk

MAX_WEIGHT = 2**32  # the service's weights are non-negative and below this


def ct_at(cts, n: int, i: int, j: int) -> Field:
    """Coordinate j (c1.x, c1.y, c2.x, c2.y) of ciphertext i of n, 0 past the end."""
    if i >= n:
        return Field(0)
    c = cts[i]
    return c.c1.x if j == 0 else c.c1.y if j == 1 else c.c2.x if j == 2 else c.c2.y


def ciphertexts_digest(cts, n: int) -> Field:
    """A Poseidon hash chain over the `n` ciphertexts (`n` a constant in `@zk` code), three
    (twelve coordinates) per call, seeded by their number. Runs in plain Python and inlines
    into `@zk` code."""
    h = Field(n)
    for i in range(0, n, 3):
        h = poseidon(
            h,
            ct_at(cts, n, i, 0),
            ct_at(cts, n, i, 1),
            ct_at(cts, n, i, 2),
            ct_at(cts, n, i, 3),
            ct_at(cts, n, i + 1, 0),
            ct_at(cts, n, i + 1, 1),
            ct_at(cts, n, i + 1, 2),
            ct_at(cts, n, i + 1, 3),
            ct_at(cts, n, i + 2, 0),
            ct_at(cts, n, i + 2, 1),
            ct_at(cts, n, i + 2, 2),
            ct_at(cts, n, i + 2, 3),
        )
    return h


def encrypt_block(values: Sequence[int], pk: Point) -> tuple[list[Ciphertext], list[int]]:
    """Fresh encryptions of `values` under `pk`, and their randomness (kept by the user)."""
    rs = [random_scalar() for _ in values]
    return [encrypt(v, pk, r) for v, r in zip(values, rs, strict=True)], rs


def check_ciphertexts(cts: Sequence[Ciphertext], proved_digest: int) -> None:
    """The service's check that the ciphertexts it holds are those the proof speaks about."""
    if int(ciphertexts_digest(list(cts), len(cts))) != int(proved_digest):
        raise ValueError("the ciphertexts are not those the proof covers")


def weighted_sum(cts: Sequence[Ciphertext], weights: Sequence[int], pk: Point) -> Ciphertext:
    """At the service: `Σ w_i·ct_i`, re-randomised with fresh randomness."""
    if len(cts) != len(weights) or not cts:
        raise ValueError("one weight per ciphertext, at least one")
    if any(isinstance(w, bool) or not 0 <= w < MAX_WEIGHT for w in weights):
        raise ValueError(f"weights are integers in [0, {MAX_WEIGHT})")
    acc = sum(
        (w * c for w, c in zip(weights, cts, strict=True) if w),
        Ciphertext(Point.identity(), Point.identity()),
    )
    return rerandomize(acc, pk, random_scalar())


@zk
def decrypts(pk: Public[Point], ct: Public[Ciphertext], m: Public[u64], sk: Private[Field]) -> bool:
    """`m` is the decryption of `ct` under the secret key of `pk`."""
    check(sk * BASE8 == pk, "not the key's owner")
    check(ct.c2 - sk * ct.c1 == m * BASE8, "not the decryption")
    return True


__all__ = [
    "check_ciphertexts",
    "ciphertexts_digest",
    "decrypts",
    "encrypt_block",
    "weighted_sum",
]
