"""The collective authority's cryptography (zeenot.cothority.crypto): DKG, threshold key
switching, deterministic tags, aggregation, decryption and noise lists, with forged messages
and malformed bytes rejected."""

from __future__ import annotations

import math
import random

import pytest

from zeenot.cothority import crypto as cc
from zeenot.errors import MalformedInput, UsageError

SESSION = b"test-session"


def _dkg(t: int, m: int, seed: int = 1) -> tuple[list[cc.Dealing], list[cc.KeyShare]]:
    dealt = [cc.deal(i, t, m, SESSION, seed=seed * 100 + i) for i in range(1, m + 1)]
    dealings = [d for d, _ in dealt]
    keys = [cc.combine(dealings, j, [s[j - 1] for _, s in dealt]) for j in range(1, m + 1)]
    return dealings, keys


@pytest.fixture(scope="module")
def dkg() -> tuple[list[cc.Dealing], list[cc.KeyShare]]:
    return _dkg(2, 3)


def _switch(keys, answering, cts, qpk, context=b"q1"):
    batches = []
    for j in answering:
        lam = cc.lagrange_at_zero(answering, j)
        b = cc.key_switch(keys[j - 1], lam, cts, qpk, context)
        assert cc.verify_key_switch(b, keys[0].verification_key(j), lam, cts, qpk, context)
        batches.append(b)
    return batches


def test_dkg_gives_one_key_and_any_t_servers_decrypt(dkg):
    dealings, keys = dkg
    assert all(cc.verify_dealing(d) for d in dealings)
    pub = cc.combine_public(dealings)
    assert all(k.public() == pub for k in keys)
    assert "redacted" in repr(keys[0]) and str(keys[0].secret) not in repr(keys[0])
    qsk, qpk = cc.keygen(seed=5)
    values = [0, 1, 17, 65535, -3]
    cts = cc.encrypt(pub.collective_key, values, seed=9)
    for answering in ([1, 2], [1, 3], [3, 2]):
        out = cc.combine_switches(cts, _switch(keys, answering, cts, qpk))
        assert cc.decrypt_many(qsk, out, 17, signed=True) == values
    # one server alone cannot switch: the result does not decrypt to the values
    lone = cc.key_switch(keys[0], cc.lagrange_at_zero([1], 1), cts, qpk, b"q1")
    with pytest.raises(MalformedInput):
        cc.decrypt_many(qsk, cc.combine_switches(cts, [lone]), 17, signed=True)


def test_dkg_rejects_forged_dealings_and_shares():
    d, shares = cc.deal(1, 2, 3, SESSION, seed=3)
    assert cc.verify_share(d, 2, shares[1])
    assert not cc.verify_share(d, 2, shares[1] + 1)
    assert not cc.verify_share(d, 3, shares[1])
    other, _ = cc.deal(2, 2, 3, SESSION, seed=4)
    rogue = cc.Dealing(1, 2, 3, SESSION, other.commitments[:32] + d.commitments[32:], d.pok)
    assert not cc.verify_dealing(rogue)
    assert not cc.verify_dealing(cc.Dealing(2, 2, 3, SESSION, d.commitments, d.pok))
    assert not cc.verify_dealing(cc.Dealing(1, 2, 3, b"replayed", d.commitments, d.pok))
    complaint = cc.Complaint(dealer=1, complainer=3, session=SESSION)
    assert cc.resolve_complaint(d, complaint, shares[2])
    assert not cc.resolve_complaint(d, complaint, shares[0])
    with pytest.raises(MalformedInput):
        cc.resolve_complaint(other, complaint, shares[2])
    with pytest.raises(MalformedInput):  # a share that does not match its dealing
        cc.combine([d, other], 1, [shares[0], shares[0]])
    with pytest.raises(MalformedInput):
        cc.deal(4, 2, 3, SESSION)
    with pytest.raises(MalformedInput):
        cc.deal(1, 4, 3, SESSION)
    with pytest.raises(MalformedInput):
        cc.lagrange_at_zero([1, 1], 1)


def test_dkg_disqualified_dealer_is_left_out():
    """A dealer removed from the qualified set: the others still give a working key."""
    dealt = [cc.deal(i, 2, 3, SESSION, seed=40 + i) for i in range(1, 4)]
    q = [0, 2]  # dealer 2 disqualified
    keys = [
        cc.combine([dealt[k][0] for k in q], j, [dealt[k][1][j - 1] for k in q]) for j in (1, 2, 3)
    ]
    qsk, qpk = cc.keygen(seed=6)
    cts = cc.encrypt(keys[0].collective_key, [5, 6], seed=1)
    out = cc.combine_switches(cts, _switch(keys, [2, 3], cts, qpk))
    assert cc.decrypt_many(qsk, out, 8) == [5, 6]


