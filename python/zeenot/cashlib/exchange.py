"""Optimistic fair exchange, the BUY protocol (Küpçü–Lysyanskaya, "Usable optimistic fair
exchange", as Cashlib runs it): a buyer pays one endorsed e-coin for a seller's file, and an
arbiter is needed only when a party cheats or stops.

The parties agree beforehand on the file's description, here the SHA-256 of the expected file
(`file_sha256`), on the arbiter (its Baby Jubjub key) and on a deadline. Then:

1. seller → buyer: the file encrypted under a fresh 32-byte key (`SellerExchange.ciphertext`:
   ChaCha20-Poly1305 from `cryptography`, a random 12-byte nonce before the ciphertext, the
   associated data binding this module's domain and `file_sha256`), and the `info` its coin must
   name;
2. buyer: the `Contract` (the seller, `info`, `file_sha256`, the SHA-256 of that ciphertext,
   the arbiter's key, the deadline); buyer → seller: an unendorsed coin
   (`zeenot.cashlib.endorsed`) and the escrow of its endorsement `x` to the arbiter under the
   exchange's label (`endorsed.exchange_label(coin, seller, info, contract.to_bytes())`);
3. seller: checks the contract is the one it would write, and the offer (`verify_offer`: the
   escrow verifies against `X`, the arbiter's key and the label; the bank — `ecash.Bank` or
   `bank.BankStore`, whose `/check` is the same call — says the coin is valid and its serial
   not deposited); seller → buyer: the key;
4. buyer: decrypts and checks `sha256(file) == file_sha256`; buyer → seller: `x`;
5. seller: checks `x·G = X` and deposits the endorsed coin.

Resolution (`Arbiter.resolve`): a seller that sent the key and got no (or a wrong) endorsement
brings the contract, the coin, the escrow, the ciphertext and the key before the deadline. The
arbiter checks the escrow under the label the contract gives, that the ciphertext is the one
the contract names, and that the key decrypts it to a file whose SHA-256 is the contract's; only
then it records its decision (one row per exchange, keyed by the SHA-256 of the label, in the
runtime `Store`'s `cash_arbiter_decisions`, migration 0011; the primary key keeps one decision
per exchange, whatever the number of arbiter processes: a repeated request — a seller whose
answer was lost — records nothing and gets the recorded decision again), decrypts the escrow and
gives the seller `x` with its proof of correct decryption, and keeps the key for the buyer
(`Arbiter.key_for`). A wrong file, a wrong key, another ciphertext or a late request is refused
and nothing is recorded: the buyer's coin stays unendorsed, worthless to the seller.

What each party risks: the seller gives the key only for a coin the bank calls valid and an
escrow the arbiter will open, so it is paid (by the buyer or the arbiter) for a file that
matches the contract. The buyer gives `x` only for the right file; if the seller stops before
sending the key, the buyer waits out the deadline (after it the arbiter endorses nothing) and
may spend the same coin again (`BuyerExchange.coin_index`). A buyer that endorses one coin for
two sellers is a double spender, identified by the bank at the second deposit.

Barter (a file for a file) is `zeenot.cashlib.barter`; the four parties as network services
are `zeenot.cashlib.market`.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from zeenot.babyjub import BASE8, SUBGROUP_ORDER, Point
from zeenot.cashlib import ecash, endorsed, escrow, group, keyproof
from zeenot.cashlib.endorsed import EndorsedCoin, UnendorsedCoin
from zeenot.errors import ZeenotError
from zeenot.runtime.store import Store, now

__all__ = [
    "Arbiter",
    "BuyerExchange",
    "Contract",
    "ExchangeError",
    "Offer",
    "Resolution",
    "SellerExchange",
    "decrypt_file",
    "encrypt_file",
    "exchange_id",
]

_CONTRACT = b"zeenot/cashlib/exchange/buy/contract/v1"
_AEAD = b"zeenot/cashlib/exchange/buy/file/v1"
_OFFER = b"zeenot/cashlib/exchange/buy/offer/v1"
KEY_BYTES = 32
NONCE_BYTES = 12
MAX_FILE_BYTES = 1 << 30
MAX_ID_BYTES = 1024
MAX_OFFER_BYTES = 1 << 16
MAX_PRICE = 16  # coins in one payment (an offer of 16 coins is ~35 kB)
FOR_BUYER = b"buy/key-for-buyer"


class ExchangeError(ZeenotError, ValueError):
    """A step of the exchange refused: a contract, offer, key, endorsement or resolution that
    does not check out (the message says which)."""


def _bytes(v: Any, name: str, size: int | None = None, limit: int = MAX_ID_BYTES) -> bytes:
    if not isinstance(v, (bytes, bytearray, memoryview)):
        raise TypeError(f"{name} must be bytes, got {type(v).__name__}")
    v = bytes(v)
    if size is not None and len(v) != size:
        raise ExchangeError(f"{name} is {len(v)} bytes, not {size}")
    if len(v) > limit:
        raise ExchangeError(f"{name} is {len(v)} bytes, more than {limit}")
    return v


def _unframe(data: Any, what: str, domain: bytes, count: int, limit: int) -> list[bytes]:
    """The `count` parts after `domain` of a `group.frame`; `ExchangeError` otherwise."""
    data = _bytes(data, f"an {what}" if what[0] in "aeiou" else f"a {what}", limit=limit)
    parts = _unframe_any(data, what, count + 1)
    if len(parts) != count + 1 or parts[0] != domain:
        raise ExchangeError(f"a malformed {what}")
    return parts[1:]


def _unframe_any(data: bytes, what: str, most: int) -> list[bytes]:
    """The parts of a `group.frame` of at most `most` parts; `ExchangeError` otherwise."""
    parts: list[bytes] = []
    at = 0
    while at < len(data):
        n = int.from_bytes(data[at : at + 8], "little") if len(data) - at >= 8 else -1
        if not 0 <= n <= len(data) - at - 8:
            raise ExchangeError(f"a malformed {what}: truncated")
        if len(parts) == most:
            raise ExchangeError(f"a malformed {what}")
        parts.append(data[at + 8 : at + 8 + n])
        at += 8 + n
    return parts


def encrypt_file(key: bytes, data: bytes, file_sha256: bytes) -> bytes:
    """`nonce ‖ ChaCha20-Poly1305(key, nonce, data, aad = domain ‖ file_sha256)`."""
    key = _bytes(key, "the key", KEY_BYTES)
    data = _bytes(data, "the file", limit=MAX_FILE_BYTES)
    nonce = secrets.token_bytes(NONCE_BYTES)
    aad = group.frame(_AEAD, _bytes(file_sha256, "file_sha256", 32))
    return nonce + ChaCha20Poly1305(key).encrypt(nonce, data, aad)


def decrypt_file(key: bytes, ciphertext: bytes, file_sha256: bytes) -> bytes | None:
    """The file, if `key` opens `ciphertext` and the file's SHA-256 is `file_sha256`; else
    `None` (a wrong key, a tampered ciphertext, another file)."""
    key = _bytes(key, "the key", KEY_BYTES)
    ciphertext = _bytes(ciphertext, "the ciphertext", limit=MAX_FILE_BYTES + 64)
    file_sha256 = _bytes(file_sha256, "file_sha256", 32)
    if len(ciphertext) < NONCE_BYTES + 16:
        return None
    aad = group.frame(_AEAD, file_sha256)
    try:
        data = ChaCha20Poly1305(key).decrypt(
            ciphertext[:NONCE_BYTES], ciphertext[NONCE_BYTES:], aad
        )
    except InvalidTag:
        return None
    return data if hashlib.sha256(data).digest() == file_sha256 else None


@dataclass(frozen=True)
class Contract:
    """What the arbiter is asked to honour: pay `seller` (its merchant id) `price` coins (1 to
    `MAX_PRICE`) for the file whose SHA-256 is `file_sha256`, delivered as the ciphertext whose
    SHA-256 is `ciphertext_sha256`, the coins naming `info`, if resolved by `arbiter_pk` before
    `deadline` (Unix seconds)."""

    seller: bytes
    info: bytes
    file_sha256: bytes
    ciphertext_sha256: bytes
    arbiter_pk: Point
    deadline: int
    price: int = 1

    def __post_init__(self) -> None:
        _bytes(self.seller, "seller")
        _bytes(self.info, "info")
        _bytes(self.file_sha256, "file_sha256", 32)
        _bytes(self.ciphertext_sha256, "ciphertext_sha256", 32)
        if not isinstance(self.arbiter_pk, Point):
            raise TypeError("arbiter_pk must be a babyjub Point")
        if isinstance(self.deadline, bool) or not isinstance(self.deadline, int):
            raise TypeError("deadline is an integer (Unix seconds)")
        if not 0 <= self.deadline < 1 << 63:
            raise ExchangeError("deadline is out of range")
        if isinstance(self.price, bool) or not isinstance(self.price, int):
            raise TypeError("price is an integer (coins)")
        if not 1 <= self.price <= MAX_PRICE:
            raise ExchangeError(f"the price is 1 to {MAX_PRICE} coins")

    def to_bytes(self) -> bytes:
        return group.frame(
            _CONTRACT,
            bytes(self.seller),
            bytes(self.info),
            bytes(self.file_sha256),
            bytes(self.ciphertext_sha256),
            group.pack(self.arbiter_pk),
            self.deadline.to_bytes(8, "little"),
            self.price.to_bytes(2, "little"),
        )

    @classmethod
    def from_bytes(cls, data: Any) -> Contract:
        """`ExchangeError` for anything but a contract's `to_bytes()`."""
        parts = _unframe(data, "contract", _CONTRACT, 7, 4 * MAX_ID_BYTES)
        if len(parts[4]) != 32 or len(parts[5]) != 8 or len(parts[6]) != 2:
            raise ExchangeError("a malformed contract")
        try:
            pk = group.unpack(parts[4])
        except ValueError as e:
            raise ExchangeError(f"a malformed contract: the arbiter's key: {e}") from None
        deadline, price = (int.from_bytes(p, "little") for p in parts[5:])
        return cls(*parts[:4], pk, deadline, price)

    def label(self, coins: UnendorsedCoin | tuple[UnendorsedCoin, ...]) -> bytes:
        """The escrow's label for the payment's coins under this contract."""
        return endorsed.exchange_label(coins, self.seller, self.info, self.to_bytes())


