"""What a deployment and a query are: the roster (servers, threshold, providers, queriers),
the record schema, and a query (SUM / COUNT / MEAN / VARIANCE of an attribute, `WHERE attr =
v`, `GROUP BY attr`, noise), each read from JSON with every field checked.

A deployment file is a runtime roster (`runtime/identity.py`) with more keys:

    {"zeenot_roster": 1, "deployment": "hospitals", "threshold": 2,
     "servers":   {"s1": {"public_key": "…", "url": "http://127.0.0.1:8101"}, …},
     "providers": {"h1": {"public_key": "…"}, …},
     "queriers":  {"researcher": {"public_key": "…"}},
     "schema": {"age": {"bits": 8, "square": true}, "diagnosis": {"bits": 8}}}

An attribute's `bits` (8, 16 or 32) bounds each value to [0, 2^bits): every provider proves it
(a Bulletproof on the ciphertext). `square: true` makes providers also send the value's square
(with a proof of consistency), which VARIANCE needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from zeenot.aggregate.query import StatQuery
from zeenot.babyjub import Point
from zeenot.errors import MalformedInput
from zeenot.files import read_json
from zeenot.runtime.identity import Roster, check_name, public_key

BITS = (8, 16, 32)
MAX_ATTRIBUTES = 16
MAX_RECORDS = 100_000  # records one query aggregates


@dataclass(frozen=True)
class Attribute:
    name: str
    bits: int
    square: bool = False


@dataclass(frozen=True)
class Schema:
    attributes: tuple[Attribute, ...]

    @classmethod
    def from_json(cls, doc: Any) -> Schema:
        if not isinstance(doc, dict) or not 1 <= len(doc) <= MAX_ATTRIBUTES:
            raise MalformedInput(f"`schema` maps 1 to {MAX_ATTRIBUTES} attributes to {{bits}}")
        out = []
        for name, spec in doc.items():
            check_name(name, "an attribute's name")
            if not isinstance(spec, dict) or set(spec) - {"bits", "square"}:
                raise MalformedInput(f"attribute `{name}` is {{bits, square}}")
            bits, square = spec.get("bits"), spec.get("square", False)
            if bits not in BITS or isinstance(bits, bool) or not isinstance(square, bool):
                raise MalformedInput(f"attribute `{name}`: bits is one of {BITS}, square a bool")
            out.append(Attribute(name, bits, square))
        return cls(tuple(out))

    def to_json(self) -> dict[str, Any]:
        return {a.name: {"bits": a.bits, "square": a.square} for a in self.attributes}

    def get(self, name: str) -> Attribute:
        for a in self.attributes:
            if a.name == name:
                return a
        raise MalformedInput(f"no attribute `{name}` (the schema has {self.names()})")

    def names(self) -> list[str]:
        return [a.name for a in self.attributes]

    def columns(self) -> list[str]:
        """The ciphertexts of a record, in order: each attribute, then its square if asked."""
        out = []
        for a in self.attributes:
            out.append(a.name)
            if a.square:
                out.append(a.name + "^2")
        return out


@dataclass(frozen=True)
class Deployment:
    """The roster file of a collective authority."""

    name: str
    threshold: int
    roster: Roster
    providers: dict[str, Ed25519PublicKey]
    queriers: dict[str, Ed25519PublicKey]
    schema: Schema
    order: tuple[str, ...] = field(default=())  # the servers by name; index + 1 = DKG index

    @classmethod
    def load(cls, path: str | Path) -> Deployment:
        roster = Roster.load(path)  # the servers' part, checked as every roster is
        doc = read_json(path, "roster")
        name = check_name(doc.get("deployment"), "`deployment` (the deployment's name)")
        m = len(roster.servers)
        t = doc.get("threshold")
        if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= m:
            raise MalformedInput(f"`threshold` is a whole number from 1 to the {m} servers")
        missing = sorted(set(roster.servers) - set(roster.urls))
        if missing:
            raise MalformedInput(f"every server of a cothority has a `url`: `{missing[0]}` not")
        parties = {}
        for role in ("providers", "queriers"):
            entries = doc.get(role, {})
            if not isinstance(entries, dict) or len(entries) > 100_000:
                raise MalformedInput(f"`{role}` maps names to {{public_key}}")
            keys = {}
            for who, entry in entries.items():
                check_name(who, f"a name in `{role}`")
                if who in roster.servers or not isinstance(entry, dict):
                    raise MalformedInput(f"`{role}`: `{who}` is {{public_key}}, not a server")
                keys[who] = public_key(entry.get("public_key"), f"`{who}`'s public_key")
            parties[role] = keys
        if set(parties["providers"]) & set(parties["queriers"]):
            raise MalformedInput("a name is a provider or a querier, not both")
        schema = Schema.from_json(doc.get("schema"))
        return cls(
            name,
            t,
            roster,
            parties["providers"],
            parties["queriers"],
            schema,
            tuple(sorted(roster.servers)),
        )

    def index(self, server: str) -> int:
        """A server's DKG index (1-based, by sorted name)."""
        return self.order.index(server) + 1

    def url(self, server: str) -> str:
        return self.roster.urls[server]


MECHANISMS = ("list", "per_server")
MAX_NOISE_LIST = 1 << 16


