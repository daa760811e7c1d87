"""Run-time types of the zeenot language and the type descriptors the compiler uses.

`u8 … u64`, `i8 … i64` are `int` subclasses whose arithmetic is range-checked; `Field` is an
`int` subclass reduced mod the BN254 scalar field prime. Running a `@zk` function as plain Python
with these types is the language's specification: the compiler must agree with it.

A *type descriptor* is a scalar type name (`"bool"`, `"u8"` … `"i64"`, `"field"`), a Python
tuple of descriptors (a fixed-size tuple type), a `ListTy` (a list with a maximum size) or a
`RecordTy` (a dataclass / NamedTuple with typed fields).
"""

from __future__ import annotations

import dataclasses
import linecache
import os
import sys
import types as _pytypes
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
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

Ty = Union[str, tuple, "ListTy", "RecordTy"]  # noqa: UP007 - see the module docstring

LEN_TYPE = "u32"
RECORD_KINDS = ("", "babyjub.point", "babyjub.ciphertext")
POINT_KIND, CIPHERTEXT_KIND = RECORD_KINDS[
    1:
]  # the type of a list's length (`len(xs)`, the `xs.len` input leaf)


@dataclass(frozen=True)
class ListTy:
    """`list[elem]` holding at most `max` elements (`None`: no bound given).

    `exact`: the list holds exactly `max` elements. An unbounded list parameter becomes one
    when a program is specialised at its inputs' lengths (`zeenot.api.Template`): the length
    is then part of the program, and so public."""

    elem: Any
    max: int | None
    exact: bool = False


@dataclass(frozen=True)
class RecordTy:
    """A user record type: a dataclass or NamedTuple with typed fields, read by name."""

    name: str
    fields: tuple[tuple[str, Any], ...]
    cls: Any = field(default=None, compare=False, hash=False)
    kind: str = ""  # "babyjub.point" / "babyjub.ciphertext" for zeenot.babyjub's records

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self.fields)

    def field_type(self, name: str) -> Any:
        return dict(self.fields)[name]


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
    """User-facing spelling: `u32`, `Field`, `bool`, `tuple[u32, bool]`, `MaxSize[list[u8], 9]`."""
    if isinstance(t, tuple):
        return "tuple[" + ", ".join(type_name(e) for e in t) + "]"
    if isinstance(t, ListTy):
        inner = f"list[{type_name(t.elem)}]"
        if t.exact:
            return f"{inner} (exactly {t.max} elements)"
        return inner if t.max is None else f"MaxSize[{inner}, {t.max}]"
    if isinstance(t, RecordTy):
        return t.name
    return "Field" if t == "field" else t


def type_to_json(t: Ty | None) -> Any:
    if t is None:
        return None
    if isinstance(t, tuple):
        return {"tuple": [type_to_json(e) for e in t]}
    if isinstance(t, ListTy):
        j = {"list": type_to_json(t.elem), "max": t.max}
        if t.exact:
            j["exact"] = True
        return j
    if isinstance(t, RecordTy):
        j = {"record": t.name, "fields": [[n, type_to_json(f)] for n, f in t.fields]}
        if t.kind:
            j["kind"] = t.kind
        return j
    return t


def type_from_json(j: Any) -> Ty | None:
    """A type from its IR JSON form; `null` is "no type" (a function that returns nothing)."""
    return None if j is None else value_type_from_json(j)


