"""`zeenot certified service serve`: a service (a utility, an insurer, a fitness app) that
accepts results proved from a source's signed blocks, verifying each before it stores it.
Starlette on uvicorn, its state in the runtime's data layer (`zeenot.certified.store`).

    GET  /health                                     liveness and the schema version
    GET  /.well-known/zeenot-certified-service       the program, its hashes, the source
    POST /api/submissions                            a proof (`zeenot prove`'s JSON)

A submission is stored only once all of this holds, in one transaction, before the answer:
the proof is of this service's program with its verifying key (else 400), its public `source`
and `source_id` are the source's published key and id (else 422), it verifies (else 422), and
no result is stored for its source, `user` and `period` (else 409: a replay, or a second result
for a period). 201 answers the stored result. The proof shows that its prover holds the secret
key of `user` and a block the source signed for that user and period; the service keeps the
result, the header fields and the proof's SHA-256, never the data.
"""

from __future__ import annotations

import hashlib
import os

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from zeenot import api
from zeenot.artifacts import Circuit, Keys, Proof
from zeenot.certified.blocks import MAX_SOURCE_ID, _int, _point
from zeenot.certified.client import fetch_published
from zeenot.certified.http import HANDLERS, Refused, read_body, run
from zeenot.certified.keys import Published
from zeenot.certified.store import CertifiedStore, Result, point_key
from zeenot.errors import MalformedInput, ProofRejected
from zeenot.runtime.store import Store

SERVICE_WELL_KNOWN = "/.well-known/zeenot-certified-service"
MAX_PROOF = 1 * 2**20
HEADER = ("source", "source_id", "user", "period")


def load_circuit(directory: str) -> tuple[Circuit, Keys]:
    circuit = api.load(directory)
    if not isinstance(circuit, Circuit):
        raise MalformedInput(f"`{directory}` is not a Groth16 circuit directory")
    params = {p["name"]: p["vis"] for p in circuit.program.params}
    if any(params.get(name) != "public" for name in HEADER):
        raise MalformedInput(
            f"`{directory}`'s program has no public {', '.join(HEADER)}: not a certified use case"
        )
    return circuit, Keys.load(directory, proving=False)


def build(directory: str, source: Published, store: Store) -> Starlette:
    """The service's ASGI application for the circuit in `directory`."""
    circuit, keys = load_circuit(directory)
    cstore = CertifiedStore(store)
    described = {
        "program": circuit.program.ir.get("name"),
        "program_hash": circuit.hash,
        "verifying_key_sha256": keys.verifying_key_hash,
        "source": source.to_json(),
    }

    async def health(_: Request) -> Response:
        version = await run_in_threadpool(store.schema_version)
        return JSONResponse({"status": "ok", "role": "service", "schema": version})

    async def well_known(_: Request) -> Response:
        return JSONResponse(described)

    def accept(raw: bytes) -> Result:
        proof = Proof.from_json(raw)
        if proof.backend != "groth16" or proof.program_hash != circuit.hash:
            raise Refused(400, "a proof of another program than this service's")
        if proof.verifying_key_hash != keys.verifying_key_hash:
            raise Refused(400, "a proof made with another proving key than this service's")
        inputs = proof.public_inputs
        if any(name not in inputs for name in HEADER):
            raise Refused(400, f"a proof names {', '.join(HEADER)} among its public inputs")
        if _point(inputs["source"], "source") != source.public_key:
            raise Refused(422, f"proved against another key than source `{source.name}`'s")
        if _int(inputs["source_id"], "source_id", MAX_SOURCE_ID) != source.source_id:
            raise Refused(422, f"proved for another source id than {source.source_id}")
        user = point_key(_point(inputs["user"], "user"))
        period = _int(inputs["period"], "period", MAX_SOURCE_ID)
        try:
            api.verify(circuit, keys.verifying_key, proof)
        except ProofRejected as exc:
            raise Refused(422, f"the proof does not verify: {exc}") from None
        result = Result(
            source.source_id,
            user,
            period,
            circuit.hash,
            proof.outputs,
            hashlib.sha256(proof.proof).hexdigest(),
        )
        if not cstore.put_result(result):
            raise Refused(409, f"a result is stored for this user and period {period} already")
        return result

    async def submit(request: Request) -> Response:
        raw = await read_body(request, MAX_PROOF)
        result = await run_in_threadpool(accept, raw)
        body = {"user": result.user_key, "period": result.period, "result": result.result}
        return JSONResponse(body, status_code=201)

    routes = [
        Route("/health", health),
        Route(SERVICE_WELL_KNOWN, well_known),
        Route("/api/submissions", submit, methods=["POST"]),
    ]
    return Starlette(routes=routes, exception_handlers=HANDLERS)


def create_app() -> Starlette:
    """The uvicorn factory: the configuration comes from `serve`'s environment."""
    env = os.environ
    source = fetch_published(env["ZEENOT_CERTIFIED_SOURCE"])
    return build(env["ZEENOT_CERTIFIED_CIRCUIT"], source, Store(env["ZEENOT_CERTIFIED_DB"]))


def serve(directory: str, source_url: str, db: str, host: str, port: int) -> int:
    load_circuit(directory)  # diagnostics here, before the server starts
    source = fetch_published(source_url)
    Store(db)
    env = {
        "ZEENOT_CERTIFIED_CIRCUIT": os.path.abspath(directory),
        "ZEENOT_CERTIFIED_SOURCE": source_url,
        "ZEENOT_CERTIFIED_DB": db,
    }
    banner = f"zeenot certified service for source `{source.name}` (id {source.source_id})"
    return run("zeenot.certified.service_server:create_app", env, banner, host, port)
