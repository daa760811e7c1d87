"""Keyed-verification anonymous credentials (Chase–Meiklejohn–Zaverucha 2014, MAC_GGM) on Baby
Jubjub's prime-order subgroup, with blind issuance and selective disclosure, every proof a
`zeenot.sigma` statement.

* The issuer's secret key is `(x0, x̃0, x_1 … x_n)`; its public parameters are
  `C_x0 = x0·G + x̃0·H` and `X_i = x_i·H`. A credential on attributes `m_1 … m_n` (scalars) is
  `(U, U' = (x0 + Σ x_i·m_i)·U)` for a random `U ≠ 0`: an algebraic MAC, checkable only with
  the key, so the issuer is the verifier (as in Signal's groups and in e-cash, where the bank
  verifies its own coins).
* Blind issuance: the user sends the hidden attributes as exponential-ElGamal encryptions under a
  one-time key `D = d·G` with a proof it knows them (optionally that a hidden attribute is the
  discrete log of a public key the issuer knows); the issuer returns `U = b·G` and an encryption
  of `U'` with a proof that it used the key behind its parameters; the user checks and decrypts.
* Presentation: re-randomise `(U, U')` by `a`, commit `C_j = m_j·U + z_j·H` to each hidden
  attribute and `C_U' = U' + r·G`, reveal the others, and prove `C_j = m_j·U + z_j·H` and
  `V = Σ z_j·X_j − r·G`, where the verifier computes
  `V = (x0 + Σ_revealed x_i·m_i)·U + Σ_hidden x_j·C_j − C_U'` with its key. Predicates on hidden
  attributes (a range through an aggregated Bulletproof on `m·G + γ·H`, equality with another
  proof's Pedersen commitment) are more equations over the same secret `m_j`.

Every Fiat–Shamir context binds the issuer's parameters, the protocol step and everything the
verifier reads outside the statement (revealed values, the policy, the verifier's id and nonce).
See docs/cashlib.md for the messages, what each party learns and the threat model.
"""

from __future__ import annotations

import functools
import hashlib
import secrets as _secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from zeenot.babyjub import BASE8, Point, random_scalar
from zeenot.cashlib.group import (
    IDENTITY,
    CredentialError,
    L,
    Reader,
    Writer,
    _native,
    add,
    frame,
    lincomb,
    lincombs,
    pack,
    pedersen_h,
    point_xy,
    range_prove,
    range_verify,
    sub,
)
from zeenot.sigma import And, DLRep, Element, Secret, Statement, WitnessError

__all__ = [
    "Credential",
    "CredentialError",
    "CredentialVerifier",
    "IssuanceRequest",
    "IssuanceResponse",
    "IssuanceState",
    "IssuerKey",
    "IssuerParams",
    "Policy",
    "Presentation",
    "RangePart",
    "finish_issuance",
    "issue",
    "present",
    "request_credential",
    "verify_presentation",
]

DOMAIN = b"zeenot/cashlib/kvac/v1"
MAX_ATTRIBUTES = 64
RANGE_BITS = (8, 16, 32, 64)

Rand = Callable[[], int]


def _draw(rand: Rand | None) -> int:
    v = random_scalar() if rand is None else rand() % L
    return v if v else 1


def _check_attributes(n: int, values: Iterable[int]) -> tuple[int, ...]:
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"an attribute is an integer, got {type(v).__name__}")
        if not 0 <= v < L:
            raise ValueError("an attribute must be in [0, l)")
        out.append(int(v))
    if len(out) != n:
        raise ValueError(f"{len(out)} attributes for an issuer of {n}")
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Keys


@dataclass(frozen=True)
class IssuerParams:
    """The issuer's public parameters: `C_x0 = x0·G + x̃0·H` and `X_i = x_i·H`."""

    cx0: Point
    xs: tuple[Point, ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.xs) <= MAX_ATTRIBUTES:
            raise ValueError(f"an issuer has 1 to {MAX_ATTRIBUTES} attributes")

    @property
    def n(self) -> int:
        return len(self.xs)

    @functools.cached_property
    def digest(self) -> bytes:
        """SHA-256 of the parameters: every context binds it."""
        return hashlib.sha256(DOMAIN + b"/params" + self.to_bytes()).digest()

    @functools.cached_property
    def show_key(self) -> Any:
        """The native `KvacShowKey` for these `X_i` (their combs, built once per parameters),
        or `None` with a native module that lacks it."""
        native = _native()
        if not hasattr(native, "KvacShowKey"):
            return None
        return native.KvacShowKey([pack(x) for x in self.xs])

    def to_bytes(self) -> bytes:
        w = Writer().u8(self.n).point(self.cx0)
        for x in self.xs:
            w.point(x)
        return w.bytes()

    @classmethod
    def from_bytes(cls, data: bytes) -> IssuerParams:
        r = Reader(data, "issuer's parameters")
        n = r.u8()
        if not 1 <= n <= MAX_ATTRIBUTES:
            raise CredentialError(f"an issuer has 1 to {MAX_ATTRIBUTES} attributes")
        cx0 = r.point()
        xs = tuple(r.point() for _ in range(n))
        r.end()
        return cls(cx0, xs)


