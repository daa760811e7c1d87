"""The fair-exchange BARTER protocol (zeenot.cashlib.barter) over the stored bank and arbiter:
the honest path never involves the arbiter and deposits nothing; each cheating or stopping
party is resolved as Küpçü–Lysyanskaya say (files swapped, or the warranty coin paid to Bob);
the dispute moves once; only the entitled party gets a key."""

from __future__ import annotations

import dataclasses
import hashlib
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from tests.python import postgres

from zeenot.babyjub import BASE8, keygen, random_scalar
from zeenot.cashlib import ecash, keyproof
from zeenot.cashlib.bank import BankStore
from zeenot.cashlib.barter import (
    FOR_ALICE,
    FOR_BOB,
    AliceBarter,
    BarterArbiter,
    BarterContract,
    BarterOffer,
    BobBarter,
    barter_id,
)
from zeenot.cashlib.exchange import ExchangeError
from zeenot.runtime.store import Store

LEVEL = 2
A_FILE = b"alice's file: " + bytes(range(256)) * 3
B_FILE = b"bob's file: " + bytes(range(255, -1, -1)) * 2
A_SHA = hashlib.sha256(A_FILE).digest()
B_SHA = hashlib.sha256(B_FILE).digest()
WINDOW = 60


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    store = Store(str(tmp_path_factory.mktemp("barter") / "cash.db"))
    sk, _ = keygen()
    return BankStore(store, level=LEVEL), BarterArbiter(store, sk), store


_accounts = iter(range(10**6))


def _wallet(bank: BankStore) -> tuple[ecash.Wallet, str]:
    name = f"alice{next(_accounts)}"
    u = random_scalar()
    bank.open_account(name, u * BASE8)
    req, state = ecash.withdrawal_request(bank.params, u, context=b"w")
    resp = bank.withdraw(name, u * BASE8, req.to_bytes(), context=b"w")
    return ecash.finish_withdrawal(state, resp, bank.level), name


def _start(bank, arbiter, *, a_data=A_FILE, b_data=B_FILE, deadline=None, wallet=None):
    deadline = int(time.time()) + 3600 if deadline is None else deadline
    wallet, name = _wallet(bank) if wallet is None else (wallet, None)
    alice = AliceBarter(wallet, a_data, B_SHA, arbiter.public_key, deadline=deadline, window=WINDOW)
    bob = BobBarter(
        b_data, A_SHA, "bob", bank, arbiter.public_key, deadline=deadline, window=WINDOW
    )
    offer = alice.offer_to(bob.merchant_id, bob.info, bob.bob_pk, bob.ciphertext)
    return alice, bob, offer, name


def test_honest_barter_swaps_files_and_deposits_nothing(world):
    bank, arbiter, _ = world
    alice, bob, offer, _ = _start(bank, arbiter)
    k_b = bob.accept(offer, alice.ciphertext)
    k_a = alice.receive_key(k_b)
    assert alice.peer_file == B_FILE
    assert bob.receive_key(k_a) == A_FILE
    assert arbiter.dispute_state(offer) is None
    # the warranty stays unendorsed: Alice's coin is not spent at the bank
    coin = offer.coin
    assert bank.check_unendorsed(coin.spend, "bob", bob.info, coin.endorsement_key)
    assert bank.deposit(coin.spend, "bob", bob.info).reason == "invalid"
    assert k_a.hex() not in repr(alice) + repr(bob) and k_b.hex() not in repr(bob)


def test_contract_and_offer_round_trip_and_malformed_ones_are_refused(world):
    bank, arbiter, _ = world
    _, _, offer, _ = _start(bank, arbiter)
    c = offer.contract
    assert BarterContract.from_bytes(c.to_bytes()) == c
    wire = offer.to_bytes()
    assert BarterOffer.from_bytes(wire) == offer
    for bad in (c.to_bytes()[:-1], c.to_bytes() + b"\0", b"", b"\xff" * 8):
        with pytest.raises(ExchangeError):
            BarterContract.from_bytes(bad)
    for bad in (wire[:-1], wire + b"\0", wire[:100]):
        with pytest.raises(ExchangeError):
            BarterOffer.from_bytes(bad)
    with pytest.raises(ExchangeError):
        dataclasses.replace(c, window=10**9)


