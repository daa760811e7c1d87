"""The fair-exchange BUY protocol (zeenot.cashlib.exchange) over the stored bank and arbiter:
the honest path never involves the arbiter, each cheating or stopping party is resolved as
Küpçü–Lysyanskaya say, a second resolution is refused, a double spender is identified, and no
coin is lost at the bank."""

from __future__ import annotations

import dataclasses
import hashlib
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from zeenot.babyjub import BASE8, keygen, random_scalar
from zeenot.cashlib import ecash, keyproof
from zeenot.cashlib.bank import BankStore
from zeenot.cashlib.exchange import (
    FOR_BUYER,
    Arbiter,
    BuyerExchange,
    Contract,
    ExchangeError,
    Offer,
    SellerExchange,
    decrypt_file,
    encrypt_file,
    exchange_id,
)
from zeenot.cashlib.group import frame, pack
from zeenot.runtime.store import Store

LEVEL = 2
FILE = b"the seller's file: " + bytes(range(256)) * 4
FILE_SHA = hashlib.sha256(FILE).digest()


def _deadline(seconds: int = 3600) -> int:
    return int(time.time()) + seconds


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """One database: the bank's tables and the arbiter's log."""
    store = Store(str(tmp_path_factory.mktemp("fairx") / "cash.db"))
    sk, _ = keygen()
    return BankStore(store, level=LEVEL), Arbiter(store, sk), store


_accounts = iter(range(10**6))


def _wallet(bank: BankStore) -> tuple[ecash.Wallet, str]:
    name = f"buyer{next(_accounts)}"
    u = random_scalar()
    bank.open_account(name, u * BASE8)
    req, state = ecash.withdrawal_request(bank.params, u, context=b"w")
    resp = bank.withdraw(name, u * BASE8, req.to_bytes(), context=b"w")
    return ecash.finish_withdrawal(state, resp, bank.level), name


def _start(bank, arbiter, *, data=FILE, merchant="shop", deadline=None):
    deadline = _deadline() if deadline is None else deadline
    seller = SellerExchange(data, merchant, bank, arbiter.public_key, deadline=deadline)
    wallet, name = _wallet(bank)
    buyer = BuyerExchange(wallet, FILE_SHA, arbiter.public_key, deadline=deadline)
    return seller, buyer, name


def test_the_file_cipher_opens_only_with_its_key_and_file():
    key = bytes(range(32))
    ct = encrypt_file(key, FILE, FILE_SHA)
    assert decrypt_file(key, ct, FILE_SHA) == FILE
    assert decrypt_file(bytes(32), ct, FILE_SHA) is None
    assert decrypt_file(key, ct[:-1] + bytes([ct[-1] ^ 1]), FILE_SHA) is None
    other = hashlib.sha256(b"another file").digest()
    assert decrypt_file(key, ct, other) is None  # the hash is bound as associated data
    assert decrypt_file(key, encrypt_file(key, b"other", other), other) is None  # not its hash
    assert decrypt_file(key, b"short", FILE_SHA) is None
    with pytest.raises(ExchangeError):
        decrypt_file(b"short key", ct, FILE_SHA)


def test_contract_round_trips_and_malformed_ones_are_refused():
    _, pk = keygen()
    c = Contract(b"shop", b"i" * 16, FILE_SHA, bytes(32), pk, 1234)
    assert Contract.from_bytes(c.to_bytes()) == c
    for bad in (c.to_bytes()[:-1], c.to_bytes() + b"\0", b"", b"\xff" * 8):
        with pytest.raises(ExchangeError):
            Contract.from_bytes(bad)
    with pytest.raises(ExchangeError):
        Contract(b"shop", b"i", b"short", bytes(32), pk, 1)


def test_honest_exchange_never_involves_the_arbiter(world):
    bank, arbiter, _ = world
    seller, buyer, _ = _start(bank, arbiter)
    offer = buyer.pay(seller.merchant_id, seller.info, seller.ciphertext)
    key = seller.accept(offer)
    x = buyer.receive_key(key)
    assert buyer.file == FILE
    result = seller.finish(x)
    assert result.accepted and seller.paid is not None
    assert arbiter.decision(offer) is None and buyer.key_from_arbiter(arbiter) is None
    # the coin is spent: the same offer does not verify at the seller again
    with pytest.raises(ExchangeError, match="does not verify"):
        seller.accept(offer)
    assert str(x) not in repr(seller.paid) + repr(buyer) + repr(seller)


