"""Mean of encrypted SNP counts: the ElGamal-in-Circom report's use case.

Each of N research participants encrypts their count (0, 1 or 2 copies of a variant allele) to
the study's public key with exponential ElGamal on Baby Jubjub and publishes the ciphertext. An
untrusted aggregator adds the ciphertexts homomorphically and proves, with one Groth16 proof,
that the aggregate it publishes is exactly the sum of the published ciphertexts (and how many
there were). The key holder verifies the proof, decrypts the aggregate (baby-step giant-step)
and divides by N: the mean allele count, without ever seeing an individual count.

What is public: the ciphertexts (checked on the curve and in the prime-order subgroup when the
verifier reads them), the aggregate and the count. Nothing is private to the aggregator: the
proof replaces re-doing N point additions, and it is what a smart contract or a third party
checks. A participant can also prove that their ciphertext encrypts 0, 1 or 2 with
`check(encrypt(m, pk, r) == ct)` (2,769 constraints; `tests/python/test_babyjub_lang.py`).

    python examples/snp_mean/run.py --n 100        # generate, prove, verify, decrypt the mean
    python examples/snp_mean/run.py --n 100 --committed   # one public input: a Poseidon digest
    zeenot simulate examples/snp_mean/app.py:aggregate --inputs examples/snp_mean/inputs.json
"""

from zeenot import Field, MaxSize, Private, Public, check, poseidon, u32, zk
from zeenot.babyjub import Ciphertext

MAX_RECORDS = 100  # the circuit has room for this many ciphertexts


@zk
def aggregate(cts: Public[MaxSize[list[Ciphertext], MAX_RECORDS]]) -> tuple[Ciphertext, u32]:
    """The homomorphic sum of the published ciphertexts, and their number."""
    return sum(cts), u32(len(cts))


def digest(cts: list[Ciphertext]) -> Field:
    """A Poseidon hash chain over the ciphertexts' coordinates."""
    h = Field(len(cts))
    for c in cts:
        h = poseidon(h, c.c1.x, c.c1.y, c.c2.x, c.c2.y)
    return h


@zk
def aggregate_committed(
    cts: Private[MaxSize[list[Ciphertext], MAX_RECORDS]], published: Public[Field]
) -> tuple[Ciphertext, u32]:
    """The same statement with one public input instead of 4 per ciphertext: the verifier
    hashes the published list itself (`digest`) and the proof shows the aggregated
    ciphertexts are exactly those. Verification is then constant; proving pays ~330
    constraints per ciphertext for the hash."""
    check(digest(cts) == published, "these are not the published ciphertexts")
    return sum(cts), u32(len(cts))
