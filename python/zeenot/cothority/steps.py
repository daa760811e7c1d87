"""The servers' proved steps: the DKG's dealings, distributed deterministic tags and key
switching over the Rust core (`zeenot.cothority.crypto`, documented in
crates/zeenot-crypto/src/cothority/), and noise over the sigma engine's Bulletproofs. Every
proof is a Fiat-Shamir proof whose challenge hashes the whole statement and a context naming
the deployment, the query and the server.

* **DKG** (joint Feldman, Pedersen 1991 / Gennaro et al. 1999): dealer `i` draws `f_i` of
  degree `t-1`, publishes `A_ik = a_ik·G` and a proof of knowledge of `a_i0` bound to its index
  and the session (no rogue key), and sends `f_i(j)` to server `j` sealed (X25519 +
  ChaCha20-Poly1305); `j` checks it against the commitments. Then `x_j = Σ_i f_i(j)`,
  `K = Σ_i A_i0`, and anyone computes every `X_j = x_j·G`.
* **Key switch** of `(C1, C2)` under `K` to the querier's `Q` by server `i` of the answering
  set `S` (Lagrange coefficient `λ_i`): `(u, w) = (v·G, v·Q - λ_i·x_i·C1)`, one proof per batch
  (`X_i = x·G`, every `u = v·G`, `w = v·Q - λ_i·x·C1`). Summed over `S`: `(Σu, C2 + Σw)`
  encrypts the same `m` under `Q`.
* **Tags** (UnLynx's DDT, over the answering set): server `i` with a fresh secret `s`
  (commitment `S_i = s·G`) maps `(C1, C2)` to `(s·C1, s·(C2 - λ_i·x_i·C1))`, one proof per
  batch; after all of `S`, `C2 = (Π s)·m·G`, the same point for the same `m` within the query.
* **Row shuffle** (UnLynx's verifiable shuffle, before the tags): each answering server in
  turn moves the query's rows (per record its tag and summed columns, `Query.row_columns`)
  under a secret permutation and re-randomises them, with a Terelius-Wikström proof
  (`zeenot.shuffle`), so that the tags cannot be linked to the records.
* **Noise** (Drynx's, the default): per released value a public list of discrete-Laplace
  values, encrypted with public randomness, shuffled and re-randomised by every answering server
  with a Terelius-Wikström proof (`zeenot.shuffle`); the last list's first entry is added.
  Or (`per_server`) server `i` adds `Enc(n_i)` with `n_i` drawn from a discrete Laplace and
  proved in `[-bound, bound]` (a Bulletproof on `Enc(n_i + bound)`). See docs/cothority.md.
"""

from __future__ import annotations

import functools
import hashlib
import math
import secrets
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from zeenot import _native, shuffle, sigma
from zeenot import babyjub as bj
from zeenot.babyjub import BASE8, SUBGROUP_ORDER, Ciphertext, Point
from zeenot.cothority import crypto
from zeenot.errors import MalformedInput
from zeenot.types import P as FIELD

L = SUBGROUP_ORDER
MAX_PROOF = 1 << 22


def lagrange(i: int, indices: Sequence[int]) -> int:
    """`λ_i` at 0 over `indices` (mod l): the core's."""
    return crypto.lagrange_at_zero(list(indices), i)


# ---- DKG: the Rust core (`zeenot.cothority.crypto`: joint Feldman with proofs of knowledge) --


def deal(index: int, t: int, m: int, session: bytes) -> tuple[list[int], dict[str, Any]]:
    """A dealer's shares (`shares[j-1]` for server `j`) and its public dealing (JSON)."""
    dealing, shares = crypto.deal(index, t, m, session)
    return shares, dealing.to_json()


def check_dealing(public: Any, dealer: int, t: int, m: int, session: bytes) -> crypto.Dealing:
    """The dealing of server number `dealer`, if its shape and proof of knowledge hold
    (`MalformedInput`)."""
    d = crypto.Dealing.from_json(public)
    if (d.dealer, d.t, d.m, d.session) != (dealer, t, m, session):
        raise MalformedInput("a dealing for another dealer, threshold or session")
    if not crypto.verify_dealing(d):
        raise MalformedInput("the proof of knowledge of the dealer's secret does not verify")
    return d


def public_keys(dealings: Sequence[crypto.Dealing]) -> tuple[Point, list[Point]]:
    """The collective key and every server's verification key `X_j` (in index order)."""
    k = crypto.combine_public(dealings)
    return _unpack(k.collective_key), [_unpack(v) for v in k.verification_keys]


