"""Records: building them, their fields and methods, operators a record class defines
(inlined), and Baby Jubjub points and ciphertexts (addition, scalar multiplication, `encrypt`,
`eddsa_verify`). `zeenot.Fixed` is such a record class: its operators are inlined methods.
"""

from __future__ import annotations

import ast
import types as _pytypes
from typing import Any

from zeenot import babyjub
from zeenot.lang.values import (
    BoundMethod,
    PlainWire,
    RecordCtor,
    SignatureCheck,
    SymRecord,
    Wire,
    describe,
)
from zeenot.types import (
    CIPHERTEXT_KIND,
    INT_TYPES,
    POINT_KIND,
    RecordTy,
    is_signed,
    type_from_obj,
    type_name,
)


class Records:
    """Records of `Compiler` (a mixin)."""

    def record_binop(self, op: ast.operator, sym: str, a: Any, b: Any, node: ast.AST) -> Any:
        """An operator a record class defines (`__add__`, `__mul__`, …); `+` and `-` on points
        (complete addition) and ciphertexts (homomorphic), and `0 +` as `sum` starts."""
        dunder = OPERATOR_METHODS.get(type(op))
        if dunder is not None:
            result = self.user_operator(dunder, a, b, node)
            if result is not NotImplemented:
                return result
        kinds = (POINT_KIND, CIPHERTEXT_KIND)
        if isinstance(op, ast.Sub) and isinstance(b, SymRecord) and b.ty.kind in kinds:
            if isinstance(a, SymRecord) and a.ty == b.ty:
                return self.record_binop(ast.Add(), "+", a, self.negate_point(b, node), node)
        if isinstance(op, ast.Add):
            for x, y in ((a, b), (b, a)):
                if type(x) is int and x == 0 and isinstance(y, SymRecord) and y.ty.kind in kinds:
                    return y  # `sum(...)` starts from 0
            if isinstance(a, SymRecord) and isinstance(b, SymRecord) and a.ty == b.ty:
                if a.ty.kind == POINT_KIND:
                    return self.point_add(a, b, node)
                if a.ty.kind == CIPHERTEXT_KIND:
                    c1 = self.point_add(a.values[0], b.values[0], node)
                    c2 = self.point_add(a.values[1], b.values[1], node)
                    return SymRecord(a.ty, (c1, c2))
        if isinstance(op, ast.Mult):
            k, v = (a, b) if isinstance(b, SymRecord) else (b, a)
            if isinstance(v, SymRecord) and v.ty.kind in kinds and not isinstance(k, SymRecord):
                return self.scalar_mul(k, v, node)
        self.err(node, "ZN303", f"unsupported operation {describe(a)} {sym} {describe(b)}")

    def record_field(self, rec: SymRecord, name: str, node: ast.AST) -> Any:
        """A field, a method (bound to the record) or a class constant of a record."""
        if name in rec.ty.names:
            return rec.get(name)
        member = user_member(rec.ty, name)
        if isinstance(member, _pytypes.FunctionType):
            return BoundMethod(member, rec)
        if member is not None and not callable(member):
            return self.global_value(member, node, f"{rec.ty.name}.{name}")
        self.err(
            node,
            "ZN204",
            f"`{rec.ty.name}` has no field or method `{name}`",
            f"fields: {', '.join(rec.ty.names)}",
        )

    def construct_record(self, ctor: RecordCtor, node: ast.Call) -> SymRecord:
        ty = ctor.ty
        if ty.kind == POINT_KIND:
            self.err(
                node,
                "ZN303",
                "points cannot be built from coordinates in @zk code",
                "take the point as a parameter (it is checked on the curve and in the subgroup)",
            )
        names = list(ty.names)
        got = self.bind_call(node, names, ty.name, unit="field")
        return self.make_record(ty, [got[n] for n in names])

    def make_record(self, ty: RecordTy, fields: list[tuple[Any, ast.AST]]) -> SymRecord:
        """A record from `(value, node)` per field, in order: each value must fit its field's
        type (as a helper argument must), plain ints take it."""
        vals = []
        for (n, fty), (v, vnode) in zip(ty.fields, fields, strict=True):
            if not self.compatible(v, fty):
                self.err(
                    vnode,
                    "ZN405",
                    f"field `{n}` of `{ty.name}` is {type_name(fty)} but got {describe(v)}",
                    f"convert explicitly: {type_name(fty)}(x)" if isinstance(fty, str) else None,
                )
            vals.append(self.coerce(v, fty, vnode))
        return SymRecord(ty, tuple(vals))

    def record_eq(self, a: Any, b: Any, node: ast.AST) -> Any:
        if not (isinstance(a, SymRecord) and isinstance(b, SymRecord) and a.ty == b.ty):
            self.err(node, "ZN303", f"cannot compare {describe(a)} with {describe(b)}")
        acc: Any = True
        for x, y in zip(a.values, b.values, strict=True):
            same = self.record_eq(x, y, node) if isinstance(x, SymRecord) else None
            if same is None:
                same = self.compare(ast.Eq(), x, y, node)
            acc = self.logic("and", acc, same, node)
        return acc

    def user_operator(self, dunder: str, a: Any, b: Any, node: ast.AST) -> Any:
        """`a.__add__(b)` and friends, where `a` is a record whose class defines the method
        (inlined as any helper is); NotImplemented where it does not."""
        if not isinstance(a, SymRecord):
            return NotImplemented
        method = user_member(a.ty, dunder)
        if not isinstance(method, _pytypes.FunctionType):
            return NotImplemented
        return self.inline_values(method, [a, b], node)

    def negate_point(self, p: SymRecord, node: ast.AST) -> SymRecord:
        """`-p` is `(-x, y)` on the twisted Edwards curve; `-c` negates both points."""
        if p.ty.kind == CIPHERTEXT_KIND:
            return SymRecord(p.ty, tuple(self.negate_point(q, node) for q in p.values))
        x, y = p.values
        return SymRecord(p.ty, (self.emit("neg", "field", [x], node), y))

    def point_add(self, p: SymRecord, q: SymRecord, node: ast.AST) -> SymRecord:
        args = [*p.values, *q.values]
        x = self.emit("point_add_x", "field", args, node)
        y = self.emit("point_add_y", "field", args, node)
        return SymRecord(p.ty, (x, y))

    def scalar(self, k: Any, node: ast.AST) -> Wire:
        """A scalar for point multiplication: an unsigned integer or a Field wire; a constant
        is reduced modulo the subgroup order `l` first (so `-1 * p` is `-p`, as in Python)."""
        if isinstance(k, int) and not isinstance(k, bool):
            return self.const("field", k % SUBGROUP_ORDER)
        if isinstance(k, Wire) and not isinstance(k, PlainWire):
            if k.ty == "field" or (k.ty in INT_TYPES and not is_signed(k.ty)):
                return k
        self.err(
            node,
            "ZN303",
            f"a point's scalar must be an unsigned integer or a Field, got {describe(k)}",
            "convert it, e.g. `u64(k)` or `Field(k)`",
        )

    def scalar_mul(self, k: Any, v: SymRecord, node: ast.AST) -> SymRecord:
        """`k * p` (exact for integer scalars; a Field scalar's integer in `[0, p)`), and
        `k * c` for a ciphertext (both points)."""
        kw = self.scalar(k, node)
        if v.ty.kind == CIPHERTEXT_KIND:
            return SymRecord(v.ty, tuple(self.scalar_mul(kw, q, node) for q in v.values))
        args = [kw, *v.values]
        x = self.emit("point_mul_x", "field", args, node)
        y = self.emit("point_mul_y", "field", args, node)
        return SymRecord(v.ty, (x, y))

    def encrypt(self, m: Any, pk: Any, r: Any, node: ast.AST) -> SymRecord:
        """`(r·B8, m·B8 + r·pk)`, as `zeenot.babyjub.encrypt`."""
        if not (isinstance(pk, SymRecord) and pk.ty.kind == POINT_KIND):
            self.err(node, "ZN303", f"`encrypt` needs a Point public key, got {describe(pk)}")
        base = self.global_value(babyjub.BASE8, node, "BASE8")
        rw = self.scalar(r, node)
        c1 = self.scalar_mul(rw, base, node)
        c2 = self.point_add(self.scalar_mul(m, base, node), self.scalar_mul(rw, pk, node), node)
        ty = type_from_obj(babyjub.Ciphertext)
        return SymRecord(ty, (c1, c2))

    def eddsa_verify(self, pk: Any, msg: Any, sig: Any, node: ast.AST) -> SignatureCheck:
        if not (isinstance(pk, SymRecord) and pk.ty.kind == POINT_KIND):
            self.err(node, "ZN303", f"`eddsa_verify` needs a Point key, got {describe(pk)}")
        if not (isinstance(sig, SymRecord) and sig.ty == type_from_obj(babyjub.Signature)):
            self.err(node, "ZN303", f"`eddsa_verify` needs a Signature, got {describe(sig)}")
        if isinstance(msg, int) and not isinstance(msg, bool):
            msg = self.const("field", msg)
        if not (isinstance(msg, Wire) and msg.ty == "field"):
            self.err(
                node,
                "ZN301",
                f"the signed message is a Field element, got {describe(msg)}",
                "convert it, e.g. `Field(reading)` or `poseidon(...)` of several values",
            )
        r8, s = sig.values
        return SignatureCheck((*pk.values, msg, *r8.values, s))


