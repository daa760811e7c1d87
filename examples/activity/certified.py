"""Activity tracking from a certified GPS trace (CRISP's third use case), path (a).

A location provider (a *source*, `zeenot.certified.Source`: the cellular network or the phone's
attested location service) signs the user's trace once per activity: UTM fixes (a timestamp in
seconds and the easting and northing in centimetres, 32-bit values), one EdDSA-Poseidon signature
over a Poseidon commitment to the block, whose header names the provider, the user's public key
and the activity's number (`zeenot.certified.commit`). The user proves the total distance she
ran to a fitness service, which learns the distance and how many steps of the trace it counts,
not the route.

The distance is exact in integers: each step's length is round(√(ΔE² + ΔN²)) centimetres, the
square root checked in the circuit (`isqrt(4·d²)`, then halved with rounding: no polynomial
approximation), summed. CRISP's plausibility filters: timestamps strictly increase (otherwise
there is no proof), and a step counts only if its time delta is at most `MAX_DT_S` (3 s) and its
speed at most `MAX_SPEED_CM_S` (10 m/s); its length is then below 30 m.

    python examples/activity/data.py          # inputs.json: a 32-fix signed trace
    zeenot simulate examples/activity/certified.py:distance_32 \
        --inputs examples/activity/inputs.json
    zeenot compile  examples/activity/certified.py:distance_32 -o out/activity
    zeenot setup    out/activity
    zeenot prove    out/activity --inputs examples/activity/inputs.json -o out/activity/proof.json
    zeenot verify   out/activity out/activity/proof.json

`distance_256` and `distance` (CRISP's 2,048 fixes) are the same at larger sizes
(`data.py --fixes N`). The unrolled body grows by ~120 IR instructions a fix, so `distance`
(~247,000) needs the front end's limit raised past its default 200,000:

    zeenot compile  examples/activity/certified.py:distance -o out/activity-2048 \
        --max-instructions 300000
"""

from dataclasses import dataclass

from zeenot import Field, MaxSize, Private, Public, check, i64, isqrt, u16, u32, u64, zk
from zeenot.babyjub import BASE8, Point, Signature, eddsa_verify
from zeenot.certified.commit import block_digest

FIXES = 2_048  # CRISP's size
BITS = 32  # each of t, easting, northing
MAX_DT_S = 3  # seconds between two fixes of a counted step
MAX_SPEED_CM_S = 1_000  # 10 m/s: faster is not running


@dataclass(frozen=True)
class Fix:
    t: u32  # seconds since the activity's start
    e: u32  # UTM easting, centimetres
    n: u32  # UTM northing, centimetres


