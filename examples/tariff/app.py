"""Pay-as-you-drive with a placed tariff: a region that may run on either tier.

payd (examples/payd) proves the whole premium on the car, because every day's bracket reads
that day's private kilometres. Here the insurer's tariff applies to the week's totals instead:
the car proves, from its private log, the week's kilometres and night kilometres (the only
values that leave the car), and the tariff — brackets and a night surcharge from a published
table, a zone surcharge, a cap — is a region on public data. It has no private input, so the
information-flow check lets it run on the car (which proves it; the insurer verifies) or at the
insurer (which proves it; the car verifies its bill). `price` is `@worker(tier="auto")`: the
planner places it by cost (docs/planner.md, "Tiers"):

    zeenot plan examples/tariff                           # PLAN_WEIGHTS: the car's time is dear
    zeenot plan examples/tariff --weights client=1,server=10   # a busy insurer: on the car
    zeenot serve examples/tariff/app.py ... ; zeenot run examples/tariff/app.py --inputs \\
        examples/tariff/run.json --server URL              # the runtime follows the plan
"""

from zeenot import Client, MaxSize, Private, Public, check, u32, u64, worker, zk

DAYS = 7
Week = tuple[u32, u32, u32, u32, u32, u32, u32]
BRACKETS = 24  # the tariff's distance brackets (upper bounds in km, rising)
Table = tuple[u32, ...]

MAX_DAILY_KM = 1_600

# The car's seconds are worth four of the insurer's (a logger on a battery, a server in a rack):
# the planner's weights for this application (`zeenot plan --weights` overrides them).
PLAN_WEIGHTS = "client=4,server=1"


@zk
def weekly_totals(km: Private[Week], night_km: Private[Week]) -> tuple[u32, u32]:
    """The week's kilometres and night kilometres from the logger's daily readings."""
    total = u32(0)
    night = u32(0)
    for day in range(DAYS):
        check(km[day] <= MAX_DAILY_KM)
        check(night_km[day] <= km[day])
        total += km[day]
        night += night_km[day]
    return total, night


@zk
def premium(
    total_km: Public[u32],
    night_km: Public[u32],
    zone: Public[u32],
    bounds: Public[MaxSize[list[u32], BRACKETS]],
    cents: Public[MaxSize[list[u32], BRACKETS]],
    zone_percent: Public[MaxSize[list[u32], 16]],
    cap_cents: Public[u32],
) -> tuple[u64, bool]:
    """The tariff on the week's totals: each bracket's kilometres at its rate, 4 ct per night
    kilometre, the zone's surcharge in per cent, and the cap."""
    check(len(bounds) == len(cents))
    total = u64(0)
    below = u32(0)
    for bound, rate in zip(bounds, cents, strict=False):
        check(bound >= below)
        upper = total_km if total_km < bound else bound
        inside = upper - below if upper > below else u32(0)
        total += u64(inside) * u64(rate)
        below = bound
    check(total_km <= below)  # the last bracket covers every week
    total += u64(night_km) * 4
    surcharge = u64(0)
    for i, percent in enumerate(zone_percent):
        surcharge = u64(percent) if u32(i) == zone else surcharge
    total += total * surcharge // 100
    capped = total > u64(cap_cents)
    return (u64(cap_cents) if capped else total), capped


@worker(tier="server")
def tariff() -> tuple[list, list, list, u32]:
    """The insurer's published tariff: bracket bounds (km), their rates (ct/km), the zones'
    surcharges (%), the weekly cap (ct)."""
    bounds = [u32(25 * (i + 1) * (i + 1)) for i in range(BRACKETS)]
    cents = [u32(max(9 - i // 3, 2)) for i in range(BRACKETS)]
    zones = [u32(5 * (i % 4)) for i in range(16)]
    return bounds, cents, zones, u32(9_000)


@worker(tier="client")
def totals(km: Private[Week, Client], night_km: Private[Week, Client]):
    """On the car: the week's totals, proved from the private log."""
    return weekly_totals(km, night_km)


@worker(tier="auto")
def price(
    total_km: u32, night_km: u32, zone: u32, bounds: list, cents: list, zones: list, cap: u32
):
    """The tariff on the proved totals: on the car or at the insurer, as the planner places
    it; whichever tier runs it proves it."""
    return premium(total_km, night_km, zone, bounds, cents, zones, cap)


@worker(tier="server")
def bill(policy: str, premium_cents: u64, capped: bool) -> dict:
    return {"policy": policy, "premium_cents": premium_cents, "capped": capped}


def main(policy: str, zone: u32, km: Private[Week, Client], night_km: Private[Week, Client]):
    bounds, cents, zones, cap = tariff()
    total_km, night = totals(km, night_km)
    premium_cents, capped = price(total_km, night, zone, bounds, cents, zones, cap)
    return bill(policy, premium_cents, capped)