def value_type_from_json(j: Any) -> Ty:
    """A type from its IR JSON form, where a type is required (parameters, elements, fields):
    ValueError on anything else, `null` included."""
    if isinstance(j, str) and j in SCALAR_TYPES:
        return j
    if isinstance(j, dict) and set(j) == {"tuple"} and isinstance(j["tuple"], list):
        return tuple(value_type_from_json(e) for e in j["tuple"])
    if isinstance(j, dict) and set(j) - {"exact"} == {"list", "max"}:
        n = j["max"]
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 1 << 20:
            raise ValueError(f"invalid list bound {n!r}")
        if j.get("exact", True) is not True:
            raise ValueError(f"invalid list type {j!r}")
        return ListTy(value_type_from_json(j["list"]), n, "exact" in j)
    if (
        isinstance(j, dict)
        and set(j) - {"kind"} == {"record", "fields"}
        and isinstance(j["fields"], list)
        and j.get("kind", "") in RECORD_KINDS
    ):
        fields = []
        for f in j["fields"]:
            if not (isinstance(f, list) and len(f) == 2 and isinstance(f[0], str)):
                raise ValueError(f"invalid record field {f!r}")
            fields.append((f[0], value_type_from_json(f[1])))
        if not isinstance(j["record"], str) or len({n for n, _ in fields}) != len(fields):
            raise ValueError(f"invalid record type {j!r}")
        return RecordTy(j["record"], tuple(fields), kind=j.get("kind", ""))
    raise ValueError(f"invalid type {j!r}")


def leaves(name: str, t: Ty) -> list[tuple[str, str]]:
    """Scalar leaves `(path, scalar type)` of a value named `name` of type `t`, in order.

    A list contributes its length `name.len` and then `max` element slots `name[i]`; a record
    its fields `name.field`."""
    if isinstance(t, tuple):
        out: list[tuple[str, str]] = []
        for i, e in enumerate(t):
            out.extend(leaves(f"{name}[{i}]", e))
        return out
    if isinstance(t, ListTy):
        assert t.max is not None, "an input or output list needs a MaxSize"
        out = [(f"{name}.len", LEN_TYPE)]
        for i in range(t.max):
            out.extend(leaves(f"{name}[{i}]", t.elem))
        return out
    if isinstance(t, RecordTy):
        return [leaf for n, f in t.fields for leaf in leaves(f"{name}.{n}", f)]
    return [(name, t)]


def zero_value(t: Ty) -> Any:
    """The padding value of type `t` (JSON-shaped: 0, false, lists, objects)."""
    if isinstance(t, tuple):
        return [zero_value(e) for e in t]
    if isinstance(t, ListTy):
        return []
    if isinstance(t, RecordTy) and t.kind == POINT_KIND:
        return {"x": 0, "y": 1}  # the identity: padding must be a valid point
    if isinstance(t, RecordTy):
        return {n: zero_value(f) for n, f in t.fields}
    return False if t == "bool" else 0


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
# Annotations: Private[T], Public[T], Committed[T], @zk, check


class Visibility:
    """The value of `Private[T]` / `Public[T]` / `Private[T, "tier"]` in an annotation."""

    def __init__(self, vis: str, ty: Any, tier: str | None):
        self.vis, self.ty, self.tier = vis, ty, tier

    def __repr__(self) -> str:
        tier = f", {self.tier!r}" if self.tier is not None else ""
        return f"{self.vis.capitalize()}[{self.ty!r}{tier}]"


class Tier:
    """A tier marker for annotations: `Private[T, Client]` (the same as `Private[T, "client"]`,
    which linters read as a forward reference)."""

    name = ""


class Client(Tier):
    """The data owner's device (ZØ's Client tier)."""

    name = "client"


class Peer(Tier):
    """Another party taking part in a run, with data of its own (ZØ's ClientShare tier:
    docs/runtime.md, "Workers on a peer")."""

    name = "peer"


class Server(Tier):
    """The service that verifies and acts on proved results (ZØ's External tier)."""

    name = "server"


class _VisMarker:
    VIS = ""

    def __class_getitem__(cls, params: Any) -> Visibility:
        tier = None
        if isinstance(params, tuple):
            if len(params) == 2 and isinstance(params[1], type) and issubclass(params[1], Tier):
                params = (params[0], params[1].name)
            if len(params) != 2 or not isinstance(params[1], str):
                raise TypeError(
                    f"expected {cls.__name__}[T], {cls.__name__}[T, Client] or "
                    f'{cls.__name__}[T, "client"]'
                )
            params, tier = params
        return Visibility(cls.VIS, params, tier)


class Private(_VisMarker):
    """`Private[T]`: a parameter known only to the prover."""

    VIS = "private"


