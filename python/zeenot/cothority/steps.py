"""The servers' proved steps, as statements of the sigma engine (`zeenot.sigma`): the DKG's
dealings, distributed deterministic tags, noise and key switching. Each proof is a
Fiat-Shamir sigma proof whose challenge hashes the whole statement (every point) and a
context naming the deployment, the query and the server; verification batches them.

* **DKG** (joint Feldman, Pedersen 1991 / Gennaro et al. 1999 without the second round):
  dealer `i` draws `f_i` of degree `t-1`, publishes `A_ik = a_ik·G` and a proof of knowledge
  of `a_i0` (no rogue key: the context names the dealer), and sends `f_i(j)` to server `j`
  sealed (X25519 + ChaCha20-Poly1305). `j` checks `f_i(j)·G = Σ_k j^k·A_ik`. Then
  `x_j = Σ_i f_i(j)`, `K = Σ_i A_i0`, and anyone computes `X_j = x_j·G = Σ_i Σ_k j^k·A_ik`.
* **Key switch** of `(C1, C2)` under `K` to the querier's `Q` by server `i` of the answering
  set `S` (Lagrange coefficient `λ_i`): `(u, w) = (v·G, v·Q - λ_i·x_i·C1)`, proved by
  `X_i = x·G ∧ u = v·G ∧ w = v·Q + x·(-λ_i·C1)`. Summed over `S`: `(Σu, C2 + Σw)` encrypts the
  same `m` under `Q`.
* **Tags** (UnLynx's DDT, over the answering set): server `i` with a fresh secret `s` maps
  `(C1, C2)` to `(s·C1, s·(C2 - λ_i·x_i·C1))`; after all of `S`, `C2 = (Π s)·m·G`, the same
  point for the same `m` within the query. Proved with `S_i = s·G`, `Z_i = z·G`
  (`z = s·λ_i·x_i`): `S_i = s·G ∧ Z_i = z·G ∧ Z_i = s·(λ_i·X_i)` and per ciphertext
  `C1' = s·C1 ∧ C2' = s·C2 + z·(-C1)`.
* **Noise**: server `i` adds `Enc(n_i)` with `n_i` drawn from a discrete Laplace and proved in
  `[-bound, bound]` (a Bulletproof on `Enc(n_i + bound)`). See docs/cothority.md.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Sequence
from typing import Any

from zeenot import babyjub as bj
from zeenot import sigma
from zeenot.babyjub import BASE8, SUBGROUP_ORDER, Ciphertext, Point
from zeenot.cothority import wire
from zeenot.errors import MalformedInput

L = SUBGROUP_ORDER
MAX_PROOF = 1 << 22


def _G() -> sigma.Element:
    return sigma.Element.generator()


def lagrange(i: int, indices: Sequence[int]) -> int:
    """`λ_i` at 0 over `indices` (mod l)."""
    num, den = 1, 1
    for j in indices:
        if j != i:
            num = num * j % L
            den = den * (j - i) % L
    return num * pow(den, -1, L) % L


# ---- DKG --------------------------------------------------------------------------------------


def deal(t: int, m: int, ctx: bytes) -> tuple[list[int], dict[str, Any]]:
    """A dealer's polynomial and its public part `{commitments, pok}`."""
    coeffs = [bj.random_scalar() for _ in range(t)]
    commitments = [a * BASE8 for a in coeffs]
    a = sigma.Secret("a")
    pok = sigma.DLRep(sigma.Element("A0", commitments[0]), a * _G()).prove(
        {a: coeffs[0]}, context=ctx
    )
    return coeffs, {"commitments": [wire.point_hex(c) for c in commitments], "pok": pok.hex()}


def share(coeffs: Sequence[int], j: int) -> int:
    return sum(a * pow(j, k, L) for k, a in enumerate(coeffs)) % L


def check_dealing(public: Any, t: int, ctx: bytes) -> list[Point]:
    """A dealing's commitments, if its shape and proof of knowledge hold (`MalformedInput`)."""
    if not isinstance(public, dict) or set(public) != {"commitments", "pok"}:
        raise MalformedInput("a dealing is {commitments, pok}")
    cs = public["commitments"]
    if not isinstance(cs, list) or len(cs) != t:
        raise MalformedInput(f"a dealing commits to {t} coefficients")
    points = [wire.point(c, "a dealing's commitment") for c in cs]
    a = sigma.Secret("a")
    pok = wire.blob(public["pok"], "a dealing's proof", 1024)
    if not sigma.DLRep(sigma.Element("A0", points[0]), a * _G()).verify(pok, context=ctx):
        raise MalformedInput("the proof of knowledge of the dealer's secret does not verify")
    return points


