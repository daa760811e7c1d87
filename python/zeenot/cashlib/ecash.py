"""Compact e-cash (Camenisch–Hohenberger–Lysyanskaya 2005) on keyed-verification credentials.

A wallet is one blind issuance of a credential on `(u, s, t)`: `u` the user's secret key (the
bank knows `pk = u·G` and the request proves the hidden `u` is its log), `s` and `t` seeds the
bank never sees. It holds `2^L` coins. Spending coin `i` (`0 ≤ i < 2^L`) to a merchant reveals

* the serial `S = (1/(s+i+1))·G` (the Dodis–Yampolskiy PRF), proved with `S` as a base:
  `G − S = s·S + i·S`;
* the double-spending tag `T = u·G + R·ω·G` with `ω = 1/(t+i+1)` and
  `R = hash(merchant, info)`: with `C_ω = ω·G + ρ·H`, `G − C_ω = t·C_ω + i·C_ω − ρ'·H`
  (so `(t+i+1)·ω = 1`) and `T = u·G + ω·(R·G)`;

and proves, in one `zeenot.sigma` statement with the credential's presentation (all three
attributes hidden, the same secrets `u, s, t`), that `i` is committed in
`P_lo = i·G + γ·H` and `P_hi = (2^L−1−i)·G + γ'·H`, both below `2^bits` by an aggregated
Bulletproof. Two spends of one coin have one `S`; with different `R` they give
`ω·G = (T1 − T2)/(R1 − R2)` and `pk = T1 − R1·ω·G`: the double spender.

The bank is the issuer (keyed verification): a merchant forwards each spend to the bank online
(docs/cashlib.md argues this deviation from CHL's offline merchants).

A spend made with an `endorsement` `x` is an *unendorsed coin* (`zeenot.cashlib.endorsed`): its
proof also shows `X = x·G`, hashes `X` (and its own step) into its context and its `R`, and
the bank deposits it only with `x`.
"""

from __future__ import annotations

import functools
import secrets as _secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from zeenot.babyjub import BASE8, Point, random_scalar
from zeenot.cashlib import group, kvac
from zeenot.cashlib.group import IDENTITY, CredentialError, L, Reader, Writer
from zeenot.cashlib.kvac import (
    IssuanceRequest,
    IssuanceResponse,
    IssuanceState,
    IssuerKey,
    IssuerParams,
    Policy,
    Presentation,
)
from zeenot.cashlib.wire import WireStatement
from zeenot.errors import ZeenotError
from zeenot.sigma import And, DLRep, Element, Secret, WitnessError

__all__ = [
    "Bank",
    "DepositResult",
    "Spend",
    "Wallet",
    "WalletEmpty",
    "finish_withdrawal",
    "identify",
    "make_spend",
    "merchant_info",
    "spend_r",
    "verify_spend",
    "verify_spends",
    "withdrawal_request",
]

MAX_LEVEL = 32
ATTRIBUTES = 3  # (u, s, t)
_SPEND = b"ecash/spend"
_ENDORSED_SPEND = b"ecash/spend/endorsed"  # an unendorsed coin's proof (zeenot.cashlib.endorsed)


SEEDS = (1, 2)  # the attributes the bank adds randomness to at withdrawal


def seed_offsets() -> dict[int, int]:
    """The bank's random offsets to the wallet's seeds `s` and `t`: the user picks its seeds
    blindly but cannot choose the final ones (two wallets of one user with `s' = s + 1` would
    share serials, and a chosen `t` would let it steer the tags)."""
    return {i: random_scalar() for i in SEEDS}


class WalletEmpty(ZeenotError, ValueError):
    """Every coin of the wallet is spent."""


def _bits(level: int) -> int:
    return next(b for b in kvac.RANGE_BITS if level <= b)


def spend_r(merchant_id: bytes, info: bytes, endorsement_key: Point | None = None) -> int:
    """`R = hash(merchant, info)`: what a spend's tag is bound to (the merchant makes `info`
    unique per spend, e.g. a fresh nonce and the date). An endorsed coin's `R` also hashes its
    endorsement key `X` (so two endorsements of one coin are two spends, not a replay)."""
    if endorsement_key is None:
        return group.hash_to_scalar(b"zeenot/cashlib/ecash/R", merchant_id, info) or 1
    x = group.pack(endorsement_key)
    return group.hash_to_scalar(b"zeenot/cashlib/ecash/R/endorsed", merchant_id, info, x) or 1


