"""Endorsed e-cash (zeenot.cashlib.endorsed): an unendorsed coin is worthless without its
endorsement, only the right endorsement completes it, the seller refuses an escrow for another
coin or label, the arbiter's decryption endorses the coin, and two endorsed coins of one serial
identify the spender."""

from __future__ import annotations

import dataclasses

import pytest

from zeenot.babyjub import BASE8, keygen, random_scalar
from zeenot.cashlib import ecash, escrow
from zeenot.cashlib.bank import BankStore, build_app
from zeenot.cashlib.endorsed import (
    EndorsementError,
    UnendorsedCoin,
    endorse,
    endorse_from_decryption,
    escrow_endorsement,
    exchange_label,
    spend_unendorsed,
    verify_offer,
)
from zeenot.cashlib.group import L, pack
from zeenot.runtime.store import Store
from zeenot.sigma import pedersen_commit

LEVEL = 2
SHOP, CAFE = b"shop", b"cafe"
CONTRACT = b"file sha256 00ff..; release x if the buyer holds the key by block 900"


def _wallet(bank: ecash.Bank, name: str) -> ecash.Wallet:
    u = random_scalar()
    bank.open_account(name, u * BASE8)
    req, state = ecash.withdrawal_request(bank.params, u, context=name.encode())
    resp = bank.withdraw(name, u * BASE8, req.to_bytes(), context=name.encode())
    return ecash.finish_withdrawal(state, resp.to_bytes(), LEVEL)


@pytest.fixture(scope="module")
def bank() -> ecash.Bank:
    return ecash.Bank(level=LEVEL)


@pytest.fixture(scope="module")
def arbiter() -> tuple[int, object]:
    return keygen()


def test_honest_offer_verifies_and_the_endorsed_coin_deposits(bank, arbiter):
    _, apk = arbiter
    wallet = _wallet(bank, "alice")
    info = ecash.merchant_info()
    coin, x = spend_unendorsed(wallet, SHOP, info)
    coin = UnendorsedCoin.from_bytes(coin.to_bytes())
    label = exchange_label(coin, SHOP, info, CONTRACT)
    esc = escrow_endorsement(coin, x, apk, label)
    assert verify_offer(bank, coin, esc.to_bytes(), SHOP, info, apk, label)
    done = endorse(coin, x)
    assert str(x) not in repr(done)
    assert bank.deposit(done.spend.to_bytes(), SHOP, info, endorsement=done.endorsement).accepted
    # once deposited, a seller offered the same coin refuses it (the serial is spent)
    assert not verify_offer(bank, coin, esc, SHOP, info, apk, label)
    assert bank.deposit(done.spend, SHOP, info, endorsement=x).reason == "replay"


def test_an_unendorsed_coin_cannot_be_deposited(bank):
    wallet = _wallet(bank, "bob")
    info = ecash.merchant_info()
    coin, x = spend_unendorsed(wallet, SHOP, info)
    assert bank.deposit(coin.spend, SHOP, info).reason == "invalid"  # no endorsement
    # rebinding it to an X' whose log the seller knows does not verify either
    x2 = random_scalar()
    assert not bank.check_unendorsed(coin.spend, SHOP, info, x2 * BASE8)
    assert bank.deposit(coin.spend, SHOP, info, endorsement=x2).reason == "invalid"
    # a plain spend is not an unendorsed coin, and takes no endorsement
    plain = wallet.spend(SHOP, info)
    assert not bank.check_unendorsed(plain, SHOP, info, coin.endorsement_key)
    assert bank.deposit(plain, SHOP, info, endorsement=x).reason == "invalid"
    # the coin is still good with its own x, for its own seller and info only
    assert bank.deposit(coin.spend, CAFE, info, endorsement=x).reason == "invalid"
    assert bank.deposit(coin.spend, SHOP, b"other", endorsement=x).reason == "invalid"
    assert bank.deposit(coin.spend, SHOP, info, endorsement=x).accepted


def test_a_wrong_endorsement_is_refused(bank):
    wallet = _wallet(bank, "carol")
    info = ecash.merchant_info()
    coin, x = spend_unendorsed(wallet, SHOP, info)
    for wrong in (x + 1, random_scalar(), 0, L):
        with pytest.raises(EndorsementError):
            endorse(coin, wrong)
        assert bank.deposit(coin.spend, SHOP, info, endorsement=wrong).reason == "invalid"
    with pytest.raises(TypeError):
        endorse(coin, True)  # type: ignore[arg-type]
    assert bank.deposit(coin.spend, SHOP, info, endorsement=True).reason == "invalid"
    # x + l is the same scalar: it endorses
    assert endorse(coin, x + L).endorsement == x
    # the escrow is refused for a wrong x too
    with pytest.raises(EndorsementError):
        escrow_endorsement(coin, x + 1, keygen()[1], b"label")


