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
from dataclasses import dataclass
from typing import Any

from zeenot.babyjub import (
    BASE8,
    Ciphertext,
    Point,
    decrypt,
    encrypt,
    random_scalar,
    rerandomize,
)
from zeenot.errors import MalformedInput
from zeenot.types import Field, Private, Public, check, poseidon, u64, zk

MAX_WEIGHT = 2**32  # the service's weights are non-negative and below this
MAX_ROWS = 64  # results a service computes from one set of ciphertexts
MAX_CIPHERTEXTS = 65_536
DECRYPT_BITS = 40  # a decrypted result is below 2^40 (baby-step giant-step, ~1 s)
WEIGHTS_FORMAT = 1


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


@zk
def decrypts_dleq(
    pk: Public[Point], ct: Public[Ciphertext], m: Public[u64], sk: Private[Field]
) -> bool:
    """`decrypts` written for the sigma back end (no negation of a private scalar): a DLEQ
    proof that `log_B8(pk) == log_c1(c2 − m·B8)`; ~10 ms to prove or verify."""
    check(sk * BASE8 == pk, "not the key's owner")
    check(sk * ct.c1 + m * BASE8 == ct.c2, "not the decryption")
    return True


@dataclass(frozen=True)
class Weights:
    """The service's private linear functions over the user's ciphertexts: result `j` is
    `(Σ_i rows[j][i]·v_i) // divisor` (the division after decryption, in the clear)."""

    names: list[str]
    rows: list[list[int]]
    divisor: int = 1

    @classmethod
    def from_json(cls, doc: Any) -> "Weights":
        """A weights file (`zeenot_certified_weights: 1`), every length and value bounded."""
        if not isinstance(doc, dict) or doc.get("zeenot_certified_weights") != WEIGHTS_FORMAT:
            raise MalformedInput(
                f"not a weights file (`zeenot_certified_weights: {WEIGHTS_FORMAT}`)"
            )
        if not set(doc) <= {"zeenot_certified_weights", "names", "rows", "divisor"}:
            raise MalformedInput("a weights file has `names`, `rows` and an optional `divisor`")
        names, rows, divisor = doc.get("names"), doc.get("rows"), doc.get("divisor", 1)
        if not isinstance(rows, list) or not 1 <= len(rows) <= MAX_ROWS:
            raise MalformedInput(f"`rows`: 1 to {MAX_ROWS} rows of weights")
        if not isinstance(names, list) or len(names) != len(rows):
            raise MalformedInput("`names`: one name per row")
        if any(not isinstance(n, str) or not 0 < len(n) <= 64 for n in names):
            raise MalformedInput("`names` are strings of 1 to 64 characters")
        width = len(rows[0]) if isinstance(rows[0], list) else -1
        if not 1 <= width <= MAX_CIPHERTEXTS:
            raise MalformedInput(f"a row has 1 to {MAX_CIPHERTEXTS} weights")
        for row in rows:
            if not isinstance(row, list) or len(row) != width:
                raise MalformedInput("every row has one weight per ciphertext")
            if any(isinstance(w, bool) or not isinstance(w, int) for w in row):
                raise MalformedInput("weights are integers")
            if any(not 0 <= w < MAX_WEIGHT for w in row):
                raise MalformedInput(f"weights are in [0, {MAX_WEIGHT})")
        if isinstance(divisor, bool) or not isinstance(divisor, int) or not 1 <= divisor < 2**32:
            raise MalformedInput("`divisor` is an integer in [1, 2^32)")
        return cls(list(names), [list(r) for r in rows], divisor)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    def apply(self, cts: Sequence[Ciphertext], pk: Point) -> list[Ciphertext]:
        """Each row's weighted sum of the ciphertexts, re-randomised (`weighted_sum`)."""
        if len(cts) != self.width:
            raise ValueError(f"{len(cts)} ciphertexts, the weights expect {self.width}")
        return [weighted_sum(cts, row, pk) for row in self.rows]

    def finish(self, values: Sequence[int]) -> list[int]:
        """The results from the decrypted sums."""
        return [int(v) // self.divisor for v in values]


def decrypt_value(sk: int, ct: Ciphertext) -> int:
    """The user's decryption of one of the service's sums (below 2^DECRYPT_BITS)."""
    from zeenot._native import ZeenotError

    try:
        return decrypt(sk, ct, bits=DECRYPT_BITS)
    except ZeenotError:
        raise MalformedInput(
            f"a sum does not decrypt below 2^{DECRYPT_BITS} under this key (another user's "
            "ciphertexts, or a result too large)"
        ) from None


def parse_ciphertexts(doc: Any, what: str, limit: int = MAX_CIPHERTEXTS) -> list[Ciphertext]:
    """JSON ciphertexts (`[{c1: {x, y}, c2: {x, y}}]`), every point on the curve and in the
    prime-order subgroup, the count bounded before anything is built."""
    from zeenot.certified.blocks import _point

    if not isinstance(doc, list) or not 1 <= len(doc) <= limit:
        raise MalformedInput(f"{what}: a list of 1 to {limit} ciphertexts")
    out = []
    for c in doc:
        if not isinstance(c, dict) or set(c) != {"c1", "c2"}:
            raise MalformedInput(f"{what}: a ciphertext is {{c1, c2}}")
        out.append(Ciphertext(_point(c["c1"], what), _point(c["c2"], what)))
    return out


def dleq_inputs(pk: Point, ct: Ciphertext, m: int, sk: int | None = None) -> dict[str, Any]:
    """`decrypts_dleq`'s inputs (the public ones alone without `sk`)."""
    from zeenot.ir import to_json_value

    doc: dict[str, Any] = {"pk": to_json_value(pk), "ct": to_json_value(ct), "m": m}
    if sk is not None:
        doc["sk"] = str(sk)
    return doc


__all__ = [
    "Weights",
    "check_ciphertexts",
    "ciphertexts_digest",
    "decrypt_value",
    "decrypts",
    "decrypts_dleq",
    "dleq_inputs",
    "encrypt_block",
    "parse_ciphertexts",
    "weighted_sum",
]
