"""Compile-time values of the symbolic executor."""

from __future__ import annotations

import ast
import builtins
import types as _pytypes
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Wire:
    """An IR value: instruction or input id with its scalar type."""

    id: int
    ty: str


PLAIN_TY = "i64"


@dataclass(frozen=True)
class PlainWire(Wire):
    """A plain Python int known only at run time: a list's length (`len(xs)`) and arithmetic on
    it, held as an `i64` wire. Like a plain int it adopts the type of a typed operand (`n + x`
    with `x: u8` is a `u8`, failing if `n` does not fit) and compares exactly with anything."""


@dataclass(frozen=True)
class SignatureCheck:
    """`eddsa_verify(pk, msg, sig)`: only meaningful as `check(eddsa_verify(...))`, which
    becomes one `eddsa_check` instruction. `args`: `[A.x, A.y, M, R8.x, R8.y, S]`."""

    args: tuple[Any, ...]


@dataclass(frozen=True)
class Builtin:
    """A zeenot or Python builtin usable in a program (`u32`, `check`, `range`, `len`, ...)."""

    name: str


@dataclass(frozen=True)
class FuncRef:
    fn: _pytypes.FunctionType


@dataclass(frozen=True, eq=False)
class BoundMethod:
    """A record's method, `rec.method`: called with the record as its first argument."""

    fn: _pytypes.FunctionType
    obj: Any  # the SymRecord


@dataclass(frozen=True)
class ModuleRef:
    module: _pytypes.ModuleType


@dataclass(frozen=True)
class Undefined:
    """A name assigned in only one branch of an `if` (Python may leave it unbound)."""

    name: str
    node: ast.AST
    why: str = "branch"  # "branch": one branch assigns it; "loop": only a list loop's body does;
    # "int": a plain int chosen too many ways


MAX_CHOICE_SIZE = 64


@dataclass(frozen=True, eq=False)
class IntChoice:
    """A plain (untyped) Python int that depends on a run-time condition: `a if cond else b`.

    `a` and `b` are plain ints or `IntChoice`s. It stays untyped, like the Python int it stands
    for, until it meets a typed value (or a cast, or a return annotation); then it becomes a
    tree of `select`s over constants of that type. `size` counts the tree's nodes.
    """

    cond: Wire
    a: Any
    b: Any
    size: int


def choice_size(v: Any) -> int:
    return v.size if isinstance(v, IntChoice) else 1


def choice_leaves(v: Any) -> list[Any]:
    if isinstance(v, IntChoice):
        return choice_leaves(v.a) + choice_leaves(v.b)
    return [v]


class _NoneType:
    def __repr__(self) -> str:
        return "None"


NONE = _NoneType()


@dataclass(frozen=True, eq=False)
class SymList:
    """A list value: `len(elems)` slots, each holding an element when its `active` flag holds.

    `active[i]` is `True` or a bool `Wire`. A *dense* list's active slots are a prefix
    (`active[i]` implies `active[i-1]`), so slot `i` is the list's element `i`; a filtered
    comprehension gives a sparse list, which can be iterated, summed and searched but not
    indexed, sliced or zipped. `length` is a plain int, a `u32` wire, or `None` (not computed
    yet: the sum of the active flags). Values in inactive slots are unspecified but well typed.
    `elem_ty` is the element type descriptor when known (`None` for plain ints). A set is a
    sparse list whose active elements are distinct (`distinct`)."""

    elems: tuple[Any, ...]
    active: tuple[Any, ...]
    length: Any
    elem_ty: Any
    dense: bool
    distinct: bool = False  # a set (`set(xs)`): the active elements are pairwise different

    @property
    def slots(self) -> int:
        return len(self.elems)


@dataclass(frozen=True, eq=False)
class SymRecord:
    """A record (dataclass / NamedTuple) value: `values` in the order of `ty.fields`."""

    ty: Any  # zeenot.types.RecordTy
    values: tuple[Any, ...]

    def get(self, name: str) -> Any:
        return self.values[self.ty.names.index(name)]


@dataclass(frozen=True)
class RecordCtor:
    """A record class used as a constructor: `Reading(t=..., hr=...)`."""

    ty: Any  # zeenot.types.RecordTy


@dataclass(frozen=True, eq=False)
class Closure:
    """A `lambda` or nested `def`, inlined where it is called. It reads the defining frame's
    variables when called (late binding, as Python closures do)."""

    node: Any  # ast.Lambda or ast.FunctionDef
    frame: Any  # the defining Frame

    @property
    def name(self) -> str:
        return getattr(self.node, "name", "<lambda>")


ALLOWED_BUILTINS = {
    "range",
    "len",
    "min",
    "max",
    "abs",
    "bool",
    "int",
    "sum",
    "any",
    "all",
    "zip",
    "enumerate",
    "next",
    "map",
    "filter",
    "list",
    "type",
    "sorted",
    "set",
}
PY_BUILTINS = set(dir(builtins))


def is_const(v: Any) -> bool:
    """A compile-time constant: plain int, bool, or a tuple of constants."""
    if isinstance(v, (bool, int)):
        return True
    if isinstance(v, tuple):
        return all(is_const(e) for e in v)
    return False


def same_value(a: Any, b: Any) -> bool:
    """Identical values (`True` and `1` differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=False))
    return bool(a == b)


def describe(v: Any) -> str:
    from zeenot.types import type_name

    if isinstance(v, PlainWire):
        return "plain int (known at run time)"
    if isinstance(v, Wire):
        return type_name(v.ty)
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int literal"
    if isinstance(v, IntChoice):
        return "plain int (chosen at run time)"
    if isinstance(v, tuple):
        return "tuple[" + ", ".join(describe(e) for e in v) + "]"
    if isinstance(v, SymList):
        inner = type_name(v.elem_ty) if v.elem_ty is not None else "int"
        return f"list[{inner}]"
    if isinstance(v, SymRecord):
        return v.ty.name
    if isinstance(v, SignatureCheck):
        return "a signature check (use it as `check(eddsa_verify(...))`)"
    if v is NONE:
        return "None"
    if isinstance(v, (FuncRef, Builtin, Closure, RecordCtor)):
        return "function"
    return type(v).__name__


def is_plain_int(v: Any) -> bool:
    """A plain int, possibly chosen at run time (not a bool)."""
    return isinstance(v, IntChoice) or (isinstance(v, int) and not isinstance(v, bool))
