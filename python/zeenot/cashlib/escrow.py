"""Verifiable encryption of a committed scalar to an arbiter, with labels (Camenisch–Shoup style),
and the arbiter's provably correct decryption: what fair exchange escrows a coin's secret with.

A party holding the opening `(v, r)` of a Pedersen commitment `C = v·G + r·H` (any scalar `v`
modulo the subgroup order `l`) encrypts `v` to an arbiter's Baby Jubjub key `pk` under a *label*
(the escrow's condition: "release if the seller shows a receipt for contract #42"):

1. `v = Σ_k 2^(16k)·v_k` with 16 chunks `0 ≤ v_k < 2^16` (16·16 = 256 bits ≥ log2 l);
2. each chunk is encrypted in exponential ElGamal, `ct_k = (r_k·G, v_k·G + r_k·pk)`, and
   committed, `D_k = v_k·G + s_k·H`;
3. one sigma proof (zeenot.sigma) of `ct_k` and `D_k` holding the same `v_k` for every `k`, and
   of `C = Σ_k v_k·(2^(16k)·G) + r·H`: the chunks recombine to the committed value;
4. one aggregated Bulletproof that every `D_k` opens below `2^16`.

Anyone can check an `Escrow` against `C`, `pk` and the label (`verify_escrow`), learning
nothing of `v` (ElGamal is semantically secure; the proofs are zero-knowledge). The arbiter
decrypts (`decrypt`: it first checks the escrow under the label it is asked to honour, then
finds each chunk by baby-step giant-step in `[0, 2^16)`, the native discrete log) and proves it
decrypted correctly: one sigma statement `pk = x·G ∧ (c2_k − v_k·G) = x·c1_k` for every `k`
(a batched DLEQ). `verify_decryption` lets anyone check the arbiter's answer.

**Soundness.** By the range proof each chunk is an integer in `[0, 2^16)`, so the arbiter's
search always succeeds and the chunks are unique; by the sigma proof (and the binding of
Pedersen commitments) `Σ 2^(16k)·v_k ≡ v (mod l)`, so the recombined value reduced modulo `l`
is exactly the committed `v`. Every Fiat–Shamir challenge (the sigma proofs' and the
Bulletproof's) hashes a context holding this module's domain and the label, besides the whole
statement (every point: `C`, `pk`, the ciphertexts, the commitments): an escrow made under one
label does not verify under another, and the arbiter's proof is bound to the label too.

Sizes and limits: an `Escrow` is `16·64 + 16·32 + 4 + 3,136 + 800 = 5,476` bytes
(`to_bytes`); labels up to 64 KiB. Bad input (a malformed escrow, a commitment that does not
open to the witness, a key that does not match) is an `EscrowError` (a `ZeenotError` and a
`ValueError`); a proof that does not verify is `False`.
"""

from __future__ import annotations

import functools
import random
import secrets as _random
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from zeenot.babyjub import BASE8, SUBGROUP_ORDER, Ciphertext, Point
from zeenot.errors import ZeenotError
from zeenot.sigma import (
    And,
    DLRep,
    Element,
    Secret,
    Statement,
    batch_verify,
    pedersen_commit,
)

__all__ = [
    "CHUNKS",
    "CHUNK_BITS",
    "MAX_LABEL_BYTES",
    "Decryption",
    "Escrow",
    "EscrowError",
    "decrypt",
    "escrow",
    "verify_decryption",
    "verify_escrow",
]

CHUNK_BITS = 16
CHUNKS = 16  # 16 chunks of 16 bits cover every scalar below l < 2^252
MAX_LABEL_BYTES = 1 << 16
_DOMAIN = b"zeenot/cashlib/escrow/v1"
_DECRYPT_DOMAIN = b"zeenot/cashlib/escrow/decrypt/v1"
_MAX_RANGE_PROOF = 4096
_POINT = 32


class EscrowError(ZeenotError, ValueError):
    """A malformed escrow or decryption, or a witness / key that does not fit the statement."""


def _native() -> Any:
    from zeenot import _native

    return _native


def _pack(p: Point) -> bytes:
    return bytes(_native().bj_pack(str(int(p.x)), str(int(p.y))))


def _unpack(data: bytes, what: str) -> Point:
    try:
        x, y = _native().bj_unpack(data)
    except ValueError as e:
        raise EscrowError(f"{what}: {e}") from None
    return Point._trusted(int(x), int(y))


def _label(label: Any) -> bytes:
    if isinstance(label, str):
        label = label.encode()
    if not isinstance(label, (bytes, bytearray, memoryview)):
        raise TypeError(f"the label must be bytes or str, got {type(label).__name__}")
    label = bytes(label)
    if len(label) > MAX_LABEL_BYTES:
        raise EscrowError(f"the label is {len(label)} bytes, more than {MAX_LABEL_BYTES}")
    return label


