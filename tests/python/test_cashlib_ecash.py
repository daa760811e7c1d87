"""Compact e-cash (zeenot.cashlib.ecash): withdrawal bound to the user's key, spends, deposits,
double-spender identification, and forged, altered and replayed spends rejected."""

from __future__ import annotations

import pytest

from zeenot.babyjub import BASE8, random_scalar
from zeenot.cashlib.ecash import (
    Bank,
    Spend,
    Wallet,
    WalletEmpty,
    finish_withdrawal,
    identify,
    merchant_info,
    spend_r,
    verify_spend,
    withdrawal_request,
)
from zeenot.cashlib.kvac import CredentialError, IssuerKey
from zeenot.sigma import WitnessError

LEVEL = 2


def _wallet(bank: Bank, name: str, level: int = LEVEL) -> tuple[Wallet, int]:
    u = random_scalar()
    bank.open_account(name, u * BASE8)
    req, state = withdrawal_request(bank.params, u, context=name.encode())
    resp = bank.withdraw(name, u * BASE8, req.to_bytes(), context=name.encode())
    return finish_withdrawal(state, resp.to_bytes(), level), u


@pytest.fixture(scope="module")
def bank() -> Bank:
    return Bank(level=LEVEL)


def test_withdraw_spend_every_coin_and_deposit(bank):
    wallet, _ = _wallet(bank, "alice")
    serials = set()
    for _ in range(1 << LEVEL):
        info = merchant_info()
        sp = wallet.spend(b"shop", info)
        serials.add(sp.serial)
        assert bank.deposit(Spend.from_bytes(sp.to_bytes()).to_bytes(), b"shop", info).accepted
    assert len(serials) == 1 << LEVEL
    with pytest.raises(WalletEmpty):
        wallet.spend(b"shop", merchant_info())
    with pytest.raises(WitnessError):  # coin 2^L does not exist
        wallet.spend(b"shop", merchant_info(), index=1 << LEVEL)


def test_the_last_coin_of_a_large_wallet(bank):
    big = Bank(level=20)
    wallet, _ = _wallet(big, "carol", level=20)
    info = merchant_info()
    sp = wallet.spend(b"shop", info, index=(1 << 20) - 1)
    assert big.deposit(sp, b"shop", info).accepted
    assert not Bank(level=20, key=IssuerKey.generate(3)).deposit(sp, b"shop", info).accepted


def test_double_spending_is_detected_and_the_spender_identified(bank):
    wallet, u = _wallet(bank, "mallory")
    _, _ = _wallet(bank, "honest")
    i1, i2 = merchant_info(), merchant_info()
    first = wallet.spend(b"shop", i1)
    again = wallet.spend(b"cafe", i2, index=0)  # the same coin, elsewhere
    assert first.serial == again.serial and first.tag != again.tag
    assert bank.deposit(first, b"shop", i1).accepted
    result = bank.deposit(again, b"cafe", i2)
    assert not result.accepted
    assert result.reason == "double-spend"
    assert result.double_spender == "mallory"
    pk = identify((spend_r(b"shop", i1), first.tag), (spend_r(b"cafe", i2), again.tag))
    assert pk == u * BASE8
    # the same spend deposited again is a replay: rejected, nobody accused
    replay = bank.deposit(first, b"shop", i1)
    assert (replay.accepted, replay.reason, replay.double_spender) == (False, "replay", None)
    with pytest.raises(ValueError):
        identify((1, first.tag), (1, first.tag))


