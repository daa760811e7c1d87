"""`zeenot certified service serve --weights W.json`: a service of path (b) (docs/certified.md),
whose weights stay private. Starlette on uvicorn, its state in `zeenot.certified.store`
(migration 0013's table).

    GET  /health
    GET  /.well-known/zeenot-certified-service      the program, its hashes, the source
    POST /api/encrypted/submissions                 a bundle (her ciphertexts, proved)
    POST /api/encrypted/decryptions                 the decrypted sums with DLEQ proofs

A bundle is accepted only if it is of this service's program in regions (else 400), its public
`source` and `source_id` are the source's (else 422), it verifies — the main region's Groth16
proof (her key, the source's signature on the block) and the sigma region's proof that the
ciphertexts encrypt exactly the signed values, linked by commitments (else 422) — and nothing
is stored for its source, `user` and `period` (else 409). The service then computes each row
of its weights over the ciphertexts, re-randomised, stores the sums with the bundle's SHA-256
in one transaction, and answers them (201).

Decryptions are accepted once per stored row: one value and one proof of `decrypts_dleq`
(sigma back end) per sum, each proof's public inputs exactly the user's key, the stored sum and
the value (else 422), each verifying (else 422); no row: 404; results recorded already: 409.
The results (each value divided by the weights' divisor) are stored before the 201.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from zeenot import api, bundle
from zeenot.artifacts import Keys, Proof
from zeenot.certified.blocks import MAX_SOURCE_ID, _int, _point
from zeenot.certified.client import fetch_published
from zeenot.certified.encrypted import (
    Weights,
    decrypts_dleq,
    dleq_inputs,
    parse_ciphertexts,
)
from zeenot.certified.http import HANDLERS, Refused, json_body, read_body, run
from zeenot.certified.keys import Published
from zeenot.certified.store import CertifiedStore, Encrypted, point_key
from zeenot.errors import MalformedInput, ProofRejected
from zeenot.files import parse_json, read_text
from zeenot.ir import to_json_value
from zeenot.runtime.store import Store

SERVICE_WELL_KNOWN = "/.well-known/zeenot-certified-service"
MAX_BUNDLE = 32 * 2**20  # 2,048 SNPs: ~3 MB
MAX_DECRYPTIONS = 1 * 2**20
HEADER = ("source", "source_id", "user", "period")


def load_weights(path: str) -> Weights:
    return Weights.from_json(parse_json(read_text(path, "weights"), f"the weights `{path}`"))


def load_program(directory: str) -> tuple[bundle.Regions, Keys]:
    """The program in regions and its main region's verifying key."""
    regions = api.load(directory)
    if not isinstance(regions, bundle.Regions):
        raise MalformedInput(f"`{directory}` holds no program in regions (path (b))")
    params = {p["name"]: p["vis"] for p in regions.circuits[regions.name].program.params}
    if any(params.get(name) != "public" for name in HEADER):
        raise MalformedInput(
            f"`{directory}`'s program has no public {', '.join(HEADER)}: not a certified use case"
        )
    return regions, Keys.load(bundle.region_dir(directory, regions.name), proving=False)