@dataclass(frozen=True)
class Offer:
    """The buyer's payment offer: the contract, the unendorsed coin, the endorsement's escrow,
    and the payment's further coins (`more`: a price of `1 + len(more)` coins), every coin bound
    to the same `X`, so that one endorsement `x` — one escrow — pays them all."""

    contract: Contract
    coin: UnendorsedCoin
    escrow: escrow.Escrow
    more: tuple[UnendorsedCoin, ...] = ()

    def __post_init__(self) -> None:
        if len(self.more) >= MAX_PRICE:
            raise ExchangeError(f"an offer holds 1 to {MAX_PRICE} coins")
        if any(c.endorsement_key != self.coin.endorsement_key for c in self.more):
            raise ExchangeError("an offer's coins are bound to one endorsement key")

    @property
    def coins(self) -> tuple[UnendorsedCoin, ...]:
        return (self.coin, *self.more)

    @property
    def label(self) -> bytes:
        return self.contract.label(self.coins)

    def to_bytes(self) -> bytes:
        more = group.frame(*(c.to_bytes() for c in self.more))
        return group.frame(
            _OFFER, self.contract.to_bytes(), self.coin.to_bytes(), self.escrow.to_bytes(), more
        )

    @classmethod
    def from_bytes(cls, data: Any) -> Offer:
        """`ExchangeError` for anything but an offer's `to_bytes()` (points checked on the curve
        and in the subgroup; the proofs are checked by `SellerExchange.accept`)."""
        contract, coin, esc, more = _unframe(data, "offer", _OFFER, 4, MAX_OFFER_BYTES)
        try:
            return cls(
                Contract.from_bytes(contract),
                UnendorsedCoin.from_bytes(coin),
                escrow.Escrow.from_bytes(esc),
                tuple(
                    UnendorsedCoin.from_bytes(c) for c in _unframe_any(more, "offer", MAX_PRICE - 1)
                ),
            )
        except ValueError as e:  # EndorsementError, EscrowError
            if isinstance(e, ExchangeError):
                raise
            raise ExchangeError(f"a malformed offer: {e}") from None


