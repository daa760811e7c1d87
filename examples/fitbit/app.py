"""Walk for charity: ZØ's FitBit case study.

A sponsor donates to charity for every kilometre a participant walks, runs or bikes. The
activity tracker logs one sample per minute or so: a timestamp, the steps taken since the
previous sample and a position on a local metric grid around the participant's home (from the
phone's GPS), and signs each batch of samples once (EdDSA-Poseidon over a Poseidon hash chain of
the batch). The participant's phone proves how much the sponsor owes; the route and the
minute-by-minute activity never leave the phone.

`distance_donation` is ZØ's version and the one the application serves: it pays for the
distance covered on foot or by bike (`isqrt` of each leg's squared displacement) and needs the
tracker's signature on the log, under the tracker key the sponsor publishes (a parameter of the
application: a log the tracker did not sign, or one changed after signing, has no proof).

What is private: the whole trace (`trace`: timestamps, step counts, positions), its length and
the tracker's signature. What the verifier (the sponsor) learns: the donation due in cents, the
metres it pays for, and whether the cap applied, for the public tracker key, rate and cap it
chose.

Plausibility, enforced by `check`s and by overflow (no proof exists otherwise): timestamps
strictly increase (a `u32` difference that would go negative is an overflow) and the `i32`
coordinate differences do not overflow. A leg faster than a bike (a car or a bus) earns nothing:
dx² + dy² ≤ (MAX_BIKE_SPEED · Δt)², with Δt capped at `MAX_GAP_S` so that a tracker switched off
for hours cannot launder a drive. An empty log or a single sample gives a donation of 0.

    zeenot simulate examples/fitbit/app.py:distance_donation \
        --inputs examples/fitbit/signed_inputs.json
    zeenot compile  examples/fitbit/app.py:distance_donation -o out/fitbit --json
    zeenot setup    out/fitbit
    zeenot prove    out/fitbit --inputs examples/fitbit/signed_inputs.json -o out/fitbit/proof.json
    zeenot verify   out/fitbit out/fitbit/proof.json

Variants (not served; kept as list benchmarks and for the sigma back end's templates):
`steps_donation` pays per 1,000 steps from an *unsigned* trace (steps of an interval faster
than a runner are not paid; no interval may have more steps than `MAX_CADENCE` per second
allows; the first sample's steps are not counted), and `donation_any_length` is the same
without `MaxSize` (a template: proved by the sigma back end at the trace's actual length).

    zeenot simulate examples/fitbit/app.py:steps_donation --inputs examples/fitbit/inputs.json

`examples/fitbit/data.py` regenerates `inputs.json`, `signed_inputs.json` and `run.json` (and
any other length) from a seed.
"""
# zip(xs, xs[1:]) pairs neighbours and stops at the shorter list by design:
# ruff: noqa: B905

from dataclasses import dataclass

from zeenot import (
    Client,
    Field,
    MaxSize,
    Private,
    Public,
    check,
    i32,
    i64,
    isqrt,
    poseidon,
    u16,
    u32,
    u64,
    worker,
    zk,
)
from zeenot.babyjub import Point, Signature, eddsa_verify

MAX_SAMPLES = 64  # the circuit has room for this many samples

MAX_CADENCE = 4  # steps per second: faster than any sprinter
MAX_FOOT_SPEED = 7  # metres per second (25 km/h): faster than this is not walking or running
MAX_GAP_S = 3_600  # seconds: a longer gap counts as one hour when checking the speed
MAX_BIKE_SPEED = 12  # metres per second (43 km/h): faster than this is a car or a bus


@dataclass(frozen=True)
class Sample:
    t: u32  # seconds since midnight of the challenge's first day
    steps: u16  # steps since the previous sample
    x: i32  # metres east of home
    y: i32  # metres north of home


def on_foot(a: Sample, b: Sample, dt: u32) -> bool:
    """The displacement a → b (dt seconds) is within a runner's reach: dx² + dy² ≤ reach²."""
    span = u16(min(dt, u32(MAX_GAP_S)))  # ≤ 3600: as a u16, reach² is known to be small
    reach = i64(span) * MAX_FOOT_SPEED
    dx = i64(b.x - a.x)  # an i32 difference, so dx² < 2^62
    dy = i64(b.y - a.y)
    return dx * dx <= reach * reach - dy * dy  # dx² + dy² could exceed i64; this cannot


@zk
def steps_donation(
    trace: Private[MaxSize[list[Sample], MAX_SAMPLES]],
    cents_per_1000_steps: Public[u32],
    cap_cents: Public[u32],
) -> tuple[u64, u64, bool]:
    """The donation in cents, the steps it pays for, and whether the cap applied."""
    return due_for(trace, cents_per_1000_steps, cap_cents)


@zk
def donation_any_length(
    trace: Private[list[Sample]],
    cents_per_1000_steps: Public[u32],
    cap_cents: Public[u32],
) -> tuple[u64, u64, bool]:
    """`steps_donation` for a trace of any length: no `MaxSize`, so it is proved with the sigma
    back end at the trace's actual length, which the proof reveals (and nothing else)."""
    return due_for(trace, cents_per_1000_steps, cap_cents)