@dataclass(frozen=True, repr=False)
class IssuerKey:
    """The issuer's secret key `(x0, x̃0, x_1 … x_n)`. Never printed."""

    x0: int
    x0_blind: int
    xs: tuple[int, ...]

    @classmethod
    def generate(cls, n: int) -> IssuerKey:
        if not 1 <= n <= MAX_ATTRIBUTES:
            raise ValueError(f"an issuer has 1 to {MAX_ATTRIBUTES} attributes")
        return cls(random_scalar(), random_scalar(), tuple(random_scalar() for _ in range(n)))

    @functools.cached_property
    def params(self) -> IssuerParams:
        h = pedersen_h()
        return IssuerParams(self.x0 * BASE8 + self.x0_blind * h, tuple(x * h for x in self.xs))

    @property
    def n(self) -> int:
        return len(self.xs)

    def mac(self, attributes: Sequence[int], u: Point) -> Point:
        """`U' = (x0 + Σ x_i·m_i)·U` (what issuance hands out blindly; for tests)."""
        ms = _check_attributes(self.n, attributes)
        return ((self.x0 + sum(x * m for x, m in zip(self.xs, ms, strict=True))) % L) * u

    @functools.cached_property
    def verify_key(self) -> Any:
        """The native `KvacVerifyKey` (the MAC check's `V` from a message's points, decoded
        once), or `None` with a native module that lacks it."""
        native = _native()
        if not hasattr(native, "KvacVerifyKey"):
            return None
        return native.KvacVerifyKey(
            (self.x0 % L).to_bytes(32, "little"), [(x % L).to_bytes(32, "little") for x in self.xs]
        )

    def to_bytes(self) -> bytes:
        """The secret key (keep it where the issuer's secrets are kept)."""
        w = Writer().u8(self.n).scalar(self.x0).scalar(self.x0_blind)
        for x in self.xs:
            w.scalar(x)
        return w.bytes()

    @classmethod
    def from_bytes(cls, data: bytes) -> IssuerKey:
        r = Reader(data, "issuer key")
        n = r.u8()
        if not 1 <= n <= MAX_ATTRIBUTES:
            raise CredentialError(f"an issuer has 1 to {MAX_ATTRIBUTES} attributes")
        x0, x0_blind = r.scalar(), r.scalar()
        xs = tuple(r.scalar() for _ in range(n))
        r.end()
        return cls(x0, x0_blind, xs)

    def __repr__(self) -> str:
        return f"<IssuerKey: {self.n} attributes>"


@dataclass(frozen=True, repr=False)
class Credential:
    """A MAC `(U, U')` on `attributes`, held by the user. Never printed."""

    u: Point
    u_prime: Point
    attributes: tuple[int, ...]

    def __repr__(self) -> str:
        return f"<Credential: {len(self.attributes)} attributes>"


def _context(params: IssuerParams, step: bytes, *parts: bytes) -> bytes:
    return frame(DOMAIN, step, params.digest, *parts)


# ---------------------------------------------------------------------------------------------
# Blind issuance


@dataclass(frozen=True)
class IssuanceRequest:
    """The user's request: a one-time ElGamal key `D`, the revealed attributes in clear, the
    hidden ones encrypted (`(r·G, m·G + r·D)`), and the proof of knowledge of `d`, every `m`
    and `r` (and of bound attributes' keys)."""

    key: Point
    revealed: tuple[tuple[int, int], ...]
    hidden: tuple[tuple[int, Point, Point], ...]
    proof: bytes

    def header(self) -> bytes:
        w = Writer().point(self.key).u8(len(self.revealed))
        for i, v in self.revealed:
            w.u8(i).scalar(v)
        w.u8(len(self.hidden))
        for i, c1, c2 in self.hidden:
            w.u8(i).point(c1).point(c2)
        return w.bytes()

    def to_bytes(self) -> bytes:
        return self.header() + Writer().blob(self.proof).bytes()

    @classmethod
    def from_bytes(cls, data: bytes) -> IssuanceRequest:
        r = Reader(data, "issuance request")
        key = r.point()
        revealed = tuple((r.u8(), r.scalar()) for _ in range(r.u8()))
        hidden = tuple((r.u8(), r.point(), r.point()) for _ in range(r.u8()))
        proof = r.blob()
        r.end()
        return cls(key, revealed, hidden, proof)


