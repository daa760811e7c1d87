"""Pay-as-you-drive insurance: ZØ's motivating example.

A car's logger records, for each day of the week, the kilometres driven and how many of them at
night. The insurer bills by distance brackets with a night surcharge, caps the weekly premium and
rewards drivers who leave the car at home. The driver proves that the premium the insurer receives
was computed correctly from the private log, which never leaves the car; the insurer learns the
premium and whether the cap applied, nothing else.

Run it with `./scripts/demo.sh`, or step by step:

    zeenot simulate examples/payd/app.py:weekly_premium --inputs examples/payd/inputs.json
    zeenot compile  examples/payd/app.py:weekly_premium -o out/payd --json
    zeenot setup    out/payd
    zeenot prove    out/payd --inputs examples/payd/inputs.json -o out/payd/proof.json
    zeenot verify   out/payd out/payd/proof.json
"""

from zeenot import Client, Private, Public, check, u32, u64, worker, zk
from zeenot.application import Clients

DAYS = 7
Week = tuple[u32, u32, u32, u32, u32, u32, u32]

MAX_DAILY_KM = 1_600  # plausibility: nobody drives further than this in a day
NIGHT_SURCHARGE = 4  # cents per night kilometre
STAY_HOME_DAYS = 3  # this many days without driving earn the discount
STAY_HOME_DISCOUNT_PERCENT = 10


def day_cost(km: u32, night_km: u32) -> u64:
    """Cents for one day: 8 ct/km up to 30 km, 5 ct/km up to 100 km, 3 ct/km beyond."""
    check(km <= MAX_DAILY_KM)
    check(night_km <= km)
    short = km if km < 30 else u32(30)
    medium = (km if km < 100 else u32(100)) - short
    long = km - short - medium
    distance = u64(short) * 8 + u64(medium) * 5 + u64(long) * 3
    return distance + u64(night_km) * NIGHT_SURCHARGE


@zk
def weekly_premium(
    km: Private[Week],
    night_km: Private[Week],
    base_cents: Public[u32],
    cap_cents: Public[u32],
) -> tuple[u64, bool]:
    """The weekly premium in cents, and whether the cap applied."""
    total = u64(base_cents)
    idle_days = u32(0)
    for day in range(DAYS):
        total += day_cost(km[day], night_km[day])
        if km[day] == 0:
            idle_days += 1
    if idle_days >= STAY_HOME_DAYS:
        total -= total * STAY_HOME_DISCOUNT_PERCENT // 100
    capped = total > u64(cap_cents)
    premium = u64(cap_cents) if capped else total
    return premium, capped


# --------------------------------------------------------------------------------------------
# The application: the car (client) proves the premium, the insurer (server) verifies it and
# bills. `zeenot serve examples/payd/app.py` and `zeenot run examples/payd/app.py --server URL
# --inputs examples/payd/log.json` (see the README's demo).


# Only cars the insurer registered may submit (each run signed with the car's key), and one
# premium per car per week: the server's database refuses a second run of the same week (409).
CLIENTS = Clients(one_run_per="week")


@worker(tier="server")
def tariff() -> tuple[u32, u32]:
    """The insurer's published tariff: base premium and cap, in cents a week."""
    return u32(500), u32(4_000)


@worker(tier="client")
def quote(km: Private[Week, Client], night_km: Private[Week, Client], base: u32, cap: u32):
    """On the car: the week's premium, proved from the logger's private readings."""
    return weekly_premium(km, night_km, base, cap)


@worker(tier="server")
def bill(policy: str, premium: u64, capped: bool) -> dict:
    """At the insurer: the invoice line for a verified premium."""
    return {"policy": policy, "premium_cents": premium, "capped": capped}


def main(policy: str, km: Private[Week, Client], night_km: Private[Week, Client]):
    base, cap = tariff()
    premium, capped = quote(km, night_km, base, cap)
    return bill(policy, premium, capped)


EDGES = [0, 1_000, 2_000, 3_000, 4_000]  # premium brackets in cents, the last one the cap


def dashboard_fold(counts: list | None, result: dict) -> list:
    """The server's chart, kept up to date run by run: how many premiums fall in each bracket
    (the state is five numbers however many runs are stored)."""
    counts = counts or [0] * len(EDGES)
    counts[max(i for i, e in enumerate(EDGES) if result["premium_cents"] >= e)] += 1
    return counts


def dashboard_view(counts: list | None) -> dict:
    labels = [f"{e // 100}–{n // 100} €" for e, n in zip(EDGES, EDGES[1:], strict=False)] + ["cap"]
    values = counts or [0] * len(EDGES)
    return {"kind": "bars", "title": "weekly premiums", "values": values, "labels": labels}