class SellerExchange:
    """The seller's side of one exchange, selling `data` for `price` coins. `bank` is
    `ecash.Bank` (merchant ids as bytes) or `bank.BankStore` (merchant names as str):
    `merchant` is what it takes."""

    def __init__(
        self,
        data: bytes,
        merchant: Any,
        bank: Any,
        arbiter_pk: Point,
        *,
        deadline: int,
        price: int = 1,
    ):
        self.data = _bytes(data, "the file", limit=MAX_FILE_BYTES)
        self.merchant = merchant
        self.merchant_id = merchant.encode() if isinstance(merchant, str) else bytes(merchant)
        self.bank = bank
        self.arbiter_pk = arbiter_pk
        self.deadline = deadline
        self.file_sha256 = hashlib.sha256(self.data).digest()
        self.info = ecash.merchant_info()
        self._key = secrets.token_bytes(KEY_BYTES)
        self.ciphertext = encrypt_file(self._key, self.data, self.file_sha256)
        self.price = price
        self.offer: Offer | None = None
        self.paid: tuple[EndorsedCoin, ...] | None = None  # every coin of the price deposited
        self.expected_contract()  # a bad price or deadline fails here

    def __repr__(self) -> str:  # never print the key
        return f"<SellerExchange {self.merchant_id!r} file={self.file_sha256.hex()[:16]}…>"

    def expected_contract(self) -> Contract:
        return Contract(
            self.merchant_id,
            self.info,
            self.file_sha256,
            hashlib.sha256(self.ciphertext).digest(),
            self.arbiter_pk,
            self.deadline,
            self.price,
        )

    def accept(self, offer: Offer, *, at: float | None = None) -> bytes:
        """Step 3: check the offer and return the key to send. `ExchangeError` if the contract
        is not this exchange's, the deadline is too close to resolve, or the offer does not
        verify (the escrow, or the bank's check of the coin)."""
        if offer.contract != self.expected_contract():
            raise ExchangeError("the offer's contract is not this exchange's")
        if len(offer.coins) != self.price:
            raise ExchangeError(f"the offer pays {len(offer.coins)} coins, not {self.price}")
        if (time.time() if at is None else at) >= self.deadline:
            raise ExchangeError("the deadline has passed: the arbiter would not resolve")
        if not endorsed.verify_offer(
            self.bank,
            offer.coin,
            offer.escrow,
            self.merchant,
            self.info,
            self.arbiter_pk,
            offer.label,
            offer.more,
        ):
            raise ExchangeError("the offer does not verify (the escrow or a coin)")
        self.offer = offer
        return self._key

    def finish(self, endorsement: int) -> ecash.DepositResult:
        """Step 5: complete the coins with the buyer's `x` and deposit them (`endorse`, then
        `deposit`). `ExchangeError` if `x` is not the endorsement (then go to the arbiter:
        `resolve`)."""
        return self.deposit(self.endorse(endorsement))

    def endorse(self, endorsement: int) -> tuple[EndorsedCoin, ...]:
        """The coins completed by the buyer's `x` (Cashlib's `Seller::endorseCoin`, the last
        step its buy protocol times); `ExchangeError` if `x` is not the endorsement."""
        if self.offer is None:
            raise ExchangeError("no accepted offer")
        try:
            return tuple(endorsed.endorse(c, endorsement) for c in self.offer.coins)
        except (TypeError, ValueError) as e:
            raise ExchangeError(f"the buyer's endorsement: {e}") from None

    def resolve(self, arbiter: Arbiter, *, at: float | None = None) -> ecash.DepositResult:
        """The buyer withheld (or botched) the endorsement: ask the arbiter, check its answer,
        deposit."""
        if self.offer is None:
            raise ExchangeError("no accepted offer")
        res = arbiter.resolve(self.offer, self.ciphertext, self._key, at=at)
        try:
            first = endorsed.endorse_from_decryption(
                self.offer.coin,
                self.offer.escrow,
                self.arbiter_pk,
                self.offer.label,
                res.decryption,
            )
        except ValueError as e:
            raise ExchangeError(f"the arbiter's answer: {e}") from None
        return self.deposit(self.endorse(first.endorsement))

    def deposit(self, done: tuple[EndorsedCoin, ...]) -> ecash.DepositResult:
        """The endorsed coins deposited at the bank (each verified there and stored before it
        answers): accepted when every one is (then `paid`), else the first refusal (the coins
        accepted before it stay deposited: each coin is money of its own)."""
        for coin in done:
            result = self.bank.deposit(
                coin.spend.to_bytes(), self.merchant, self.info, endorsement=coin.endorsement
            )
            if not result.accepted:
                return result
        self.paid = done
        return ecash.DepositResult(True)


