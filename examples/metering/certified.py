"""Smart metering from certified data (CRISP's first use case), path (a): a proved bill.

The meter (a *source*, `zeenot.certified.Source`) signs the household's half-hourly readings
(watt-hours, 16 bits each) once per billing period: one EdDSA-Poseidon signature over a
Poseidon commitment to the block, whose header names the meter, the household's public key and
the period (`zeenot.certified.commit`). The household keeps the signed block and proves the
bill under the utility's tiered tariff; the utility verifies the proof and learns the bill.

The circuit recomputes the block's commitment from the private readings and the public header
(meter id, the household's key, period), checks the meter's signature on it, checks that the
prover holds the household's secret key, and computes the bill:

* tiers on the period's energy: the first `TIER1_WH` at `RATE1`, up to `TIER2_WH` at `RATE2`,
  the rest at `RATE3` (tier bounds scale with the days in the block);
* a peak surcharge (`PEAK_RATE`) on every reading in the evening peak (17:00–21:00).

Rates are in cents per kWh, the bill is rounded down to the cent. What is private: every
reading, the signature and the household's secret key. What the utility learns: the bill (in
cents) for the public meter key, meter id, household key and period.

    python examples/metering/certified_data.py          # certified_inputs.json: one day
    zeenot simulate examples/metering/certified.py:bill_day \
        --inputs examples/metering/certified_inputs.json
    zeenot compile  examples/metering/certified.py:bill_day -o out/cert-meter
    zeenot setup    out/cert-meter
    zeenot prove    out/cert-meter --inputs examples/metering/certified_inputs.json \
        -o out/cert-meter/proof.json
    zeenot verify   out/cert-meter out/cert-meter/proof.json

`bill_month` is the same at CRISP's size (1,440 half-hours: 30 days);
`certified_data.py --days 30` makes its inputs.
"""

from zeenot import Field, MaxSize, Private, Public, check, u16, u32, u64, zk
from zeenot.babyjub import BASE8, Point, Signature, eddsa_verify
from zeenot.certified.commit import block_digest

HALF_HOURS = 48  # readings per day
DAY = HALF_HOURS  # one day's block (the tests' size)
MONTH = 30 * HALF_HOURS  # a billing period of 1,440 half-hourly readings (CRISP's size)
BITS = 16  # a reading is watt-hours in a half hour, below 65,536

TIER1_WH = 100_000  # per period (scaled by the days in the block)
TIER2_WH = 300_000
RATE1 = 18  # cents per kWh
RATE2 = 24
RATE3 = 31
PEAK_RATE = 9  # cents per kWh on top, for readings in the peak
PEAK_FIRST = 34  # 17:00
PEAK_END = 42  # 21:00 (exclusive)


def is_peak(k: int) -> bool:
    return PEAK_FIRST <= k % HALF_HOURS < PEAK_END


def tiered_bill(
    source: Point,
    source_id: u32,
    user: Point,
    user_sk: Field,
    period: u32,
    wh: list[u16],
    signature: Signature,
    n: int,
) -> u64:
    """The bill in cents for `n` signed readings (`n` a constant: the block's size)."""
    check(len(wh) == n, "the block has another number of readings")
    check(user_sk * BASE8 == user, "not the household's key")
    digest = block_digest(source_id, user, period, lambda k: wh[k], n, BITS)
    check(eddsa_verify(source, digest, signature), "not signed by the meter")
    days = n // HALF_HOURS
    total = u64(0)
    peak = u64(0)
    for k in range(n):
        total += u64(wh[k])
        if is_peak(k):
            peak += u64(wh[k])
    t1 = min(total, u64(TIER1_WH * days // 30))
    t2 = min(total - t1, u64((TIER2_WH - TIER1_WH) * days // 30))
    t3 = total - t1 - t2
    cost = t1 * RATE1 + t2 * RATE2 + t3 * RATE3 + peak * PEAK_RATE  # cents per kWh × Wh
    return cost // 1000


@zk
def bill_day(
    source: Public[Point],
    source_id: Public[u32],
    user: Public[Point],
    period: Public[u32],
    user_sk: Private[Field],
    wh: Private[MaxSize[list[u16], DAY]],
    signature: Private[Signature],
) -> u64:
    """One day's bill (48 readings) from the meter's signed block."""
    return tiered_bill(source, source_id, user, user_sk, period, wh, signature, DAY)


@zk
def bill_month(
    source: Public[Point],
    source_id: Public[u32],
    user: Public[Point],
    period: Public[u32],
    user_sk: Private[Field],
    wh: Private[MaxSize[list[u16], MONTH]],
    signature: Private[Signature],
) -> u64:
    """A 30-day billing period's bill (1,440 readings) from the meter's signed block."""
    return tiered_bill(source, source_id, user, user_sk, period, wh, signature, MONTH)
