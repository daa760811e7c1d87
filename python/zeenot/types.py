"""Run-time types of the zeenot language and the type descriptors the compiler uses.

`u8 … u64`, `i8 … i64` are `int` subclasses whose arithmetic is range-checked; `Field` is an
`int` subclass reduced mod the BN254 scalar field prime. Running a `@zk` function as plain Python
with these types is the language's specification: the compiler must agree with it.

A *type descriptor* is a scalar type name (`"bool"`, `"u8"` … `"i64"`, `"field"`) or a Python
tuple of descriptors (a fixed-size tuple type).
"""

from __future__ import annotations

import linecache
import os
import sys
import types as _pytypes
from collections.abc import Callable
from typing import Any, TypeVar, Union

from zeenot.errors import (
    CheckFailure,
    DivisionByZeroFailure,
    OverflowFailure,
    RangeFailure,
)

P = 21888242871839275222246405745257275088548364400416034343698204186575808495617

INT_TYPES = ("u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64")
SCALAR_TYPES = ("bool", *INT_TYPES, "field")

Ty = Union[str, tuple]  # noqa: UP007 - a descriptor: scalar name or tuple of descriptors

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))


def int_range(name: str) -> tuple[int, int]:
    """Inclusive range of an integer type name (`field` → `[0, p)`, `bool` → `[0, 1]`)."""
    if name == "field":
        return 0, P - 1
    if name == "bool":
        return 0, 1
    bits = int(name[1:])
    if name[0] == "u":
        return 0, (1 << bits) - 1
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def is_signed(name: str) -> bool:
    return name.startswith("i")


def type_name(t: Ty) -> str:
    """User-facing spelling: `u32`, `Field`, `bool`, `tuple[u32, bool]`."""
    if isinstance(t, tuple):
        return "tuple[" + ", ".join(type_name(e) for e in t) + "]"
    return "Field" if t == "field" else t


def type_to_json(t: Ty | None) -> Any:
    if t is None:
        return None
    if isinstance(t, tuple):
        return {"tuple": [type_to_json(e) for e in t]}
    return t


def type_from_json(j: Any) -> Ty | None:
    if j is None:
        return None
    if isinstance(j, str) and j in SCALAR_TYPES:
        return j
    if isinstance(j, dict) and set(j) == {"tuple"} and isinstance(j["tuple"], list):
        return tuple(type_from_json(e) for e in j["tuple"])  # type: ignore[misc]
    raise ValueError(f"invalid type {j!r}")


def leaves(name: str, t: Ty) -> list[tuple[str, str]]:
    """Scalar leaves `(path, scalar type)` of a value named `name` of type `t`, in order."""
    if isinstance(t, tuple):
        out: list[tuple[str, str]] = []
        for i, e in enumerate(t):
            out.extend(leaves(f"{name}[{i}]", e))
        return out
    return [(name, t)]


# --------------------------------------------------------------------------------------------
# Failure locations: the first stack frame outside the zeenot package is the user's code.


def _user_location() -> tuple[str | None, int | None]:
    frame = sys._getframe(1)
    while frame is not None:
        fname = frame.f_code.co_filename
        if not os.path.abspath(fname).startswith(_PKG_DIR + os.sep):
            return fname, frame.f_lineno
        frame = frame.f_back  # type: ignore[assignment]
    return None, None


def _fail(cls: type, message: str) -> Any:
    file, line = _user_location()
    raise cls(message, file, line)


# --------------------------------------------------------------------------------------------
# Integer types


def _is_plain_int(x: object) -> bool:
    return type(x) is int


def _tname(x: object) -> str:
    if isinstance(x, (ZInt, Field)):
        return type_name(type(x).NAME)
    return type(x).__name__


