"""Path (b) with the encryptions on the sigma back end: the lab's signature in Groth16, each
SNP's encryption as two sigma equations over its committed value.

The same statement as `examples/genome/encrypted.py` (the ciphertexts encrypt, under the user's
key, exactly the SNPs the lab signed for her), split in two regions (docs/ir.md "Regions"), as
`examples/survey` does:

* `encrypted_sigma_N` (Groth16): the block's commitment, the lab's signature and the user's key,
  over the private SNPs; it sends the SNPs to the second region as a vector commitment;
* `encrypt_snps_N` (sigma): `encrypt(snp_k, user, r_k)` for every k over the committed SNPs,
  two group equations each (a Chaum–Pedersen-style proof) and an 8-bit range proof per SNP,
  instead of ~2,300 Groth16 constraints per encryption. The ciphertexts are its public output
  and the first region's, checked equal by the bundle's verifier; the randomness passes to it
  as it is (the first region never reads it); the user's key is public to both.

No ciphertext digest is needed: the bundle's public output is the ciphertexts themselves. The
service then computes its weighted sums and the user proves her decryptions as in
`encrypted.py`.

    PYTHONPATH=python python examples/genome/certified_encrypted.py --snps 256   # 32, 256, 2048
"""

from zeenot import Field, Private, Public, check, u8, u32, zk
from zeenot.babyjub import BASE8, Ciphertext, Point, Signature, eddsa_verify, encrypt
from zeenot.certified.commit import block_digest
from zeenot.types import MaxSize

BITS = 8


def signed_by_lab(source, source_id, user, period, user_sk, snps, signature, n: int) -> None:  # noqa: ANN001
    """The checks of the Groth16 region: her key, the lab's signature on the block."""
    check(user_sk * BASE8 == user, "not the user's key")
    digest = block_digest(source_id, user, period, lambda k: snps[k], n, BITS)
    check(eddsa_verify(source, digest, signature), "not signed by the lab")


@zk
def encrypt_snps_32(
    snps: Private[tuple[(u8,) * 32]], rs: Private[tuple[(Field,) * 32]], user: Public[Point]
) -> MaxSize[list[Ciphertext], 32]:
    """Each SNP encrypted under the user's key with its own randomness."""
    return [encrypt(snps[k], user, rs[k]) for k in range(32)]


@zk
def encrypted_sigma_32(
    source: Public[Point],
    source_id: Public[u32],
    user: Public[Point],
    period: Public[u32],
    user_sk: Private[Field],
    snps: Private[tuple[(u8,) * 32]],
    signature: Private[Signature],
    rs: Private[tuple[(Field,) * 32]],
) -> MaxSize[list[Ciphertext], 32]:
    """The ciphertexts of the 32 SNPs the lab signed for this user."""
    signed_by_lab(source, source_id, user, period, user_sk, snps, signature, 32)
    return encrypt_snps_32(snps, rs, user)


@zk
def encrypt_snps_256(
    snps: Private[tuple[(u8,) * 256]], rs: Private[tuple[(Field,) * 256]], user: Public[Point]
) -> MaxSize[list[Ciphertext], 256]:
    """Each SNP encrypted under the user's key with its own randomness."""
    return [encrypt(snps[k], user, rs[k]) for k in range(256)]


@zk
def encrypted_sigma_256(
    source: Public[Point],
    source_id: Public[u32],
    user: Public[Point],
    period: Public[u32],
    user_sk: Private[Field],
    snps: Private[tuple[(u8,) * 256]],
    signature: Private[Signature],
    rs: Private[tuple[(Field,) * 256]],
) -> MaxSize[list[Ciphertext], 256]:
    """The ciphertexts of the 256 SNPs the lab signed for this user."""
    signed_by_lab(source, source_id, user, period, user_sk, snps, signature, 256)
    return encrypt_snps_256(snps, rs, user)


@zk
def encrypt_snps_2048(
    snps: Private[tuple[(u8,) * 2048]], rs: Private[tuple[(Field,) * 2048]], user: Public[Point]
) -> MaxSize[list[Ciphertext], 2048]:
    """Each SNP encrypted under the user's key with its own randomness."""
    return [encrypt(snps[k], user, rs[k]) for k in range(2048)]