@dataclass(frozen=True, repr=False)
class IssuanceState:
    """What the user keeps between request and response. Never printed."""

    params: IssuerParams
    secret_key: int
    attributes: tuple[int, ...]
    request: IssuanceRequest
    context: bytes


@dataclass(frozen=True)
class IssuanceResponse:
    """The issuer's answer: `U = b·G`, an encryption `(c1, c2)` of `U'` under `D`, the proof,
    and the offsets `o_j` it added to hidden attributes (the credential is on `m_j + o_j`: how an
    issuer contributes randomness to a seed the user chose, as CHL's bank does to `s` and `t`)."""

    u: Point
    c1: Point
    c2: Point
    proof: bytes
    offsets: tuple[tuple[int, int], ...] = ()

    def to_bytes(self) -> bytes:
        w = Writer().point(self.u).point(self.c1).point(self.c2).u8(len(self.offsets))
        for i, o in self.offsets:
            w.u8(i).scalar(o)
        return w.blob(self.proof).bytes()

    @classmethod
    def from_bytes(cls, data: bytes) -> IssuanceResponse:
        r = Reader(data, "issuance response")
        u, c1, c2 = r.point(), r.point(), r.point()
        offsets = tuple((r.u8(), r.scalar()) for _ in range(r.u8()))
        out = cls(u, c1, c2, r.blob(), offsets)
        r.end()
        return out


def _shifted(
    req: IssuanceRequest, offsets: Iterable[tuple[int, int]]
) -> list[tuple[int, Point, Point]]:
    """The request's ciphertexts with `o_j·G` added to the hidden attributes' plaintexts."""
    items = list(offsets)
    table = dict(items)
    hidden = {i for i, _, _ in req.hidden}
    if not set(table) <= hidden or len(table) != len(items):
        raise CredentialError("an offset names an attribute that is not hidden, or one twice")
    return [(i, c1, add(c2, table[i] * BASE8) if i in table else c2) for i, c1, c2 in req.hidden]


def _check_shape(params: IssuerParams, req: IssuanceRequest, bound: Mapping[int, Point]) -> None:
    indices = [i for i, _ in req.revealed] + [i for i, _, _ in req.hidden]
    if sorted(indices) != list(range(params.n)):
        raise CredentialError("the request does not name every attribute exactly once")
    hidden = {i for i, _, _ in req.hidden}
    for i in bound:
        if i not in hidden:
            raise CredentialError(f"bound attribute {i} is not hidden")


def _bound_bytes(bound: Mapping[int, Point]) -> bytes:
    w = Writer().u8(len(bound))
    for i in sorted(bound):
        w.u8(i).point(bound[i])
    return w.bytes()


def _request_statement(
    params: IssuerParams, req: IssuanceRequest, bound: Mapping[int, Point]
) -> tuple[Statement, Secret, dict[int, tuple[Secret, Secret]]]:
    G = Element.generator()
    d = Secret("d")
    D = Element("D", req.key)
    parts: list[Statement] = [DLRep(D, d * G)]
    secrets: dict[int, tuple[Secret, Secret]] = {}
    for i, c1, c2 in req.hidden:
        m, r = Secret(f"m{i}"), Secret(f"r{i}")
        secrets[i] = (m, r)
        parts.append(DLRep(Element(f"E{i}.1", c1), r * G))
        parts.append(DLRep(Element(f"E{i}.2", c2), m * G + r * D))
        if i in bound:
            parts.append(DLRep(Element(f"P{i}", bound[i]), m * G))
    return And(*parts), d, secrets


