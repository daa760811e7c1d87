"""The e-cash bank as a server: `zeenot.cashlib.ecash`'s bank over the runtime's `Store` (SQLite
or PostgreSQL, migration 0010's tables) and Starlette.

A deposit is verified first (no transaction held while the proof is checked; deposits arriving
together are verified in one batch, `DepositBatcher` and `BankStore.deposit_many`), then its
serial is inserted in one transaction; the answer comes after the commit, so an accepted deposit is
stored. The serial is the table's primary key: of concurrent deposits of one coin, in any
number of processes, exactly one insert succeeds; each other one reads the stored row and is a
replay (same `R`) or a double spend (another `R`: the spender's key is recovered from the two
tags and named by its account).

Routes (JSON bodies, bytes as hex, at most 64 KiB):
`GET /params` → `{"params", "level"}`; `GET /stats` → `{"batches", "deposits",
"largest_batch"}` (the deposit batcher's counts since start);
`POST /accounts` `{"account", "public_key"}` → 201;
`POST /withdraw` `{"account", "public_key", "request", "context"}` → `{"response"}`;
`POST /deposit` `{"merchant", "info", "spend"[, "endorsement"]}` (an endorsed coin's `x`,
32 bytes little-endian; `zeenot.cashlib.endorsed`) → 200 `{"status": "accepted"}`, 409
`{"status": "replay"}` or `{"status": "double-spend", "account"}`, 400 `{"status": "invalid"}`;
`POST /deposits` `{"deposits": [deposit, …]}` (1 to `MAX_DEPOSITS` of `/deposit`'s bodies, at
most 1 MiB: a merchant's day of takings in one request, as GNU Taler's batch deposit) → 200
`{"results": [{"status"[, "account"][, "error"]}, …]}`, one per deposit in order, every accepted
one stored before the answer (a malformed deposit is `invalid` on its own); 400 for a body that
is not such a list;
`POST /check` `{"merchant", "info", "spend", "endorsement_key"}` → `{"status": "valid"}` for an
unendorsed coin bound to that key whose serial is not deposited (a seller's check before it
delivers; nothing recorded), else `{"status": "invalid"}`.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
from typing import Any

import sqlalchemy as sa

from zeenot.babyjub import BASE8, Point
from zeenot.cashlib import ecash, group, kvac
from zeenot.cashlib.clients import read_body
from zeenot.cashlib.group import CredentialError
from zeenot.cashlib.kvac import IssuerKey
from zeenot.runtime.store import Conflict, Store, now
from zeenot.runtime.writers import WriterQueue

MAX_BODY = 1 << 16
MAX_DEPOSITS = 256  # deposits in one `POST /deposits`
MAX_BATCH_BODY = 1 << 20

metadata = sa.MetaData()
bank_keys = sa.Table(
    "cash_bank_keys",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("level", sa.Integer),
    sa.Column("secret", sa.LargeBinary),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)
accounts = sa.Table(
    "cash_accounts",
    metadata,
    sa.Column("public_key", sa.String(64), primary_key=True),
    sa.Column("account", sa.String(128)),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)
deposits = sa.Table(
    "cash_deposits",
    metadata,
    sa.Column("serial", sa.String(64), primary_key=True),
    sa.Column("r", sa.String(64)),
    sa.Column("tag", sa.String(64)),
    sa.Column("merchant", sa.String(128)),
    sa.Column("info_sha256", sa.String(64)),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)


def _hex(p: Point) -> str:
    return group.pack(p).hex()


class BankStore:
    """The bank's state in a `Store`. Its key is made once (the first process to insert wins;
    the others read it), so every process over one database is the same bank."""

    def __init__(self, store: Store, level: int = 10):
        self.store = store
        self.writers = WriterQueue(store)  # bank processes over one SQLite file take turns
        with store.engine.connect() as conn:
            row = conn.execute(sa.select(bank_keys).where(bank_keys.c.id == 1)).first()
        if row is None:
            key = IssuerKey.generate(ecash.ATTRIBUTES)
            try:
                with self.writers.begin() as conn:
                    conn.execute(
                        bank_keys.insert().values(
                            id=1, level=level, secret=key.to_bytes(), created_at=now()
                        )
                    )
            except sa.exc.IntegrityError:
                pass
            with store.engine.connect() as conn:
                row = conn.execute(sa.select(bank_keys).where(bank_keys.c.id == 1)).one()
        self.level = int(row.level)
        self._key = IssuerKey.from_bytes(row.secret)
        self.params = self._key.params

    def __repr__(self) -> str:
        return f"<BankStore: 2^{self.level} coins per wallet>"

    def open_account(self, account: str, public_key: Point) -> None:
        """`Conflict` if the key or the name is another account's."""
        if not isinstance(account, str) or not 1 <= len(account) <= 128:
            raise ValueError("an account name is 1 to 128 characters")
        try:
            with self.writers.begin() as conn:
                taken = conn.execute(
                    sa.select(accounts.c.public_key).where(accounts.c.account == account)
                ).first()
                if taken is not None:
                    if taken.public_key == _hex(public_key):
                        return  # the same account again: idempotent
                    raise Conflict("this account name has another key")
                conn.execute(
                    accounts.insert().values(
                        public_key=_hex(public_key), account=account, created_at=now()
                    )
                )
        except sa.exc.IntegrityError:
            if self.account_of(public_key) != account:
                raise Conflict("this public key is another account's") from None

    def account_of(self, public_key: Point) -> str | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(
                sa.select(accounts.c.account).where(accounts.c.public_key == _hex(public_key))
            ).first()
        return None if row is None else str(row.account)

    def withdraw(
        self, account: str, public_key: Point, request: bytes, *, context: bytes = b""
    ) -> kvac.IssuanceResponse:
        """A wallet for the owner of `account` (`CredentialError` otherwise)."""
        if self.account_of(public_key) != account:
            raise CredentialError("no such account with this public key")
        return kvac.issue(
            self._key,
            request,
            context=context,
            bound={0: public_key},
            offsets=ecash.seed_offsets(),
        )

    def check_unendorsed(
        self, spend: bytes | ecash.Spend, merchant: str, info: bytes, endorsement_key: Point
    ) -> bool:
        """Whether `spend` is an unendorsed coin bound to `endorsement_key` whose serial is not
        yet deposited (for a seller before it delivers; records nothing)."""
        sp = ecash.verify_spend(
            self._key, spend, merchant.encode(), info, self.level, endorsement_key=endorsement_key
        )
        if sp is None:
            return False
        with self.store.engine.connect() as conn:
            seen = conn.execute(
                sa.select(deposits.c.serial).where(deposits.c.serial == _hex(sp.serial))
            ).first()
        return seen is None

    def deposit(
        self,
        spend: bytes | ecash.Spend,
        merchant: str,
        info: bytes,
        *,
        endorsement: int | None = None,
    ) -> ecash.DepositResult:
        """Verify, then store the serial in one transaction (see the module's docstring). An
        unendorsed coin is deposited only with its `endorsement` `x`."""
        return self.deposit_many([(spend, merchant, info, endorsement)])[0]

    def deposit_many(
        self, items: list[tuple[bytes | ecash.Spend, str, bytes, int | None]]
    ) -> list[ecash.DepositResult]:
        """`deposit` for many `(spend, merchant, info, endorsement)` at once, each answer as
        `deposit` would give it: the spends verified in batches (`ecash.verify_spends`), then
        the valid ones' serials inserted in one transaction. If that transaction meets a serial
        already stored (another process, or a duplicate within the batch), it is rolled back
        and each row inserted in its own — the serial's primary key decides, as for one
        deposit. Every answer is given after its row's commit."""
        parsed: list[tuple[bytes | ecash.Spend, bytes, bytes, Point | None] | None] = []
        for spend, merchant, info, endorsement in items:
            if endorsement is not None and (
                isinstance(endorsement, bool)
                or not isinstance(endorsement, int)
                or endorsement % group.L == 0
            ):
                parsed.append(None)
                continue
            x_key = None if endorsement is None else (endorsement % group.L) * BASE8
            parsed.append((spend, merchant.encode(), info, x_key))
        live = [k for k, p in enumerate(parsed) if p is not None]
        verdicts = ecash.verify_spends(self._key, [parsed[k] for k in live], self.level)  # type: ignore[misc]
        results = [ecash.DepositResult(False, "invalid")] * len(items)
        rows: dict[int, dict[str, Any]] = {}
        for k, sp in zip(live, verdicts, strict=True):
            if sp is None:
                continue
            _, mid, info, x_key = parsed[k]  # type: ignore[misc]
            merchant = items[k][1]
            rows[k] = {
                "serial": _hex(sp.serial),
                "r": ecash.spend_r(mid, info, x_key).to_bytes(32, "little").hex(),
                "tag": _hex(sp.tag),
                "merchant": merchant[:128],
                "info_sha256": hashlib.sha256(info).hexdigest(),
                "created_at": now(),
            }
        serials = [row["serial"] for row in rows.values()]
        if rows and len(set(serials)) == len(serials):
            try:
                with self.writers.begin() as conn:
                    conn.execute(deposits.insert(), list(rows.values()))
                for k in rows:
                    results[k] = ecash.DepositResult(True)
                return results
            except sa.exc.IntegrityError:
                pass  # rolled back: one row at a time below
        for k, row in rows.items():
            results[k] = self._store_one(row)
        return results

    def _store_one(self, row: dict[str, Any]) -> ecash.DepositResult:
        try:
            with self.writers.begin() as conn:
                conn.execute(deposits.insert().values(**row))
            return ecash.DepositResult(True)
        except sa.exc.IntegrityError:
            pass
        with self.store.engine.connect() as conn:
            seen = conn.execute(sa.select(deposits).where(deposits.c.serial == row["serial"])).one()
        if seen.r == row["r"]:
            return ecash.DepositResult(False, "replay")
        r = int.from_bytes(bytes.fromhex(row["r"]), "little")
        r_seen = int.from_bytes(bytes.fromhex(seen.r), "little")
        tag = group.unpack(bytes.fromhex(row["tag"]))
        pk = ecash.identify((r_seen, group.unpack(bytes.fromhex(seen.tag))), (r, tag))
        return ecash.DepositResult(False, "double-spend", self.account_of(pk) or _hex(pk))


