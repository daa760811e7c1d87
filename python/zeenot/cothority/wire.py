"""How points, ciphertexts and scalars travel (JSON): a point is its 32-byte packed encoding
in hex (circomlibjs `packPoint`), checked on the curve and in the prime-order subgroup when it
is read; a ciphertext is `[c1, c2]`; a scalar is a decimal string below the subgroup order.
Everything read from the network goes through these functions, which bound lengths before
any work and raise `MalformedInput` naming what is wrong."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from zeenot import _native
from zeenot.babyjub import SUBGROUP_ORDER, Ciphertext, Point
from zeenot.errors import MalformedInput

_HEX_POINT = re.compile(r"[0-9a-f]{64}", re.ASCII)
_DECIMAL = re.compile(r"0|[1-9][0-9]{0,77}", re.ASCII)
_HEX = re.compile(r"(?:[0-9a-f]{2})*", re.ASCII)


def point_hex(p: Point) -> str:
    return bytes(_native.bj_pack(str(int(p.x)), str(int(p.y)))).hex()


def point(value: Any, what: str = "a point") -> Point:
    if not (isinstance(value, str) and _HEX_POINT.fullmatch(value)):
        raise MalformedInput(f"{what} is a packed Baby Jubjub point: 64 lowercase hex digits")
    try:
        x, y = _native.bj_unpack(bytes.fromhex(value))
    except ValueError:
        raise MalformedInput(
            f"{what} is not a Baby Jubjub point in the prime-order subgroup"
        ) from None
    return Point._trusted(int(x), int(y))


def ct_json(c: Ciphertext) -> list[str]:
    return [point_hex(c.c1), point_hex(c.c2)]


def ciphertext(value: Any, what: str = "a ciphertext") -> Ciphertext:
    if not (isinstance(value, list) and len(value) == 2):
        raise MalformedInput(f"{what} is [c1, c2], two packed points")
    return Ciphertext(point(value[0], f"{what}'s c1"), point(value[1], f"{what}'s c2"))


def ciphertexts(value: Any, what: str, limit: int) -> list[Ciphertext]:
    if not isinstance(value, list) or len(value) > limit:
        raise MalformedInput(f"{what} is a list of at most {limit} ciphertexts")
    return [ciphertext(v, f"{what}[{i}]") for i, v in enumerate(value)]


def scalar(value: Any, what: str = "a scalar") -> int:
    if not (isinstance(value, str) and _DECIMAL.fullmatch(value) and int(value) < SUBGROUP_ORDER):
        raise MalformedInput(f"{what} is a decimal below the subgroup order")
    return int(value)


def blob(value: Any, what: str, limit: int) -> bytes:
    """Bytes sent as hex, at most `limit` of them."""
    if not (isinstance(value, str) and len(value) <= 2 * limit and _HEX.fullmatch(value)):
        raise MalformedInput(f"{what} is at most {limit} bytes in lowercase hex")
    return bytes.fromhex(value)


def canonical(doc: Any) -> bytes:
    """The one byte string a JSON document is hashed and signed as."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def digest(doc: Any) -> str:
    return hashlib.sha256(canonical(doc)).hexdigest()


def context(*parts: str) -> bytes:
    """A Fiat-Shamir context: what a proof is for (deployment, query, step, server)."""
    return "|".join(("zeenot-cothority-v1", *parts)).encode()