@dataclass(frozen=True)
class Spend:
    """A coin given to a merchant: serial `S`, tag `T`, `C_ω`, the index commitments and their
    Bulletproof, the credential's presentation (its proof is the whole spend's proof)."""

    serial: Point
    tag: Point
    c_omega: Point
    index_low: Point
    index_high: Point
    range_proof: bytes
    presentation: Presentation

    def header(self) -> bytes:
        w = Writer().point(self.serial).point(self.tag).point(self.c_omega)
        return w.point(self.index_low).point(self.index_high).bytes()

    def to_bytes(self) -> bytes:
        return (
            self.header() + Writer().blob(self.range_proof).bytes() + self.presentation.to_bytes()
        )

    @classmethod
    def read(cls, r: Reader) -> Spend:
        head = (r.point(), r.point(), r.point(), r.point(), r.point())
        range_proof = r.blob()
        return cls(*head, range_proof, Presentation.read(r))

    @classmethod
    def from_bytes(cls, data: bytes) -> Spend:
        return Reader.read_all(data, "spend", cls.read)


def _spend_parts(
    show: kvac.ShowStatement,
    spend: Spend,
    level: int,
    r: int,
    endorsement_key: Point | None = None,
) -> tuple[And, dict[str, Secret]]:
    """The spend's equations over the presentation's attribute secrets `u, s, t` (and, for an
    unendorsed coin, `X = x·G`: the coin proves knowledge of its endorsement)."""
    G, H = Element.generator(), Element.blinding()
    u, s, t = (show.attributes[k] for k in range(ATTRIBUTES))
    i, g_lo, g_hi = Secret("i"), Secret("g.lo"), Secret("g.hi")
    w, rw, rp = Secret("ω"), Secret("ρω"), Secret("ρ'")
    S, Cw = Element("S", spend.serial), Element("Cω", spend.c_omega)
    top = _top(level)
    st = And(
        show.statement,
        DLRep(Element("Pi.lo", spend.index_low), i * G + g_lo * H),
        DLRep(Element("Pi.hi", group.sub(top, spend.index_high)), i * G + g_hi * H),
        DLRep(Element("G-S", group.sub(BASE8, spend.serial)), s * S + i * S),
        DLRep(Cw, w * G + rw * H),
        DLRep(Element("G-Cω", group.sub(BASE8, spend.c_omega)), t * Cw + i * Cw + rp * (-H)),
        DLRep(Element("T", spend.tag), u * G + w * Element("R·G", r * BASE8)),
    )
    sec = {"i": i, "g.lo": g_lo, "g.hi": g_hi, "ω": w, "ρω": rw, "ρ'": rp}
    if endorsement_key is not None:
        sec["x"] = Secret("x")
        st = And(st, DLRep(Element("X", endorsement_key), sec["x"] * G))
    return st, sec


def _context_parts(
    info: bytes, spend: Spend, level: int, endorsement_key: Point | None = None
) -> bytes:
    parts = [level.to_bytes(1, "little"), info, spend.header()]
    if endorsement_key is not None:
        parts.append(group.pack(endorsement_key))
    return group.frame(*parts)


def _endorsement_key(endorsement: int | None) -> Point | None:
    """`X = x·G` for an endorsement `x` (`ValueError` for zero or a non-integer)."""
    if endorsement is None:
        return None
    if isinstance(endorsement, bool) or not isinstance(endorsement, int):
        raise TypeError("an endorsement is an integer")
    if endorsement % L == 0:
        raise ValueError("an endorsement is a nonzero scalar")
    return (endorsement % L) * BASE8


# ---------------------------------------------------------------------------------------------
# Withdrawal


