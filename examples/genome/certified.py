"""Disease susceptibility from a certified genome (CRISP's second use case), path (a).

A genome lab (a *source*, `zeenot.certified.Source`) signs the user's SNPs associated with five
diseases, each coded 0, 1 or 2 (8-bit values), once: one EdDSA-Poseidon signature over a
Poseidon commitment to the block, whose header names the lab, the user's public key and a test
number (`zeenot.certified.commit`). The user proves her five susceptibility scores (per disease
the weighted sum of her SNPs, the weights public: `weights.json`, part of the circuit) to a
service, which learns the scores and nothing else about her genome.

    python examples/genome/data.py          # weights.json, and inputs.json: 256 signed SNPs
    zeenot simulate examples/genome/certified.py:scores_256 --inputs examples/genome/inputs.json
    zeenot compile  examples/genome/certified.py:scores_256 -o out/genome
    zeenot setup    out/genome
    zeenot prove    out/genome --inputs examples/genome/inputs.json -o out/genome/proof.json
    zeenot verify   out/genome out/genome/proof.json

`scores` is the same at CRISP's size (2,048 SNPs; `data.py --snps 2048` makes its inputs).
"""

import json
from pathlib import Path

from zeenot import Field, MaxSize, Private, Public, check, u8, u32, u64, zk
from zeenot.babyjub import BASE8, Point, Signature, eddsa_verify
from zeenot.certified.commit import block_digest

SNPS = 2_048  # CRISP's size
SMALL = 256  # the tests' size: the first 256 SNPs of the panel
BITS = 8


def _weights() -> tuple:
    doc = json.loads((Path(__file__).resolve().parent / "weights.json").read_text())
    return tuple(tuple(w) for w in doc["weights"])


# five diseases × 2,048 SNPs, public: constants of the circuit (the verifying key fixes them)
WEIGHTS = _weights()
# the same per SNP (five weights each), in the order the loop reads them: the compiler turns a
# module-level tuple into constants where it is read, so it is read once (as the loop's tuple)
BY_SNP = tuple(zip(*WEIGHTS, strict=False))
BY_SNP_SMALL = BY_SNP[:SMALL]


def scored(
    source: Point,
    source_id: u32,
    user: Point,
    user_sk: Field,
    period: u32,
    snps: list[u8],
    signature: Signature,
    table,
) -> tuple[u64, u64, u64, u64, u64]:
    """The five scores of the signed SNPs, one per row of the weights' `table`."""
    n = len(table)
    check(len(snps) == n, "the block has another number of SNPs")
    check(user_sk * BASE8 == user, "not the user's key")
    digest = block_digest(source_id, user, period, lambda k: snps[k], n, BITS)
    check(eddsa_verify(source, digest, signature), "not signed by the lab")
    s0 = u64(0)
    s1 = u64(0)
    s2 = u64(0)
    s3 = u64(0)
    s4 = u64(0)
    for k, w in enumerate(table):
        g = u64(snps[k])
        s0 += g * w[0]
        s1 += g * w[1]
        s2 += g * w[2]
        s3 += g * w[3]
        s4 += g * w[4]
    return s0, s1, s2, s3, s4


@zk
def scores_256(
    source: Public[Point],
    source_id: Public[u32],
    user: Public[Point],
    period: Public[u32],
    user_sk: Private[Field],
    snps: Private[MaxSize[list[u8], SMALL]],
    signature: Private[Signature],
) -> tuple[u64, u64, u64, u64, u64]:
    """The five susceptibility scores over a 256-SNP panel."""
    return scored(source, source_id, user, user_sk, period, snps, signature, BY_SNP_SMALL)


@zk
def scores(
    source: Public[Point],
    source_id: Public[u32],
    user: Public[Point],
    period: Public[u32],
    user_sk: Private[Field],
    snps: Private[MaxSize[list[u8], SNPS]],
    signature: Private[Signature],
) -> tuple[u64, u64, u64, u64, u64]:
    """The five susceptibility scores over CRISP's 2,048 SNPs."""
    return scored(source, source_id, user, user_sk, period, snps, signature, BY_SNP)
