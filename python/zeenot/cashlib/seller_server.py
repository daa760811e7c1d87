"""A seller of files as a server: it sells each of its files for `price` endorsed coins (the
buy protocol, `exchange.SellerExchange`; one coin unless `--price` says more) and barters them
for files it wants (the barter protocol as
Bob, `barter.BobBarter`), asking the bank (`clients.BankClient`) to check and deposit coins and
going to the arbiter (`clients.ArbiterClient`) on its own when a buyer or Alice does not finish:
a background sweep resolves every buy session whose key went out `patience` seconds ago with no
endorsement, and complains about every barter whose key went out with no valid key back, then
settles the dispute (Alice's file, or her coin deposited) once the arbiter decides.

Sessions live in the process (a restarted seller forgets its open exchanges; the bank and the
arbiter keep what was decided). `--cheat` makes a cheating seller for the market's tests and
demonstrations: `wrong-file` sends other bytes under the agreed hash, `stop` takes offers and
never sends a key.

Routes (JSON, bytes as hex): `GET /catalog` → `{"merchant", "files": [{"sha256", "size"}],
"deadline", "price"}` (the seconds it gives a buyer — a barter's deadline must be within twice
that — and the coins a file costs); `POST /buy/start` `{"file"}` → `{"session", "ciphertext",
"info", "deadline", "arbiter_pk", "price"}`;
`POST /buy/offer` `{"session", "offer"}` → `{"key"}`; `POST /buy/endorse` `{"session",
"endorsement"}` → `{"status"}` (the bank's answer); `POST /barter/start` `{"file", "want",
"ciphertext", "deadline", "window"}` → `{"session", "ciphertext", "info", "bob_pk",
"arbiter_pk"}`; `POST /barter/offer` `{"session", "offer"}` → `{"key"}`; `POST /barter/key`
`{"session", "key"}` → `{"status": "swapped"}`; `GET /session/{id}` → `{"kind", "state"}`.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from zeenot.cashlib import group
from zeenot.cashlib.barter import BarterOffer, BobBarter
from zeenot.cashlib.clients import ArbiterClient, BankClient, field_hex, read_body
from zeenot.cashlib.exchange import (
    MAX_PRICE,
    ExchangeError,
    Offer,
    SellerExchange,
    encrypt_file,
)

__all__ = ["Seller", "build_app", "main"]

CHEATS = ("none", "wrong-file", "stop")
MAX_SESSIONS = 10_000


@dataclass
class Session:
    kind: str  # "buy" or "barter"
    party: Any  # SellerExchange or BobBarter
    state: str = "started"  # started, key-sent, paid, swapped, disputed, resolved-*, failed
    key_sent_at: float | None = None
    detail: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)


class Seller:
    """The seller's state: its files, its sessions, the bank and the arbiter it uses."""

    def __init__(
        self,
        files: list[bytes],
        merchant: str,
        bank: BankClient,
        arbiter: ArbiterClient,
        *,
        wants: set[bytes] | None = None,
        deadline_s: int = 600,
        patience_s: float = 5.0,
        max_window_s: int = 3600,
        cheat: str = "none",
        price: int = 1,
    ):
        if cheat not in CHEATS:
            raise ValueError(f"cheat is one of {CHEATS}")
        if isinstance(price, bool) or not isinstance(price, int) or not 1 <= price <= MAX_PRICE:
            raise ValueError(f"price is 1 to {MAX_PRICE} coins")
        self.price = price
        self.files = {hashlib.sha256(d).digest(): d for d in files}
        self.merchant = merchant
        self.bank = bank
        self.arbiter = arbiter
        self.wants = wants
        self.deadline_s = deadline_s
        self.patience_s = patience_s
        self.max_window_s = max_window_s
        self.cheat = cheat
        self.sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def _file(self, sha: bytes) -> bytes:
        if sha not in self.files:
            raise ExchangeError("no such file")
        return self.files[sha]

    def _new(self, kind: str, party: Any) -> str:
        sid = secrets.token_hex(16)
        with self._lock:
            if len(self.sessions) >= MAX_SESSIONS:
                self._forget_finished()
            if len(self.sessions) >= MAX_SESSIONS:
                raise ExchangeError("too many open sessions: try later")
            self.sessions[sid] = Session(kind, party)
        return sid

    def _forget_finished(self) -> None:
        """Drop the sessions that need nothing more (settled, refused, or never offered past
        their deadline)."""
        now = time.time()
        for sid, s in list(self.sessions.items()):
            waiting = s.state in ("key-sent", "disputed", "resolving")
            if not waiting and (s.state != "started" or s.party.deadline < now):
                del self.sessions[sid]

    def session(self, sid: Any, kind: str) -> Session:
        s = self.sessions.get(sid) if isinstance(sid, str) else None
        if s is None or s.kind != kind:
            raise ExchangeError("no such session")
        return s

    def _cheat_on(self, party: Any) -> None:
        """`wrong-file`: replace the ciphertext with other bytes under the agreed hash."""
        if self.cheat == "wrong-file":
            party.ciphertext = encrypt_file(
                party._key, b"not the file you wanted", party.file_sha256
            )

    # the buy protocol
    def buy_start(self, sha: bytes) -> dict[str, Any]:
        deadline = int(time.time()) + self.deadline_s
        party = SellerExchange(
            self._file(sha),
            self.merchant,
            self.bank,
            self.arbiter.public_key,
            deadline=deadline,
            price=self.price,
        )
        self._cheat_on(party)
        sid = self._new("buy", party)
        return {
            "session": sid,
            "ciphertext": party.ciphertext.hex(),
            "info": party.info.hex(),
            "deadline": deadline,
            "arbiter_pk": group.pack(self.arbiter.public_key).hex(),
            "price": self.price,
        }

    def buy_offer(self, sid: str, offer: Offer) -> dict[str, Any]:
        s = self.session(sid, "buy")
        with s.lock:
            key = s.party.accept(offer)
            if self.cheat == "stop":
                s.state = "stopped"
                raise ExchangeError("the seller stopped")
            s.state, s.key_sent_at = "key-sent", time.time()
        return {"key": key.hex()}

    def buy_endorse(self, sid: str, x: int) -> dict[str, Any]:
        s = self.session(sid, "buy")
        with s.lock:
            if s.state != "key-sent":
                raise ExchangeError(f"the session is {s.state}")
            result = s.party.finish(x)
            s.state = "paid" if result.accepted else f"refused-{result.reason}"
            s.detail = str(result.double_spender or "")
        return {"status": "accepted" if result.accepted else result.reason}

    # the barter protocol, as Bob
    def barter_start(self, doc: dict[str, Any]) -> dict[str, Any]:
        give, want = field_hex(doc, "file", 32), field_hex(doc, "want", 32)
        if self.wants is not None and want not in self.wants:
            raise ExchangeError("this seller does not want that file")
        deadline, window = doc.get("deadline"), doc.get("window")
        now = time.time()
        if not isinstance(deadline, int) or not now + 5 <= deadline <= now + 2 * self.deadline_s:
            raise ExchangeError("the deadline is too close or too far")
        if not isinstance(window, int) or not 1 <= window <= self.max_window_s:
            raise ExchangeError("the window is out of this seller's range")
        party = BobBarter(
            self._file(give),
            want,
            self.merchant,
            self.bank,
            self.arbiter.public_key,
            deadline=deadline,
            window=window,
        )
        self._cheat_on(party)
        party.peer_ciphertext = field_hex(doc, "ciphertext")
        sid = self._new("barter", party)
        return {
            "session": sid,
            "ciphertext": party.ciphertext.hex(),
            "info": party.info.hex(),
            "bob_pk": group.pack(party.bob_pk).hex(),
            "arbiter_pk": group.pack(self.arbiter.public_key).hex(),
        }

    def barter_offer(self, sid: str, offer: BarterOffer) -> dict[str, Any]:
        s = self.session(sid, "barter")
        with s.lock:
            key = s.party.accept(offer, s.party.peer_ciphertext)
            if self.cheat == "stop":
                s.state = "stopped"
                raise ExchangeError("the seller stopped")
            s.state, s.key_sent_at = "key-sent", time.time()
        return {"key": key.hex()}

    def barter_key(self, sid: str, key: bytes) -> dict[str, Any]:
        s = self.session(sid, "barter")
        with s.lock:
            if s.state != "key-sent":
                raise ExchangeError(f"the session is {s.state}")
            s.party.receive_key(key)
            s.state = "swapped"
        return {"status": "swapped"}

    # the arbiter, when the other side does not finish
    def sweep(self) -> None:
        """One pass over the sessions waiting past `patience_s` (see the module's docstring)."""
        late = time.time() - self.patience_s
        for s in list(self.sessions.values()):
            if s.key_sent_at is None or s.key_sent_at > late:
                continue
            if not s.lock.acquire(blocking=False):
                continue
            try:
                self._settle(s)
            except (ExchangeError, OSError, httpx.TransportError) as e:
                s.detail = str(e)  # unreachable: tried again at the next sweep
            finally:
                s.lock.release()

    def _settle(self, s: Session) -> None:
        if s.kind == "buy" and s.state == "key-sent":
            s.state = "resolving"
            try:
                result = s.party.resolve(self.arbiter)
            except ExchangeError:
                s.state = "resolve-refused"
                raise
            except (OSError, httpx.TransportError):
                s.state = "key-sent"  # the arbiter did not answer: again at the next sweep
                raise
            s.state = "resolved-paid" if result.accepted else f"resolved-{result.reason}"
            s.detail = str(result.double_spender or "")
        elif s.kind == "barter" and s.state in ("key-sent", "disputed"):
            if s.state == "key-sent":
                try:
                    s.party.complain(self.arbiter)
                except ExchangeError:
                    s.state = "complaint-refused"
                    raise
                s.state = "disputed"
            state = s.party.resolve(self.arbiter)
            if state == "swapped":
                s.state = "resolved-swapped"
            elif state == "endorsed":
                paid = s.party.paid
                s.state = "resolved-paid" if paid and paid.accepted else "resolved-unpaid"

    def run_sweeper(self, stop: threading.Event, every: float = 0.5) -> None:
        while not stop.wait(every):
            try:
                self.sweep()
            except Exception as e:  # keep sweeping; the session records its own failures
                print(f"seller sweep: {type(e).__name__}: {e}", flush=True)


