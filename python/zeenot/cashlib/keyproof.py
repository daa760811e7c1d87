"""Proofs that the caller holds a secret key, for the arbiter's answers that only one party of an
exchange is entitled to (the file key the buyer paid for; the key each side of a barter is
owed).

A party entitled to an answer is named in the exchange by a public key `P = k·G`: the buyer and
the barter's payer by their coin's endorsement key `X = x·G` (only they know `x` until they
release it, and after releasing it they are entitled anyway), the barter's other side by the
one-time key its contract names. A `KeyProof` is a Schnorr proof of knowledge of `k`, written in
`zeenot.sigma` (`P = k·G`), whose Fiat–Shamir context hashes this module's domain, the purpose,
the exchange's id, the arbiter's key, `P` and the prover's Unix time: a proof made for one
exchange, purpose, arbiter or key does not verify for another, and an arbiter accepts one only
within `MAX_SKEW` seconds of its clock (an eavesdropper who replays a proof within that window
sees the answer go back to the replaying connection — use TLS between the processes; the proof
does not replace it). A proof is 8 bytes of time and 64 bytes of sigma proof.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from zeenot.babyjub import BASE8, SUBGROUP_ORDER, Point
from zeenot.cashlib import group
from zeenot.errors import ZeenotError
from zeenot.sigma import DLRep, Element, Secret

__all__ = ["MAX_SKEW", "KeyProof", "KeyProofError", "prove_key", "verify_key"]

_DOMAIN = b"zeenot/cashlib/keyproof/v1"
MAX_SKEW = 120
_PROOF_BYTES = 64


class KeyProofError(ZeenotError, ValueError):
    """A malformed key proof."""


@dataclass(frozen=True)
class KeyProof:
    at: int
    proof: bytes

    def to_bytes(self) -> bytes:
        return self.at.to_bytes(8, "little") + self.proof

    @classmethod
    def from_bytes(cls, data: Any) -> KeyProof:
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"a key proof is bytes, got {type(data).__name__}")
        data = bytes(data)
        if len(data) != 8 + _PROOF_BYTES:
            raise KeyProofError(f"a key proof is {8 + _PROOF_BYTES} bytes, not {len(data)}")
        return cls(int.from_bytes(data[:8], "little"), data[8:])


def _statement(public: Point) -> tuple[DLRep, Secret]:
    k = Secret("k")
    return DLRep(Element("P", public), k * Element.generator()), k


def _context(purpose: bytes, exchange: bytes, arbiter_pk: Point, public: Point, at: int) -> bytes:
    return group.frame(
        _DOMAIN,
        bytes(purpose),
        bytes(exchange),
        group.pack(arbiter_pk),
        group.pack(public),
        at.to_bytes(8, "little"),
    )


def prove_key(
    secret: int, purpose: bytes, exchange: bytes, arbiter_pk: Point, *, at: float | None = None
) -> KeyProof:
    """A proof that the caller knows `secret` (for `purpose` in `exchange`, to this arbiter)."""
    if isinstance(secret, bool) or not isinstance(secret, int) or secret % SUBGROUP_ORDER == 0:
        raise KeyProofError("the secret is a nonzero integer")
    k = secret % SUBGROUP_ORDER
    public = k * BASE8
    t = int(time.time() if at is None else at)
    st, var = _statement(public)
    ctx = _context(purpose, exchange, arbiter_pk, public, t)
    return KeyProof(t, st.prove({var: k}, context=ctx))


def verify_key(
    public: Point,
    proof: KeyProof | bytes,
    purpose: bytes,
    exchange: bytes,
    arbiter_pk: Point,
    *,
    at: float | None = None,
) -> bool:
    """Whether `proof` shows knowledge of `log_G public` for `purpose` in `exchange` to this
    arbiter, made within `MAX_SKEW` seconds of `at` (now). `False` for malformed bytes."""
    if not isinstance(proof, KeyProof):
        try:
            proof = KeyProof.from_bytes(proof)
        except (KeyProofError, TypeError):
            return False
    now = time.time() if at is None else at
    if abs(now - proof.at) > MAX_SKEW or public == Point.identity():
        return False
    st, _ = _statement(public)
    ctx = _context(purpose, exchange, arbiter_pk, public, proof.at)
    try:
        return bool(st.verify(proof.proof, context=ctx))
    except ValueError:
        return False
