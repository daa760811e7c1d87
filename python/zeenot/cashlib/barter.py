"""Optimistic fair exchange, the BARTER protocol (Küpçü–Lysyanskaya, "Usable optimistic fair
exchange", as Cashlib runs it): Alice's file for Bob's file. Alice puts up one endorsed e-coin
as a *warranty*: it is never deposited when both behave, and it pays Bob when Alice takes Bob's
file and withholds hers — receiving a payment for a file is fair too. The arbiter steps in only
when Bob complains.

The parties agree beforehand on the two files' SHA-256 (`a_file_sha256`: Alice's, the one Bob
wants; `b_file_sha256`: Bob's), on the arbiter, a deadline and Alice's response window. Then:

1. each encrypts its file under a fresh key (`exchange.encrypt_file`) and sends the ciphertext;
   Bob also sends the `info` the coin must name and a one-time public key `bob_pk` (with it he
   later proves to the arbiter that he is Bob, `keyproof`);
2. Alice writes the `BarterContract` (Bob's merchant id, `info`, both files' and both
   ciphertexts' SHA-256, the arbiter's key, `bob_pk`, the deadline, the window); Alice → Bob: an
   unendorsed coin to Bob and the escrow of its endorsement `x` to the arbiter under the
   contract's label (`BarterOffer`);
3. Bob checks the contract is the one he would write, the deadline ahead, and the offer
   (`endorsed.verify_offer`: the escrow and the bank's check of the coin); Bob → Alice: `k_B`;
4. Alice decrypts Bob's file and checks its SHA-256; only then Alice → Bob: `k_A`;
5. Bob decrypts Alice's file and checks it. Done: the coin stays unendorsed.

Resolution (`BarterArbiter`): Bob, having sent `k_B` (or not) and holding no valid `k_A`,
complains before the deadline with the offer, his ciphertext and `k_B`. The arbiter checks the
contract names it, the escrow verifies under the contract's label, and `k_B` opens Bob's
ciphertext to Bob's file; it records a *pending* dispute (one per exchange: the primary key of
`cash_barter_disputes`, migration 0012) with `k_B` and a response deadline (the complaint's time
plus the window). Then, as KL's arbiter contacts Alice:

* Alice (who watches the arbiter until the deadline plus the window) answers with `k_A`; the
  arbiter checks it opens her ciphertext to her file and, if the dispute is still pending and
  the window open, records *swapped*: Alice gets `k_B`, Bob gets `k_A` — the files are
  exchanged and the coin stays unendorsed;
* nobody answers in time (or only with wrong keys): Bob asks again after the window, the
  arbiter records *endorsed* and gives Bob the escrow's decryption with its proof; Bob
  endorses the coin and deposits it (he is paid); Alice may fetch `k_B` (she bought his file).

The transitions are conditional updates (`WHERE state = 'pending'`): of a late answer and a
payout racing, exactly one wins, in any number of arbiter processes over one database. What an
answer gives, and to whom: `k_B` only to a caller proving knowledge of `x` (`X`'s discrete log:
Alice), `k_A` and the decryption only to a caller proving knowledge of `bob_pk`'s secret (Bob),
both with `keyproof` bound to the exchange.

What each party risks: Bob gives `k_B` only for a valid coin and an escrow the arbiter will open,
so he gets Alice's file or her coin. Alice gives `k_A` only for Bob's file; a Bob who sends a
wrong key gets nothing from the arbiter. A Bob who stops before step 3 may still complain until
the deadline: Alice watches the arbiter until the deadline plus the window (and then gets `k_B`
from it, and answers); after that her coin is hers again (`AliceBarter.coin_index`). Alice
endorsing one coin as two warranties that are both paid out is a double spender, identified
at the second deposit.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from zeenot.babyjub import BASE8, SUBGROUP_ORDER, Point, keygen
from zeenot.cashlib import ecash, endorsed, escrow, group, keyproof
from zeenot.cashlib.endorsed import UnendorsedCoin
from zeenot.cashlib.exchange import (
    KEY_BYTES,
    MAX_FILE_BYTES,
    MAX_ID_BYTES,
    MAX_OFFER_BYTES,
    ExchangeError,
    _bytes,
    _unframe,
    decrypt_file,
    encrypt_file,
)
from zeenot.runtime.store import Store, now

__all__ = [
    "AliceBarter",
    "BarterArbiter",
    "BarterContract",
    "BarterOffer",
    "BobBarter",
    "Outcome",
    "barter_id",
]

_CONTRACT = b"zeenot/cashlib/exchange/barter/contract/v1"
_OFFER = b"zeenot/cashlib/exchange/barter/offer/v1"
FOR_ALICE = b"barter/key-for-alice"
FOR_BOB = b"barter/outcome-for-bob"
MAX_WINDOW = 7 * 24 * 3600


def _int(v: Any, name: str, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"{name} is an integer")
    if not 0 <= v < hi:
        raise ExchangeError(f"{name} is out of range")
    return v


@dataclass(frozen=True)
class BarterContract:
    """What the arbiter is asked to honour: Bob (`bob`, his merchant id; `bob_pk`, his one-time
    key) gives the file `b_file_sha256` as the ciphertext `b_ciphertext_sha256`; Alice gives
    `a_file_sha256` as `a_ciphertext_sha256` and warrants it with a coin naming `info`; Bob may
    complain to `arbiter_pk` before `deadline`; Alice has `window` seconds to answer."""

    bob: bytes
    info: bytes
    a_file_sha256: bytes
    a_ciphertext_sha256: bytes
    b_file_sha256: bytes
    b_ciphertext_sha256: bytes
    arbiter_pk: Point
    bob_pk: Point
    deadline: int
    window: int

    def __post_init__(self) -> None:
        _bytes(self.bob, "bob")
        _bytes(self.info, "info")
        for name in ("a_file_sha256", "a_ciphertext_sha256", "b_file_sha256"):
            _bytes(getattr(self, name), name, 32)
        _bytes(self.b_ciphertext_sha256, "b_ciphertext_sha256", 32)
        for name in ("arbiter_pk", "bob_pk"):
            if not isinstance(getattr(self, name), Point):
                raise TypeError(f"{name} must be a babyjub Point")
        if self.bob_pk == Point.identity():
            raise ExchangeError("bob_pk is the identity")
        _int(self.deadline, "deadline", 1 << 62)
        _int(self.window, "window", MAX_WINDOW + 1)

    def to_bytes(self) -> bytes:
        return group.frame(
            _CONTRACT,
            bytes(self.bob),
            bytes(self.info),
            bytes(self.a_file_sha256),
            bytes(self.a_ciphertext_sha256),
            bytes(self.b_file_sha256),
            bytes(self.b_ciphertext_sha256),
            group.pack(self.arbiter_pk),
            group.pack(self.bob_pk),
            self.deadline.to_bytes(8, "little"),
            self.window.to_bytes(8, "little"),
        )

    @classmethod
    def from_bytes(cls, data: Any) -> BarterContract:
        """`ExchangeError` for anything but a contract's `to_bytes()`."""
        p = _unframe(data, "barter contract", _CONTRACT, 10, 4 * MAX_ID_BYTES)
        if any(len(x) != 32 for x in p[6:8]) or any(len(x) != 8 for x in p[8:]):
            raise ExchangeError("a malformed barter contract")
        try:
            keys = [group.unpack(x) for x in p[6:8]]
        except ValueError as e:
            raise ExchangeError(f"a malformed barter contract: {e}") from None
        deadline, window = (int.from_bytes(x, "little") for x in p[8:])
        return cls(*p[:6], *keys, deadline, window)

    def label(self, coin: UnendorsedCoin) -> bytes:
        return endorsed.exchange_label(coin, self.bob, self.info, self.to_bytes())