def test_endorse_then_deposit_is_finish_in_two_steps(world):
    """`endorse` (what Cashlib's buy protocol times last) checks x before anything reaches the
    bank; `deposit` then stores the endorsed coin once."""
    bank, arbiter, _ = world
    seller, buyer, _ = _start(bank, arbiter)
    x = buyer.receive_key(
        seller.accept(buyer.pay(seller.merchant_id, seller.info, seller.ciphertext))
    )
    with pytest.raises(ExchangeError, match="endorsement"):
        seller.endorse(x + 1)
    assert seller.paid is None
    done = seller.endorse(x)
    assert seller.paid is None  # endorsing deposits nothing
    assert seller.deposit(done).accepted and seller.paid is done
    assert not seller.deposit(done).accepted  # the same coin twice: refused


def test_buyer_withholds_the_endorsement_the_arbiter_endorses_for_the_seller(world):
    bank, arbiter, store = world
    seller, buyer, _ = _start(bank, arbiter)
    offer = buyer.pay(seller.merchant_id, seller.info, seller.ciphertext)
    key = seller.accept(offer)
    buyer.receive_key(key)  # ... and the buyer sends nothing
    with pytest.raises(ExchangeError):
        seller.finish(random_scalar())  # a wrong endorsement is refused, not deposited
    assert seller.resolve(arbiter).accepted
    assert arbiter.decision(offer) == "endorsed"
    # the buyer gets the key from the arbiter (had it not received it from the seller)
    buyer.file = None
    assert buyer.key_from_arbiter(arbiter) == FILE
    # ... and only the buyer: whoever else holds the offer (the seller, a stranger) gets nothing
    eid = exchange_id(offer).encode()
    for proof in (
        keyproof.prove_key(random_scalar(), FOR_BUYER, eid, arbiter.public_key),
        keyproof.prove_key(buyer._x, FOR_BUYER, b"another exchange", arbiter.public_key),
        keyproof.prove_key(buyer._x, b"another purpose", eid, arbiter.public_key),
        bytes(72),
    ):
        with pytest.raises(ExchangeError, match="not the buyer"):
            arbiter.key_for(offer, proof)
    # a second resolution of this exchange records nothing and answers the same decision (a
    # seller whose answer was lost asks again), from this arbiter or another process
    for a in (arbiter, Arbiter(Store(store.url), arbiter._sk)):
        repeat = a.resolve(offer, seller.ciphertext, key)
        assert not repeat.first and repeat.decryption.value == buyer._x
    with pytest.raises(ExchangeError, match="contract's file"):
        arbiter.resolve(offer, seller.ciphertext, bytes(32))  # a wrong key still refused
    assert seller.resolve(arbiter).reason == "replay"  # and the coin is deposited once


def test_seller_with_a_wrong_file_or_key_gets_nothing(world):
    bank, arbiter, _ = world
    seller, buyer, _ = _start(bank, arbiter, data=b"not the agreed file")
    # a cheating seller claims the agreed hash for another file
    seller.file_sha256 = FILE_SHA
    seller.ciphertext = encrypt_file(seller._key, seller.data, FILE_SHA)
    offer = buyer.pay(seller.merchant_id, seller.info, seller.ciphertext)
    key = seller.accept(offer)
    with pytest.raises(ExchangeError, match="agreed file"):
        buyer.receive_key(key)
    assert buyer.file is None
    with pytest.raises(ExchangeError, match="contract's file"):
        seller.resolve(arbiter)
    # a random key fares no better, at the buyer or the arbiter
    with pytest.raises(ExchangeError):
        buyer.receive_key(bytes(32))
    with pytest.raises(ExchangeError, match="contract's file"):
        arbiter.resolve(offer, seller.ciphertext, bytes(32))
    # nothing recorded, nothing deposited: the unendorsed coin alone is worthless
    assert arbiter.decision(offer) is None
    coin = offer.coin
    assert bank.deposit(coin.spend, "shop", seller.info).reason == "invalid"
    assert bank.check_unendorsed(coin.spend, "shop", seller.info, coin.endorsement_key)
    # after the deadline the buyer spends the same coin with an honest seller: nothing lost
    honest = SellerExchange(FILE, "cafe", bank, arbiter.public_key, deadline=_deadline())
    buyer2 = BuyerExchange(buyer.wallet, FILE_SHA, arbiter.public_key, deadline=honest.deadline)
    offer2 = buyer2.pay(honest.merchant_id, honest.info, honest.ciphertext, index=buyer.coin_index)
    assert offer2.coin.serial == coin.serial
    assert honest.finish(buyer2.receive_key(honest.accept(offer2))).accepted


