"""The baseline of benchmarks/runtime_load.py: the same stack as `zeenot serve` that only stores.

    python benchmarks/bare_endpoint.py --db FILE_OR_URL --port P

Starlette on uvicorn (one process, the same uvicorn settings), zeenot's data layer (`Store`:
the same SQLite pragmas or PostgreSQL driver, migrations run), and one route,
`POST /api/apps/payd/submissions`, that reads the body within the same size limit, parses it as
JSON, and stores the submission's id and body digest in one transaction (201; 409 for an id
seen before). No signature, no proof, no binding, no input check, no worker: the difference in
throughput with `zeenot serve` on the same bodies is the cost of trusting nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import json

import sqlalchemy as sa
import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from zeenot.runtime.store import Store, now, submissions_table

MAX_BODY = 1 << 20


def build(store: Store) -> Starlette:
    def put(body: bytes) -> int:
        doc = json.loads(body)
        row = {
            "app": "payd",
            "id": str(doc["id"])[:64],
            "digest": hashlib.sha256(body).hexdigest(),
            "result": "null",
            "accepted_at": now(),
        }
        try:
            with store.engine.begin() as conn:
                conn.execute(submissions_table.insert().values(**row))
        except sa.exc.IntegrityError:
            return 409
        return 201

    async def submit(request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_BODY:
            return JSONResponse({"status": "rejected"}, status_code=413)
        status = await run_in_threadpool(put, body)
        return JSONResponse({"status": "stored"}, status_code=status)

    async def health(_: Request) -> Response:
        return JSONResponse({"status": "ok"})

    return Starlette(
        routes=[
            Route("/api/health", health),
            Route("/api/apps/payd/submissions", submit, methods=["POST"]),
        ]
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--port", type=int, required=True)
    args = ap.parse_args()
    app = build(Store(args.db))
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