def test_bob_refuses_offers_that_do_not_fit(world):
    bank, arbiter, _ = world
    alice, bob, offer, _ = _start(bank, arbiter)
    with pytest.raises(ExchangeError, match="contract"):
        bob.accept(offer, alice.ciphertext + b"x")  # not the ciphertext the contract names
    with pytest.raises(ExchangeError, match="contract"):
        c = dataclasses.replace(offer.contract, window=1)
        bob.accept(dataclasses.replace(offer, contract=c), alice.ciphertext)
    with pytest.raises(ExchangeError, match="deadline"):
        bob.accept(offer, alice.ciphertext, at=bob.deadline)
    _, _, other, _ = _start(bank, arbiter)
    with pytest.raises(ExchangeError, match="does not verify"):
        bob.accept(dataclasses.replace(offer, escrow=other.escrow), alice.ciphertext)
    assert bob.offer is None


def test_bob_sends_a_wrong_key_alice_keeps_hers_and_the_arbiter_refuses_bob(world):
    bank, arbiter, _ = world
    alice, bob, offer, _ = _start(bank, arbiter, b_data=b"not the agreed file")
    # a cheating Bob: his contract claims the agreed hash for another file
    bob.file_sha256 = B_SHA
    alice2 = AliceBarter(
        alice.wallet, A_FILE, B_SHA, arbiter.public_key, deadline=bob.deadline, window=WINDOW
    )
    from zeenot.cashlib.exchange import encrypt_file

    bob.ciphertext = encrypt_file(bob._key, bob.data, B_SHA)
    offer = alice2.offer_to(bob.merchant_id, bob.info, bob.bob_pk, bob.ciphertext)
    k_b = bob.accept(offer, alice2.ciphertext)
    with pytest.raises(ExchangeError, match="agreed file"):
        alice2.receive_key(k_b)
    with pytest.raises(ExchangeError, match="agreed file"):
        alice2.receive_key(bytes(32))
    with pytest.raises(ExchangeError, match="contract's file"):
        bob.complain(arbiter)
    assert arbiter.dispute_state(offer) is None
    with pytest.raises(ExchangeError, match="no dispute"):
        bob.resolve(arbiter)
    assert bob.paid is None
    coin = offer.coin  # the warranty is still unspent: Alice loses nothing
    assert bank.check_unendorsed(coin.spend, "bob", bob.info, coin.endorsement_key)


def test_alice_withholds_her_key_and_does_not_answer_bob_is_paid(world):
    bank, arbiter, _ = world
    alice, bob, offer, _ = _start(bank, arbiter)
    alice.receive_key(bob.accept(offer, alice.ciphertext))  # ... and Alice sends nothing
    with pytest.raises(ExchangeError):
        bob.receive_key(bytes(32))  # or a wrong key
    t = time.time()
    respond_by = arbiter.complain(offer, bob.ciphertext, bob._key, at=t)
    assert respond_by == int(t) + WINDOW
    assert bob.resolve(arbiter, at=t + 1) == "pending"  # Alice's window is open
    assert arbiter.dispute_state(offer) == "pending"
    with pytest.raises(ExchangeError, match="already disputed"):
        bob.complain(arbiter)
    # the window closes unanswered: the arbiter pays Bob with the warranty
    assert bob.resolve(arbiter, at=respond_by) == "endorsed"
    assert bob.paid is not None and bob.paid.accepted
    assert arbiter.dispute_state(offer) == "endorsed"
    # a late answer from Alice is refused; she may still fetch k_B (she bought Bob's file)
    with pytest.raises(ExchangeError, match="too late"):
        arbiter.respond(offer, alice.ciphertext, alice._key, at=respond_by + 1)
    assert alice.key_from_arbiter(arbiter) == B_FILE