def value(trace: list[Fix], k: int) -> u32:
    """Value k of the signed block: the fixes' (t, e, n) one after the other."""
    f = trace[k // 3]
    j = k % 3
    return f.t if j == 0 else f.e if j == 1 else f.n


def step(a: Fix, b: Fix) -> tuple[bool, u64]:
    """Whether the step a → b is plausible, and then its length in centimetres (rounded)."""
    dt = b.t - a.t  # u32: a timestamp before its predecessor has no proof
    check(dt != 0, "timestamps must strictly increase")
    reach = i64(min(dt, u32(MAX_DT_S))) * MAX_SPEED_CM_S
    de = i64(b.e) - i64(a.e)
    dn = i64(b.n) - i64(a.n)
    if dt <= MAX_DT_S and abs(de) <= reach and abs(dn) <= reach:
        d2 = de * de + dn * dn  # ≤ 2 · 3000²: only in this branch, where it cannot overflow
        if d2 <= reach * reach:
            return True, u64((isqrt(u32(4 * d2)) + 1) // 2)  # round(√d2) = ⌊(⌊√(4·d2)⌋ + 1)/2⌋
    return False, u64(0)


def step_hinted(a: Fix, b: Fix, r: u16) -> tuple[bool, u64]:
    """`step`, the length `r` given by the prover and checked instead of searched for:
    round(√d2) = r ⟺ r² − r < d2 ≤ r² + r (and d2 = 0 ⟺ r = 0), two 32-bit comparisons
    where `isqrt` costs a 16-step bitwise search (~630 constraints a step, measured)."""
    dt = b.t - a.t
    check(dt != 0, "timestamps must strictly increase")
    reach = i64(min(dt, u32(MAX_DT_S))) * MAX_SPEED_CM_S
    de = i64(b.e) - i64(a.e)
    dn = i64(b.n) - i64(a.n)
    if dt <= MAX_DT_S and abs(de) <= reach and abs(dn) <= reach:
        d2 = u32(de * de + dn * dn)  # ≤ 2 · 3000² in this branch
        if d2 <= u32(reach * reach):
            rr = u32(r) * u32(r)
            check(rr + u32(r != 0) <= d2 + u32(r), "a step's length is too long")
            check(d2 <= rr + u32(r), "a step's length is too short")
            return True, u64(r)
    return False, u64(0)


def total_hinted(
    source: Point,
    source_id: u32,
    user: Point,
    user_sk: Field,
    period: u32,
    trace: list[Fix],
    signature: Signature,
    lengths,  # noqa: ANN001 - a tuple of n - 1 u16
    n: int,
) -> tuple[u64, u64]:
    """`total`, each counted step's rounded length given (`lengths`) and checked."""
    check(len(trace) == n, "the block has another number of fixes")
    check(user_sk * BASE8 == user, "not the user's key")
    digest = block_digest(source_id, user, period, lambda k: value(trace, k), 3 * n, BITS)
    check(eddsa_verify(source, digest, signature), "not signed by the location provider")
    cm = u64(0)
    counted = u64(0)
    for i in range(n - 1):
        ok, d = step_hinted(trace[i], trace[i + 1], lengths[i])
        cm += d
        if ok:
            counted += 1
    return cm, counted


def total(
    source: Point,
    source_id: u32,
    user: Point,
    user_sk: Field,
    period: u32,
    trace: list[Fix],
    signature: Signature,
    n: int,
) -> tuple[u64, u64]:
    """The distance in centimetres over the counted steps, and how many steps counted."""
    check(len(trace) == n, "the block has another number of fixes")
    check(user_sk * BASE8 == user, "not the user's key")
    digest = block_digest(source_id, user, period, lambda k: value(trace, k), 3 * n, BITS)
    check(eddsa_verify(source, digest, signature), "not signed by the location provider")
    cm = u64(0)
    counted = u64(0)
    for i in range(n - 1):
        ok, d = step(trace[i], trace[i + 1])
        cm += d
        if ok:
            counted += 1
    return cm, counted


@zk
def distance_32(
    source: Public[Point],
    source_id: Public[u32],
    user: Public[Point],
    period: Public[u32],
    user_sk: Private[Field],
    trace: Private[MaxSize[list[Fix], 32]],
    signature: Private[Signature],
) -> tuple[u64, u64]:
    """Distance (cm) and counted steps of a signed 32-fix trace."""
    return total(source, source_id, user, user_sk, period, trace, signature, 32)


@zk
def distance_256(
    source: Public[Point],
    source_id: Public[u32],
    user: Public[Point],
    period: Public[u32],
    user_sk: Private[Field],
    trace: Private[MaxSize[list[Fix], 256]],
    signature: Private[Signature],
) -> tuple[u64, u64]:
    """Distance (cm) and counted steps of a signed 256-fix trace."""
    return total(source, source_id, user, user_sk, period, trace, signature, 256)


@zk
def distance(
    source: Public[Point],
    source_id: Public[u32],
    user: Public[Point],
    period: Public[u32],
    user_sk: Private[Field],
    trace: Private[MaxSize[list[Fix], FIXES]],
    signature: Private[Signature],
) -> tuple[u64, u64]:
    """Distance (cm) and counted steps of a signed trace of CRISP's 2,048 fixes."""
    return total(source, source_id, user, user_sk, period, trace, signature, FIXES)


# The same statement with each step's length given by the prover (`data.py`'s `step_lengths`)
# and checked by two comparisons: 869 constraints a fix instead of 1,407 (measured at 32 and
# 256 fixes). Their inputs add `lengths` (`data.inputs(n, hinted=True)`).


@zk
def distance_hinted_32(
    source: Public[Point],
    source_id: Public[u32],
    user: Public[Point],
    period: Public[u32],
    user_sk: Private[Field],
    trace: Private[MaxSize[list[Fix], 32]],
    signature: Private[Signature],
    lengths: Private[tuple[(u16,) * 31]],
) -> tuple[u64, u64]:
    """`distance_32`, the steps' lengths given and checked."""
    return total_hinted(source, source_id, user, user_sk, period, trace, signature, lengths, 32)


@zk
def distance_hinted_256(
    source: Public[Point],
    source_id: Public[u32],
    user: Public[Point],
    period: Public[u32],
    user_sk: Private[Field],
    trace: Private[MaxSize[list[Fix], 256]],
    signature: Private[Signature],
    lengths: Private[tuple[(u16,) * 255]],
) -> tuple[u64, u64]:
    """`distance_256`, the steps' lengths given and checked."""
    return total_hinted(source, source_id, user, user_sk, period, trace, signature, lengths, 256)


@zk
def distance_hinted(
    source: Public[Point],
    source_id: Public[u32],
    user: Public[Point],
    period: Public[u32],
    user_sk: Private[Field],
    trace: Private[MaxSize[list[Fix], FIXES]],
    signature: Private[Signature],
    lengths: Private[tuple[(u16,) * (FIXES - 1)]],
) -> tuple[u64, u64]:
    """`distance`, the steps' lengths given and checked (CRISP's 2,048 fixes)."""
    return total_hinted(source, source_id, user, user_sk, period, trace, signature, lengths, FIXES)