def withdrawal_request(
    params: IssuerParams, user_secret: int, *, context: bytes = b""
) -> tuple[IssuanceRequest, IssuanceState]:
    """Ask the bank for a wallet: a blind issuance on `(u, s, t)` with fresh seeds `s, t`, the
    request proving `u` is the log of the public key `u·G` the bank holds for this user."""
    if params.n != ATTRIBUTES:
        raise ValueError(f"an e-cash bank issues {ATTRIBUTES} attributes, not {params.n}")
    u = user_secret % L
    attrs = (u, random_scalar(), random_scalar())
    return kvac.request_credential(
        params, attrs, hidden=range(ATTRIBUTES), context=context, bound={0: u * BASE8}
    )


@dataclass(repr=False)
class Wallet:
    """`2^level` coins: the credential on `(u, s, t)` and the next unspent index."""

    params: IssuerParams
    credential: kvac.Credential
    level: int
    next_index: int = 0

    def __repr__(self) -> str:
        return f"<Wallet: {self.remaining} of {1 << self.level} coins left>"

    @property
    def remaining(self) -> int:
        return (1 << self.level) - self.next_index

    def spend(
        self,
        merchant_id: bytes,
        info: bytes,
        *,
        index: int | None = None,
        seed: int | None = None,
        endorsement: int | None = None,
    ) -> Spend:
        """Coin `index` (the next unspent one by default) to `merchant_id` for `info`.
        `index` other than the next one is for tests (spending a coin twice); `WitnessError`
        for an index outside `[0, 2^level)`, `WalletEmpty` when none is left. With an
        `endorsement` `x`, an unendorsed coin (see `zeenot.cashlib.endorsed`)."""
        if index is None:
            if self.remaining <= 0:
                raise WalletEmpty("every coin of this wallet is spent")
            index = self.next_index
            self.next_index += 1
        return make_spend(
            self.params,
            self.credential,
            self.level,
            index,
            merchant_id,
            info,
            seed=seed,
            endorsement=endorsement,
        )


def finish_withdrawal(
    state: IssuanceState, response: IssuanceResponse | bytes, level: int
) -> Wallet:
    """Check the bank's issuance proof and open the wallet (`CredentialError` otherwise)."""
    if not 1 <= level <= MAX_LEVEL:
        raise ValueError(f"a wallet holds 2^1 to 2^{MAX_LEVEL} coins")
    credential = kvac.finish_issuance(state, response, offsets_allowed=SEEDS)
    return Wallet(state.params, credential, level)


# ---------------------------------------------------------------------------------------------
# Spending


def make_spend(
    params: IssuerParams,
    credential: kvac.Credential,
    level: int,
    index: int,
    merchant_id: bytes,
    info: bytes,
    *,
    seed: int | None = None,
    endorsement: int | None = None,
) -> Spend:
    """Spend coin `index` of the wallet `credential` (see `Wallet.spend`); with an
    `endorsement` `x`, the spend is an unendorsed coin bound to `X = x·G` that the bank
    deposits only with `x`."""
    if not 0 <= index < 1 << level:
        raise WitnessError(f"coin {index} is not in [0, 2^{level})")
    key = _endorsement_key(endorsement)
    step = _SPEND if key is None else _ENDORSED_SPEND
    u, s, t = credential.attributes
    r = spend_r(merchant_id, info, key)
    omega = pow((t + index + 1) % L, -1, L)
    h = Element.blinding().point
    rho, g_lo, g_hi = random_scalar(), random_scalar(), random_scalar()
    serial, tag, c_omega, low, high = group.lincombs(
        [
            [(pow((s + index + 1) % L, -1, L), BASE8)],
            [(u + r * omega, BASE8)],
            [(omega, BASE8), (rho, h)],
            [(index, BASE8), (g_lo, h)],
            [((1 << level) - 1 - index, BASE8), (g_hi, h)],
        ]
    )
    draft = Spend(serial, tag, c_omega, low, high, b"", _EMPTY)
    extra = _context_parts(info, draft, level, key)
    pres, show, witness, ctx = kvac.prepare_presentation(
        params, credential, Policy(), verifier_id=merchant_id, nonce=extra, seed=seed, step=step
    )
    values = (index, (1 << level) - 1 - index)
    proof = group.range_prove(values, (g_lo, g_hi), (low, high), _bits(level), ctx, seed)
    spend = Spend(serial, tag, c_omega, low, high, proof, pres)
    st, sec = _spend_parts(show, spend, level, r, key)
    if key is not None and endorsement is not None:
        witness[sec["x"]] = endorsement % L
    witness.update(
        {
            sec["i"]: index,
            sec["g.lo"]: g_lo,
            sec["g.hi"]: -g_hi,
            sec["ω"]: omega,
            sec["ρω"]: rho,
            sec["ρ'"]: (t + index + 1) * rho,
        }
    )
    full = st.prove(witness, context=ctx, seed=seed)
    p = pres
    return Spend(
        serial,
        tag,
        c_omega,
        low,
        high,
        bytes(proof),
        Presentation(p.u, p.cu, p.commitments, p.revealed, p.ranges, full),
    )