class ZInt(int):
    """Base of the fixed-width integer types; arithmetic results are range-checked."""

    NAME = "int"
    LO = 0
    HI = 0

    def __new__(cls, value: Any = 0) -> Any:
        if isinstance(value, bool):
            v = int(value)
        elif isinstance(value, Field):
            v = int(value)
            if not cls.LO <= v <= cls.HI:
                _fail(RangeFailure, f"Field element {v} does not fit {cls.NAME}")
        elif isinstance(value, int):
            v = int(value)
            if not cls.LO <= v <= cls.HI:
                _fail(OverflowFailure, f"{v} does not fit {cls.NAME} ({cls.LO}..{cls.HI})")
        else:
            raise TypeError(f"{cls.NAME}() expects an integer or bool, got {_tname(value)}")
        return int.__new__(cls, v)

    @classmethod
    def _make(cls, v: int, op: str) -> Any:
        if not cls.LO <= v <= cls.HI:
            _fail(OverflowFailure, f"overflow: {op} gives {v}, outside {cls.NAME}")
        return int.__new__(cls, v)

    def _other(self, other: object, op: str) -> int:
        if type(other) is type(self):
            return int(other)  # type: ignore[call-overload]
        if _is_plain_int(other):
            o = int(other)  # type: ignore[call-overload]
            if not self.LO <= o <= self.HI:
                _fail(OverflowFailure, f"the literal {o} does not fit {self.NAME}")
            return o
        if isinstance(other, (ZInt, Field, bool)):
            raise TypeError(
                f"unsupported operand types for {op}: {self.NAME} and {_tname(other)} "
                f"(convert explicitly: {self.NAME}(x))"
            )
        return NotImplemented  # type: ignore[return-value]

    def _arith(self, other: object, op: str, reflected: bool) -> Any:
        o = self._other(other, op)
        if o is NotImplemented:
            return NotImplemented
        a, b = (o, int(self)) if reflected else (int(self), o)
        if op == "+":
            r = a + b
        elif op == "-":
            r = a - b
        elif op == "*":
            r = a * b
        else:
            if b == 0:
                _fail(DivisionByZeroFailure, f"division by zero in {self.NAME} `{op}`")
            r = a // b if op == "//" else a % b
        return type(self)._make(r, f"`{a} {op} {b}`")

    def __add__(self, o: Any) -> Any:
        return self._arith(o, "+", False)

    def __radd__(self, o: Any) -> Any:
        return self._arith(o, "+", True)

    def __sub__(self, o: Any) -> Any:
        return self._arith(o, "-", False)

    def __rsub__(self, o: Any) -> Any:
        return self._arith(o, "-", True)

    def __mul__(self, o: Any) -> Any:
        return self._arith(o, "*", False)

    def __rmul__(self, o: Any) -> Any:
        return self._arith(o, "*", True)

    def __floordiv__(self, o: Any) -> Any:
        return self._arith(o, "//", False)

    def __rfloordiv__(self, o: Any) -> Any:
        return self._arith(o, "//", True)

    def __mod__(self, o: Any) -> Any:
        return self._arith(o, "%", False)

    def __rmod__(self, o: Any) -> Any:
        return self._arith(o, "%", True)

    def __neg__(self) -> Any:
        return type(self)._make(-int(self), f"`-{int(self)}`")

    def __pos__(self) -> Any:
        return self

    def __abs__(self) -> Any:
        return type(self)._make(abs(int(self)), f"`abs({int(self)})`")

    def _unsupported(self, *_: Any) -> Any:
        raise TypeError(f"operator not supported on {self.NAME} in zeenot v1 (use + - * // %)")

    __truediv__ = __rtruediv__ = __pow__ = __rpow__ = _unsupported
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = _unsupported
    __lshift__ = __rlshift__ = __rshift__ = __rrshift__ = __invert__ = _unsupported

    def _cmp(self, other: object, op: str) -> Any:
        if type(other) is type(self) or _is_plain_int(other):
            return getattr(int(self), op)(int(other))  # type: ignore[call-overload]
        if isinstance(other, (ZInt, Field, bool)):
            raise TypeError(
                f"cannot compare {self.NAME} with {_tname(other)} (convert explicitly: "
                f"{self.NAME}(x))"
            )
        return NotImplemented

    def __eq__(self, o: object) -> Any:
        return self._cmp(o, "__eq__")

    def __ne__(self, o: object) -> Any:
        return self._cmp(o, "__ne__")

    def __lt__(self, o: object) -> Any:
        return self._cmp(o, "__lt__")

    def __le__(self, o: object) -> Any:
        return self._cmp(o, "__le__")

    def __gt__(self, o: object) -> Any:
        return self._cmp(o, "__gt__")

    def __ge__(self, o: object) -> Any:
        return self._cmp(o, "__ge__")

    __hash__ = int.__hash__

    def __repr__(self) -> str:
        return f"{self.NAME}({int(self)})"

    def __str__(self) -> str:
        return str(int(self))


