"""Expressions: each `ast.expr` evaluated to a compile-time value or a wire (constants fold
as Python folds them), operators and comparisons typed, `and`/`or`/`if-else` run under guards.
Calls are in calls.py.
"""

from __future__ import annotations

import ast
import types as _pytypes
from typing import Any, NoReturn

from zeenot.lang.emit import MAX_ITERATIONS
from zeenot.lang.records import COMPARISON_METHODS
from zeenot.lang.values import (
    NONE,
    PLAIN_TY,
    Builtin,
    Closure,
    FuncRef,
    IntChoice,
    ModuleRef,
    PlainWire,
    SymList,
    SymRecord,
    Undefined,
    Wire,
    describe,
    is_const,
    is_plain_int,
)
from zeenot.types import CIPHERTEXT_KIND, INT_TYPES, POINT_KIND, is_signed, type_name


class Expressions:
    """Expressions of `Compiler` (a mixin: `expr` dispatches to the `e_*` methods)."""

    frame: Any

    def expr(self, node: ast.expr) -> Any:
        m = getattr(self, "e_" + type(node).__name__, None)
        if m is None:
            return self.unsupported_expr(node)
        return m(node)

    def unsupported_expr(self, node: ast.expr) -> NoReturn:
        if isinstance(node, (ast.Dict, ast.DictComp)):
            self.err(
                node,
                "ZN203",
                "dicts are not supported",
                "use lists of records and `find`, or tuples indexed by a number "
                "(sets work: `set(xs)`, `{a, b}`, `{f(x) for x in xs}`)",
            )
        if isinstance(node, (ast.JoinedStr, ast.FormattedValue)):
            self.err(node, "ZN202", "strings are not supported")
        what = {
            "NamedExpr": "`:=`",
            "Starred": "`*` unpacking",
            "Yield": "`yield`",
            "YieldFrom": "`yield from`",
            "Await": "`await`",
            "Slice": "a slice",
        }
        self.err(
            node, "ZN210", f"{what.get(type(node).__name__, type(node).__name__)} is not supported"
        )

    def value(self, node: ast.expr) -> Any:
        """An expression used as data (not a function or None)."""
        v = self.expr(node)
        if isinstance(v, (Builtin, FuncRef, ModuleRef)):
            self.err(node, "ZN210", f"`{self.src(node)}` is a function, not a value", "call it")
        if v is NONE:
            self.err(node, "ZN211", f"`{self.src(node)}` returns nothing")
        _check_defined(self, v, node)
        return v

    def e_Constant(self, node: ast.Constant) -> Any:
        v = node.value
        if isinstance(v, (bool, int)):
            return v
        if isinstance(v, float):
            self.err(
                node,
                "ZN201",
                "floating point is not supported",
                "use integers, e.g. cents instead of euros, and `//` for division",
            )
        if isinstance(v, (str, bytes)):
            self.err(node, "ZN202", "strings are not supported")
        if v is None:
            self.err(node, "ZN211", "`None` is not supported as a value")
        self.err(node, "ZN210", f"`{v!r}` is not supported")

    def e_Name(self, node: ast.Name) -> Any:
        return self.lookup(node.id, node)

    def e_List(self, node: ast.List) -> Any:
        return self.const_list(list(self.e_Tuple(node)))  # type: ignore[arg-type]

    def e_ListComp(self, node: ast.ListComp) -> Any:
        return self.comprehension(node)

    def e_Set(self, node: ast.Set) -> Any:
        """`{a, b}`: `set((a, b))`."""
        return self.list_set(self.const_list(list(self.e_Tuple(node))), node)  # type: ignore[arg-type]

    def e_SetComp(self, node: ast.SetComp) -> Any:
        """`{f(x) for x in xs}`: `set(f(x) for x in xs)`."""
        return self.list_set(self.comprehension(node), node)  # type: ignore[arg-type]

    def e_GeneratorExp(self, node: ast.GeneratorExp) -> Any:
        return self.comprehension(node)

    def e_Lambda(self, node: ast.Lambda) -> Any:
        return Closure(node, self.frame)

    def e_Attribute(self, node: ast.Attribute) -> Any:
        base = node.value
        if isinstance(base, ast.Name) and base.id not in self.frame.env:
            obj = self.frame.globals.get(base.id)
            if isinstance(obj, _pytypes.ModuleType):
                if not hasattr(obj, node.attr):
                    self.err(node, "ZN207", f"module `{base.id}` has no `{node.attr}`")
                return self.global_value(getattr(obj, node.attr), node, f"{base.id}.{node.attr}")
        v = self.value(base)
        if isinstance(v, SymRecord):
            return self.record_field(v, node.attr, node)
        if isinstance(v, SymList) and node.attr in ("append", "extend", "insert", "pop", "sort"):
            self.err(
                node,
                "ZN214",
                f"lists are immutable here: `.{node.attr}()` is not supported",
                "build lists with comprehensions: `[f(x) for x in xs if cond]`",
            )
        self.err(
            node,
            "ZN204",
            f"attribute access `.{node.attr}` is not supported",
            "zeenot values have no attributes or methods; use functions like `len(t)`",
        )

    def e_Tuple(self, node: ast.Tuple | ast.List | ast.Set) -> Any:
        out = []
        for e in node.elts:
            if isinstance(e, ast.Starred):
                v = self.expr(e.value)
                if not isinstance(v, tuple):
                    self.err(e, "ZN210", "`*` unpacking of a non-tuple")
                out.extend(v)
            else:
                out.append(self.value(e))
        return tuple(out)

    def e_Subscript(self, node: ast.Subscript) -> Any:
        base = self.value(node.value)
        if (
            isinstance(base, SymRecord)
            and base.ty.cls is not None
            and issubclass(base.ty.cls, tuple)
        ):
            base = base.values  # a NamedTuple indexes like a tuple
        if not isinstance(base, (tuple, SymList)):
            self.err(
                node.value,
                "ZN209",
                f"cannot index {describe(base)}",
                "only tuples and lists can be indexed",
            )
        if isinstance(node.slice, ast.Slice):
            parts = []
            for p in (node.slice.lower, node.slice.upper, node.slice.step):
                if p is None:
                    parts.append(None)
                    continue
                pv = self.value(p)
                if isinstance(pv, bool) or not isinstance(pv, int):
                    self.err(p, "ZN209", "slice bounds must be compile-time integer constants")
                parts.append(pv)
            if parts[2] == 0:
                self.err(node.slice, "ZN209", "slice step cannot be zero")
            if isinstance(base, SymList):
                return self.slice_list(base, parts, node)
            return base[slice(*parts)]
        idx = self.value(node.slice)
        if isinstance(base, SymList):
            return self.index_list(base, idx, node)
        if isinstance(idx, Wire):
            return self.index_tuple(base, idx, node)
        if isinstance(idx, bool) or not isinstance(idx, int):
            self.err(
                node.slice,
                "ZN209",
                "a tuple index must be a compile-time constant",
                "index with a constant, a loop variable or a typed unsigned value",
            )
        if not -len(base) <= idx < len(base):
            self.err(
                node.slice,
                "ZN209",
                f"index {idx} is out of range for a tuple of length {len(base)}",
            )
        return base[idx]

    def e_BinOp(self, node: ast.BinOp) -> Any:
        a = self.value(node.left)
        b = self.value(node.right)
        return self.binop(node.op, a, b, node)

    def binop(self, op: ast.operator, a: Any, b: Any, node: ast.AST) -> Any:
        sym = _OP_SYMBOLS.get(type(op), "?")
        if isinstance(a, SymRecord) or isinstance(b, SymRecord):
            return self.record_binop(op, sym, a, b, node)
        if isinstance(a, SymList) or isinstance(b, SymList):
            return self.set_binop(op, sym, a, b, node)
        if isinstance(a, tuple) or isinstance(b, tuple):
            if isinstance(op, ast.Add) and isinstance(a, tuple) and isinstance(b, tuple):
                return a + b
            if isinstance(op, ast.Mult):
                n = b if isinstance(a, tuple) else a
                t = a if isinstance(a, tuple) else b
                if isinstance(n, int) and not isinstance(n, bool):
                    if n * len(t) > MAX_ITERATIONS:
                        self.err(node, "ZN114", "tuple too large")
                    return t * n
            self.err(node, "ZN303", f"unsupported operation {describe(a)} {sym} {describe(b)}")
        if (
            isinstance(a, int)
            and isinstance(b, int)
            and not isinstance(a, bool)
            and not isinstance(b, bool)
        ):
            return self.fold(op, a, b, node, sym)
        if is_plain_int(a) and is_plain_int(
            b
        ):  # at least one IntChoice: Python int arithmetic per path
            return self.combine(a, b, lambda x, y: self.fold(op, x, y, node, sym), node)
        if isinstance(op, ast.Div):
            self.err(node, "ZN208", "true division `/` produces a float", "use floor division `//`")
        if not (isinstance(op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod))):
            self.err(
                node,
                "ZN208",
                f"operator `{sym}` is not supported on {describe(a)} and {describe(b)} in v1",
                OPERATOR_HINTS.get(type(op), "supported: + - * // %"),
            )
        wa, wb, ty = self.unify(a, b, node, f"apply `{sym}` to")
        if ty == "bool":
            self.err(
                node,
                "ZN303",
                f"arithmetic `{sym}` on bool values",
                "use `and`/`or`/`not`, or convert with `u8(flag)`",
            )
        if type(op) in ARITH:
            return self.plain_result(self.emit(ARITH[type(op)][0], ty, [wa, wb], node), a, b)
        if ty == "field":
            self.err(
                node,
                "ZN303",
                f"`{sym}` is not defined on Field elements",
                "convert to an integer type first, e.g. `u64(x)`",
            )
        return self.plain_result(self.emit(DIVS[type(op)][0], ty, [wa, wb], node), a, b)

    def fold(self, op: ast.operator, a: int, b: int, node: ast.AST, sym: str) -> int:
        if isinstance(op, ast.Div):
            self.err(node, "ZN201", "true division `/` produces a float", "use floor division `//`")
        if isinstance(op, (ast.FloorDiv, ast.Mod)) and b == 0:
            self.err(node, "ZN310", "division by zero in a constant expression")
        if isinstance(op, ast.Pow):
            if b < 0:
                self.err(node, "ZN201", "a negative exponent produces a float")
            if a not in (0, 1, -1) and b * max(a.bit_length(), 1) > 4096:
                self.err(node, "ZN114", "constant too large")
        if isinstance(op, ast.LShift) and b > 4096:
            self.err(node, "ZN114", "constant too large")
        try:
            return int(_FOLD[type(op)](a, b))
        except (KeyError, ValueError, ArithmeticError) as exc:
            self.err(node, "ZN208", f"cannot evaluate `{sym}` on constants: {exc}")

    def e_UnaryOp(self, node: ast.UnaryOp) -> Any:
        v = self.value(node.operand)
        if isinstance(v, SymRecord) and v.ty.kind in (POINT_KIND, CIPHERTEXT_KIND):
            if isinstance(node.op, ast.USub):
                return self.negate_point(v, node)
            self.err(node, "ZN303", f"unsupported operand {describe(v)}", "points take `-p`")
        if isinstance(v, IntChoice):
            if isinstance(node.op, ast.Not):
                return self.as_bool(self.combine(v, 0, lambda x, _: not x, node), node)
            f = {ast.USub: lambda x, _: -x, ast.UAdd: lambda x, _: x, ast.Invert: lambda x, _: ~x}
            return self.combine(v, 0, f[type(node.op)], node)
        if isinstance(node.op, ast.Not):
            if isinstance(v, Wire):
                if v.ty != "bool":
                    self.err(
                        node,
                        "ZN305",
                        f"`not` needs a bool, got {type_name(v.ty)}",
                        "compare explicitly, e.g. `x == 0`",
                    )
                return self.emit("not", "bool", [v], node)
            if is_const(v):
                return not v
            self.err(node, "ZN305", f"`not` needs a bool, got {describe(v)}")
        if isinstance(v, bool) or (isinstance(v, Wire) and v.ty == "bool"):
            self.err(node, "ZN303", "arithmetic on a bool", "convert with `u8(flag)`")
        if isinstance(v, int):
            if isinstance(node.op, ast.USub):
                return -v
            if isinstance(node.op, ast.UAdd):
                return v
            return ~v
        if not isinstance(v, Wire):
            self.err(node, "ZN303", f"unsupported operand {describe(v)}")
        if isinstance(node.op, ast.UAdd):
            return v
        if isinstance(node.op, ast.Invert):
            self.err(node, "ZN208", "`~` is not supported on values in v1")
        if v.ty == "field" or is_signed(v.ty):
            return self.emit("neg", v.ty, [v], node)
        # -x on an unsigned type: 0 - x, which overflows unless x == 0 (as Python's u32 does)
        return self.emit("sub", v.ty, [self.const(v.ty, 0), v], node)

    def cond_value(self, node: ast.expr, what: str) -> Any:
        v = self.value(node)
        if isinstance(v, bool) or (isinstance(v, Wire) and v.ty == "bool"):
            return v
        if is_const(v):
            return bool(v)
        if isinstance(v, IntChoice):
            return self.as_bool(self.combine(v, 0, lambda x, _: x != 0, node), node)
        self.err(
            node,
            "ZN305",
            f"{what} must be a bool, got {describe(v)}",
            "compare explicitly, e.g. `x != 0`",
        )

    def e_BoolOp(self, node: ast.BoolOp) -> Any:
        is_and = isinstance(node.op, ast.And)
        what = "an operand of `and`" if is_and else "an operand of `or`"
        # Python returns an operand, not a bool: while the operands are compile-time constants
        # they keep their value (`0 or 5` is 5); once a wire is involved everything is a bool.
        acc = self.value(node.values[0])
        acc_node = node.values[0]
        for sub in node.values[1:]:
            if is_const(acc):
                if bool(acc) is not is_and:  # falsy and ..., truthy or ...: short-circuit
                    return acc
                acc, acc_node = self.value(sub), sub
                continue
            self.require_bool(acc, acc_node, what)
            c = acc if is_and else self.negate(acc, node)
            rhs = self.under(c, node, lambda sub=sub: self.value(sub))
            self.require_bool(rhs, sub, what)
            acc = self.logic("and" if is_and else "or", acc, rhs, node)
        return acc

    def require_bool(self, v: Any, node: ast.AST, what: str) -> None:
        if isinstance(v, bool) or (isinstance(v, Wire) and v.ty == "bool"):
            return
        self.err(
            node,
            "ZN305",
            f"{what} must be a bool, got {describe(v)}",
            "compare explicitly, e.g. `x != 0`",
        )

    def e_Compare(self, node: ast.Compare) -> Any:
        left = self.value(node.left)
        acc: Any = True
        for op, right_node in zip(node.ops, node.comparators, strict=False):
            if acc is False:
                return False
            if isinstance(acc, Wire):
                right = self.under(acc, node, lambda n=right_node: self.value(n))
            else:
                right = self.value(right_node)
            r = self.compare(op, left, right, node)
            acc = self.logic("and", acc, r, node)
            left = right
        return acc

    def compare(self, op: ast.cmpop, a: Any, b: Any, node: ast.AST) -> Any:
        if type(op) in COMPARISON_METHODS and isinstance(a, SymRecord):
            result = self.user_operator(COMPARISON_METHODS[type(op)], a, b, node)
            if result is not NotImplemented:
                return result
        if isinstance(op, (ast.Eq, ast.NotEq)) and (
            isinstance(a, SymRecord) or isinstance(b, SymRecord)
        ):
            same = self.record_eq(a, b, node)
            return self.negate(same, node) if isinstance(op, ast.NotEq) else same
        if isinstance(op, (ast.In, ast.NotIn)) and isinstance(b, (tuple, SymList)):
            found = self.contains(a, self.as_list(b, node, "`in`"), node)
            return self.negate(found, node) if isinstance(op, ast.NotIn) else found
        if type(op) not in CMPS:
            sym = {ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}
            what = sym.get(type(op), "?")
            if what in ("in", "not in"):
                self.err(
                    node,
                    "ZN208",
                    f"`{what}` needs a tuple or list on the right, got {describe(b)}",
                    "use `==` / `!=`",
                )
            self.err(node, "ZN208", f"`{what}` is not supported", "use `==` / `!=`")
        name, sym = CMPS[type(op)]
        if is_const(a) and is_const(b):
            return bool(_CMP_FOLD[name](a, b))
        if is_plain_int(a) and is_plain_int(b):  # at least one IntChoice
            return self.as_bool(
                self.combine(a, b, lambda x, y: bool(_CMP_FOLD[name](x, y)), node), node
            )
        if isinstance(a, tuple) or isinstance(b, tuple):
            self.err(
                node,
                "ZN303",
                f"cannot compare {describe(a)} {sym} {describe(b)}",
                "compare the elements one by one",
            )
        a, b = self.exactis_plain_int(a, b, node), self.exactis_plain_int(b, a, node)
        wa, wb, ty = self.unify(a, b, node, f"compare (`{sym}`)")
        if name not in ("eq", "ne") and ty in ("field", "bool"):
            self.err(
                node,
                "ZN304",
                f"`{sym}` is not defined on {type_name(ty)} values",
                "Field elements and bools have no order; compare integers, e.g. `u64(x) < y`",
            )
        return self.emit(name, "bool", [wa, wb], node)

    def exactis_plain_int(self, x: Any, other: Any, node: ast.AST) -> Any:
        """For comparing a typed `x` with a run-time plain int exactly (Python compares the
        integers): widen `x` to the plain ints' i64 when every value of its type fits."""
        if (
            isinstance(other, PlainWire)
            and isinstance(x, Wire)
            and not isinstance(x, PlainWire)
            and x.ty in INT_TYPES
            and x.ty not in ("u64", PLAIN_TY)
        ):
            return PlainWire(self.emit("cast", PLAIN_TY, [x], node).id, PLAIN_TY)
        return x

    def e_IfExp(self, node: ast.IfExp) -> Any:
        c = self.cond_value(node.test, "the condition of `... if ... else ...`")
        if isinstance(c, bool):
            return self.value(node.body if c else node.orelse)
        a = self.under(c, node, lambda: self.value(node.body))
        b = self.under(self.negate(c, node), node, lambda: self.value(node.orelse))
        return self.merge(c, a, b, node, "the conditional expression")


