"""The market's wire: JSON bodies with bytes as hex, read with a size limit, and HTTP clients for
the bank (`BankClient`) and the arbiter (`ArbiterClient`) that have the methods of the library
objects they stand for (`bank.BankStore`'s `check_unendorsed`/`deposit`; `exchange.Arbiter`'s
and `barter.BarterArbiter`'s), so the parties' protocol code (`SellerExchange`, `BobBarter`,
`AliceBarter`, `BuyerExchange`) runs unchanged against a server. A refusal from a server is an
`ExchangeError` carrying the server's reason; a server that does not answer is an
`httpx.TransportError`. The arbiter's clock decides deadlines: a client's `at=` is ignored.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from zeenot.babyjub import Point
from zeenot.cashlib import ecash, escrow, group, keyproof
from zeenot.cashlib.barter import BarterOffer, Outcome
from zeenot.cashlib.exchange import ExchangeError, Offer, Resolution

__all__ = [
    "MAX_BODY",
    "ArbiterClient",
    "BankClient",
    "decryption_from_json",
    "decryption_to_json",
    "field_hex",
    "parse_body",
    "read_body",
]

MAX_BODY = 1 << 23  # 8 MiB of JSON: a file of up to ~4 MiB as hex, with an offer
TIMEOUT = 60.0


def parse_body(raw: bytes, limit: int = MAX_BODY) -> dict[str, Any]:
    """A JSON object of at most `limit` bytes (`ValueError` otherwise)."""
    if len(raw) > limit:
        raise ValueError("the body is too large")
    doc = json.loads(raw)
    if not isinstance(doc, dict):
        raise ValueError("the body is a JSON object")
    return doc


async def read_body(request: Any, limit: int = MAX_BODY) -> dict[str, Any]:
    """A server's request body as a JSON object, refused (`ValueError`) as soon as it passes
    `limit` bytes: the body is read in pieces, never whole before the check."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise ValueError("the body is too large")
    raw = bytearray()
    async for piece in request.stream():
        raw += piece
        if len(raw) > limit:
            raise ValueError("the body is too large")
    return parse_body(bytes(raw), limit)


def field_hex(doc: dict[str, Any], name: str, size: int | None = None) -> bytes:
    v = doc.get(name)
    if not isinstance(v, str):
        raise ValueError(f"{name} is a hex string")
    out = bytes.fromhex(v)
    if size is not None and len(out) != size:
        raise ValueError(f"{name} is {size} bytes")
    return out


def decryption_to_json(dec: escrow.Decryption) -> dict[str, Any]:
    return {"chunks": list(dec.chunks), "proof": dec.proof.hex()}


def decryption_from_json(doc: Any) -> escrow.Decryption:
    if not isinstance(doc, dict) or not isinstance(doc.get("chunks"), list):
        raise ExchangeError("a malformed decryption")
    chunks = doc["chunks"]
    if len(chunks) != escrow.CHUNKS or not all(type(c) is int for c in chunks):
        raise ExchangeError("a malformed decryption")
    try:
        return escrow.Decryption(tuple(chunks), field_hex(doc, "proof"))
    except ValueError as e:
        raise ExchangeError(f"a malformed decryption: {e}") from None


class _Client:
    def __init__(self, url: str, *, timeout: float = TIMEOUT):
        self.url = url.rstrip("/")
        self.http = httpx.Client(timeout=timeout)

    def close(self) -> None:
        self.http.close()

    def _post(self, path: str, body: dict[str, Any], ok: tuple[int, ...] = (200,)) -> Any:
        r = self.http.post(f"{self.url}{path}", json=body)
        if r.status_code not in ok:
            try:
                reason = r.json().get("error") or r.json().get("status")
            except ValueError:
                reason = r.text[:200]
            raise ExchangeError(f"{path}: {r.status_code} {reason}")
        return r.json()