class DepositBatcher:
    """Deposits that arrive together verified together: each request waits in a queue (a batch
    request's deposits as one entry, taken whole); a worker takes what is queued (up to
    `max_batch` deposits, or one larger entry, after waiting `linger` seconds for company) to
    `BankStore.deposit_many` in a thread, then answers each request with its own result, after
    the commit. Under load the queue fills while a batch is verified, so batches grow with the
    load; alone, a deposit waits `linger` more."""

    def __init__(
        self, bank: BankStore, *, max_batch: int = 64, linger: float = 0.002, workers: int = 2
    ):
        self.bank = bank
        self.max_batch = max_batch
        self.linger = linger
        self.workers = workers
        self._queue: Any = None
        self._tasks: list[Any] = []
        self.batches = 0  # batches verified, deposits in them, the largest (`GET /stats`)
        self.deposits = 0
        self.largest = 0

    async def start(self) -> None:
        self._queue = asyncio.Queue()
        self._tasks = [asyncio.create_task(self._work()) for _ in range(self.workers)]

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()

    async def deposit(
        self, spend: bytes, merchant: str, info: bytes, endorsement: int | None
    ) -> ecash.DepositResult:
        return (await self.deposit_many([(spend, merchant, info, endorsement)]))[0]

    async def deposit_many(
        self, items: list[tuple[bytes, str, bytes, int | None]]
    ) -> list[ecash.DepositResult]:
        """Each deposit queued at once (in order: a batch takes them together) and answered
        after its commit."""
        loop = asyncio.get_running_loop()
        futs = [loop.create_future() for _ in items]
        # one entry: a worker takes the whole group (not one worker a deposit, another the rest)
        self._queue.put_nowait(list(zip(items, futs, strict=True)))  # the queue is unbounded
        return list(await asyncio.gather(*futs))

    async def _work(self) -> None:
        from starlette.concurrency import run_in_threadpool

        while True:
            batch = list(await self._queue.get())
            await asyncio.sleep(self.linger)
            while len(batch) < self.max_batch and not self._queue.empty():
                batch += self._queue.get_nowait()
            self.batches += 1
            self.deposits += len(batch)
            self.largest = max(self.largest, len(batch))
            try:
                results = await run_in_threadpool(self.bank.deposit_many, [i for i, _ in batch])
            except Exception as e:  # the database failed: every request of the batch hears it
                for _, fut in batch:
                    if not fut.done():
                        fut.set_exception(e)
                continue
            for (_, fut), result in zip(batch, results, strict=True):
                if not fut.done():
                    fut.set_result(result)


