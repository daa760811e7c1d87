"""Signed blocks: a source signs, the user keeps them in a file, anyone checks them.

A `Source` (a smart meter, a genome lab, a location provider) holds an EdDSA-Poseidon key and
a public id; `Source.sign` issues a `SignedBlock` to one user (her Baby Jubjub public key) for
one period: the values, `bits` wide, and one signature over their commitment
(`zeenot.certified.commit`). The user stores her blocks (`save_blocks`, JSON) and reads them
back with `load_blocks`, which bounds the file's size and every length before it builds
anything, and checks every point on the curve and in the subgroup.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from zeenot.babyjub import Point, Signature, eddsa_public_key, eddsa_sign, eddsa_verify
from zeenot.certified.commit import block_digest
from zeenot.errors import MalformedInput
from zeenot.files import parse_json, read_text, write_atomic
from zeenot.ir import to_json_value
from zeenot.types import Field, P

FORMAT = "zeenot-certified-blocks/1"
MAX_FILE_BYTES = 16 * 2**20  # a year of half-hourly readings is ~1 MB
MAX_BLOCKS = 4_096
MAX_VALUES = 65_536  # per block
BIT_WIDTHS = (8, 16, 32)  # the widths of the language's unsigned integers a block may hold
MAX_SOURCE_ID = 2**32  # ids and periods are u32 in the examples' circuits


@dataclass(frozen=True)
class SignedBlock:
    """One block as the user keeps it: header, values and the source's signature."""

    source_id: int
    source_key: Point
    user: Point
    period: int
    bits: int
    values: tuple[int, ...]
    signature: Signature

    def digest(self) -> Field:
        vals = self.values
        return block_digest(
            self.source_id, self.user, self.period, lambda k: vals[k], len(vals), self.bits
        )

    def verify(self) -> bool:
        """Whether the source's signature covers this header and these values."""
        return eddsa_verify(self.source_key, self.digest(), self.signature)

    def to_json(self) -> dict[str, Any]:
        return {
            "source_id": self.source_id,
            "source_key": to_json_value(self.source_key),
            "user": to_json_value(self.user),
            "period": self.period,
            "bits": self.bits,
            "values": list(self.values),
            "signature": to_json_value(self.signature),
        }

    @classmethod
    def from_json(cls, doc: Any) -> SignedBlock:
        """A block from its JSON object; a `MalformedInput` for anything else."""
        if not isinstance(doc, dict):
            raise MalformedInput("a signed block must be a JSON object")
        want = {"source_id", "source_key", "user", "period", "bits", "values", "signature"}
        if set(doc) != want:
            raise MalformedInput(f"a signed block has exactly the fields {sorted(want)}")
        bits = _int(doc["bits"], "bits", 2**8)
        if bits not in BIT_WIDTHS:
            raise MalformedInput(f"bits must be one of {BIT_WIDTHS}, got {bits}")
        values = doc["values"]
        if not isinstance(values, list) or not 0 < len(values) <= MAX_VALUES:
            raise MalformedInput(f"values must be a list of 1 to {MAX_VALUES} integers")
        return cls(
            source_id=_int(doc["source_id"], "source_id", MAX_SOURCE_ID),
            source_key=_point(doc["source_key"], "source_key"),
            user=_point(doc["user"], "user"),
            period=_int(doc["period"], "period", MAX_SOURCE_ID),
            bits=bits,
            values=tuple(_int(v, "a value", 2**bits) for v in values),
            signature=_signature(doc["signature"]),
        )


