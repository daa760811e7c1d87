"""Calls: what `f(...)` is (a helper inlined, a region, a record built, a closure, a builtin),
and the scalar builtins (`check`, `poseidon`, casts, `min`/`max`, `abs`, `isqrt`). List
builtins are in lists.py.
"""

from __future__ import annotations

import ast
from typing import Any

from zeenot.fixed import Fixed
from zeenot.lang.values import (
    ALLOWED_BUILTINS,
    NONE,
    PY_BUILTINS,
    BoundMethod,
    Builtin,
    Closure,
    FuncRef,
    IntChoice,
    PlainWire,
    RecordCtor,
    SignatureCheck,
    SymRecord,
    Wire,
    describe,
    is_const,
)
from zeenot.types import INT_TYPES, P, int_range, is_signed, type_name


class Calls:
    """Calls of `Compiler` (a mixin)."""

    frame: Any
    regions: Any

    def fixed_constant(self, node: ast.Call) -> SymRecord | None:
        """`Money.of(850)`, `Money.of("0.35", rounding="nearest")`: a `Fixed` constant, built
        when compiling exactly as `Fixed.of` builds it in Python (the same value, the same
        refusal of an inexact decimal). Its arguments are literals or module-level constants."""
        func = node.func
        if not (
            isinstance(func, ast.Attribute)
            and func.attr == "of"
            and isinstance(func.value, ast.Name)
            and func.value.id not in self.frame.env
        ):
            return None
        cls = self.frame.globals.get(func.value.id)
        if not (isinstance(cls, type) and issubclass(cls, Fixed)):
            return None
        what = f"`{func.value.id}.of()`"

        def constant(arg: ast.expr) -> Any:
            if isinstance(arg, ast.Name) and arg.id not in self.frame.env:
                value = self.frame.globals.get(arg.id)
                if isinstance(value, (int, str)) and not isinstance(value, bool):
                    return value
            try:
                return ast.literal_eval(arg)
            except ValueError:
                self.err(
                    arg,
                    "ZN212",
                    f"{what} builds a constant: its arguments are known when compiling",
                    f"for a private value use `{func.value.id}(raw)`, or multiply by a constant",
                )

        args = [constant(a) for a in node.args]
        keywords = {k.arg: constant(k.value) for k in node.keywords if k.arg is not None}
        try:
            value = cls.of(*args, **keywords)
        except (TypeError, ValueError) as e:
            self.err(node, "ZN212", f"{what}: {e}")
        raw = ast.copy_location(ast.Constant(int(value.raw)), node)
        build = ast.copy_location(ast.Call(func=func.value, args=[raw], keywords=[]), node)
        ctor = self.expr(func.value)
        if not isinstance(ctor, RecordCtor):
            return None
        return self.construct_record(ctor, build)

    def e_Call(self, node: ast.Call) -> Any:
        if (
            isinstance(node.func, ast.Name)
            and node.func.id not in self.frame.env
            and (
                node.func.id not in self.frame.globals
                and node.func.id not in ALLOWED_BUILTINS
                and node.func.id not in PY_BUILTINS
            )
        ):
            self.err(
                node.func,
                "ZN205",
                f"call to unknown function `{node.func.id}`",
                "define it at module level in the same file",
            )
        constant = self.fixed_constant(node)
        if constant is not None:
            return constant
        f = self.expr(node.func)
        name = self.src(node.func)
        if isinstance(f, FuncRef):
            if self.regions is not None and hasattr(f.fn, "__zk__"):
                return self.region_call(f.fn, node)
            return self.inline(f.fn, node)
        if isinstance(f, BoundMethod):
            if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
                self.err(node, "ZN212", f"`{name}()`: pass positional arguments only")
            return self.apply(f, [self.value(a) for a in node.args], node)
        if isinstance(f, RecordCtor):
            return self.construct_record(f, node)
        if isinstance(f, Closure):
            if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
                self.err(node, "ZN212", f"`{name}()`: pass positional arguments only")
            return self.call_closure(f, [self.value(a) for a in node.args], node)
        if not isinstance(f, Builtin):
            self.err(node.func, "ZN205", f"`{name}` is not a function")
        if f.name == "check":
            return self.call_check(node)
        if f.name == "type":  # `type(self)(...)`: a record's own class, as a constructor
            arg = self.value(node.args[0]) if len(node.args) == 1 and not node.keywords else None
            if not isinstance(arg, SymRecord):
                self.err(node, "ZN212", "`type()` takes one record here (to build another)")
            return RecordCtor(arg.ty)
        if f.name == "poseidon":
            return self.call_poseidon(node)
        if f.name == "eddsa_verify":
            if node.keywords or len(node.args) != 3:
                self.err(node, "ZN212", "`eddsa_verify()` takes a key, a message and a signature")
            return self.eddsa_verify(*(self.value(a) for a in node.args), node)
        if f.name in ("encrypt", "rerandomize"):
            if node.keywords or len(node.args) != 3:
                self.err(node, "ZN212", f"`{f.name}()` takes three positional arguments")
            x, pk, r = (self.value(a) for a in node.args)
            if f.name == "encrypt":
                return self.encrypt(x, pk, r, node)
            if not (isinstance(x, SymRecord) and x.ty.kind == "babyjub.ciphertext"):
                self.err(node, "ZN303", f"`rerandomize` needs a Ciphertext, got {describe(x)}")
            return self.binop(ast.Add(), x, self.encrypt(0, pk, r, node), node)
        r = self.call_list_builtin(f.name, node)
        if r is not NotImplemented:
            return r
        if node.keywords:
            self.err(node, "ZN212", f"`{name}()` takes no keyword arguments")
        if any(isinstance(a, ast.Starred) for a in node.args):
            self.err(node, "ZN212", "`*args` in calls is not supported")
        if f.name in CAST_NAMES:
            return self.call_cast(CAST_NAMES[f.name], node)
        if f.name == "bool":
            if len(node.args) != 1:
                self.err(node, "ZN212", "`bool()` takes one argument")
            v = self.value(node.args[0])
            if isinstance(v, bool) or (isinstance(v, Wire) and v.ty == "bool"):
                return v
            self.err(
                node,
                "ZN303",
                f"`bool()` of {describe(v)} is not supported",
                "compare explicitly, e.g. `x != 0`",
            )
        if f.name == "int":
            self.err(
                node, "ZN205", "`int()` has no fixed width", "use a sized type such as `u32(x)`"
            )
        if f.name == "range":
            self.err(node, "ZN110", "`range()` is only supported as the iterable of a `for` loop")
        args = [self.value(a) for a in node.args]
        if f.name == "len":
            if len(args) != 1 or not isinstance(args[0], tuple):
                self.err(node, "ZN212", "`len()` takes one tuple")
            return len(args[0])
        if f.name in ("min", "max"):
            return self.call_minmax(f.name, args, node)
        if f.name == "abs":
            return self.call_abs(args, node)
        if f.name == "isqrt":
            return self.call_isqrt(args, node)
        self.err(node, "ZN205", f"`{name}` is not supported")

    def call_check(self, node: ast.Call) -> Any:
        args = node.args
        if node.keywords or not 1 <= len(args) <= 2:
            self.err(node, "ZN212", "`check` takes a condition and an optional message string")
        msg = self.src(node)
        if len(args) == 2:
            if not (isinstance(args[1], ast.Constant) and isinstance(args[1].value, str)):
                self.err(args[1], "ZN212", "the message of `check` must be a string literal")
            msg = args[1].value
        c = self.value(args[0])
        if isinstance(c, SignatureCheck):
            self.body.append(
                {
                    "op": "eddsa_check",
                    "args": [w.id for w in c.args],
                    "guard": self.guard.id if self.guard else None,
                    "loc": [node.lineno, node.col_offset],
                    "msg": msg,
                }
            )
            return NONE
        if not (isinstance(c, bool) or (isinstance(c, Wire) and c.ty == "bool")):
            self.err(
                args[0],
                "ZN305",
                f"`check` needs a bool, got {describe(c)}",
                "compare explicitly, e.g. `check(x != 0)`",
            )
        if c is True:
            return NONE
        self.emit_check(self.as_bool_wire(c), node, msg)
        return NONE

    def call_poseidon(self, node: ast.Call) -> Any:
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            self.err(node, "ZN212", "`poseidon()` takes positional Field values")
        if not 1 <= len(node.args) <= 16:
            self.err(node, "ZN212", f"`poseidon()` takes 1 to 16 values, got {len(node.args)}")
        wires = []
        for a in node.args:
            v = self.value(a)
            if isinstance(v, IntChoice) or isinstance(v, PlainWire):
                v = self.materialize(v, "field", a)
            if isinstance(v, int) and not isinstance(v, bool):
                v = self.const("field", v)
            if not (isinstance(v, Wire) and v.ty == "field"):
                self.err(
                    a,
                    "ZN301",
                    f"`poseidon()` hashes Field elements, got {describe(v)}",
                    "convert explicitly: Field(x)",
                )
            wires.append(v)
        return self.emit("poseidon", "field", wires, node)

    def call_cast(self, ty: str, node: ast.Call) -> Any:
        if len(node.args) != 1:
            self.err(node, "ZN212", f"`{type_name(ty)}()` takes one argument")
        v = self.value(node.args[0])
        if isinstance(v, bool):
            return self.const(ty, int(v))
        if isinstance(v, int):
            if ty == "field":
                return self.const(ty, v % P)
            lo, hi = int_range(ty)
            if not lo <= v <= hi:
                self.err(
                    node,
                    "ZN302",
                    f"{v} does not fit {type_name(ty)} ({lo}..{hi})",
                    f"the literal does not fit {type_name(ty)}",
                )
            return self.const(ty, v)
        if isinstance(v, IntChoice):
            return self.materialize(v, ty, node)
        if not isinstance(v, Wire):
            self.err(node, "ZN303", f"cannot convert {describe(v)} to {type_name(ty)}")
        if v.ty == ty:
            return v
        return self.emit("cast", ty, [v], node)

    def call_minmax(self, name: str, args: list[Any], node: ast.AST) -> Any:
        if len(args) == 1 and isinstance(args[0], tuple):
            args = list(args[0])
        if len(args) < 1:
            self.err(node, "ZN212", f"`{name}()` needs at least one value")
        if all(is_const(a) for a in args):
            return (min if name == "min" else max)(args)
        acc = args[0]
        for b in args[1:]:
            # min(a, b) is `b if b < a else a`; max(a, b) is `b if b > a else a` (as Python)
            c = self.compare(ast.Lt() if name == "min" else ast.Gt(), b, acc, node)
            if isinstance(c, bool):
                acc = b if c else acc
                continue
            acc = self.merge(c, b, acc, node, f"`{name}()`")
        return acc

    def call_abs(self, args: list[Any], node: ast.AST) -> Any:
        if len(args) != 1:
            self.err(node, "ZN212", "`abs()` takes one argument")
        v = args[0]
        if isinstance(v, int) and not isinstance(v, bool):
            return abs(v)
        if isinstance(v, IntChoice):
            return self.combine(v, 0, lambda x, _: abs(x), node)
        if not isinstance(v, Wire) or v.ty in ("bool", "field"):
            self.err(node, "ZN303", f"`abs()` of {describe(v)} is not supported")
        if not is_signed(v.ty):
            return v
        c = self.emit("lt", "bool", [v, self.const(v.ty, 0)], node)
        n = self.under(c, node, lambda: self.emit("neg", v.ty, [v], node))
        return self.emit("select", v.ty, [c, n, v], node)

    def call_isqrt(self, args: list[Any], node: ast.AST) -> Any:
        """`isqrt(x)` for an unsigned `x`: the largest `r` with `r·r ≤ x`, found bit by bit from
        the top of the result's range (half of `x`'s width): `r + 2^b` is kept when its square
        is at most `x`. No candidate's square overflows the type."""
        if len(args) != 1:
            self.err(node, "ZN212", "`isqrt()` takes one argument")
        x = args[0]
        if isinstance(x, Wire) and not isinstance(x, PlainWire) and x.ty in INT_TYPES:
            if is_signed(x.ty):
                self.err(
                    node,
                    "ZN303",
                    f"`isqrt()` of a signed {x.ty}",
                    "check the value is non-negative and convert it, e.g. `isqrt(u32(x))`",
                )
            r: Any = self.const(x.ty, 0)
            for b in range((int(x.ty[1:]) + 1) // 2 - 1, -1, -1):
                cand = self.emit("add", x.ty, [r, self.const(x.ty, 1 << b)], node)
                square = self.emit("mul", x.ty, [cand, cand], node)
                keep = self.emit("le", "bool", [square, x], node)
                r = self.emit("select", x.ty, [keep, cand, r], node)
            return r
        self.err(
            node,
            "ZN303",
            f"`isqrt()` takes an unsigned integer (u8 … u64), got {describe(x)}",
            "convert it, e.g. `isqrt(u32(x))`",
        )


CAST_NAMES = {**{n: n for n in INT_TYPES}, "Field": "field"}
