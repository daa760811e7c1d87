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
`check(encrypt(m, pk, r) == ct)` (2,819 constraints; `tests/python/test_babyjub_lang.py`).

    python examples/snp_mean/run.py --n 100        # generate, prove, verify, decrypt the mean
    zeenot simulate examples/snp_mean/app.py:aggregate --inputs examples/snp_mean/inputs.json
"""

from zeenot import MaxSize, Public, u32, zk
from zeenot.babyjub import Ciphertext

MAX_RECORDS = 100  # the circuit has room for this many ciphertexts


@zk
def aggregate(cts: Public[MaxSize[list[Ciphertext], MAX_RECORDS]]) -> tuple[Ciphertext, u32]:
    """The homomorphic sum of the published ciphertexts, and their number."""
    return sum(cts), u32(len(cts))
