"""Synthetic genotypes and disease weights for examples/genome, signed by an example lab, and a
plain-Python reference of the susceptibility scores.

CRISP's disease-susceptibility case: a user's SNPs associated with five diseases (Alzheimer's,
bipolar disorder, breast cancer, type-2 diabetes, schizophrenia), each coded 0, 1 or 2 (copies
of the risk allele), and per disease a weight per SNP (from the GWAS Catalog in CRISP; here
synthetic). Every SNP is associated with one or two of the diseases, with an odds ratio drawn in
[1.05, 1.6]; its weight is round(1000 · ln(OR)) (0 for the other diseases). Genotypes follow
Hardy–Weinberg proportions for a risk-allele frequency drawn in [0.05, 0.5].

    python examples/genome/data.py              # weights.json (2,048 SNPs) and inputs.json (256)
    python examples/genome/data.py --snps 2048 -o /tmp/genome.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
from pathlib import Path

from zeenot.babyjub import BASE8, Point, eddsa_public_key
from zeenot.certified import SignedBlock, Source, circuit_inputs
from zeenot.ir import format_inputs

HERE = Path(__file__).resolve().parent
DISEASES = ("alzheimers", "bipolar", "breast_cancer", "type2_diabetes", "schizophrenia")
SNPS = 2_048
LAB_SEED = bytes(range(80, 112))  # an example genome lab's seed
LAB_ID = 77
USER_SK = 1_234_567_890_123_456_789
PERIOD = 1  # the lab's test number for this user (a genome is sequenced once)


def weights(snps: int = SNPS, seed: int = 2021) -> list[list[int]]:
    """Per disease, the weight of each SNP (non-negative integers)."""
    rng = random.Random(seed)
    w = [[0] * snps for _ in DISEASES]
    for i in range(snps):
        for d in rng.sample(range(len(DISEASES)), rng.choice((1, 1, 2))):
            w[d][i] = round(1000 * math.log(rng.uniform(1.05, 1.6)))
    return w


def genotypes(snps: int, seed: int = 1) -> list[int]:
    rng = random.Random(seed)
    out = []
    for _ in range(snps):
        q = rng.uniform(0.05, 0.5)
        u = rng.random()
        out.append(2 if u < q * q else 1 if u < q * q + 2 * q * (1 - q) else 0)
    return out


def lab() -> Source:
    return Source(LAB_SEED, LAB_ID)


def user_key(sk: int = USER_SK) -> Point:
    return sk * BASE8


def inputs(snps: int = 256, seed: int = 1, period: int = PERIOD) -> dict:
    block = lab().sign(user_key(), period, genotypes(snps, seed), 8)
    return circuit_inputs(block, USER_SK, "snps")


def reference(doc: dict, w: list[list[int]] | None = None) -> list[int] | None:
    """The five scores computed directly; None where no proof exists."""
    w = w if w is not None else json.loads((HERE / "weights.json").read_text())["weights"]
    block = SignedBlock.from_json(
        {
            "source_id": doc["source_id"],
            "source_key": doc["source"],
            "user": doc["user"],
            "period": doc["period"],
            "bits": 8,
            "values": doc["snps"],
            "signature": doc["signature"],
        }
    )
    if block.source_key != eddsa_public_key(LAB_SEED) or not block.verify():
        return None
    if user_key(int(doc["user_sk"])) != block.user:
        return None
    return [sum(wd[i] * s for i, s in enumerate(doc["snps"])) for wd in w]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--snps", type=int, default=256, choices=(256, 2048))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", type=Path, default=HERE / "inputs.json")
    args = ap.parse_args()
    (HERE / "weights.json").write_text(
        json.dumps({"diseases": DISEASES, "weights": weights()}, separators=(",", ":")) + "\n"
    )
    doc = inputs(args.snps, args.seed)
    args.output.write_text(format_inputs(doc))
    print(f"wrote weights.json and {args.output}: {args.snps} signed SNPs")


if __name__ == "__main__":
    main()
