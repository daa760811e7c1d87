"""Endorsed e-cash (`zeenot.cashlib.endorsed`) beside the plain spend it extends.

    python benchmarks/cashlib_endorsed.py [--reps 20] [--escrow-reps 5] [--json OUT]

With a bank of `2^10` coins per wallet (the in-memory `ecash.Bank`): a plain spend's prove and
deposit (verify + ledger) against an unendorsed coin's prove (`spend_unendorsed`), the bank's
`check_unendorsed` (what a seller asks before delivering) and the endorsed deposit; the
buyer's `escrow_endorsement`, the seller's `verify_offer` (escrow + the bank's check), the
arbiter's `decrypt` plus the seller's `endorse_from_decryption`; sizes in bytes.

Each figure is the median of `reps` runs in milliseconds, the fastest beside it (`_min_ms`). The
machine's load (`os.getloadavg`) is printed with the results: timings on a shared machine, not
a test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from zeenot.babyjub import BASE8, keygen, random_scalar
from zeenot.cashlib import ecash, endorsed, escrow

LEVEL = 10


def _time(out: dict[str, float], name: str, reps: int, f: Callable[[], Any]) -> None:
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    out[f"{name}_ms"] = 1000 * statistics.median(times)
    out[f"{name}_min_ms"] = 1000 * min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--escrow-reps", type=int, default=5)
    ap.add_argument("--json", help="write the results here too")
    args = ap.parse_args()
    load = os.getloadavg()
    bank = ecash.Bank(level=LEVEL)
    u = random_scalar()
    bank.open_account("alice", u * BASE8)
    req, state = ecash.withdrawal_request(bank.params, u)
    wallet = ecash.finish_withdrawal(state, bank.withdraw("alice", u * BASE8, req), LEVEL)
    out: dict[str, float] = {}
    shop = b"shop"

    def infos() -> Iterator[bytes]:
        while True:
            yield ecash.merchant_info()

    # warm-up (tables, generators)
    info = ecash.merchant_info()
    bank.deposit(wallet.spend(shop, info), shop, info)

    plain = [(i, wallet.spend(shop, i)) for i, _ in zip(infos(), range(args.reps), strict=False)]
    _time(out, "plain_spend", args.reps, lambda: wallet.spend(shop, info))
    it = iter(plain)

    def deposit_plain() -> None:
        i, sp = next(it)
        assert bank.deposit(sp, shop, i).accepted

    _time(out, "plain_deposit", args.reps, deposit_plain)

    coins = [
        (i, *endorsed.spend_unendorsed(wallet, shop, i))
        for i, _ in zip(infos(), range(args.reps), strict=False)
    ]
    _time(out, "unendorsed_spend", args.reps, lambda: endorsed.spend_unendorsed(wallet, shop, info))
    i0, c0, x0 = coins[0]
    _time(
        out,
        "check_unendorsed",
        args.reps,
        lambda: bank.check_unendorsed(c0.spend, shop, i0, c0.endorsement_key),
    )
    it2 = iter(coins)

    def deposit_endorsed() -> None:
        i, c, x = next(it2)
        assert bank.deposit(c.spend, shop, i, endorsement=x).accepted

    _time(out, "endorsed_deposit", args.reps, deposit_endorsed)

    sk, pk = keygen()
    info = ecash.merchant_info()
    coin, x = endorsed.spend_unendorsed(wallet, shop, info)
    label = endorsed.exchange_label(coin, shop, info, b"contract 42")
    esc = endorsed.escrow_endorsement(coin, x, pk, label)
    r = args.escrow_reps
    _time(out, "escrow_endorsement", r, lambda: endorsed.escrow_endorsement(coin, x, pk, label))
    _time(
        out,
        "verify_offer",
        r,
        lambda: endorsed.verify_offer(bank, coin, esc, shop, info, pk, label),
    )

    def arbiter() -> None:
        dec = escrow.decrypt(sk, esc, coin.endorsement_key, label)
        endorsed.endorse_from_decryption(coin, esc, pk, label, dec)

    _time(out, "arbiter_decrypt_and_endorse", r, arbiter)
    out["plain_spend_bytes"] = len(plain[0][1].to_bytes())
    out["unendorsed_coin_bytes"] = len(coin.to_bytes())
    out["escrow_bytes"] = len(esc.to_bytes())
    out["endorsement_bytes"] = 32
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    for k, v in out.items():
        print(f"{k:36} {v:10.2f}" if k.endswith("ms") else f"{k:36} {int(v):10d}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"load": load, **out}, f, indent=1)


if __name__ == "__main__":
    main()
