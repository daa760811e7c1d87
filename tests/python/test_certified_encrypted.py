"""Certified data, path (b) (CRISP's shape): ciphertexts of the signed values with a proof that
they encrypt exactly the signed block, the service's homomorphic weighted sum with private
weights, the user's proved decryption (zeenot.certified.encrypted, examples/genome/encrypted.py).
"""

from __future__ import annotations

import copy

import pytest

from zeenot import api
from zeenot.babyjub import Ciphertext, Point, decrypt, encrypt, keygen, random_scalar
from zeenot.certified.encrypted import check_ciphertexts, ciphertexts_digest, weighted_sum
from zeenot.errors import Failure, ProofRejected
from zeenot.ir import to_json_value
from zeenot.simulate import simulate

from .conftest import EXAMPLES, ROOT

ENCRYPTED = f"{EXAMPLES / 'genome' / 'encrypted.py'}:encrypted_32"
DECRYPTS = f"{ROOT / 'python' / 'zeenot' / 'certified' / 'encrypted.py'}:decrypts"


def modules():
    from zeenot.lang import load_module

    return (
        load_module(str(EXAMPLES / "genome" / "data.py")),
        load_module(str(EXAMPLES / "genome" / "encrypted.py")),
    )


def cts_of(doc: dict) -> list[Ciphertext]:
    def pt(p: dict) -> Point:
        return Point(int(p["x"]), int(p["y"]))

    return [Ciphertext(pt(c["c1"]), pt(c["c2"])) for c in doc["cts"]]


@pytest.fixture(scope="module")
def doc():
    data, enc = modules()
    return enc.user_encrypts(data.inputs(32, seed=4))


def test_the_encrypted_block_is_the_signed_one(doc):
    got = simulate(api.load_target(ENCRYPTED), doc)
    assert int(got) == int(ciphertexts_digest(cts_of(doc), 32))
    check_ciphertexts(cts_of(doc), int(got))


def test_a_ciphertext_of_another_value_has_no_proof(doc):
    bad = copy.deepcopy(doc)
    user = Point(int(doc["user"]["x"]), int(doc["user"]["y"]))
    r = random_scalar()
    bad["cts"][7] = to_json_value(encrypt(doc["snps"][7] + 1, user, r))
    bad["rs"][7] = str(r)
    with pytest.raises(Failure, match="does not hold its SNP"):
        simulate(api.load_target(ENCRYPTED), bad)


def test_ciphertexts_of_another_block_have_no_proof(doc):
    data, enc = modules()
    other = enc.user_encrypts(data.inputs(32, seed=5))
    mixed = dict(doc, rs=other["rs"], cts=other["cts"])  # her other SNPs, not this block's
    with pytest.raises(Failure):
        simulate(api.load_target(ENCRYPTED), mixed)


def test_the_service_checks_it_holds_the_proved_ciphertexts(doc):
    cts = cts_of(doc)
    digest = int(ciphertexts_digest(cts, 32))
    swapped = [cts[1], cts[0], *cts[2:]]
    with pytest.raises(ValueError, match="not those the proof covers"):
        check_ciphertexts(swapped, digest)


def test_the_weighted_sum_decrypts_to_the_score():
    sk, pk = keygen()
    values = [0, 1, 2, 2, 1, 0, 1]
    weights = [3, 0, 470, 49, 1, 2**31, 7]
    cts = [encrypt(v, pk, random_scalar()) for v in values]
    s = weighted_sum(cts, weights, pk)
    assert decrypt(sk, s, bits=40) == sum(w * v for w, v in zip(weights, values, strict=True))
    assert s != sum(w * c for w, c in zip(weights, cts, strict=True))  # re-randomised
    with pytest.raises(ValueError):
        weighted_sum(cts, [1] * 6, pk)
    with pytest.raises(ValueError):
        weighted_sum(cts, [-1] + [1] * 6, pk)


def test_a_wrong_decryption_has_no_proof():
    sk, pk = keygen()
    ct = encrypt(1234, pk, random_scalar())
    fn = api.load_target(DECRYPTS)
    good = {"pk": to_json_value(pk), "ct": to_json_value(ct), "m": 1234, "sk": str(sk)}
    assert simulate(fn, good) is True
    with pytest.raises(Failure, match="not the decryption"):
        simulate(fn, dict(good, m=1235))
    other_sk, _ = keygen()
    with pytest.raises(Failure, match="not the key's owner"):
        simulate(fn, dict(good, sk=str(other_sk)))


@pytest.mark.slow
def test_the_exchange_end_to_end(doc):
    data, _ = modules()
    enc = api.compile(ENCRYPTED)
    keys = api.setup(enc, seed=1)
    proof = api.prove(enc, keys, doc)
    api.verify(enc, keys.verifying_key, proof)
    cts = cts_of(doc)
    check_ciphertexts(cts, int(proof.outputs))
    dec = api.compile(DECRYPTS)
    dkeys = api.setup(dec, seed=2)
    user = Point(int(doc["user"]["x"]), int(doc["user"]["y"]))
    for w in (w[:32] for w in data.weights()):
        s = weighted_sum(cts, w, user)
        m = decrypt(int(doc["user_sk"]), s, bits=40)
        assert m == sum(wi * g for wi, g in zip(w, doc["snps"], strict=True))
        inputs = {"pk": doc["user"], "ct": to_json_value(s), "m": m, "sk": doc["user_sk"]}
        p = api.prove(dec, dkeys, inputs)
        api.verify(dec, dkeys.verifying_key, p)
        lie = copy.deepcopy(p)
        lie.public_inputs["m"] = m + 1  # a wrong decryption claimed with a real proof
        with pytest.raises(ProofRejected):
            api.verify(dec, dkeys.verifying_key, lie)
