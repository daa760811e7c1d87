"""Request bodies read within bounds: what every server of the stack (the runtime, the
certified parties, the DAP aggregators) does before it parses anything a client sent.

A body is refused past `limit` bytes as soon as the declared length or the bytes received say
so (413, before it is all read), and when it does not arrive within `BODY_TIMEOUT` seconds (408:
a client that declares a body and stalls does not hold a connection open). Each server maps the
refusal onto its own error type and media-type rule."""

from __future__ import annotations

import asyncio
import os
import re

from starlette.requests import ClientDisconnect, Request

BODY_TIMEOUT = float(os.environ.get("ZEENOT_BODY_TIMEOUT", "10"))  # seconds for a whole body
_DIGITS = re.compile(r"[0-9]{1,12}", re.ASCII)  # `str.isdigit` admits "²", which `int` refuses


class BodyRefused(Exception):
    """A body refused: the HTTP `status` and the `reason` (about the request, never a secret)."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status, self.reason = status, reason


async def bounded_body(request: Request, limit: int, too_large: str) -> bytes:
    """The request's body, at most `limit` bytes (`too_large` is the 413's reason)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not _DIGITS.fullmatch(declared) or int(declared) > limit):
        raise BodyRefused(413, too_large)
    chunks: list[bytes] = []

    async def read() -> None:
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise BodyRefused(413, too_large)
            chunks.append(chunk)

    try:
        await asyncio.wait_for(read(), BODY_TIMEOUT)
    except ClientDisconnect:
        raise BodyRefused(400, "the client disconnected before the whole body arrived") from None
    except asyncio.TimeoutError:
        raise BodyRefused(408, f"the body did not arrive within {BODY_TIMEOUT:g} s") from None
    return b"".join(chunks)