class BuyerExchange:
    """The buyer's side of one exchange, for the file whose SHA-256 is `file_sha256`."""

    def __init__(
        self,
        wallet: ecash.Wallet,
        file_sha256: bytes,
        arbiter_pk: Point,
        *,
        deadline: int,
    ):
        self.wallet = wallet
        self.file_sha256 = _bytes(file_sha256, "file_sha256", 32)
        self.arbiter_pk = arbiter_pk
        self.deadline = deadline
        self.ciphertext: bytes | None = None
        self.offer: Offer | None = None
        self.coin_indices: tuple[int, ...] = ()
        self.file: bytes | None = None
        self._x: int | None = None

    def __repr__(self) -> str:  # never print x
        return f"<BuyerExchange file={self.file_sha256.hex()[:16]}…>"

    @property
    def coin_index(self) -> int | None:
        """The payment's first coin (all of them: `coin_indices`)."""
        return self.coin_indices[0] if self.coin_indices else None

    def pay(
        self,
        seller: bytes,
        info: bytes,
        ciphertext: bytes,
        *,
        index: int | tuple[int, ...] | None = None,
        price: int = 1,
    ) -> Offer:
        """Step 2: the contract for this ciphertext at `price` coins, that many unendorsed coins
        of the wallet bound to one fresh endorsement (the next ones, or coins `index`: a
        payment whose exchange expired unresolved), and the endorsement's escrow."""
        self.ciphertext = _bytes(ciphertext, "the ciphertext", limit=MAX_FILE_BYTES + 64)
        contract = Contract(
            _bytes(seller, "seller"),
            _bytes(info, "info"),
            self.file_sha256,
            hashlib.sha256(self.ciphertext).digest(),
            self.arbiter_pk,
            self.deadline,
            price,
        )
        want: list[int | None] = (
            [None] * price if index is None else [index] if isinstance(index, int) else list(index)
        )
        if len(want) != price:
            raise ExchangeError(f"a price of {price} coins is paid with {price} coin indices")
        coins, indices, x = [], [], None
        for i in want:
            indices.append(self.wallet.next_index if i is None else i)
            coin, x = endorsed.spend_unendorsed(self.wallet, seller, info, index=i, endorsement=x)
            coins.append(coin)
        assert x is not None  # price >= 1: the contract checked it
        esc = endorsed.escrow_endorsement(
            coins[0], x, self.arbiter_pk, contract.label(tuple(coins))
        )
        self._x, self.coin_indices = x, tuple(indices)
        self.offer = Offer(contract, coins[0], esc, tuple(coins[1:]))
        return self.offer

    def receive_key(self, key: bytes) -> int:
        """Step 4: decrypt; if the file is the contract's, keep it and return `x` to send.
        `ExchangeError` otherwise (and `x` is not released)."""
        if self.offer is None or self.ciphertext is None or self._x is None:
            raise ExchangeError("no offer made")
        data = decrypt_file(key, self.ciphertext, self.file_sha256)
        if data is None:
            raise ExchangeError("the key does not decrypt the ciphertext to the agreed file")
        self.file = data
        return self._x

    def proof(self, arbiter_pk: Point, *, at: float | None = None) -> keyproof.KeyProof:
        """The buyer's proof, for this exchange, that it holds the endorsement `x`."""
        if self.offer is None or self._x is None:
            raise ExchangeError("no offer made")
        eid = exchange_id(self.offer).encode()
        return keyproof.prove_key(self._x, FOR_BUYER, eid, arbiter_pk, at=at)

    def key_from_arbiter(self, arbiter: Arbiter) -> bytes | None:
        """After a resolution: the key the arbiter kept for this exchange, the file if it
        decrypts (it does: the arbiter checked), else `None` (not resolved)."""
        if self.offer is None or self.ciphertext is None:
            raise ExchangeError("no offer made")
        key = arbiter.key_for(self.offer, self.proof(arbiter.public_key))
        if key is None:
            return None
        self.file = decrypt_file(key, self.ciphertext, self.file_sha256)
        return self.file


