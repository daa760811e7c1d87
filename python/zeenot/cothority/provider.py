"""A data provider's records: each attribute encrypted under the collective key, with proofs.

For each attribute `a` of the schema, with value `m` in [0, 2^bits):

* `a`: `c = Enc(m; r) = (r·G, m·G + r·K)` under the collective key `K`, and a range proof
  (`zeenot.sigma.plaintext_in_range(c, K, bits, method="bulletproofs")`: a Pedersen commitment
  to `m`, a sigma proof that it and `c` hold the same `m`, a Bulletproof that it opens below
  2^bits). One proof per value; its cost does not depend on the number of servers.
* `a^2` (attributes with `square: true`): `d = Enc(m²; r')` and a sigma proof of the product
  `d = m·c + (t·G, t·K)` with `c = (r·G, m·G + r·K)`, secrets `m, r, t` (`t = r' - m·r`):

      d1 = m·c1 + t·G   ∧   d2 = m·c2 + t·K   ∧   c1 = r·G   ∧   c2 = m·G + r·K

  From an accepting transcript the extractor gets `m, r, t` with `c = Enc(m; r)` and
  `d = Enc(m·m; m·r + t)`: `d` encrypts the square of `c`'s plaintext, which the range proof
  bounds (so `m² < 2^(2·bits)`, no wrap-around mod the group order). It needs no range proof.

Every proof's Fiat-Shamir context names the deployment, the collective key, the provider, the
record's id and the column, so a proof copied into another record, provider, column or
deployment does not verify; the pair (provider, record id) is unique at every server, so a
record sent twice is stored once.
"""

from __future__ import annotations

import functools
import secrets as _secrets
from dataclasses import dataclass
from typing import Any

from zeenot import _native, sigma
from zeenot import babyjub as bj
from zeenot.babyjub import Ciphertext, Point
from zeenot.cothority import wire
from zeenot.cothority.model import Schema
from zeenot.errors import MalformedInput
from zeenot.runtime.identity import check_name

MAX_PROOF = 4096  # bytes of one value's proof


@functools.lru_cache(maxsize=16)
def _key_hex(key: Point) -> str:
    """The collective key's packed hex, once per key (every value's context names it)."""
    return wire.point_hex(key)


def _context(deployment: str, key: Point, provider: str, rid: str, column: str) -> bytes:
    return wire.context(deployment, _key_hex(key), provider, rid, column)


def square_statement(c: Ciphertext, d: Ciphertext, key: Point) -> tuple[sigma.Statement, Any]:
    m, r, t = sigma.Secret("m"), sigma.Secret("r"), sigma.Secret("t")
    G, K = sigma.Element.generator(), sigma.Element("K", key)
    c1, c2 = sigma.Element("c1", c.c1), sigma.Element("c2", c.c2)
    st = (
        sigma.DLRep(sigma.Element("d1", d.c1), m * c1 + t * G)
        & sigma.DLRep(sigma.Element("d2", d.c2), m * c2 + t * K)
        & sigma.DLRep(c1, r * G)
        & sigma.DLRep(c2, m * G + r * K)
    )
    return st, (m, r, t)


def encrypt_record(
    deployment: str, schema: Schema, key: Point, provider: str, rid: str, values: dict[str, int]
) -> dict[str, Any]:
    """A record's body as a provider sends it (`values`: attribute → integer in range)."""
    check_name(rid, "a record's id")
    if set(values) != set(schema.names()):
        raise MalformedInput(f"a record has exactly the attributes {schema.names()}")
    columns: dict[str, Any] = {}
    proofs: dict[str, str] = {}
    for a in schema.attributes:
        m = values[a.name]
        if isinstance(m, bool) or not isinstance(m, int) or not 0 <= m < 1 << a.bits:
            raise MalformedInput(f"`{a.name}` is a whole number in [0, 2^{a.bits}), not {m!r}")
        r = bj.random_scalar()
        c = bj.encrypt(m, key, r)
        ctx = _context(deployment, key, provider, rid, a.name)
        rp = sigma.plaintext_in_range(c, key, a.bits, method="bulletproofs")
        columns[a.name] = wire.ct_json(c)
        proofs[a.name] = rp.prove(m, r, context=ctx).to_bytes().hex()  # type: ignore[union-attr]
        if a.square:
            r2 = bj.random_scalar()
            d = bj.encrypt(m * m, key, r2)
            st, (sm, sr, st_) = square_statement(c, d, key)
            t = (r2 - m * r) % bj.SUBGROUP_ORDER
            ctx2 = _context(deployment, key, provider, rid, a.name + "^2")
            columns[a.name + "^2"] = wire.ct_json(d)
            proofs[a.name + "^2"] = st.prove({sm: m, sr: r, st_: t}, context=ctx2).hex()
    return {"provider": provider, "id": rid, "columns": columns, "proofs": proofs}