def eval_commitments(points: Sequence[Point], j: int) -> Point:
    return sum((pow(j, k, L) * p for k, p in enumerate(points)), Point.identity())


# ---- key switching ----------------------------------------------------------------------------


def key_switch(
    cts: Sequence[Ciphertext], x: int, X: Point, lam: int, Q: Point, ctx: bytes
) -> tuple[list[tuple[Point, Point]], bytes]:
    """This server's parts `(u, w)` for each ciphertext, and one proof for all of them."""
    xs = sigma.Secret("x")
    witness: dict[sigma.Secret, int] = {xs: x}
    parts, eqs = [], [sigma.DLRep(sigma.Element("X", X), xs * _G())]
    Qe = sigma.Element("Q", Q)
    for c in cts:
        v = bj.random_scalar()
        u, w = v * BASE8, v * Q - (lam * x % L) * c.c1
        parts.append((u, w))
        vs = sigma.Secret("v")
        witness[vs] = v
        eqs += _switch_eqs(xs, vs, c, u, w, lam, Qe)
    return parts, sigma.And(*eqs).prove(witness, context=ctx)


def _switch_eqs(xs, vs, c, u, w, lam, Qe) -> list[sigma.DLRep]:  # type: ignore[no-untyped-def]
    minus = sigma.Element("-lC1", -(lam * c.c1))
    return [
        sigma.DLRep(sigma.Element("u", u), vs * _G()),
        sigma.DLRep(sigma.Element("w", w), vs * Qe + xs * minus),
    ]


def key_switch_statement(
    cts: Sequence[Ciphertext], parts: Sequence[tuple[Point, Point]], X: Point, lam: int, Q: Point
) -> sigma.Statement:
    if len(parts) != len(cts):
        raise MalformedInput("a key switch has one part per ciphertext")
    xs = sigma.Secret("x")
    eqs = [sigma.DLRep(sigma.Element("X", X), xs * _G())]
    Qe = sigma.Element("Q", Q)
    for c, (u, w) in zip(cts, parts, strict=False):
        eqs += _switch_eqs(xs, sigma.Secret("v"), c, u, w, lam, Qe)
    return sigma.And(*eqs)


def combine_switch(
    cts: Sequence[Ciphertext], parts: Sequence[Sequence[tuple[Point, Point]]]
) -> list[Ciphertext]:
    out = []
    for k, c in enumerate(cts):
        u = sum((p[k][0] for p in parts), Point.identity())
        w = sum((p[k][1] for p in parts), Point.identity())
        out.append(Ciphertext(u, c.c2 + w))
    return out


# ---- tags -------------------------------------------------------------------------------------


def tag_step(
    cts: Sequence[Ciphertext], x: int, X: Point, lam: int, ctx: bytes
) -> tuple[list[Ciphertext], Point, Point, bytes]:
    s = bj.random_scalar()
    z = s * lam % L * x % L
    out = [Ciphertext(s * c.c1, s * c.c2 - z * c.c1) for c in cts]
    S, Z = s * BASE8, z * BASE8
    st = tag_statement(cts, out, S, Z, X, lam)
    ss, zs = st._secrets_sz  # type: ignore[attr-defined]
    return out, S, Z, st.prove({ss: s, zs: z}, context=ctx)


def tag_statement(
    cts: Sequence[Ciphertext], out: Sequence[Ciphertext], S: Point, Z: Point, X: Point, lam: int
) -> sigma.Statement:
    if len(out) != len(cts):
        raise MalformedInput("a tag step has one output per input")
    ss, zs = sigma.Secret("s"), sigma.Secret("z")
    Ze = sigma.Element("Z", Z)
    eqs = [
        sigma.DLRep(sigma.Element("S", S), ss * _G()),
        sigma.DLRep(Ze, zs * _G()),
        sigma.DLRep(Ze, ss * sigma.Element("lX", lam * X)),
    ]
    for c, o in zip(cts, out, strict=False):
        c1 = sigma.Element("C1", c.c1)
        eqs.append(sigma.DLRep(sigma.Element("C1'", o.c1), ss * c1))
        eqs.append(
            sigma.DLRep(sigma.Element("C2'", o.c2), ss * sigma.Element("C2", c.c2) + zs * (-c1))
        )
    st = sigma.And(*eqs)
    st._secrets_sz = (ss, zs)  # type: ignore[attr-defined]
    return st


# ---- noise ------------------------------------------------------------------------------------

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