def test_a_correct_file_with_the_wrong_ciphertext_or_late_is_refused(world):
    bank, arbiter, _ = world
    seller, buyer, _ = _start(bank, arbiter)
    offer = buyer.pay(seller.merchant_id, seller.info, seller.ciphertext)
    key = seller.accept(offer)
    other_ct = encrypt_file(key, FILE, FILE_SHA)  # the right file, not the contract's bytes
    with pytest.raises(ExchangeError, match="not the ciphertext"):
        arbiter.resolve(offer, other_ct, key)
    with pytest.raises(ExchangeError, match="deadline"):
        arbiter.resolve(offer, seller.ciphertext, key, at=seller.deadline)
    # another arbiter, or a contract changed after the escrow was made, is refused
    sk2, _ = keygen()
    with pytest.raises(ExchangeError, match="another arbiter"):
        Arbiter(arbiter.store, sk2).resolve(offer, seller.ciphertext, key)
    longer = dataclasses.replace(offer.contract, deadline=offer.contract.deadline + 1)
    with pytest.raises(ExchangeError, match="escrow"):
        arbiter.resolve(dataclasses.replace(offer, contract=longer), seller.ciphertext, key)
    assert arbiter.decision(offer) is None
    assert seller.resolve(arbiter).accepted  # the honest request still succeeds


def test_seller_refuses_offers_that_do_not_fit(world):
    bank, arbiter, _ = world
    seller, buyer, _ = _start(bank, arbiter)
    offer = buyer.pay(seller.merchant_id, seller.info, seller.ciphertext)
    with pytest.raises(ExchangeError, match="contract"):
        seller.accept(
            dataclasses.replace(offer, contract=dataclasses.replace(offer.contract, deadline=1))
        )
    with pytest.raises(ExchangeError, match="deadline"):
        seller.accept(offer, at=seller.deadline)
    # an escrow to another arbiter (the contract naming it) is not this exchange's either
    _, pk2 = keygen()
    buyer2 = BuyerExchange(_wallet(bank)[0], FILE_SHA, pk2, deadline=seller.deadline)
    with pytest.raises(ExchangeError, match="contract"):
        seller.accept(buyer2.pay(seller.merchant_id, seller.info, seller.ciphertext))
    # the escrow of another coin's endorsement does not verify for this coin
    other = BuyerExchange(_wallet(bank)[0], FILE_SHA, arbiter.public_key, deadline=seller.deadline)
    offer_b = other.pay(seller.merchant_id, seller.info, seller.ciphertext)
    with pytest.raises(ExchangeError, match="does not verify"):
        seller.accept(dataclasses.replace(offer, escrow=offer_b.escrow))
    assert seller.offer is None
    with pytest.raises(ExchangeError, match="no accepted offer"):
        seller.finish(1)


def test_seller_stops_before_the_key_the_buyer_waits_out_the_deadline(world):
    bank, arbiter, _ = world
    seller, buyer, _ = _start(bank, arbiter, deadline=_deadline(2))
    offer = buyer.pay(seller.merchant_id, seller.info, seller.ciphertext)
    key = seller.accept(offer)  # ... and the seller never sends it
    assert buyer.key_from_arbiter(arbiter) is None  # nothing resolved: the buyer keeps x
    with pytest.raises(ExchangeError, match="deadline"):
        seller.resolve(arbiter, at=seller.deadline + 1)  # too late for the seller
    assert arbiter.decision(offer) is None
    assert key  # the seller holds a key it can no longer be paid for
    honest = SellerExchange(FILE, "cafe", bank, arbiter.public_key, deadline=_deadline())
    b2 = BuyerExchange(buyer.wallet, FILE_SHA, arbiter.public_key, deadline=honest.deadline)
    o2 = b2.pay(honest.merchant_id, honest.info, honest.ciphertext, index=buyer.coin_index)
    assert honest.finish(b2.receive_key(honest.accept(o2))).accepted