_EMPTY = Presentation(BASE8, BASE8, (), (), (), b"")


# Where `Spend.read` meets the presentation's points: the spend's five (`S, T, C_ω, Π_lo, Π_hi`),
# then `U_s`, `C_U'`, and each hidden attribute's commitment (`Presentation.read`).
_SERIAL_AT, _C_OMEGA_AT, _HIGH_AT = 0, 2, 4
_U_AT, _CU_AT, _COMMITMENTS_AT = 5, 6, 7

# What the verifier computes from a spend's points besides `V`: `V`, `R·G`, and the statement's
# three differences `(2^L − 1)·G − Π_hi`, `G − S`, `G − C_ω` (`_spend_wire`).
Computed = tuple[Point, Point, tuple[Point, Point, Point]]


def _open_spends(
    key: IssuerKey,
    items: Sequence[tuple[Spend | bytes, bytes, bytes, Point | None]],
    level: int,
    known: list[Any] | None = None,
) -> list[tuple[Spend, Computed | None] | None]:
    """Each spend parsed, with what the verifier computes from its points (`Computed`) where
    the native key computes it: every spend's points decoded once, and `V`, `R·G` and the
    differences from them, in one native call (`KvacVerifyKey.open_many`). `None` for malformed
    bytes. `known` receives the native `CheckedPoints` of each call (for
    `kvac_sigma_batch_verify` and `kvac_range_verify_batch`)."""
    vk = key.verify_key
    out: list[tuple[Spend, Computed | None] | None] = [None] * len(items)
    g, top = group.pack(BASE8), group.pack(_top(level))
    diffs = [(top, _HIGH_AT), (g, _SERIAL_AT), (g, _C_OMEGA_AT)]
    asks: list[Any] = []
    where: list[tuple[int, bytes]] = []
    for k, (spend, merchant_id, info, endorsement_key) in enumerate(items):
        try:
            if isinstance(spend, Spend) or vk is None:
                sp = spend if isinstance(spend, Spend) else Spend.from_bytes(spend)
                out[k] = (sp, None)
                continue
            draft, raw = Reader.scan(spend, "spend", Spend.read)
        except (CredentialError, ValueError):
            continue
        pres = draft.presentation
        hidden = [(j, _COMMITMENTS_AT + n) for n, (j, _) in enumerate(pres.commitments)]
        revealed = [(i, m.to_bytes(32, "little")) for i, m in pres.revealed]
        r = spend_r(merchant_id, info, endorsement_key)
        asks.append((raw, _U_AT, _CU_AT, hidden, revealed, [r.to_bytes(32, "little")], diffs))
        where.append((k, bytes(spend)))
    answers = []
    for at in range(0, len(asks), 4096):  # open_many's bound
        got, checked = vk.open_many(asks[at : at + 4096])
        answers += got
        if known is not None:
            known.append(checked)
    for (k, data), got in zip(where, answers, strict=True):
        if got is None:
            continue  # a point that is not one of the subgroup's (or a bad index)
        points, v, (rg,), (high, gs, gcw) = got
        sp = Reader.read_with(data, "spend", Spend.read, [group.point_xy(b) for b in points])
        xy = group.point_xy
        out[k] = (sp, (xy(v), xy(rg), (xy(high), xy(gs), xy(gcw))))
    return out