def request_credential(
    params: IssuerParams,
    attributes: Sequence[int],
    hidden: Iterable[int],
    *,
    context: bytes = b"",
    bound: Mapping[int, Point] | None = None,
    rand: Rand | None = None,
    seed: int | None = None,
) -> tuple[IssuanceRequest, IssuanceState]:
    """Ask for a credential on `attributes`, hiding those at the indices `hidden`.

    `bound` maps hidden indices to public points `P = m·G` the issuer knows (a user's public key):
    the request proves the hidden attribute is `P`'s discrete log. `context` names the session
    (both sides must pass the same). `rand`/`seed`: deterministic randomness, tests only.
    """
    bound = dict(bound or {})
    ms = _check_attributes(params.n, attributes)
    hid = sorted(set(hidden))
    if any(not 0 <= i < params.n for i in hid):
        raise ValueError("a hidden index is out of range")
    d = _draw(rand)
    rs = {i: _draw(rand) for i in hid}
    # D = d·G, E_i = (r_i·G, (m_i + r_i·d)·G): all fixed-base, one native call
    rows = [[(d, BASE8)]]
    for i in hid:
        rows += [[(rs[i], BASE8)], [(ms[i] + rs[i] * d, BASE8)]]
    out = lincombs(rows)
    key = out[0]
    enc = [(i, out[1 + 2 * k], out[2 + 2 * k]) for k, i in enumerate(hid)]
    revealed = tuple((i, ms[i]) for i in range(params.n) if i not in rs)
    unsigned = IssuanceRequest(key, revealed, tuple(enc), b"")
    _check_shape(params, unsigned, bound)
    st, ds, sec = _request_statement(params, unsigned, bound)
    witness: dict[Secret, int] = {ds: d}
    for i, (m, r) in sec.items():
        witness[m] = ms[i]
        witness[r] = rs[i]
    ctx = _context(params, b"issue/request", context, unsigned.header(), _bound_bytes(bound))
    proof = st.prove(witness, context=ctx, seed=seed)
    req = IssuanceRequest(key, revealed, tuple(enc), proof)
    return req, IssuanceState(params, d, ms, req, context)


def _response_statement(
    params: IssuerParams, req: IssuanceRequest, resp: IssuanceResponse
) -> tuple[Statement, dict[str, Any]]:
    G, H = Element.generator(), Element.blinding()
    b, x0, x0b, rr = Secret("b"), Secret("x0"), Secret("x0~"), Secret("r'")
    xs = [Secret(f"x{i}") for i in range(params.n)]
    U = Element("U", resp.u)
    parts: list[Statement] = [DLRep(Element("Cx0", params.cx0), x0 * G + x0b * H)]
    parts += [
        DLRep(Element(f"X{i}", X), x * H)
        for i, (x, X) in enumerate(zip(xs, params.xs, strict=True))
    ]
    parts.append(DLRep(U, b * G))
    ts: dict[int, Secret] = {}
    zero = Element("0", IDENTITY)
    for i, _, _ in req.hidden:  # t_i = b·x_i:  0 = t_i·H − b·X_i
        ts[i] = Secret(f"t{i}")
        parts.append(DLRep(zero, ts[i] * H + b * Element(f"-X{i}", -params.xs[i])))
    e1 = rr * G
    e2 = rr * Element("D", req.key) + x0 * U
    for i, m in req.revealed:
        e2 = e2 + xs[i] * Element(f"m{i}U", m * resp.u)
    for i, c1, c2 in _shifted(req, resp.offsets):
        e1 = e1 + ts[i] * Element(f"E{i}.1", c1)
        e2 = e2 + ts[i] * Element(f"E{i}.2", c2)
    parts.append(DLRep(Element("c1", resp.c1), e1))
    parts.append(DLRep(Element("c2", resp.c2), e2))
    return And(*parts), {"b": b, "x0": x0, "x0~": x0b, "r'": rr, "xs": xs, "ts": ts}


def issue(
    key: IssuerKey,
    request: IssuanceRequest | bytes,
    *,
    context: bytes = b"",
    bound: Mapping[int, Point] | None = None,
    offsets: Mapping[int, int] | None = None,
    rand: Rand | None = None,
    seed: int | None = None,
) -> IssuanceResponse:
    """The issuer's answer to a request it accepts: `CredentialError` if the request's shape or
    proof fails (the issuer decides separately whether the revealed attributes and the `bound`
    keys are ones it is willing to certify). `offsets` adds `o_j` to hidden attributes."""
    req = request if isinstance(request, IssuanceRequest) else IssuanceRequest.from_bytes(request)
    bound = dict(bound or {})
    params = key.params
    _check_shape(params, req, bound)
    st, _, _ = _request_statement(params, req, bound)
    ctx = _context(params, b"issue/request", context, req.header(), _bound_bytes(bound))
    if not st.verify(req.proof, context=ctx):
        raise CredentialError("the issuance request's proof does not verify")
    b, rr = _draw(rand), _draw(rand)
    offs = tuple(sorted((int(i), int(o) % L) for i, o in (offsets or {}).items()))
    hidden = _shifted(req, offs)
    revealed_sum = (key.x0 + sum(key.xs[i] * m for i, m in req.revealed)) % L
    ts = [b * key.xs[i] % L for i, _, _ in hidden]
    u, c1, c2 = lincombs(
        [
            [(b, BASE8)],
            [(rr, BASE8), *((t, e1) for t, (_, e1, _) in zip(ts, hidden, strict=True))],
            [
                (revealed_sum * b, BASE8),
                (rr, req.key),
                *((t, e2) for t, (_, _, e2) in zip(ts, hidden, strict=True)),
            ],
        ]
    )
    unsigned = IssuanceResponse(u, c1, c2, b"", offs)
    st2, s = _response_statement(params, req, unsigned)
    witness: dict[Secret, int] = {s["b"]: b, s["x0"]: key.x0, s["x0~"]: key.x0_blind, s["r'"]: rr}
    witness.update(zip(s["xs"], key.xs, strict=True))
    witness.update({s["ts"][i]: b * key.xs[i] % L for i in s["ts"]})
    ctx2 = _response_context(params, context, req)
    return IssuanceResponse(u, c1, c2, st2.prove(witness, context=ctx2, seed=seed), offs)


