"""Endorsed e-cash (Camenisch–Lysyanskaya–Meyerovich 2007), as Cashlib uses it for optimistic
fair exchange: a spend split into an *unendorsed coin* and its *endorsement*.

The buyer draws a fresh secret `x` (the endorsement) and spends a coin *bound to*
`X = x·G` (`ecash.make_spend(..., endorsement=x)`): the spend's proof, under its own
Fiat–Shamir step `"ecash/spend/endorsed"`, hashes `X` into its context, proves
`X = x·G` (knowledge of `x`) in the same sigma statement as the coin, and its tag's `R` hashes
`X`. The bank deposits such a coin only together with `x` (it recomputes `X = x·G` and
verifies the proof for that `X`):

* the unendorsed coin alone is worthless to its holder: a plain deposit checks the plain
  step (the proof does not verify), an endorsed deposit needs `x`, the discrete log of `X`;
* nobody can rebind it to an `X'` of their own (the proof hashes `X`), and `x` completes
  exactly this coin (another `x'` gives another `X'`, the proof does not verify);
* a buyer may hand unendorsed copies of one coin (fresh `x` each) to several sellers; only an
  endorsed coin is money, and two endorsed coins of one serial have two `R` (each `R` hashes
  its `X`), so the bank's double-spend identification works unchanged.

The endorsement is escrowed to the arbiter (`zeenot.cashlib.escrow`) as the value committed in
`X` itself, with blinding 0 (`X = x·G + 0·H`), under a label naming the exchange
(`exchange_label`: the seller, `info`, the serial, `X`, the contract). The escrow proves
`X = v·G + r·H` for the `v` it encrypts; the coin proves `X = x·G`: by the binding of Pedersen
commitments (`log_G H` unknown) `r = 0` and `v = x`, so the arbiter's decryption is the
endorsement. The seller checks both before it delivers (`verify_offer`): the bank (the only
party that can verify a keyed-verification coin) says the coin is valid and its serial not yet
deposited, and the escrow verifies against `X`, the arbiter's key and the exchange's label.

The fair-exchange protocols themselves (buy, barter) are not here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from zeenot.babyjub import BASE8, Point, random_scalar
from zeenot.cashlib import escrow as _escrow
from zeenot.cashlib import group
from zeenot.cashlib.ecash import Spend, Wallet
from zeenot.cashlib.group import IDENTITY, L, Reader
from zeenot.errors import ZeenotError

__all__ = [
    "EndorsedCoin",
    "EndorsementError",
    "UnendorsedCoin",
    "endorse",
    "endorse_from_decryption",
    "escrow_endorsement",
    "exchange_label",
    "spend_unendorsed",
    "verify_offer",
]

_LABEL = b"zeenot/cashlib/endorsed/label/v1"


class EndorsementError(ZeenotError, ValueError):
    """An endorsement that does not complete the coin, or a malformed coin."""


@dataclass(frozen=True)
class UnendorsedCoin:
    """A spend bound to `endorsement_key` `X = x·G`, deposited only with `x`.
    `to_bytes()`: `X` (32 bytes, packed) then the spend."""

    spend: Spend
    endorsement_key: Point

    @property
    def serial(self) -> Point:
        return self.spend.serial

    def to_bytes(self) -> bytes:
        return group.pack(self.endorsement_key) + self.spend.to_bytes()

    @classmethod
    def from_bytes(cls, data: Any) -> UnendorsedCoin:
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"an unendorsed coin is bytes, got {type(data).__name__}")
        data = bytes(data)
        try:
            key = Reader(data[:32], "unendorsed coin").point()
            spend = Spend.from_bytes(data[32:])
        except ValueError as e:  # CredentialError: truncated, a bad point, trailing bytes
            raise EndorsementError(f"a malformed unendorsed coin: {e}") from None
        if key == IDENTITY:
            raise EndorsementError("an unendorsed coin's key is the identity")
        return cls(spend, key)


@dataclass(frozen=True, repr=False)
class EndorsedCoin:
    """An unendorsed coin with its endorsement `x` (`x·G = X` checked when made by `endorse`):
    what the seller deposits (`bank.deposit(coin.spend, merchant, info,
    endorsement=coin.endorsement)`)."""

    coin: UnendorsedCoin
    endorsement: int

    def __repr__(self) -> str:  # never print the endorsement: it is money
        return f"<EndorsedCoin serial={group.pack(self.coin.serial).hex()[:16]}…>"

    @property
    def spend(self) -> Spend:
        return self.coin.spend


def spend_unendorsed(
    wallet: Wallet,
    merchant_id: bytes,
    info: bytes,
    *,
    index: int | None = None,
    seed: int | None = None,
    endorsement: int | None = None,
) -> tuple[UnendorsedCoin, int]:
    """The buyer's side: the next coin of `wallet` (or coin `index`) to `merchant_id` for
    `info`, unendorsed, and its endorsement `x` (keep it secret until the exchange says to
    release it): a fresh one, or `endorsement` — the coins of one payment share their `x`, so
    that releasing it pays them all (`exchange.Contract.price`)."""
    if endorsement is None:
        x = random_scalar() or 1
    elif isinstance(endorsement, bool) or not isinstance(endorsement, int):
        raise TypeError("an endorsement is an integer")
    elif endorsement % L == 0:
        raise EndorsementError("an endorsement is not 0")
    else:
        x = endorsement % L
    spend = wallet.spend(merchant_id, info, index=index, seed=seed, endorsement=x)
    return UnendorsedCoin(spend, x * BASE8), x


def exchange_label(
    coin: UnendorsedCoin | Sequence[UnendorsedCoin],
    merchant_id: bytes,
    info: bytes,
    contract: bytes,
) -> bytes:
    """The escrow's label: this module's domain, the seller, `info`, the serial of the coin (or
    of each coin of a payment, in order: they share one `X`), `X`, and the exchange's `contract`
    (what the arbiter is asked to honour). An escrow under it does not verify for another coin
    or set of coins, another seller or another contract."""
    for name, v in (("merchant_id", merchant_id), ("info", info), ("contract", contract)):
        if not isinstance(v, (bytes, bytearray)):
            raise TypeError(f"{name} must be bytes")
    coins = [coin] if isinstance(coin, UnendorsedCoin) else list(coin)
    if not coins or any(c.endorsement_key != coins[0].endorsement_key for c in coins):
        raise EndorsementError("a payment's coins are one or more coins bound to one X")
    return group.frame(
        _LABEL,
        bytes(merchant_id),
        bytes(info),
        *(group.pack(c.serial) for c in coins),
        group.pack(coins[0].endorsement_key),
        bytes(contract),
    )


def escrow_endorsement(
    coin: UnendorsedCoin,
    endorsement: int,
    arbiter_pk: Point,
    label: bytes,
    *,
    seed: int | None = None,
) -> _escrow.Escrow:
    """The buyer's escrow of `x` to the arbiter under `label`: the value committed in `X` with
    blinding 0. `EndorsementError` if `x` is not the coin's endorsement."""
    x = _checked(coin, endorsement)
    return _escrow.escrow(x, 0, coin.endorsement_key, arbiter_pk, label, seed=seed)