def _prepare_spend(
    key: IssuerKey,
    spend: Spend | bytes,
    merchant_id: bytes,
    info: bytes,
    level: int,
    endorsement_key: Point | None,
    computed: Computed | None = None,
) -> tuple[Spend, tuple[str, int], bytes] | None:
    """The parsed spend, its sigma statement's wire JSON and proof length (`_spend_wire`), and
    its context once its shape passes (the issuer's MAC is checked by the sigma proof over
    `V`); the Bulletproof and the sigma proof are left to the caller (one by one in
    `verify_spend`, in batches in `verify_spends`). `None` otherwise;
    `CredentialError`/`ValueError` for malformed bytes. `computed`: computed already
    (`_open_spends`)."""
    sp = spend if isinstance(spend, Spend) else Spend.from_bytes(spend)
    if sp.serial == IDENTITY or sp.c_omega == IDENTITY or endorsement_key == IDENTITY:
        return None
    if not kvac._check_presentation_shape(key.params, sp.presentation, Policy()):
        return None
    step = _SPEND if endorsement_key is None else _ENDORSED_SPEND
    extra = _context_parts(info, sp, level, endorsement_key)
    ctx = kvac.show_context(key.params, sp.presentation, Policy(), merchant_id, extra, step)
    r = spend_r(merchant_id, info, endorsement_key)
    return sp, _spend_wire(key, sp, level, r, endorsement_key, computed), ctx


@functools.lru_cache(maxsize=MAX_LEVEL + 1)
def _top(level: int) -> Point:
    return ((1 << level) - 1) * BASE8


@functools.lru_cache(maxsize=1)
def _constants() -> tuple[bytes, bytes, bytes, bytes]:
    g, h = BASE8, group.pedersen_h()
    return group.pack(g), group.pack(h), group.pack(-g), group.pack(-h)


def _spend_wire(
    key: IssuerKey,
    sp: Spend,
    level: int,
    r: int,
    endorsement_key: Point | None,
    computed: Computed | None = None,
) -> tuple[str, int]:
    """`_spend_parts(kvac.check_presentation(...), ...)`'s statement as wire JSON, written
    directly (`zeenot.cashlib.wire`; the tests compare the two): the verifier's `V` and `R·G`
    in one native multi-scalar multiplication, unless `computed` (`_open_spends`) has them."""
    pack = group.pack
    pres = sp.presentation
    if computed is None:
        first = (key.x0 + sum(key.xs[i] * m for i, m in pres.revealed)) % L
        v_row = [(first, pres.u), (-1, pres.cu), *((key.xs[i], c) for i, c in pres.commitments)]
        v, rg = group.lincombs([v_row, [(r, BASE8)]])
        high = group.sub(_top(level), sp.index_high)
        g_s, g_cw = group.sub(BASE8, sp.serial), group.sub(BASE8, sp.c_omega)
    else:
        v, rg, (high, g_s, g_cw) = computed
    g, h, ng, nh = _constants()
    w = WireStatement()
    pu = pack(pres.u)
    show = [
        w.equation((f"C{i}", pack(c)), [(f"m{i}", "U", pu), (f"z{i}", "H", h)])
        for i, c in pres.commitments
    ]
    xs = [(f"z{i}", f"X{i}", pack(key.params.xs[i])) for i, _ in pres.commitments]
    show.append(w.equation(("V", pack(v)), [("r", "-G", ng), *xs]))
    u, s, t = (f"m{k}" for k in range(ATTRIBUTES))
    ps, pcw = pack(sp.serial), pack(sp.c_omega)
    root: list[Any] = [
        show,
        w.equation(("Pi.lo", pack(sp.index_low)), [("i", "G", g), ("g.lo", "H", h)]),
        w.equation(("Pi.hi", pack(high)), [("i", "G", g), ("g.hi", "H", h)]),
        w.equation(("G-S", pack(g_s)), [(s, "S", ps), ("i", "S", ps)]),
        w.equation(("Cω", pcw), [("ω", "G", g), ("ρω", "H", h)]),
        w.equation(
            ("G-Cω", pack(g_cw)),
            [(t, "Cω", pcw), ("i", "Cω", pcw), ("ρ'", "-H", nh)],
        ),
        w.equation(("T", pack(sp.tag)), [(u, "G", g), ("ω", "R·G", pack(rg))]),
    ]
    if endorsement_key is not None:
        root = [root, w.equation(("X", pack(endorsement_key)), [("x", "G", g)])]
    return w.json(root)