@dataclass(frozen=True)
class Resolution:
    """The arbiter's answer to a seller: the escrow's decryption with its proof; `first` is
    `False` when the decision was recorded by an earlier request (the same answer again)."""

    decryption: escrow.Decryption
    first: bool = True


metadata = sa.MetaData()
decisions = sa.Table(
    "cash_arbiter_decisions",
    metadata,
    sa.Column("exchange", sa.String(64), primary_key=True),
    sa.Column("decision", sa.String(16)),
    sa.Column("serial", sa.String(64)),
    sa.Column("file_key", sa.LargeBinary),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)


def exchange_id(offer: Offer) -> str:
    """An exchange's name in the arbiter's log: the SHA-256 of its label (hex)."""
    return hashlib.sha256(offer.label).hexdigest()


class Arbiter:
    """The arbiter (secret key `sk`) with its decisions in `store`
    (`cash_arbiter_decisions`): one per exchange, kept forever."""

    def __init__(self, store: Store, sk: int):
        if isinstance(sk, bool) or not isinstance(sk, int) or sk % SUBGROUP_ORDER == 0:
            raise ExchangeError("the arbiter's secret key is a nonzero integer")
        self.store = store
        self._sk = sk % SUBGROUP_ORDER
        self.public_key = self._sk * BASE8

    def __repr__(self) -> str:
        return f"<Arbiter {group.pack(self.public_key).hex()[:16]}…>"

    def resolve(
        self, offer: Offer, ciphertext: bytes, key: bytes, *, at: float | None = None
    ) -> Resolution:
        """The seller's request (see the module's docstring). `ExchangeError` with the reason
        if refused; nothing is recorded then."""
        c = offer.contract
        if c.arbiter_pk != self.public_key:
            raise ExchangeError("the contract names another arbiter")
        if (time.time() if at is None else at) >= c.deadline:
            raise ExchangeError("the contract's deadline has passed")
        if len(offer.coins) != c.price:
            raise ExchangeError(f"the offer pays {len(offer.coins)} coins, not {c.price}")
        ciphertext = _bytes(ciphertext, "the ciphertext", limit=MAX_FILE_BYTES + 64)
        if hashlib.sha256(ciphertext).digest() != c.ciphertext_sha256:
            raise ExchangeError("this is not the ciphertext the contract names")
        if decrypt_file(key, ciphertext, c.file_sha256) is None:
            raise ExchangeError("the key does not decrypt the ciphertext to the contract's file")
        label = offer.label
        try:  # checks the escrow under the contract's label before it decrypts
            dec = escrow.decrypt(self._sk, offer.escrow, offer.coin.endorsement_key, label)
        except escrow.EscrowError as e:
            raise ExchangeError(f"the escrow: {e}") from None
        row = {
            "exchange": exchange_id(offer),
            "decision": "endorsed",
            "serial": group.pack(offer.coin.serial).hex(),
            "file_key": bytes(key),
            "created_at": now(),
        }
        try:
            with self.store.engine.begin() as conn:
                conn.execute(decisions.insert().values(**row))
        except sa.exc.IntegrityError:
            # decided before (this request repeated, or racing another process): the recorded
            # decision stands, and this request, which passed every check, hears it again
            with self.store.engine.connect() as conn:
                seen = conn.execute(
                    sa.select(decisions).where(decisions.c.exchange == row["exchange"])
                ).one()
            if seen.decision != "endorsed" or bytes(seen.file_key) != row["file_key"]:
                raise ExchangeError("this exchange is already resolved otherwise") from None
            return Resolution(dec, first=False)
        return Resolution(dec)

    def key_for(
        self, offer: Offer, proof: keyproof.KeyProof | bytes, *, at: float | None = None
    ) -> bytes | None:
        """The buyer's request, with its proof of `x` (`BuyerExchange.proof`): the key of a
        resolved exchange, or `None`. `ExchangeError` for anyone else's proof."""
        if not keyproof.verify_key(
            offer.coin.endorsement_key,
            proof,
            FOR_BUYER,
            exchange_id(offer).encode(),
            self.public_key,
            at=at,
        ):
            raise ExchangeError("not the buyer: the key proof does not verify")
        with self.store.engine.connect() as conn:
            row = conn.execute(
                sa.select(decisions.c.file_key).where(decisions.c.exchange == exchange_id(offer))
            ).first()
        return None if row is None else bytes(row.file_key)

    def decision(self, offer: Offer) -> str | None:
        """The recorded decision for this exchange (`"endorsed"`), or `None`."""
        with self.store.engine.connect() as conn:
            row = conn.execute(
                sa.select(decisions.c.decision).where(decisions.c.exchange == exchange_id(offer))
            ).first()
        return None if row is None else str(row.decision)