@dataclass(frozen=True)
class BarterOffer:
    """Alice's warranty: the contract, the unendorsed coin and the endorsement's escrow."""

    contract: BarterContract
    coin: UnendorsedCoin
    escrow: escrow.Escrow

    @property
    def label(self) -> bytes:
        return self.contract.label(self.coin)

    def to_bytes(self) -> bytes:
        return group.frame(
            _OFFER, self.contract.to_bytes(), self.coin.to_bytes(), self.escrow.to_bytes()
        )

    @classmethod
    def from_bytes(cls, data: Any) -> BarterOffer:
        contract, coin, esc = _unframe(data, "barter offer", _OFFER, 3, MAX_OFFER_BYTES)
        try:
            return cls(
                BarterContract.from_bytes(contract),
                UnendorsedCoin.from_bytes(coin),
                escrow.Escrow.from_bytes(esc),
            )
        except ValueError as e:
            if isinstance(e, ExchangeError):
                raise
            raise ExchangeError(f"a malformed barter offer: {e}") from None


def barter_id(offer: BarterOffer) -> str:
    """An exchange's name in the arbiter's log: the SHA-256 of its label (hex)."""
    return hashlib.sha256(offer.label).hexdigest()


@dataclass(frozen=True)
class Outcome:
    """What the arbiter answers Bob: `"pending"` (Alice's window is open), `"swapped"` with
    Alice's key, or `"endorsed"` with the escrow's decryption (the coin is Bob's)."""

    state: str
    key: bytes | None = None
    decryption: escrow.Decryption | None = None