def test_buyer_who_endorses_one_coin_twice_is_identified_at_deposit(world):
    bank, arbiter, _ = world
    s1, buyer, name = _start(bank, arbiter)
    s2 = SellerExchange(FILE, "cafe", bank, arbiter.public_key, deadline=s1.deadline)
    b2 = BuyerExchange(buyer.wallet, FILE_SHA, arbiter.public_key, deadline=s1.deadline)
    o1 = buyer.pay(s1.merchant_id, s1.info, s1.ciphertext)
    o2 = b2.pay(s2.merchant_id, s2.info, s2.ciphertext, index=buyer.coin_index)
    k1, k2 = s1.accept(o1), s2.accept(o2)  # both offers valid: neither coin is deposited yet
    assert s1.finish(buyer.receive_key(k1)).accepted
    second = s2.finish(b2.receive_key(k2))
    assert not second.accepted and second.reason == "double-spend"
    assert second.double_spender == name


def test_offers_travel_as_bytes_and_a_flipped_bit_is_refused_by_the_seller(world):
    bank, arbiter, _ = world
    seller, buyer, _ = _start(bank, arbiter)
    offer = buyer.pay(seller.merchant_id, seller.info, seller.ciphertext)
    wire = offer.to_bytes()
    assert Offer.from_bytes(wire) == offer
    for bad in (wire[:-1], wire + b"\0", b"", wire[:100], b"\xff" * 64):
        with pytest.raises(ExchangeError):
            Offer.from_bytes(bad)
    with pytest.raises(TypeError):
        Offer.from_bytes("not bytes")
    # a corpus of single-bit flips across the offer: malformed, or refused by the seller
    step = max(1, len(wire) // 24)
    for pos in range(0, len(wire), step):
        flipped = bytearray(wire)
        flipped[pos] ^= 1 << (pos % 8)
        try:
            bad_offer = Offer.from_bytes(bytes(flipped))
        except ExchangeError:
            continue
        with pytest.raises(ExchangeError):
            seller.accept(bad_offer)
    assert seller.offer is None
    assert seller.finish(buyer.receive_key(seller.accept(Offer.from_bytes(wire)))).accepted


def test_a_contract_with_a_non_canonical_part_is_refused():
    _, pk = keygen()
    c = Contract(b"shop", b"i", FILE_SHA, bytes(32), pk, 7)
    parts = [b"zeenot/cashlib/exchange/buy/contract/v1", b"shop", b"i", FILE_SHA, bytes(32)]
    one, seven = (1).to_bytes(2, "little"), (7).to_bytes(8, "little")
    assert Contract.from_bytes(frame(*parts, pack(pk), seven, one)) == c
    for tail in (
        (pack(pk) + b"\0", seven, one),
        (pack(pk), b"\7", one),
        (pack(pk), seven, b"\1"),
        (pack(pk), seven),  # no price
        (pack(pk), seven, (0).to_bytes(2, "little")),  # a price of 0 coins
        (pack(pk), seven, (17).to_bytes(2, "little")),  # above MAX_PRICE
    ):
        with pytest.raises(ExchangeError):
            Contract.from_bytes(frame(*parts, *tail))
    with pytest.raises(ExchangeError):  # not a point of the subgroup
        Contract.from_bytes(frame(*parts, b"\xff" * 32, seven, one))


def test_concurrent_resolutions_of_one_exchange_exactly_one_wins(world):
    bank, arbiter, store = world
    seller, buyer, _ = _start(bank, arbiter)
    offer = buyer.pay(seller.merchant_id, seller.info, seller.ciphertext)
    key = seller.accept(offer)
    arbiters = [Arbiter(Store(store.url), arbiter._sk) for _ in range(4)]  # one per "process"
    barrier = threading.Barrier(len(arbiters))

    def attempt(a: Arbiter) -> str:
        barrier.wait()
        try:
            res = a.resolve(offer, seller.ciphertext, key)
        except ExchangeError as e:
            return str(e)
        return "recorded" if res.first else "repeated"

    with ThreadPoolExecutor(len(arbiters)) as pool:
        outcomes = list(pool.map(attempt, arbiters))
    assert sorted(outcomes) == ["recorded", "repeated", "repeated", "repeated"]
    assert arbiter.decision(offer) == "endorsed"
    assert arbiter.key_for(offer, buyer.proof(arbiter.public_key)) == key


def test_a_price_of_three_coins_paid_by_one_endorsement(world):
    """Three coins bound to one `X`: the seller checks all three and the escrow (under a label
    naming the three serials), the buyer's one `x` endorses all three, each is deposited; the
    offer round-trips through its bytes."""
    bank, arbiter, _ = world
    seller = SellerExchange(FILE, "shop", bank, arbiter.public_key, deadline=_deadline(), price=3)
    wallet, _ = _wallet(bank)
    buyer = BuyerExchange(wallet, FILE_SHA, arbiter.public_key, deadline=seller.deadline)
    offer = buyer.pay(seller.merchant_id, seller.info, seller.ciphertext, price=3)
    assert len(offer.coins) == 3 and buyer.coin_indices == (0, 1, 2)
    assert len({c.endorsement_key for c in offer.coins}) == 1
    assert len({pack(c.serial) for c in offer.coins}) == 3
    assert Offer.from_bytes(offer.to_bytes()) == offer
    x = buyer.receive_key(seller.accept(Offer.from_bytes(offer.to_bytes())))
    assert buyer.file == FILE
    assert seller.finish(x).accepted and len(seller.paid) == 3
    for coin in offer.coins:  # each of the three stored at the bank
        again = bank.deposit(coin.spend.to_bytes(), "shop", seller.info, endorsement=x)
        assert again.reason == "replay"


def test_a_price_of_three_coins_resolved_by_the_arbiter(world):
    """The buyer withholds `x`: the arbiter's one decryption endorses every coin of the price."""
    bank, arbiter, _ = world
    seller = SellerExchange(FILE, "cafe", bank, arbiter.public_key, deadline=_deadline(), price=3)
    wallet, _ = _wallet(bank)
    buyer = BuyerExchange(wallet, FILE_SHA, arbiter.public_key, deadline=seller.deadline)
    offer = buyer.pay(seller.merchant_id, seller.info, seller.ciphertext, price=3)
    buyer.receive_key(seller.accept(offer))  # ... and the buyer sends nothing
    assert seller.resolve(arbiter).accepted and len(seller.paid) == 3
    assert arbiter.decision(offer) == "endorsed"
    assert buyer.key_from_arbiter(arbiter) == FILE


def test_offers_that_do_not_pay_the_price_are_refused(world):
    """Fewer coins than the contract's price, a contract at another price, coins reordered
    (the escrow's label names them in order), one coin twice, coins bound to different
    endorsements, an offer of more than `MAX_PRICE` coins: each refused before the key goes
    out; and a buyer that double-spends one coin of the price is identified at the deposit,
    the others deposited."""
    from zeenot.cashlib import endorsed
    from zeenot.cashlib.exchange import MAX_PRICE

    bank, arbiter, _ = world
    seller = SellerExchange(FILE, "shop", bank, arbiter.public_key, deadline=_deadline(), price=3)
    wallet, name = _wallet(bank)
    buyer = BuyerExchange(wallet, FILE_SHA, arbiter.public_key, deadline=seller.deadline)
    offer = buyer.pay(seller.merchant_id, seller.info, seller.ciphertext, price=3)
    c1, c2, c3 = offer.coins
    short = dataclasses.replace(offer, more=(c2,))
    with pytest.raises(ExchangeError, match="pays 2 coins"):
        seller.accept(short)
    one = dataclasses.replace(offer, contract=dataclasses.replace(offer.contract, price=1))
    with pytest.raises(ExchangeError, match="contract"):
        seller.accept(one)
    with pytest.raises(ExchangeError, match="does not verify"):
        seller.accept(dataclasses.replace(offer, more=(c3, c2)))
    twice = dataclasses.replace(offer, more=(c2, c2))
    with pytest.raises(ExchangeError, match="does not verify"):
        seller.accept(twice)
    stranger, _ = endorsed.spend_unendorsed(wallet, seller.merchant_id, seller.info)
    with pytest.raises(ExchangeError, match="one endorsement key"):
        dataclasses.replace(offer, more=(c2, stranger))
    with pytest.raises(ExchangeError):
        dataclasses.replace(offer, more=(c2,) * MAX_PRICE)
    with pytest.raises(ExchangeError):
        BuyerExchange(wallet, FILE_SHA, arbiter.public_key, deadline=seller.deadline).pay(
            seller.merchant_id, seller.info, seller.ciphertext, index=(3,), price=2
        )
    # the buyer double-spends its second coin before the seller deposits
    x = buyer.receive_key(seller.accept(offer))
    info = ecash.merchant_info()
    assert bank.deposit(wallet.spend(b"cafe", info, index=1).to_bytes(), "cafe", info).accepted
    result = seller.finish(x)
    assert (result.accepted, result.reason, result.double_spender) == (
        False,
        "double-spend",
        name,
    )
    assert seller.paid is None
    assert bank.deposit(c1.spend.to_bytes(), "shop", seller.info, endorsement=x).reason == "replay"