# ---- key switching and tags: the Rust core (`zeenot.cothority.crypto`) ----------------------
#
# The service keeps `Ciphertext` objects in memory and hex points on the wire; the core works
# on packed bytes. One proof per server and batch (not per ciphertext), batch-verified.


_HALF = (FIELD - 1) // 2


def _pack(p: Point) -> bytes:
    """circomlibjs `packPoint`: `y` little-endian, its top bit set when `x > (p-1)/2` (the core's
    encoding; a unit test compares the two). In Python: a `Point` is checked when it is built,
    and whoever reads these bytes decodes them with its own curve and subgroup checks."""
    x, y = int(p.x), int(p.y)
    return (y | (x > _HALF) << 255).to_bytes(32, "little")


def _unpack(b: bytes) -> Point:
    x, y = _native.bj_unpack(b)  # on the curve and in the subgroup, or ValueError
    return Point._trusted(int(x), int(y))


def pack_cts(cts: Sequence[Ciphertext]) -> bytes:
    return b"".join(_pack(c.c1) + _pack(c.c2) for c in cts)


def unpack_cts(b: bytes) -> list[Ciphertext]:
    return [
        Ciphertext(_unpack(b[i : i + 32]), _unpack(b[i + 32 : i + 64]))
        for i in range(0, len(b), 64)
    ]


def _share(index: int, x: int) -> crypto.KeyShare:
    # The core's key switch and tag step read only the share's index and secret.
    return crypto.KeyShare(index, x, 1, index, b"", ())


def key_switch(
    cts: Sequence[Ciphertext], x: int, index: int, lam: int, Q: Point, ctx: bytes
) -> tuple[list[tuple[Point, Point]], bytes]:
    """This server's parts `(u, w)` for each ciphertext, and one proof for the batch."""
    b = crypto.key_switch(_share(index, x), lam, pack_cts(cts), _pack(Q), ctx)
    us, ws = b.a, b.b
    return [(_unpack(us[i : i + 32]), _unpack(ws[i : i + 32])) for i in range(0, len(us), 32)], (
        b.proof
    )


def key_switch_ok(
    cts: Sequence[Ciphertext],
    parts: Sequence[tuple[Point, Point]],
    proof: bytes,
    index: int,
    X: Point,
    lam: int,
    Q: Point,
    ctx: bytes,
) -> bool:
    if len(parts) != len(cts) or len(proof) != crypto.SWITCH_PROOF_LEN or not cts:
        return False
    batch = switch_batch(index, parts, proof)
    return crypto.verify_key_switch(batch, _pack(X), lam, pack_cts(cts), _pack(Q), ctx)


def switch_batch(index: int, parts: Sequence[tuple[Point, Point]], proof: bytes) -> Any:
    """A server's key-switch parts and proof as the core's batch (`MalformedInput` if the proof
    has the wrong length)."""
    a = b"".join(_pack(u) for u, _ in parts)
    return crypto.SwitchBatch(index, a, b"".join(_pack(w) for _, w in parts), proof)


def combine_switch(cts: Sequence[Ciphertext], batches: Sequence[Any]) -> list[Ciphertext]:
    """`(Σ u, C2 + Σ w)` per ciphertext over the answering set's verified batches (the core's
    `combine_switches`)."""
    return unpack_cts(crypto.combine_switches(pack_cts(cts), list(batches)))


def tag_step(
    cts: Sequence[Ciphertext], x: int, index: int, lam: int, ctx: bytes
) -> tuple[list[Ciphertext], Point, bytes]:
    """`(s·C1, s·(C2 − λ·x·C1))` for each input with a fresh secret `s`, its commitment
    `S = s·G` and one proof for the batch."""
    secret = crypto.tag_secret()
    b = crypto.tag_step(secret, _share(index, x), lam, pack_cts(cts), ctx)
    return unpack_cts(b.outputs), _unpack(secret.commitment), b.proof


def tag_ok(
    cts: Sequence[Ciphertext],
    out: Sequence[Ciphertext],
    S: Point,
    proof: bytes,
    index: int,
    X: Point,
    lam: int,
    ctx: bytes,
) -> bool:
    if len(out) != len(cts) or len(proof) != crypto.TAG_PROOF_LEN or not cts:
        return False
    batch = crypto.TagBatch(index, pack_cts(out), proof)
    return crypto.verify_tag_step(batch, _pack(S), _pack(X), lam, pack_cts(cts), ctx)