class CoinChecker(Protocol):
    """What a seller asks the bank (`ecash.Bank` or `bank.BankStore`; merchant ids as the bank
    takes them)."""

    def check_unendorsed(
        self, spend: Any, merchant: Any, info: bytes, endorsement_key: Point
    ) -> bool: ...


def verify_offer(
    bank: CoinChecker,
    coin: UnendorsedCoin,
    esc: _escrow.Escrow | bytes,
    merchant: Any,
    info: bytes,
    arbiter_pk: Point,
    label: bytes,
    more: Sequence[UnendorsedCoin] = (),
) -> bool:
    """The seller's check before it delivers: the escrow encrypts the coin's endorsement to
    `arbiter_pk` under `label`, and the bank says the coin — and each of `more`, a payment's
    further coins, bound to the same `X` — is an unendorsed coin for this seller and `info`,
    bound to `X`, whose serial is not deposited. (The escrow is checked first: it needs no
    round trip.)"""
    x_key = coin.endorsement_key
    if x_key == IDENTITY or any(c.endorsement_key != x_key for c in more):
        return False
    if len({group.pack(c.serial) for c in (coin, *more)}) != 1 + len(more):
        return False  # one coin twice in one payment
    if not _escrow.verify_escrow(esc, x_key, arbiter_pk, label):
        return False
    return all(bank.check_unendorsed(c.spend, merchant, info, x_key) for c in (coin, *more))


def endorse(coin: UnendorsedCoin, endorsement: int) -> EndorsedCoin:
    """The coin completed by `x` (from the buyer, or the arbiter): `EndorsementError` unless
    `x·G = X`."""
    return EndorsedCoin(coin, _checked(coin, endorsement))


def endorse_from_decryption(
    coin: UnendorsedCoin,
    esc: _escrow.Escrow | bytes,
    arbiter_pk: Point,
    label: bytes,
    decryption: _escrow.Decryption,
) -> EndorsedCoin:
    """The seller's coin completed by the arbiter's decryption of the escrow: the decryption's
    proof is checked (`EndorsementError` if it does not verify) and its value endorses the
    coin."""
    if not _escrow.verify_decryption(esc, coin.endorsement_key, arbiter_pk, label, decryption):
        raise EndorsementError("the arbiter's decryption does not verify for this coin and label")
    return endorse(coin, decryption.value)


def _checked(coin: UnendorsedCoin, endorsement: int) -> int:
    if isinstance(endorsement, bool) or not isinstance(endorsement, int):
        raise TypeError("an endorsement is an integer")
    x = endorsement % L
    if x == 0 or x * BASE8 != coin.endorsement_key:
        raise EndorsementError("this is not the coin's endorsement")
    return x
