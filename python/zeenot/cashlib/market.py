"""The market's buyer: a client of the bank, the arbiter and sellers over HTTP that buys files for
coins (`exchange.BuyerExchange`) and barters its files for theirs (`barter.AliceBarter`), and a
CLI. The four parties are four processes: the bank (`python -m zeenot.cashlib.bank`), the
arbiter (`python -m zeenot.cashlib.arbiter_server`), sellers (`python -m
zeenot.cashlib.seller_server`) and this buyer (`python -m zeenot.cashlib.market buy|barter`);
`examples/market/run.py` starts a whole market.

The buyer trusts the arbiter it names (its key comes from that URL) and refuses a seller whose
session names another; it refuses a deadline closer than `MIN_DEADLINE_S`. What the buyer does
when the other side cheats is the protocols' (docs/cashlib.md): a wrong file is refused and
`x` (or `k_A`) kept; a seller that sends no key leaves the coin unspent, free again after the
deadline (`Purchase.coin_index`); as Alice it watches the arbiter until the deadline plus the
window (`watch`) and answers a complaint with its key.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any

import httpx

from zeenot.babyjub import BASE8, random_scalar
from zeenot.cashlib import ecash, group
from zeenot.cashlib.barter import AliceBarter
from zeenot.cashlib.clients import ArbiterClient, BankClient
from zeenot.cashlib.exchange import BuyerExchange, ExchangeError

__all__ = ["MarketBuyer", "Purchase", "main"]

MIN_DEADLINE_S = 5


@dataclass
class Purchase:
    """One exchange from the buyer's side: `state` is `"done"`, `"refused"` (the other side's
    file or key was wrong: nothing released), `"no-key"` (the seller sent none) or
    `"withheld"` (this buyer chose not to finish: a test's or demo's cheating buyer)."""

    state: str
    party: Any
    session: str
    seller: str
    file: bytes | None = None
    deposit: str | None = None
    coin_index: int | tuple[int, ...] | None = None  # what `buy(index=...)` takes to pay again


class MarketBuyer:
    """A buyer with an account at the bank (key `u`) and a wallet withdrawn from it."""

    def __init__(self, bank_url: str, arbiter_url: str, account: str, u: int | None = None):
        self.bank = BankClient(bank_url)
        self.arbiter = ArbiterClient(arbiter_url)
        self.account = account
        self.u = random_scalar() if u is None else u
        self.bank.open_account(account, self.u * BASE8)
        self.wallet: ecash.Wallet = self.bank.withdraw_wallet(account, self.u)
        self.http = httpx.Client(timeout=60.0)

    def __repr__(self) -> str:  # never print u
        return f"<MarketBuyer {self.account!r}: {self.wallet!r}>"

    def _post(self, url: str, body: dict[str, Any]) -> dict[str, Any]:
        r = self.http.post(url, json=body)
        try:
            doc = r.json()
        except ValueError:
            raise ExchangeError(f"{url}: {r.status_code} (not JSON)") from None
        if r.status_code != 200:
            raise ExchangeError(f"{url}: {r.status_code} {doc.get('error')}")
        return doc

    def _check_session(self, doc: dict[str, Any]) -> None:
        if bytes.fromhex(doc["arbiter_pk"]) != group.pack(self.arbiter.public_key):
            raise ExchangeError("the seller names another arbiter")

    def catalog(self, seller: str) -> dict[str, Any]:
        r = self.http.get(f"{seller}/catalog")
        r.raise_for_status()
        return r.json()

    def buy(
        self,
        seller: str,
        file_sha256: bytes,
        *,
        index: int | tuple[int, ...] | None = None,
        withhold: bool = False,
        max_price: int = 1,
    ) -> Purchase:
        """Buy the file whose SHA-256 is `file_sha256` for the seller's price in coins (the
        next ones, or those of `index`: a purchase's `coin_index`), if at most `max_price`."""
        merchant = self.catalog(seller)["merchant"]
        doc = self._post(f"{seller}/buy/start", {"file": file_sha256.hex()})
        self._check_session(doc)
        if doc["deadline"] < time.time() + MIN_DEADLINE_S:
            raise ExchangeError("the seller's deadline is too close")
        price = doc.get("price", 1)
        if isinstance(price, bool) or not isinstance(price, int) or not 1 <= price <= max_price:
            raise ExchangeError(f"the seller asks {price!r} coins, more than {max_price}")
        party = BuyerExchange(
            self.wallet, file_sha256, self.arbiter.public_key, deadline=doc["deadline"]
        )
        ct = bytes.fromhex(doc["ciphertext"])
        offer = party.pay(
            merchant.encode(), bytes.fromhex(doc["info"]), ct, index=index, price=price
        )
        again = party.coin_index if price == 1 else party.coin_indices
        p = Purchase("no-key", party, doc["session"], seller, coin_index=again)
        try:
            got = self._post(
                f"{seller}/buy/offer", {"session": p.session, "offer": offer.to_bytes().hex()}
            )
        except (ExchangeError, httpx.TransportError):
            return p  # no key: x stays here, the coin is free after the deadline
        try:
            x = party.receive_key(bytes.fromhex(got["key"]))
        except ExchangeError:
            p.state = "refused"
            return p
        p.file = party.file
        if withhold:
            p.state = "withheld"
            return p
        end = self._post(
            f"{seller}/buy/endorse",
            {"session": p.session, "endorsement": (x % group.L).to_bytes(32, "little").hex()},
        )
        p.state, p.deposit = "done", end["status"]
        return p

    def barter(
        self,
        seller: str,
        data: bytes,
        want_sha256: bytes,
        *,
        deadline_s: int | None = None,
        window: int = 60,
        withhold: bool = False,
        index: int | None = None,
    ) -> Purchase:
        """Barter `data` for the seller's file whose SHA-256 is `want_sha256`, warranted by a
        coin (Alice's side). The deadline is `deadline_s` from now (the seller's, by default)."""
        cat = self.catalog(seller)
        merchant = cat["merchant"]
        deadline = int(time.time()) + (int(cat["deadline"]) if deadline_s is None else deadline_s)
        party = AliceBarter(
            self.wallet,
            data,
            want_sha256,
            self.arbiter.public_key,
            deadline=deadline,
            window=window,
        )
        doc = self._post(
            f"{seller}/barter/start",
            {
                "file": want_sha256.hex(),
                "want": party.file_sha256.hex(),
                "ciphertext": party.ciphertext.hex(),
                "deadline": deadline,
                "window": window,
            },
        )
        self._check_session(doc)
        offer = party.offer_to(
            merchant.encode(),
            bytes.fromhex(doc["info"]),
            group.unpack(bytes.fromhex(doc["bob_pk"])),
            bytes.fromhex(doc["ciphertext"]),
            index=index,
        )
        p = Purchase("no-key", party, doc["session"], seller, coin_index=party.coin_index)
        try:
            got = self._post(
                f"{seller}/barter/offer", {"session": p.session, "offer": offer.to_bytes().hex()}
            )
        except (ExchangeError, httpx.TransportError):
            return p
        try:
            k_a = party.receive_key(bytes.fromhex(got["key"]))
        except ExchangeError:
            p.state = "refused"
            return p
        p.file = party.peer_file
        if withhold:
            p.state = "withheld"
            return p
        self._post(f"{seller}/barter/key", {"session": p.session, "key": k_a.hex()})
        p.state = "done"
        return p

    def watch(self, purchase: Purchase, *, until: float, every: float = 0.5) -> str | None:
        """As Alice: poll the arbiter until `until` (Unix time); answer a complaint with `k_A`
        (taking `k_B`). The dispute's state once answered or decided, else `None`."""
        party = purchase.party
        while time.time() < until:
            state = self.arbiter.dispute_state(party.offer)
            if state == "pending":
                party.answer(self.arbiter)
                purchase.file = party.peer_file
                return "swapped"
            if state is not None:
                return state
            time.sleep(every)
        return None