def _point(p: Any, what: str) -> Point:
    if not isinstance(p, Point):
        raise TypeError(f"{what} must be a babyjub Point, got {type(p).__name__}")
    return p


def _context(domain: bytes, label: bytes, commitment: Point, pk: Point) -> bytes:
    """`len ‖ domain ‖ len ‖ label ‖ C ‖ pk` (8-byte little-endian lengths): what every
    Fiat–Shamir challenge of an escrow (or of its decryption) is bound to, on top of the
    statement each proof already hashes."""
    return b"".join(
        (
            struct.pack("<Q", len(domain)),
            domain,
            struct.pack("<Q", len(label)),
            label,
            _pack(commitment),
            _pack(pk),
        )
    )


def _chunks_of(v: int) -> list[int]:
    return [(v >> (CHUNK_BITS * k)) & ((1 << CHUNK_BITS) - 1) for k in range(CHUNKS)]


def _recombine(chunks: Sequence[int]) -> int:
    return sum(c << (CHUNK_BITS * k) for k, c in enumerate(chunks)) % SUBGROUP_ORDER


@dataclass(frozen=True)
class Escrow:
    """A verifiable encryption: the chunk ciphertexts, the chunk commitments `D_k`, the sigma
    proof and the Bulletproof. `to_bytes()`: 16 × (`c1 ‖ c2`), 16 × `D_k`, the sigma proof's
    length (4 bytes LE), the sigma proof, the Bulletproof."""

    ciphertexts: tuple[Ciphertext, ...]
    commitments: tuple[Point, ...]
    proof: bytes
    range_proof: bytes

    def to_bytes(self) -> bytes:
        head = b"".join(_pack(c.c1) + _pack(c.c2) for c in self.ciphertexts)
        head += b"".join(_pack(d) for d in self.commitments)
        return head + struct.pack("<I", len(self.proof)) + self.proof + self.range_proof

    @classmethod
    def from_bytes(cls, data: Any) -> Escrow:
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"an escrow is bytes, got {type(data).__name__}")
        data = bytes(data)
        fixed = CHUNKS * 3 * _POINT
        if not fixed + 4 <= len(data) <= fixed + 4 + _escrow_proof_size() + _MAX_RANGE_PROOF:
            raise EscrowError(f"an escrow of {len(data)} bytes: truncated or too long")
        pts = [
            _unpack(data[i * _POINT : (i + 1) * _POINT], f"point {i} of the escrow")
            for i in range(CHUNKS * 3)
        ]
        cts = tuple(Ciphertext(pts[2 * k], pts[2 * k + 1]) for k in range(CHUNKS))
        (n,) = struct.unpack("<I", data[fixed : fixed + 4])
        if n != _escrow_proof_size() or len(data) < fixed + 4 + n:
            raise EscrowError("an escrow whose sigma proof has the wrong length")
        proof = data[fixed + 4 : fixed + 4 + n]
        return cls(cts, tuple(pts[2 * CHUNKS :]), proof, data[fixed + 4 + n :])


@functools.cache
def _chunk_bases() -> tuple[Element, ...]:
    """`2^(16k)·G` for every chunk (fixed: computed once per process)."""
    return tuple(
        Element(f"2^{CHUNK_BITS * k}*G", (1 << (CHUNK_BITS * k)) * BASE8) for k in range(CHUNKS)
    )


class _EscrowStatement:
    """The sigma statement of an escrow, with its secrets (for the prover's witness)."""

    def __init__(
        self,
        commitment: Point,
        pk: Point,
        ciphertexts: Sequence[Ciphertext],
        commitments: Sequence[Point],
    ):
        if len(ciphertexts) != CHUNKS or len(commitments) != CHUNKS:
            raise EscrowError(f"an escrow has {CHUNKS} chunk ciphertexts and commitments")
        G, H = Element.generator(), Element.blinding()
        pkE = Element("pk", pk)
        self.chunk = tuple(Secret(f"v{k}") for k in range(CHUNKS))
        self.enc = tuple(Secret(f"r{k}") for k in range(CHUNKS))
        self.blind = tuple(Secret(f"s{k}") for k in range(CHUNKS))
        self.opening = Secret("r")
        parts: list[Statement] = []
        for k, (ct, d) in enumerate(zip(ciphertexts, commitments, strict=True)):
            vk, rk, sk = self.chunk[k], self.enc[k], self.blind[k]
            parts.append(DLRep(Element(f"c1_{k}", ct.c1), rk * G))
            parts.append(DLRep(Element(f"c2_{k}", ct.c2), vk * G + rk * pkE))
            parts.append(DLRep(Element(f"D{k}", d), vk * G + sk * H))
        recombined = sum(vk * g for vk, g in zip(self.chunk, _chunk_bases(), strict=True))
        parts.append(DLRep(Element("C", commitment), recombined + self.opening * H))
        self.statement = And(*parts)


