"""The group, scalars and bytes under Cashlib's protocols: Baby Jubjub's prime-order subgroup
(`G` = Base8, `H` = zeenot's Pedersen base), sums and linear combinations of checked points,
packing, hashing to scalars, length-prefixed framing, Bulletproofs on `v·G + γ·H`, and the
bounded message reader and writer every message of `zeenot.cashlib` uses."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from zeenot.babyjub import SUBGROUP_ORDER, Point
from zeenot.errors import ZeenotError
from zeenot.sigma import Element
from zeenot.types import P

L = SUBGROUP_ORDER
T = TypeVar("T")
MAX_PROOF_BYTES = 1 << 16


class CredentialError(ZeenotError, ValueError):
    """A protocol message failed its checks (a proof, a point, the message's shape)."""


def _native() -> Any:
    from zeenot import _native

    return _native


# ---------------------------------------------------------------------------------------------
# Points, scalars and bytes


def pedersen_h() -> Point:
    return Element.blinding().point


IDENTITY = Point.identity()


# Baby Jubjub: a·x² + y² = 1 + d·x²·y² over BN254's scalar field
_A, _D = 168700, 168696
_HALF = (P - 1) // 2


def pack(p: Point) -> bytes:
    """circomlib's 32-byte packed encoding (`y` little-endian, the sign of `x` in the top bit).
    A `Point` is checked when made, so this needs no native call."""
    return (int(p.y) | (int(int(p.x) > _HALF) << 255)).to_bytes(32, "little")


def add(p: Point, q: Point) -> Point:
    """`p + q` by the twisted Edwards law, in Python: both are points of the prime-order
    subgroup (checked when made), where the law is complete, so the sum is too and needs no
    native call with its two subgroup checks."""
    x1, y1, x2, y2 = int(p.x), int(p.y), int(q.x), int(q.y)
    t = _D * x1 * x2 % P * y1 * y2 % P
    x3 = (x1 * y2 + y1 * x2) * pow(1 + t, -1, P) % P
    y3 = (y1 * y2 - _A * x1 * x2) * pow(1 - t, -1, P) % P
    return Point._trusted(x3, y3)


def sub(p: Point, q: Point) -> Point:
    return add(p, -q)


def lincomb(*terms: tuple[int, Point]) -> Point:
    """`Σ k·P` (one native constant-time multi-scalar multiplication)."""
    return lincombs([terms])[0]


def lincombs(rows: Sequence[Sequence[tuple[int, Point]]]) -> list[Point]:
    """`Σ k·P` for each row, in one native call (`bj_lincomb`: each distinct point checked once,
    constant time in the scalars). With a native module older than `bj_lincomb`, one `bj_mul`
    per term."""
    native = _native()
    if not hasattr(native, "bj_lincomb"):
        out = []
        for row in rows:
            acc = IDENTITY
            for k, p in row:
                acc = add(acc, (k % L) * p)
            out.append(acc)
        return out
    index: dict[tuple[int, int], int] = {}
    points: list[tuple[str, str]] = []
    wire: list[list[tuple[str, int]]] = []
    for row in rows:
        terms = []
        for k, p in row:
            xy = (int(p.x), int(p.y))
            i = index.get(xy)
            if i is None:
                i = index[xy] = len(points)
                points.append((str(xy[0]), str(xy[1])))
            terms.append((str(k % L), i))
        wire.append(terms)
    return [Point._trusted(int(x), int(y)) for x, y in native.bj_lincomb(points, wire)]


def unpack(data: bytes) -> Point:
    """A packed point, checked on the curve and in the prime-order subgroup (ValueError)."""
    x, y = _native().bj_unpack(bytes(data))
    return Point._trusted(int(x), int(y))


def unpack_many(data: Sequence[bytes]) -> list[Point]:
    """Packed points, each checked as `unpack` checks it, in one native call (`bj_unpack_many`:
    one shared field inversion); ValueError for the first bad one."""
    native = _native()
    if not hasattr(native, "bj_unpack_many"):
        return [unpack(d) for d in data]
    return [point_xy(b) for b in native.bj_unpack_many([bytes(d) for d in data])]


def point_xy(b: bytes) -> Point:
    """A point the native side checked or computed, as affine `x ‖ y` (64 bytes, little-endian)."""
    return Point._trusted(int.from_bytes(b[:32], "little"), int.from_bytes(b[32:], "little"))


def hash_to_scalar(label: bytes, *parts: bytes) -> int:
    """SHA-512 of the length-prefixed parts, reduced modulo `l` (bias below 2^-250)."""
    h = hashlib.sha512()
    for p in (label, *parts):
        h.update(len(p).to_bytes(8, "little"))
        h.update(p)
    return int.from_bytes(h.digest(), "little") % L


def frame(*parts: bytes) -> bytes:
    """An injective encoding of a sequence of byte strings (8-byte length before each)."""
    return b"".join(len(p).to_bytes(8, "little") + p for p in parts)


def _scalar_bytes(v: int) -> bytes:
    return (v % L).to_bytes(32, "little")


def range_prove(
    values: Sequence[int],
    blindings: Sequence[int],
    commitments: Sequence[Point],
    bits: int,
    context: bytes,
    seed: int | None = None,
) -> bytes:
    """An aggregated Bulletproof that each `commitments[k] = values[k]·G + blindings[k]·H` opens
    below `2^bits`, bound to `context` (`ValueError` for a value out of range)."""
    wire = [_scalar_bytes(g).hex() for g in blindings]
    proof, packed = _native().bp_range_prove(list(values), wire, bits, context, seed)
    if [bytes(p) for p in packed] != [pack(c) for c in commitments]:
        raise RuntimeError("the Bulletproof's commitments differ from the ones given")
    return bytes(proof)


def range_verify(commitments: Sequence[Point], proof: bytes, bits: int, context: bytes) -> bool:
    """Whether `proof` shows every commitment opens below `2^bits` under `context`."""
    return bool(_native().bp_range_verify([pack(c) for c in commitments], proof, bits, context))


def range_verify_batch(
    items: Sequence[tuple[list[bytes], bytes, int, bytes]], known: Any = None
) -> list[bool]:
    """Each `(packed commitments, proof, bits, context)` Bulletproof's verdict, in order: one
    batch with random weights, one by one only if the batch fails (`bp_range_verify_batch`).
    With `known` (native `CheckedPoints`), the commitments it holds are not decoded again
    (`kvac_range_verify_batch`)."""
    if known is not None:
        return [bool(v) for v in _native().kvac_range_verify_batch(known, list(items))]
    return [bool(v) for v in _native().bp_range_verify_batch(list(items))]


class Writer:
    """Builds a message: packed points, canonical scalars, small counts, length-prefixed blobs."""

    def __init__(self) -> None:
        self._parts: list[bytes] = []

    def point(self, p: Point) -> Writer:
        self._parts.append(pack(p))
        return self

    def scalar(self, v: int) -> Writer:
        if not 0 <= v < L:
            raise ValueError("a scalar must be in [0, l)")
        self._parts.append(v.to_bytes(32, "little"))
        return self

    def u8(self, v: int) -> Writer:
        self._parts.append(v.to_bytes(1, "little"))
        return self

    def blob(self, b: bytes) -> Writer:
        if len(b) > MAX_PROOF_BYTES:
            raise ValueError("a blob is too long")
        self._parts.append(len(b).to_bytes(4, "little") + b)
        return self

    def bytes(self) -> bytes:
        return b"".join(self._parts)


class Reader:
    """Parses a message; every length is bounded before use, every point fully checked, and
    any defect is a `CredentialError`."""

    def __init__(self, data: Any, what: str, *, points: Sequence[Point] | None = None):
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"{what} is bytes, got {type(data).__name__}")
        self._data = bytes(data)
        self._pos = 0
        self._what = what
        # `read_all`: points decoded beforehand, or (`scan`) the raw points collected
        self._points = None if points is None else iter(points)
        self.scanned: list[bytes] | None = None

    @classmethod
    def read_all(cls, data: Any, what: str, parse: Callable[[Reader], T]) -> T:
        """`parse` over the whole message (trailing bytes refused) with every point decoded and
        checked in one native call (`scan`, `unpack_many`, `read_with`)."""
        _, raw = cls.scan(data, what, parse)
        try:
            points = unpack_many(raw)
        except ValueError as e:
            raise CredentialError(f"a bad point in a {what}: {e}") from None
        return cls.read_with(data, what, parse, points)

    @classmethod
    def scan(cls, data: Any, what: str, parse: Callable[[Reader], T]) -> tuple[T, list[bytes]]:
        """A first pass: `parse`'s result with every point the identity (a draft: its counts,
        scalars and blobs are read and checked) and the points' bytes in reading order. The
        message's structure depends on its counts and lengths, never on a point."""
        scan = cls(data, what)
        scan.scanned = []
        out = parse(scan)
        scan.end()
        return out, scan.scanned

    @classmethod
    def read_with(
        cls, data: Any, what: str, parse: Callable[[Reader], T], points: Sequence[Point]
    ) -> T:
        """The second pass: `parse` with the points `scan` listed, decoded and checked."""
        r = cls(data, what, points=points)
        out = parse(r)
        r.end()
        return out

    def _take(self, n: int) -> bytes:
        if self._pos + n > len(self._data):
            raise CredentialError(f"a truncated {self._what}")
        out = self._data[self._pos : self._pos + n]
        self._pos += n
        return out

    def point(self) -> Point:
        raw = self._take(32)
        if self.scanned is not None:
            self.scanned.append(raw)
            return IDENTITY
        if self._points is not None:
            return next(self._points)
        try:
            return unpack(raw)
        except ValueError as e:
            if isinstance(e, CredentialError):
                raise
            raise CredentialError(f"a bad point in a {self._what}: {e}") from None

    def scalar(self) -> int:
        v = int.from_bytes(self._take(32), "little")
        if v >= L:
            raise CredentialError(f"a non-canonical scalar in a {self._what}")
        return v

    def u8(self) -> int:
        return self._take(1)[0]

    def blob(self) -> bytes:
        n = int.from_bytes(self._take(4), "little")
        if n > MAX_PROOF_BYTES:
            raise CredentialError(f"an oversized field in a {self._what}")
        return self._take(n)

    def end(self) -> None:
        if self._pos != len(self._data):
            raise CredentialError(f"trailing bytes after a {self._what}")