def build_app(seller: Seller) -> Any:
    from contextlib import asynccontextmanager

    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    def route(fn: Any) -> Any:
        async def handler(request: Request) -> Response:
            try:
                doc = await read_body(request)
                return JSONResponse(await run_in_threadpool(fn, doc))
            except ExchangeError as e:
                return JSONResponse({"error": str(e)}, status_code=409)
            except (ValueError, TypeError) as e:
                return JSONResponse({"error": str(e)}, status_code=400)

        return handler

    def endorsement(doc: dict[str, Any]) -> int:
        return int.from_bytes(field_hex(doc, "endorsement", 32), "little")

    post = [
        ("/buy/start", lambda d: seller.buy_start(field_hex(d, "file", 32))),
        (
            "/buy/offer",
            lambda d: seller.buy_offer(d.get("session"), Offer.from_bytes(field_hex(d, "offer"))),
        ),
        ("/buy/endorse", lambda d: seller.buy_endorse(d.get("session"), endorsement(d))),
        ("/barter/start", seller.barter_start),
        (
            "/barter/offer",
            lambda d: seller.barter_offer(
                d.get("session"), BarterOffer.from_bytes(field_hex(d, "offer"))
            ),
        ),
        ("/barter/key", lambda d: seller.barter_key(d.get("session"), field_hex(d, "key", 32))),
    ]

    async def catalog(_: Request) -> Response:
        files = [{"sha256": h.hex(), "size": len(d)} for h, d in seller.files.items()]
        return JSONResponse(
            {
                "merchant": seller.merchant,
                "files": files,
                "deadline": seller.deadline_s,
                "price": seller.price,
            }
        )

    async def session(request: Request) -> Response:
        s = seller.sessions.get(request.path_params["sid"])
        if s is None:
            return JSONResponse({"error": "no such session"}, status_code=404)
        return JSONResponse({"kind": s.kind, "state": s.state, "detail": s.detail})

    @asynccontextmanager
    async def lifespan(_: Any) -> Any:
        stop = threading.Event()
        worker = threading.Thread(target=seller.run_sweeper, args=(stop,), daemon=True)
        worker.start()
        try:
            yield
        finally:
            stop.set()
            worker.join(timeout=5)

    return Starlette(
        routes=[
            Route("/catalog", catalog, methods=["GET"]),
            Route("/session/{sid}", session, methods=["GET"]),
        ]
        + [Route(path, route(fn), methods=["POST"]) for path, fn in post],
        lifespan=lifespan,
    )


