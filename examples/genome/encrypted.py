"""Disease susceptibility with private weights: CRISP's path (b) on a certified genome.

The user encrypts each of her lab-signed SNPs under her own exp-ElGamal key and proves that the
ciphertexts encrypt exactly the block the lab signed for her (`encrypted_32`); the service
checks the proof against the ciphertexts it received (their Poseidon digest is the proof's one
output), computes each disease's score homomorphically with weights it keeps private
(`zeenot.certified.encrypted.weighted_sum`, re-randomised), and the user decrypts the score and
proves the decryption (`zeenot.certified.encrypted.decrypts`). The service learns the scores,
the user learns the scores and not the weights; the ciphertexts show neither the SNPs.

Each value costs one `encrypt` in the circuit (~2,300 constraints), so the block here is 32
SNPs; see docs/certified.md for the sigma back end's cheaper encryptions (not wired yet).

    PYTHONPATH=python python examples/genome/encrypted.py     # the whole exchange, timed
"""

from zeenot import Field, MaxSize, Private, Public, check, u8, u32, zk
from zeenot.babyjub import BASE8, Ciphertext, Point, Signature, eddsa_verify, encrypt
from zeenot.certified.commit import block_digest
from zeenot.certified.encrypted import ciphertexts_digest

SNPS = 32
BITS = 8


@zk
def encrypted_32(
    source: Public[Point],
    source_id: Public[u32],
    user: Public[Point],
    period: Public[u32],
    user_sk: Private[Field],
    snps: Private[MaxSize[list[u8], SNPS]],
    signature: Private[Signature],
    rs: Private[MaxSize[list[Field], SNPS]],
    cts: Private[MaxSize[list[Ciphertext], SNPS]],
) -> Field:
    """The digest of ciphertexts that encrypt, under the user's key, the SNPs the lab signed."""
    check(len(snps) == SNPS and len(rs) == SNPS and len(cts) == SNPS, "a block of 32 SNPs")
    check(user_sk * BASE8 == user, "not the user's key")
    digest = block_digest(source_id, user, period, lambda k: snps[k], SNPS, BITS)
    check(eddsa_verify(source, digest, signature), "not signed by the lab")
    for k in range(SNPS):
        check(encrypt(snps[k], user, rs[k]) == cts[k], "a ciphertext does not hold its SNP")
    return ciphertexts_digest(cts, SNPS)


# --------------------------------------------------------------------------------------------
# The exchange, in plain Python around the two proofs (what the runtime would carry).


def user_encrypts(doc: dict) -> dict:
    """The user's inputs of `encrypted_32`: her signed block (`data.inputs(32)`) and fresh
    encryptions of its SNPs under her key."""
    from zeenot.babyjub import Point as P
    from zeenot.certified.encrypted import encrypt_block
    from zeenot.ir import to_json_value

    user = P(Field(int(doc["user"]["x"])), Field(int(doc["user"]["y"])))
    cts, rs = encrypt_block(doc["snps"], user)
    return dict(doc, rs=[str(r) for r in rs], cts=[to_json_value(c) for c in cts])


def main() -> None:
    import sys
    import time
    from pathlib import Path

    from zeenot import api
    from zeenot.babyjub import Ciphertext as C
    from zeenot.babyjub import Point as P
    from zeenot.babyjub import decrypt
    from zeenot.certified.encrypted import check_ciphertexts, weighted_sum
    from zeenot.ir import to_json_value
    from zeenot.lang import load_module

    here = Path(__file__).resolve().parent
    data = load_module(str(here / "data.py"))
    weights = [w[:SNPS] for w in data.weights()]  # the service's, private in this path
    doc = user_encrypts(data.inputs(SNPS))
    t = time.perf_counter()
    enc = api.compile(f"{here / 'encrypted.py'}:encrypted_32")
    dec = api.compile(f"{here.parent.parent / 'python/zeenot/certified/encrypted.py'}:decrypts")
    enc_keys, dec_keys = api.setup(enc, seed=1), api.setup(dec, seed=2)
    print(f"compile + setup {time.perf_counter() - t:.1f} s", file=sys.stderr)
    t = time.perf_counter()
    proof = api.prove(enc, enc_keys, doc)  # the user
    t_prove = time.perf_counter() - t
    t = time.perf_counter()
    api.verify(enc, enc_keys.verifying_key, proof)  # the service
    cts = [
        C(P(*map(int, (c["c1"]["x"], c["c1"]["y"]))), P(*map(int, (c["c2"]["x"], c["c2"]["y"]))))
        for c in doc["cts"]
    ]
    check_ciphertexts(cts, int(proof.outputs))
    user = P(Field(int(doc["user"]["x"])), Field(int(doc["user"]["y"])))
    sums = [weighted_sum(cts, w, user) for w in weights]
    t_service = time.perf_counter() - t
    scores, t_dec = [], 0.0
    for s in sums:  # the user decrypts each score and proves it
        t = time.perf_counter()
        m = decrypt(int(doc["user_sk"]), s, bits=40)
        p = api.prove(
            dec, dec_keys, {"pk": doc["user"], "ct": to_json_value(s), "m": m, "sk": doc["user_sk"]}
        )
        t_dec += time.perf_counter() - t
        api.verify(dec, dec_keys.verifying_key, p)  # the service, against its own ciphertext
        if p.public_inputs["m"] != m or p.public_inputs["ct"] != to_json_value(s):
            raise SystemExit("the decryption proof is about something else")
        scores.append(m)
    want = [sum(wd[i] * g for i, g in enumerate(doc["snps"])) for wd in weights]
    print(
        {
            "scores": scores,
            "reference": want,
            "prove_s": round(t_prove, 2),
            "service_s": round(t_service, 2),
            "decrypt_and_prove_s": round(t_dec, 2),
        }
    )
    if scores != want:
        raise SystemExit("scores differ from the reference")


if __name__ == "__main__":
    main()