def main(argv: list[str] | None = None) -> None:
    """`python -m zeenot.cashlib.market buy --bank URL --arbiter URL --seller URL --file SHA
    --out PATH [--max-price COINS]` or `... barter --give PATH --file SHA --out PATH`."""
    import argparse
    from pathlib import Path

    ap = argparse.ArgumentParser(description="the market's buyer (zeenot.cashlib)")
    ap.add_argument("mode", choices=("buy", "barter"))
    ap.add_argument("--bank", required=True)
    ap.add_argument("--arbiter", required=True)
    ap.add_argument("--seller", required=True)
    ap.add_argument("--account", default=None, help="a new account's name (random by default)")
    ap.add_argument("--file", required=True, help="SHA-256 (hex) of the seller's file wanted")
    ap.add_argument("--give", type=Path, help="barter: the file given in exchange")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument(
        "--watch",
        action="store_true",
        help="barter: stay until the deadline plus the window, answering a complaint",
    )
    ap.add_argument("--window", type=int, default=60, help="barter: the answer window, seconds")
    ap.add_argument("--max-price", type=int, default=1, help="buy: the most coins to pay")
    args = ap.parse_args(argv)
    account = args.account or f"buyer-{random_scalar() % 10**12}"
    buyer = MarketBuyer(args.bank, args.arbiter, account)
    want = bytes.fromhex(args.file)
    if args.mode == "buy":
        p = buyer.buy(args.seller, want, max_price=args.max_price)
    else:
        if args.give is None:
            ap.error("barter needs --give")
        p = buyer.barter(args.seller, args.give.read_bytes(), want, window=args.window)
        if args.watch and p.state == "done":
            until = p.party.deadline + p.party.window
            print(f"barter: done; watching the arbiter until {until} (Unix time)", flush=True)
            print(f"barter: dispute {buyer.watch(p, until=until) or 'none'}")
        elif p.state == "done":
            print(
                "barter: done; until the deadline plus the window the seller may still complain"
                " to the arbiter (answer with --watch)"
            )
    if p.file is not None and hashlib.sha256(p.file).digest() == want:
        args.out.write_bytes(p.file)
    print(f"{args.mode}: {p.state}" + (f" (bank: {p.deposit})" if p.deposit else ""))
    raise SystemExit(0 if p.state == "done" else 1)


if __name__ == "__main__":
    main()
