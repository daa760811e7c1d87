"""The symbolic executor: runs a `@zk` function over IR wires and emits IR v1.

Plain Python is the specification. Compile-time values (ints, bools, tuples: loop indices and
module constants) fold exactly as Python folds them; everything derived from a parameter is a
typed `Wire`. Both sides of a data-dependent `if` run under guards and merge with `select`.
"""

from __future__ import annotations

import ast
import builtins
import functools
import inspect
import types as _pytypes
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn

from zeenot import babyjub
from zeenot.errors import CompileError, Diagnostic
from zeenot.lang.lists import COMPARISON_METHODS, ListOps, leaf_types
from zeenot.lang.passes import FALLIBLE, Shared, can_fail, eliminate_dead, fold, renumber
from zeenot.lang.regions import Crossing, RegionCalls, RegionDocs, joint
from zeenot.lang.source import function_source
from zeenot.lang.values import (
    ALLOWED_BUILTINS,
    MAX_CHOICE_SIZE,
    NONE,
    PLAIN_TY,
    PY_BUILTINS,
    BoundMethod,
    Builtin,
    Closure,
    FuncRef,
    IntChoice,
    ModuleRef,
    PlainWire,
    RecordCtor,
    SignatureCheck,
    SymList,
    SymRecord,
    Undefined,
    Wire,
    choice_leaves,
    choice_size,
    describe,
    is_const,
    same_value,
)
from zeenot.types import (
    CIPHERTEXT_KIND,
    INT_CLASSES,
    INT_TYPES,
    POINT_KIND,
    Field,
    ListTy,
    P,
    RecordTy,
    Ty,
    TypeAnnotationError,
    Visibility,
    ZInt,
    check,
    find,
    group_sum,
    int_range,
    is_record_class,
    is_signed,
    isqrt,
    leaves,
    poseidon,
    type_from_json,
    type_from_obj,
    type_name,
    type_to_json,
    unbounded_list,
)

BABYJUB_RUNTIME_ONLY = (
    babyjub.decrypt,
    babyjub.keygen,
    babyjub.random_scalar,
    babyjub.eddsa_keygen,
    babyjub.eddsa_sign,
    babyjub.eddsa_public_key,
)
MAX_INSTRUCTIONS = 200_000
MAX_ITERATIONS = 1_000_000
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
CAST_NAMES = {**{n: n for n in INT_TYPES}, "Field": "field"}

STMT_ERRORS: dict[type, tuple[str, str, str | None]] = {
    ast.While: (
        "ZN101",
        "`while` loops are not supported",
        "use `for i in range(N)` with a constant bound",
    ),
    ast.Break: ("ZN102", "`break` is not supported", "use an `if` inside the loop body"),
    ast.Continue: ("ZN102", "`continue` is not supported", "use an `if` inside the loop body"),
    ast.Try: ("ZN103", "`try` is not supported", "failures end the proof; use `check(cond)`"),
    ast.Raise: ("ZN103", "`raise` is not supported", "use `check(cond)` to reject inputs"),
    ast.With: ("ZN104", "`with` is not supported", None),
    ast.Global: ("ZN105", "`global` is not supported", "module constants are read-only"),
    ast.Nonlocal: ("ZN105", "`nonlocal` is not supported", None),
    ast.Delete: ("ZN106", "`del` is not supported", None),
    ast.Import: (
        "ZN107",
        "`import` inside a @zk function is not supported",
        "import at module level",
    ),
    ast.ImportFrom: (
        "ZN107",
        "`import` inside a @zk function is not supported",
        "import at module level",
    ),
    ast.ClassDef: ("ZN108", "class definitions are not supported", None),
    ast.Assert: ("ZN112", "`assert` is not supported", "use `check(cond)`"),
}
for _name, _code in (("AsyncFunctionDef", "ZN108"), ("AsyncFor", "ZN110"), ("AsyncWith", "ZN104")):
    STMT_ERRORS[getattr(ast, _name)] = (_code, f"`{_name}` is not supported", None)
if hasattr(ast, "TryStar"):
    STMT_ERRORS[ast.TryStar] = ("ZN103", "`try` is not supported", None)
if hasattr(ast, "Match"):
    STMT_ERRORS[ast.Match] = ("ZN113", "`match` is not supported", "use `if`/`elif`/`else`")