def due_for(
    trace: list[Sample], cents_per_1000_steps: u32, cap_cents: u32
) -> tuple[u64, u64, bool]:
    later = trace[1:]
    # a u32 subtraction: a timestamp before its predecessor overflows, and no proof exists
    gaps = [b.t - a.t for a, b in zip(trace, later)]
    check(all(dt != 0 for dt in gaps), "timestamps must strictly increase")
    check(
        all(u64(b.steps) <= u64(dt) * MAX_CADENCE for b, dt in zip(later, gaps)), "too many steps"
    )
    walked = [u64(b.steps) for a, b, dt in zip(trace, later, gaps) if on_foot(a, b, dt)]
    steps = u64(sum(walked))
    due = steps * u64(cents_per_1000_steps) // 1000
    capped = due > u64(cap_cents)
    return (u64(cap_cents) if capped else due), steps, capped


# --------------------------------------------------------------------------------------------
# ZØ's FitBit as the paper has it: the sponsor pays for the *distance* walked, run or biked, and
# the log is certified by the tracker that recorded it. The tracker signs each batch of samples
# once (EdDSA-Poseidon over a Poseidon hash chain of the batch, not a signature per sample), so
# the phone cannot invent a walk; the proof shows the signed log earns the donation without
# revealing the log, its length or the signature.


def batch_digest(trace: list[Sample]) -> Field:
    """What the tracker signs: a Poseidon hash chain over the batch, seeded by its length."""
    h = Field(len(trace))
    for s in trace:
        h = poseidon(h, Field(s.t), Field(s.steps), Field(s.x), Field(s.y))
    return h


def leg_metres(a: Sample, b: Sample, dt: u32) -> u32:
    """Metres from a to b (the floor of the straight-line distance) if no faster than a bike:
    dx² + dy² ≤ (MAX_BIKE_SPEED · min(dt, MAX_GAP_S))², else 0 (a car ride earns nothing)."""
    span = u16(min(dt, u32(MAX_GAP_S)))
    reach = i64(span) * MAX_BIKE_SPEED  # ≤ 43,200 m: the square fits a u32
    dx = i64(b.x - a.x)
    dy = i64(b.y - a.y)
    if dx * dx <= reach * reach - dy * dy:
        return isqrt(u32(dx * dx + dy * dy))
    return u32(0)


@zk
def distance_donation(
    trace: Private[MaxSize[list[Sample], MAX_SAMPLES]],
    signature: Private[Signature],
    tracker: Public[Point],
    cents_per_km: Public[u32],
    cap_cents: Public[u32],
) -> tuple[u64, u64, bool]:
    """The donation in cents for the distance covered on foot or by bike (metres, also
    returned), and whether the cap applied; the log must carry the tracker's signature."""
    check(eddsa_verify(tracker, batch_digest(trace), signature), "the log is not the tracker's")
    later = trace[1:]
    gaps = [b.t - a.t for a, b in zip(trace, later)]  # u32: time never runs backwards
    check(all(dt != 0 for dt in gaps), "timestamps must strictly increase")
    metres = sum(u64(leg_metres(a, b, dt)) for a, b, dt in zip(trace, later, gaps))
    due = metres * u64(cents_per_km) // 1000
    capped = due > u64(cap_cents)
    return (u64(cap_cents) if capped else due), u64(metres), capped


# --------------------------------------------------------------------------------------------
# The application: the walker's phone (client) proves the donation from its private, tracker-
# signed trace; the sponsor (server) publishes the tracker key, its rate and cap, checks the
# proof was made with them, and pledges.
#
#     zeenot serve examples/fitbit/app.py --db out/fitbit.db --port 8770 &
#     zeenot run examples/fitbit/app.py --server http://127.0.0.1:8770 \
#         --inputs examples/fitbit/run.json

# The public key of the challenge's trackers (their signing key never leaves the hardware;
# examples/fitbit/data.py holds the example tracker's seed to make signed logs).
TRACKER = Point(
    Field(20457303402311453903843091849215919898357222407120525028801068561744047712307),
    Field(1509090367701558939782870421896679164430098672749875903737591354258978120777),
)


@worker(tier="server")
def sponsorship() -> tuple[Point, u32, u32]:
    """The sponsor's published terms: the trackers' key, cents per km, and the cap."""
    return TRACKER, u32(30), u32(5_000)


@worker(tier="client")
def claim(
    trace: Private[MaxSize[list[Sample], MAX_SAMPLES], Client],
    signature: Private[Signature, Client],
    tracker: Point,
    rate: u32,
    cap: u32,
):
    """On the phone: the donation the signed trace earns, proved."""
    return distance_donation(trace, signature, tracker, rate, cap)


@worker(tier="server")
def pledge(walker: str, cents: u64, metres: u64, capped: bool) -> dict:
    """At the sponsor: the pledge for a verified claim."""
    return {"walker": walker, "donation_cents": cents, "metres": metres, "capped": capped}


def main(
    walker: str,
    trace: Private[MaxSize[list[Sample], MAX_SAMPLES], Client],
    signature: Private[Signature, Client],
):
    tracker, rate, cap = sponsorship()
    cents, metres, capped = claim(trace, signature, tracker, rate, cap)
    return pledge(walker, cents, metres, capped)
