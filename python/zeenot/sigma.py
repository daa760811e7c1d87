"""Hand-written sigma proofs over Baby Jubjub (zksk / ZKPDL style): a small proof language.

```python
from zeenot.sigma import Secret, Element, DLRep

x, r = Secret("x"), Secret("r")
G, H = Element.generator(), Element.blinding()      # Base8 and zeenot's Pedersen H
C = Element("C", commitment)                        # any zeenot.babyjub Point
stmt = DLRep(C, x * G + r * H) & DLRep(Element("Y", y), x * G2)   # AND; x is shared: equal
proof = stmt.prove({x: 5, r: blinding}, context=b"session 42")    # bytes
assert stmt.verify(proof, context=b"session 42")
```

* `Secret(name)`: an unknown scalar (mod the subgroup order `l`). A `Secret` object used in
  several equations is *the same value* in all of them: that is how equality is stated.
* `Element(name, point)`: a public point. `Element` arithmetic (`C - G`, `3 * G`, `-C`) gives a
  public derived point; the name is a label for people (proofs bind points, not names).
* `x * G + r * H` is a linear expression; a public point may be added (`x * G + H`), and
  `DLRep(lhs, expr)` states `lhs = expr` (public terms move to the left-hand side).
* `a & b` (all hold), `a | b` (at least one holds, which one stays hidden). Every OR branch gets
  its own share of the challenge, so a secret may not be used in two OR branches, or inside and
  outside an OR (a `ValueError` when the statement is built): to say "the same value" across
  branches, commit to it outside the OR and reason about the commitment inside.
* `stmt.prove(witness, context=...)`: `witness` maps `Secret`s (or their names, when unique) to
  integers. Secrets of OR branches the prover cannot open may be omitted. A witness that does
  not satisfy the statement raises `WitnessError` naming the equation that fails.
* `stmt.verify(proof, context=...)`: `True` or `False`; malformed proof bytes (wrong length, a
  point off the curve or outside the subgroup, a non-canonical scalar) are `False` too.

The proof is bound to the whole statement (every point and the equation structure) and to
`context`; use the context for what the proof is *for* (a session, a request, a verifier's
nonce), or a proof can be replayed wherever the same statement is asked.

Ready-made statements: `pedersen_opening`, `plaintext_knowledge` (exponential ElGamal),
`same_plaintext`, `plaintext_in_set` and `plaintext_in_range` (bit decomposition; its proof is a
`RangeProof`, which carries the prover's bit commitments). Each returns an object with the
`Secret`s it uses (pass your own to link statements) and a `witness(...)` helper.

The Rust core (`zeenot-sigma`) proves and verifies; this module builds statements and witnesses.
Witness arithmetic here is ordinary Python integer arithmetic (not constant-time).
"""

from __future__ import annotations

import functools
import random
import secrets as _random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from zeenot.babyjub import BASE8, SUBGROUP_ORDER, Ciphertext, Point
from zeenot.errors import ZeenotError
from zeenot.types import P

__all__ = [
    "And",
    "DLRep",
    "Element",
    "Expr",
    "Or",
    "PedersenOpening",
    "PlaintextInRange",
    "PlaintextInSet",
    "PlaintextKnowledge",
    "RangeProof",
    "SamePlaintext",
    "Secret",
    "Statement",
    "WitnessError",
    "batch_verify",
    "pedersen_commit",
    "pedersen_opening",
    "plaintext_in_range",
    "plaintext_in_set",
    "plaintext_knowledge",
    "prove",
    "same_plaintext",
    "verify",
]

# Range proofs decompose into at most this many bits: 2^250 < l, so a sum of bits never wraps.
MAX_RANGE_BITS = 250


def _native() -> Any:
    from zeenot import _native

    return _native


class WitnessError(ZeenotError, ValueError):
    """The secrets given do not satisfy the statement, so no proof exists."""


# ---------------------------------------------------------------------------------------------
# Points