def test_key_switch_rejects_forgeries(dkg):
    _, keys = dkg
    qsk, qpk = cc.keygen(seed=7)
    cts = cc.encrypt(keys[0].collective_key, [1, 2, 3, 4], seed=2)
    lam = cc.lagrange_at_zero([1, 2], 1)
    xj = keys[0].verification_key(1)
    good = cc.key_switch(keys[0], lam, cts, qpk, b"q")
    assert cc.verify_key_switch(good, xj, lam, cts, qpk, b"q")
    bumped = bytearray(good.b)
    b2 = cc.split_ciphertexts(cts)[1][:32]  # some other valid point
    bumped[32:64] = b2
    forged = cc.SwitchBatch(1, good.a, bytes(bumped), good.proof)
    assert not cc.verify_key_switch(forged, xj, lam, cts, qpk, b"q")
    assert not cc.verify_key_switch(good, xj, lam, cts, qpk, b"another query")  # replay
    assert not cc.verify_key_switch(good, keys[1].verification_key(), lam, cts, qpk, b"q")
    assert not cc.verify_key_switch(good, xj, cc.lagrange_at_zero([1, 3], 1), cts, qpk, b"q")
    _, qpk2 = cc.keygen(seed=8)
    assert not cc.verify_key_switch(good, xj, lam, cts, qpk2, b"q")
    # a batch made with the wrong share
    wrong = cc.KeyShare(1, keys[1].secret, 2, 3, keys[0].collective_key, keys[0].verification_keys)
    assert not cc.verify_key_switch(
        cc.key_switch(wrong, lam, cts, qpk, b"q"), xj, lam, cts, qpk, b"q"
    )
    # wire round trip
    assert cc.SwitchBatch.from_json(good.to_json()) == good
    assert cc.verify_key_switch(cc.SwitchBatch.from_json(good.to_json()), xj, lam, cts, qpk, b"q")


def test_malformed_bytes_raise_malformed_input(dkg):
    _, keys = dkg
    _, qpk = cc.keygen(seed=7)
    cts = cc.encrypt(keys[0].collective_key, [1, 2], seed=2)
    lam = cc.lagrange_at_zero([1, 2], 1)
    good = cc.key_switch(keys[0], lam, cts, qpk, b"q")
    off_curve = (2).to_bytes(32, "little")  # y = 2 has no point on the curve
    not_canonical = b"\xff" * 32
    low_order = (0).to_bytes(32, "little")  # (x, 0): order 4, not in the subgroup
    for bad in (off_curve, not_canonical, low_order):
        with pytest.raises(MalformedInput):
            cc.aggregate(bad + cts[32:64])
        with pytest.raises(MalformedInput):
            cc.verify_key_switch(
                cc.SwitchBatch(1, bad + good.a[32:], good.b, good.proof),
                keys[0].verification_key(),
                lam,
                cts,
                qpk,
                b"q",
            )
        with pytest.raises(MalformedInput):
            cc.key_switch(keys[0], lam, cts, bad, b"q")
    with pytest.raises(MalformedInput):
        cc.aggregate(cts[:63])
    with pytest.raises(MalformedInput):
        cc.SwitchBatch(1, good.a, good.b[:32], good.proof)
    with pytest.raises(MalformedInput):  # a non-canonical proof scalar
        cc.verify_key_switch(
            cc.SwitchBatch(1, good.a, good.b, b"\xff" * 96),
            keys[0].verification_key(),
            lam,
            cts,
            qpk,
            b"q",
        )
    with pytest.raises(MalformedInput):
        cc.key_switch(keys[0], lam, b"", qpk, b"q")
    with pytest.raises(MalformedInput):
        cc.lagrange_at_zero([1, 2], 1 << 40)
    with pytest.raises(MalformedInput):
        cc.key_switch(keys[0], -1, cts, qpk, b"q")
    with pytest.raises(UsageError):
        cc.aggregate("not bytes")  # type: ignore[arg-type]
    with pytest.raises(MalformedInput):
        cc.SwitchBatch.from_json({"index": 1, "a": "zz", "b": "", "proof": ""})


def _tag_chain(keys, answering, cts, context=b"q"):
    secrets = {j: cc.tag_secret() for j in answering}
    cur = cc._batch(cts)
    for j in answering:
        lam = cc.lagrange_at_zero(answering, j)
        step = cc.tag_step(secrets[j], keys[j - 1], lam, cur, context)
        assert cc.verify_tag_step(
            step, secrets[j].commitment, keys[0].verification_key(j), lam, cur, context
        )
        cur = step.outputs
    return cc.tags(cur)


def test_tags_group_equal_values_and_find_public_values(dkg):
    _, keys = dkg
    values = [4, 7, 4, 0, 7, 123]
    cts = (
        cc.encrypt(keys[0].collective_key, values, seed=11)
        + cc.tag_of_value(7)
        + cc.tag_of_value(5)
    )
    for answering in ([1, 2], [3, 1]):
        t = _tag_chain(keys, answering, cts)
        assert t[0] == t[2] and t[1] == t[4] and t[1] == t[6]
        assert len({t[0], t[1], t[3], t[5], t[7]}) == 5
    assert _tag_chain(keys, [1, 2], cts)[0] != _tag_chain(keys, [1, 2], cts)[0], "fresh per query"


