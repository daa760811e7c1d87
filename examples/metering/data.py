"""Signed monthly readings for examples/metering (the meter's key comes from a fixed seed).

python examples/metering/data.py [n] [-o inputs.json]
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from zeenot import Field, poseidon
from zeenot.babyjub import eddsa_public_key, eddsa_sign
from zeenot.ir import to_json_value

METER_SEED = bytes(range(32))  # an example meter's key seed (a real meter keeps it in hardware)


def generate(n: int, seed: int = 1) -> dict:
    rng = random.Random(seed)
    readings = []
    for period in range(n):
        kwh = rng.randint(60, 420)
        sig = eddsa_sign(METER_SEED, poseidon(Field(period), Field(kwh)))
        readings.append({"kwh": kwh, "sig": to_json_value(sig)})
    return {
        "meter": to_json_value(eddsa_public_key(METER_SEED)),
        "readings": readings,
        "cheap_cents": 18,
        "cents": 31,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("n", type=int, nargs="?", default=12)
    ap.add_argument("-o", "--output", type=Path, default=Path(__file__).with_name("inputs.json"))
    args = ap.parse_args()
    args.output.write_text(json.dumps(generate(args.n), indent=1) + "\n")


if __name__ == "__main__":
    main()
