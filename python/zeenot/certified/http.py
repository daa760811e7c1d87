"""What the certified servers share: refusals as JSON, bounded bodies, the uvicorn launcher."""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from zeenot.errors import MalformedInput
from zeenot.files import parse_json
from zeenot.runtime.bodies import BodyRefused, bounded_body
from zeenot.runtime.identity import AuthError


class Refused(Exception):
    """A request refused: `status` and the reason sent back (never a secret)."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status, self.reason = status, reason


async def refused(_: Request, exc: Exception) -> Response:
    if isinstance(exc, (Refused, AuthError)):
        return JSONResponse({"error": exc.reason}, status_code=exc.status)
    assert isinstance(exc, MalformedInput)
    return JSONResponse({"error": str(exc)}, status_code=400)


HANDLERS: dict[Any, Any] = {Refused: refused, AuthError: refused, MalformedInput: refused}


async def json_body(request: Request, limit: int) -> Any:
    """The request's JSON body, at most `limit` bytes (413 beyond, before reading it all)."""
    return parse_json(await read_body(request, limit), "the request body")


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, JSON by its content type, at most `limit` bytes
    (`runtime/bodies.py`'s bounds)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Refused(415, "send the body as JSON (`content-type: application/json`)")
    try:
        return await bounded_body(request, limit, f"a body is at most {limit} bytes")
    except BodyRefused as refusal:
        raise Refused(refusal.status, refusal.reason) from None


def run(factory: str, env: dict[str, str], banner: str, host: str, port: int) -> int:
    """Serve `factory` (a `module:function` building the app from `env`) with uvicorn."""
    import uvicorn

    os.environ.update(env)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    print(f"{banner} on http://{host}:{port}/", file=sys.stderr, flush=True)
    uvicorn.run(factory, factory=True, host=host, port=port, log_level="warning")
    return 0
