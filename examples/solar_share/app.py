"""Shared solar: a neighbour's panel credits a household, with a peer as a tier of the plan.

A household (the client) buys the electricity a neighbour's panel (the peer: another party
taking part in the run, ZØ's ClientShare tier) exports to it. Each keeps its meter log
private: the panel proves from its own hourly log how many kWh it exported that day (only the
total leaves it), the household proves from its log how many it used. The credit on the
exported kWh — a published rate, tiers of a feed-in tariff and a daily cap — is a region on
public data, so the information-flow check lets any tier run it: the panel, the household or
the utility (the server). `price` is `@worker(tier="auto")` and the planner places it by cost
(docs/planner.md, "Tiers"); `exported` is movable too, but it reads the panel's private log,
so only the peer may run it ("only peer: private inputs of the peer").

    zeenot plan examples/solar_share                          # PLAN_WEIGHTS: the panel is idle
    zeenot plan examples/solar_share --weights peer=10        # a busy panel: elsewhere
"""

from zeenot import Client, MaxSize, Peer, Private, Public, check, u32, u64, worker, zk

HOURS = 24
Day = tuple[(u32,) * HOURS]  # hourly readings in Wh
MAX_HOURLY_WH = 20_000
TIERS_OF_TARIFF = 8

# The household's and the utility's seconds are dear, the panel's controller is idle on mains
# power: the planner's weights for this application (`zeenot plan --weights` overrides them).
PLAN_WEIGHTS = "client=4,server=2,peer=1"


@zk
def panel_export(wh: Private[Day]) -> u32:
    """The day's exported kWh (rounded down) from the panel's hourly readings in Wh."""
    total = u32(0)
    for hour in range(HOURS):
        check(wh[hour] <= MAX_HOURLY_WH)
        total += wh[hour]
    return total // 1000


@zk
def home_use(wh: Private[Day]) -> u32:
    """The day's used kWh (rounded down) from the household's hourly readings in Wh."""
    total = u32(0)
    for hour in range(HOURS):
        check(wh[hour] <= MAX_HOURLY_WH)
        total += wh[hour]
    return total // 1000


@zk
def credit(
    kwh: Public[u32],
    bounds: Public[MaxSize[list[u32], TIERS_OF_TARIFF]],
    cents: Public[MaxSize[list[u32], TIERS_OF_TARIFF]],
    cap_cents: Public[u32],
) -> tuple[u64, bool]:
    """The feed-in credit: each tier's kWh at its rate, capped."""
    check(len(bounds) == len(cents))
    total = u64(0)
    below = u32(0)
    for bound, rate in zip(bounds, cents, strict=False):
        check(bound >= below)
        upper = kwh if kwh < bound else bound
        inside = upper - below if upper > below else u32(0)
        total += u64(inside) * u64(rate)
        below = bound
    check(kwh <= below)
    capped = total > u64(cap_cents)
    return (u64(cap_cents) if capped else total), capped


@worker(tier="server")
def tariff() -> tuple[list, list, u32]:
    """The utility's published feed-in tariff: tier bounds (kWh), rates (ct/kWh), daily cap."""
    bounds = [u32(10 * (i + 1) * (i + 1)) for i in range(TIERS_OF_TARIFF)]
    cents = [u32(max(12 - 2 * i, 3)) for i in range(TIERS_OF_TARIFF)]
    return bounds, cents, u32(1_500)


@worker(tier="auto")
def exported(panel: Private[Day, Peer]):
    """On the panel (its private log pins it there): the day's exported kWh, proved."""
    return panel_export(panel)


@worker(tier="client")
def used(home: Private[Day, Client]):
    """On the household: the day's used kWh, proved from its private log."""
    return home_use(home)


@worker(tier="auto")
def price(kwh: u32, bounds: list, cents: list, cap: u32):
    """The credit on the proved export: wherever the planner places it; that tier proves it."""
    return credit(kwh, bounds, cents, cap)


@worker(tier="server")
def bill(account: str, used_kwh: u32, exported_kwh: u32, credit_cents: u64, capped: bool) -> dict:
    return {
        "account": account,
        "used_kwh": used_kwh,
        "from_panel_kwh": min(used_kwh, exported_kwh),
        "credit_cents": credit_cents,
        "capped": capped,
    }


def main(account: str, home: Private[Day, Client], panel: Private[Day, Peer]):
    bounds, cents, cap = tariff()
    kwh = exported(panel)
    used_kwh = used(home)
    credit_cents, capped = price(kwh, bounds, cents, cap)
    return bill(account, used_kwh, kwh, credit_cents, capped)