def test_tag_step_rejects_wrong_steps(dkg):
    _, keys = dkg
    cts = cc.encrypt(keys[0].collective_key, [1, 2, 3], seed=12)
    lam = cc.lagrange_at_zero([1, 2], 1)
    s = cc.tag_secret()
    step = cc.tag_step(s, keys[0], lam, cts, b"q")
    xj = keys[0].verification_key()
    assert cc.verify_tag_step(step, s.commitment, xj, lam, cts, b"q")
    outs = cc.split_ciphertexts(step.outputs)
    swapped = cc.TagBatch(1, outs[1] + outs[0] + outs[2], step.proof)
    assert not cc.verify_tag_step(swapped, s.commitment, xj, lam, cts, b"q")
    skipped = cc.TagBatch(1, cts, step.proof)
    assert not cc.verify_tag_step(skipped, s.commitment, xj, lam, cts, b"q")
    assert not cc.verify_tag_step(step, cc.tag_secret().commitment, xj, lam, cts, b"q")
    assert not cc.verify_tag_step(step, s.commitment, xj, lam, cts, b"replay")
    other = cc.tag_step(cc.tag_secret(), keys[0], lam, cts, b"q")  # not the committed secret
    assert not cc.verify_tag_step(other, s.commitment, xj, lam, cts, b"q")
    assert "redacted" in repr(s)


def test_aggregate_and_decrypt(dkg):
    sk, pk = cc.keygen(seed=3)
    values = [random.Random(1).randrange(1000) for _ in range(50)]
    cts = cc.encrypt(pk, values, seed=4)
    assert cc.decrypt_bounded(sk, cc.aggregate(cts), 20) == sum(values)
    assert cc.decrypt_bounded(sk, cc.aggregate(cc.split_ciphertexts(cts)), 20) == sum(values)
    assert (
        cc.decrypt_bounded(sk, cc.aggregate(cts + cc.encrypt_trivial([-5])), 20) == sum(values) - 5
    )
    assert cc.decrypt_bounded(sk, cc.encrypt(pk, [-7]), 8, signed=True) == -7
    with pytest.raises(MalformedInput):
        cc.decrypt_bounded(sk, cc.encrypt(pk, [300]), 8)
    ct = cc.split_ciphertexts(cts)[0]
    assert cc.from_babyjub(cc.to_babyjub(ct)) == ct


# ---- noise -------------------------------------------------------------------------------


def _chi_square_p(
    list_values: list[int], epsilon: float, sensitivity: int, n: int, seed: int
) -> float:
    """p-value of a chi-square test that `n` uniform draws from the list follow the discrete
    Laplace pmf at (ε, Δ) (bins with expected count ≥ 5, the tails pooled)."""
    from scipy.stats import chisquare

    rng = random.Random(seed)
    draws = [rng.choice(list_values) for _ in range(n)]
    k_max = 0
    while n * cc.noise_pmf(k_max + 1, epsilon, sensitivity) >= 5:
        k_max += 1
    observed, expected = [], []
    for k in range(-k_max, k_max + 1):
        observed.append(sum(1 for d in draws if d == k))
        expected.append(n * cc.noise_pmf(k, epsilon, sensitivity))
    observed.append(sum(1 for d in draws if abs(d) > k_max))
    expected.append(n - sum(expected))
    return float(chisquare(observed, expected).pvalue)


@pytest.mark.parametrize("epsilon,sensitivity", [(1.0, 1), (0.5, 3)])
def test_noise_list_sampling_follows_discrete_laplace(epsilon, sensitivity):
    values = cc.noise_list(epsilon, sensitivity, 10_000)
    assert len(values) == 10_000 and values == sorted(values)
    assert values == cc.noise_list(epsilon, sensitivity, 10_000), "deterministic"
    assert sum(values) == 0
    assert _chi_square_p(values, epsilon, sensitivity, 20_000, seed=1) > 0.001
    delta = cc.noise_delta(values, epsilon, sensitivity)
    assert 0 < delta < 2e-3


def test_noise_test_has_power():
    """The same test rejects a list made for another ε: it is not a test that cannot fail."""
    wrong = cc.noise_list(1.5, 1, 10_000)
    assert _chi_square_p(wrong, 1.0, 1, 20_000, seed=1) < 1e-6


def test_noise_encrypted_list_decrypts_to_the_list(dkg):
    values = cc.noise_list(1.0, 1, 200)
    sk, pk = cc.keygen(seed=2)
    cts = cc.encrypt_trivial(values)
    assert cc.decrypt_many(sk, cts, 16, signed=True) == values
    assert cc.split_ciphertexts(cts)[0][:32] == (1).to_bytes(32, "little"), "K = identity"
    assert math.isclose(sum(cc.noise_pmf(k, 1.0, 1) for k in range(-60, 61)), 1.0)
    with pytest.raises(MalformedInput):
        cc.noise_list(0.0, 1, 10)
    with pytest.raises(MalformedInput):
        cc.noise_list(1.0, 1, 0)
    assert cc.noise_list(1.0, 1, 2) == [0, 0]
    assert cc.noise_delta([0, 0], 1.0, 1) == 1.0, "a list too short to hold noise protects nothing"