def main(argv: list[str] | None = None) -> None:
    """`python -m zeenot.cashlib.seller_server --bank URL --arbiter URL --merchant NAME
    --file PATH ... [--want SHA256 ...] [--port P] [--deadline S] [--patience S] [--cheat C]
    [--price COINS]`."""
    import argparse

    import uvicorn

    ap = argparse.ArgumentParser(description="a seller of files (zeenot.cashlib market)")
    ap.add_argument("--bank", required=True)
    ap.add_argument("--arbiter", required=True)
    ap.add_argument("--merchant", required=True, help="its name at the bank")
    ap.add_argument("--file", action="append", type=Path, required=True)
    ap.add_argument("--want", action="append", help="SHA-256 (hex) of a file it barters for")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8033)
    ap.add_argument("--deadline", type=int, default=600, help="seconds a buyer has")
    ap.add_argument("--patience", type=float, default=5.0, help="seconds before the arbiter")
    ap.add_argument("--cheat", choices=CHEATS, default="none")
    ap.add_argument("--price", type=int, default=1, help=f"coins a file costs (1 to {MAX_PRICE})")
    args = ap.parse_args(argv)
    if not 1 <= args.price <= MAX_PRICE:
        ap.error(f"--price is 1 to {MAX_PRICE} coins")
    seller = Seller(
        [p.read_bytes() for p in args.file],
        args.merchant,
        BankClient(args.bank),
        ArbiterClient(args.arbiter),
        wants=None if not args.want else {bytes.fromhex(w) for w in args.want},
        deadline_s=args.deadline,
        patience_s=args.patience,
        cheat=args.cheat,
        price=args.price,
    )
    uvicorn.run(build_app(seller), host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