# ---- noise: Drynx's shuffled public list ------------------------------------------------------
#
# Per released value (an aggregate of sensitivity Δ), the list `crypto.noise_list(ε, Δ, L)` is
# public and deterministic; its encryptions `(0, v·G)` (randomness 0, public) are the chain's
# input; each answering server in turn shuffles and re-randomises the previous list under the
# collective key with a Terelius-Wikström proof (`zeenot.shuffle`, bound to a context naming
# the query, the server, the answering set and the aggregate); the last list's first entry is
# the noise. It is a uniform draw from the list if one answering server's permutation is
# secret; no server knows which value it is.


@functools.lru_cache(maxsize=64)
def noise_list(epsilon: float, sensitivity: int, length: int) -> tuple[tuple[int, ...], float]:
    """The public list for `(ε, Δ, L)` and its exact `δ` (`MalformedInput` for parameters the
    core refuses, e.g. `Δ > 2^20`)."""
    values = crypto.noise_list(epsilon, sensitivity, length)
    return tuple(values), crypto.noise_delta(values, epsilon, sensitivity)


def public_list(values: Sequence[int]) -> list[bytes]:
    """The list's encryptions with randomness 0 (anyone recomputes them), 64 bytes each."""
    return crypto.split_ciphertexts(crypto.encrypt_trivial(list(values)))


_VERIFIED: OrderedDict[bytes, None] = OrderedDict()  # digests of shuffles known to verify
_VERIFIED_MAX = 4096
_VERIFIED_LOCK = threading.Lock()

Rows = Sequence[Sequence[bytes]]  # rows of 64-byte packed ciphertexts, all of one width


def _shuffle_key(K: bytes, cin: Rows, cout: Rows, proof: bytes, ctx: bytes) -> bytes:
    """What a verified shuffle is remembered by: the key, the context, the proof and both row
    lists with their shapes (rows of two ciphertexts never pass for twice as many rows of one)."""
    h = hashlib.sha256()
    for part in (K, ctx, proof):
        h.update(len(part).to_bytes(8, "little") + part)
    for rows in (cin, cout):
        h.update(len(rows).to_bytes(8, "little"))
        for row in rows:
            h.update(len(row).to_bytes(8, "little"))
            for c in row:
                h.update(len(c).to_bytes(8, "little") + c)
    return h.digest()


def _remember(key: bytes) -> None:
    with _VERIFIED_LOCK:  # a server answers steps from several threads
        _VERIFIED[key] = None
        _VERIFIED.move_to_end(key)
        while len(_VERIFIED) > _VERIFIED_MAX:
            _VERIFIED.popitem(last=False)


def shuffle_rows(K: Point, rows: Rows, ctx: bytes) -> tuple[list[list[bytes]], bytes]:
    """`rows` (each moved whole) shuffled and re-randomised under `K`, with the
    Terelius-Wikström proof bound to `ctx`."""
    k = _pack(K)
    out, proof = shuffle.shuffle(k, rows, ctx)
    _remember(_shuffle_key(k, rows, out, proof, ctx))  # proved here: no need to verify it again
    return out, proof


def shuffle_list(K: Point, cts: Sequence[bytes], ctx: bytes) -> tuple[list[bytes], bytes]:
    """`cts` shuffled and re-randomised under `K` with its proof (bound to `ctx`)."""
    rows, proof = shuffle_rows(K, [[c] for c in cts], ctx)
    return [r[0] for r in rows], proof


def shuffle_ok(
    K: Point, cin: Sequence[bytes], cout: Sequence[bytes], proof: bytes, ctx: bytes
) -> bool:
    """Whether `cout` is a re-encryption shuffle of `cin` under `K` (for `ctx`). A shuffle
    that verified once in this process is not verified again (its digest is remembered)."""
    return shuffles_ok(K, [(cin, cout, proof, ctx)])[0]


def shuffles_ok(
    K: Point, items: Sequence[tuple[Sequence[bytes], Sequence[bytes], bytes, bytes]]
) -> list[bool]:
    """Per `(cin, cout, proof, ctx)` of `items` (lists of single ciphertexts), what
    `shuffle_ok` says: `rows_shuffles_ok` on rows of one ciphertext."""
    rows = [([[c] for c in cin], [[c] for c in cout], pf, cx) for cin, cout, pf, cx in items]
    return rows_shuffles_ok(K, rows)


