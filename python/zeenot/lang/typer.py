"""Typing and size inference: the type of a value, plain ints adopting the type they meet
(`lit`, `unify`), plain ints chosen at run time (`IntChoice`), the values of two paths merged
into one (`merge`, lists padded to one size), annotations resolved and values checked or
coerced against them, and the zero of a type (for padding).
"""

from __future__ import annotations

import ast
from typing import Any, NoReturn

from zeenot.lang.values import (
    MAX_CHOICE_SIZE,
    NONE,
    PLAIN_TY,
    IntChoice,
    PlainWire,
    SymList,
    SymRecord,
    Undefined,
    Wire,
    choice_leaves,
    choice_size,
    describe,
    same_value,
)
from zeenot.types import (
    INT_TYPES,
    POINT_KIND,
    ListTy,
    RecordTy,
    Ty,
    TypeAnnotationError,
    Visibility,
    int_range,
    type_from_obj,
    type_name,
)


class Typing:
    """Typing of `Compiler` (a mixin; uses `emit`, `const`, `err` of `Emitter` and
    `list_len` of `ListOps`)."""

    frame: Any

    def static_ty(self, v: Any) -> Any:
        if isinstance(v, PlainWire):
            return None
        if isinstance(v, Wire):
            return v.ty
        if isinstance(v, bool):
            return "bool"
        if isinstance(v, int):
            return None
        if isinstance(v, tuple):
            return tuple(self.static_ty(e) for e in v)
        if isinstance(v, (SymList, SymRecord)):
            return self.value_type(v)
        return describe(v)

    def value_type(self, v: Any) -> Any:
        """The type descriptor of a value, `None` for plain ints."""
        if isinstance(v, Wire):
            return v.ty
        if isinstance(v, bool):
            return "bool"
        if isinstance(v, tuple):
            return tuple(self.value_type(e) for e in v)
        if isinstance(v, SymRecord):
            return v.ty
        if isinstance(v, SymList):
            return ListTy(v.elem_ty, v.slots)
        return None

    def elem_type(self, elems: list[Any]) -> Any:
        for e in elems:
            t = self.value_type(e)
            if t is not None:
                return t
        return None

    def lit(self, v: int, ty: str, node: ast.AST) -> Wire:
        """A plain int literal adopting type `ty`."""
        if ty == "bool":
            self.err(node, "ZN303", "cannot mix a bool with an integer", "use `x != 0` or `u8(b)`")
        if ty != "field":
            lo, hi = int_range(ty)
            if not lo <= v <= hi:
                self.err(
                    node,
                    "ZN302",
                    f"the literal {v} does not fit {type_name(ty)} ({lo}..{hi})",
                    f"the literal does not fit {type_name(ty)}",
                )
        return self.const(ty, v)

    def unify(self, a: Any, b: Any, node: ast.AST, what: str) -> tuple[Wire, Wire, str]:
        """Operands of a binary operation on wires: adopt literals, reject mixed types."""
        a, b = self.adoptis_plain_int(a, b, node), self.adoptis_plain_int(b, a, node)
        if isinstance(a, bool) or isinstance(b, bool):
            ta = "bool" if isinstance(a, bool) else self.static_ty(a)
            tb = "bool" if isinstance(b, bool) else self.static_ty(b)
            if ta == tb == "bool":
                return self.as_bool_wire(a), self.as_bool_wire(b), "bool"
            self.err(
                node,
                "ZN303",
                f"cannot {what} {describe(a)} and {describe(b)}",
                "bools are not integers here: use `u8(flag)` to convert",
            )
        if isinstance(a, IntChoice) or isinstance(b, IntChoice):
            other = b if isinstance(a, IntChoice) else a
            if not isinstance(other, Wire):
                self.untyped_choice(node, what)
            if isinstance(a, IntChoice):
                a = self.materialize(a, other.ty, node)
            else:
                b = self.materialize(b, other.ty, node)
        for x in (a, b):
            if not isinstance(x, (Wire, int)):
                self.err(node, "ZN303", f"cannot {what} {describe(a)} and {describe(b)}")
        if isinstance(a, int):
            return self.lit(a, b.ty, node), b, b.ty
        if isinstance(b, int):
            return a, self.lit(b, a.ty, node), a.ty
        if a.ty != b.ty:
            if "bool" in (a.ty, b.ty):
                self.err(
                    node,
                    "ZN303",
                    f"cannot {what} {type_name(a.ty)} and {type_name(b.ty)}",
                    "bools are not integers here: use `u8(flag)` to convert",
                )
            if "field" in (a.ty, b.ty):
                hint = "convert explicitly: Field(x)"
            elif "bool" in (a.ty, b.ty):
                hint = "bools are not integers here: use `u8(flag)` to convert"
            else:
                wide = max((a.ty, b.ty), key=lambda t: int(t[1:]))
                hint = f"convert explicitly: {wide}(x)"
            self.err(
                node,
                "ZN301",
                f"cannot {what} {type_name(a.ty)} and {type_name(b.ty)}",
                hint,
            )
        return a, b, a.ty

    def adoptis_plain_int(self, p: Any, other: Any, node: ast.AST) -> Any:
        """A run-time plain int `p` meeting a typed `other` takes its type, as a literal would
        (the conversion fails where Python's "literal does not fit" does)."""
        if not isinstance(p, PlainWire) or not isinstance(other, Wire):
            return p
        if isinstance(other, PlainWire) or other.ty == PLAIN_TY:
            return p
        if other.ty == "bool":
            return p  # unify reports the bool/int mix
        return self.emit("cast", other.ty, [p], node)

    def plain_result(self, w: Any, a: Any, b: Any) -> Any:
        """Arithmetic between plain ints stays a plain int (`len(xs) - 1`)."""
        plain = (PlainWire, IntChoice, int)
        if (
            isinstance(w, Wire)
            and isinstance(a, plain)
            and isinstance(b, plain)
            and not isinstance(a, bool)
            and not isinstance(b, bool)
            and (isinstance(a, PlainWire) or isinstance(b, PlainWire))
        ):
            return PlainWire(w.id, w.ty)
        return w

    def merge(
        self, c: Wire, a: Any, b: Any, node: ast.AST, what: str, ty: Any = None, lazy: str = ""
    ) -> Any:
        """`a if c else b` for values computed on both paths. With `lazy` (a variable name),
        values that cannot be merged become `Undefined` and fail only when used."""
        return self.plain_result(self.merge_any(c, a, b, node, what, ty, lazy), a, b)

    def merge_any(
        self, c: Wire, a: Any, b: Any, node: ast.AST, what: str, ty: Any, lazy: str
    ) -> Any:
        if same_value(a, b):
            return a
        if isinstance(a, tuple) and isinstance(b, tuple):
            if len(a) != len(b):
                self.err(node, "ZN306", f"{what} is a tuple of different lengths on the two paths")
            tys = ty if isinstance(ty, tuple) and len(ty) == len(a) else (None,) * len(a)
            triples = zip(a, b, tys, strict=True)
            return tuple(self.merge(c, x, y, node, what, t, lazy) for x, y, t in triples)
        if isinstance(a, Undefined) or isinstance(b, Undefined):
            u = a if isinstance(a, Undefined) else b
            return u
        if isinstance(a, SymList) or isinstance(b, SymList):
            return self.merge_lists(c, a, b, node, what)
        if isinstance(a, SymRecord) and isinstance(b, SymRecord) and a.ty == b.ty:
            fields = zip(a.values, b.values, strict=True)
            return SymRecord(a.ty, tuple(self.merge(c, x, y, node, what) for x, y in fields))
        if isinstance(a, bool) and isinstance(b, bool):
            return self.emit(
                "select", "bool", [c, self.const("bool", a), self.const("bool", b)], node
            )
        okinds = (Wire, bool, int, IntChoice)
        if not isinstance(a, okinds) or not isinstance(b, okinds):
            self.err(
                node, "ZN306", f"{what} is {describe(a)} on one path and {describe(b)} on the other"
            )
        if not isinstance(a, Wire) and not isinstance(b, Wire):
            if isinstance(a, bool) or isinstance(b, bool):
                self.err(
                    node,
                    "ZN306",
                    f"{what} is {describe(a)} on one path and {describe(b)} on the other",
                    "convert explicitly so that both paths agree",
                )
            if isinstance(ty, str) and ty not in ("bool", "int"):
                wa, wb = self.materialize(a, ty, node), self.materialize(b, ty, node)
                return self.emit("select", ty, [c, wa, wb], node)
            # plain ints stay untyped (as in Python) until they meet a typed value
            if 1 + choice_size(a) + choice_size(b) > MAX_CHOICE_SIZE and lazy:
                return Undefined(lazy, node, "int")
            return self.choice(c, a, b, node, what)
        a, b = self.adoptis_plain_int(a, b, node), self.adoptis_plain_int(b, a, node)
        if isinstance(a, Wire) and isinstance(b, Wire):
            if a.ty != b.ty:
                self.err(
                    node,
                    "ZN306",
                    f"{what} is {type_name(a.ty)} on one path and {type_name(b.ty)} on the other",
                    "convert explicitly so that both paths agree",
                )
            return self.emit("select", a.ty, [c, a, b], node)
        wa, wb, t = self.unify(a, b, node, "merge")
        return self.emit("select", t, [c, wa, wb], node)

    def merge_lists(self, c: Wire, a: Any, b: Any, node: ast.AST, what: str) -> SymList:
        if not (isinstance(a, SymList) and isinstance(b, SymList)):
            self.err(
                node, "ZN306", f"{what} is {describe(a)} on one path and {describe(b)} on the other"
            )
        n = max(a.slots, b.slots)
        a, b = self.pad(a, n), self.pad(b, n)
        elems = tuple(
            self.merge(c, x, y, node, what) for x, y in zip(a.elems, b.elems, strict=True)
        )
        active = tuple(
            self.pick(c, x, y, node, what) for x, y in zip(a.active, b.active, strict=True)
        )
        length = self.merge(c, self.list_len(a, node), self.list_len(b, node), node, what)
        return SymList(elems, active, length, a.elem_ty or b.elem_ty, a.dense and b.dense)

    def pad(self, xs: SymList, n: int) -> SymList:
        if xs.slots >= n:
            return xs
        if xs.slots:
            filler = self.zero_like(xs.elems[0])
        elif xs.elem_ty is not None:
            filler = self.zero_of(xs.elem_ty)
        else:
            filler = 0
        extra = n - xs.slots
        return SymList(
            xs.elems + (filler,) * extra,
            xs.active + (False,) * extra,
            xs.length,
            xs.elem_ty,
            xs.dense,
        )

    def pick(self, c: Any, a: Any, b: Any, node: ast.AST, what: str) -> Any:
        if c is True:
            return a
        if c is False:
            return b
        return self.merge(c, a, b, node, what)

    def choice(self, c: Wire, a: Any, b: Any, node: ast.AST, what: str = "the value") -> Any:
        if same_value(a, b):
            return a
        size = 1 + choice_size(a) + choice_size(b)
        if size > MAX_CHOICE_SIZE:
            self.err(
                node,
                "ZN309",
                f"{what} is a plain int that depends on too many conditions",
                "give it a type, e.g. `x = u32(0)`",
            )
        return IntChoice(c, a, b, size)

    def combine(self, x: Any, y: Any, f: Any, node: ast.AST) -> Any:
        """`f` applied to every pair of possible values (plain ints) of `x` and `y`."""
        if isinstance(x, IntChoice):
            a, b = self.combine(x.a, y, f, node), self.combine(x.b, y, f, node)
            return self.choice(x.cond, a, b, node)
        if isinstance(y, IntChoice):
            a, b = self.combine(x, y.a, f, node), self.combine(x, y.b, f, node)
            return self.choice(y.cond, a, b, node)
        return f(x, y)

    def materialize(self, v: Any, ty: str, node: ast.AST) -> Wire:
        """A plain int (or `IntChoice`, or bool) as a wire of type `ty`."""
        memo: dict[int, Wire] = {}
        if isinstance(v, PlainWire):
            return v if ty == PLAIN_TY else self.emit("cast", ty, [v], node)

        def go(x: Any) -> Wire:
            if isinstance(x, IntChoice):
                w = memo.get(id(x))
                if w is None:
                    w = self.emit("select", ty, [x.cond, go(x.a), go(x.b)], node)
                    memo[id(x)] = w
                return w
            if isinstance(x, bool) and ty == "bool":
                return self.const("bool", x)
            return self.lit(x, ty, node)

        return go(v)

    def as_bool(self, v: Any, node: ast.AST) -> Any:
        """A bool-valued `IntChoice` (or bool) as a bool wire (or constant)."""
        return self.materialize(v, "bool", node) if isinstance(v, IntChoice) else v

    def untyped_choice(self, node: ast.AST, what: str) -> NoReturn:
        self.err(
            node,
            "ZN309",
            f"cannot {what} plain ints chosen at run time: they have no type",
            "give one of them a type, e.g. `x = u32(0)`",
        )

    def zero_like(self, v: Any) -> Any:
        """A well-typed filler shaped like `v` (for padding slots)."""
        if isinstance(v, Wire):
            return self.const(v.ty, 0)
        if isinstance(v, bool):
            return False
        if isinstance(v, tuple):
            return tuple(self.zero_like(e) for e in v)
        if isinstance(v, SymRecord):
            return self.zero_of(v.ty)
        if isinstance(v, SymList):
            elems = tuple(self.zero_like(e) for e in v.elems)
            return SymList(elems, (False,) * v.slots, 0, v.elem_ty, True)
        return 0

    def zero_of(self, ty: Any) -> Any:
        if isinstance(ty, RecordTy) and ty.kind == POINT_KIND:  # the identity
            return SymRecord(ty, (self.const("field", 0), self.const("field", 1)))
        if isinstance(ty, tuple):
            return tuple(self.zero_of(t) for t in ty)
        if isinstance(ty, RecordTy):
            return SymRecord(ty, tuple(self.zero_of(t) for _, t in ty.fields))
        if isinstance(ty, ListTy):
            return SymList((), (), 0, ty.elem, True)
        return False if ty == "bool" else self.const(ty, 0)

    def annotations(self, fn: Any, fdef: ast.FunctionDef) -> dict[str, Ty | None]:
        """Resolved parameter/return annotations of a helper (Private/Public unwrapped)."""
        out: dict[str, Ty | None] = {}
        nodes = {p.arg: p.annotation for p in fdef.args.posonlyargs + fdef.args.args}
        nodes["return"] = fdef.returns
        for name, ann_node in nodes.items():
            if ann_node is None:
                continue
            obj = self.eval_annotation(fn, name, ann_node)
            if isinstance(obj, Visibility):
                obj = obj.ty
            if obj is None and name == "return":
                out[name] = None
                continue
            if obj is int:  # a helper may take or return a compile-time int
                out[name] = "int"
                continue
            out[name] = self.resolve_type(obj, ann_node)
        return out

    def eval_annotation(self, fn: Any, name: str, node: ast.expr) -> Any:
        raw = getattr(fn, "__annotations__", {}).get(name, node)
        try:
            if isinstance(raw, ast.AST) or isinstance(raw, str):
                code = raw if isinstance(raw, str) else ast.Expression(body=node)
                if not isinstance(code, str):
                    ast.fix_missing_locations(code)
                return eval(  # noqa: S307 - the user's own annotation, in the user's module
                    compile(code, self.frame.file, "eval"), fn.__globals__
                )
            return raw
        except Exception as exc:  # noqa: BLE001 - any failure is a bad annotation
            self.err(
                node,
                "ZN402",
                f"invalid type annotation `{self.src(node)}`: {type(exc).__name__}: {exc}",
            )

    def resolve_type(self, obj: Any, node: ast.AST) -> Ty:
        try:
            return type_from_obj(obj)
        except TypeAnnotationError as exc:
            self.err(node, "ZN402", f"invalid type `{self.src(node)}`: {exc}", exc.hint)

    def check_arg(self, v: Any, ty: Ty, node: ast.AST, p: str, fname: str) -> None:
        if not self.compatible(v, ty):
            hint = None
            if ty == "int":
                hint = "an `int` parameter takes a compile-time constant"
            elif isinstance(ty, str):
                hint = f"convert explicitly: {type_name(ty)}(x)"
            self.err(
                node,
                "ZN405",
                f"argument `{p}` of `{fname}()` is declared {type_name(ty)} but got {describe(v)}",
                hint,
            )

    def compatible(self, v: Any, ty: Ty) -> bool:
        if isinstance(ty, ListTy):
            return (
                isinstance(v, SymList)
                and (ty.max is None or v.slots <= ty.max)
                and all(self.compatible(x, ty.elem) for x in v.elems)
            )
        if isinstance(ty, RecordTy):
            return isinstance(v, SymRecord) and v.ty == ty
        if isinstance(ty, tuple):
            return (
                isinstance(v, tuple)
                and len(v) == len(ty)
                and all(self.compatible(x, t) for x, t in zip(v, ty, strict=False))
            )
        if isinstance(v, IntChoice):
            return ty not in ("bool", "int") and all(
                self.compatible(x, ty) for x in choice_leaves(v)
            )
        if isinstance(v, PlainWire):
            return ty in INT_TYPES or ty == "field"
        if ty == "int":
            return isinstance(v, int) and not isinstance(v, bool)
        if isinstance(v, Wire):
            return v.ty == ty
        if isinstance(v, bool):
            return ty == "bool"
        if isinstance(v, int):
            if ty == "field":
                return True
            if ty == "bool":
                return False
            lo, hi = int_range(ty)
            return lo <= v <= hi
        return False

    def coerce_return(self, v: Any, ty: Any, node: ast.AST) -> Any:
        if ty is None:
            return v
        if v is NONE:
            self.err(
                node,
                "ZN308",
                f"`{self.frame.fn.__name__}` is annotated to return "
                f"{type_name(ty)} but returns nothing",
            )
        return self.coerce(v, ty, node)

    def coerce(self, v: Any, ty: Ty, node: ast.AST) -> Any:
        if isinstance(v, PlainWire) and isinstance(ty, str) and ty not in ("bool", "int"):
            return self.materialize(v, ty, node)
        if isinstance(ty, ListTy):
            return self.coerce_list(v, ty, node)
        if isinstance(ty, RecordTy):
            if not (isinstance(v, SymRecord) and v.ty == ty):
                self.err(node, "ZN308", f"returns {describe(v)} but is annotated {type_name(ty)}")
            return v
        if isinstance(ty, tuple):
            if not isinstance(v, tuple) or len(v) != len(ty):
                self.err(node, "ZN308", f"returns {describe(v)} but is annotated {type_name(ty)}")
            return tuple(self.coerce(x, t, node) for x, t in zip(v, ty, strict=False))
        if isinstance(v, Wire):
            if v.ty != ty:
                self.err(
                    node,
                    "ZN308",
                    f"returns {type_name(v.ty)} but is annotated {type_name(ty)}",
                    None if ty == "int" else f"convert explicitly: {type_name(ty)}(x)",
                )
            return v
        if isinstance(v, bool):
            if ty != "bool":
                self.err(node, "ZN308", f"returns bool but is annotated {type_name(ty)}")
            return v
        if isinstance(v, IntChoice) and ty not in ("bool", "int"):
            return self.materialize(v, ty, node)
        if isinstance(v, int):
            if not self.compatible(v, ty):
                self.err(node, "ZN308", f"returns {v}, which does not fit {type_name(ty)}")
            return v
        self.err(node, "ZN308", f"returns {describe(v)} but is annotated {type_name(ty)}")

    def coerce_list(self, v: Any, ty: ListTy, node: ast.AST) -> SymList:
        if not isinstance(v, SymList):
            self.err(node, "ZN308", f"returns {describe(v)} but is annotated {type_name(ty)}")
        if ty.max is not None and v.slots > ty.max:
            self.err(
                node,
                "ZN308",
                f"returns a list of up to {v.slots} elements but is annotated {type_name(ty)}",
                f"raise the bound: MaxSize[list[...], {v.slots}]",
            )
        elems = tuple(self.coerce(x, ty.elem, node) for x in v.elems)
        return SymList(elems, v.active, v.length, ty.elem, v.dense)


def leaf_types(t: Any) -> list[Any]:
    """The types in a (possibly nested) tuple descriptor; `None` marks a plain int."""
    if isinstance(t, tuple):
        return [x for e in t for x in leaf_types(e)]
    return [t]