def build_app(bank: BankStore, *, batcher: DepositBatcher | None = None) -> Any:
    """The bank's Starlette application; deposits go through `batcher` (a `DepositBatcher` of
    this bank by default)."""
    from contextlib import asynccontextmanager

    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    async def body(request: Request) -> dict[str, Any]:
        return await read_body(request, MAX_BODY)

    def field_hex(doc: dict[str, Any], name: str) -> bytes:
        v = doc.get(name, "")
        if not isinstance(v, str):
            raise ValueError(f"{name} is a hex string")
        return bytes.fromhex(v)

    def field_str(doc: dict[str, Any], name: str) -> str:
        v = doc.get(name)
        if not isinstance(v, str) or not 1 <= len(v) <= 128:
            raise ValueError(f"{name} is a string of 1 to 128 characters")
        return v

    def deposit_args(doc: Any) -> tuple[bytes, str, bytes, int | None]:
        """`/deposit`'s body as `DepositBatcher.deposit`'s arguments (`ValueError` if bad)."""
        if not isinstance(doc, dict):
            raise ValueError("a deposit is a JSON object")
        args = (field_hex(doc, "spend"), field_str(doc, "merchant"), field_hex(doc, "info"))
        x = field_hex(doc, "endorsement")  # an endorsed coin's `x`, 32 bytes LE
        if len(x) not in (0, 32):
            raise ValueError("endorsement is 32 bytes")
        return (*args, int.from_bytes(x, "little") if x else None)

    def outcome(result: ecash.DepositResult) -> dict[str, str]:
        if result.accepted:
            return {"status": "accepted"}
        out = {"status": result.reason}
        if result.double_spender is not None:
            out["account"] = str(result.double_spender)
        return out

    async def stats(_: Request) -> Response:
        b = deposits_
        return JSONResponse(
            {"batches": b.batches, "deposits": b.deposits, "largest_batch": b.largest}
        )

    async def params(_: Request) -> Response:
        return JSONResponse({"params": bank.params.to_bytes().hex(), "level": bank.level})

    async def open_account(request: Request) -> Response:
        try:
            doc = await body(request)
            pk = group.unpack(field_hex(doc, "public_key"))
            await run_in_threadpool(bank.open_account, field_str(doc, "account"), pk)
        except Conflict as e:
            return JSONResponse({"status": "conflict", "error": str(e)}, status_code=409)
        except ValueError as e:
            return JSONResponse({"status": "invalid", "error": str(e)}, status_code=400)
        return JSONResponse({"status": "open"}, status_code=201)

    async def withdraw(request: Request) -> Response:
        try:
            doc = await body(request)
            pk = group.unpack(field_hex(doc, "public_key"))
            resp = await run_in_threadpool(
                bank.withdraw,
                field_str(doc, "account"),
                pk,
                field_hex(doc, "request"),
                context=field_hex(doc, "context"),
            )
        except ValueError as e:  # CredentialError included
            return JSONResponse({"status": "refused", "error": str(e)}, status_code=400)
        return JSONResponse({"response": resp.to_bytes().hex()})

    async def deposit(request: Request) -> Response:
        try:
            args = deposit_args(await body(request))
        except ValueError as e:
            return JSONResponse({"status": "invalid", "error": str(e)}, status_code=400)
        result = await deposits_.deposit(*args)
        if result.accepted:
            return JSONResponse({"status": "accepted"})
        if result.reason == "invalid":
            return JSONResponse({"status": "invalid"}, status_code=400)
        return JSONResponse(outcome(result), status_code=409)

    async def deposit_batch(request: Request) -> Response:
        try:
            items = (await read_body(request, MAX_BATCH_BODY)).get("deposits")
            if not isinstance(items, list) or not 1 <= len(items) <= MAX_DEPOSITS:
                raise ValueError(f"deposits is a list of 1 to {MAX_DEPOSITS} deposits")
        except ValueError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        results: list[dict[str, str] | None] = [None] * len(items)
        good, args = [], []
        for k, item in enumerate(items):
            try:
                args.append(deposit_args(item))
                good.append(k)
            except ValueError as e:
                results[k] = {"status": "invalid", "error": str(e)}
        done = await deposits_.deposit_many(args) if args else []
        for k, result in zip(good, done, strict=True):
            results[k] = outcome(result)
        return JSONResponse({"results": results})

    async def check(request: Request) -> Response:
        try:
            doc = await body(request)
            args = (field_hex(doc, "spend"), field_str(doc, "merchant"), field_hex(doc, "info"))
            key = group.unpack(field_hex(doc, "endorsement_key"))
        except ValueError as e:
            return JSONResponse({"status": "invalid", "error": str(e)}, status_code=400)
        valid = await run_in_threadpool(bank.check_unendorsed, *args, key)
        return JSONResponse({"status": "valid" if valid else "invalid"})

    deposits_ = batcher or DepositBatcher(bank)

    @asynccontextmanager
    async def lifespan(_: Any) -> Any:
        await deposits_.start()
        try:
            yield
        finally:
            await deposits_.stop()

    return Starlette(
        lifespan=lifespan,
        routes=[
            Route("/params", params, methods=["GET"]),
            Route("/stats", stats, methods=["GET"]),
            Route("/accounts", open_account, methods=["POST"]),
            Route("/withdraw", withdraw, methods=["POST"]),
            Route("/deposit", deposit, methods=["POST"]),
            Route("/deposits", deposit_batch, methods=["POST"]),
            Route("/check", check, methods=["POST"]),
        ],
    )