def verify_spend(
    key: IssuerKey,
    spend: Spend | bytes,
    merchant_id: bytes,
    info: bytes,
    level: int,
    *,
    endorsement_key: Point | None = None,
) -> Spend | None:
    """The parsed spend if it proves an unspent-looking coin of a wallet this bank issued, bound
    to `merchant_id` and `info`; `None` otherwise (malformed bytes included). With
    `endorsement_key` `X`: whether it is an unendorsed coin bound to `X` (a plain spend and an
    unendorsed coin never verify as each other: their proofs hash different steps)."""
    try:
        opened = _open_spends(key, [(spend, merchant_id, info, endorsement_key)], level)[0]
        if opened is None:
            return None
        sp, computed = opened
        prepared = _prepare_spend(key, sp, merchant_id, info, level, endorsement_key, computed)
        if prepared is None:
            return None
        sp, st, ctx = prepared
        if not group.range_verify((sp.index_low, sp.index_high), sp.range_proof, _bits(level), ctx):
            return None
        return sp if _verify_one(st, sp.presentation.proof, ctx) else None
    except (CredentialError, ValueError):
        return None


def verify_spends(
    key: IssuerKey,
    items: Sequence[tuple[Spend | bytes, bytes, bytes, Point | None]],
    level: int,
) -> list[Spend | None]:
    """`verify_spend` for many `(spend, merchant_id, info, endorsement_key)` at once, each
    verdict as `verify_spend` would give it: the Bulletproofs checked in one batch and the
    sigma proofs in another (random weights, one multi-exponentiation each: a batch of invalid
    proofs passes with probability about 2^-128); if a batch fails, its proofs are checked one
    by one, so one bad spend costs the others nothing but time."""
    prepared: list[tuple[Spend, tuple[str, int], bytes] | None] = []
    known: list[Any] = []
    for (_, merchant_id, info, endorsement_key), opened in zip(
        items, _open_spends(key, items, level, known), strict=True
    ):
        try:
            prepared.append(
                None
                if opened is None
                else _prepare_spend(
                    key, opened[0], merchant_id, info, level, endorsement_key, opened[1]
                )
            )
        except (CredentialError, ValueError):
            prepared.append(None)
    live = [k for k, p in enumerate(prepared) if p is not None]
    bits = _bits(level)
    ranges = []
    for k in live:
        sp, _, ctx = prepared[k]  # type: ignore[misc]
        packed = [group.pack(sp.index_low), group.pack(sp.index_high)]
        ranges.append((packed, sp.range_proof, bits, ctx))
    checked = known[0] if len(known) == 1 else None  # more than 4,096 spends: several
    verdicts = group.range_verify_batch(ranges, checked) if ranges else []
    live = [k for k, ok in zip(live, verdicts, strict=True) if ok]
    sigma = []
    for k in live:
        sp, st, ctx = prepared[k]  # type: ignore[misc]
        sigma.append((st, sp.presentation.proof, ctx))
    if sigma and not _batch_verify(sigma, checked):
        live = [k for k, item in zip(live, sigma, strict=True) if _verify_one(*item)]
    ok = set(live)
    return [p[0] if k in ok and p is not None else None for k, p in enumerate(prepared)]


def _verify_one(st: tuple[str, int], proof: bytes, ctx: bytes) -> bool:
    """`Statement.verify` on the wire form: `False` for a proof of the wrong length or one the
    engine calls malformed."""
    return _batch_verify([(st, proof, ctx)])


def _batch_verify(items: list[tuple[tuple[str, int], bytes, bytes]], known: Any = None) -> bool:
    """`zeenot.sigma.batch_verify` on wire forms: one multi-exponentiation for all. With `known`
    (the `CheckedPoints` the spends' points were decoded into), those points are not decoded
    again (`kvac_sigma_batch_verify`; `False` there means some proof fails or is malformed)."""
    if any(len(proof) != size for (_, size), proof, _ in items):
        return False
    native = group._native()
    if known is not None:
        return bool(native.kvac_sigma_batch_verify(known, [(js, p, c) for (js, _), p, c in items]))
    try:
        return bool(native.sigma_batch_verify([(js, p, c) for (js, _), p, c in items]))
    except ValueError as e:
        if str(e).startswith("malformed proof"):
            return False
        raise