def _response_context(params: IssuerParams, context: bytes, req: IssuanceRequest) -> bytes:
    digest = hashlib.sha256(req.to_bytes()).digest()
    return _context(params, b"issue/response", context, digest)


def finish_issuance(
    state: IssuanceState,
    response: IssuanceResponse | bytes,
    *,
    offsets_allowed: Iterable[int] = (),
) -> Credential:
    """Check the issuer's proof and decrypt the credential (`CredentialError` otherwise). The
    issuer may add offsets only to the hidden attributes in `offsets_allowed` (none by
    default); the credential holds the attributes with the offsets added."""
    resp = (
        response
        if isinstance(response, IssuanceResponse)
        else IssuanceResponse.from_bytes(response)
    )
    if resp.u == IDENTITY:
        raise CredentialError("the issuer's U is the identity")
    allowed = set(offsets_allowed)
    if any(i not in allowed for i, _ in resp.offsets):
        raise CredentialError("the issuer offset an attribute it may not change")
    st, _ = _response_statement(state.params, state.request, resp)
    ctx = _response_context(state.params, state.context, state.request)
    if not st.verify(resp.proof, context=ctx):
        raise CredentialError("the issuer's proof of correct issuance does not verify")
    u_prime = sub(resp.c2, state.secret_key * resp.c1)
    attrs = list(state.attributes)
    for i, o in resp.offsets:
        attrs[i] = (attrs[i] + o) % L
    return Credential(resp.u, u_prime, tuple(attrs))


# ---------------------------------------------------------------------------------------------
# Presentation


@dataclass(frozen=True)
class Policy:
    """What a verifier asks of a presentation: the attributes revealed, ranges `lo ≤ m < hi`
    (`hi − lo ≤ 2^64`) and equalities with Pedersen commitments `C = m·G + ρ·H` of other proofs,
    both on hidden attributes."""

    reveal: frozenset[int] = frozenset()
    ranges: tuple[tuple[int, int, int], ...] = ()
    equal: tuple[tuple[int, Point], ...] = ()

    def check(self, n: int) -> None:
        for i in self.reveal:
            if not 0 <= i < n:
                raise ValueError(f"revealed index {i} is out of range")
        for i, lo, hi in self.ranges:
            if not 0 <= i < n or i in self.reveal:
                raise ValueError(f"a range needs a hidden attribute, not {i}")
            if not 0 <= lo < hi <= lo + (1 << 64) or hi > L:
                raise ValueError(f"a range [{lo}, {hi}) must be non-empty, at most 2^64 wide")
        for i, c in self.equal:
            if not 0 <= i < n or i in self.reveal:
                raise ValueError(f"an equality needs a hidden attribute, not {i}")
            if not isinstance(c, Point):
                raise TypeError("an equality's commitment is a babyjub Point")

    def encode(self) -> bytes:
        w = Writer().u8(len(self.reveal))
        for i in sorted(self.reveal):
            w.u8(i)
        w.u8(len(self.ranges))
        for i, lo, hi in self.ranges:
            w.u8(i).scalar(lo).scalar(hi)
        w.u8(len(self.equal))
        for i, c in self.equal:
            w.u8(i).point(c)
        return w.bytes()


def _range_bits(lo: int, hi: int) -> int:
    return next(b for b in RANGE_BITS if hi - lo <= 1 << b)


@dataclass(frozen=True)
class RangePart:
    """An aggregated Bulletproof that `low = (m − lo)·G + γ1·H` and `high = (hi − 1 − m)·G +
    γ2·H` open below `2^bits`; the sigma statement ties both to the attribute."""

    low: Point
    high: Point
    proof: bytes