def create_app() -> Any:
    """The uvicorn factory each of `--workers N` bank processes runs: configured from the
    environment (`ZEENOT_BANK_DB`, `ZEENOT_BANK_LEVEL`), so that every process is alike."""
    env = os.environ
    return build_app(BankStore(Store(env["ZEENOT_BANK_DB"]), level=int(env["ZEENOT_BANK_LEVEL"])))


def main(argv: list[str] | None = None) -> None:
    """`python -m zeenot.cashlib.bank --db FILE_OR_URL [--host H] [--port P] [--level L]
    [--workers N]`: N processes on one port over one database (stateless but for the
    database: deposits of one coin in any of them, exactly one accepted)."""
    import argparse

    import uvicorn

    ap = argparse.ArgumentParser(description="the e-cash bank (zeenot.cashlib)")
    ap.add_argument("--db", required=True, help="SQLite file or postgresql:// URL")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8031)
    ap.add_argument("--level", type=int, default=10, help="2^level coins per wallet")
    ap.add_argument("--workers", type=int, default=1, help="server processes (1 to 64)")
    args = ap.parse_args(argv)
    if not 1 <= args.workers <= 64:
        ap.error("--workers is from 1 to 64")
    BankStore(Store(args.db), level=args.level)  # migrated and keyed once, before the workers
    os.environ.update(ZEENOT_BANK_DB=args.db, ZEENOT_BANK_LEVEL=str(args.level))
    uvicorn.run(
        "zeenot.cashlib.bank:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        log_level="warning",
        workers=args.workers,
    )


if __name__ == "__main__":
    main()
