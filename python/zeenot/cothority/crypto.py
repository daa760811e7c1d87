"""The collective authority's cryptography (issue 29): t-of-m DKG, threshold key switching and
deterministic tags with batched proofs, homomorphic aggregation, bounded decryption and
discrete-Laplace noise lists. The protocols and their proofs are documented in the Rust
module `zeenot_crypto::cothority` (crates/zeenot-crypto/src/cothority/).

API summary (stable; bytes-based for speed):

* Encodings. A point (key, commitment) is 32 bytes (circomlib's packed form); a ciphertext
  `(K, C) = (r·B, m·B + r·X)` is 64 bytes `K ‖ C`; a batch of ciphertexts is their
  concatenation (`bytes`) or a sequence of 64-byte items; results are concatenated `bytes`
  (`split_ciphertexts` cuts them). Scalars (shares, secrets, Lagrange coefficients) are
  Python ints in `[0, l)`. Every decode checks lengths, canonical form, the curve and the
  prime-order subgroup: malformed input raises `MalformedInput`, a wrong Python type
  `UsageError`; a proof that does not verify makes `verify_*` return False.
* DKG (servers `1..m`, threshold `t`): `deal(index, t, m, session) -> (Dealing, shares)`
  (`shares[j-1]` goes privately to server j), `verify_dealing(dealing)`,
  `verify_share(dealing, j, share)`, `Complaint(dealer, complainer)`,
  `resolve_complaint(dealing, complaint, revealed_share)`,
  `combine(qualified, index, shares) -> KeyShare`, `combine_public(qualified) -> CollectiveKey`,
  `lagrange_at_zero(answering_set, j) -> int`.
* Key switching: `key_switch(share, lagrange, ciphertexts, querier_pk, context) -> SwitchBatch`,
  `verify_key_switch(batch, X_j, lagrange, ciphertexts, querier_pk, context) -> bool`,
  `combine_switches(ciphertexts, batches) -> bytes` (ciphertexts under the querier's key).
* Tags: `tag_secret() -> TagSecret` (publish `.commitment` before the query),
  `tag_step(secret, share, lagrange, ciphertexts, context) -> TagBatch`,
  `verify_tag_step(batch, S_j, X_j, lagrange, ciphertexts, context) -> bool`,
  `tag_of_value(v) -> bytes` (the trivial ciphertext to run through the chain for
  `WHERE attr = v`), `tags(final_outputs) -> list[bytes]` (the 32-byte tags).
* Ciphertexts: `keygen()`, `encrypt(pk, values)`, `encrypt_trivial(values)`,
  `aggregate(ciphertexts) -> bytes`, `decrypt_bounded(sk, ct, bits, signed=False) -> int`,
  `decrypt_many(...)` (`PlaintextOutOfRange` when a plaintext is outside the bound),
  `to_babyjub` / `from_babyjub` (for `zeenot.sigma`'s range proofs).
* Noise: `noise_list(epsilon, sensitivity, length) -> list[int]`,
  `noise_delta(values, epsilon, sensitivity) -> float`, `noise_pmf(k, epsilon, sensitivity)`.
* Every dataclass has `to_json()` / `from_json()` (bytes as hex) for the wire.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar

from zeenot.babyjub import SUBGROUP_ORDER, Ciphertext, Point
from zeenot.errors import MalformedInput, UsageError

POINT_LEN = 32
SCALAR_LEN = 32
CIPHERTEXT_LEN = 64
SWITCH_PROOF_LEN = 96
TAG_PROOF_LEN = 128
POK_LEN = 64
MAX_SERVERS = 1024
MAX_BATCH = 1 << 24

Ciphertexts = bytes | bytearray | memoryview | Sequence[bytes]
"""A batch of ciphertexts: `64·n` concatenated bytes, or a sequence of 64-byte items."""

T = TypeVar("T")


def _native() -> Any:
    from zeenot import _native

    return _native


def _call(f: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """A native call with its ValueError (malformed bytes, bad parameters) as MalformedInput."""
    try:
        return f(*args, **kwargs)
    except ValueError as e:
        raise MalformedInput(str(e)) from None
    except OverflowError as e:
        raise MalformedInput(f"integer out of range: {e}") from None


def _int(v: Any, what: str, lo: int = 0, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise UsageError(f"{what} must be an int, got {type(v).__name__}")
    if v < lo or (hi is not None and v > hi):
        raise MalformedInput(f"{what} = {v} is outside [{lo}, {hi}]")
    return int(v)


def _bytes(v: Any, what: str, length: int | None = None) -> bytes:
    if not isinstance(v, bytes | bytearray | memoryview):
        raise UsageError(f"{what} must be bytes, got {type(v).__name__}")
    b = bytes(v)
    if length is not None and len(b) != length:
        raise MalformedInput(f"{what} must be {length} bytes, got {len(b)}")
    return b


def _scalar_to_bytes(v: Any, what: str) -> bytes:
    return _int(v, what, 0, SUBGROUP_ORDER - 1).to_bytes(SCALAR_LEN, "little")


def _scalar_from_bytes(b: bytes) -> int:
    return int.from_bytes(b, "little")


def _batch(cts: Any, what: str = "ciphertexts") -> bytes:
    """A batch as concatenated bytes, each item 64 bytes."""
    if isinstance(cts, bytes | bytearray | memoryview):
        b = bytes(cts)
    elif isinstance(cts, Sequence) and not isinstance(cts, str):
        if len(cts) > MAX_BATCH:
            raise MalformedInput(f"{what}: more than {MAX_BATCH} items")
        b = b"".join(_bytes(c, f"{what}[{i}]", CIPHERTEXT_LEN) for i, c in enumerate(cts))
    else:
        raise UsageError(f"{what} must be bytes or a sequence of 64-byte items")
    if len(b) % CIPHERTEXT_LEN:
        raise MalformedInput(f"{what}: {len(b)} bytes is not a multiple of 64")
    if len(b) > MAX_BATCH * CIPHERTEXT_LEN:
        raise MalformedInput(f"{what}: more than {MAX_BATCH} ciphertexts")
    return b


def split_ciphertexts(cts: Ciphertexts) -> list[bytes]:
    """A batch as a list of 64-byte ciphertexts."""
    b = _batch(cts)
    return [b[i : i + CIPHERTEXT_LEN] for i in range(0, len(b), CIPHERTEXT_LEN)]


def _split_points(b: bytes) -> tuple[bytes, ...]:
    return tuple(b[i : i + POINT_LEN] for i in range(0, len(b), POINT_LEN))


class _Wire:
    """`to_json` / `from_json`: fields as JSON values, bytes as hex, tuples of bytes as lists."""

    _secret: ClassVar[tuple[str, ...]] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            if isinstance(v, bytes):
                v = v.hex()
            elif isinstance(v, tuple):
                v = [x.hex() if isinstance(x, bytes) else x for x in v]
            elif isinstance(v, int) and f.name in self._secret:
                v = str(v)
            out[f.name] = v
        return out

    @classmethod
    def from_json(cls: type[T], d: dict[str, Any]) -> T:
        if not isinstance(d, dict):
            raise MalformedInput(f"{cls.__name__}: expected a JSON object")
        kwargs: dict[str, Any] = {}
        for f in fields(cls):  # type: ignore[arg-type]
            if f.name not in d:
                raise MalformedInput(f"{cls.__name__}: missing field {f.name!r}")
            v = d[f.name]
            try:
                if f.type in ("bytes",):
                    v = bytes.fromhex(v)
                elif f.type == "tuple[bytes, ...]":
                    v = tuple(bytes.fromhex(x) for x in v)
                elif f.type == "int":
                    v = int(v) if isinstance(v, str) else v
            except (TypeError, ValueError) as e:
                raise MalformedInput(f"{cls.__name__}.{f.name}: {e}") from None
            kwargs[f.name] = v
        return cls(**kwargs)


# ---- distributed key generation ----------------------------------------------------------


@dataclass(frozen=True)
class Dealing(_Wire):
    """Dealer `dealer`'s public message for threshold `t` of `m` in `session`: the Feldman
    commitments `A_0..A_{t-1}` (`t·32` bytes) and a Schnorr proof of knowledge of `a_0`."""

    dealer: int
    t: int
    m: int
    session: bytes
    commitments: bytes
    pok: bytes

    def __post_init__(self) -> None:
        _int(self.dealer, "dealer", 1, MAX_SERVERS)
        _int(self.t, "t", 1, MAX_SERVERS)
        _int(self.m, "m", 1, MAX_SERVERS)
        _bytes(self.session, "session")
        _bytes(self.commitments, "commitments", POINT_LEN * self.t)
        _bytes(self.pok, "pok", POK_LEN)


@dataclass(frozen=True)
class Complaint(_Wire):
    """Server `complainer`'s public complaint that dealer `dealer`'s share was missing or
    wrong. The dealer answers by publishing that share (`resolve_complaint`)."""

    dealer: int
    complainer: int
    session: bytes

    def __post_init__(self) -> None:
        _int(self.dealer, "dealer", 1, MAX_SERVERS)
        _int(self.complainer, "complainer", 1, MAX_SERVERS)
        _bytes(self.session, "session")


@dataclass(frozen=True)
class CollectiveKey(_Wire):
    """The public outcome of a DKG: the collective key `X` and every server's verification
    key `X_j = x_j·B` (`verification_keys[j-1]`)."""

    t: int
    m: int
    collective_key: bytes
    verification_keys: tuple[bytes, ...]

    def verification_key(self, j: int) -> bytes:
        return self.verification_keys[_int(j, "server index", 1, self.m) - 1]


@dataclass(frozen=True, repr=False)
class KeyShare(_Wire):
    """Server `index`'s result of the DKG: its secret share `x_j` (an int, never printed) and
    the public keys."""

    _secret: ClassVar[tuple[str, ...]] = ("secret",)

    index: int
    secret: int
    t: int
    m: int
    collective_key: bytes
    verification_keys: tuple[bytes, ...]

    def __repr__(self) -> str:
        return f"KeyShare(index={self.index}, t={self.t}, m={self.m}, secret=<redacted>)"

    def verification_key(self, j: int | None = None) -> bytes:
        """`X_j` of server `j` (this server's by default)."""
        return self.verification_keys[_int(self.index if j is None else j, "j", 1, self.m) - 1]

    def public(self) -> CollectiveKey:
        return CollectiveKey(self.t, self.m, self.collective_key, self.verification_keys)


def deal(
    index: int, t: int, m: int, session: bytes, *, seed: int | None = None
) -> tuple[Dealing, list[int]]:
    """Dealer `index`'s dealing and its shares (`shares[j-1]` for server `j`, its own too);
    send each share privately. `seed` only for tests."""
    _int(index, "index", 1, MAX_SERVERS)
    session = _bytes(session, "session")
    commitments, pok, shares = _call(_native().cot_deal, index, t, m, session, seed)
    out = [_scalar_from_bytes(shares[i : i + 32]) for i in range(0, len(shares), 32)]
    return Dealing(index, t, m, session, bytes(commitments), bytes(pok)), out


def verify_dealing(dealing: Dealing) -> bool:
    """Whether the dealing has `t` commitments and a valid proof of knowledge for its dealer
    index and session."""
    d = dealing
    return bool(
        _call(_native().cot_verify_dealing, d.dealer, d.t, d.m, d.session, d.commitments, d.pok)
    )


def verify_share(dealing: Dealing, j: int, share: int) -> bool:
    """Server `j`'s check of the share it received from this dealing."""
    _int(j, "j", 1, dealing.m)
    return bool(
        _call(_native().cot_verify_share, dealing.commitments, j, _scalar_to_bytes(share, "share"))
    )


def resolve_complaint(dealing: Dealing, complaint: Complaint | int, revealed_share: int) -> bool:
    """Whether the share the dealer published in answer to the complaint is right (if not, or
    if it never answers, the dealer is disqualified)."""
    if isinstance(complaint, Complaint):
        if complaint.dealer != dealing.dealer or complaint.session != dealing.session:
            raise MalformedInput("the complaint is about another dealing")
        j = complaint.complainer
    else:
        j = complaint
    return verify_share(dealing, j, revealed_share)


def _qualified(dealings: Iterable[Dealing]) -> tuple[int, int, list[tuple[int, bytes]]]:
    ds = list(dealings)
    if not ds:
        raise MalformedInput("no qualified dealings")
    for d in ds:
        if not isinstance(d, Dealing):
            raise UsageError("dealings must be Dealing objects")
    t, m, session = ds[0].t, ds[0].m, ds[0].session
    if any((d.t, d.m, d.session) != (t, m, session) for d in ds):
        raise MalformedInput("dealings of different (t, m, session)")
    return t, m, [(d.dealer, d.commitments) for d in ds]


def combine_public(qualified: Iterable[Dealing]) -> CollectiveKey:
    """The collective key and verification keys from the qualified dealings (anyone)."""
    t, m, ds = _qualified(qualified)
    x, vks, _ = _call(_native().cot_combine, t, m, ds)
    return CollectiveKey(t, m, bytes(x), _split_points(bytes(vks)))


def combine(qualified: Iterable[Dealing], index: int, shares: Sequence[int]) -> KeyShare:
    """Server `index`'s key share from the qualified dealings and the shares it received from
    them (`shares[k]` from the k-th dealing; each is checked)."""
    q = list(qualified)
    t, m, ds = _qualified(q)
    if len(shares) != len(q):
        raise MalformedInput(f"{len(shares)} shares for {len(q)} dealings")
    sb = [_scalar_to_bytes(s, f"shares[{k}]") for k, s in enumerate(shares)]
    x, vks, secret = _call(_native().cot_combine, t, m, ds, _int(index, "index", 1, m), sb)
    return KeyShare(index, _scalar_from_bytes(secret), t, m, bytes(x), _split_points(bytes(vks)))


def lagrange_at_zero(answering_set: Sequence[int], j: int) -> int:
    """`λ_j = Π_{k∈S, k≠j} k/(k−j)` mod `l` for the answering set `S` (distinct indices)."""
    s = [_int(k, "server index", 1, MAX_SERVERS) for k in answering_set]
    return _scalar_from_bytes(_call(_native().cot_lagrange, s, _int(j, "j", 1, MAX_SERVERS)))


# ---- key switching ------------------------------------------------------------------------


@dataclass(frozen=True)
class SwitchBatch(_Wire):
    """Server `index`'s key switch of a batch: `A_i = v_i·B` and `B_i = v_i·U − λ_j·x_j·K_i`
    (`n·32` bytes each) and one 96-byte proof for the batch."""

    index: int
    a: bytes
    b: bytes
    proof: bytes

    def __post_init__(self) -> None:
        _int(self.index, "index", 1, MAX_SERVERS)
        _bytes(self.a, "a")
        _bytes(self.b, "b", len(self.a))
        _bytes(self.proof, "proof", SWITCH_PROOF_LEN)
        if len(self.a) % POINT_LEN:
            raise MalformedInput("a: not a multiple of 32 bytes")

    def __len__(self) -> int:
        return len(self.a) // POINT_LEN


def key_switch(
    share: KeyShare,
    lagrange: int,
    ciphertexts: Ciphertexts,
    querier_pk: bytes,
    context: bytes,
    *,
    seed: int | None = None,
) -> SwitchBatch:
    """This server's key switch of the ciphertexts (under the collective key) to the querier's
    key, with its proof bound to `context` (the query). `lagrange`: its coefficient in the
    answering set."""
    if not isinstance(share, KeyShare):
        raise UsageError("share must be a KeyShare")
    a, b, proof = _call(
        _native().cot_key_switch,
        _scalar_to_bytes(share.secret, "secret share"),
        share.index,
        _scalar_to_bytes(lagrange, "lagrange"),
        _batch(ciphertexts),
        _bytes(querier_pk, "querier_pk", POINT_LEN),
        _bytes(context, "context"),
        seed,
    )
    return SwitchBatch(share.index, bytes(a), bytes(b), bytes(proof))


def verify_key_switch(
    batch: SwitchBatch,
    share_key: bytes,
    lagrange: int,
    ciphertexts: Ciphertexts,
    querier_pk: bytes,
    context: bytes,
) -> bool:
    """Whether server `batch.index` (verification key `share_key` = `X_j`) switched exactly
    these ciphertexts to the querier's key with its share and `lagrange`."""
    return bool(
        _call(
            _native().cot_verify_key_switch,
            batch.index,
            batch.a,
            batch.b,
            batch.proof,
            _bytes(share_key, "share_key", POINT_LEN),
            _scalar_to_bytes(lagrange, "lagrange"),
            _batch(ciphertexts),
            _bytes(querier_pk, "querier_pk", POINT_LEN),
            _bytes(context, "context"),
        )
    )


def combine_switches(ciphertexts: Ciphertexts, batches: Sequence[SwitchBatch]) -> bytes:
    """The ciphertexts under the querier's key, `(Σ A_ij, C_i + Σ B_ij)`, from the verified
    batches of the whole answering set."""
    return bytes(
        _call(_native().cot_combine_switches, _batch(ciphertexts), [(b.a, b.b) for b in batches])
    )


# ---- deterministic tags -------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class TagSecret(_Wire):
    """A server's per-query tagging secret `s_j` and its commitment `S_j = s_j·B` (publish the
    commitment before the query; never reuse the secret across queries)."""

    _secret: ClassVar[tuple[str, ...]] = ("secret",)

    secret: int
    commitment: bytes

    def __repr__(self) -> str:
        return f"TagSecret(commitment={self.commitment.hex()}, secret=<redacted>)"


@dataclass(frozen=True)
class TagBatch(_Wire):
    """Server `index`'s tagging step: the transformed ciphertexts (`n·64` bytes) and one
    128-bit-sound, 128-byte proof for the batch."""

    index: int
    outputs: bytes
    proof: bytes

    def __post_init__(self) -> None:
        _int(self.index, "index", 1, MAX_SERVERS)
        _batch(self.outputs, "outputs")
        _bytes(self.proof, "proof", TAG_PROOF_LEN)

    def __len__(self) -> int:
        return len(self.outputs) // CIPHERTEXT_LEN


def tag_secret(*, seed: int | None = None) -> TagSecret:
    """A fresh per-query tagging secret."""
    s, big_s = _native().cot_tag_secret(seed)
    return TagSecret(_scalar_from_bytes(s), bytes(big_s))


def tag_step(
    secret: TagSecret,
    share: KeyShare,
    lagrange: int,
    ciphertexts: Ciphertexts,
    context: bytes,
    *,
    seed: int | None = None,
) -> TagBatch:
    """This server's step of the tag chain on its predecessor's outputs (the first server:
    on the ciphertexts), `(K, C) ↦ (s·K, s·(C − λ·x·K))`, with its proof."""
    if not isinstance(secret, TagSecret) or not isinstance(share, KeyShare):
        raise UsageError("tag_step takes a TagSecret and a KeyShare")
    out, proof = _call(
        _native().cot_tag_step,
        _scalar_to_bytes(secret.secret, "tag secret"),
        _scalar_to_bytes(share.secret, "secret share"),
        share.index,
        _scalar_to_bytes(lagrange, "lagrange"),
        _batch(ciphertexts),
        _bytes(context, "context"),
        seed,
    )
    return TagBatch(share.index, bytes(out), bytes(proof))


def verify_tag_step(
    batch: TagBatch,
    secret_commitment: bytes,
    share_key: bytes,
    lagrange: int,
    ciphertexts: Ciphertexts,
    context: bytes,
) -> bool:
    """Whether server `batch.index` (tag commitment `S_j`, verification key `X_j`) transformed
    exactly these input ciphertexts into `batch.outputs`."""
    return bool(
        _call(
            _native().cot_verify_tag_step,
            batch.outputs,
            batch.proof,
            _bytes(secret_commitment, "secret_commitment", POINT_LEN),
            _bytes(share_key, "share_key", POINT_LEN),
            batch.index,
            _scalar_to_bytes(lagrange, "lagrange"),
            _batch(ciphertexts),
            _bytes(context, "context"),
        )
    )


def tag_of_value(v: int) -> bytes:
    """The trivial ciphertext `(0, v·B)` (64 bytes): append it to the chain's input and its
    output's tag is the tag of the public value `v` (for `WHERE attr = v`)."""
    return encrypt_trivial([v])


def tags(outputs: Ciphertexts) -> list[bytes]:
    """The 32-byte tags (second components) of the last server's outputs."""
    return [c[POINT_LEN:] for c in split_ciphertexts(outputs)]


# ---- ciphertexts --------------------------------------------------------------------------


def _values(values: Sequence[int], what: str) -> list[int]:
    if len(values) > MAX_BATCH:
        raise MalformedInput(f"{what}: more than {MAX_BATCH} values")
    return [_int(v, what, -(1 << 63), (1 << 63) - 1) for v in values]


def keygen(*, seed: int | None = None) -> tuple[int, bytes]:
    """A fresh ElGamal key pair (a querier's): `(sk, pk)` with `pk` packed."""
    sk, pk = _native().cot_keygen(seed)
    return _scalar_from_bytes(sk), bytes(pk)


def encrypt(pk: bytes, values: Sequence[int], *, seed: int | None = None) -> bytes:
    """Encryptions of signed 64-bit values under `pk` (fresh randomness), concatenated."""
    pk = _bytes(pk, "pk", POINT_LEN)
    return bytes(_call(_native().cot_encrypt, pk, _values(values, "values"), seed))


def encrypt_trivial(values: Sequence[int]) -> bytes:
    """The trivial encryptions `(0, v·B)` (randomness 0) of signed values: anyone can rebuild
    them, and they add to ciphertexts under any key."""
    return bytes(_call(_native().cot_trivial, _values(values, "values")))


def aggregate(ciphertexts: Ciphertexts) -> bytes:
    """The homomorphic sum (64 bytes) of the ciphertexts: it encrypts the sum of the values."""
    return bytes(_call(_native().cot_aggregate, _batch(ciphertexts)))


class PlaintextOutOfRange(MalformedInput):
    """A ciphertext whose plaintext is not in the declared range (or not under this key)."""

    def __init__(self, index: int, bits: int, signed: bool):
        self.index = index
        rng = f"[-2^{bits - 1}, 2^{bits - 1})" if signed else f"[0, 2^{bits})"
        super().__init__(f"ciphertext {index}: the plaintext is not in {rng} under this key")


def decrypt_many(
    sk: int, ciphertexts: Ciphertexts, bits: int, *, signed: bool = False
) -> list[int]:
    """Decrypts each ciphertext to an integer in `[0, 2^bits)` (`[−2^(bits−1), 2^(bits−1))`
    when `signed`) by baby-step giant-step (tables cached per size; `bits ≤ 48`).
    `PlaintextOutOfRange` (a MalformedInput) names the first one outside the range."""
    skb = _int(sk, "sk", 1, SUBGROUP_ORDER - 1).to_bytes(SCALAR_LEN, "little")
    bits = _int(bits, "bits", 1, 48)
    out = _call(_native().cot_decrypt, skb, _batch(ciphertexts), bits, bool(signed))
    for i, v in enumerate(out):
        if v is None:
            raise PlaintextOutOfRange(i, bits, bool(signed))
    return list(out)


def decrypt_bounded(sk: int, ct: bytes, bits: int, *, signed: bool = False) -> int:
    """`decrypt_many` of one 64-byte ciphertext."""
    return decrypt_many(sk, _bytes(ct, "ct", CIPHERTEXT_LEN), bits, signed=signed)[0]


def to_babyjub(ct: bytes) -> Ciphertext:
    """A 64-byte ciphertext as `zeenot.babyjub.Ciphertext` (for `zeenot.sigma`)."""
    b = _bytes(ct, "ct", CIPHERTEXT_LEN)
    return Ciphertext(c1=unpack_point(b[:POINT_LEN]), c2=unpack_point(b[POINT_LEN:]))


def from_babyjub(ct: Ciphertext) -> bytes:
    """`zeenot.babyjub.Ciphertext` as 64 bytes."""
    return pack_point(ct.c1) + pack_point(ct.c2)


def pack_point(p: Point) -> bytes:
    """`zeenot.babyjub.Point` as 32 packed bytes."""
    return bytes(_native().bj_pack(str(int(p.x)), str(int(p.y))))


def unpack_point(b: bytes) -> Point:
    """32 packed bytes as a checked `zeenot.babyjub.Point`."""
    x, y = _call(_native().bj_unpack, _bytes(b, "point", POINT_LEN))
    return Point(int(x), int(y))


# ---- noise ---------------------------------------------------------------------------------


def noise_list(epsilon: float, sensitivity: int, length: int) -> list[int]:
    """The deterministic, sorted list of `length` discrete-Laplace noise values for `(ε, Δ)`:
    `k` appears `round(length·pmf(k))` times, tails truncated, 0 absorbing the rounding.
    State `noise_delta(list, ε, Δ)` beside `ε`."""
    return list(
        _call(
            _native().cot_noise_list,
            float(epsilon),
            _int(sensitivity, "sensitivity", 1, 1 << 20),
            _int(length, "length", 1, MAX_BATCH),
        )
    )


def noise_delta(values: Sequence[int], epsilon: float, sensitivity: int) -> float:
    """The exact `δ` of adding a uniform draw from `values` to a sensitivity-`Δ` query at `ε`."""
    vs = _values(values, "values")
    return float(
        _call(_native().cot_noise_delta, vs, float(epsilon), _int(sensitivity, "sensitivity", 1))
    )


def noise_pmf(k: int, epsilon: float, sensitivity: int) -> float:
    """The discrete Laplace probability of `k` at `(ε, Δ)`: `(1−α)/(1+α)·α^|k|`, `α = e^(−ε/Δ)`."""
    return float(
        _call(_native().cot_noise_pmf, _int(k, "k", -(1 << 63)), float(epsilon), sensitivity)
    )