ARITH = {ast.Add: ("add", "+"), ast.Sub: ("sub", "-"), ast.Mult: ("mul", "*")}


DIVS = {ast.FloorDiv: ("floordiv", "//"), ast.Mod: ("mod", "%")}


CMPS = {
    ast.Eq: ("eq", "=="),
    ast.NotEq: ("ne", "!="),
    ast.Lt: ("lt", "<"),
    ast.LtE: ("le", "<="),
    ast.Gt: ("gt", ">"),
    ast.GtE: ("ge", ">="),
}


# What to write instead of the operators @zk arithmetic lacks (each a ZN208 hint).
OPERATOR_HINTS = {
    ast.Pow: "multiply: `x * x`, or a loop of `*` for a constant exponent (`isqrt` for roots)",
    ast.LShift: "multiply by a power of two: `x * 8` for `x << 3` (overflow is checked)",
    ast.RShift: "floor-divide by a power of two: `x // 8` for `x >> 3`",
    ast.BitAnd: "bits of integers: `x % 256` for `x & 255`, `(x // 8) % 2` for bit 3; "
    "sets of integers: `set(xs) & set(ys)`",
    ast.BitOr: "combine bits with `+` on disjoint ones (`hi * 256 + lo`); "
    "sets of integers: `set(xs) | set(ys)`",
    ast.BitXor: "bits of integers: `(a + b) % 2` per bit; sets of integers: `set(xs) ^ set(ys)`",
    ast.MatMult: "no matrices: `sum(a * b for a, b in zip(xs, ys))` for a dot product",
}


def _check_defined(c: Any, v: Any, node: ast.AST) -> None:
    if isinstance(v, Undefined):
        c.undefined(v, node)
    if isinstance(v, tuple):
        for e in v:
            _check_defined(c, e, node)
    if isinstance(v, SymRecord):
        _check_defined(c, v.values, node)


_OP_SYMBOLS = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.MatMult: "@",
}


_FOLD = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a**b,
    ast.LShift: lambda a, b: a << b,
    ast.RShift: lambda a, b: a >> b,
    ast.BitAnd: lambda a, b: a & b,
    ast.BitOr: lambda a, b: a | b,
    ast.BitXor: lambda a, b: a ^ b,
}


_CMP_FOLD = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
}
