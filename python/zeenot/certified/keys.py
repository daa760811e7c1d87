"""The certified parties' key files and the source's published document.

* A **source key** (`zeenot certified source keygen`): the source's name (the audience its
  users sign their requests for), its public id and its 32-byte EdDSA-Poseidon seed. Written
  with mode 0600; refused when readable by others.
* A **user key** (`zeenot certified user keygen`): her Baby Jubjub secret scalar `user_sk`;
  blocks are issued to `user_sk·B8`, and her proofs show she holds it. Mode 0600 likewise.
* The **published source** (`GET /.well-known/zeenot-certified-source`): name, id and public
  key. A user and a service read it from the source's URL; `parse_published` checks every
  field and the point (on the curve, in the subgroup).
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zeenot.babyjub import BASE8, SUBGROUP_ORDER, Point
from zeenot.certified.blocks import MAX_SOURCE_ID, Source, _int, _point
from zeenot.errors import MalformedInput
from zeenot.files import check_output_file, parse_json, read_text, write_atomic
from zeenot.ir import to_json_value
from zeenot.runtime.identity import check_name

SOURCE_KEY_FORMAT = "zeenot-certified-source-key/1"
USER_KEY_FORMAT = "zeenot-certified-user-key/1"
PUBLISHED_FORMAT = "zeenot-certified-source/1"
WELL_KNOWN = "/.well-known/zeenot-certified-source"
MAX_KEY_FILE = 4096


@dataclass(frozen=True)
class Published:
    """What a source publishes: its name, its id and its public key."""

    name: str
    source_id: int
    public_key: Point

    def to_json(self) -> dict[str, Any]:
        return {
            "format": PUBLISHED_FORMAT,
            "name": self.name,
            "source_id": self.source_id,
            "public_key": to_json_value(self.public_key),
        }


def parse_published(doc: Any) -> Published:
    want = {"format", "name", "source_id", "public_key"}
    if not isinstance(doc, dict) or set(doc) != want or doc["format"] != PUBLISHED_FORMAT:
        raise MalformedInput(f'not a published source (a "{PUBLISHED_FORMAT}" document)')
    return Published(
        check_name(doc["name"], "the source's name"),
        _int(doc["source_id"], "source_id", MAX_SOURCE_ID),
        _point(doc["public_key"], "public_key"),
    )


def _read_secret(path: str | os.PathLike[str], what: str) -> dict[str, Any]:
    p = Path(path)
    try:
        st = p.stat()
    except OSError as exc:
        raise MalformedInput(f"cannot read {what} `{p}`: {exc.strerror}") from None
    if st.st_size > MAX_KEY_FILE:
        raise MalformedInput(f"{what} `{p}` is larger than {MAX_KEY_FILE} bytes")
    if st.st_mode & 0o077:
        raise MalformedInput(f"{what} `{p}` is readable by others: chmod 600 it")
    doc = parse_json(read_text(p, what), f"{what} `{p}`")
    if not isinstance(doc, dict):
        raise MalformedInput(f"{what} `{p}` is a JSON object")
    return doc


@dataclass(frozen=True)
class SourceKey:
    name: str
    source_id: int
    seed: bytes

    def __repr__(self) -> str:  # never the seed
        return f"SourceKey(name={self.name!r}, source_id={self.source_id})"

    @classmethod
    def generate(cls, name: str, source_id: int) -> SourceKey:
        if not 0 <= source_id < MAX_SOURCE_ID:
            raise MalformedInput(f"a source id is from 0 to 2^32 - 1, got {source_id}")
        return cls(check_name(name, "the source's name"), source_id, secrets.token_bytes(32))

    def source(self) -> Source:
        return Source(self.seed, self.source_id)

    def published(self) -> Published:
        return Published(self.name, self.source_id, self.source().public_key)

    def save(self, path: str | os.PathLike[str]) -> None:
        check_output_file(path)
        doc = {
            "format": SOURCE_KEY_FORMAT,
            "name": self.name,
            "source_id": self.source_id,
            "seed": self.seed.hex(),
        }
        write_atomic(path, json.dumps(doc, indent=2) + "\n", secret=True)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> SourceKey:
        doc = _read_secret(path, "source key")
        if set(doc) != {"format", "name", "source_id", "seed"} or doc["format"] != (
            SOURCE_KEY_FORMAT
        ):
            raise MalformedInput(f'source key `{path}` is not a "{SOURCE_KEY_FORMAT}" file')
        seed = doc["seed"]
        if not (isinstance(seed, str) and len(seed) == 64 and _is_hex(seed)):
            raise MalformedInput(f"source key `{path}`: `seed` is 64 lowercase hex digits")
        return cls(
            check_name(doc["name"], "the source's name"),
            _int(doc["source_id"], "source_id", MAX_SOURCE_ID),
            bytes.fromhex(seed),
        )


@dataclass(frozen=True)
class UserKey:
    user_sk: int

    def __repr__(self) -> str:  # never the secret
        return "UserKey(...)"

    @property
    def public(self) -> Point:
        return self.user_sk * BASE8

    @classmethod
    def generate(cls) -> UserKey:
        return cls(1 + secrets.randbelow(SUBGROUP_ORDER - 1))

    def save(self, path: str | os.PathLike[str]) -> None:
        check_output_file(path)
        doc = {"format": USER_KEY_FORMAT, "user_sk": str(self.user_sk)}
        write_atomic(path, json.dumps(doc, indent=2) + "\n", secret=True)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> UserKey:
        doc = _read_secret(path, "user key")
        if set(doc) != {"format", "user_sk"} or doc["format"] != USER_KEY_FORMAT:
            raise MalformedInput(f'user key `{path}` is not a "{USER_KEY_FORMAT}" file')
        sk = doc["user_sk"]
        if not (isinstance(sk, str) and sk.isascii() and sk.isdigit() and len(sk) <= 80):
            raise MalformedInput(f"user key `{path}`: `user_sk` is a decimal string")
        if not 0 < int(sk) < SUBGROUP_ORDER:
            raise MalformedInput(f"user key `{path}`: `user_sk` is in [1, l)")
        return cls(int(sk))


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)