def _pack(x: int, y: int) -> str:
    # a `Point` is checked when made, so this is circomlibjs `packPoint` by hand: `y`
    # little-endian, the top bit set when `x > (p − 1)/2` (what `bj_pack` computes, without a
    # native call and its point checks per element)
    return (y | (int(x > (P - 1) // 2) << 255)).to_bytes(32, "little").hex()


def _packed(p: Point) -> str:
    """The 32-byte packed encoding (circomlibjs `packPoint`) as hex."""
    return _pack(int(p.x), int(p.y))


def _unpack(data: bytes) -> Point:
    """A packed point, checked (ValueError otherwise)."""
    x, y = _native().bj_unpack(data)
    return Point._trusted(int(x), int(y))


@functools.cache
def _h() -> Point:
    x, y = _native().bj_pedersen_h()
    return Point._trusted(int(x), int(y))


def _int(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"{what} must be an integer, got {type(v).__name__}")
    return int(v)


def pedersen_commit(value: int, blinding: int) -> Point:
    """zeenot's Pedersen commitment `value·G + blinding·H` (`G` = Base8)."""
    return _int(value, "value") * BASE8 + _int(blinding, "blinding") * _h()


# ---------------------------------------------------------------------------------------------
# Secrets, elements, expressions


class Secret:
    """A secret scalar. Identity matters: the same object in two equations is one value."""

    __slots__ = ("name",)

    def __init__(self, name: str = "x"):
        if not isinstance(name, str):
            raise TypeError("a Secret's name must be a string")
        self.name = name

    def __mul__(self, other: Any) -> Expr:
        base = _element_or_none(other)
        if base is not None:
            return Expr(((self, base),))
        return self.__rmul__(other)

    def __rmul__(self, other: Any) -> Expr:
        if isinstance(other, Secret):
            raise TypeError("a product of secrets is not linear: sigma statements are linear")
        if isinstance(other, int):
            raise TypeError(
                "a public coefficient goes on the point: write `x * (k * G)`, not `k * x * G`"
            )
        return NotImplemented

    def __repr__(self) -> str:
        return f"Secret({self.name!r})"


@dataclass(frozen=True)
class Element:
    """A named public point (the name is a label: proofs bind the point)."""

    name: str
    point: Point

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise TypeError("an Element's name must be a string")
        if not isinstance(self.point, Point):
            raise TypeError(f"an Element's point must be a babyjub Point, got {type(self.point)}")

    @classmethod
    def generator(cls) -> Element:
        """`G`: circomlib's Base8 (ElGamal's and zeenot's Pedersen value base)."""
        return cls("G", BASE8)

    @classmethod
    def blinding(cls) -> Element:
        """`H`: zeenot's Pedersen blinding base (`hash_to_curve("zeenot/pedersen/v1", "H")`;
        nobody knows its discrete logarithm to `G`)."""
        return cls("H", _h())

    def __add__(self, other: Any) -> Element:
        o = _element_or_none(other)
        if o is None:
            return NotImplemented
        return Element(f"({self.name} + {o.name})", self.point + o.point)

    def __radd__(self, other: Any) -> Element:
        o = _element_or_none(other)
        if o is None:
            return NotImplemented
        return o + self

    def __sub__(self, other: Any) -> Element:
        o = _element_or_none(other)
        if o is None:
            return NotImplemented
        return Element(f"({self.name} - {o.name})", self.point - o.point)

    def __rsub__(self, other: Any) -> Element:
        o = _element_or_none(other)
        if o is None:
            return NotImplemented
        return o - self

    def __neg__(self) -> Element:
        return Element(f"-{self.name}", -self.point)

    def __mul__(self, other: Any) -> Any:
        if isinstance(other, Secret):
            return Expr(((other, self),))
        if isinstance(other, bool) or not isinstance(other, int):
            return NotImplemented
        return Element(f"{int(other)}*{self.name}", int(other) * self.point)

    __rmul__ = __mul__

    def __repr__(self) -> str:
        return f"Element({self.name!r})"


def _element_or_none(v: Any) -> Element | None:
    if isinstance(v, Element):
        return v
    if isinstance(v, Point):
        return Element("P", v)
    return None


def _element(v: Any, what: str) -> Element:
    e = _element_or_none(v)
    if e is None:
        raise TypeError(f"{what} must be an Element or a babyjub Point, got {type(v).__name__}")
    return e


@dataclass(frozen=True)
class Expr:
    """`Σ secret·element (+ a public point)`: the right-hand side of a `DLRep`."""

    terms: tuple[tuple[Secret, Element], ...]
    const: Element | None = None

    def __add__(self, other: Any) -> Expr:
        if isinstance(other, Expr):
            const = _add_const(self.const, other.const)
            return Expr(self.terms + other.terms, const)
        e = _element_or_none(other)
        if e is not None:
            return Expr(self.terms, _add_const(self.const, e))
        return NotImplemented

    def __radd__(self, other: Any) -> Expr:
        if type(other) is int and other == 0:  # `sum(exprs)`
            return self
        e = _element_or_none(other)
        if e is not None:
            return self + e
        return NotImplemented

    def __neg__(self) -> Expr:
        return Expr(
            tuple((s, -e) for s, e in self.terms), None if self.const is None else -self.const
        )

    def __sub__(self, other: Any) -> Expr:
        if isinstance(other, Expr):
            return self + (-other)
        e = _element_or_none(other)
        if e is not None:
            return self + (-e)
        return NotImplemented

    def __rsub__(self, other: Any) -> Expr:
        return (-self) + other

    def __str__(self) -> str:
        parts = [f"{s.name}*{e.name}" for s, e in self.terms]
        if self.const is not None:
            parts.append(self.const.name)
        return " + ".join(parts)


def _add_const(a: Element | None, b: Element | None) -> Element | None:
    if a is None:
        return b
    if b is None:
        return a
    return a + b


# ---------------------------------------------------------------------------------------------
# Statements


Witness = Mapping[Secret | str, int]


@dataclass(frozen=True)
class _Compiled:
    json: str
    secrets: tuple[Secret, ...]
    proof_size: int


class Statement:
    """A statement of knowledge: `DLRep` leaves composed with `&` (AND) and `|` (OR)."""

    def _tree(self) -> Statement:
        """The DLRep/And/Or tree this statement stands for."""
        return self

    def __and__(self, other: Any) -> And:
        if not isinstance(other, Statement):
            return NotImplemented
        left = self.children if type(self) is And else (self,)
        right = other.children if type(other) is And else (other,)
        return And(*left, *right)

    def __or__(self, other: Any) -> Or:
        if not isinstance(other, Statement):
            return NotImplemented
        left = self.children if type(self) is Or else (self,)
        right = other.children if type(other) is Or else (other,)
        return Or(*left, *right)

    # -- compilation ------------------------------------------------------------------------

    def _compiled(self) -> _Compiled:
        cached = self.__dict__.get("_compiled_cache")
        if cached is not None:
            return cached
        import json

        secrets: list[Secret] = []
        secret_index: dict[int, int] = {}
        elements: list[dict[str, str]] = []
        element_index: dict[str, int] = {}
        equations: list[dict[str, Any]] = []
        challenges = 0

        def sec(s: Secret) -> int:
            i = secret_index.get(id(s))
            if i is None:
                i = secret_index[id(s)] = len(secrets)
                secrets.append(s)
            return i

        def el(e: Element) -> int:
            packed = _packed(e.point)
            i = element_index.get(packed)
            if i is None:
                i = element_index[packed] = len(elements)
                elements.append({"name": e.name, "point": packed})
            return i

        def node(st: Statement) -> dict[str, Any]:
            nonlocal challenges
            t = st._tree()
            if isinstance(t, DLRep):
                lhs = el(t.lhs)
                equations.append({"lhs": lhs, "terms": [[sec(s), el(e)] for s, e in t.terms]})
                return {"eq": len(equations) - 1}
            if isinstance(t, Or):
                challenges += len(t.children) - 1
                return {"or": [node(c) for c in t.children]}
            assert isinstance(t, And)
            return {"and": [node(c) for c in t.children]}

        root = node(self)
        doc = {
            "secrets": [s.name for s in secrets],
            "elements": elements,
            "equations": equations,
            "root": root,
        }
        size = 32 * (len(equations) + challenges + len(secrets))
        compiled = _Compiled(json.dumps(doc, separators=(",", ":")), tuple(secrets), size)
        self.__dict__["_compiled_cache"] = compiled
        return compiled

    def to_json(self) -> str:
        """The statement's wire JSON (docs/sigma.md): what `zeenot._native.sigma_*` take."""
        return self._compiled().json

    @property
    def secrets(self) -> tuple[Secret, ...]:
        """The secrets, in the order the proof's responses follow."""
        return self._compiled().secrets

    @property
    def proof_size(self) -> int:
        """The proof's length in bytes: 32 per equation, per OR branch but the last, per secret."""
        return self._compiled().proof_size

    # -- witnesses --------------------------------------------------------------------------

    def _values(self, witness: Witness) -> dict[int, int]:
        """`id(secret) -> value mod l`, checking every key belongs to this statement."""
        if not isinstance(witness, Mapping):
            raise TypeError("the witness must be a mapping from Secret (or name) to integer")
        mine = self.secrets
        by_id = {id(s): s for s in mine}
        by_name: dict[str, list[Secret]] = {}
        for s in mine:
            by_name.setdefault(s.name, []).append(s)
        values: dict[int, int] = {}
        for key, v in witness.items():
            if isinstance(key, Secret):
                if id(key) not in by_id:
                    raise ValueError(f"{key!r} is not a secret of this statement")
                s = key
            elif isinstance(key, str):
                found = by_name.get(key, [])
                if len(found) != 1:
                    why = "no secret" if not found else f"{len(found)} secrets"
                    raise ValueError(f"{why} of this statement named {key!r}: key it by Secret")
                s = found[0]
            else:
                raise TypeError(f"witness keys are Secrets or names, got {type(key).__name__}")
            if id(s) in values:
                raise ValueError(f"{s!r} is given twice")
            values[id(s)] = _int(v, f"the value of {s!r}") % SUBGROUP_ORDER
        return values

    def holds(self, witness: Witness) -> bool:
        """Whether `witness` satisfies the statement (computed here, in Python)."""
        return self._why_not(self._values(witness)) is None

    def _why_not(self, values: dict[int, int]) -> str | None:
        """`None` if the statement holds for these values, else why not."""
        t = self._tree()
        if isinstance(t, DLRep):
            missing = [s.name for s, _ in t.terms if id(s) not in values]
            if missing:
                return f"`{t}`: no value for {', '.join(sorted(set(missing)))}"
            rhs = Point.identity()
            for s, e in t.terms:
                rhs = rhs + values[id(s)] * e.point
            return None if rhs == t.lhs.point else f"`{t}` does not hold"
        if isinstance(t, Or):
            reasons = [c._why_not(values) for c in t.children]
            if any(r is None for r in reasons):
                return None
            return "no branch of an OR holds (" + "; ".join(r for r in reasons if r) + ")"
        for c in t.children:  # And
            r = c._why_not(values)
            if r is not None:
                return r
        return None

    # -- proving ----------------------------------------------------------------------------

    def prove(self, witness: Witness, *, context: bytes = b"", seed: int | None = None) -> bytes:
        """A proof of the statement with these secrets, bound to `context`.

        Raises `WitnessError` if the secrets do not satisfy the statement. `seed` (an integer
        below 2^64) makes the proof deterministic: insecure, for tests only.
        """
        c = self._compiled()
        values = self._values(witness)
        wire = [
            None if id(s) not in values else values[id(s)].to_bytes(32, "little").hex()
            for s in c.secrets
        ]
        try:
            return bytes(_native().sigma_prove(c.json, wire, _context(context), seed))
        except ValueError as e:
            why = self._why_not(values)
            if why is not None:
                raise WitnessError(f"the witness does not satisfy the statement: {why}") from e
            raise

    def verify(self, proof: bytes, *, context: bytes = b"") -> bool:
        """Whether `proof` proves this statement under `context` (`False` for malformed bytes)."""
        proof = _proof_bytes(proof)
        c = self._compiled()
        if len(proof) != c.proof_size:
            return False
        try:
            return bool(_native().sigma_verify(c.json, proof, _context(context)))
        except ValueError as e:
            if str(e).startswith("malformed proof"):
                return False
            raise

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self}>"


def _context(context: Any) -> bytes:
    if isinstance(context, (bytes, bytearray, memoryview)):
        return bytes(context)
    raise TypeError(f"context must be bytes, got {type(context).__name__}")


def _proof_bytes(proof: Any) -> bytes:
    if isinstance(proof, (bytes, bytearray, memoryview)):
        return bytes(proof)
    raise TypeError(f"a proof is bytes, got {type(proof).__name__}")


class DLRep(Statement):
    """`lhs = Σ secret·element`: knowledge of a discrete-log representation of `lhs`."""

    def __init__(self, lhs: Element | Point, expr: Expr):
        lhs = _element(lhs, "the left-hand side")
        if isinstance(expr, Secret):
            raise TypeError("the right-hand side needs a base: `x * G`, not `x`")
        if not isinstance(expr, Expr):
            raise TypeError(f"the right-hand side must be like `x * G + r * H`, got {expr!r}")
        if not expr.terms:
            raise ValueError("the right-hand side has no secret terms")
        if expr.const is not None:
            lhs = lhs - expr.const
        self.lhs = lhs
        self.terms = expr.terms

    def __str__(self) -> str:
        return f"{self.lhs.name} = {Expr(self.terms)}"


class _Node(Statement):
    children: tuple[Statement, ...]
    _word = ""

    def __init__(self, *children: Statement):
        if len(children) == 1 and not isinstance(children[0], Statement):
            children = tuple(children[0])  # And([a, b, c])
        for c in children:
            if not isinstance(c, Statement):
                raise TypeError(f"{type(self).__name__} composes statements, got {c!r}")
        self.children = tuple(children)
        _check_scopes(self)

    def __str__(self) -> str:
        return "(" + f" {self._word} ".join(str(c) for c in self.children) + ")"


class And(_Node):
    """Every child holds (`a & b`)."""

    _word = "&"

    def __init__(self, *children: Statement):
        super().__init__(*children)
        if not self.children:
            raise ValueError("an AND needs at least one statement")


class Or(_Node):
    """At least one child holds, and the proof hides which (`a | b`)."""

    _word = "|"

    def __init__(self, *children: Statement):
        super().__init__(*children)
        if len(self.children) < 2:
            raise ValueError("an OR needs at least two statements")


def _check_scopes(root: Statement) -> None:
    """Every secret must live in one scope (the root's, or one OR branch's): the rule the Rust
    core enforces, checked here so the error comes where the statement is written."""
    scope_of: dict[int, tuple[int, Secret]] = {}
    counter = [0]

    def walk(st: Statement, scope: int) -> None:
        t = st._tree()
        if isinstance(t, DLRep):
            for s, _ in t.terms:
                prev = scope_of.setdefault(id(s), (scope, s))
                if prev[0] != scope:
                    raise ValueError(
                        f"secret {s.name!r} is used in two different OR branches (or inside and "
                        "outside an OR): each branch answers its own challenge. Commit to the "
                        "value outside the OR (C = x*G + r*H) and refer to C inside"
                    )
        elif isinstance(t, Or):
            for c in t.children:
                counter[0] += 1
                walk(c, counter[0])
        else:
            for c in t.children:
                walk(c, scope)

    walk(root, 0)


class _Gadget(Statement):
    """A ready-made statement: a tree built once, plus a witness helper."""

    _inner: Statement

    def _tree(self) -> Statement:
        return self._inner._tree()

    def __str__(self) -> str:
        return str(self._inner)


def prove(
    statement: Statement, witness: Witness, *, context: bytes = b"", seed: int | None = None
) -> bytes:
    """`statement.prove(witness, context=..., seed=...)`."""
    return statement.prove(witness, context=context, seed=seed)


def verify(statement: Statement | PlaintextInRange, proof: Any, *, context: bytes = b"") -> bool:
    """`statement.verify(proof, context=...)`."""
    return statement.verify(proof, context=context)


def batch_verify(
    items: Iterable[tuple[Statement | PlaintextInRange | PlaintextInLogRange, Any, bytes]],
) -> bool:
    """Whether every `(statement, proof, context)` verifies, checked together with one
    multi-exponentiation (faster than one by one; `False` says only that some proof fails).
    Range statements take their `RangeProof` / `LogRangeProof` (or its bytes); the Bulletproofs
    of `PlaintextInLogRange` items form one more batch."""
    wire: list[tuple[str, bytes, bytes]] = []
    ranges: list[tuple[list[bytes], bytes, int, bytes]] = []
    for st, proof, context in items:
        if isinstance(st, PlaintextInLogRange):
            try:
                lp = proof if isinstance(proof, LogRangeProof) else LogRangeProof.from_bytes(proof)
            except ValueError:
                return False
            packed = bytes.fromhex(_packed(lp.commitment))
            ranges.append(([packed], lp.range_proof, st.bits, _context(context)))
            st, proof = st.statement(lp.commitment), lp.proof
        if isinstance(st, PlaintextInRange):
            parsed = st._parse(proof)
            if parsed is None:
                return False
            st, proof = st.statement(parsed.commitments), parsed.proof
        if not isinstance(st, Statement):
            raise TypeError(f"not a statement: {st!r}")
        proof = _proof_bytes(proof)
        c = st._compiled()
        if len(proof) != c.proof_size:
            return False
        wire.append((c.json, proof, _context(context)))
    if ranges and not all(_native().bp_range_verify_batch(ranges)):
        return False
    try:
        return bool(_native().sigma_batch_verify(wire))
    except ValueError as e:
        if str(e).startswith("malformed proof"):
            return False
        raise


# ---------------------------------------------------------------------------------------------
# Ready-made statements


def _point(v: Any, what: str) -> Point:
    if isinstance(v, Element):
        return v.point
    if isinstance(v, Point):
        return v
    raise TypeError(f"{what} must be a babyjub Point, got {type(v).__name__}")


def _ciphertext(v: Any, what: str) -> Ciphertext:
    if not isinstance(v, Ciphertext):
        raise TypeError(f"{what} must be a babyjub Ciphertext, got {type(v).__name__}")
    return v


def _secret(v: Secret | None, name: str) -> Secret:
    if v is None:
        return Secret(name)
    if not isinstance(v, Secret):
        raise TypeError(f"expected a Secret for {name!r}, got {type(v).__name__}")
    return v


class PedersenOpening(_Gadget):
    """`C = v·G + r·H`: the prover knows an opening of the Pedersen commitment `C`."""

    def __init__(
        self, commitment: Point, *, value: Secret | None = None, blinding: Secret | None = None
    ):
        self.commitment = _point(commitment, "the commitment")
        self.value = _secret(value, "v")
        self.blinding = _secret(blinding, "r")
        G, H = Element.generator(), Element.blinding()
        self._inner = DLRep(Element("C", self.commitment), self.value * G + self.blinding * H)

    def witness(self, value: int, blinding: int) -> dict[Secret, int]:
        return {self.value: value, self.blinding: blinding}


def pedersen_opening(
    commitment: Point, *, value: Secret | None = None, blinding: Secret | None = None
) -> PedersenOpening:
    """Knowledge of `(v, r)` with `commitment = v·G + r·H` (see `pedersen_commit`)."""
    return PedersenOpening(commitment, value=value, blinding=blinding)


def _encryption(
    ct: Ciphertext, pk: Point, m: Secret, r: Secret, tag: str = ""
) -> tuple[DLRep, DLRep]:
    """`c1 = r·G` and `c2 = m·G + r·pk`."""
    G = Element.generator()
    pkE = Element(f"pk{tag}", pk)
    return (
        DLRep(Element(f"c1{tag}", ct.c1), r * G),
        DLRep(Element(f"c2{tag}", ct.c2), m * G + r * pkE),
    )


class PlaintextKnowledge(_Gadget):
    """`ct = (r·G, m·G + r·pk)`: the prover knows the plaintext `m` and randomness `r` of an
    exponential-ElGamal ciphertext (`zeenot.babyjub.encrypt(m, pk, r)`)."""

    def __init__(
        self,
        ct: Ciphertext,
        pk: Point,
        *,
        message: Secret | None = None,
        randomness: Secret | None = None,
    ):
        self.ciphertext = _ciphertext(ct, "the ciphertext")
        self.public_key = _point(pk, "the public key")
        self.message = _secret(message, "m")
        self.randomness = _secret(randomness, "r")
        self._inner = And(*_encryption(ct, self.public_key, self.message, self.randomness))

    def witness(self, message: int, randomness: int) -> dict[Secret, int]:
        return {self.message: message, self.randomness: randomness}


def plaintext_knowledge(
    ct: Ciphertext,
    pk: Point,
    *,
    message: Secret | None = None,
    randomness: Secret | None = None,
) -> PlaintextKnowledge:
    """Knowledge of `(m, r)` with `ct = encrypt(m, pk, r)`; pass `message=` to link `m` to
    other statements (the same `Secret` is the same value)."""
    return PlaintextKnowledge(ct, pk, message=message, randomness=randomness)


class SamePlaintext(_Gadget):
    """Two ciphertexts (possibly under different keys) encrypt the same `m`."""

    def __init__(
        self,
        ct1: Ciphertext,
        pk1: Point,
        ct2: Ciphertext,
        pk2: Point,
        *,
        message: Secret | None = None,
    ):
        self.message = _secret(message, "m")
        self.randomness1 = Secret("r1")
        self.randomness2 = Secret("r2")
        first = _encryption(
            _ciphertext(ct1, "ct1"), _point(pk1, "pk1"), self.message, self.randomness1, "_1"
        )
        second = _encryption(
            _ciphertext(ct2, "ct2"), _point(pk2, "pk2"), self.message, self.randomness2, "_2"
        )
        self._inner = And(*first, *second)

    def witness(self, message: int, randomness1: int, randomness2: int) -> dict[Secret, int]:
        return {self.message: message, self.randomness1: randomness1, self.randomness2: randomness2}


def same_plaintext(
    ct1: Ciphertext, pk1: Point, ct2: Ciphertext, pk2: Point, *, message: Secret | None = None
) -> SamePlaintext:
    """`ct1` (under `pk1`) and `ct2` (under `pk2`) encrypt the same message."""
    return SamePlaintext(ct1, pk1, ct2, pk2, message=message)


class PlaintextInSet(_Gadget):
    """`ct` encrypts one of `values` (an OR over the values; which one stays hidden)."""

    def __init__(self, ct: Ciphertext, pk: Point, values: Iterable[int]):
        self.ciphertext = _ciphertext(ct, "the ciphertext")
        self.public_key = _point(pk, "the public key")
        uniq: dict[int, int] = {}
        for v in values:
            uniq.setdefault(_int(v, "a set value") % SUBGROUP_ORDER, _int(v, "a set value"))
        if not uniq:
            raise ValueError("plaintext_in_set needs at least one value")
        self.values = tuple(uniq.values())
        G = Element.generator()
        pkE = Element("pk", self.public_key)
        c1 = Element("c1", ct.c1)
        self.randomness = tuple(Secret(f"r{i}") for i in range(len(self.values)))
        branches: list[Statement] = []
        for v, r in zip(self.values, self.randomness, strict=True):
            c2v = Element(f"(c2 - {v}*G)", ct.c2 - v * BASE8)
            branches.append(And(DLRep(c1, r * G), DLRep(c2v, r * pkE)))
        self._inner = branches[0] if len(branches) == 1 else Or(*branches)

    def witness(self, message: int, randomness: int) -> dict[Secret, int]:
        """The branch of `message` opened with `randomness` (the other branches are simulated)."""
        m = _int(message, "message") % SUBGROUP_ORDER
        for v, r in zip(self.values, self.randomness, strict=True):
            if v % SUBGROUP_ORDER == m:
                return {r: randomness}
        raise WitnessError(f"the message {message} is not one of the set's values")


def plaintext_in_set(ct: Ciphertext, pk: Point, values: Iterable[int]) -> PlaintextInSet:
    """`ct` encrypts one of `values` under `pk` (one OR branch per distinct value)."""
    return PlaintextInSet(ct, pk, values)


@dataclass(frozen=True)
class RangeProof:
    """A range proof: the prover's bit commitments `C_i = b_i·G + s_i·H` and the sigma proof.

    `to_bytes()`: one byte `bits`, then `bits` packed points (32 bytes each), then the sigma
    proof. `from_bytes` checks the layout and every point (`ValueError` otherwise).
    """

    commitments: tuple[Point, ...]
    proof: bytes

    def to_bytes(self) -> bytes:
        n = len(self.commitments)
        if not 1 <= n <= MAX_RANGE_BITS:
            raise ValueError(f"a range proof has 1 to {MAX_RANGE_BITS} bit commitments, not {n}")
        return (
            bytes([n]) + b"".join(bytes.fromhex(_packed(c)) for c in self.commitments) + self.proof
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> RangeProof:
        data = _proof_bytes(data)
        if not data:
            raise ValueError("an empty range proof")
        n = data[0]
        if not 1 <= n <= MAX_RANGE_BITS or len(data) < 1 + 32 * n:
            raise ValueError("a truncated or malformed range proof")
        commitments = tuple(_unpack(data[1 + 32 * i : 33 + 32 * i]) for i in range(n))
        return cls(commitments, data[1 + 32 * n :])


class _PlaintextRange:
    """What both range statements share: the ciphertext, the key and the linkable secrets."""

    def __init__(
        self, ct: Ciphertext, pk: Point, message: Secret | None, randomness: Secret | None
    ):
        self.ciphertext = _ciphertext(ct, "the ciphertext")
        self.public_key = _point(pk, "the public key")
        self.message = _secret(message, "m")
        self.randomness = _secret(randomness, "r")


class PlaintextInRange(_PlaintextRange):
    """`ct` encrypts an `m` with `0 ≤ m < 2^bits`, by bit decomposition.

    The prover commits to each bit, `C_i = b_i·G + s_i·H`, and proves: each `C_i` opens to 0 or 1
    (`C_i = s·H` OR `C_i − G = s'·H`); `D = Σ 2^i·C_i = m·G + s·H`; and `ct = (r·G, m·G + r·pk)`
    with the same `m`. As `Σ 2^i·b_i < 2^bits ≤ 2^250 < l`, `m` is in range as an integer.

    The statement depends on the prover's commitments, so this is not a `Statement`:
    `prove(m, r)` returns a `RangeProof` carrying them, and `statement(commitments)` gives the
    sigma statement (to compose with others; it uses `self.message` and `self.randomness`).
    """

    def __init__(
        self,
        ct: Ciphertext,
        pk: Point,
        bits: int,
        *,
        message: Secret | None = None,
        randomness: Secret | None = None,
    ):
        super().__init__(ct, pk, message, randomness)
        bits = _int(bits, "bits")
        if not 1 <= bits <= MAX_RANGE_BITS:
            raise ValueError(f"bits must be between 1 and {MAX_RANGE_BITS}, got {bits}")
        self.bits = bits
        self.blinding = Secret("s")
        self._bit_secrets = tuple((Secret(f"s{i}_0"), Secret(f"s{i}_1")) for i in range(bits))

    def statement(self, commitments: Sequence[Point]) -> Statement:
        """The sigma statement for these bit commitments (least significant bit first)."""
        cs = [_point(c, "a bit commitment") for c in commitments]
        if len(cs) != self.bits:
            raise ValueError(f"{len(cs)} bit commitments for a {self.bits}-bit range")
        G, H = Element.generator(), Element.blinding()
        parts: list[Statement] = []
        for i, (c, (s0, s1)) in enumerate(zip(cs, self._bit_secrets, strict=True)):
            ci = Element(f"C{i}", c)
            parts.append(DLRep(ci, s0 * H) | DLRep(ci - G, s1 * H))
        d = cs[-1]
        for c in reversed(cs[:-1]):
            d = d + d + c
        parts.append(DLRep(Element("D", d), self.message * G + self.blinding * H))
        parts.extend(_encryption(self.ciphertext, self.public_key, self.message, self.randomness))
        return And(*parts)

    def commit(self, message: int, *, seed: int | None = None) -> tuple[list[Point], list[int]]:
        """Bit commitments of `message` (0 ≤ message < 2^bits) and their blindings. `seed`
        draws the blindings deterministically: insecure, for tests only."""
        m = _int(message, "message")
        if not 0 <= m < 1 << self.bits:
            raise WitnessError(f"the message {m} is not in [0, 2^{self.bits})")
        draw = random.Random(seed).randrange if seed is not None else _random.randbelow
        h = _h()
        blindings = [draw(SUBGROUP_ORDER) for _ in range(self.bits)]
        commitments = [(s * h + BASE8) if (m >> i) & 1 else s * h for i, s in enumerate(blindings)]
        return commitments, blindings

    def witness(self, message: int, randomness: int, blindings: Sequence[int]) -> dict[Secret, int]:
        """The witness of `statement(commitments)` for the commitments `commit` made."""
        m = _int(message, "message")
        if len(blindings) != self.bits:
            raise ValueError(f"{len(blindings)} blindings for a {self.bits}-bit range")
        w: dict[Secret, int] = {self.message: m, self.randomness: randomness}
        total = 0
        for i, (s, (s0, s1)) in enumerate(zip(blindings, self._bit_secrets, strict=True)):
            w[s1 if (m >> i) & 1 else s0] = s
            total += s << i
        w[self.blinding] = total % SUBGROUP_ORDER
        return w

    def prove(
        self, message: int, randomness: int, *, context: bytes = b"", seed: int | None = None
    ) -> RangeProof:
        """A range proof for `ct = encrypt(message, pk, randomness)`. Raises `WitnessError` if
        `message` is outside `[0, 2^bits)` or the ciphertext does not encrypt it with this
        randomness. `seed`: deterministic, for tests only."""
        commitments, blindings = self.commit(message, seed=seed)
        st = self.statement(commitments)
        proof = st.prove(self.witness(message, randomness, blindings), context=context, seed=seed)
        return RangeProof(tuple(commitments), proof)

    def _parse(self, proof: Any) -> RangeProof | None:
        if isinstance(proof, RangeProof):
            return proof if len(proof.commitments) == self.bits else None
        try:
            parsed = RangeProof.from_bytes(proof)
        except ValueError:
            return None
        return parsed if len(parsed.commitments) == self.bits else None

    def verify(self, proof: RangeProof | bytes, *, context: bytes = b"") -> bool:
        """Whether `proof` (a `RangeProof` or its bytes) shows the plaintext is in range;
        `False` for malformed bytes or a proof for another number of bits."""
        parsed = self._parse(proof)
        if parsed is None:
            return False
        return self.statement(parsed.commitments).verify(parsed.proof, context=context)

    def __repr__(self) -> str:
        return f"<PlaintextInRange: ct encrypts m in [0, 2^{self.bits})>"


@dataclass(frozen=True)
class LogRangeProof:
    """A logarithmic-size range proof of a plaintext: a Pedersen commitment `C = m·G + s·H`, the
    sigma proof that `C` and the ciphertext hold the same `m`, and the Bulletproof that `C`
    opens to a value in range.

    `to_bytes()`: `C` (32 bytes), the sigma proof's length (4 bytes, little-endian), the sigma
    proof, then the Bulletproof.
    """

    commitment: Point
    proof: bytes
    range_proof: bytes

    def to_bytes(self) -> bytes:
        head = bytes.fromhex(_packed(self.commitment)) + len(self.proof).to_bytes(4, "little")
        return head + self.proof + self.range_proof

    @classmethod
    def from_bytes(cls, data: bytes) -> LogRangeProof:
        data = _proof_bytes(data)
        if len(data) < 36:
            raise ValueError("a truncated log-size range proof")
        n = int.from_bytes(data[32:36], "little")
        if len(data) < 36 + n:
            raise ValueError("a truncated log-size range proof")
        return cls(_unpack(data[:32]), data[36 : 36 + n], data[36 + n :])


LOG_RANGE_BITS = (8, 16, 32, 64)


class PlaintextInLogRange(_PlaintextRange):
    """`ct` encrypts an `m` with `0 ≤ m < 2^bits`, `bits` ∈ {8, 16, 32, 64}, with a Bulletproof:
    `32·(9 + 2·log2(bits))` bytes for the range (672 for 64 bits) against one commitment and
    an OR proof per bit for `PlaintextInRange`. The prover commits `C = m·G + s·H`; the sigma
    statement `C = m·G + s·H ∧ ct = (r·G, m·G + r·pk)` ties it to the ciphertext (the same
    secret `m`), and the Bulletproof shows `C` opens to a value below `2^bits`. Both are bound to
    `context` and to `C`."""

    def __init__(
        self,
        ct: Ciphertext,
        pk: Point,
        bits: int,
        *,
        message: Secret | None = None,
        randomness: Secret | None = None,
    ):
        super().__init__(ct, pk, message, randomness)
        if bits not in LOG_RANGE_BITS:
            raise ValueError(f"bits must be one of {LOG_RANGE_BITS} for Bulletproofs, got {bits}")
        self.bits = bits
        self.blinding = Secret("s")

    def statement(self, commitment: Point) -> Statement:
        """The sigma statement linking `commitment` to the ciphertext."""
        G, H = Element.generator(), Element.blinding()
        c = Element("C", _point(commitment, "the commitment"))
        link = DLRep(c, self.message * G + self.blinding * H)
        return And(
            link, *_encryption(self.ciphertext, self.public_key, self.message, self.randomness)
        )

    def prove(
        self, message: int, randomness: int, *, context: bytes = b"", seed: int | None = None
    ) -> LogRangeProof:
        """A proof for `ct = encrypt(message, pk, randomness)`; `WitnessError` if `message` is out
        of range or the ciphertext does not encrypt it. `seed`: deterministic, tests only."""
        m = _int(message, "message")
        if not 0 <= m < 1 << self.bits:
            raise WitnessError(f"the message {m} is not in [0, 2^{self.bits})")
        draw = random.Random(seed).randrange if seed is not None else _random.randbelow
        s = draw(SUBGROUP_ORDER)
        ctx = _context(context)
        range_proof, (packed,) = _native().bp_range_prove(
            [m], [s.to_bytes(32, "little").hex()], self.bits, ctx, seed
        )
        commitment = _unpack(bytes(packed))
        witness = {self.message: m, self.randomness: randomness, self.blinding: s}
        proof = self.statement(commitment).prove(witness, context=ctx, seed=seed)
        return LogRangeProof(commitment, proof, bytes(range_proof))

    def verify(self, proof: LogRangeProof | bytes, *, context: bytes = b"") -> bool:
        """Whether `proof` (a `LogRangeProof` or its bytes) shows the plaintext is in range;
        `False` for malformed bytes."""
        try:
            parsed = proof if isinstance(proof, LogRangeProof) else LogRangeProof.from_bytes(proof)
            ctx = _context(context)
            if not self.statement(parsed.commitment).verify(parsed.proof, context=ctx):
                return False
            packed = bytes.fromhex(_packed(parsed.commitment))
            return bool(_native().bp_range_verify([packed], parsed.range_proof, self.bits, ctx))
        except ValueError:
            return False

    def __repr__(self) -> str:
        return f"<PlaintextInLogRange: ct encrypts m in [0, 2^{self.bits}) (Bulletproofs)>"


def plaintext_in_range(
    ct: Ciphertext,
    pk: Point,
    bits: int,
    *,
    message: Secret | None = None,
    randomness: Secret | None = None,
    method: str = "bits",
) -> PlaintextInRange | PlaintextInLogRange:
    """`ct` encrypts some `m` with `0 ≤ m < 2^bits` under `pk`. `method="bits"` (1 ≤ bits ≤ 250):
    bit decomposition, a commitment and an OR per bit; `method="bulletproofs"` (bits 8, 16, 32
    or 64): one commitment and a logarithmic-size Bulletproof."""
    if method == "bulletproofs":
        return PlaintextInLogRange(ct, pk, bits, message=message, randomness=randomness)
    if method != "bits":
        raise ValueError(f"method must be 'bits' or 'bulletproofs', not {method!r}")
    return PlaintextInRange(ct, pk, bits, message=message, randomness=randomness)