class _Side:
    def __init__(self, data: bytes, peer_file_sha256: bytes):
        self.data = _bytes(data, "the file", limit=MAX_FILE_BYTES)
        self.file_sha256 = hashlib.sha256(self.data).digest()
        self.peer_file_sha256 = _bytes(peer_file_sha256, "the peer's file_sha256", 32)
        self._key = secrets.token_bytes(KEY_BYTES)
        self.ciphertext = encrypt_file(self._key, self.data, self.file_sha256)
        self.peer_ciphertext: bytes | None = None
        self.peer_file: bytes | None = None

    def _open(self, key: bytes) -> bytes:
        if self.peer_ciphertext is None:
            raise ExchangeError("no ciphertext from the other side")
        data = decrypt_file(key, self.peer_ciphertext, self.peer_file_sha256)
        if data is None:
            raise ExchangeError("the key does not decrypt the ciphertext to the agreed file")
        self.peer_file = data
        return data


class BobBarter(_Side):
    """Bob's side: he offers `data` and wants the file whose SHA-256 is `a_file_sha256`. `bank`
    is `ecash.Bank` or `bank.BankStore` (as for `SellerExchange`)."""

    def __init__(
        self,
        data: bytes,
        a_file_sha256: bytes,
        merchant: Any,
        bank: Any,
        arbiter_pk: Point,
        *,
        deadline: int,
        window: int,
    ):
        super().__init__(data, a_file_sha256)
        self.merchant = merchant
        self.merchant_id = merchant.encode() if isinstance(merchant, str) else bytes(merchant)
        self.bank = bank
        self.arbiter_pk = arbiter_pk
        self.deadline = deadline
        self.window = window
        self.info = ecash.merchant_info()
        self._sk, self.bob_pk = keygen()
        self.offer: BarterOffer | None = None
        self.paid: ecash.DepositResult | None = None

    def __repr__(self) -> str:  # never print the keys
        return f"<BobBarter {self.merchant_id!r} file={self.file_sha256.hex()[:16]}…>"

    def expected_contract(self, a_ciphertext: bytes) -> BarterContract:
        return BarterContract(
            self.merchant_id,
            self.info,
            self.peer_file_sha256,
            hashlib.sha256(a_ciphertext).digest(),
            self.file_sha256,
            hashlib.sha256(self.ciphertext).digest(),
            self.arbiter_pk,
            self.bob_pk,
            self.deadline,
            self.window,
        )

    def accept(self, offer: BarterOffer, a_ciphertext: bytes, *, at: float | None = None) -> bytes:
        """Step 3: check Alice's offer (for her ciphertext) and return `k_B` to send."""
        a_ciphertext = _bytes(a_ciphertext, "Alice's ciphertext", limit=MAX_FILE_BYTES + 64)
        if offer.contract != self.expected_contract(a_ciphertext):
            raise ExchangeError("the offer's contract is not this exchange's")
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
        ):
            raise ExchangeError("the offer does not verify (the escrow or the coin)")
        self.offer, self.peer_ciphertext = offer, a_ciphertext
        return self._key

    def receive_key(self, key: bytes) -> bytes:
        """Step 5: Alice's file, or `ExchangeError` (then complain to the arbiter)."""
        return self._open(key)

    def complain(self, arbiter: BarterArbiter, *, at: float | None = None) -> None:
        """Alice withheld (or botched) `k_A`: open a dispute."""
        if self.offer is None:
            raise ExchangeError("no accepted offer")
        arbiter.complain(self.offer, self.ciphertext, self._key, at=at)

    def proof(self, arbiter_pk: Point, *, at: float | None = None) -> keyproof.KeyProof:
        """Bob's proof, for this exchange, that he holds `bob_pk`'s secret."""
        if self.offer is None:
            raise ExchangeError("no accepted offer")
        return keyproof.prove_key(
            self._sk, FOR_BOB, barter_id(self.offer).encode(), arbiter_pk, at=at
        )

    def settle(self, outcome: Outcome) -> str:
        """Act on the arbiter's answer: `"swapped"` (Alice's file received), `"endorsed"` (the
        coin endorsed from the arbiter's decryption and deposited: `self.paid`) or
        `"pending"`. `ExchangeError` if the answer does not check out."""
        if self.offer is None:
            raise ExchangeError("no accepted offer")
        if outcome.state == "swapped" and outcome.key is not None:
            self._open(outcome.key)
        elif outcome.state == "endorsed" and outcome.decryption is not None:
            try:
                done = endorsed.endorse_from_decryption(
                    self.offer.coin,
                    self.offer.escrow,
                    self.arbiter_pk,
                    self.offer.label,
                    outcome.decryption,
                )
            except ValueError as e:
                raise ExchangeError(f"the arbiter's answer: {e}") from None
            self.paid = self.bank.deposit(
                done.spend.to_bytes(), self.merchant, self.info, endorsement=done.endorsement
            )
        elif outcome.state != "pending":
            raise ExchangeError(f"a malformed outcome: {outcome.state}")
        return outcome.state

    def resolve(self, arbiter: BarterArbiter, *, at: float | None = None) -> str:
        """Ask the arbiter for the outcome of this exchange's dispute and settle it."""
        proof = self.proof(arbiter.public_key, at=at)
        return self.settle(arbiter.outcome(self.offer, proof, at=at))


