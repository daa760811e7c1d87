"""Synthetic half-hourly readings for examples/metering/certified.py, signed by an example meter,
and a plain-Python reference bill.

A household's load (watt-hours per half hour): a base load of 80–200 Wh, a morning bump
(07:00–09:00) and an evening peak (17:00–22:00) of up to ~1.2 kWh per half hour, and the odd
appliance spike; the shape of the UK Power Networks smart-meter data CRISP used, not the data.

    python examples/metering/certified_data.py              # one day: certified_inputs.json
    python examples/metering/certified_data.py --days 30 -o /tmp/month.json
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from zeenot.babyjub import Point, eddsa_public_key
from zeenot.certified import SignedBlock, Source, circuit_inputs
from zeenot.ir import format_inputs

HERE = Path(__file__).resolve().parent
METER_SEED = bytes(range(40, 72))  # an example meter's seed (a real meter keeps it in hardware)
METER_ID = 1_001
USER_SK = 4_242_424_242_424_242  # the example household's secret key (a scalar)
PERIOD = 202_406  # June 2024

# the tariff of certified.py, repeated so that the reference is independent of it
TIER1_WH, TIER2_WH = 100_000, 300_000
RATES = (18, 24, 31)
PEAK_RATE, PEAK = 9, range(34, 42)


def meter() -> Source:
    return Source(METER_SEED, METER_ID)


def readings(days: int, seed: int = 1) -> list[int]:
    rng = random.Random(seed)
    out = []
    for _ in range(days):
        for k in range(48):
            wh = rng.randint(80, 200)
            if 14 <= k < 18:
                wh += rng.randint(100, 500)
            if 34 <= k < 44:
                wh += rng.randint(200, 1_000)
            if rng.random() < 0.03:
                wh += rng.randint(500, 2_500)  # the kettle, the oven, the washing machine
            out.append(wh)
    return out


def user_key(sk: int = USER_SK) -> Point:
    return sk * Point(*_base8())


def _base8() -> tuple[int, int]:
    from zeenot.babyjub import BASE8

    return int(BASE8.x), int(BASE8.y)


def inputs(days: int = 1, seed: int = 1, period: int = PERIOD) -> dict:
    """The inputs of `bill_day` (days=1) or `bill_month` (days=30)."""
    block = meter().sign(user_key(), period, readings(days, seed), 16)
    return circuit_inputs(block, USER_SK, "wh")


def reference(doc: dict) -> int | None:
    """The bill computed directly from the JSON inputs; None where no proof exists (a block
    the example meter did not sign for this household and period, a wrong secret key)."""
    block = SignedBlock.from_json(
        {
            "source_id": doc["source_id"],
            "source_key": doc["source"],
            "user": doc["user"],
            "period": doc["period"],
            "bits": 16,
            "values": doc["wh"],
            "signature": doc["signature"],
        }
    )
    if block.source_key != eddsa_public_key(METER_SEED) or not block.verify():
        return None
    if user_key(int(doc["user_sk"])) != block.user:
        return None
    wh = doc["wh"]
    days = len(wh) // 48
    total = sum(wh)
    t1 = min(total, TIER1_WH * days // 30)
    t2 = min(total - t1, (TIER2_WH - TIER1_WH) * days // 30)
    t3 = total - t1 - t2
    peak = sum(w for k, w in enumerate(wh) if k % 48 in PEAK)
    cost = t1 * RATES[0] + t2 * RATES[1] + t3 * RATES[2] + peak * PEAK_RATE
    return cost // 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--days", type=int, default=1, choices=(1, 30))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", type=Path, default=HERE / "certified_inputs.json")
    args = ap.parse_args()
    doc = inputs(args.days, args.seed)
    args.output.write_text(format_inputs(doc))
    print(f"wrote {args.output}: {len(doc['wh'])} signed readings, bill {reference(doc)} cents")


if __name__ == "__main__":
    main()