def test_the_seller_refuses_an_escrow_for_another_coin_or_label(bank, arbiter):
    _, apk = arbiter
    wallet = _wallet(bank, "dave")
    info, info2 = ecash.merchant_info(), ecash.merchant_info()
    coin, x = spend_unendorsed(wallet, SHOP, info)
    other, y = spend_unendorsed(wallet, SHOP, info2)
    label = exchange_label(coin, SHOP, info, CONTRACT)
    good = escrow_endorsement(coin, x, apk, label, seed=1)
    assert verify_offer(bank, coin, good, SHOP, info, apk, label)
    # the other coin's endorsement, under this coin's label
    wrong_coin = escrow_endorsement(other, y, apk, label, seed=2)
    assert not verify_offer(bank, coin, wrong_coin, SHOP, info, apk, label)
    # this coin's endorsement under another exchange's label (another contract, seller, coin)
    for bad_label in (
        exchange_label(coin, SHOP, info, b"another contract"),
        exchange_label(coin, CAFE, info, CONTRACT),
        exchange_label(other, SHOP, info2, CONTRACT),
    ):
        esc = escrow_endorsement(coin, x, apk, bad_label, seed=3)
        assert not verify_offer(bank, coin, esc, SHOP, info, apk, label)
    # to another arbiter
    esc = escrow_endorsement(coin, x, keygen()[1], label, seed=4)
    assert not verify_offer(bank, coin, esc, SHOP, info, apk, label)
    # a valid escrow with a coin for another seller or info: the bank says no
    assert not verify_offer(bank, coin, good, CAFE, info, apk, label)
    assert not verify_offer(bank, coin, good, SHOP, info2, apk, label)
    # the coin's X swapped for the other coin's (with that coin's matching escrow)
    swapped = UnendorsedCoin(coin.spend, other.endorsement_key)
    esc = escrow_endorsement(other, y, apk, label, seed=5)
    assert not verify_offer(bank, swapped, esc, SHOP, info, apk, label)
    assert not verify_offer(bank, coin, b"\x00" * 100, SHOP, info, apk, label)


def test_the_arbiters_decryption_endorses_the_coin(bank, arbiter):
    ask, apk = arbiter
    wallet = _wallet(bank, "erin")
    info = ecash.merchant_info()
    coin, x = spend_unendorsed(wallet, SHOP, info)
    label = exchange_label(coin, SHOP, info, CONTRACT)
    esc = escrow_endorsement(coin, x, apk, label).to_bytes()
    assert verify_offer(bank, coin, esc, SHOP, info, apk, label)
    # the buyer never sends x; the seller asks the arbiter
    dec = escrow.decrypt(ask, esc, coin.endorsement_key, label)
    done = endorse_from_decryption(coin, esc, apk, label, dec)
    assert done.endorsement == x
    # a forged decryption (another value, the arbiter's proof kept) is refused
    forged = dataclasses.replace(dec, chunks=(dec.chunks[0] ^ 1, *dec.chunks[1:]))
    with pytest.raises(EndorsementError):
        endorse_from_decryption(coin, esc, apk, label, forged)
    with pytest.raises(escrow.EscrowError):  # the arbiter decrypts only under the escrow's label
        escrow.decrypt(ask, esc, coin.endorsement_key, b"another label")
    assert bank.deposit(done.spend, SHOP, info, endorsement=done.endorsement).accepted


def test_an_endorsed_double_spend_identifies_the_spender(bank):
    wallet = _wallet(bank, "frank")
    info1, info2, info3 = (ecash.merchant_info() for _ in range(3))
    # coin 0 offered, unendorsed, to three exchanges: harmless until two are endorsed
    c1, x1 = spend_unendorsed(wallet, SHOP, info1, index=0)
    c2, x2 = spend_unendorsed(wallet, CAFE, info2, index=0)
    c3, x3 = spend_unendorsed(wallet, SHOP, info1, index=0)  # same seller and info, fresh x
    assert c1.serial == c2.serial == c3.serial
    assert bank.deposit(c1.spend, SHOP, info1, endorsement=x1).accepted
    for coin, m, info, x in ((c2, CAFE, info2, x2), (c3, SHOP, info1, x3)):
        result = bank.deposit(coin.spend, m, info, endorsement=x)
        assert (result.accepted, result.reason, result.double_spender) == (
            False,
            "double-spend",
            "frank",
        )
    # and an endorsed coin against a plain spend of the same coin
    plain = wallet.spend(CAFE, info3, index=0)
    assert bank.deposit(plain, CAFE, info3).double_spender == "frank"


def test_malformed_coins_are_clear_errors(bank):
    wallet = _wallet(bank, "gina")
    coin, _ = spend_unendorsed(wallet, SHOP, ecash.merchant_info())
    raw = coin.to_bytes()
    for bad in (b"", raw[:31], raw[:40], raw + b"\x00", b"\xff" * 32 + raw[32:]):
        with pytest.raises(EndorsementError):
            UnendorsedCoin.from_bytes(bad)
    ident = bytes(32)  # y = 0 is not on the curve; the identity packs as y = 1
    with pytest.raises(EndorsementError):
        UnendorsedCoin.from_bytes(ident + raw[32:])
    with pytest.raises(EndorsementError):
        UnendorsedCoin.from_bytes((1).to_bytes(32, "little") + raw[32:])
    with pytest.raises(TypeError):
        UnendorsedCoin.from_bytes("coin")  # type: ignore[arg-type]


