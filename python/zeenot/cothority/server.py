"""`zeenot cothority serve`: one server of a collective authority, a Starlette application.

Routes (JSON):

    GET  /cothority/health                 liveness, whether the DKG is done, records held
    GET  /cothority/dkg                    the DKG transcript: every dealing's commitments and
                                           proof of knowledge, the collective key, the
                                           verification keys (public)
    POST /cothority/dkg/dealing            this server's dealing for the signing server, its
                                           share sealed to the X25519 key in the body [server]
    POST /cothority/records                a provider's records: each verified, stored, then
                                           acknowledged (201), relayed to the others [provider]
    POST /cothority/records/relay          records relayed by another server [server]
    GET  /cothority/records                every record held (the auditor's input; public)
    POST /cothority/steps/{step}           shuffle, tag, noise or keyswitch for a query [server]
    POST /cothority/queries                a query, led by this server (202) [querier]
    GET  /cothority/queries/{id}           its state and, once done, its transcript (public)

[server], [provider], [querier]: a request signed (runtime/identity.py) by a server, provider
or querier of the roster; anything else is refused 401, a replayed nonce too.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from zeenot.cothority.db import Db
from zeenot.cothority.leader import run_query
from zeenot.cothority.model import Deployment, Query
from zeenot.cothority.node import Node, StepRefused
from zeenot.errors import MalformedInput
from zeenot.files import parse_json
from zeenot.runtime.identity import AuthError, Key, request_target, verify_request
from zeenot.runtime.jobs import JobRunner
from zeenot.runtime.store import Store

MAX_BODY = 64 << 20


def build(dep: Deployment, key: Key, store: Store, *, start: bool = True) -> Starlette:
    node = Node(dep, key, store)
    db = Db(store)
    runner = JobRunner(
        store, {"relay": node.relay, "query": lambda p: run_query(node, p["id"])}, poll=0.2
    )

    def lookup_for(roles: tuple[str, ...]):  # type: ignore[no-untyped-def]
        tables = {"server": dep.roster.servers, "provider": dep.providers, "querier": dep.queriers}

        def lookup(name: str) -> Any:
            for role in roles:
                if name in tables[role]:
                    return tables[role][name]
            return None

        return lookup

    async def signed(request: Request, *roles: str) -> tuple[str, bytes]:
        body = await request.body()
        if len(body) > MAX_BODY:
            raise StepRefused(413, f"a body is at most {MAX_BODY} bytes")
        try:
            who = await run_in_threadpool(
                verify_request,
                request.method,
                request_target(request.scope),
                body,
                request.headers,
                audience=node.name,
                lookup=lookup_for(roles),
                use_nonce=store.use_nonce,
                scope="cothority",
            )
        except AuthError as exc:
            reason = exc.reason
            if reason.startswith("unknown signer"):
                reason += f": not a {' or '.join(roles)} of the roster"
            raise StepRefused(401, reason) from None
        return who, body

    def parsed(body: bytes) -> Any:
        try:
            return parse_json(body, "the request")
        except MalformedInput as exc:
            raise StepRefused(400, str(exc)) from None

    async def health(_: Request) -> Response:
        count = await run_in_threadpool(db.count_records)
        return JSONResponse(
            {"status": "ok", "server": node.name, "dkg": node.keys is not None, "records": count}
        )

    async def dkg(_: Request) -> Response:
        doc = await run_in_threadpool(node.dkg_transcript)
        if doc is None:
            raise StepRefused(503, "the DKG has not finished yet")
        return JSONResponse(doc)

    async def dealing(request: Request) -> Response:
        who, body = await signed(request, "server")
        doc = parsed(body)
        x = doc.get("x25519") if isinstance(doc, dict) else None
        try:
            out = await run_in_threadpool(node.dealing_for, who, x)
        except MalformedInput as exc:
            raise StepRefused(400, str(exc)) from None
        return JSONResponse(out)

    async def records(request: Request) -> Response:
        who, body = await signed(request, "provider")
        out = await run_in_threadpool(node.accept, parsed(body), who, False)
        return JSONResponse(out, status_code=201 if out["accepted"] else 400)

    async def relay(request: Request) -> Response:
        who, body = await signed(request, "server")
        out = await run_in_threadpool(node.accept, parsed(body), who, True)
        return JSONResponse(out)

    async def all_records(_: Request) -> Response:
        rows = await run_in_threadpool(db.records)
        return Response("[" + ",".join(b for _, b in rows) + "]", media_type="application/json")

    async def step(request: Request) -> Response:
        _, body = await signed(request, "server")
        out = await run_in_threadpool(node.step, request.path_params["step"], parsed(body))
        return JSONResponse(out)

    async def new_query(request: Request) -> Response:
        who, body = await signed(request, "querier")
        doc = parsed(body)
        try:
            query = Query.from_json(doc, dep.schema)
        except MalformedInput as exc:
            raise StepRefused(400, str(exc)) from None
        node.ready()
        created = await run_in_threadpool(db.new_query, query.id, who, doc)
        if created:
            await run_in_threadpool(
                runner.jobs.enqueue, "query", f"query:{query.id}", {"id": query.id}, max_attempts=20
            )
        return JSONResponse({"id": query.id, "created": created}, status_code=202)

    async def get_query(request: Request) -> Response:
        row = await run_in_threadpool(db.query, request.path_params["id"])
        if row is None:
            raise StepRefused(404, "no such query here")
        out = {k: row[k] for k in ("id", "querier", "state", "error", "transcript")}
        return Response(json.dumps(out), media_type="application/json")

    async def refused(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, StepRefused)
        return JSONResponse({"error": exc.reason}, status_code=exc.status)

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        thread = threading.Thread(target=node.run_dkg, name="cothority-dkg", daemon=True)
        if start:
            thread.start()
            runner.start()
        try:
            yield
        finally:
            node.stop()
            runner.stop()

    routes = [
        Route("/cothority/health", health),
        Route("/cothority/dkg", dkg),
        Route("/cothority/dkg/dealing", dealing, methods=["POST"]),
        Route("/cothority/records", records, methods=["POST"]),
        Route("/cothority/records", all_records, methods=["GET"]),
        Route("/cothority/records/relay", relay, methods=["POST"]),
        Route("/cothority/steps/{step}", step, methods=["POST"]),
        Route("/cothority/queries", new_query, methods=["POST"]),
        Route("/cothority/queries/{id}", get_query),
    ]
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers={StepRefused: refused})


def create_app() -> Starlette:
    """uvicorn's factory: the options from the environment (`zeenot cothority serve`)."""
    env = os.environ
    dep = Deployment.load(env["ZEENOT_COTHORITY_ROSTER"])
    return build(dep, Key.load(env["ZEENOT_COTHORITY_KEY"]), Store(env["ZEENOT_COTHORITY_DB"]))