def test_alice_answers_the_complaint_files_are_swapped_and_nothing_deposited(world):
    bank, arbiter, _ = world
    alice, bob, offer, _ = _start(bank, arbiter)
    bob.accept(offer, alice.ciphertext)  # Bob's key is lost on the way; Alice sends nothing
    bob.complain(arbiter)
    with pytest.raises(ExchangeError, match="contract's file"):
        arbiter.respond(offer, alice.ciphertext, bytes(32))  # a wrong key is no answer
    assert alice.answer(arbiter) == B_FILE  # she watches the arbiter and answers
    assert arbiter.dispute_state(offer) == "swapped"
    assert bob.resolve(arbiter, at=time.time() + 2 * WINDOW) == "swapped"
    assert bob.peer_file == A_FILE and bob.paid is None
    coin = offer.coin
    assert bank.check_unendorsed(coin.spend, "bob", bob.info, coin.endorsement_key)


def test_bob_stops_before_his_key_alice_waits_out_the_deadline(world):
    bank, arbiter, _ = world
    alice, bob, offer, _ = _start(bank, arbiter, deadline=int(time.time()) + 5)
    bob.accept(offer, alice.ciphertext)  # ... and Bob never sends k_B
    assert alice.answer(arbiter) is None and alice.key_from_arbiter(arbiter) is None
    with pytest.raises(ExchangeError, match="deadline"):
        bob.complain(arbiter, at=bob.deadline)  # too late for Bob
    # after the deadline (and her window) the coin is Alice's again: spent elsewhere, accepted
    info = ecash.merchant_info()
    spend = alice.wallet.spend(b"cafe", info, index=alice.coin_index)
    assert bank.deposit(spend.to_bytes(), "cafe", info).accepted


def test_bob_complains_without_sending_his_key_alice_gets_it_from_the_arbiter(world):
    bank, arbiter, _ = world
    alice, bob, offer, _ = _start(bank, arbiter)
    bob.accept(offer, alice.ciphertext)
    bob.complain(arbiter)  # Bob hopes Alice is away
    assert alice.key_from_arbiter(arbiter) == B_FILE
    alice.answer(arbiter)
    assert bob.resolve(arbiter) == "swapped" and bob.peer_file == A_FILE


def test_only_the_entitled_party_gets_a_key(world):
    bank, arbiter, _ = world
    alice, bob, offer, _ = _start(bank, arbiter)
    bob.accept(offer, alice.ciphertext)
    bob.complain(arbiter)
    eid = barter_id(offer).encode()
    pk = arbiter.public_key
    stranger = random_scalar()
    for proof in (
        keyproof.prove_key(stranger, FOR_BOB, eid, pk),  # a stranger holding the offer
        alice.proof(pk),  # Alice's proof is for her request, not Bob's
        keyproof.prove_key(bob._sk, FOR_BOB, b"another exchange", pk),
        keyproof.prove_key(bob._sk, FOR_BOB, eid, pk, at=time.time() - 10 * keyproof.MAX_SKEW),
        b"\0" * 72,
        b"short",
    ):
        with pytest.raises(ExchangeError, match="not Bob"):
            arbiter.outcome(offer, proof)
    for proof in (
        keyproof.prove_key(stranger, FOR_ALICE, eid, pk),
        bob.proof(pk),
        keyproof.prove_key(alice._x, FOR_ALICE, eid, keygen()[1]),  # made for another arbiter
    ):
        with pytest.raises(ExchangeError, match="not Alice"):
            arbiter.key_for_alice(offer, proof)
    assert arbiter.outcome(offer, bob.proof(pk)).state == "pending"
    assert arbiter.key_for_alice(offer, alice.proof(pk)) == bob._key


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request, tmp_path):
    """A bank and a barter arbiter over one fresh database of each kind."""
    if request.param == "sqlite":
        url = str(tmp_path / "cash.db")
        yield BankStore(Store(url), level=LEVEL), BarterArbiter(Store(url), keygen()[0]), Store(url)
        return
    if not postgres.available():
        pytest.skip("PostgreSQL 15 is not installed (scripts/system_deps.sh)")
    with postgres.postgres_server() as url:
        store = Store(url)
        yield BankStore(store, level=LEVEL), BarterArbiter(store, keygen()[0]), store