def test_the_bank_server_deposits_endorsed_coins(tmp_path, arbiter):
    from starlette.testclient import TestClient

    _, apk = arbiter
    store = BankStore(Store(str(tmp_path / "bank.db")), level=LEVEL)
    wallet = _wallet(store, "hana")  # type: ignore[arg-type]
    info = ecash.merchant_info()
    coin, x = spend_unendorsed(wallet, SHOP, info, index=0)
    label = exchange_label(coin, SHOP, info, CONTRACT)
    esc = escrow_endorsement(coin, x, apk, label, seed=7)
    assert verify_offer(store, coin, esc, "shop", info, apk, label)
    assert store.deposit(coin.spend, "shop", info).reason == "invalid"
    assert store.deposit(coin.spend, "shop", info, endorsement=x + 1).reason == "invalid"
    body = {"merchant": "shop", "info": info.hex(), "spend": coin.spend.to_bytes().hex()}
    key = coin.endorsement_key
    with TestClient(build_app(store)) as client:
        check = dict(body, endorsement_key=pack(key).hex())
        assert client.post("/check", json=check).json() == {"status": "valid"}
        other = dict(body, endorsement_key=pack(random_scalar() * BASE8).hex())
        assert client.post("/check", json=other).json() == {"status": "invalid"}
        assert client.post("/check", json=dict(body, endorsement_key="00")).status_code == 400
        assert client.post("/deposit", json=body).status_code == 400  # unendorsed
        bad = dict(body, endorsement="00" * 31)
        assert client.post("/deposit", json=bad).status_code == 400
        good = dict(body, endorsement=x.to_bytes(32, "little").hex())
        r = client.post("/deposit", json=good)
        assert (r.status_code, r.json()) == (200, {"status": "accepted"})
        assert client.post("/deposit", json=good).json() == {"status": "replay"}
        assert client.post("/check", json=check).json() == {"status": "invalid"}  # spent
    assert not verify_offer(store, coin, esc, "shop", info, apk, label)  # spent
    c2, x2 = spend_unendorsed(wallet, CAFE, info, index=0)
    result = store.deposit(c2.spend, "cafe", info, endorsement=x2)
    assert (result.reason, result.double_spender) == ("double-spend", "hana")


def test_forged_and_altered_unendorsed_coins_are_rejected(bank):
    """A corpus: bit flips over the whole coin (X and the spend), each checked by the bank for
    the seller and, in the spend, deposited with the true endorsement: none accepted."""
    wallet = _wallet(bank, "ivan")
    info = ecash.merchant_info()
    coin, x = spend_unendorsed(wallet, SHOP, info)
    wire = coin.to_bytes()
    accepted = []
    tried = 0
    for pos in sorted({*range(32), *range(32, len(wire), len(wire) // 40), len(wire) - 1}):
        flipped = bytearray(wire)
        flipped[pos] ^= 1 << (pos % 8)
        try:
            bad = UnendorsedCoin.from_bytes(bytes(flipped))
        except EndorsementError:
            tried += 1
            continue  # refused at parsing: a bad point, a bad length
        tried += 1
        if bank.check_unendorsed(bad.spend, SHOP, info, bad.endorsement_key):
            accepted.append(f"check: flip at {pos}")
        # a flip in X leaves the spend whole (the deposit recomputes X from x): only the
        # seller's check sees it; a flip in the spend must fail the deposit too
        if pos >= 32 and bank.deposit(bad.spend, SHOP, info, endorsement=x).accepted:
            accepted.append(f"deposit: flip at {pos}")
    assert accepted == []
    assert tried > 70
    assert bank.check_unendorsed(coin.spend, SHOP, info, coin.endorsement_key)


def test_a_key_with_a_blinding_part_cannot_be_offered(bank, arbiter):
    """The attack the coin's proof of `x` stops: a buyer offering `X = a·G + b·H` with an
    escrow of `a` (blinding `b`), whose decryption `a` would endorse nothing. The escrow
    verifies for that `X`, but no coin is bound to it."""
    _, apk = arbiter
    wallet = _wallet(bank, "judy")
    info = ecash.merchant_info()
    coin, x = spend_unendorsed(wallet, SHOP, info)
    a, b = random_scalar(), random_scalar()
    key = pedersen_commit(a, b)
    cheat = UnendorsedCoin(coin.spend, key)
    label = exchange_label(cheat, SHOP, info, CONTRACT)
    esc = escrow.escrow(a, b, key, apk, label, seed=9)
    assert escrow.verify_escrow(esc, key, apk, label)
    assert not verify_offer(bank, cheat, esc, SHOP, info, apk, label)
    # and X + b·H (the true x with a blinding part) is another key too
    shifted = UnendorsedCoin(coin.spend, pedersen_commit(x, b))
    label = exchange_label(shifted, SHOP, info, CONTRACT)
    esc = escrow.escrow(x, b, shifted.endorsement_key, apk, label, seed=10)
    assert not verify_offer(bank, shifted, esc, SHOP, info, apk, label)
