"""The types of `main`'s public inputs, checked at the door.

`main`'s public inputs are the client's claims (a policy number, a basket, a meter's key): the
server receives them in every submission, stores what its workers make of them and binds every
proof to them. Each is annotated, and a submission whose value does not fit its annotation is
refused (400, naming the input) before any proof is looked at. What an annotation may be:

* `str`: printable text of at most `MAX_TEXT` characters;
* `int` (a signed 64-bit integer) or `bool`;
* any zeenot value type: `u32`, `Field`, `Point`, records, tuples, `MaxSize[list[T], N]`
  (checked as a `@zk` function's public inputs are; a list needs its `MaxSize`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zeenot.ir import check_value
from zeenot.types import Ty, TypeAnnotationError, type_from_obj, type_name, unbounded_list

MAX_TEXT = 256  # characters of a `str` input
_INT_BOUND = 1 << 63


@dataclass(frozen=True)
class InputType:
    """What a public input of `main` may hold: "str", "int", "bool", or a zeenot type `ty`."""

    kind: str
    ty: Ty | None = None

    def describe(self) -> str:
        if self.ty is not None:
            return type_name(self.ty)
        return {"str": f"text of at most {MAX_TEXT} characters", "int": "a 64-bit integer"}.get(
            self.kind, self.kind
        )


def input_type(annotation: Any) -> InputType:
    """The type an annotation declares; `ValueError` (with what to write) for one the door
    cannot check."""
    for plain in (str, bool, int):
        if annotation is plain:
            return InputType(plain.__name__)
    try:
        ty = type_from_obj(annotation)
    except (TypeAnnotationError, TypeError, ValueError):
        raise ValueError(
            "annotate it with `str`, `int`, `bool` or a zeenot type (`u32`, `Field`, a record, "
            "`MaxSize[list[T], N]`)"
        ) from None
    if unbounded_list(ty) is not None:
        raise ValueError("a list input of `main` needs a bound: `MaxSize[list[T], N]`")
    return InputType("zk", ty)


def check_input(name: str, expected: InputType, value: Any) -> None:
    """Refuse a value that does not fit the input's type: `ValueError` naming the input."""
    if expected.ty is not None:
        check_value(name, expected.ty, value)
        return
    if expected.kind == "str":
        if not isinstance(value, str):
            raise ValueError(f"`{name}`: expected text, got {_kind(value)}")
        if len(value) > MAX_TEXT:
            raise ValueError(f"`{name}`: {len(value)} characters, more than {MAX_TEXT}")
        if not value.isprintable():
            raise ValueError(f"`{name}`: text with control characters")
        return
    if expected.kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"`{name}`: expected true or false, got {_kind(value)}")
        return
    if type(value) is not int or not -_INT_BOUND <= value < _INT_BOUND:
        raise ValueError(f"`{name}`: expected a 64-bit integer, got {_kind(value)}")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "text"}
    names |= {list: "a list", dict: "an object"}
    return names.get(type(value), type(value).__name__)
