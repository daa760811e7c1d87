"""`zeenot certified source serve`: a data source (a meter's head end, a genome lab, a location
provider) that signs its users' blocks over HTTP. Starlette on uvicorn, its state in the
runtime's data layer (`zeenot.certified.store`, migration 0009).

    GET  /health                                   liveness and the schema version
    GET  /.well-known/zeenot-certified-source      the source's name, id and public key
    POST /api/accounts                    [operator] {name, public_key, user}: an account may
                                                   fetch blocks issued to `user` (her Baby
                                                   Jubjub key), signing its requests with the
                                                   Ed25519 `public_key`. 201; 200 the same
                                                   account again; 409 the name is taken
    PUT  /api/readings/{account}/{period} [operator] {bits, values}: what the source measured
                                                   for that account in that period. 201; 200
                                                   the same values again; 409 other values
                                                   (readings are final); 404 no such account
    GET  /api/blocks/{period}             [account] the signed block of the period: 200; 404
                                                   nothing measured for it

[operator]: `Authorization: Bearer TOKEN` of `--operator-token-file`. [account]: a request
signed by the account's Ed25519 key for this source's name (`zeenot.runtime.identity`: time
within 300 s, nonce never seen before by this database; else 401).

**One block per account and period.** Readings are final once written and EdDSA signatures
are deterministic, so asking again for a period answers the same signed block (a retry is
harmless) and the source never signs two different blocks for one user and period: a user
cannot pick the more favourable of two certified versions, and a service that accepts one
result per user and period (`zeenot certified service`) sees every period once.
"""

from __future__ import annotations

import os
import re
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from zeenot.certified.blocks import BIT_WIDTHS, MAX_SOURCE_ID, MAX_VALUES, _int, _point
from zeenot.certified.http import HANDLERS, Refused, json_body, run
from zeenot.certified.keys import WELL_KNOWN, SourceKey
from zeenot.certified.store import Account, CertifiedStore, point_key
from zeenot.runtime.identity import (
    OperatorTokens,
    check_name,
    public_hex,
    public_key,
    request_target,
    verify_request,
)
from zeenot.runtime.store import Store

MAX_BODY = 2 * 2**20  # 65,536 values of up to 10 digits
_PERIOD = re.compile(r"[0-9]{1,10}", re.ASCII)


def _period(text: str) -> int:
    if not _PERIOD.fullmatch(text) or int(text) >= MAX_SOURCE_ID:
        raise Refused(400, "a period is an integer from 0 to 2^32 - 1")
    return int(text)


