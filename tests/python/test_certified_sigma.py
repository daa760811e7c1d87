"""Certified data, path (b) with the encryptions on the sigma back end (examples/genome/
certified_encrypted.py): the lab's signature in a Groth16 region, each SNP's encryption as sigma
equations over the committed SNPs. The bundle verifies and its ciphertexts hold the signed
SNPs; the service's weighted sums decrypt to the reference scores; a forged block has no proof;
a prover who encrypts other SNPs than those the signature covers, or shows other ciphertexts
than those the encryption region proved, is refused by the bundle's verifier."""

from __future__ import annotations

import pytest

from zeenot import _native, api, bundle
from zeenot.babyjub import Point, decrypt, encrypt
from zeenot.certified import Source
from zeenot.certified.encrypted import weighted_sum
from zeenot.errors import ProofRejected

from .conftest import EXAMPLES

TARGET = f"{EXAMPLES / 'genome' / 'certified_encrypted.py'}:encrypted_sigma_32"
MAIN, ENC = "encrypted_sigma_32", "encrypt_snps_32"
BACKENDS = {MAIN: "groth16", ENC: "sigma"}


def module(name: str):
    from zeenot.lang import load_module

    return load_module(str(EXAMPLES / "genome" / name))


@pytest.fixture(scope="module")
def compiled():
    regions = api.compile(TARGET)
    return regions, {MAIN: api.setup(regions.circuits[MAIN], seed=3)}


@pytest.fixture(scope="module")
def doc():
    return module("certified_encrypted.py").user_inputs(32, seed=6)


def vks(keys):
    return {n: k.verifying_key for n, k in keys.items()}


def received(b: bundle.Bundle) -> bundle.Bundle:
    return bundle.Bundle.from_json(b.to_json())


def test_the_regions_and_their_links(compiled):
    regions, _ = compiled
    assert {str(x) for x in regions.links} == {
        f"{MAIN}.{ENC}(snps) -> {ENC}.snps",  # the SNPs cross committed
        f"{MAIN}.rs => {ENC}.rs",  # the randomness, used by the encryptions only
        f"{MAIN}.user => {ENC}.user",  # her key, public to both
        f"{ENC}.return => {MAIN}.{ENC}()",  # the ciphertexts, shown
    }
    # the signature and commitment stay in Groth16, the encryptions leave it
    assert regions.circuits[MAIN].stats["constraints"] < 10_000


def test_the_ciphertexts_hold_the_signed_snps_and_the_scores_decrypt(compiled, doc):
    regions, keys = compiled
    b = received(bundle.prove(regions, doc, BACKENDS, keys, seed=5))
    bundle.verify(regions, vks(keys), b)
    enc = module("certified_encrypted.py")
    cts = enc.ciphertexts(b.outputs)
    sk = int(doc["user_sk"])
    assert [decrypt(sk, c, bits=8) for c in cts] == doc["snps"]
    user = Point(int(doc["user"]["x"]), int(doc["user"]["y"]))
    weights = [w[:32] for w in module("data.py").weights()]
    scores = [decrypt(sk, weighted_sum(cts, w, user), bits=40) for w in weights]
    assert scores == [sum(w[i] * g for i, g in enumerate(doc["snps"])) for w in weights]
    assert set(b.public_inputs) == {"source", "source_id", "user", "period"}


def test_a_block_the_lab_did_not_sign_has_no_proof(compiled, doc):
    regions, keys = compiled
    data = module("data.py")
    forger = Source(bytes(32), data.LAB_ID)
    forged_block = forger.sign(data.user_key(), doc["period"], doc["snps"], 8)
    forged = dict(doc, signature=data.circuit_inputs(forged_block, 0, "snps")["signature"])
    with pytest.raises(_native.UnsatisfiedError, match="not signed by the lab"):
        bundle.prove(regions, forged, BACKENDS, keys, seed=5)


@pytest.mark.parametrize("lie", ["snps", "ciphertext"])
def test_other_snps_or_other_ciphertexts_are_refused(compiled, doc, monkeypatch, lie):
    """The encryption region is given other SNPs than the signed region committed to, or the
    signed region shows other ciphertexts than those the encryption region proved: each proof
    holds alone, the bundle does not."""
    regions, keys = compiled
    honest = bundle._evaluate
    user = Point(int(doc["user"]["x"]), int(doc["user"]["y"]))

    def lying(regions, inputs):
        values = honest(regions, inputs)
        if lie == "snps":
            at = bundle._input_slices(regions.circuits[ENC].program)["snps"]
            leaves = values[ENC][at]
            leaves[0] = str((int(leaves[0]) + 1) % 3)  # another genotype for the first SNP
            values[ENC][at] = leaves
        else:
            at = bundle._input_slices(regions.main.program)[f"{ENC}()"]
            ct = encrypt(2, user, 5)  # a ciphertext of something else, first in the list
            first = [str(int(v)) for p in (ct.c1, ct.c2) for v in (p.x, p.y)]
            shown = values[regions.name][at]  # the list's length, then its items' leaves
            values[regions.name][at] = shown[:1] + first + shown[5:]
        return values

    monkeypatch.setattr(bundle, "_evaluate", lying)
    forged = received(bundle.prove(regions, doc, BACKENDS, keys, seed=5))
    for name, circuit in regions.circuits.items():
        vk = keys[name].verifying_key if name in keys else None
        api.verify(circuit, vk, forged.proofs[name])  # each proof alone is valid
    with pytest.raises(ProofRejected):
        bundle.verify(regions, vks(keys), forged)