@dataclass(frozen=True)
class Noise:
    """Discrete Laplace noise of parameter `epsilon` on each released value (scale
    `b = sensitivity / epsilon`, `P(z) ∝ exp(-|z| / b)`), by one of two mechanisms
    (cothority/steps.py, docs/cothority.md):

    * `list` (the default, Drynx's): a public list of `length` values whose uniform draw is a
      quantised discrete Laplace (`crypto.noise_list`), encrypted with public randomness,
      shuffled by every answering server in turn; its first entry is added. The list's exact
      `δ` (`crypto.noise_delta`) must be at most `max_delta`, or the query is refused.
    * `per_server`: each answering server adds its own draw, clipped to `clip·b` and proved
      within it (a dishonest server can bias the result by up to its bound)."""

    epsilon: float
    clip: int = 20
    mechanism: str = "list"
    length: int = 1000
    max_delta: float = 0.01

    def scale(self, sensitivity: int) -> float:
        return sensitivity / self.epsilon

    def bound(self, sensitivity: int) -> int:
        return max(1, min((1 << 30) - 1, int(self.clip * self.scale(sensitivity)) + 1))

    @classmethod
    def from_json(cls, doc: Any) -> Noise | None:
        if doc is None:
            return None
        keys = {"epsilon", "mechanism", "clip", "list", "delta"}
        if not isinstance(doc, dict) or set(doc) - keys:
            raise MalformedInput(f"`noise` is an object with {sorted(keys)}, or null")
        eps, mech = doc.get("epsilon"), doc.get("mechanism", "list")
        if not isinstance(eps, (int, float)) or isinstance(eps, bool) or not 0.01 <= eps <= 64:
            raise MalformedInput("`noise.epsilon` is a number from 0.01 to 64")
        if mech not in MECHANISMS:
            raise MalformedInput(f"`noise.mechanism` is one of {MECHANISMS}")
        other = {"clip"} if mech == "list" else {"list", "delta"}
        if set(doc) & other:
            raise MalformedInput(f"`noise.{sorted(set(doc) & other)[0]}` is not for `{mech}`")
        bound, length, delta = doc.get("clip", 20), doc.get("list", 1000), doc.get("delta", 0.01)
        if isinstance(bound, bool) or not isinstance(bound, int) or not 1 <= bound <= 100:
            raise MalformedInput("`noise.clip` (in scales) is a whole number from 1 to 100")
        if isinstance(length, bool) or not isinstance(length, int):
            raise MalformedInput(f"`noise.list` is a whole number from 16 to {MAX_NOISE_LIST}")
        if not 16 <= length <= MAX_NOISE_LIST:
            raise MalformedInput(f"`noise.list` is a whole number from 16 to {MAX_NOISE_LIST}")
        if not isinstance(delta, (int, float)) or isinstance(delta, bool) or not 0 < delta < 1:
            raise MalformedInput("`noise.delta` (the largest δ accepted) is in (0, 1)")
        return cls(float(eps), bound, mech, length, float(delta))

    def to_json(self) -> dict[str, Any]:
        if self.mechanism == "per_server":
            return {"epsilon": self.epsilon, "mechanism": self.mechanism, "clip": self.clip}
        return {"epsilon": self.epsilon, "list": self.length, "delta": self.max_delta}


@dataclass(frozen=True)
class Query:
    """A statistic (`zeenot.aggregate.query.StatQuery`, shared with Prio: `op` of `attribute`
    over the records with `where` (attribute, value), per value of `group_by`) with its id and
    noise; the result is key-switched to `querier_key` (the querier's ElGamal key)."""

    id: str
    stat: StatQuery
    noise: Noise | None
    querier_key: Point

    @property
    def op(self) -> str:
        return self.stat.op

    @property
    def attribute(self) -> str | None:
        return self.stat.attribute

    @property
    def where(self) -> tuple[str, int] | None:
        return self.stat.where

    @property
    def group_by(self) -> str | None:
        return self.stat.group_by

    @classmethod
    def from_json(cls, doc: Any, schema: Schema) -> Query:
        from zeenot.cothority import wire

        allowed = {"id", "op", "attribute", "where", "group_by", "noise", "querier_key"}
        if not isinstance(doc, dict) or set(doc) - allowed:
            raise MalformedInput(f"a query is an object with {sorted(allowed)}")
        qid = check_name(doc.get("id"), "a query's `id`")
        bits = {a.name: a.bits for a in schema.attributes}
        squared = {a.name for a in schema.attributes if a.square}
        return cls(
            qid,
            StatQuery.from_json(doc, bits, squared),
            Noise.from_json(doc.get("noise")),
            wire.point(doc.get("querier_key"), "`querier_key`"),
        )

    def to_json(self) -> dict[str, Any]:
        from zeenot.cothority import wire

        return {
            "id": self.id,
            **self.stat.to_json(),
            "noise": None if self.noise is None else self.noise.to_json(),
            "querier_key": wire.point_hex(self.querier_key),
        }

    def value_columns(self) -> list[str]:
        """The columns summed per group (COUNT sums none: the group's size is public)."""
        return self.stat.value_columns()

    def sensitivities(self, schema: Schema) -> list[int]:
        """Per released value of a group (its count, then each summed column), how much one
        record changes it."""
        out = [1]
        for c in self.value_columns():
            bits = schema.get(c.removesuffix("^2")).bits
            out.append(((1 << bits) - 1) ** (2 if c.endswith("^2") else 1))
        return out

    def tag_columns(self) -> list[str]:
        return [c for c in (self.group_by, self.where and self.where[0]) if c]

    def row_columns(self) -> list[str]:
        """The columns of a record the query reads (its tag columns, then its summed columns,
        each once): what the answering servers shuffle, row by row, before the tags when the
        query has tags (docs/cothority.md, the row shuffle)."""
        out: list[str] = []
        for c in self.tag_columns() + self.value_columns():
            if c not in out:
                out.append(c)
        return out
