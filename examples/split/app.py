"""One computation, two proofs, two back ends: a value crosses as a Pedersen commitment.

A car's logger keeps a month of daily kilometres. The client proves, with the **sigma** back end
(no trusted setup, cost linear in the log), that the month's total is the sum of plausible daily
readings, and publishes only a *commitment* to the total. It then proves, with **Groth16** (a
192-byte proof the insurer stores), that the premium it reports was computed from the committed
total. The insurer verifies both proofs and that the second proof's input commitment is the first
proof's output commitment: the premium was computed from the logged data, and the total itself
was never revealed.

    zeenot compile examples/split/app.py:monthly_km -o out/km
    zeenot compile examples/split/app.py:premium -o out/premium
    (see tests/python/test_split_backends.py for the whole flow through the Python API)

`monthly_premium` is the same computation written as one program: its call to the `@zk`
function `premium` makes `premium` a region of its own, and zeenot does the splitting, the
commitments and the linking (a *bundle* of two proofs, docs/ir.md "Regions"):

    zeenot compile examples/split/app.py:monthly_premium -o out/mp
    zeenot setup out/mp
    zeenot prove out/mp --inputs examples/split/monthly.json --backend auto -o bundle.json
    zeenot verify out/mp bundle.json

The boundary's security argument is in docs/sigma.md ("The boundary between back ends").
"""

from zeenot import Committed, MaxSize, Private, Public, check, u32, u64, zk

MAX_DAYS = 31
MAX_DAILY_KM = 1_600  # plausibility: nobody drives further than this in a day


@zk
def monthly_km(daily_km: Private[MaxSize[list[u32], MAX_DAYS]]) -> Committed[u32]:
    """The month's total kilometres, committed (not revealed)."""
    check(len(daily_km) >= 28)
    check(all(km <= MAX_DAILY_KM for km in daily_km))
    return sum(daily_km)


@zk
def premium(total_km: Committed[u32], cents_per_km: Public[u32], cap_cents: Public[u32]) -> u64:
    """The month's premium in cents: distance-based, capped."""
    cost = u64(total_km) * u64(cents_per_km)
    return cost if cost < u64(cap_cents) else u64(cap_cents)


@zk
def monthly_premium(
    daily_km: Private[MaxSize[list[u32], MAX_DAYS]],
    cents_per_km: Public[u32],
    cap_cents: Public[u32],
) -> u64:
    """The month's premium from the daily log: this region checks the log and sums it; the
    call to `premium` is a region of its own, which receives the total committed."""
    check(len(daily_km) >= 28)
    check(all(km <= MAX_DAILY_KM for km in daily_km))
    return premium(sum(daily_km), cents_per_km, cap_cents)