@dataclass(frozen=True)
class Presentation:
    """A showing: the re-randomised `U`, `C_U' = U' + r·G`, a commitment per hidden attribute,
    the revealed attributes, one `RangePart` per range of the policy, and the sigma proof."""

    u: Point
    cu: Point
    commitments: tuple[tuple[int, Point], ...]
    revealed: tuple[tuple[int, int], ...]
    ranges: tuple[RangePart, ...]
    proof: bytes

    def header(self) -> bytes:
        """Everything but the proofs: what the context binds."""
        w = Writer().point(self.u).point(self.cu).u8(len(self.commitments))
        for i, c in self.commitments:
            w.u8(i).point(c)
        w.u8(len(self.revealed))
        for i, v in self.revealed:
            w.u8(i).scalar(v)
        w.u8(len(self.ranges))
        for rp in self.ranges:
            w.point(rp.low).point(rp.high)
        return w.bytes()

    def to_bytes(self) -> bytes:
        w = Writer()
        for rp in self.ranges:
            w.blob(rp.proof)
        return self.header() + w.blob(self.proof).bytes()

    @classmethod
    def read(cls, r: Reader) -> Presentation:
        u, cu = r.point(), r.point()
        commitments = tuple((r.u8(), r.point()) for _ in range(r.u8()))
        revealed = tuple((r.u8(), r.scalar()) for _ in range(r.u8()))
        pairs = [(r.point(), r.point()) for _ in range(r.u8())]
        ranges = tuple(RangePart(lo, hi, r.blob()) for lo, hi in pairs)
        return cls(u, cu, commitments, revealed, ranges, r.blob())

    @classmethod
    def from_bytes(cls, data: bytes) -> Presentation:
        return Reader.read_all(data, "presentation", cls.read)


@dataclass
class ShowStatement:
    """The sigma statement of a presentation and the secrets it uses (so that other protocols,
    e-cash spends, can add equations over the same attributes)."""

    statement: Statement
    attributes: dict[int, Secret]
    secrets: dict[str, Secret] = field(default_factory=dict)


def _show_statement(
    params: IssuerParams, pres: Presentation, v: Point, policy: Policy
) -> ShowStatement:
    G, H = Element.generator(), Element.blinding()
    U = Element("U", pres.u)
    ms = {i: Secret(f"m{i}") for i, _ in pres.commitments}
    zs = {i: Secret(f"z{i}") for i, _ in pres.commitments}
    r = Secret("r")
    parts: list[Statement] = [
        DLRep(Element(f"C{i}", c), ms[i] * U + zs[i] * H) for i, c in pres.commitments
    ]
    expr = r * (-G)
    for i, _ in pres.commitments:
        expr = expr + zs[i] * Element(f"X{i}", params.xs[i])
    parts.append(DLRep(Element("V", v), expr))
    for k, ((i, lo, hi), rp) in enumerate(zip(policy.ranges, pres.ranges, strict=True)):
        g1, g2 = Secret(f"g{k}.lo"), Secret(f"g{k}.hi")
        low, high = add(rp.low, lo * BASE8), sub((hi - 1) * BASE8, rp.high)
        parts.append(DLRep(Element(f"R{k}.lo", low), ms[i] * G + g1 * H))
        parts.append(DLRep(Element(f"R{k}.hi", high), ms[i] * G + g2 * H))
    for k, (i, c) in enumerate(policy.equal):
        parts.append(DLRep(Element(f"Q{k}", c), ms[i] * G + Secret(f"q{k}") * H))
    st = And(*parts)
    return ShowStatement(st, ms, {s.name: s for s in st.secrets})


def show_context(
    params: IssuerParams,
    pres: Presentation,
    policy: Policy,
    verifier_id: bytes,
    nonce: bytes,
    step: bytes = b"show",
) -> bytes:
    """The Fiat–Shamir context of a presentation (and of its range proofs)."""
    return _context(params, step, verifier_id, nonce, policy.encode(), pres.header())


def _check_presentation_shape(params: IssuerParams, pres: Presentation, policy: Policy) -> bool:
    if sorted(i for i, _ in pres.revealed) != sorted(policy.reveal):
        return False
    hidden = [i for i in range(params.n) if i not in policy.reveal]
    if [i for i, _ in pres.commitments] != hidden:
        return False
    return len(pres.ranges) == len(policy.ranges) and pres.u != IDENTITY