class u8(ZInt):  # noqa: N801
    NAME, LO, HI = "u8", 0, 2**8 - 1


class u16(ZInt):  # noqa: N801
    NAME, LO, HI = "u16", 0, 2**16 - 1


class u32(ZInt):  # noqa: N801
    NAME, LO, HI = "u32", 0, 2**32 - 1


class u64(ZInt):  # noqa: N801
    NAME, LO, HI = "u64", 0, 2**64 - 1


class i8(ZInt):  # noqa: N801
    NAME, LO, HI = "i8", -(2**7), 2**7 - 1


class i16(ZInt):  # noqa: N801
    NAME, LO, HI = "i16", -(2**15), 2**15 - 1


class i32(ZInt):  # noqa: N801
    NAME, LO, HI = "i32", -(2**31), 2**31 - 1


class i64(ZInt):  # noqa: N801
    NAME, LO, HI = "i64", -(2**63), 2**63 - 1


INT_CLASSES: dict[str, type[ZInt]] = {c.NAME: c for c in (u8, u16, u32, u64, i8, i16, i32, i64)}


class Field(int):
    """An element of the BN254 scalar field: `+ - *` and unary `-` mod p; `==`/`!=` only."""

    NAME = "field"

    def __new__(cls, value: Any = 0) -> Any:
        if isinstance(value, bool):
            return int.__new__(cls, int(value))
        if isinstance(value, int):
            return int.__new__(cls, int(value) % P)
        raise TypeError(f"Field() expects an integer or bool, got {_tname(value)}")

    def _other(self, other: object, op: str) -> Any:
        if isinstance(other, Field) or _is_plain_int(other):
            return int(other) % P  # type: ignore[call-overload]
        if isinstance(other, (ZInt, bool)):
            raise TypeError(
                f"unsupported operand types for {op}: Field and {_tname(other)} "
                "(convert explicitly: Field(x))"
            )
        return NotImplemented

    def __add__(self, o: Any) -> Any:
        v = self._other(o, "+")
        return v if v is NotImplemented else Field(int(self) + v)

    __radd__ = __add__

    def __sub__(self, o: Any) -> Any:
        v = self._other(o, "-")
        return v if v is NotImplemented else Field(int(self) - v)

    def __rsub__(self, o: Any) -> Any:
        v = self._other(o, "-")
        return v if v is NotImplemented else Field(v - int(self))

    def __mul__(self, o: Any) -> Any:
        v = self._other(o, "*")
        return v if v is NotImplemented else Field(int(self) * v)

    __rmul__ = __mul__

    def __neg__(self) -> Any:
        return Field(-int(self))

    def __pos__(self) -> Any:
        return self

    def _unsupported(self, *_: Any) -> Any:
        raise TypeError("operator not supported on Field (only + - * and unary -, == and !=)")

    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _unsupported
    __pow__ = __rpow__ = __and__ = __rand__ = __or__ = __ror__ = __xor__ = _unsupported
    __rxor__ = __lshift__ = __rlshift__ = __rshift__ = __rrshift__ = __invert__ = _unsupported
    __abs__ = _unsupported

    def _order(self, *_: Any) -> Any:
        raise TypeError("Field elements are not ordered (compare integers instead: u64(x) < y)")

    __lt__ = __le__ = __gt__ = __ge__ = _order

    def __eq__(self, o: object) -> Any:
        v = self._other(o, "==")
        return v if v is NotImplemented else int(self) == v

    def __ne__(self, o: object) -> Any:
        v = self._other(o, "!=")
        return v if v is NotImplemented else int(self) != v

    __hash__ = int.__hash__

    def __repr__(self) -> str:
        return f"Field({int(self)})"

    def __str__(self) -> str:
        return str(int(self))


