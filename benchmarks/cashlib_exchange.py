"""The fair-exchange BUY and BARTER protocols (`zeenot.cashlib.exchange`, `.barter`), step by step.

    python benchmarks/cashlib_exchange.py [--reps 10] [--size 1048576] [--json OUT]

With the stored bank (`bank.BankStore`, `2^10` coins per wallet) and the arbiter over one SQLite
file in a temporary directory: the seller's setup (fresh key, the file under
ChaCha20-Poly1305), the buyer's `pay` (an unendorsed coin and the escrow of its endorsement),
the seller's `accept` (the contract, the escrow and the bank's check), the buyer's
`receive_key` (decrypt and hash), the seller's `endorse` (the coin completed by the buyer's
`x`) and `deposit` (the bank verifies and stores it; `finish` is both); the whole
honest exchange; and a resolution (the arbiter's `resolve` — decrypt the file, check and decrypt
the escrow, record — with the seller's check and deposit). Then the barter (two files of `size`
bytes): Alice's `offer_to` (coin and escrow), Bob's `accept`, Alice's `receive_key`, Bob's
`receive_key`, the honest barter end to end; a dispute answered (Bob's complaint, Alice's
answer) and one paid out (the complaint, the arbiter's decryption once the window closed, Bob's
check and deposit). The bytes of each message, and the seed's Table 2 (Cashlib, 80-bit
security) beside the buy protocol's four stages. The seed gives each stage's time and bytes but
not its content; Cashlib's own test driver (`testBuy` in its `Tests.cpp`) times the buy
protocol as: the seller's ciphertext, the buyer's buy message, the seller's check of it and
its key, the buyer's decryption and endorsement, the seller's endorsement of the coin ("the
transaction is complete"); Table 2's four timed stages are its last four (the deposit at the
bank is not among them: Cashlib times the bank's coin check in `testCoin`), and they are paired
so here: `buyer_pay`, `seller_accept`, `buyer_receive_key`, `seller_endorse`.

Each figure is the median of `reps` runs in milliseconds, the fastest beside it (`_min_ms`).
The machine's load (`os.getloadavg`) is printed with the results: timings on a shared machine,
not a test.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from zeenot.babyjub import BASE8, keygen, random_scalar
from zeenot.cashlib import ecash
from zeenot.cashlib.bank import BankStore
from zeenot.cashlib.barter import AliceBarter, BarterArbiter, BobBarter
from zeenot.cashlib.exchange import Arbiter, BuyerExchange, SellerExchange
from zeenot.runtime.store import Store

LEVEL = 10
# Cashlib's Table 2 (the seed): stage, ms, bytes
TABLE_2 = [(1, 881.32, 20093), (2, 276.98, 1167), (3, 18.28, 22526), (4, 1.18, 47286)]
BUY_STAGES = ["buyer_pay", "seller_accept", "buyer_receive_key", "seller_endorse"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--size", type=int, default=1 << 20, help="the file's size in bytes")
    ap.add_argument("--json", help="write the results here too")
    args = ap.parse_args()
    load = os.getloadavg()
    data = secrets.token_bytes(args.size)
    file_sha = hashlib.sha256(data).digest()
    steps: dict[str, list[float]] = {}

    def timed(name: str, f: Any, *a: Any, **kw: Any) -> Any:
        start = time.perf_counter()
        r = f(*a, **kw)
        steps.setdefault(name, []).append(time.perf_counter() - start)
        return r

    with tempfile.TemporaryDirectory() as tmp:
        store = Store(str(Path(tmp) / "cash.db"))
        bank = BankStore(store, level=LEVEL)
        sk, _ = keygen()
        arbiter = Arbiter(store, sk)
        u = random_scalar()
        bank.open_account("alice", u * BASE8)
        req, state = ecash.withdrawal_request(bank.params, u)
        wallet = ecash.finish_withdrawal(state, bank.withdraw("alice", u * BASE8, req), LEVEL)
        deadline = int(time.time()) + 3600
        for _ in range(args.reps):
            start = time.perf_counter()
            seller = timed(
                "seller_setup", SellerExchange, data, "shop", bank, arbiter.public_key,
                deadline=deadline,
            )  # fmt: skip
            buyer = BuyerExchange(wallet, file_sha, arbiter.public_key, deadline=deadline)
            offer = timed(
                "buyer_pay", buyer.pay, seller.merchant_id, seller.info, seller.ciphertext
            )
            key = timed("seller_accept", seller.accept, offer)
            x = timed("buyer_receive_key", buyer.receive_key, key)
            done = timed("seller_endorse", seller.endorse, x)
            assert timed("seller_deposit", seller.deposit, done).accepted
            finish = steps["seller_endorse"][-1] + steps["seller_deposit"][-1]
            steps.setdefault("seller_finish", []).append(finish)
            steps.setdefault("honest_exchange", []).append(time.perf_counter() - start)
            # the same with the buyer withholding x: the seller resolves
            seller = SellerExchange(data, "cafe", bank, arbiter.public_key, deadline=deadline)
            buyer = BuyerExchange(wallet, file_sha, arbiter.public_key, deadline=deadline)
            buyer.receive_key(
                seller.accept(buyer.pay(seller.merchant_id, seller.info, seller.ciphertext))
            )
            assert timed("resolution", seller.resolve, arbiter).accepted
        sizes = {
            "file_bytes": args.size,
            "ciphertext_bytes": len(seller.ciphertext),
            "buy_offer_bytes": len(offer.to_bytes()),
            "key_bytes": len(key),
            "endorsement_bytes": 32,
        }
        barter_arbiter = BarterArbiter(store, sk)
        other = secrets.token_bytes(args.size)
        other_sha = hashlib.sha256(other).digest()

        def pair() -> tuple[AliceBarter, BobBarter]:
            a = AliceBarter(wallet, data, other_sha, sk * BASE8, deadline=deadline, window=60)
            b = BobBarter(other, file_sha, "bob", bank, sk * BASE8, deadline=deadline, window=60)
            return a, b

        for _ in range(args.reps):
            start = time.perf_counter()
            alice, bob = timed("barter_setup", pair)
            boffer = timed(
                "alice_offer", alice.offer_to, bob.merchant_id, bob.info, bob.bob_pk,
                bob.ciphertext,
            )  # fmt: skip
            kb = timed("bob_accept", bob.accept, boffer, alice.ciphertext)
            ka = timed("alice_receive_key", alice.receive_key, kb)
            timed("bob_receive_key", bob.receive_key, ka)
            steps.setdefault("honest_barter", []).append(time.perf_counter() - start)
            # Alice withholds k_A and answers the complaint
            alice, bob = pair()
            boffer = alice.offer_to(bob.merchant_id, bob.info, bob.bob_pk, bob.ciphertext)
            alice.receive_key(bob.accept(boffer, alice.ciphertext))
            timed("bob_complain", bob.complain, barter_arbiter)
            timed("alice_answer", alice.answer, barter_arbiter)
            # Alice withholds k_A and is away: Bob is paid after the window
            alice, bob = pair()
            boffer = alice.offer_to(bob.merchant_id, bob.info, bob.bob_pk, bob.ciphertext)
            alice.receive_key(bob.accept(boffer, alice.ciphertext))
            t = time.time()
            bob.complain(barter_arbiter, at=t)
            assert timed("bob_paid_out", bob.resolve, barter_arbiter, at=t + 60) == "endorsed"
            assert bob.paid is not None and bob.paid.accepted
        sizes["barter_offer_bytes"] = len(boffer.to_bytes())
        sizes["key_proof_bytes"] = len(bob.proof(sk * BASE8).to_bytes())
    out: dict[str, float] = {}
    for name, times in steps.items():
        out[f"{name}_ms"] = 1000 * statistics.median(times)
        out[f"{name}_min_ms"] = 1000 * min(times)
    out.update(sizes)
    out["load_1m"] = load[0]
    for k, v in out.items():
        print(f"{k:28} {v:12.1f}")
    print("\nbuy, beside Cashlib's Table 2 (80-bit; the stages of Cashlib's testBuy):")
    for (stage, ms, nbytes), name in zip(TABLE_2, BUY_STAGES, strict=True):
        print(
            f"  stage {stage}: {ms:8.2f} ms {nbytes:6d} B | {name:18} "
            f"{out[name + '_ms']:8.2f} ms (min {out[name + '_min_ms']:.2f})"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