class Public(_VisMarker):
    """`Public[T]`: a parameter the verifier knows too."""

    VIS = "public"


class Committed(_VisMarker):
    """`Committed[T]`: a value known only to the prover but bound to a public Pedersen
    commitment, so that it can cross from one proof (or back end) to another unrevealed. As a
    parameter, the instance holds the commitment and the prover supplies the value and its
    blinding; as the return annotation, the proof publishes commitments to the outputs and the
    prover keeps their openings. `T` must be made of integers and bools."""

    VIS = "committed"


class SizedList:
    """The value of `MaxSize[list[T], N]` (nested: `MaxSize[list[list[T]], N, M]`)."""

    def __init__(self, ty: Any, sizes: tuple[int, ...]):
        self.ty, self.sizes = ty, sizes

    def __repr__(self) -> str:
        return f"MaxSize[{self.ty!r}, {', '.join(map(str, self.sizes))}]"


class MaxSize:
    """`MaxSize[list[T], N]`: a list of at most `N` elements (ZØ's `MaxSize`). The circuit has
    room for `N`; the actual length is a value of the program (`len(xs)`). Nested lists take one
    bound per level: `MaxSize[list[list[u8]], 10, 4]` (or nest `MaxSize` inside `list[...]`)."""

    def __class_getitem__(cls, params: Any) -> SizedList:
        if not isinstance(params, tuple) or len(params) < 2:
            raise TypeError("expected MaxSize[list[T], N]")
        ty, *sizes = params
        for n in sizes:
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise TypeError(f"MaxSize bounds must be non-negative ints, got {n!r}")
        return SizedList(ty, tuple(sizes))