def test_forged_and_altered_spends_are_rejected(bank):
    wallet, _ = _wallet(bank, "dave")
    info = merchant_info()
    good = wallet.spend(b"shop", info)
    wire = good.to_bytes()
    key = bank._key
    cases: dict[str, tuple[bytes | Spend, bytes, bytes]] = {}
    for pos in sorted({*range(0, len(wire), max(1, len(wire) // 40)), len(wire) - 1}):
        flipped = bytearray(wire)
        flipped[pos] ^= 1 << (pos % 8)
        cases[f"bit flip at {pos}"] = (bytes(flipped), b"shop", info)
    cases["truncated"] = (wire[:-1], b"shop", info)
    cases["another merchant"] = (wire, b"cafe", info)
    cases["another info"] = (wire, b"shop", merchant_info())
    p = random_scalar() * BASE8
    for field in ("serial", "tag", "c_omega", "index_low", "index_high"):
        fields = {**good.__dict__, field: p}
        cases[f"{field} replaced"] = (Spend(**fields), b"shop", info)
    other_bank = Bank(level=LEVEL)
    foreign, _ = _wallet(other_bank, "eve")
    cases["another bank's coin"] = (foreign.spend(b"shop", info), b"shop", info)
    accepted = [name for name, (sp, m, i) in cases.items() if verify_spend(key, sp, m, i, LEVEL)]
    assert accepted == []
    assert len(cases) > 45
    assert not verify_spend(key, wire, b"shop", info, LEVEL + 1)  # another wallet size
    assert verify_spend(key, wire, b"shop", info, LEVEL) is not None


def test_the_bank_randomises_the_wallet_seeds(bank):
    u = random_scalar()
    bank.open_account("grace", u * BASE8)
    req, state = withdrawal_request(bank.params, u)
    resp = bank.withdraw("grace", u * BASE8, req)
    assert [i for i, _ in resp.offsets] == [1, 2]
    wallet = finish_withdrawal(state, resp, LEVEL)
    asked = state.attributes
    got = wallet.credential.attributes
    assert got[0] == asked[0] == u  # the key is not offset
    assert got[1] != asked[1] and got[2] != asked[2]
    info = merchant_info()
    assert bank.deposit(wallet.spend(b"shop", info), b"shop", info).accepted


def test_withdrawal_needs_the_accounts_key(bank):
    u = random_scalar()
    bank.open_account("frank", u * BASE8)
    thief = random_scalar()
    req, _ = withdrawal_request(bank.params, thief)
    with pytest.raises(CredentialError):  # the hidden u is not frank's key
        bank.withdraw("frank", u * BASE8, req)
    with pytest.raises(CredentialError):
        bank.withdraw("nobody", thief * BASE8, req)


def _python_statement_json(key: IssuerKey, sp: Spend, level: int, r: int, x_key) -> str:
    """The spend's statement as the proof language writes it (`_spend_parts`)."""
    from zeenot.cashlib import kvac
    from zeenot.cashlib.ecash import _spend_parts

    show = kvac.check_presentation(key, sp.presentation, kvac.Policy(), b"")
    assert show is not None
    return _spend_parts(show, sp, level, r, x_key)[0].to_json()


@pytest.mark.parametrize("endorsed", [False, True])
def test_the_verifiers_wire_statement_is_the_proof_languages(bank, endorsed):
    """`_spend_wire` writes the deposit's statement without the language's objects: byte for
    byte the document `_spend_parts` compiles to, also where points coincide (the compiler
    merges elements with one encoding) — a spend whose points an attacker chose."""
    from zeenot.cashlib.ecash import _spend_wire, make_spend, spend_r

    wallet, _ = _wallet(bank, f"wire{endorsed}")
    x = random_scalar() if endorsed else None
    x_key = None if x is None else x * BASE8
    info = merchant_info()
    sp = make_spend(bank.params, wallet.credential, LEVEL, 3, b"shop", info, endorsement=x)
    r = spend_r(b"shop", info, x_key)
    key = bank._key
    pres = sp.presentation
    c0 = pres.commitments[0][1]
    variants = {
        "honest": sp,
        "S = Cω = Pi.lo": Spend(
            sp.serial, sp.tag, sp.serial, sp.serial, sp.index_high, sp.range_proof, pres
        ),
        "T = C0 = U": Spend(
            sp.serial,
            c0,
            sp.c_omega,
            sp.index_low,
            sp.index_high,
            sp.range_proof,
            type(pres)(c0, pres.cu, pres.commitments, pres.revealed, pres.ranges, pres.proof),
        ),
        "S = G": Spend(
            BASE8, sp.tag, sp.c_omega, sp.index_low, sp.index_high, sp.range_proof, pres
        ),
    }
    for name, v in variants.items():
        wire, size = _spend_wire(key, v, LEVEL, r, x_key)
        assert wire == _python_statement_json(key, v, LEVEL, r, x_key), name
        assert size == len(sp.presentation.proof)
    assert verify_spend(key, sp.to_bytes(), b"shop", info, LEVEL, endorsement_key=x_key)


def test_a_spends_points_decoded_once_give_what_the_reference_computes(bank):
    """`_open_spends` (every point of a spend decoded in one native call, `V` and `R·G` from
    them) agrees with the one-point-at-a-time parser and `kvac.verifier_v`; a point outside
    the prime-order subgroup makes the spend malformed, as the reference parser says."""
    from zeenot.cashlib import kvac
    from zeenot.cashlib.ecash import _open_spends
    from zeenot.cashlib.group import P, Reader, unpack, unpack_many
    from zeenot.cashlib.kvac import Presentation

    assert bank._key.verify_key is not None, "the native module lacks KvacVerifyKey"
    wallet, _ = _wallet(bank, "open")
    info = merchant_info()
    sp = wallet.spend(b"shop", info)
    data = sp.to_bytes()
    (opened,) = _open_spends(bank._key, [(data, b"shop", info, None)], LEVEL)
    assert opened is not None
    parsed, computed = opened
    assert parsed == sp == Spend.from_bytes(data)
    top = ((1 << LEVEL) - 1) * BASE8
    assert computed == (
        kvac.verifier_v(bank._key, sp.presentation),
        spend_r(b"shop", info) * BASE8,
        (top - sp.index_high, BASE8 - sp.serial, BASE8 - sp.c_omega),
    )
    pres = sp.presentation.to_bytes()
    assert Presentation.from_bytes(pres) == sp.presentation
    raw = Reader.scan(data, "spend", Spend.read)[1]
    assert unpack_many(raw) == [unpack(b) for b in raw]
    order_two = (P - 1).to_bytes(32, "little")  # (0, −1): on the curve, of order 2
    for at in (0, 32 * 4):  # the serial; the index's upper commitment
        bad = data[:at] + order_two + data[at + 32 :]
        with pytest.raises(CredentialError):
            Spend.from_bytes(bad)
        assert _open_spends(bank._key, [(bad, b"shop", info, None)], LEVEL) == [None]
        assert verify_spend(bank._key, bad, b"shop", info, LEVEL) is None
    with pytest.raises(ValueError):
        unpack_many([order_two])


def test_the_sigma_batch_over_points_decoded_once(bank):
    """`kvac_sigma_batch_verify` (the spends' points from `open_many`, not decoded again)
    agrees with the engine's batch on honest spends and refuses tampered proofs, another
    context, a point outside the subgroup in the statement, and malformed statements."""
    import json

    from zeenot import _native
    from zeenot.cashlib.ecash import _open_spends, _prepare_spend
    from zeenot.cashlib.group import P

    wallet, _ = _wallet(bank, "known")
    infos = [merchant_info() for _ in range(3)]
    items = [(wallet.spend(b"shop", i).to_bytes(), b"shop", i, None) for i in infos]
    known: list = []
    wires = []
    opens = _open_spends(bank._key, items, LEVEL, known)
    for (_, m, i, x), opened in zip(items, opens, strict=True):
        assert opened is not None
        prepared = _prepare_spend(bank._key, opened[0], m, i, LEVEL, x, opened[1])
        assert prepared is not None
        sp, (js, _), ctx = prepared
        wires.append((js, sp.presentation.proof, ctx))
    (checked,) = known
    assert _native.kvac_sigma_batch_verify(checked, wires)
    assert _native.sigma_batch_verify(wires)
    js, proof, ctx = wires[1]
    doc = json.loads(js)
    doc["elements"][0]["point"] = (P - 1).to_bytes(32, "little").hex()  # (0, −1), order 2
    bad_cases = {
        "a commitment's bit": (js, proof[:40] + bytes([proof[40] ^ 4]) + proof[41:], ctx),
        "a response's bit": (js, proof[:-40] + bytes([proof[-40] ^ 1]) + proof[-39:], ctx),
        "another context": (js, proof, ctx + b"!"),
        "a low-order element": (json.dumps(doc, separators=(",", ":")), proof, ctx),
        "not JSON": ("{", proof, ctx),
        "truncated proof": (js, proof[:-32], ctx),
    }
    for name, item in bad_cases.items():
        assert not _native.kvac_sigma_batch_verify(checked, [wires[0], item, wires[2]]), name


def test_the_range_batch_over_commitments_decoded_once(bank):
    """`kvac_range_verify_batch` (the index commitments from `open_many`, not decoded again)
    agrees with `bp_range_verify_batch` on honest spends and refuses, item by item, a tampered
    proof, another context, commitments swapped for other checked points, a commitment outside
    the subgroup (not among the checked points: decoded, and refused) and malformed items; a
    difference asked of `open_many` from a public point outside the subgroup fails its spend."""
    from zeenot import _native
    from zeenot.cashlib import group
    from zeenot.cashlib.ecash import _bits, _open_spends, _prepare_spend
    from zeenot.cashlib.group import P

    wallet, _ = _wallet(bank, "ranges")
    infos = [merchant_info() for _ in range(3)]
    items = [(wallet.spend(b"shop", i).to_bytes(), b"shop", i, None) for i in infos]
    known: list = []
    ranges = []
    for (_, m, i, x), opened in zip(
        items, _open_spends(bank._key, items, LEVEL, known), strict=True
    ):
        assert opened is not None
        sp, _, ctx = _prepare_spend(bank._key, opened[0], m, i, LEVEL, x, opened[1])
        packed = [group.pack(sp.index_low), group.pack(sp.index_high)]
        ranges.append((packed, sp.range_proof, _bits(LEVEL), ctx))
    (checked,) = known
    assert _native.kvac_range_verify_batch(checked, ranges) == [True] * 3
    assert _native.bp_range_verify_batch(ranges) == [True] * 3
    cs, proof, bits, ctx = ranges[1]
    order_two = (P - 1).to_bytes(32, "little")  # (0, −1): on the curve, of order 2
    bad_cases = {
        "a proof's bit": (cs, proof[:40] + bytes([proof[40] ^ 4]) + proof[41:], bits, ctx),
        "another context": (cs, proof, bits, ctx + b"!"),
        "swapped commitments": ([cs[1], cs[0]], proof, bits, ctx),
        "another spend's commitment": ([ranges[0][0][0], cs[1]], proof, bits, ctx),
        "a low-order commitment": ([order_two, cs[1]], proof, bits, ctx),
        "a short commitment": ([cs[0][:31], cs[1]], proof, bits, ctx),
        "truncated proof": (cs, proof[:-32], bits, ctx),
        "too many bits": (cs, proof, 1 << 12, ctx),
    }
    for name, item in bad_cases.items():
        got = _native.kvac_range_verify_batch(checked, [ranges[0], item, ranges[2]])
        assert got == [True, False, True], name
    assert _native.kvac_range_verify_batch(checked, []) == []
    vk = bank._key.verify_key
    g = group.pack(BASE8)
    raw = group.Reader.scan(items[0][0], "spend", Spend.read)[1]
    ask = (raw, 5, 6, [(0, 7), (1, 8), (2, 9)], [], [], [(g, 0)])
    (good,), _ = vk.open_many([ask])
    assert good is not None and len(good[3]) == 1
    (bad,), _ = vk.open_many([(*ask[:6], [(order_two, 0)])])
    assert bad is None
    (bad,), _ = vk.open_many([(*ask[:6], [(g, 99)])])  # no point 99
    assert bad is None