@zk
def encrypted_sigma_2048(
    source: Public[Point],
    source_id: Public[u32],
    user: Public[Point],
    period: Public[u32],
    user_sk: Private[Field],
    snps: Private[tuple[(u8,) * 2048]],
    signature: Private[Signature],
    rs: Private[tuple[(Field,) * 2048]],
) -> MaxSize[list[Ciphertext], 2048]:
    """The ciphertexts of the 2,048 SNPs the lab signed for this user (CRISP's size)."""
    signed_by_lab(source, source_id, user, period, user_sk, snps, signature, 2048)
    return encrypt_snps_2048(snps, rs, user)


# --------------------------------------------------------------------------------------------
# The exchange, timed: the user's bundle, the service's weighted sums, her decryption proofs.


def user_inputs(snps: int, seed: int = 1) -> dict:
    """The inputs of `encrypted_sigma_N`: her signed block and fresh randomness per SNP."""
    from pathlib import Path

    from zeenot.babyjub import random_scalar
    from zeenot.lang import load_module

    data = load_module(str(Path(__file__).resolve().parent / "data.py"))
    return dict(data.inputs(snps, seed=seed), rs=[str(random_scalar()) for _ in range(snps)])


def ciphertexts(outputs: list) -> list[Ciphertext]:
    def pt(p: dict) -> Point:
        return Point(int(p["x"]), int(p["y"]))

    return [Ciphertext(pt(c["c1"]), pt(c["c2"])) for c in outputs]


def main() -> None:
    import argparse
    import json
    import os
    import sys
    import time
    from pathlib import Path

    from zeenot import api, bundle
    from zeenot.babyjub import decrypt
    from zeenot.certified.encrypted import decrypts, weighted_sum
    from zeenot.ir import to_json_value
    from zeenot.lang import load_module

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--snps", type=int, default=32, choices=(32, 256, 2048))
    n = ap.parse_args().snps
    here = Path(__file__).resolve().parent
    data = load_module(str(here / "data.py"))
    weights = [w[:n] for w in data.weights()]  # the service's, private in this path
    doc = user_inputs(n)
    load = os.getloadavg()[0]
    t = time.perf_counter()
    regions = api.compile(f"{here / 'certified_encrypted.py'}:encrypted_sigma_{n}")
    main_region, enc_region = f"encrypted_sigma_{n}", f"encrypt_snps_{n}"
    dec = api.compile(decrypts)
    keys = {main_region: api.setup(regions.circuits[main_region], seed=1)}
    dec_keys = api.setup(dec, seed=2)
    t_setup = time.perf_counter() - t
    t = time.perf_counter()
    proved = bundle.prove(regions, doc, {main_region: "groth16", enc_region: "sigma"}, keys)
    t_prove = time.perf_counter() - t
    sent = proved.to_json()
    t = time.perf_counter()
    received = bundle.Bundle.from_json(sent)  # the service
    bundle.verify(regions, {main_region: keys[main_region].verifying_key}, received)
    t_verify = time.perf_counter() - t
    t = time.perf_counter()
    cts = ciphertexts(received.outputs)
    user = Point(int(doc["user"]["x"]), int(doc["user"]["y"]))
    sums = [weighted_sum(cts, w, user) for w in weights]
    t_service = time.perf_counter() - t
    scores, t_dec = [], 0.0
    for s in sums:  # the user decrypts each score and proves it
        t = time.perf_counter()
        m = decrypt(int(doc["user_sk"]), s, bits=40)
        inputs = {"pk": doc["user"], "ct": to_json_value(s), "m": m, "sk": doc["user_sk"]}
        p = api.prove(dec, dec_keys, inputs)
        t_dec += time.perf_counter() - t
        api.verify(dec, dec_keys.verifying_key, p)  # the service, against its own ciphertext
        scores.append(m)
    want = [sum(wd[i] * g for i, g in enumerate(doc["snps"])) for wd in weights]
    stats = regions.circuits[main_region].stats
    print(
        json.dumps(
            {
                "snps": n,
                "groth16_constraints": stats["constraints"],
                "compile_and_setup_s": round(t_setup, 2),
                "prove_s": round(t_prove, 2),
                "verify_s": round(t_verify, 3),
                "bundle_bytes": len(sent),
                "service_s": round(t_service, 2),
                "decrypt_and_prove_s": round(t_dec, 2),
                "scores_equal_reference": scores == want,
                "load_1m": [round(load, 2), round(os.getloadavg()[0], 2)],
            }
        )
    )
    if scores != want:
        sys.exit("scores differ from the reference")


if __name__ == "__main__":
    main()