class TypeAnnotationError(Exception):
    """An annotation that is not a zeenot type; `hint` suggests the fix."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.hint = hint


def _record_fields(cls: type) -> tuple[tuple[str, Any], ...] | None:
    """`(name, annotation)` pairs of a dataclass or NamedTuple class, else None."""
    if dataclasses.is_dataclass(cls):
        hints = typing.get_type_hints(cls)
        return tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):
        hints = typing.get_type_hints(cls)
        return tuple((n, hints[n]) for n in cls._fields)  # type: ignore[attr-defined]
    return None


def _list_from_obj(obj: Any, sizes: tuple[int, ...]) -> ListTy:
    if not (isinstance(obj, _pytypes.GenericAlias) and obj.__origin__ is list):
        raise TypeAnnotationError(
            "MaxSize applies to a list type", "write `MaxSize[list[u32], 100]`"
        )
    (elem,) = obj.__args__
    rest = sizes[1:]
    if rest:
        inner = _list_from_obj(elem, rest)
    else:
        inner = type_from_obj(elem)
    return ListTy(inner, sizes[0])


def is_record_class(obj: Any) -> bool:
    return isinstance(obj, type) and _record_fields(obj) is not None and obj is not tuple


def type_from_obj(obj: Any) -> Ty:
    """The descriptor for a run-time annotation object (`u32`, `tuple[u32, bool]`, an alias,
    `MaxSize[list[T], N]`, a dataclass or NamedTuple)."""
    if isinstance(obj, SizedList):
        return _list_from_obj(obj.ty, obj.sizes)
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
    if obj is list:
        raise TypeAnnotationError("a bare `list` needs an element type", "write `list[u32]`")
    if isinstance(obj, _pytypes.GenericAlias) and obj.__origin__ is list:
        if len(obj.__args__) != 1:
            raise TypeAnnotationError("`list` takes one element type")
        return ListTy(type_from_obj(obj.__args__[0]), None)
    if isinstance(obj, type) and is_record_class(obj):
        fields = _record_fields(obj)
        assert fields is not None
        if not fields:
            raise TypeAnnotationError(f"record `{obj.__name__}` has no fields")
        try:
            kind = getattr(obj, "__zeenot_kind__", "")
            tys = tuple((n, type_from_obj(a)) for n, a in fields)
            return RecordTy(obj.__name__, tys, obj, kind)
        except TypeAnnotationError as exc:
            raise TypeAnnotationError(f"in record `{obj.__name__}`: {exc}", exc.hint) from None
    raise TypeAnnotationError(
        f"`{getattr(obj, '__name__', obj)!s}` is not a zeenot type",
        "use bool, u8..u64, i8..i64, Field, tuple[...], MaxSize[list[T], N] or a dataclass",
    )


def unbounded_list(t: Ty) -> ListTy | None:
    """The first list inside `t` that has no `MaxSize` bound, if any."""
    if isinstance(t, ListTy):
        return t if t.max is None else unbounded_list(t.elem)
    if isinstance(t, tuple):
        for e in t:
            u = unbounded_list(e)
            if u is not None:
                return u
    if isinstance(t, RecordTy):
        for _, f in t.fields:
            u = unbounded_list(f)
            if u is not None:
                return u
    return None


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


_MISSING: Any = object()


def find(xs: Any, pred: Callable[[Any], bool], default: Any = _MISSING) -> Any:
    """The first element of `xs` for which `pred` holds (ZØ's `First`).

    With no match, `default` is returned; without a `default`, no match is a `CheckFailure`
    (no proof exists)."""
    for x in xs:
        r = pred(x)
        if not isinstance(r, bool):
            raise TypeError(f"find(): the predicate must return a bool, got {_tname(r)}")
        if r:
            return x
    if default is _MISSING:
        file, line = _user_location()
        raise CheckFailure("find(): no element matched and no default was given", file, line)
    return default


def isqrt(x: Any) -> Any:
    """The integer square root `⌊√x⌋` of an unsigned integer, of the same type (`u32` in, `u32`
    out). In a `@zk` function it is a bitwise search over the result's bits (half the type's
    width): one product and one comparison per bit."""
    if not (isinstance(x, ZInt) and x.LO == 0):
        raise TypeError(f"isqrt() takes an unsigned integer (u8 … u64), got {_tname(x)}")
    import math

    return type(x)(math.isqrt(int(x)))


def group_sum(xs: Any, key: Callable[[Any], Any], value: Callable[[Any], Any]) -> list[Any]:
    """Totals per distinct key: `[(k, total), ...]` in increasing key order, `total` the sum of
    `value(x)` over the elements `x` with `key(x) == k`, added in the list's order (an overflow
    fails, as in `sum`). Keys and values are integers (u8 … u64, i8 … i64). In a `@zk` function
    the list is sorted by key (stably, O(n log² n)) and running sums restart at each new key;
    the result is a filtered list of one `(key, total)` per group."""
    totals: dict[int, Any] = {}
    keys: dict[int, Any] = {}
    for x in xs:
        k, v = key(x), value(x)
        for what, got in (("key", k), ("value", v)):
            if not isinstance(got, ZInt):
                raise TypeError(
                    f"group_sum(): the {what} must be a sized integer, got {_tname(got)}"
                )
        slot = int(k)
        keys.setdefault(slot, k)
        totals[slot] = totals[slot] + v if slot in totals else v
    return [(keys[slot], totals[slot]) for slot in sorted(totals)]


POSEIDON_MAX_INPUTS = 16


def poseidon(*values: Any) -> Field:
    """circomlib's Poseidon hash of 1 to 16 `Field` elements (plain ints are reduced mod p).

    In a `@zk` function it is one `poseidon` instruction (240 constraints for two inputs), so a
    program can publish a binding commitment to private data: `poseidon(Field(x), salt)`."""
    if not 1 <= len(values) <= POSEIDON_MAX_INPUTS:
        raise TypeError(f"poseidon() takes 1 to {POSEIDON_MAX_INPUTS} values, got {len(values)}")
    leaves = []
    for v in values:
        if isinstance(v, bool) or isinstance(v, ZInt) or not isinstance(v, int):
            raise TypeError(
                f"poseidon() hashes Field elements, got {_tname(v)} (convert explicitly: Field(x))"
            )
        leaves.append(str(int(v) % P))
    from zeenot import _native

    return Field(int(_native.poseidon(leaves)))
