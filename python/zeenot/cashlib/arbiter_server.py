"""The fair-exchange arbiter as a server: `exchange.Arbiter` (buy) and `barter.BarterArbiter`
(barter) with one key, their decisions in the runtime's `Store` (migrations 0011 and 0012), and
Starlette routes. Every decision is recorded before it is answered; any number of arbiter
processes over one database make one decision per exchange.

Routes (JSON bodies, bytes as hex; `offer` is an `Offer`'s or a `BarterOffer`'s `to_bytes()`):
`GET /key` → `{"public_key"}`;
`POST /buy/resolve` `{"offer", "ciphertext", "key"}` → `{"decision": "endorsed",
"decryption": {"chunks", "proof"}}` (the seller's request), 409 `{"error"}` if refused;
`POST /buy/key` `{"offer", "proof"}` → `{"key"}` (null if unresolved), 403 unless the proof is
the buyer's (`keyproof` of the coin's endorsement, purpose `exchange.FOR_BUYER`);
`POST /buy/decision` `{"offer"}` → `{"decision"}` (public: it reveals no key);
`POST /barter/complain` `{"offer", "ciphertext", "key"}` → `{"respond_by"}` (Bob);
`POST /barter/state` `{"offer"}` → `{"state"}` (public: Alice watches it);
`POST /barter/respond` `{"offer", "ciphertext", "key"}` → `{"key"}` (Alice's answer, Bob's key);
`POST /barter/outcome` `{"offer", "proof"}` → `{"state"[, "key" | "decryption"]}`, 403 unless
Bob's proof; `POST /barter/key` `{"offer", "proof"}` → `{"key"}`, 403 unless Alice's proof.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from zeenot.babyjub import SUBGROUP_ORDER, random_scalar
from zeenot.cashlib import group
from zeenot.cashlib.barter import BarterArbiter, BarterOffer
from zeenot.cashlib.clients import decryption_to_json, field_hex, read_body
from zeenot.cashlib.exchange import Arbiter, ExchangeError, Offer
from zeenot.runtime.store import Store

__all__ = ["build_app", "load_secret", "main"]


def load_secret(path: Path) -> int:
    """The arbiter's secret key from `path` (hex), made (mode 0600) if the file is missing."""
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write((random_scalar() or 1).to_bytes(32, "little").hex())
    sk = int.from_bytes(bytes.fromhex(path.read_text().strip()), "little") % SUBGROUP_ORDER
    if sk == 0:
        raise ValueError(f"{path}: the arbiter's secret key is zero")
    return sk


def build_app(buy: Arbiter, barter: BarterArbiter) -> Any:
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    if buy.public_key != barter.public_key:
        raise ValueError("the buy and barter arbiters have different keys")

    def refused(e: Exception, status: int = 409) -> Response:
        return JSONResponse({"error": str(e)}, status_code=status)

    def route(fn: Any) -> Any:
        async def handler(request: Request) -> Response:
            try:
                doc = await read_body(request)
                return JSONResponse(await run_in_threadpool(fn, doc))
            except PermissionError as e:
                return refused(e, 403)
            except ExchangeError as e:
                return refused(e)
            except (ValueError, TypeError) as e:
                return refused(e, 400)

        return handler

    def guard(e: ExchangeError) -> Exception:
        return PermissionError(str(e)) if str(e).startswith("not ") else e

    def buy_resolve(doc: dict[str, Any]) -> dict[str, Any]:
        offer = Offer.from_bytes(field_hex(doc, "offer"))
        res = buy.resolve(offer, field_hex(doc, "ciphertext"), field_hex(doc, "key"))
        return {"decision": "endorsed", "decryption": decryption_to_json(res.decryption)}

    def buy_key(doc: dict[str, Any]) -> dict[str, Any]:
        offer = Offer.from_bytes(field_hex(doc, "offer"))
        try:
            key = buy.key_for(offer, field_hex(doc, "proof"))
        except ExchangeError as e:
            raise guard(e) from None
        return {"key": None if key is None else key.hex()}

    def buy_decision(doc: dict[str, Any]) -> dict[str, Any]:
        return {"decision": buy.decision(Offer.from_bytes(field_hex(doc, "offer")))}

    def complain(doc: dict[str, Any]) -> dict[str, Any]:
        offer = BarterOffer.from_bytes(field_hex(doc, "offer"))
        by = barter.complain(offer, field_hex(doc, "ciphertext"), field_hex(doc, "key"))
        return {"respond_by": by}

    def state(doc: dict[str, Any]) -> dict[str, Any]:
        return {"state": barter.dispute_state(BarterOffer.from_bytes(field_hex(doc, "offer")))}

    def respond(doc: dict[str, Any]) -> dict[str, Any]:
        offer = BarterOffer.from_bytes(field_hex(doc, "offer"))
        key = barter.respond(offer, field_hex(doc, "ciphertext"), field_hex(doc, "key"))
        return {"key": key.hex()}

    def outcome(doc: dict[str, Any]) -> dict[str, Any]:
        offer = BarterOffer.from_bytes(field_hex(doc, "offer"))
        try:
            out = barter.outcome(offer, field_hex(doc, "proof"))
        except ExchangeError as e:
            raise guard(e) from None
        body: dict[str, Any] = {"state": out.state}
        if out.key is not None:
            body["key"] = out.key.hex()
        if out.decryption is not None:
            body["decryption"] = decryption_to_json(out.decryption)
        return body

    def alice_key(doc: dict[str, Any]) -> dict[str, Any]:
        offer = BarterOffer.from_bytes(field_hex(doc, "offer"))
        try:
            key = barter.key_for_alice(offer, field_hex(doc, "proof"))
        except ExchangeError as e:
            raise guard(e) from None
        return {"key": None if key is None else key.hex()}

    async def public_key(_: Request) -> Response:
        return JSONResponse({"public_key": group.pack(buy.public_key).hex()})

    post = [
        ("/buy/resolve", buy_resolve),
        ("/buy/key", buy_key),
        ("/buy/decision", buy_decision),
        ("/barter/complain", complain),
        ("/barter/state", state),
        ("/barter/respond", respond),
        ("/barter/outcome", outcome),
        ("/barter/key", alice_key),
    ]
    return Starlette(
        routes=[Route("/key", public_key, methods=["GET"])]
        + [Route(path, route(fn), methods=["POST"]) for path, fn in post]
    )


def main(argv: list[str] | None = None) -> None:
    """`python -m zeenot.cashlib.arbiter_server --db DB --secret FILE [--host H] [--port P]`."""
    import argparse

    import uvicorn

    ap = argparse.ArgumentParser(description="the fair-exchange arbiter (zeenot.cashlib)")
    ap.add_argument("--db", required=True, help="SQLite file or postgresql:// URL")
    ap.add_argument("--secret", required=True, type=Path, help="the key file (made if missing)")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8032)
    args = ap.parse_args(argv)
    sk = load_secret(args.secret)
    store = Store(args.db)
    app = build_app(Arbiter(store, sk), BarterArbiter(store, sk))
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