def build(key: SourceKey, store: Store, operators: OperatorTokens) -> Starlette:
    """The source's ASGI application."""
    cstore = CertifiedStore(store)
    source = key.source()
    published = key.published().to_json()

    def operator(request: Request, what: str) -> None:
        if not operators.check(request.headers.get("authorization")):
            raise Refused(401, f"{what} needs an operator's token (`Authorization: Bearer …`)")

    async def health(_: Request) -> Response:
        version = await run_in_threadpool(store.schema_version)
        return JSONResponse({"status": "ok", "role": "source", "schema": version})

    async def well_known(_: Request) -> Response:
        return JSONResponse(published, headers={"cache-control": "max-age=3600"})

    async def add_account(request: Request) -> Response:
        operator(request, "registering an account")
        doc = await json_body(request, 16_384)
        if not isinstance(doc, dict) or set(doc) != {"name", "public_key", "user"}:
            raise Refused(400, "an account is {name, public_key, user}")
        account = Account(
            check_name(doc["name"], "an account's name"),
            public_hex(public_key(doc["public_key"], "the account's public_key")),
            point_key(_point(doc["user"], "user")),
        )
        outcome = await run_in_threadpool(cstore.add_account, account)
        if outcome == "taken":
            raise Refused(409, f"the account `{account.name}` exists with other keys")
        return JSONResponse(
            {"account": account.name}, status_code=201 if outcome == "created" else 200
        )

    async def put_readings(request: Request) -> Response:
        operator(request, "recording readings")
        name = check_name(request.path_params["account"], "an account's name")
        period = _period(request.path_params["period"])
        doc = await json_body(request, MAX_BODY)
        if not isinstance(doc, dict) or set(doc) != {"bits", "values"}:
            raise Refused(400, "readings are {bits, values}")
        bits = _int(doc["bits"], "bits", 64)
        if bits not in BIT_WIDTHS:
            raise Refused(400, f"bits is one of {BIT_WIDTHS}")
        values = doc["values"]
        if not isinstance(values, list) or not 0 < len(values) <= MAX_VALUES:
            raise Refused(400, f"values is a list of 1 to {MAX_VALUES} integers")
        values = [_int(v, "a value", 2**bits) for v in values]
        if await run_in_threadpool(cstore.account, name) is None:
            raise Refused(404, f"no account `{name}`")
        outcome = await run_in_threadpool(cstore.put_reading, name, period, bits, values)
        if outcome == "final":
            raise Refused(409, f"`{name}`'s readings for period {period} are recorded (final)")
        body = {"account": name, "period": period}
        return JSONResponse(body, status_code=201 if outcome == "stored" else 200)

    async def block(request: Request) -> Response:
        period = _period(request.path_params["period"])
        target = request_target(request.scope)
        name = await run_in_threadpool(_signer, request.method, target, dict(request.headers))
        account = await run_in_threadpool(cstore.account, name)
        assert account is not None  # the signer's key was looked up in the accounts
        reading = await run_in_threadpool(cstore.reading, name, period)
        if reading is None:
            raise Refused(404, f"nothing measured for `{name}` in period {period}")
        x, y = account.user_key.split(",")
        user = _point({"x": x, "y": y}, "the account's user key")
        signed = await run_in_threadpool(source.sign, user, period, reading.values, reading.bits)
        return JSONResponse(signed.to_json(), headers={"cache-control": "no-store"})  # her data

    def _signer(method: str, target: bytes, headers: dict[str, str]) -> str:
        def lookup(name: str) -> Any:
            account = cstore.account(name)
            return None if account is None else public_key(account.auth_key)

        return verify_request(
            method,
            target,
            b"",
            headers,
            audience=key.name,
            lookup=lookup,
            use_nonce=store.use_nonce,
            scope=f"certified-source:{key.name}",
        )

    routes = [
        Route("/health", health),
        Route(WELL_KNOWN, well_known),
        Route("/api/accounts", add_account, methods=["POST"]),
        Route("/api/readings/{account}/{period}", put_readings, methods=["PUT"]),
        Route("/api/blocks/{period}", block),
    ]
    return Starlette(routes=routes, exception_handlers=HANDLERS)


def create_app() -> Starlette:
    """The uvicorn factory: the configuration comes from `serve`'s environment."""
    env = os.environ
    return build(
        SourceKey.load(env["ZEENOT_CERTIFIED_KEY"]),
        Store(env["ZEENOT_CERTIFIED_DB"]),
        OperatorTokens.load(env["ZEENOT_CERTIFIED_OPERATORS"]),
    )


def serve(key_path: str, db: str, operator_token_file: str, host: str, port: int) -> int:
    key = SourceKey.load(key_path)  # diagnostics here, before the server starts
    OperatorTokens.load(operator_token_file)
    Store(db)  # migrated once, before the server starts
    env = {
        "ZEENOT_CERTIFIED_KEY": os.path.abspath(key_path),
        "ZEENOT_CERTIFIED_DB": db,
        "ZEENOT_CERTIFIED_OPERATORS": os.path.abspath(operator_token_file),
    }
    banner = f"zeenot certified source `{key.name}` (id {key.source_id})"
    return run("zeenot.certified.source_server:create_app", env, banner, host, port)