# What to write instead of the builtins @zk code lacks (each a ZN205 hint).
BUILTIN_HINTS = {
    "dict": "dicts are not supported: use a list of records and `find`, or a tuple indexed by a "
    "number",
    "frozenset": "use `set(xs)` (of integers): `len`, `in`, `&`, `|`, `-` and `^` work on it",
    "float": "no floating point: scale to an integer (e.g. cents, or `x * 1000`)",
    "round": "no floating point: use `//` on scaled integers",
    "pow": "use `*` (or a loop of `*`) on a sized integer",
    "divmod": "use `a // b` and `a % b`",
    "print": "@zk code has no output but its return value: use `zeenot simulate` to see values",
    "isinstance": "types are fixed at compile time: annotate instead",
    "reversed": "index from the end with a slice or `xs[len(xs) - 1 - i]` on a full list",
    "str": "@zk code has no strings: encode text as integers outside the proof",
    "bytes": "@zk code has no bytes: pass a tuple of u8",
    "hash": "use `poseidon(...)`, a hash that costs little in a circuit",
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


@dataclass
class Frame:
    fn: Any
    file: str
    text: str
    globals: dict[str, Any]
    env: dict[str, Any] = field(default_factory=dict)
    ret_ty: Ty | None = None
    ret_node: ast.AST | None = None


class Compiler(ListOps, RegionCalls):
    def __init__(self, max_instructions: int = MAX_INSTRUCTIONS) -> None:
        self.max_instructions = max_instructions
        self.len_cache: dict[int, tuple[SymList, Any]] = {}
        self.len_source: dict[int, SymList] = {}  # id of a `len(xs)` wire -> xs
        self.body: list[dict[str, Any]] = []
        self.next_id = 0
        self.consts: dict[tuple[str, int], Wire] = {}
        self.const_values: dict[int, int] = {}  # id -> value of every integer constant
        self.shared = Shared()  # instructions by what they compute (lang/passes)
        self.guard: Wire | None = None
        self.stack: list[Any] = []
        self.frame: Frame = None  # type: ignore[assignment]
        # Compiling a template at its inputs' lengths: list lengths are known constants, but
        # they are the inputs', so an index past the end fails at run time, as in Python.
        self.specialised = False
        # Compiling in regions (lang/regions.py): a call to another @zk function is a region of
        # its own rather than inlined; `None`: every call is inlined.
        self.regions: RegionDocs | None = None
        self.region_name = ""
        self.crossing = Crossing()
        self.top_frame: Frame | None = None

    # -- diagnostics --------------------------------------------------------------------------

    def err(self, node: ast.AST | None, code: str, msg: str, hint: str | None = None) -> NoReturn:
        f = self.frame
        if node is None or not hasattr(node, "lineno"):
            raise CompileError(Diagnostic(code, msg, f.file if f else None, hint=hint))
        end = getattr(node, "end_col_offset", None)
        if getattr(node, "end_lineno", None) != node.lineno:
            end = None
        raise CompileError(Diagnostic(code, msg, f.file, node.lineno, node.col_offset, end, hint))

    def src(self, node: ast.AST) -> str:
        return ast.get_source_segment(self.frame.text, node) or ast.unparse(node)

    # -- emission -----------------------------------------------------------------------------

    def emit(self, op: str, ty: str, args: list[Wire], node: ast.AST) -> Wire:
        if len(self.body) >= self.max_instructions:
            self.err(
                node,
                "ZN114",
                f"the program has more than {self.max_instructions} instructions after unrolling",
                "reduce loop bounds",
            )
        known = [self.const_values.get(a.id) for a in args]
        if op == "select" and known and known[0] is not None:  # a constant condition
            return args[1] if known[0] else args[2]
        if op == "index" and known and known[0] is not None and 0 <= known[0] < len(args) - 1:
            return args[1 + known[0]]
        if args and None not in known:
            value = fold(op, ty, known)  # type: ignore[arg-type]
            if value is not None:
                return self.const(ty, value)
        ins: dict[str, Any] = {"id": self.next_id, "op": op, "ty": ty}
        ins["args"] = [a.id for a in args]
        ins["loc"] = [node.lineno, node.col_offset]
        if op in FALLIBLE:
            divisor = known[1] if len(known) > 1 else None
            fails = can_fail(op, ty, args[0].ty if args else None, divisor)
            ins["guard"] = self.guard.id if self.guard and fails else None
        earlier = self.shared.find(ins)
        if earlier is not None:  # computed before (under the same guard if it can fail)
            return Wire(earlier, ty)
        self.shared.remember(ins)
        self.body.append(ins)
        self.next_id += 1
        return Wire(ins["id"], ty)

    def rollback(self, mark: int, first_id: int) -> None:
        """Discard what was emitted since `len(self.body) == mark` (ids from `first_id` on),
        and every memory of it (constants, shared subexpressions)."""
        del self.body[mark:]
        self.consts = {k: w for k, w in self.consts.items() if w.id < first_id}
        self.const_values = {i: v for i, v in self.const_values.items() if i < first_id}
        self.shared.forget_from(first_id)

    def const(self, ty: str, v: int | bool) -> Wire:
        v = int(v)
        if ty == "field":
            v %= P
        key = (ty, v)
        w = self.consts.get(key)
        if w is None:
            if len(self.body) >= self.max_instructions:
                self.err(None, "ZN114", "the program is too large after unrolling")
            w = Wire(self.next_id, ty)
            self.body.append({"id": w.id, "op": "const", "ty": ty, "value": str(v)})
            self.next_id += 1
            self.consts[key] = w
            if ty != "field":
                self.const_values[w.id] = v
        return w

    def emit_check(self, cond: Wire, node: ast.AST, msg: str) -> None:
        if len(self.body) >= self.max_instructions:
            self.err(node, "ZN114", "the program is too large after unrolling")
        self.body.append(
            {
                "op": "check",
                "args": [cond.id],
                "guard": self.guard.id if self.guard else None,
                "loc": [node.lineno, node.col_offset],
                "msg": msg,
            }
        )

    def as_bool_wire(self, v: Any) -> Wire:
        return v if isinstance(v, Wire) else self.const("bool", v)

    def logic(self, op: str, a: Any, b: Any, node: ast.AST) -> Any:
        """`and`/`or` of two bool values, folding constants."""
        if isinstance(a, bool) and isinstance(b, bool):
            return (a and b) if op == "and" else (a or b)
        if isinstance(a, bool):
            a, b = b, a
        if isinstance(b, bool):
            if op == "and":
                return a if b else False
            return True if b else a
        if a == b:
            return a
        return self.emit(op, "bool", [a, b], node)

    def negate(self, c: Any, node: ast.AST) -> Any:
        if isinstance(c, bool):
            return not c
        return self.emit("not", "bool", [c], node)

    def sub_guard(self, cond: Any, node: ast.AST) -> Wire | None:
        """The guard for code that runs when `cond` holds inside the current guard."""
        g = self.logic("and", self.guard if self.guard else True, cond, node)
        return g if isinstance(g, Wire) else None

    # -- typing helpers -----------------------------------------------------------------------

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
        a, b = self.adopt_plain(a, b, node), self.adopt_plain(b, a, node)
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

    def adopt_plain(self, p: Any, other: Any, node: ast.AST) -> Any:
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

    # -- merging (if/else, conditional expressions) ------------------------------------------

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
        a, b = self.adopt_plain(a, b, node), self.adopt_plain(b, a, node)
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

    # -- plain ints chosen at run time -------------------------------------------------------

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

    # -- names --------------------------------------------------------------------------------

    def global_value(self, obj: Any, node: ast.AST, name: str) -> Any:
        if isinstance(obj, bool):
            return obj
        if isinstance(obj, ZInt):
            return self.const(type(obj).NAME, int(obj))
        if isinstance(obj, Field):
            return self.const("field", int(obj))
        if isinstance(obj, int):
            return int(obj)
        if is_record_class(type(obj)):  # a module-level record constant
            ctor = self.global_value(type(obj), node, name)
            fields = [self.global_value(getattr(obj, n), node, name) for n in ctor.ty.names]
            return self.apply(ctor, fields, node)
        if isinstance(obj, (tuple, list)):  # a module-level list is a constant: a tuple here
            return tuple(self.global_value(e, node, name) for e in obj)
        if obj is check:
            return Builtin("check")
        if obj is find:
            return Builtin("find")
        if obj is group_sum:
            return Builtin("group_sum")
        if obj is poseidon:
            return Builtin("poseidon")
        if obj is isqrt:
            return Builtin("isqrt")
        if obj is babyjub.encrypt:
            return Builtin("encrypt")
        if obj is babyjub.rerandomize:
            return Builtin("rerandomize")
        if obj is babyjub.eddsa_verify:
            return Builtin("eddsa_verify")
        if obj is functools.reduce:
            return Builtin("reduce")
        if obj in (zip, enumerate, map, filter, list):
            return Builtin(obj.__name__)
        if obj in BABYJUB_RUNTIME_ONLY:
            self.err(
                node,
                "ZN205",
                f"`{name}` is not supported in @zk code (secrets and randomness come from "
                "outside the proof)",
                "call it outside the proof and pass its result as a parameter",
            )
        if is_record_class(obj):
            try:
                return RecordCtor(type_from_obj(obj))
            except TypeAnnotationError as exc:
                self.err(node, "ZN402", f"record `{name}`: {exc}", exc.hint)
        if isinstance(obj, type) and issubclass(obj, ZInt) and obj.NAME in INT_CLASSES:
            return Builtin(obj.NAME)
        if obj is Field:
            return Builtin("Field")
        if obj is bool:
            return Builtin("bool")
        if isinstance(obj, _pytypes.FunctionType):
            return FuncRef(obj)
        if isinstance(obj, _pytypes.ModuleType):
            return ModuleRef(obj)
        if isinstance(obj, _pytypes.BuiltinFunctionType) and obj.__name__ in ALLOWED_BUILTINS:
            return Builtin(obj.__name__)
        if obj is range:
            return Builtin("range")
        if isinstance(obj, float):
            self.err(
                node,
                "ZN201",
                f"`{name}` is a float; floating point is not supported",
                "use integers, e.g. cents instead of euros",
            )
        if isinstance(obj, str):
            self.err(node, "ZN202", f"`{name}` is a string; strings are not supported")
        if isinstance(obj, (dict, set)):
            self.err(
                node,
                "ZN203",
                f"`{name}` is a {type(obj).__name__}; dicts and sets are not supported",
                "use a tuple indexed by a number, or a list of records and `find`",
            )
        self.err(
            node,
            "ZN312",
            f"`{name}` ({type(obj).__name__}) cannot be used in a @zk program",
            "module-level int, bool and tuple constants and functions can",
        )

    def lookup(self, name: str, node: ast.AST) -> Any:
        env = self.frame.env
        if name in env:
            v = env[name]
            if isinstance(v, Undefined):
                self.undefined(v, node)
            return v
        g = self.frame.globals
        if name in g:
            return self.global_value(g[name], node, name)
        if name in ALLOWED_BUILTINS:
            return Builtin(name)
        if name in PY_BUILTINS:
            self.err(
                node,
                "ZN205",
                f"the builtin `{name}` is not supported",
                BUILTIN_HINTS.get(name, "see docs/language.md for the builtins @zk code has"),
            )
        self.err(node, "ZN207", f"undefined name `{name}`")

    def undefined(self, v: Undefined, node: ast.AST) -> NoReturn:
        name = v.name
        if v.why == "loop":
            self.err(
                node,
                "ZN213",
                f"`{name}` is assigned only inside the loop over a list at line "
                f"{v.node.lineno}, which may be empty",  # type: ignore[attr-defined]
                f"assign `{name}` before the loop",
            )
        if v.why == "int":
            self.err(
                node,
                "ZN309",
                f"`{name}` is a plain int that depends on too many conditions (the "
                f"`if` at line {v.node.lineno} and earlier ones)",  # type: ignore[attr-defined]
                f"give it a type, e.g. `{name} = u32(0)`",
            )
        self.err(
            node,
            "ZN213",
            f"`{name}` is assigned in only one branch of the `if` at line {v.node.lineno}",  # type: ignore[attr-defined]
            f"assign `{name}` before the `if` or in every branch",
        )

    # -- expressions --------------------------------------------------------------------------

    def expr(self, node: ast.expr) -> Any:
        m = getattr(self, "e_" + type(node).__name__, None)
        if m is None:
            return self.unsupported_expr(node)
        return m(node)

    def unsupported_expr(self, node: ast.expr) -> NoReturn:
        if isinstance(node, (ast.Dict, ast.Set, ast.DictComp, ast.SetComp)):
            self.err(
                node,
                "ZN203",
                "dicts and sets are not supported",
                "use lists of records and `find`, or tuples indexed by a number",
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

    def e_Tuple(self, node: ast.Tuple | ast.List) -> Any:
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

    def value(self, node: ast.expr) -> Any:
        """An expression used as data (not a function or None)."""
        v = self.expr(node)
        if isinstance(v, (Builtin, FuncRef, ModuleRef)):
            self.err(node, "ZN210", f"`{self.src(node)}` is a function, not a value", "call it")
        if v is NONE:
            self.err(node, "ZN211", f"`{self.src(node)}` returns nothing")
        _check_defined(self, v, node)
        return v

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
        if _plain(a) and _plain(b):  # at least one IntChoice: Python int arithmetic per path
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

    def under(self, cond: Any, node: ast.AST, thunk: Any) -> Any:
        """Evaluate `thunk()` with the guard strengthened by `cond` (a bool wire)."""
        saved = self.guard
        self.guard = self.sub_guard(cond, node)
        try:
            return thunk()
        finally:
            self.guard = saved

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
        if _plain(a) and _plain(b):  # at least one IntChoice
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
        a, b = self.exact_plain(a, b, node), self.exact_plain(b, a, node)
        wa, wb, ty = self.unify(a, b, node, f"compare (`{sym}`)")
        if name not in ("eq", "ne") and ty in ("field", "bool"):
            self.err(
                node,
                "ZN304",
                f"`{sym}` is not defined on {type_name(ty)} values",
                "Field elements and bools have no order; compare integers, e.g. `u64(x) < y`",
            )
        return self.emit(name, "bool", [wa, wb], node)

    def exact_plain(self, x: Any, other: Any, node: ast.AST) -> Any:
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

    # -- calls --------------------------------------------------------------------------------

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

    def bind_call(
        self,
        node: ast.Call,
        names: list[str],
        label: str,
        unit: str = "argument",
        complete: bool = True,
    ) -> dict[str, tuple[Any, ast.AST]]:
        """The call's positional and keyword arguments by name, each with its node (ZN212 for
        `*args`, too many, unknown or repeated keywords, and, if `complete`, a missing one)."""
        if any(isinstance(x, ast.Starred) for x in node.args):
            self.err(node, "ZN212", "`*args` in calls is not supported")
        if len(node.args) > len(names):
            self.err(
                node, "ZN212", f"`{label}()` takes {len(names)} {unit}s, {len(node.args)} given"
            )
        bound = {n: (self.value(x), x) for n, x in zip(names, node.args, strict=False)}
        for kw in node.keywords:
            if kw.arg is None or kw.arg not in names or kw.arg in bound:
                keyword = "keyword " if unit == "argument" else ""
                self.err(kw, "ZN212", f"bad {keyword}{unit} `{kw.arg}` for `{label}()`")
            bound[kw.arg] = (self.value(kw.value), kw.value)
        missing = [n for n in names if n not in bound]
        if complete and missing:
            self.err(node, "ZN212", f"`{label}()` is missing {unit} `{missing[0]}`")
        return bound

    def inline(self, fn: Any, node: ast.Call) -> Any:
        fsrc = function_source(fn)
        fdef = fsrc.node
        params = self.helper_params(fn, fdef, node)
        given = self.bind_call(node, params, fn.__name__, complete=False)
        bound = {p: v for p, (v, _) in given.items()}
        arg_nodes = {p: n for p, (_, n) in given.items()}
        defaults = fn.__defaults__ or ()
        for p, d in zip(params[len(params) - len(defaults) :], defaults, strict=False):
            if p not in bound:
                bound[p] = self.global_value(d, node, p)
        missing = [p for p in params if p not in bound]
        if missing:
            self.err(node, "ZN212", f"`{fn.__name__}()` is missing argument `{missing[0]}`")
        return self.run_helper(fn, bound, arg_nodes, node)

    def helper_params(self, fn: Any, fdef: ast.FunctionDef, node: ast.AST) -> list[str]:
        if fn in self.stack:
            self.err(
                node,
                "ZN206",
                f"recursive call to `{fn.__name__}` is not supported",
                "rewrite it as a `for` loop with a constant bound",
            )
        a = fdef.args
        if a.vararg or a.kwarg or a.kwonlyargs:
            self.err(
                node,
                "ZN404",
                f"`{fn.__name__}` has *args, **kwargs or keyword-only "
                "parameters, which are not supported",
            )
        return [p.arg for p in a.posonlyargs + a.args]

    def inline_values(self, fn: Any, args: list[Any], node: ast.AST) -> Any:
        """Inline a helper called with positional values (from `reduce`, `find`, `map`...)."""
        fdef = function_source(fn).node
        params = self.helper_params(fn, fdef, node)
        if len(args) != len(params):
            self.err(
                node, "ZN212", f"`{fn.__name__}()` takes {len(params)} arguments, {len(args)} given"
            )
        return self.run_helper(fn, dict(zip(params, args, strict=True)), {}, node)

    def run_helper(
        self, fn: Any, bound: dict[str, Any], arg_nodes: dict[str, ast.AST], node: ast.AST
    ) -> Any:
        fsrc = function_source(fn)
        fdef = fsrc.node
        params = [p.arg for p in fdef.args.posonlyargs + fdef.args.args]
        callee = Frame(fn, fsrc.file, fsrc.text, fn.__globals__)
        caller = self.frame
        self.stack.append(fn)
        self.frame = callee
        try:
            ann = self.annotations(fn, fdef)
            for p in params:
                if p in ann and ann[p] is not None:
                    self.frame = caller
                    self.check_arg(bound[p], ann[p], arg_nodes.get(p, node), p, fn.__name__)
                    self.frame = callee
            for p in params:
                if isinstance(bound[p], PlainWire) and isinstance(ann.get(p), str):
                    self.frame = caller
                    bound[p] = self.coerce(bound[p], ann[p], arg_nodes.get(p, node))
                    self.frame = callee
            callee.env = dict(bound)
            callee.ret_ty = ann.get("return")
            ret = self.run_body(fdef)
        finally:
            self.frame = caller
            self.stack.pop()
        return ret

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

    # -- statements ---------------------------------------------------------------------------

    def run_body(self, fdef: ast.FunctionDef) -> Any:
        body = fdef.body
        if (
            body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and (isinstance(body[0].value.value, str))
        ):
            body = body[1:]
        for n in ast.walk(fdef):
            if isinstance(n, (ast.Yield, ast.YieldFrom)):
                self.err(n, "ZN002", "generators (`yield`) are not supported")
        done, ret = self.block(body)
        if not done:
            ret = NONE
        return self.coerce_return(ret, self.frame.ret_ty, self.frame.ret_node or fdef)

    def block(self, stmts: list[ast.stmt]) -> tuple[bool, Any]:
        """Run statements; `(True, value)` if the block ends in a `return`."""
        for i, s in enumerate(stmts):
            rest = stmts[i + 1 :]
            if isinstance(s, ast.Return):
                if rest:
                    self.err(
                        rest[0],
                        "ZN109",
                        "unreachable code after `return`",
                        "remove it, or move the `return` to the end",
                    )
                self.frame.ret_node = s
                return True, (NONE if s.value is None else self.value(s.value))
            if isinstance(s, ast.If) and _has_return(s):
                return True, self.if_returning(s, rest)
            self.stmt(s)
        return False, None

    def if_returning(self, s: ast.If, rest: list[ast.stmt]) -> Any:
        c = self.cond_value(s.test, "an `if` condition")
        then_stmts = s.body if _terminates(s.body) else s.body + rest
        else_stmts = s.orelse if _terminates(s.orelse) else s.orelse + rest
        if isinstance(c, bool):
            return self.returning_block(then_stmts if c else else_stmts, s)
        saved_env, saved_guard = self.frame.env, self.guard
        self.frame.env = dict(saved_env)
        self.guard = self.sub_guard(c, s)
        a = self.returning_block(then_stmts, s)
        self.frame.env = dict(saved_env)
        self.guard = saved_guard  # the else branch is guarded by the *enclosing* guard and not c
        self.guard = self.sub_guard(self.negate(c, s), s)
        b = self.returning_block(else_stmts, s)
        self.frame.env, self.guard = saved_env, saved_guard
        if a is NONE and b is NONE:
            return NONE
        if a is NONE or b is NONE:
            self.err(
                s,
                "ZN109",
                "one path through this `if` returns a value and the other does not",
                "return a value on every path",
            )
        self.frame.ret_node = s
        return self.merge(c, a, b, s, "the return value", self.frame.ret_ty)

    def returning_block(self, stmts: list[ast.stmt], s: ast.If) -> Any:
        done, v = self.block(stmts)
        return v if done else NONE

    def stmt(self, s: ast.stmt) -> None:
        m = getattr(self, "s_" + type(s).__name__, None)
        if m is not None:
            m(s)
            return
        code, msg, hint = STMT_ERRORS.get(
            type(s), ("ZN100", f"`{type(s).__name__}` statements are not supported", None)
        )
        node = _keyword_node(s, _KEYWORDS.get(type(s).__name__, ""))
        self.err(node, code, msg, hint)

    def s_Pass(self, s: ast.Pass) -> None:
        pass

    def s_Expr(self, s: ast.Expr) -> None:
        if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            return  # a string statement is a comment
        self.expr(s.value)

    def s_Assign(self, s: ast.Assign) -> None:
        v = self.value(s.value)
        for t in s.targets:
            self.assign(t, v)

    def assign(self, t: ast.expr, v: Any) -> None:
        if isinstance(t, ast.Name):
            self.frame.env[t.id] = v
            return
        if isinstance(t, (ast.Tuple, ast.List)):
            if any(isinstance(e, ast.Starred) for e in t.elts):
                self.err(t, "ZN214", "starred assignment is not supported")
            if not isinstance(v, tuple):
                self.err(t, "ZN311", f"cannot unpack {describe(v)}")
            if len(v) != len(t.elts):
                self.err(
                    t, "ZN311", f"cannot unpack a tuple of {len(v)} values into {len(t.elts)} names"
                )
            for e, x in zip(t.elts, v, strict=False):
                self.assign(e, x)
            return
        if isinstance(t, ast.Subscript):
            self.err(
                t,
                "ZN214",
                "tuples are immutable; cannot assign to an element",
                "build a new tuple: `t = (a, t[1], t[2])`",
            )
        if isinstance(t, ast.Attribute):
            self.err(t, "ZN204", "attribute assignment is not supported")
        self.err(t, "ZN214", "unsupported assignment target")

    def s_AugAssign(self, s: ast.AugAssign) -> None:
        if not isinstance(s.target, ast.Name):
            self.err(s.target, "ZN214", "augmented assignment only to a plain name")
        cur = self.lookup(s.target.id, s.target)
        v = self.value(s.value)
        self.frame.env[s.target.id] = self.binop(s.op, cur, v, s)

    def s_AnnAssign(self, s: ast.AnnAssign) -> None:
        if not isinstance(s.target, ast.Name):
            self.err(s.target, "ZN214", "annotated assignment only to a plain name")
        if s.value is None:
            self.err(
                s,
                "ZN214",
                f"`{s.target.id}` is declared without a value",
                "give it a value: `x: u32 = u32(0)`",
            )
        obj = self.eval_annotation(self.frame.fn, "\0local", s.annotation)
        ty = self.resolve_type(obj, s.annotation)
        v = self.value(s.value)
        if self.static_ty(v) != ty:
            hint = None
            if _plain(v) and isinstance(ty, str):
                hint = f"write `{s.target.id} = {type_name(ty)}({self.src(s.value)})`"
            self.err(
                s,
                "ZN307",
                f"`{s.target.id}` is annotated {type_name(ty)} but the value is {describe(v)}",
                hint,
            )
        self.frame.env[s.target.id] = v

    def s_If(self, s: ast.If) -> None:
        c = self.cond_value(s.test, "an `if` condition")
        if isinstance(c, bool):
            self.block(s.body if c else s.orelse)
            return
        env0, g0 = self.frame.env, self.guard
        self.frame.env = dict(env0)
        self.guard = self.sub_guard(c, s)
        self.block(s.body)
        env_a = self.frame.env
        self.frame.env = dict(env0)
        self.guard = g0  # the else branch is guarded by the *enclosing* guard and not c
        self.guard = self.sub_guard(self.negate(c, s), s)
        self.block(s.orelse)
        env_b = self.frame.env
        self.guard = g0
        merged: dict[str, Any] = {}
        for name in list(env_a) + [n for n in env_b if n not in env_a]:
            if name in env_a and name in env_b:
                merged[name] = self.merge(c, env_a[name], env_b[name], s, f"`{name}`", None, name)
            else:
                merged[name] = Undefined(name, s)
        self.frame.env = merged

    def s_FunctionDef(self, s: ast.FunctionDef) -> None:
        if s.decorator_list:
            self.err(
                s.decorator_list[0], "ZN108", "decorators on nested functions are not supported"
            )
        self.frame.env[s.name] = Closure(s, self.frame)

    def s_For(self, s: ast.For) -> None:
        if s.orelse:
            self.err(s.orelse[0], "ZN111", "`for ... else` is not supported")
        for n in ast.walk(s):
            if isinstance(n, ast.Return):
                self.err(
                    n,
                    "ZN109",
                    "`return` inside a `for` loop is not supported",
                    "assign to a variable and return after the loop",
                )
        items = self.iteration(s.iter)
        if isinstance(items, SymList):
            self.for_list(s, items)
            return
        for item in items:
            self.assign(s.target, item)
            self.block(s.body)

    def iteration(self, it: ast.expr) -> Any:
        if isinstance(it, ast.Call):
            f = self.expr(it.func)
            if f == Builtin("range"):
                if it.keywords or not 1 <= len(it.args) <= 3:
                    self.err(it, "ZN212", "`range()` takes 1 to 3 arguments")
                bounds = []
                for a in it.args:
                    v = self.value(a)
                    if len(it.args) == 1 and isinstance(v, PlainWire):
                        slots = self.range_of_len(v)
                        if slots is not None:  # `range(len(xs))`
                            return slots
                    if isinstance(v, bool) or not isinstance(v, int):
                        self.err(
                            a,
                            "ZN110",
                            f"`range()` bounds must be compile-time constants, "
                            f"`{self.src(a)}` is {describe(v)}",
                            "loops are unrolled: use a module constant or literal bound and "
                            "`if` inside the body, or loop over the list itself: `for x in xs`, "
                            "`for i, x in enumerate(xs)`",
                        )
                    bounds.append(v)
                if len(bounds) == 3 and bounds[2] == 0:
                    self.err(it, "ZN110", "`range()` step cannot be zero")
                r = range(*bounds)
                if len(r) > MAX_ITERATIONS:
                    self.err(it, "ZN114", f"a loop of {len(r)} iterations is too large to unroll")
                return r
            v = self.value(it)
        else:
            v = self.value(it)
        if isinstance(v, (tuple, SymList)):
            return v
        self.err(
            it,
            "ZN110",
            f"cannot loop over {describe(v)}",
            "use `for i in range(N)` with a constant bound, or loop over a tuple or list",
        )

    # -- returns ------------------------------------------------------------------------------

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


def _plain(v: Any) -> bool:
    """A plain int, possibly chosen at run time (not a bool)."""
    return isinstance(v, IntChoice) or (isinstance(v, int) and not isinstance(v, bool))


def _check_defined(c: Compiler, v: Any, node: ast.AST) -> None:
    if isinstance(v, Undefined):
        c.undefined(v, node)
    if isinstance(v, tuple):
        for e in v:
            _check_defined(c, e, node)
    if isinstance(v, SymRecord):
        _check_defined(c, v.values, node)


def _has_return(s: ast.stmt) -> bool:
    return any(isinstance(n, ast.Return) for n in ast.walk(s))


def _terminates(stmts: list[ast.stmt]) -> bool:
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ast.Return):
        return True
    if isinstance(last, ast.If):
        return _terminates(last.body) and _terminates(last.orelse)
    return False


def _keyword_node(s: ast.stmt, word: str) -> ast.AST:
    """A node spanning the statement's leading keyword (for a tight caret)."""
    n = ast.Pass()
    n.lineno = n.end_lineno = s.lineno
    n.col_offset = s.col_offset
    n.end_col_offset = s.col_offset + (len(word) if word and " " not in word else 1)
    return n


_KEYWORDS = {
    "While": "while",
    "Try": "try",
    "TryStar": "try",
    "With": "with",
    "Global": "global",
    "Nonlocal": "nonlocal",
    "Delete": "del",
    "Import": "import",
    "ImportFrom": "from",
    "FunctionDef": "def",
    "ClassDef": "class",
    "Assert": "assert",
    "Raise": "raise",
    "Break": "break",
    "Continue": "continue",
    "Match": "match",
    "AsyncFunctionDef": "async",
    "AsyncFor": "async",
    "AsyncWith": "async",
}
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


# -- entry point ------------------------------------------------------------------------------


def compile_program(
    fn: Any,
    lengths: Mapping[str, int] | None = None,
    *,
    max_instructions: int = MAX_INSTRUCTIONS,
    regions: RegionDocs | bool = False,
    region: str | None = None,
    passed: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Compile a `@zk` function to an IR v1 document (a JSON-ready dict).

    `lengths` specialises the program: each parameter named there must be an unbounded list
    (`list[T]`, no `MaxSize`) and is compiled as a list of exactly that many elements.
    `max_instructions` bounds the work (ZN114 past it): a verifier sets it lower.

    `regions=True` compiles a call to another `@zk` function as a region of its own
    (lang/regions.py) instead of inlining it; when there is such a call the result is the
    application document of docs/ir.md "Regions" rather than an IR document. (Internally,
    `regions` is the collection a callee region is compiled into, named `region`, its
    parameters and return crossing as commitments, except those in `passed`: its caller's own
    parameters passed as they are, with their visibility there.)"""
    fn = inspect.unwrap(fn)
    fsrc = function_source(fn)
    fdef = fsrc.node
    c = Compiler(max_instructions)
    c.specialised = lengths is not None
    top = regions is True
    if regions is True:
        regions = RegionDocs()
        region = regions.name_for(fn)
    if isinstance(regions, RegionDocs):
        c.regions, c.region_name = regions, region or fn.__name__
        regions.chain.append(fn)
    callee = isinstance(regions, RegionDocs) and not top  # a region that another one calls
    frame = Frame(fn, fsrc.file, fsrc.text, fn.__globals__)
    c.frame = frame
    a = fdef.args
    if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.posonlyargs:
        bad = (
            a.vararg
            or a.kwarg
            or (a.kwonlyargs[0] if a.kwonlyargs else None)
            or (a.defaults[0] if a.defaults else a.posonlyargs[0])
        )
        c.err(
            bad,
            "ZN404",
            "a @zk function takes plain parameters only (no *args, **kwargs, "
            "keyword-only or positional-only parameters, no defaults)",
        )
    inputs: list[dict[str, Any]] = []
    params: list[dict[str, Any]] = []
    shapes: list[tuple[ast.arg, Ty, list[Wire]]] = []
    exact_params: set[str] = set()
    for p in a.args:
        if p.annotation is None:
            c.err(
                p,
                "ZN401",
                f"parameter `{p.arg}` has no type annotation",
                f"annotate it, e.g. `{p.arg}: Private[u32]` or `{p.arg}: Public[u32]`",
            )
        obj = c.eval_annotation(fn, p.arg, p.annotation)
        if not isinstance(obj, Visibility):
            c.err(
                p.annotation,
                "ZN403",
                f"parameter `{p.arg}` must be `Private[T]` or `Public[T]`",
                f"write `{p.arg}: Private[{c.src(p.annotation)}]` (known only "
                "to the prover) or `Public[...]` (known to the verifier)",
            )
        ty = c.resolve_type(obj.ty, p.annotation)
        if callee:
            obj = Visibility((passed or {}).get(p.arg, "committed"), obj.ty, obj.tier)
        loose = unbounded_list(ty)
        if loose is not None and loose is ty and unbounded_list(loose.elem) is None:
            if lengths is None or p.arg not in lengths:
                c.err(
                    p.annotation,
                    "ZN402",
                    f"parameter `{p.arg}`: `{type_name(loose)}` has no maximum size",
                    f"bound it, `MaxSize[{type_name(loose)}, N]`, for the groth16 back end (the "
                    "length stays private); unbounded, it takes its length from the inputs and "
                    "the sigma back end proves it (`zeenot.api.Template`; the length is public)",
                )
            ty = ListTy(loose.elem, lengths[p.arg], exact=True)
            exact_params.add(p.arg)
        elif loose is not None:
            c.err(
                p.annotation,
                "ZN402",
                f"parameter `{p.arg}`: `{type_name(loose)}` has no maximum size",
                f"bound it: `MaxSize[{type_name(loose)}, N]`; only a parameter that is itself a "
                "list may leave its size open",
            )
        if obj.vis == "committed":
            what = f"parameter `{p.arg}`"
            if callee:
                what += f" of `{fn.__name__}` (a region: its arguments cross as commitments)"
            _check_committable(c, p.annotation, what, ty)
        wires = []
        for path, leaf_ty in leaves(p.arg, ty):
            leaf = {"id": c.next_id, "name": path, "ty": leaf_ty, "vis": obj.vis, "tier": obj.tier}
            inputs.append(joint(leaf, bool(wires)))
            wires.append(Wire(c.next_id, leaf_ty))
            c.next_id += 1
        shapes.append((p, ty, wires))
        params.append({"name": p.arg, "ty": type_to_json(ty), "vis": obj.vis})
    if lengths is not None and set(lengths) != exact_params:
        extra = ", ".join(sorted(set(lengths) - exact_params))
        raise ValueError(f"lengths given for parameters that are not unbounded lists: {extra}")
    for (p, ty, wires), param in zip(shapes, params, strict=True):
        # after all inputs: lists emit their length checks, private points their subgroup checks
        private = param["vis"] != "public"
        frame.env[p.arg] = c.shape_input(ty, iter(wires), p, p.arg, private)
        c.crossing.own[p.arg] = (frame.env[p.arg], param["vis"])
    c.top_frame = frame
    ret_ty: Ty | None = None
    ret_vis = "committed" if callee else "public"
    declared_committed = False  # `-> Committed[T]`: never shown, even by a region
    if fdef.returns is not None:
        obj = c.eval_annotation(fn, "return", fdef.returns)
        if isinstance(obj, Visibility) and obj.vis == "committed":
            ret_vis = "committed"
            declared_committed = True
            obj = obj.ty
        elif callee and isinstance(obj, Visibility):
            obj = obj.ty  # a region's result crosses as a commitment whatever its annotation
        elif isinstance(obj, Visibility):
            c.err(
                fdef.returns,
                "ZN402",
                "return values are public (or `Committed[T]`); drop "
                "`Private`/`Public` from the return annotation",
            )
        ret_ty = None if obj is None else c.resolve_type(obj, fdef.returns)
    frame.ret_ty = ret_ty
    c.stack.append(fn)
    result = c.run_body(fdef)
    if ret_ty is None and result is not NONE:
        ret_ty = _infer(c, result, frame.ret_node or fdef)
    if ret_ty is not None and unbounded_list(ret_ty) is not None:
        ret_ty = _exact_return(c, result, ret_ty, fdef.returns or fdef)
    uncommittable = ret_ty is not None and "field" in [t for _, t in leaves("", ret_ty)]
    if callee and uncommittable and not declared_committed:
        ret_vis = "public"  # a region's result that cannot cross committed is shown (regions.py)
    outputs: list[dict[str, Any]] = []
    if result is not NONE:
        node = frame.ret_node or fdef
        flat = c.flat_output(result, ret_ty, True, node)
        if ret_vis == "committed":
            what = "the return value"
            if callee:
                what += f" of `{fn.__name__}` (a region: its result crosses as a commitment)"
            _check_committable(c, fdef.returns or fdef, what, ret_ty)
        for k, ((path, _), w) in enumerate(zip(leaves("return", ret_ty), flat, strict=True)):  # type: ignore[arg-type]
            out = {"name": path, "value": w.id}
            if ret_vis == "committed":
                out["vis"] = "committed"
            outputs.append(joint(out, k > 0))
    # A region's calls (lang/regions.py): their results are committed inputs after the
    # parameters, their arguments committed outputs after the return value.
    crossing = c.crossing
    inputs.extend(crossing.inputs)
    params.extend(crossing.params)
    sent = [
        (path, k)
        for send in crossing.sends
        for k, (path, _) in enumerate(leaves(send["name"], type_from_json(send["ty"])))
    ]
    for (path, k), w in zip(sent, crossing.send_wires, strict=True):
        outputs.append(joint({"name": path, "value": w.id, "vis": "committed"}, k > 0))
    body = eliminate_dead(inputs, c.body, [o["value"] for o in outputs])
    _check_passed_unused(c, shapes, body, outputs)
    renumber(inputs, body, outputs)
    doc = {
        "version": 1,
        "name": c.region_name or fn.__name__,
        "source": {"file": fsrc.file, "function": fn.__name__, "line": fdef.lineno},
        "inputs": inputs,
        "body": body,
        "outputs": outputs,
        "signature": {
            "params": params,
            "returns": type_to_json(ret_ty),
            **({"returns_vis": "committed"} if ret_vis == "committed" else {}),
            **({"sends": crossing.sends} if crossing.sends else {}),
        },
    }
    if isinstance(regions, RegionDocs):
        regions.chain.pop()
        if top:
            regions.programs[c.region_name] = doc
            if len(regions.programs) > 1:
                return regions.manifest(c.region_name)
    return doc


def _check_passed_unused(
    c: Compiler, shapes: list[Any], body: list[dict[str, Any]], outputs: list[dict[str, Any]]
) -> None:
    """A private parameter passed on to a region as it is must not be used here too: the two
    regions' proofs would not be bound to the same value (it does not cross as a commitment)."""
    if not c.crossing.passed_private:
        return
    # (its subgroup check, emitted for every private point parameter, is not a use)
    used = {a for ins in body if ins["op"] != "point_check" for a in ins.get("args", [])}
    used |= {o["value"] for o in outputs}
    used |= {ins["guard"] for ins in body if ins.get("guard") is not None}
    for p, _, wires in shapes:
        node = c.crossing.passed_private.get(p.arg)
        if node is not None and any(w.id in used for w in wires):
            c.err(
                node,
                "ZN406",
                f"`{p.arg}` is passed to a region as it is and also used here: a private value "
                "that does not cross as a commitment must be used in one region only",
                f"use `{p.arg}` only in the callee, or pass it a value that can cross (integers "
                "and bools cross as commitments)",
            )


def _exact_return(c: Compiler, v: Any, ty: Ty, node: ast.AST) -> Ty:
    """An unbounded returned list is as long as the value returned, when that length is known
    at compile time (a map over a specialised list)."""
    loose = unbounded_list(ty)
    full = isinstance(v, SymList) and all(a is True for a in v.active)
    if not (c.specialised and loose is ty and full and unbounded_list(loose.elem) is None):
        c.err(
            node,
            "ZN402",
            f"the return type `{type_name(ty)}` has no maximum size",
            f"annotate `-> MaxSize[{type_name(loose)}, N]`; an unbounded list may be returned "
            "only when its length is known from the inputs' lengths",
        )
    return ListTy(loose.elem, v.slots, exact=True)


def _check_committable(c: Compiler, node: ast.AST, what: str, ty: Ty | None) -> None:
    bad = [t for _, t in leaves("", ty)] if ty is not None else []
    bad = [t for t in bad if t == "field"]
    if bad or ty is None:
        c.err(
            node,
            "ZN406",
            f"{what} is `Committed[...]` but holds a `Field` (or point) value",
            "a commitment binds a value modulo the Baby Jubjub group order: commit integers "
            "and bools (u8 … u64, i8 … i64, bool) only",
        )


def _infer(c: Compiler, v: Any, node: ast.AST) -> Ty:
    if isinstance(v, PlainWire):
        c.err(
            node,
            "ZN309",
            "cannot infer the type of a returned plain int (such as `len(xs)`)",
            "annotate the return type (`-> u32`) or convert it, e.g. `u32(len(xs))`",
        )
    if isinstance(v, tuple):
        return tuple(_infer(c, e, node) for e in v)
    if isinstance(v, SymRecord):
        return v.ty
    if isinstance(v, SymList):
        elem = c.elem_type(list(v.elems))
        if elem is None or unbounded_list(elem) is not None or None in leaf_types(elem):
            c.err(
                node,
                "ZN309",
                "cannot infer the element type of the returned list",
                "annotate the return type, e.g. `-> MaxSize[list[u32], 10]`",
            )
        return ListTy(elem, v.slots)
    if isinstance(v, Wire):
        return v.ty
    if isinstance(v, bool):
        return "bool"
    c.err(
        node,
        "ZN309",
        f"cannot infer the type of the returned {describe(v)}",
        "annotate the return type (`-> u32`) or convert the value, e.g. `u32(5)`",
    )


_ = builtins