SUBGROUP_ORDER = babyjub.SUBGROUP_ORDER


# Operators a record class may define for itself (inlined as helpers are).
OPERATOR_METHODS = {
    ast.Add: "__add__",
    ast.Sub: "__sub__",
    ast.Mult: "__mul__",
    ast.FloorDiv: "__floordiv__",
    ast.Mod: "__mod__",
    ast.Div: "__truediv__",
}


COMPARISON_METHODS = {ast.Lt: "__lt__", ast.LtE: "__le__", ast.Gt: "__gt__", ast.GtE: "__ge__"}


def user_member(ty: Any, name: str) -> Any:
    """What the record class (or a base class of the user's) defines under `name`: a method or
    a class constant; None for what Python, `dataclasses` or `typing` provide."""
    cls = getattr(ty, "cls", None)
    if cls is None or getattr(ty, "kind", ""):
        return None  # zeenot's points and ciphertexts have their gadgets
    for klass in cls.__mro__:
        if klass is object or klass.__module__ in ("builtins", "typing", "dataclasses"):
            continue
        if name in vars(klass):
            member = vars(klass)[name]
            if isinstance(member, _pytypes.FunctionType) and (
                member.__code__.co_filename == "<string>" or member.__module__ == "collections"
            ):
                return None  # generated: a dataclass's __eq__/__lt__, NamedTuple's helpers
            return member
    return None