@dataclass(frozen=True)
class Record:
    provider: str
    id: str
    columns: dict[str, Ciphertext]
    digest: str


def parse_record(body: Any, schema: Schema) -> tuple[Record, dict[str, bytes]]:
    """A record's ciphertexts (checked points) and proof bytes; `MalformedInput` if its shape
    is wrong. The proofs are not verified here (`verify_records`)."""
    if not isinstance(body, dict) or set(body) != {"provider", "id", "columns", "proofs"}:
        raise MalformedInput("a record is {provider, id, columns, proofs}")
    provider = check_name(body["provider"], "a record's provider")
    rid = check_name(body["id"], "a record's id")
    cols, proofs = body["columns"], body["proofs"]
    want = schema.columns()
    if not isinstance(cols, dict) or not isinstance(proofs, dict):
        raise MalformedInput("a record's columns and proofs are objects")
    if sorted(cols) != sorted(want) or sorted(proofs) != sorted(want):
        raise MalformedInput(f"a record has exactly the columns {want}")
    columns = {c: wire.ciphertext(cols[c], f"column `{c}`") for c in want}
    raw = {c: wire.blob(proofs[c], f"the proof of `{c}`", MAX_PROOF) for c in want}
    return Record(provider, rid, columns, wire.digest(body)), raw


def verify_records(
    deployment: str, schema: Schema, key: Point, items: list[tuple[Record, dict[str, bytes]]]
) -> list[str | None]:
    """Per record, None if every proof verifies, else why not (naming the column).

    All the Bulletproofs of the submission are checked as one batch (one multi-exponentiation,
    each proof's equation under an independent random 128-bit weight) and all the sigma proofs
    as another; only a batch that fails is re-checked proof by proof, to name the culprits. A
    record's sigma proofs are left out once its range proof fails (it is refused either way)."""
    reasons: list[str | None] = [None] * len(items)
    ranges: list[tuple[int, str, tuple[list[bytes], bytes, int, bytes]]] = []
    sigmas: list[tuple[int, str, sigma.Statement, bytes, bytes]] = []
    for i, (rec, raw) in enumerate(items):
        for a in schema.attributes:
            ctx = _context(deployment, key, rec.provider, rec.id, a.name)
            c = rec.columns[a.name]
            try:
                lp = sigma.LogRangeProof.from_bytes(raw[a.name])
            except ValueError:
                reasons[i] = reasons[i] or f"the range proof of `{a.name}` is malformed"
                continue
            # The packed commitment is the proof's first 32 bytes (checked by from_bytes).
            ranges.append((i, a.name, ([raw[a.name][:32]], lp.range_proof, a.bits, ctx)))
            rp = sigma.plaintext_in_range(c, key, a.bits, method="bulletproofs")
            sigmas.append((i, a.name, rp.statement(lp.commitment), lp.proof, ctx))  # type: ignore[union-attr]
            if a.square:
                ctx2 = _context(deployment, key, rec.provider, rec.id, a.name + "^2")
                st, _ = square_statement(c, rec.columns[a.name + "^2"], key)
                sigmas.append((i, a.name + "^2", st, raw[a.name + "^2"], ctx2))
    verdicts = _native.bp_range_verify_batch([item for _, _, item in ranges]) if ranges else []
    for (i, col, _), ok in zip(ranges, verdicts, strict=True):
        if not ok:
            reasons[i] = reasons[i] or f"the range proof of `{col}` does not verify"
    sigmas = [s for s in sigmas if reasons[s[0]] is None]
    if sigmas and not sigma.batch_verify([(st, p, ctx) for _, _, st, p, ctx in sigmas]):
        for i, col, st, p, ctx in sigmas:
            if reasons[i] is None and not st.verify(p, context=ctx):
                reasons[i] = f"the proof of `{col}` does not verify"
    return reasons


def new_record_id() -> str:
    return _secrets.token_urlsafe(12)