def identify(serial_r_tag_1: tuple[int, Point], serial_r_tag_2: tuple[int, Point]) -> Point:
    """The double spender's public key `u·G` from two `(R, T)` of one serial with `R1 ≠ R2`."""
    (r1, t1), (r2, t2) = serial_r_tag_1, serial_r_tag_2
    if (r1 - r2) % L == 0:
        raise ValueError("the two spends have the same R: a replay, not a double spend")
    omega_g = pow((r1 - r2) % L, -1, L) * group.sub(t1, t2)
    return group.sub(t1, r1 * omega_g)


# ---------------------------------------------------------------------------------------------
# The bank


@dataclass(frozen=True)
class DepositResult:
    """`accepted`; otherwise why not (`"invalid"`, `"replay"`, `"double-spend"`) and, for a
    double spend, the account the two tags identify."""

    accepted: bool
    reason: str = ""
    double_spender: Any = None


class Bank:
    """The issuer and verifier of wallets, with an in-memory ledger of deposited serials (the
    library's reference; a server keeps the ledger in a database with the serial unique)."""

    def __init__(self, level: int = 10, key: IssuerKey | None = None):
        if not 1 <= level <= MAX_LEVEL:
            raise ValueError(f"a wallet holds 2^1 to 2^{MAX_LEVEL} coins")
        self.level = level
        self._key = key or IssuerKey.generate(ATTRIBUTES)
        if self._key.n != ATTRIBUTES:
            raise ValueError(f"an e-cash bank's key has {ATTRIBUTES} attributes")
        self.params = self._key.params
        self._accounts: dict[bytes, Any] = {}
        self._spent: dict[bytes, tuple[int, Point]] = {}

    def __repr__(self) -> str:
        return f"<Bank: 2^{self.level} coins per wallet, {len(self._spent)} deposits>"

    def open_account(self, account: Any, public_key: Point) -> None:
        self._accounts[group.pack(public_key)] = account

    def withdraw(
        self,
        account: Any,
        public_key: Point,
        request: IssuanceRequest | bytes,
        *,
        context: bytes = b"",
    ) -> IssuanceResponse:
        """Issue a wallet to `account` whose key is `public_key` (the request must prove its
        hidden `u` is that key's log); `CredentialError` otherwise."""
        if self._accounts.get(group.pack(public_key)) != account:
            raise CredentialError("no such account with this public key")
        return kvac.issue(
            self._key, request, context=context, bound={0: public_key}, offsets=seed_offsets()
        )

    def check_unendorsed(
        self, spend: Spend | bytes, merchant_id: bytes, info: bytes, endorsement_key: Point
    ) -> bool:
        """For a seller before it delivers (keyed verification: only the bank can check a
        coin): whether `spend` is an unendorsed coin bound to `endorsement_key` whose serial is
        not yet deposited. Records nothing."""
        sp = verify_spend(
            self._key, spend, merchant_id, info, self.level, endorsement_key=endorsement_key
        )
        return sp is not None and group.pack(sp.serial) not in self._spent

    def deposit(
        self,
        spend: Spend | bytes,
        merchant_id: bytes,
        info: bytes,
        *,
        endorsement: int | None = None,
    ) -> DepositResult:
        """Verify and record a spend; an unendorsed coin only with its `endorsement` `x`
        (`invalid` without it, or with another `x`)."""
        try:
            x_key = _endorsement_key(endorsement)
        except (TypeError, ValueError):
            return DepositResult(False, "invalid")
        sp = verify_spend(self._key, spend, merchant_id, info, self.level, endorsement_key=x_key)
        if sp is None:
            return DepositResult(False, "invalid")
        key = group.pack(sp.serial)
        r = spend_r(merchant_id, info, x_key)
        seen = self._spent.get(key)
        if seen is not None:
            if seen[0] == r:
                return DepositResult(False, "replay")
            pk = identify(seen, (r, sp.tag))
            return DepositResult(False, "double-spend", self._accounts.get(group.pack(pk), pk))
        self._spent[key] = (r, sp.tag)
        return DepositResult(True)


def merchant_info() -> bytes:
    """A fresh `info` for one spend (a merchant may add the date, the order, …)."""
    return _secrets.token_bytes(16)