def _escrow_proof_size() -> int:
    # 49 equations and 49 secrets, 32 bytes each (see `_EscrowStatement`).
    return 32 * 2 * (3 * CHUNKS + 1)


def escrow(
    value: int,
    blinding: int,
    commitment: Point,
    arbiter_pk: Point,
    label: Any,
    *,
    seed: int | None = None,
) -> Escrow:
    """Encrypt the `value` committed in `commitment = value·G + blinding·H` to the arbiter's
    key under `label`, with the proofs. `EscrowError` if the commitment does not open to
    `(value, blinding)`. `seed` (below 2^64) makes it deterministic: insecure, tests only."""
    commitment = _point(commitment, "the commitment")
    pk = _point(arbiter_pk, "the arbiter's key")
    label = _label(label)
    for name, x in (("value", value), ("blinding", blinding)):
        if isinstance(x, bool) or not isinstance(x, int):
            raise TypeError(f"the {name} must be an integer")
    v = value % SUBGROUP_ORDER
    if pedersen_commit(v, blinding % SUBGROUP_ORDER) != commitment:
        raise EscrowError("the commitment does not open to this value and blinding")
    if pk == Point.identity():
        raise EscrowError("the arbiter's key is the identity")
    return _prove(_chunks_of(v), blinding, commitment, pk, label, seed=seed)


def _prove(
    chunks: Sequence[int],
    blinding: int,
    commitment: Point,
    pk: Point,
    label: bytes,
    *,
    seed: int | None = None,
    range_bits: int = CHUNK_BITS,
) -> Escrow:
    """The escrow of these chunks (the honest ones from `escrow`; tests pass others, and a
    `range_bits` other than 16, to check that the verifier rejects what comes out)."""
    draw = random.Random(seed).randrange if seed is not None else _random.randbelow
    enc = [1 + draw(SUBGROUP_ORDER - 1) for _ in range(CHUNKS)]
    blind = [draw(SUBGROUP_ORDER) for _ in range(CHUNKS)]
    cts = tuple(Ciphertext(r * BASE8, c * BASE8 + r * pk) for c, r in zip(chunks, enc, strict=True))
    ctx = _context(_DOMAIN, label, commitment, pk)
    try:
        range_proof, packed = _native().bp_range_prove(
            list(chunks), [s.to_bytes(32, "little").hex() for s in blind], range_bits, ctx, seed
        )
    except ValueError as e:
        raise EscrowError(f"the range proof refuses the chunks: {e}") from None
    ds = tuple(_unpack(bytes(p), "a chunk commitment") for p in packed)
    st = _EscrowStatement(commitment, pk, cts, ds)
    witness: dict[Secret, int] = {st.opening: blinding % SUBGROUP_ORDER}
    for k in range(CHUNKS):
        witness[st.chunk[k]] = chunks[k]
        witness[st.enc[k]] = enc[k]
        witness[st.blind[k]] = blind[k]
    proof = st.statement.prove(witness, context=ctx, seed=seed)
    return Escrow(cts, ds, proof, bytes(range_proof))


def _parse(esc: Any) -> Escrow | None:
    if isinstance(esc, Escrow):
        return esc
    try:
        return Escrow.from_bytes(esc)
    except EscrowError:
        return None


def _checked_parts(
    esc: Any, commitment: Point, pk: Point, label: bytes
) -> tuple[Escrow, Statement, bytes] | None:
    """The parsed escrow, its sigma statement and context, once its Bulletproof verifies;
    `None` for a malformed escrow, an identity key, or a range proof that fails."""
    parsed = _parse(esc)
    if parsed is None or len(parsed.ciphertexts) != CHUNKS or len(parsed.commitments) != CHUNKS:
        return None
    if len(parsed.range_proof) > _MAX_RANGE_PROOF or pk == Point.identity():
        return None
    ctx = _context(_DOMAIN, label, commitment, pk)
    packed = [_pack(d) for d in parsed.commitments]
    try:
        if not _native().bp_range_verify(packed, parsed.range_proof, CHUNK_BITS, ctx):
            return None
    except ValueError:
        return None
    st = _EscrowStatement(commitment, pk, parsed.ciphertexts, parsed.commitments).statement
    return parsed, st, ctx