def prepare_presentation(
    params: IssuerParams,
    credential: Credential,
    policy: Policy,
    *,
    openings: Sequence[int] = (),
    rand: Rand | None = None,
    seed: int | None = None,
    verifier_id: bytes,
    nonce: bytes,
    step: bytes = b"show",
) -> tuple[Presentation, ShowStatement, dict[Secret, int], bytes]:
    """A presentation without its sigma proof, its statement, witness and context: for protocols
    that add equations (`present` proves it as it is)."""
    policy.check(params.n)
    ms = _check_attributes(params.n, credential.attributes)
    if len(openings) != len(policy.equal):
        raise ValueError(f"{len(openings)} openings for {len(policy.equal)} equalities")
    for (i, c), rho in zip(policy.equal, openings, strict=True):
        if lincomb((ms[i], BASE8), (rho, pedersen_h())) != c:
            raise WitnessError(f"the commitment of equality on attribute {i} does not open to it")
    for i, lo, hi in policy.ranges:
        if not lo <= ms[i] < hi:
            raise WitnessError(f"attribute {i} is not in [{lo}, {hi})")
    a = _draw(rand)
    r = _draw(rand)
    h = pedersen_h()
    hidden = [i for i in range(params.n) if i not in policy.reveal]
    zs = {i: _draw(rand) for i in hidden}
    gammas = [(_draw(rand), _draw(rand)) for _ in policy.ranges]
    u0, u0p = credential.u, credential.u_prime
    # every point of the presentation in one native call, over the credential's own U
    # (m·(a·U) = (a·m)·U); the range proofs' commitments enter the header, so they are here too
    rows: list[list[tuple[int, Point]]] = [[(a, u0)], [(a, u0p), (r, BASE8)]]
    rows += [[(a * ms[i], u0), (zs[i], h)] for i in hidden]
    rows.append([(-r, BASE8), *((zs[i], params.xs[i]) for i in hidden)])
    for (i, lo, hi), (g1, g2) in zip(policy.ranges, gammas, strict=True):
        rows += [[(ms[i] - lo, BASE8), (g1, h)], [(hi - 1 - ms[i], BASE8), (g2, h)]]
    out = lincombs(rows)
    u, cu = out[0], out[1]
    commitments = tuple(zip(hidden, out[2 : 2 + len(hidden)], strict=True))
    v = out[2 + len(hidden)]
    rest = out[3 + len(hidden) :]
    lows_highs = [(rest[2 * k], rest[2 * k + 1]) for k in range(len(policy.ranges))]
    revealed = tuple((i, ms[i]) for i in sorted(policy.reveal))
    draft = Presentation(
        u, cu, commitments, revealed, tuple(RangePart(a_, b_, b"") for a_, b_ in lows_highs), b""
    )
    ctx = show_context(params, draft, policy, verifier_id, nonce, step)
    parts = []
    for (i, lo, hi), (g1, g2), (low, high) in zip(policy.ranges, gammas, lows_highs, strict=True):
        values = (ms[i] - lo, hi - 1 - ms[i])
        proof = range_prove(values, (g1, g2), (low, high), _range_bits(lo, hi), ctx, seed)
        parts.append(RangePart(low, high, proof))
    pres = Presentation(u, cu, commitments, revealed, tuple(parts), b"")
    show = _show_statement(params, pres, v, policy)
    named = show.secrets
    witness: dict[Secret, int] = {named["r"]: r}
    for i in hidden:
        witness[named[f"m{i}"]] = ms[i]
        witness[named[f"z{i}"]] = zs[i]
    for k, (g1, g2) in enumerate(gammas):
        witness[named[f"g{k}.lo"]] = g1
        witness[named[f"g{k}.hi"]] = -g2
    for k, rho in enumerate(openings):
        witness[named[f"q{k}"]] = rho
    return pres, show, witness, ctx


def present_native(
    params: IssuerParams,
    credential: Credential,
    policy: Policy,
    *,
    verifier_id: bytes,
    nonce: bytes,
    seed: int | None = None,
    statement: bool = False,
) -> tuple[Presentation, str | None] | None:
    """`present` in one native call (`_native.KvacShowKey.show`) for a policy with no ranges and
    no equalities: the same statement (`_show_statement`, compared in the tests) proved with
    constant-time combs instead of the general engine; `None` where that path does not apply
    (such a policy, or an older native module). With `statement`, also the statement's JSON
    as the native prover built it (tests)."""
    policy.check(params.n)
    key = params.show_key
    if key is None or policy.ranges or policy.equal or credential.u == IDENTITY:
        return None  # (a credential with U = 0 is no credential: the Python path shows it)
    ms = _check_attributes(params.n, credential.attributes)
    hidden = [i for i in range(params.n) if i not in policy.reveal]
    revealed = tuple((i, ms[i]) for i in sorted(policy.reveal))
    tail = Writer().u8(len(revealed))
    for i, v in revealed:
        tail.u8(i).scalar(v)
    prefix = frame(DOMAIN, b"show", params.digest, verifier_id, nonce, policy.encode())
    try:
        points, proof, ctx, js = key.show(
            pack(credential.u),
            pack(credential.u_prime),
            [m.to_bytes(32, "little") for m in ms],
            hidden,
            tail.u8(0).bytes(),
            prefix,
            seed,
            statement,
        )
    except ValueError as e:
        raise CredentialError(f"cannot show this credential: {e}") from None
    pts = [point_xy(b) for b in points]
    commitments = tuple(zip(hidden, pts[2 : 2 + len(hidden)], strict=True))
    pres = Presentation(pts[0], pts[1], commitments, revealed, (), bytes(proof))
    if show_context(params, pres, policy, verifier_id, nonce) != ctx:
        raise RuntimeError("the native showing's context differs from show_context's")
    return pres, js