class Source:
    """A data source: its signing seed (kept in its hardware) and its public id."""

    def __init__(self, seed: bytes, source_id: int) -> None:
        if len(seed) != 32:
            raise ValueError("a source's seed is 32 bytes")
        if not 0 <= source_id < MAX_SOURCE_ID:
            raise ValueError(f"a source id is below 2^32, got {source_id}")
        self._seed = seed
        self.source_id = source_id
        self.public_key = eddsa_public_key(seed)

    def __repr__(self) -> str:  # never the seed
        return f"Source(id={self.source_id})"

    def sign(self, user: Point, period: int, values: Sequence[int], bits: int) -> SignedBlock:
        """The block of `values` (each below 2^bits) issued to `user` for `period`."""
        if bits not in BIT_WIDTHS:
            raise ValueError(f"bits must be one of {BIT_WIDTHS}, got {bits}")
        if not 0 < len(values) <= MAX_VALUES:
            raise ValueError(f"a block holds 1 to {MAX_VALUES} values, got {len(values)}")
        if not 0 <= period < MAX_SOURCE_ID:
            raise ValueError(f"a period is below 2^32, got {period}")
        vals = tuple(int(v) for v in values)
        if any(isinstance(v, bool) or not 0 <= v < 2**bits for v in values):
            raise ValueError(f"every value must be an integer in [0, 2^{bits})")
        digest = block_digest(self.source_id, user, period, lambda k: vals[k], len(vals), bits)
        return SignedBlock(
            self.source_id,
            self.public_key,
            user,
            period,
            bits,
            vals,
            eddsa_sign(self._seed, digest),
        )


def save_blocks(path: str | os.PathLike[str], blocks: Sequence[SignedBlock]) -> None:
    """Write the user's blocks (atomically, mode 0600) in the `zeenot-certified-blocks/1` format."""
    import json

    doc = {"format": FORMAT, "blocks": [b.to_json() for b in blocks]}
    write_atomic(path, json.dumps(doc, indent=1) + "\n", secret=True)  # her private data: 0600


def parse_blocks(text: str | bytes, what: str = "signed blocks") -> list[SignedBlock]:
    """The blocks of a `zeenot-certified-blocks/1` document, every length bounded."""
    if len(text) > MAX_FILE_BYTES:
        raise MalformedInput(f"{what} is larger than {MAX_FILE_BYTES} bytes")
    doc = parse_json(text, what)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or set(doc) != {"format", "blocks"}:
        raise MalformedInput(f'{what} is not a "{FORMAT}" document')
    blocks = doc["blocks"]
    if not isinstance(blocks, list) or len(blocks) > MAX_BLOCKS:
        raise MalformedInput(f"{what} holds a list of at most {MAX_BLOCKS} blocks")
    return [SignedBlock.from_json(b) for b in blocks]


def load_blocks(path: str | os.PathLike[str]) -> list[SignedBlock]:
    """The user's blocks from a file (bounded: `MAX_FILE_BYTES`, before reading it whole)."""
    try:
        size = os.path.getsize(path)
    except OSError as exc:
        raise MalformedInput(f"cannot read signed blocks `{path}`: {exc.strerror}") from None
    if size > MAX_FILE_BYTES:
        raise MalformedInput(f"signed blocks `{path}` is larger than {MAX_FILE_BYTES} bytes")
    return parse_blocks(read_text(path, "signed blocks"), f"signed blocks `{path}`")


def _int(v: Any, what: str, bound: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < bound:
        raise MalformedInput(f"{what} must be an integer in [0, {bound})")
    return v


def _field(v: Any, what: str) -> Field:
    if isinstance(v, str) and v.isdigit() and len(v) <= 80:
        v = int(v)
    return Field(_int(v, what, P))


def _point(v: Any, what: str) -> Point:
    if not isinstance(v, dict) or set(v) != {"x", "y"}:
        raise MalformedInput(f"{what} must be a point {{x, y}}")
    try:
        return Point(_field(v["x"], what), _field(v["y"], what))
    except ValueError as exc:
        raise MalformedInput(f"{what}: {exc}") from None


def _signature(v: Any) -> Signature:
    if not isinstance(v, dict) or set(v) != {"r8", "s"}:
        raise MalformedInput("signature must be {r8, s}")
    return Signature(_point(v["r8"], "signature.r8"), _field(v["s"], "signature.s"))


def circuit_inputs(block: SignedBlock, user_sk: int, values: str, **more: Any) -> dict[str, Any]:
    """The JSON inputs of a `@zk` function written in the certified examples' shape: public
    `source`, `source_id`, `user`, `period`; private `user_sk`, the block's values (under the
    parameter name `values`) and `signature`; `more` adds the function's other parameters."""
    return {
        "source": to_json_value(block.source_key),
        "source_id": block.source_id,
        "user": to_json_value(block.user),
        "period": block.period,
        "user_sk": str(user_sk),
        values: list(block.values),
        "signature": to_json_value(block.signature),
        **more,
    }
