"""`zeenot serve`: the server tier as an ASGI application (Starlette on uvicorn).

Routes (JSON unless said otherwise):

    GET  /api/health                                  liveness and the schema version
    GET  /api/apps                                    the applications served
    GET  /api/apps/{app}                              descriptor: program and key hashes,
                                                      published parameters, the proofs a run carries
    GET  /api/apps/{app}/regions/{region}/proving_key     bytes (its SHA-256 is in the descriptor)
    GET  /api/apps/{app}/regions/{region}/verifying_key   bytes
    POST /api/apps/{app}/submissions                  a client's run: 201 stored, 200 a retry of
                                                      a stored one, 4xx refused (nothing stored);
                                                      signed by a registered client where the
                                                      application declares `Clients(...)`
    GET  /api/apps/{app}/submissions                  the latest accepted (?limit=)  [operator;
                                                      a signed client: its own]
    GET  /api/apps/{app}/submissions/{id}             one accepted submission's result  [idem]
    GET  /api/rejections                              the latest refusals and why (?limit=)
                                                      [operator]
    GET  /metrics                                     Prometheus metrics of this process
                                                      (runtime/metrics.py)  [operator]
    GET  /                                            the dashboard (runtime/dashboard.py)
    GET  /api/apps/{app}/dashboard                    one application's panel  [operator]
    POST /api/apps/{app}/clients                      register a client's public key  [operator]
    GET  /api/apps/{app}/clients                      the registered clients  [operator]
    GET  /api/identity                                this server's name and public key
    GET  /api/servers/whoami                          [signed by a server of the roster]
    GET  /api/apps/{app}/rounds/{round}               a peers' round: roster, progress, result
    POST /api/apps/{app}/rounds/{round}/peers         register (answers the peer's token)
    POST /api/apps/{app}/rounds/{round}/shares        a verified share and its sealed messages
    GET  /api/apps/{app}/rounds/{round}/mailbox/{peer}    the messages sealed to that peer
    POST /api/apps/{app}/rounds/{round}/partials      a verified partial sum
    POST /api/apps/{app}/rounds/{round}/complaints    a peer names a sender whose share it
                                                      cannot open (the server judges it)

The process keeps no state of its own beyond what it derives from the application's source and
reads from the database, so any number of them can serve one database (`--workers`, or
processes on several machines over one PostgreSQL). [operator]: `Authorization: Bearer TOKEN`
of `--operator-token-file`, unless the server runs with `--public-reads`
(`runtime/identity.py`).
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import AsyncIterator, Mapping
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from zeenot.application import load_application
from zeenot.errors import MalformedInput
from zeenot.files import parse_json
from zeenot.runtime import dashboard, metrics
from zeenot.runtime.bodies import BodyRefused, bounded_body
from zeenot.runtime.identity import (
    AuthError,
    Gate,
    Key,
    OperatorTokens,
    Roster,
    check_name,
    public_key,
    request_target,
)
from zeenot.runtime.jobs import (
    RETENTION,
    JobRunner,
    check_retention,
    forward,
    job_row,
    retention,
)
from zeenot.runtime.relay import Relay
from zeenot.runtime.service import Rejected, Service
from zeenot.runtime.store import Conflict, Store

MAX_LIMIT = 500
_NAME = re.compile(r"[A-Za-z0-9._-]{1,64}", re.ASCII)
_DIGITS = re.compile(r"[0-9]{1,12}", re.ASCII)  # `str.isdigit` admits "²", which `int` refuses


def build(
    services: dict[str, Service],
    store: Store,
    gate: Gate | None = None,
    runner: JobRunner | None = None,
    *,
    access_log: bool = False,
) -> Starlette:
    """The ASGI application serving `services` (by application name) from `store`; `gate`
    says who may do what (default: no identity, no operators, reads refused), `runner` runs
    jobs while the application is up; `access_log`: a line per request (runtime/metrics.py)."""
    gate = gate or Gate("zeenot", store)

    def service(request: Request) -> Service:
        name = request.path_params["app"]
        if name not in services:
            raise Rejected(404, f"no application `{name}` here (served: {sorted(services)})")
        return services[name]

    async def health(_: Request) -> Response:
        version = await run_in_threadpool(store.schema_version)
        return JSONResponse({"status": "ok", "schema": version, "apps": sorted(services)})

    async def apps(_: Request) -> Response:
        return JSONResponse({name: s.app.source_sha256 for name, s in services.items()})

    async def descriptor(request: Request) -> Response:
        return JSONResponse(service(request).descriptor())

    async def key(request: Request) -> Response:
        svc = service(request)
        region = svc.regions.get(request.path_params["region"])
        if region is None or region.keys is None:
            raise Rejected(404, f"no Groth16 region `{request.path_params['region']}`")
        kind = request.path_params["kind"]
        if kind not in ("proving_key", "verifying_key"):
            raise Rejected(404, f"no `{kind}`: proving_key or verifying_key")
        data = region.keys.proving_key if kind == "proving_key" else region.keys.verifying_key
        return Response(data, media_type="application/octet-stream")

    def refuse(svc: Service, exc: Rejected | AuthError) -> None:
        """Log a refusal the service never saw (the body, the signature)."""
        metrics.refused(svc.app.name, exc.status, exc.reason)
        store.reject(svc.app.name, None, exc.status, exc.reason)

    def gate_and_submit(
        svc: Service, method: str, target: bytes, body: bytes, headers: Mapping[str, str]
    ) -> tuple[int, dict[str, Any]]:
        # one hop to the thread pool a submission: the signature and its nonce, then the run
        try:
            client = gate.client(svc.app.name, method, target, body, headers)
        except (Rejected, AuthError) as exc:
            refuse(svc, exc)
            raise
        return svc.submit(body, client)  # logs its own refusals

    async def submit(request: Request) -> Response:
        svc = service(request)
        try:
            body = await _bounded_body(request, svc.max_body)
        except Rejected as exc:
            await run_in_threadpool(refuse, svc, exc)
            raise
        status, doc = await run_in_threadpool(
            gate_and_submit,
            svc,
            request.method,
            request_target(request.scope),
            body,
            request.headers,
        )
        return JSONResponse(doc, status_code=status)

    async def reader(request: Request, app: str | None, what: str) -> str | None:
        return await run_in_threadpool(
            gate.reader, app, request.method, request_target(request.scope), request.headers, what
        )

    async def submissions(request: Request) -> Response:
        svc = service(request)
        limit = _limit(request)
        client = await reader(request, svc.app.name, "reading submissions")
        rows = await run_in_threadpool(
            lambda: store.recent_submissions(svc.app.name, limit, client=client)
        )
        return JSONResponse(
            [
                {"id": r.id, "accepted_at": r.accepted_at.isoformat(), "result": r.result}
                for r in rows
            ]
        )

    async def submission(request: Request) -> Response:
        svc = service(request)
        sid = request.path_params["sid"]
        client = await reader(request, svc.app.name, "reading a submission")
        row = await run_in_threadpool(store.submission, svc.app.name, sid)
        if row is None or (client is not None and row.client != client):
            raise Rejected(404, f"no accepted submission `{sid}`")
        return JSONResponse(
            {"id": row.id, "accepted_at": row.accepted_at.isoformat(), "result": row.result}
        )

    async def rejections(request: Request) -> Response:
        limit = _limit(request)
        await reader(request, None, "reading rejections")
        rows = await run_in_threadpool(store.recent_rejections, None, limit)
        return JSONResponse(rows)

    async def register_client(request: Request) -> Response:
        """An operator registers a client's public key (the client made the key and keeps its
        private half: the server can check the client's signatures, never make one)."""
        svc = service(request)
        gate.require_operator(request.headers, "registering a client")
        if svc.app.clients is None:
            raise Rejected(
                404, f"`{svc.app.name}` takes no registered clients (it declares no Clients)"
            )
        body = await _bounded_body(request, 4096)
        try:
            doc = parse_json(body, "a client")
            if not isinstance(doc, dict) or set(doc) != {"name", "public_key"}:
                raise MalformedInput('a client is {"name": …, "public_key": …}')
            name = check_name(doc["name"], "a client's name")
            public_key(doc["public_key"], "a client's public key")
        except MalformedInput as exc:
            raise Rejected(400, str(exc)) from None
        try:
            await run_in_threadpool(store.register_client, svc.app.name, name, doc["public_key"])
        except Conflict:
            raise Rejected(
                409, f"a client `{name}`, or one with this key, is registered already"
            ) from None
        return JSONResponse(
            {"app": svc.app.name, "name": name, "public_key": doc["public_key"]}, status_code=201
        )

    async def list_clients(request: Request) -> Response:
        svc = service(request)
        gate.require_operator(request.headers, "listing clients")
        rows = await run_in_threadpool(store.clients, svc.app.name)
        return JSONResponse([{"name": n, "public_key": k} for n, k in rows])

    async def exposition(request: Request) -> Response:
        if not gate.public_reads:
            gate.require_operator(request.headers, "reading metrics")
        return Response(metrics.REGISTRY.exposition(), media_type=metrics.CONTENT_TYPE)

    async def identity(_: Request) -> Response:
        return JSONResponse(gate.describe())

    async def whoami(request: Request) -> Response:
        """A server of the roster asks who this server is (and learns that it was recognised):
        the check two servers of a deployment run before they hand each other work."""
        body = await _bounded_body(request, 4096)
        signer = await run_in_threadpool(
            gate.server, request.method, request_target(request.scope), body, request.headers
        )
        assert gate.roster is not None
        return JSONResponse(
            {**gate.describe(), "you": signer, "roster": sorted(gate.roster.servers)}
        )

    relays = {name: Relay(svc) for name, svc in services.items() if svc.app.peer_sum is not None}

    def relay(request: Request) -> Relay:
        name = request.path_params["app"]
        if name not in relays:
            raise Rejected(404, f"no application of peers `{name}` here")
        if not _NAME.fullmatch(request.path_params["round"]):
            raise Rejected(400, "a round's name is 1 to 64 characters of A-Z a-z 0-9 . _ -")
        return relays[name]

    async def peer_call(request: Request, action: str) -> Response:
        """A peer's request, refused ones logged with the peer named (not its token)."""
        r = relay(request)
        rnd = request.path_params["round"]
        token = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
        body = b""
        try:
            if request.method == "POST":
                body = await _bounded_body(request, r.service.max_body)
            if action == "register":
                doc = await run_in_threadpool(r.register, rnd, body)
            elif action == "share":
                doc = await run_in_threadpool(r.share, rnd, token, body)
            elif action == "partial":
                doc = await run_in_threadpool(r.partial, rnd, token, body)
            elif action == "complaint":
                doc = await run_in_threadpool(r.complaint, rnd, token, body)
            else:
                doc = await run_in_threadpool(
                    r.mailbox,
                    rnd,
                    token,
                    request.path_params["peer"],
                    request.query_params.get("attempt"),
                )
        except Rejected as exc:
            where = f"round {rnd}"
            await run_in_threadpool(store.reject, r.app, where, exc.status, exc.reason)
            raise
        return JSONResponse(doc, status_code=201 if request.method == "POST" else 200)

    async def round_status(request: Request) -> Response:
        r = relay(request)
        return JSONResponse(await run_in_threadpool(r.status, request.path_params["round"]))

    def peer_route(path: str, action: str, method: str) -> Route:
        async def endpoint(request: Request) -> Response:
            return await peer_call(request, action)

        return Route(path, endpoint, methods=[method])

    async def refused(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, (Rejected, AuthError))
        headers = {"www-authenticate": "Bearer"} if exc.status == 401 else None
        return JSONResponse(
            {"status": "rejected", "reason": exc.reason}, status_code=exc.status, headers=headers
        )

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        if runner is not None:
            runner.start()
        try:
            yield
        finally:
            if runner is not None:
                await run_in_threadpool(runner.stop)

    routes = [
        Route("/api/health", health),
        Route("/api/apps", apps),
        Route("/api/apps/{app}", descriptor),
        Route("/api/apps/{app}/regions/{region}/{kind:str}", key),
        Route("/api/apps/{app}/submissions", submit, methods=["POST"]),
        Route("/api/apps/{app}/submissions", submissions),
        Route("/api/apps/{app}/submissions/{sid}", submission),
        Route("/api/rejections", rejections),
        Route("/api/apps/{app}/clients", register_client, methods=["POST"]),
        Route("/api/apps/{app}/clients", list_clients),
        Route("/api/identity", identity),
        Route("/metrics", exposition),
        Route("/api/servers/whoami", whoami, methods=["GET", "POST"]),
        Route("/api/apps/{app}/rounds/{round:str}", round_status),
        peer_route("/api/apps/{app}/rounds/{round:str}/peers", "register", "POST"),
        peer_route("/api/apps/{app}/rounds/{round:str}/shares", "share", "POST"),
        peer_route("/api/apps/{app}/rounds/{round:str}/partials", "partial", "POST"),
        peer_route("/api/apps/{app}/rounds/{round:str}/complaints", "complaint", "POST"),
        peer_route("/api/apps/{app}/rounds/{round:str}/mailbox/{peer:str}", "mailbox", "GET"),
        *dashboard.routes(services, relays, store, gate),
    ]
    return Starlette(
        routes=routes,
        exception_handlers={Rejected: refused, AuthError: refused},
        lifespan=lifespan,
        middleware=[Middleware(metrics.AccessLog, apps=frozenset(services), log=access_log)],
    )