def test_an_answer_and_a_payout_racing_exactly_one_wins(any_db):
    bank, arbiter, store = any_db
    alice, bob, offer, _ = _start(bank, arbiter)
    alice.receive_key(bob.accept(offer, alice.ciphertext))
    t = time.time()
    respond_by = arbiter.complain(offer, bob.ciphertext, bob._key, at=t)
    arbiters = [BarterArbiter(Store(store.url), arbiter._sk) for _ in range(4)]
    barrier = threading.Barrier(len(arbiters))
    at = respond_by  # Bob's clock says the window closed; Alice's says it is still open
    proof = bob.proof(arbiter.public_key, at=at)

    def attempt(k: int) -> str:
        a = arbiters[k]
        barrier.wait()
        try:
            if k % 2:
                return a.outcome(offer, proof, at=at).state
            a.respond(offer, alice.ciphertext, alice._key, at=at - 1)
            return "swapped"
        except ExchangeError as e:
            return str(e)

    with ThreadPoolExecutor(len(arbiters)) as pool:
        outcomes = list(pool.map(attempt, range(len(arbiters))))
    state = arbiter.dispute_state(offer)
    assert state in ("swapped", "endorsed")
    # every answer agrees with the one recorded state
    for k, o in enumerate(outcomes):
        if state == "swapped":
            assert o == "swapped"
        else:
            assert o == "endorsed" if k % 2 else "too late" in o


def test_a_coin_warranting_two_barters_both_paid_is_a_double_spend(world):
    bank, arbiter, _ = world
    alice, bob, offer, name = _start(bank, arbiter)
    alice2, bob2, offer2, _ = _start(bank, arbiter, wallet=alice.wallet)
    offer2 = alice2.offer_to(
        bob2.merchant_id, bob2.info, bob2.bob_pk, bob2.ciphertext, index=alice.coin_index
    )
    parties = ((alice, bob, offer), (alice2, bob2, offer2))
    for a, b, o in parties:  # both warranties valid: the coin is not deposited yet
        a.receive_key(b.accept(o, a.ciphertext))
    t = time.time()
    for _a, b, o in parties:  # Alice withholds her key from both
        arbiter.complain(o, b.ciphertext, b._key, at=t)
        assert b.resolve(arbiter, at=t + WINDOW) == "endorsed"
    assert bob.paid.accepted
    assert (bob2.paid.accepted, bob2.paid.reason, bob2.paid.double_spender) == (
        False,
        "double-spend",
        name,
    )


def test_a_barter_offer_with_a_flipped_bit_is_malformed_or_refused_by_bob(world):
    bank, arbiter, _ = world
    alice, bob, offer, _ = _start(bank, arbiter)
    wire = offer.to_bytes()
    malformed = refused = 0
    step = max(1, len(wire) // 24)
    for pos in range(0, len(wire), step):
        flipped = bytearray(wire)
        flipped[pos] ^= 1 << (pos % 8)
        try:
            bad = BarterOffer.from_bytes(bytes(flipped))
        except ExchangeError:
            malformed += 1
            continue
        with pytest.raises(ExchangeError):
            bob.accept(bad, alice.ciphertext)
        refused += 1
    assert malformed + refused >= 24 and bob.offer is None
    # the untouched offer still goes through
    k_b = bob.accept(offer, alice.ciphertext)
    assert alice.receive_key(k_b) and bob.receive_key(alice._key) == A_FILE