def present(
    params: IssuerParams,
    credential: Credential,
    policy: Policy,
    *,
    verifier_id: bytes,
    nonce: bytes,
    openings: Sequence[int] = (),
    rand: Rand | None = None,
    seed: int | None = None,
) -> Presentation:
    """Show `credential` to the verifier `verifier_id` for its `nonce`, as `policy` asks.
    `openings`: the blinding `ρ` of each equality's commitment. `WitnessError` when a predicate
    is false (no proof exists). `rand`/`seed`: deterministic randomness, tests only. A policy
    without ranges and equalities is proved in one native call (`present_native`)."""
    if rand is None:
        fast = present_native(
            params, credential, policy, verifier_id=verifier_id, nonce=nonce, seed=seed
        )
        if fast is not None:
            return fast[0]
    pres, show, witness, ctx = prepare_presentation(
        params,
        credential,
        policy,
        openings=openings,
        rand=rand,
        seed=seed,
        verifier_id=verifier_id,
        nonce=nonce,
    )
    proof = show.statement.prove(witness, context=ctx, seed=seed)
    return Presentation(pres.u, pres.cu, pres.commitments, pres.revealed, pres.ranges, proof)


def verifier_v(key: IssuerKey, pres: Presentation) -> Point:
    """`V = (x0 + Σ_revealed x_i·m_i)·U + Σ_hidden x_j·C_j − C_U'`, with the issuer's key."""
    first = (key.x0 + sum(key.xs[i] * m for i, m in pres.revealed)) % L
    terms = [(first, pres.u), (-1, pres.cu), *((key.xs[i], c) for i, c in pres.commitments)]
    return lincomb(*terms)


def check_presentation(
    key: IssuerKey, pres: Presentation, policy: Policy, ctx: bytes
) -> ShowStatement | None:
    """The presentation's statement if its shape and range proofs are right, else `None`."""
    params = key.params
    if not _check_presentation_shape(params, pres, policy):
        return None
    for (_, lo, hi), rp in zip(policy.ranges, pres.ranges, strict=True):
        if not range_verify((rp.low, rp.high), rp.proof, _range_bits(lo, hi), ctx):
            return None
    return _show_statement(params, pres, verifier_v(key, pres), policy)


def verify_presentation(
    key: IssuerKey,
    presentation: Presentation | bytes,
    policy: Policy,
    *,
    verifier_id: bytes,
    nonce: bytes,
) -> bool:
    """Whether the presentation shows a credential of this issuer satisfying `policy`, for this
    verifier and nonce (`False` for malformed bytes too). Use `CredentialVerifier` to reject
    replays."""
    try:
        policy.check(key.n)
        pres = (
            presentation
            if isinstance(presentation, Presentation)
            else Presentation.from_bytes(presentation)
        )
        ctx = show_context(key.params, pres, policy, verifier_id, nonce)
        show = check_presentation(key, pres, policy, ctx)
        return show is not None and show.statement.verify(pres.proof, context=ctx)
    except (CredentialError, ValueError):
        return False


class CredentialVerifier:
    """The issuer as verifier: hands out nonces and accepts each at most once (a replayed
    presentation names a spent nonce). Keeps at most `max_pending` outstanding nonces."""

    def __init__(self, key: IssuerKey, verifier_id: bytes, *, max_pending: int = 100_000):
        self._key = key
        self.verifier_id = bytes(verifier_id)
        self._pending: dict[bytes, None] = {}
        self._max = max_pending

    def challenge(self) -> bytes:
        nonce = _secrets.token_bytes(16)
        self._pending[nonce] = None
        while len(self._pending) > self._max:
            self._pending.pop(next(iter(self._pending)))
        return nonce

    def verify(self, presentation: Presentation | bytes, policy: Policy, nonce: bytes) -> bool:
        if self._pending.pop(bytes(nonce), 0) is not None:
            return False  # unknown or already used
        return verify_presentation(
            self._key, presentation, policy, verifier_id=self.verifier_id, nonce=nonce
        )