SCALAR_CLASSES: dict[str, type] = {**INT_CLASSES, "field": Field, "bool": bool}


# --------------------------------------------------------------------------------------------
# Annotations: Private[T], Public[T], @zk, check


class Visibility:
    """The value of `Private[T]` / `Public[T]` / `Private[T, "tier"]` in an annotation."""

    def __init__(self, vis: str, ty: Any, tier: str | None):
        self.vis, self.ty, self.tier = vis, ty, tier

    def __repr__(self) -> str:
        tier = f", {self.tier!r}" if self.tier is not None else ""
        return f"{self.vis.capitalize()}[{self.ty!r}{tier}]"


class _VisMarker:
    VIS = ""

    def __class_getitem__(cls, params: Any) -> Visibility:
        tier = None
        if isinstance(params, tuple):
            if len(params) != 2 or not isinstance(params[1], str):
                raise TypeError(f'expected {cls.__name__}[T] or {cls.__name__}[T, "tier"]')
            params, tier = params
        return Visibility(cls.VIS, params, tier)


class Private(_VisMarker):
    """`Private[T]`: a parameter known only to the prover."""

    VIS = "private"


class Public(_VisMarker):
    """`Public[T]`: a parameter the verifier knows too."""

    VIS = "public"


class TypeAnnotationError(Exception):
    """An annotation that is not a zeenot type; `hint` suggests the fix."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.hint = hint


def type_from_obj(obj: Any) -> Ty:
    """The descriptor for a run-time annotation object (`u32`, `tuple[u32, bool]`, an alias)."""
    if obj is bool:
        return "bool"
    if isinstance(obj, type) and issubclass(obj, ZInt) and obj.NAME in INT_CLASSES:
        return obj.NAME
    if obj is Field:
        return "field"
    if isinstance(obj, Visibility):
        raise TypeAnnotationError("`Private`/`Public` can only wrap a parameter's whole type")
    if isinstance(obj, _pytypes.GenericAlias) and obj.__origin__ is tuple:
        args = obj.__args__
        if Ellipsis in args:
            raise TypeAnnotationError(
                "variable-length tuples (`tuple[T, ...]`) are not supported",
                "write the length out: `tuple[u32, u32, u32]` (lists with a maximum size "
                "arrive in a later version)",
            )
        if len(args) == 0 or args == ((),):
            raise TypeAnnotationError("empty tuple types are not supported")
        return tuple(type_from_obj(a) for a in args)
    if obj is int:
        raise TypeAnnotationError(
            "`int` has no fixed width", "use a sized integer type such as `u32` or `i64`"
        )
    if obj is float:
        raise TypeAnnotationError(
            "floating point is not supported", "use integers, e.g. cents instead of euros"
        )
    if obj is tuple:
        raise TypeAnnotationError("a bare `tuple` needs element types", "write `tuple[u32, u32]`")
    if obj is list or (isinstance(obj, _pytypes.GenericAlias) and obj.__origin__ is list):
        raise TypeAnnotationError(
            "lists are not supported yet", "lists arrive with MaxSize in a later version"
        )
    raise TypeAnnotationError(
        f"`{getattr(obj, '__name__', obj)!s}` is not a zeenot type",
        "use bool, u8..u64, i8..i64, Field or tuple[...] of those",
    )


F = TypeVar("F", bound=Callable[..., Any])


def zk(fn: F) -> F:
    """Mark a function as a zeenot program. It stays a plain, callable Python function."""
    if not callable(fn):
        raise TypeError("@zk decorates a function")
    fn.__zk__ = {"name": fn.__name__}  # type: ignore[attr-defined]
    return fn


def check(cond: Any, msg: str | None = None) -> None:
    """Require `cond`; a proof exists only if every `check` on the executed path holds."""
    if not isinstance(cond, bool):
        raise TypeError(f"check() expects a bool, got {_tname(cond)}")
    if not cond:
        file, line = _user_location()
        text = msg
        if text is None and file is not None and line is not None:
            text = linecache.getline(file, line).strip() or None
        detail = f"check failed: {text}" if text else "check failed"
        raise CheckFailure(detail, file, line)