class BankClient(_Client):
    """The bank server (`zeenot.cashlib.bank`) over HTTP."""

    def __init__(self, url: str, *, timeout: float = TIMEOUT):
        super().__init__(url, timeout=timeout)
        r = self.http.get(f"{self.url}/params")
        r.raise_for_status()
        from zeenot.cashlib.kvac import IssuerParams

        self.params = IssuerParams.from_bytes(bytes.fromhex(r.json()["params"]))
        self.level = int(r.json()["level"])

    def open_account(self, account: str, public_key: Point) -> None:
        self._post(
            "/accounts", {"account": account, "public_key": group.pack(public_key).hex()}, (201,)
        )

    def withdraw_wallet(self, account: str, u: int) -> ecash.Wallet:
        """A fresh wallet of `2^level` coins for the account whose key is `u·G`."""
        from zeenot.babyjub import BASE8

        req, state = ecash.withdrawal_request(self.params, u, context=b"market")
        doc = self._post(
            "/withdraw",
            {
                "account": account,
                "public_key": group.pack(u * BASE8).hex(),
                "request": req.to_bytes().hex(),
                "context": b"market".hex(),
            },
        )
        return ecash.finish_withdrawal(state, bytes.fromhex(doc["response"]), self.level)

    def check_unendorsed(
        self, spend: Any, merchant: str, info: bytes, endorsement_key: Point
    ) -> bool:
        raw = spend.to_bytes() if isinstance(spend, ecash.Spend) else bytes(spend)
        doc = self._post(
            "/check",
            {
                "merchant": merchant,
                "info": info.hex(),
                "spend": raw.hex(),
                "endorsement_key": group.pack(endorsement_key).hex(),
            },
        )
        return doc.get("status") == "valid"

    def deposit(
        self, spend: Any, merchant: str, info: bytes, *, endorsement: int | None = None
    ) -> ecash.DepositResult:
        raw = spend.to_bytes() if isinstance(spend, ecash.Spend) else bytes(spend)
        body = {"merchant": merchant, "info": info.hex(), "spend": raw.hex()}
        if endorsement is not None:
            body["endorsement"] = (endorsement % group.L).to_bytes(32, "little").hex()
        r = self.http.post(f"{self.url}/deposit", json=body)
        doc = r.json()
        if r.status_code == 200:
            return ecash.DepositResult(True)
        return ecash.DepositResult(False, str(doc.get("status")), doc.get("account"))

    def deposit_many(
        self, deposits: list[tuple[Any, str, bytes, int | None]]
    ) -> list[ecash.DepositResult]:
        """`(spend, merchant, info, endorsement or None)` deposited in one request
        (`POST /deposits`, at most `bank.MAX_DEPOSITS`), each answer as `deposit` gives it."""
        items = []
        for spend, merchant, info, endorsement in deposits:
            raw = spend.to_bytes() if isinstance(spend, ecash.Spend) else bytes(spend)
            item = {"merchant": merchant, "info": info.hex(), "spend": raw.hex()}
            if endorsement is not None:
                item["endorsement"] = (endorsement % group.L).to_bytes(32, "little").hex()
            items.append(item)
        doc = self._post("/deposits", {"deposits": items})
        return [
            ecash.DepositResult(
                r["status"] == "accepted",
                "" if r["status"] == "accepted" else r["status"],
                r.get("account"),
            )
            for r in doc["results"]
        ]


class ArbiterClient(_Client):
    """The arbiter server (`zeenot.cashlib.arbiter_server`) over HTTP: the buy protocol's
    `exchange.Arbiter` and the barter's `barter.BarterArbiter` in one."""

    def __init__(self, url: str, *, timeout: float = TIMEOUT):
        super().__init__(url, timeout=timeout)
        r = self.http.get(f"{self.url}/key")
        r.raise_for_status()
        self.public_key = group.unpack(bytes.fromhex(r.json()["public_key"]))

    # the buy protocol
    def resolve(
        self, offer: Offer, ciphertext: bytes, key: bytes, *, at: float | None = None
    ) -> Resolution:
        doc = self._post(
            "/buy/resolve",
            {"offer": offer.to_bytes().hex(), "ciphertext": ciphertext.hex(), "key": key.hex()},
        )
        return Resolution(decryption_from_json(doc.get("decryption")))

    def key_for(
        self, offer: Offer, proof: keyproof.KeyProof | bytes, *, at: float | None = None
    ) -> bytes | None:
        raw = proof.to_bytes() if isinstance(proof, keyproof.KeyProof) else bytes(proof)
        doc = self._post("/buy/key", {"offer": offer.to_bytes().hex(), "proof": raw.hex()})
        return None if doc.get("key") is None else bytes.fromhex(doc["key"])

    def decision(self, offer: Offer) -> str | None:
        return self._post("/buy/decision", {"offer": offer.to_bytes().hex()}).get("decision")

    # the barter protocol
    def complain(
        self, offer: BarterOffer, b_ciphertext: bytes, b_key: bytes, *, at: float | None = None
    ) -> int:
        doc = self._post(
            "/barter/complain",
            {"offer": offer.to_bytes().hex(), "ciphertext": b_ciphertext.hex(), "key": b_key.hex()},
        )
        return int(doc["respond_by"])

    def respond(
        self, offer: BarterOffer, a_ciphertext: bytes, a_key: bytes, *, at: float | None = None
    ) -> bytes:
        doc = self._post(
            "/barter/respond",
            {"offer": offer.to_bytes().hex(), "ciphertext": a_ciphertext.hex(), "key": a_key.hex()},
        )
        return field_hex(doc, "key", 32)

    def dispute_state(self, offer: BarterOffer) -> str | None:
        return self._post("/barter/state", {"offer": offer.to_bytes().hex()}).get("state")

    def outcome(
        self,
        offer: BarterOffer | None,
        proof: keyproof.KeyProof | bytes,
        *,
        at: float | None = None,
    ) -> Outcome:
        if offer is None:
            raise ExchangeError("no offer")
        raw = proof.to_bytes() if isinstance(proof, keyproof.KeyProof) else bytes(proof)
        doc = self._post("/barter/outcome", {"offer": offer.to_bytes().hex(), "proof": raw.hex()})
        state = doc.get("state")
        if state == "swapped":
            return Outcome("swapped", key=field_hex(doc, "key", 32))
        if state == "endorsed":
            return Outcome("endorsed", decryption=decryption_from_json(doc.get("decryption")))
        return Outcome(str(state))

    def key_for_alice(
        self, offer: BarterOffer, proof: keyproof.KeyProof | bytes, *, at: float | None = None
    ) -> bytes | None:
        raw = proof.to_bytes() if isinstance(proof, keyproof.KeyProof) else bytes(proof)
        doc = self._post("/barter/key", {"offer": offer.to_bytes().hex(), "proof": raw.hex()})
        return None if doc.get("key") is None else bytes.fromhex(doc["key"])