def verify_escrow(esc: Escrow | bytes, commitment: Point, arbiter_pk: Point, label: Any) -> bool:
    """Whether `esc` encrypts, to `arbiter_pk` under `label`, the value committed in
    `commitment` (`False` for malformed bytes too)."""
    commitment = _point(commitment, "the commitment")
    pk = _point(arbiter_pk, "the arbiter's key")
    parts = _checked_parts(esc, commitment, pk, _label(label))
    if parts is None:
        return False
    parsed, st, ctx = parts
    return st.verify(parsed.proof, context=ctx)


@dataclass(frozen=True)
class Decryption:
    """The arbiter's answer: the chunks it decrypted (`value` is their recombination modulo
    `l`) and its proof that each is the plaintext of its ciphertext under its key."""

    chunks: tuple[int, ...]
    proof: bytes

    @property
    def value(self) -> int:
        return _recombine(self.chunks)


def _decryption_statement(
    pk: Point, esc: Escrow, chunks: Sequence[int]
) -> tuple[Statement, Secret]:
    """`pk = x·G ∧ (c2_k − v_k·G) = x·c1_k` for every chunk: one secret, a batched DLEQ."""
    x = Secret("x")
    G = Element.generator()
    parts: list[Statement] = [DLRep(Element("pk", pk), x * G)]
    for k, (ct, c) in enumerate(zip(esc.ciphertexts, chunks, strict=True)):
        plain = Element(f"c2_{k} - v{k}*G", ct.c2 - c * BASE8)
        parts.append(DLRep(plain, x * Element(f"c1_{k}", ct.c1)))
    return And(*parts), x


def decrypt(
    arbiter_sk: int, esc: Escrow | bytes, commitment: Point, label: Any, *, seed: int | None = None
) -> Decryption:
    """The arbiter's decryption, with its proof. The arbiter first checks the escrow against
    `commitment` and `label` (the condition it was asked to honour): `EscrowError` if it does
    not verify, so an arbiter never decrypts under a label it was not given."""
    if isinstance(arbiter_sk, bool) or not isinstance(arbiter_sk, int):
        raise TypeError("the arbiter's secret key must be an integer")
    sk = arbiter_sk % SUBGROUP_ORDER
    if sk == 0:
        raise EscrowError("the arbiter's secret key is zero")
    pk = sk * BASE8
    label = _label(label)
    parsed = _parse(esc)
    if parsed is None or not verify_escrow(parsed, commitment, pk, label):
        raise EscrowError("the escrow does not verify for this commitment, key and label")
    chunks = []
    for k, ct in enumerate(parsed.ciphertexts):
        c1 = (str(int(ct.c1.x)), str(int(ct.c1.y)))
        c2 = (str(int(ct.c2.x)), str(int(ct.c2.y)))
        try:
            chunks.append(int(_native().bj_decrypt(str(sk), c1, c2, CHUNK_BITS)))
        except (ValueError, _native().ZeenotError) as e:  # unreachable for a verified escrow
            raise EscrowError(f"chunk {k} has no plaintext below 2^{CHUNK_BITS}: {e}") from None
    st, x = _decryption_statement(pk, parsed, chunks)
    ctx = _context(_DECRYPT_DOMAIN, label, commitment, pk)
    return Decryption(tuple(chunks), st.prove({x: sk}, context=ctx, seed=seed))


def verify_decryption(
    esc: Escrow | bytes,
    commitment: Point,
    arbiter_pk: Point,
    label: Any,
    decryption: Decryption,
) -> bool:
    """Whether `decryption` is the correct decryption of a valid escrow: the escrow verifies
    (so its chunks recombine to the value in `commitment`), every claimed chunk is in
    `[0, 2^16)`, and the arbiter's proof shows each is its ciphertext's plaintext under
    `arbiter_pk`, for `label`. Then `decryption.value` is the committed value."""
    commitment = _point(commitment, "the commitment")
    pk = _point(arbiter_pk, "the arbiter's key")
    label = _label(label)
    if not isinstance(decryption, Decryption):
        raise TypeError("decryption must be a Decryption")
    chunks = decryption.chunks
    if len(chunks) != CHUNKS or not all(
        type(c) is int and 0 <= c < 1 << CHUNK_BITS for c in chunks
    ):
        return False
    if not isinstance(decryption.proof, (bytes, bytearray)):
        return False
    parts = _checked_parts(esc, commitment, pk, label)
    if parts is None:
        return False
    parsed, st, ctx = parts
    dst, _ = _decryption_statement(pk, parsed, chunks)
    dctx = _context(_DECRYPT_DOMAIN, label, commitment, pk)
    # The escrow's proof and the arbiter's, checked together (one multi-exponentiation).
    return batch_verify([(st, parsed.proof, ctx), (dst, bytes(decryption.proof), dctx)])