class AliceBarter(_Side):
    """Alice's side: she offers `data`, wants the file whose SHA-256 is `b_file_sha256`, and
    warrants her part with a coin of `wallet`."""

    def __init__(
        self,
        wallet: ecash.Wallet,
        data: bytes,
        b_file_sha256: bytes,
        arbiter_pk: Point,
        *,
        deadline: int,
        window: int,
    ):
        super().__init__(data, b_file_sha256)
        self.wallet = wallet
        self.arbiter_pk = arbiter_pk
        self.deadline = deadline
        self.window = window
        self.offer: BarterOffer | None = None
        self.coin_index: int | None = None
        self._x: int | None = None

    def __repr__(self) -> str:  # never print k_A or x
        return f"<AliceBarter file={self.file_sha256.hex()[:16]}…>"

    def offer_to(
        self,
        bob: bytes,
        info: bytes,
        bob_pk: Point,
        b_ciphertext: bytes,
        *,
        index: int | None = None,
    ) -> BarterOffer:
        """Step 2: the contract for Bob's ciphertext and the warranty (the next coin of the
        wallet, or coin `index`: one whose exchange expired without a dispute)."""
        self.peer_ciphertext = _bytes(b_ciphertext, "Bob's ciphertext", limit=MAX_FILE_BYTES + 64)
        contract = BarterContract(
            _bytes(bob, "bob"),
            _bytes(info, "info"),
            self.file_sha256,
            hashlib.sha256(self.ciphertext).digest(),
            self.peer_file_sha256,
            hashlib.sha256(self.peer_ciphertext).digest(),
            self.arbiter_pk,
            bob_pk,
            self.deadline,
            self.window,
        )
        self.coin_index = self.wallet.next_index if index is None else index
        coin, x = endorsed.spend_unendorsed(self.wallet, contract.bob, contract.info, index=index)
        esc = endorsed.escrow_endorsement(coin, x, self.arbiter_pk, contract.label(coin))
        self._x = x
        self.offer = BarterOffer(contract, coin, esc)
        return self.offer

    def receive_key(self, key: bytes) -> bytes:
        """Step 4: if `k_B` opens Bob's file, keep it and return `k_A` to send; else
        `ExchangeError` (and `k_A` is not released)."""
        if self.offer is None:
            raise ExchangeError("no offer made")
        self._open(key)
        return self._key

    def proof(self, arbiter_pk: Point, *, at: float | None = None) -> keyproof.KeyProof:
        """Alice's proof, for this exchange, that she holds the coin's endorsement `x`."""
        if self.offer is None or self._x is None:
            raise ExchangeError("no offer made")
        return keyproof.prove_key(
            self._x, FOR_ALICE, barter_id(self.offer).encode(), arbiter_pk, at=at
        )

    def answer(self, arbiter: BarterArbiter, *, at: float | None = None) -> bytes | None:
        """Watch the arbiter: if Bob complained, answer with `k_A` and take `k_B` (Bob's file).
        `None` if there is no dispute."""
        if self.offer is None:
            raise ExchangeError("no offer made")
        if arbiter.dispute_state(self.offer) is None:
            return None
        key = arbiter.respond(self.offer, self.ciphertext, self._key, at=at)
        return self._open(key)

    def key_from_arbiter(self, arbiter: BarterArbiter, *, at: float | None = None) -> bytes | None:
        """Bob's file from the key he gave the arbiter (any dispute), or `None` (none)."""
        if self.offer is None:
            raise ExchangeError("no offer made")
        key = arbiter.key_for_alice(self.offer, self.proof(arbiter.public_key, at=at), at=at)
        return None if key is None else self._open(key)