def build(directory: str, weights: Weights, source: Published, store: Store) -> Starlette:
    """The path (b) service's ASGI application."""
    regions, keys = load_program(directory)
    verifier = bundle.BundleVerifier(regions, {regions.name: keys.verifying_key})
    dleq = api.compile(decrypts_dleq)
    cstore = CertifiedStore(store)
    described = {
        "path": "b",
        "program": regions.name,
        "regions_hash": regions.hash,
        "verifying_key_sha256": keys.verifying_key_hash,
        "decryption_program_hash": dleq.hash,
        "results": weights.names,
        "ciphertexts": weights.width,
        "source": source.to_json(),
    }

    async def health(_: Request) -> Response:
        version = await run_in_threadpool(store.schema_version)
        return JSONResponse({"status": "ok", "role": "service", "schema": version})

    async def well_known(_: Request) -> Response:
        return JSONResponse(described)

    def accept_bundle(raw: bytes) -> tuple[Encrypted, Any]:
        proved = bundle.Bundle.from_json(raw)
        if proved.program != regions.name or proved.regions_hash != regions.hash:
            raise Refused(400, "a bundle of another program than this service's")
        inputs = proved.public_inputs
        if any(name not in inputs for name in HEADER):
            raise Refused(400, f"a bundle names {', '.join(HEADER)} among its public inputs")
        if _point(inputs["source"], "source") != source.public_key:
            raise Refused(422, f"proved against another key than source `{source.name}`'s")
        if _int(inputs["source_id"], "source_id", MAX_SOURCE_ID) != source.source_id:
            raise Refused(422, f"proved for another source id than {source.source_id}")
        user = _point(inputs["user"], "user")
        period = _int(inputs["period"], "period", MAX_SOURCE_ID)
        if cstore.encrypted_row(source.source_id, point_key(user), period) is not None:
            # refused before the costly verification; the insert below stays the authority
            raise Refused(409, f"a submission is stored for this user and period {period} already")
        try:
            verifier.verify(proved)
        except ProofRejected as exc:
            raise Refused(422, f"the bundle does not verify: {exc}") from None
        cts = parse_ciphertexts(proved.outputs, "the bundle's ciphertexts")
        if len(cts) != weights.width:
            raise Refused(422, f"{len(cts)} ciphertexts; this service computes on {weights.width}")
        sums = to_json_value(weights.apply(cts, user))
        row = Encrypted(
            source.source_id,
            point_key(user),
            period,
            regions.hash,
            hashlib.sha256(raw).hexdigest(),
            sums,
        )
        if not cstore.put_encrypted(row):
            raise Refused(409, f"a submission is stored for this user and period {period} already")
        return row, inputs["user"]

    def accept_decryptions(doc: Any) -> list[int]:
        if not isinstance(doc, dict) or set(doc) != {"user", "period", "values", "proofs"}:
            raise MalformedInput("expected {user, period, values, proofs}")
        user = _point(doc["user"], "user")
        period = _int(doc["period"], "period", MAX_SOURCE_ID)
        row = cstore.encrypted_row(source.source_id, point_key(user), period)
        if row is None:
            raise Refused(404, f"no encrypted submission for this user and period {period}")
        if row.result is not None:
            raise Refused(409, f"the results for this user and period {period} are stored")
        sums = parse_ciphertexts(row.sums, "the stored sums")
        values, proofs = doc["values"], doc["proofs"]
        if not isinstance(values, list) or not isinstance(proofs, list):
            raise MalformedInput("`values` and `proofs` are lists")
        if len(values) != len(sums) or len(proofs) != len(sums):
            raise Refused(422, f"one value and one proof for each of the {len(sums)} sums")
        for j, (ct, m, p) in enumerate(zip(sums, values, proofs, strict=True)):
            _int(m, f"values[{j}]", 2**64)
            proof = Proof.from_json(json.dumps(p))
            if proof.backend != "sigma" or proof.program_hash != dleq.hash:
                raise Refused(422, f"proofs[{j}] is not a proof of decryption")
            if proof.public_inputs != dleq_inputs(user, ct, m):
                raise Refused(422, f"proofs[{j}] is about another key, sum or value")
            try:
                api.verify(dleq, None, proof)
            except ProofRejected as exc:
                raise Refused(422, f"proofs[{j}] does not verify: {exc}") from None
        results = weights.finish(values)
        if not cstore.put_decrypted(source.source_id, point_key(user), period, results):
            raise Refused(409, f"the results for this user and period {period} are stored")
        return results

    async def submit(request: Request) -> Response:
        raw = await read_body(request, MAX_BUNDLE)
        row, user = await run_in_threadpool(accept_bundle, raw)
        body = {"user": user, "period": row.period, "sums": row.sums}
        return JSONResponse(body, status_code=201)

    async def decryptions(request: Request) -> Response:
        doc = await json_body(request, MAX_DECRYPTIONS)
        results = await run_in_threadpool(accept_decryptions, doc)
        return JSONResponse(
            {"period": doc["period"], "results": dict(zip(weights.names, results, strict=True))},
            status_code=201,
        )

    routes = [
        Route("/health", health),
        Route(SERVICE_WELL_KNOWN, well_known),
        Route("/api/encrypted/submissions", submit, methods=["POST"]),
        Route("/api/encrypted/decryptions", decryptions, methods=["POST"]),
    ]
    return Starlette(routes=routes, exception_handlers=HANDLERS)


def create_app() -> Starlette:
    """The uvicorn factory: the configuration comes from `serve`'s environment."""
    env = os.environ
    source = fetch_published(env["ZEENOT_CERTIFIED_SOURCE"])
    weights = load_weights(env["ZEENOT_CERTIFIED_WEIGHTS"])
    store = Store(env["ZEENOT_CERTIFIED_DB"])
    return build(env["ZEENOT_CERTIFIED_CIRCUIT"], weights, source, store)


def serve(directory: str, weights: str, source_url: str, db: str, host: str, port: int) -> int:
    load_program(directory)  # diagnostics here, before the server starts
    load_weights(weights)
    source = fetch_published(source_url)
    Store(db)
    env = {
        "ZEENOT_CERTIFIED_CIRCUIT": os.path.abspath(directory),
        "ZEENOT_CERTIFIED_WEIGHTS": os.path.abspath(weights),
        "ZEENOT_CERTIFIED_SOURCE": source_url,
        "ZEENOT_CERTIFIED_DB": db,
    }
    banner = f"zeenot certified service (path (b)) for source `{source.name}`"
    return run("zeenot.certified.encrypted_server:create_app", env, banner, host, port)