def rows_shuffles_ok(K: Point, items: Sequence[tuple[Rows, Rows, bytes, bytes]]) -> list[bool]:
    """Per `(in_rows, out_rows, proof, ctx)` of `items`, whether `out_rows` is a re-encryption
    shuffle of `in_rows` under `K` for `ctx`; those not known to verify (remembered by digest
    in this process) are checked in one batch (`zeenot.shuffle.verify_batch`: one
    multi-scalar multiplication, one by one only if it fails, so a bad proof is still
    named). Rows of another count or width than the input's: `False`."""
    k = _pack(K)
    verdicts = [False] * len(items)
    todo: list[int] = []
    keys: list[bytes] = []
    for i, (cin, cout, proof, ctx) in enumerate(items):
        if len(cin) != len(cout) or not cin:
            continue
        if any(len(row) != len(cin[0]) for row in (*cin, *cout)):
            continue
        key = _shuffle_key(k, cin, cout, proof, ctx)
        with _VERIFIED_LOCK:
            known = key in _VERIFIED
        verdicts[i] = known
        if not known:
            todo.append(i)
            keys.append(key)
    batch = [(k, items[i][0], items[i][1], items[i][2], items[i][3]) for i in todo]
    for i, key, ok in zip(todo, keys, shuffle.verify_batch(batch) if batch else [], strict=True):
        verdicts[i] = ok
        if ok:
            _remember(key)
    return verdicts


def shuffle_proof_limit(length: int, width: int = 1) -> int:
    """An upper bound on a proof's bytes for `length` rows of `width` ciphertexts (3N+3+2w
    points, 2N+3+w scalars)."""
    return 160 * length + 96 * width + 4096


def list_entry(ct: bytes) -> Ciphertext:
    return Ciphertext(_unpack(ct[:32]), _unpack(ct[32:64]))


# ---- noise: per-server draws (`mechanism: per_server`) ----------------------------------------

NOISE_BITS = 32


def discrete_laplace(scale: float, bound: int) -> int:
    """A draw from `P(z) ∝ exp(-|z|/scale)` on the integers (the difference of two geometric
    variables; Canonne-Kamath-Steinke 2020, §2), clipped to [-bound, bound]. Uses the OS's
    randomness through `secrets` (floating point in the geometric's parameter only)."""
    p = 1.0 - math.exp(-1.0 / scale)

    def geometric() -> int:
        u = (secrets.randbits(53) + 1) / (1 << 53)
        return int(math.floor(math.log(u) / math.log(1.0 - p))) if p < 1.0 else 0

    return max(-bound, min(bound, geometric() - geometric()))


def noise(K: Point, n: int, bound: int, ctx: bytes) -> tuple[Ciphertext, bytes]:
    """`Enc(n)` under `K` and a proof that `-bound ≤ n ≤ bound`: two Bulletproofs, that
    `Enc(n + bound)` and `Enc(bound - n)` (both derived from the one ciphertext) encrypt values
    in [0, 2^32)."""
    if not -bound <= n <= bound or not 0 < bound < 1 << (NOISE_BITS - 1):
        raise MalformedInput("noise is in [-bound, bound], bound below 2^31")
    r = bj.random_scalar()
    c = bj.encrypt(n, K, r)
    up, down = _shifted(c, bound)
    p1 = sigma.plaintext_in_range(up, K, NOISE_BITS, method="bulletproofs").prove(
        n + bound, r, context=ctx + b"|up"
    )
    p2 = sigma.plaintext_in_range(down, K, NOISE_BITS, method="bulletproofs").prove(
        bound - n, L - r, context=ctx + b"|down"
    )
    a, b = p1.to_bytes(), p2.to_bytes()  # type: ignore[union-attr]
    return c, len(a).to_bytes(4, "little") + a + b


def _shifted(c: Ciphertext, bound: int) -> tuple[Ciphertext, Ciphertext]:
    up = Ciphertext(c.c1, c.c2 + bound * BASE8)
    return up, Ciphertext(-c.c1, bound * BASE8 - c.c2)


def noise_ok(K: Point, c: Ciphertext, bound: int, proof: bytes, ctx: bytes) -> bool:
    if len(proof) < 4 or not 0 < bound < 1 << (NOISE_BITS - 1):
        return False
    k = int.from_bytes(proof[:4], "little")
    up, down = _shifted(c, bound)
    rp = sigma.plaintext_in_range
    return rp(up, K, NOISE_BITS, method="bulletproofs").verify(
        proof[4 : 4 + k], context=ctx + b"|up"
    ) and rp(down, K, NOISE_BITS, method="bulletproofs").verify(
        proof[4 + k :], context=ctx + b"|down"
    )


def trivial(m: int) -> Ciphertext:
    """`Enc(m; 0)`: a public value as a ciphertext (for counts and WHERE's value)."""
    return Ciphertext(Point.identity(), m * BASE8)