async def _bounded_body(request: Request, limit: int) -> bytes:
    """The request body: JSON only (415 otherwise), within `runtime/bodies.py`'s bounds (refused
    past `limit` before it is all read, and past `BODY_TIMEOUT`); an empty body for a request
    that declares none (a signed GET hashes the empty one)."""
    too_large = f"submission larger than {limit} bytes"
    declared = request.headers.get("content-length")
    if declared is not None and (not _DIGITS.fullmatch(declared) or int(declared) > limit):
        raise Rejected(413, too_large)
    if declared in (None, "0") and "transfer-encoding" not in request.headers:
        return b""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Rejected(415, "send the body as JSON (`content-type: application/json`)")
    try:
        return await bounded_body(request, limit, too_large)
    except BodyRefused as refusal:
        raise Rejected(refusal.status, refusal.reason) from None


def _limit(request: Request) -> int:
    raw = request.query_params.get("limit", "50")
    if not _DIGITS.fullmatch(raw) or not 1 <= int(raw) <= MAX_LIMIT:
        raise Rejected(400, f"`limit` is an integer from 1 to {MAX_LIMIT}")
    return int(raw)


def create_app() -> Starlette:
    """The uvicorn factory `zeenot serve` starts in each worker process; its configuration
    comes from the environment so that `--workers N` processes are configured alike."""
    env = os.environ
    paths = [p for p in env["ZEENOT_SERVE_APPS"].split(os.pathsep) if p]
    store = Store(env["ZEENOT_SERVE_DB"])
    max_body = int(env.get("ZEENOT_SERVE_MAX_BODY", "0")) or None
    gate = configure_gate(store, env)
    services: dict[str, Service] = {}
    for path in paths:
        app = load_application(path)
        kwargs: dict[str, Any] = {"max_body": max_body} if max_body else {}
        services[app.name] = Service(app, store, **kwargs)
    retain = env.get("ZEENOT_SERVE_RETAIN_DAYS")
    retain_days = int(retain) if retain else None
    check_retention(retain_days, {name: svc.app.clients for name, svc in services.items()})
    handlers = {"retention": retention(store, retain_days, tuple(services))}
    if env.get("ZEENOT_SERVE_FORWARD"):
        url = env["ZEENOT_SERVE_FORWARD"]
        if gate.key is None:
            raise MalformedInput("--forward signs what it delivers: give the server --identity")
        handlers["forward"] = forward(gate.key, url, env.get("ZEENOT_SERVE_FORWARD_TO", "sink"))
        for svc in services.values():
            svc.on_accept = _outbox(svc.app.name)
    runner = JobRunner(store, handlers, periodic=[RETENTION])
    access_log = env.get("ZEENOT_SERVE_ACCESS_LOG", "1") == "1"
    if access_log:
        metrics.log_to_stderr()
    return build(services, store, gate, runner, access_log=access_log)


def configure_gate(store: Store, env: Mapping[str, str]) -> Gate:
    """The server's identity, roster and operators, from `zeenot serve`'s options."""
    key = Key.load(env["ZEENOT_SERVE_IDENTITY"]) if env.get("ZEENOT_SERVE_IDENTITY") else None
    name = env.get("ZEENOT_SERVE_NAME") or (key.name if key else "zeenot")
    roster = Roster.load(env["ZEENOT_SERVE_ROSTER"]) if env.get("ZEENOT_SERVE_ROSTER") else None
    tokens = env.get("ZEENOT_SERVE_OPERATORS")
    return Gate(
        name=check_name(name, "the server's name"),
        store=store,
        key=key,
        roster=roster,
        operators=OperatorTokens.load(tokens) if tokens else None,
        public_reads=env.get("ZEENOT_SERVE_PUBLIC_READS") == "1",
    )


def _outbox(app: str) -> Any:
    def jobs(sid: str, digest: str, result: Any) -> list[dict[str, Any]]:
        payload = {"app": app, "id": sid, "digest": digest, "result": result}
        return [job_row("forward", f"forward:{app}:{sid}", payload)]

    return jobs
