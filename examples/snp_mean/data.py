"""Synthetic SNP data: N participants' allele counts, encrypted to the study's key.

    python examples/snp_mean/data.py 20 -o examples/snp_mean/inputs.json

The secret key is derived from the seed so that runs are reproducible (an example, not a key
ceremony); `generate` returns it next to the JSON inputs.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from zeenot.babyjub import BASE8, SUBGROUP_ORDER, encrypt
from zeenot.ir import to_json_value

ALLELE_FREQUENCY = 0.3  # the variant's frequency: counts are Binomial(2, 0.3)


def generate(n: int, seed: int = 1) -> tuple[dict, int, list[int]]:
    """`(inputs, secret key, counts)` for `n` participants."""
    rng = random.Random(seed)
    sk = 1 + rng.randrange(SUBGROUP_ORDER - 1)
    pk = sk * BASE8
    counts = [sum(rng.random() < ALLELE_FREQUENCY for _ in range(2)) for _ in range(n)]
    cts = [encrypt(c, pk, 1 + rng.randrange(SUBGROUP_ORDER - 1)) for c in counts]
    return {"cts": [to_json_value(c) for c in cts]}, sk, counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("n", type=int, nargs="?", default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", type=Path, default=Path(__file__).with_name("inputs.json"))
    args = ap.parse_args()
    inputs, _, _ = generate(args.n, args.seed)
    args.output.write_text(json.dumps(inputs, indent=1) + "\n")


if __name__ == "__main__":
    main()