metadata = sa.MetaData()
disputes = sa.Table(
    "cash_barter_disputes",
    metadata,
    sa.Column("exchange", sa.String(64), primary_key=True),
    sa.Column("state", sa.String(16)),
    sa.Column("serial", sa.String(64)),
    sa.Column("bob_key", sa.LargeBinary),
    sa.Column("alice_key", sa.LargeBinary, nullable=True),
    sa.Column("respond_by", sa.BigInteger),
    sa.Column("created_at", sa.DateTime(timezone=True)),
    sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
)


class BarterArbiter:
    """The barter's arbiter (secret key `sk`), its disputes in `store`
    (`cash_barter_disputes`, migration 0012)."""

    def __init__(self, store: Store, sk: int):
        if isinstance(sk, bool) or not isinstance(sk, int) or sk % SUBGROUP_ORDER == 0:
            raise ExchangeError("the arbiter's secret key is a nonzero integer")
        self.store = store
        self._sk = sk % SUBGROUP_ORDER
        self.public_key = self._sk * BASE8

    def __repr__(self) -> str:
        return f"<BarterArbiter {group.pack(self.public_key).hex()[:16]}…>"

    def _row(self, offer: BarterOffer) -> Any:
        with self.store.engine.connect() as conn:
            return conn.execute(
                sa.select(disputes).where(disputes.c.exchange == barter_id(offer))
            ).first()

    def dispute_state(self, offer: BarterOffer) -> str | None:
        """`"pending"`, `"swapped"`, `"endorsed"`, or `None` (no dispute). Public: Alice
        polls it, and it reveals no key."""
        row = self._row(offer)
        return None if row is None else str(row.state)

    def complain(
        self, offer: BarterOffer, b_ciphertext: bytes, b_key: bytes, *, at: float | None = None
    ) -> int:
        """Bob's complaint (see the module's docstring); returns the Unix time until which
        Alice may answer. `ExchangeError` with the reason if refused (nothing recorded)."""
        c = offer.contract
        t = time.time() if at is None else at
        if c.arbiter_pk != self.public_key:
            raise ExchangeError("the contract names another arbiter")
        if t >= c.deadline:
            raise ExchangeError("the contract's deadline has passed")
        b_ciphertext = _bytes(b_ciphertext, "Bob's ciphertext", limit=MAX_FILE_BYTES + 64)
        if hashlib.sha256(b_ciphertext).digest() != c.b_ciphertext_sha256:
            raise ExchangeError("this is not the ciphertext the contract names")
        if decrypt_file(b_key, b_ciphertext, c.b_file_sha256) is None:
            raise ExchangeError("the key does not decrypt the ciphertext to the contract's file")
        if not escrow.verify_escrow(
            offer.escrow, offer.coin.endorsement_key, c.arbiter_pk, offer.label
        ):
            raise ExchangeError("the escrow does not verify under the contract")
        respond_by = int(t) + c.window
        row = {
            "exchange": barter_id(offer),
            "state": "pending",
            "serial": group.pack(offer.coin.serial).hex(),
            "bob_key": bytes(b_key),
            "alice_key": None,
            "respond_by": respond_by,
            "created_at": now(),
            "decided_at": None,
        }
        try:
            with self.store.engine.begin() as conn:
                conn.execute(disputes.insert().values(**row))
        except sa.exc.IntegrityError:
            raise ExchangeError("this exchange is already disputed") from None
        return respond_by

    def respond(
        self, offer: BarterOffer, a_ciphertext: bytes, a_key: bytes, *, at: float | None = None
    ) -> bytes:
        """Alice's answer: `k_A` opening her ciphertext to her file, while the dispute is
        pending and her window open. Returns `k_B`; `ExchangeError` if refused."""
        c = offer.contract
        a_ciphertext = _bytes(a_ciphertext, "Alice's ciphertext", limit=MAX_FILE_BYTES + 64)
        if hashlib.sha256(a_ciphertext).digest() != c.a_ciphertext_sha256:
            raise ExchangeError("this is not the ciphertext the contract names")
        if decrypt_file(a_key, a_ciphertext, c.a_file_sha256) is None:
            raise ExchangeError("the key does not decrypt the ciphertext to the contract's file")
        t = time.time() if at is None else at
        with self.store.engine.begin() as conn:
            done = conn.execute(
                disputes.update()
                .where(
                    disputes.c.exchange == barter_id(offer),
                    disputes.c.state == "pending",
                    disputes.c.respond_by > int(t),
                )
                .values(state="swapped", alice_key=bytes(a_key), decided_at=now())
            ).rowcount
        row = self._row(offer)
        if row is None:
            raise ExchangeError("no dispute for this exchange")
        if done != 1 and row.state != "swapped":
            raise ExchangeError(f"too late: the dispute is {row.state}, the window closed")
        return bytes(row.bob_key)

    def outcome(
        self,
        offer: BarterOffer | None,
        proof: keyproof.KeyProof | bytes,
        *,
        at: float | None = None,
    ) -> Outcome:
        """Bob's request (with his key proof): the dispute's state, Alice's key if swapped, the
        escrow's decryption if Alice's window closed unanswered (recorded as endorsed)."""
        if offer is None:
            raise ExchangeError("no offer")
        t = time.time() if at is None else at
        eid = barter_id(offer)
        if not keyproof.verify_key(
            offer.contract.bob_pk, proof, FOR_BOB, eid.encode(), self.public_key, at=t
        ):
            raise ExchangeError("not Bob: the key proof does not verify")
        with self.store.engine.begin() as conn:
            conn.execute(
                disputes.update()
                .where(
                    disputes.c.exchange == eid,
                    disputes.c.state == "pending",
                    disputes.c.respond_by <= int(t),
                )
                .values(state="endorsed", decided_at=now())
            )
        row = self._row(offer)
        if row is None:
            raise ExchangeError("no dispute for this exchange")
        if row.state == "swapped":
            return Outcome("swapped", key=bytes(row.alice_key))
        if row.state == "endorsed":
            try:
                dec = escrow.decrypt(
                    self._sk, offer.escrow, offer.coin.endorsement_key, offer.label
                )
            except escrow.EscrowError as e:  # verified at the complaint: unreachable
                raise ExchangeError(f"the escrow: {e}") from None
            return Outcome("endorsed", decryption=dec)
        return Outcome("pending")

    def key_for_alice(
        self, offer: BarterOffer, proof: keyproof.KeyProof | bytes, *, at: float | None = None
    ) -> bytes | None:
        """Alice's request (with her proof of `x`): `k_B` if Bob complained, else `None`."""
        eid = barter_id(offer)
        if not keyproof.verify_key(
            offer.coin.endorsement_key, proof, FOR_ALICE, eid.encode(), self.public_key, at=at
        ):
            raise ExchangeError("not Alice: the key proof does not verify")
        row = self._row(offer)
        return None if row is None else bytes(row.bob_key)
