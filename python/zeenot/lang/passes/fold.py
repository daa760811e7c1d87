"""Constant folding: an instruction whose operands are all integer or bool constants becomes
the constant it computes (Python's semantics), unless the result is out of its type's range or
the division is by zero: that instruction stays, and fails where the IR says it does. (A
`select` or `index` by a constant picks its operand: `Emitter.emit` does that itself.)"""

from __future__ import annotations

from zeenot.types import int_range

_FOLD = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "neg": lambda a: -a,
    "floordiv": lambda a, b: a // b if b else None,
    "mod": lambda a, b: a % b if b else None,
    "eq": lambda a, b: int(a == b),
    "ne": lambda a, b: int(a != b),
    "lt": lambda a, b: int(a < b),
    "le": lambda a, b: int(a <= b),
    "gt": lambda a, b: int(a > b),
    "ge": lambda a, b: int(a >= b),
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "not": lambda a: 1 - a,
    "cast": lambda a: a,
}


def fold(op: str, ty: str, values: list[int]) -> int | None:
    """The constant an instruction computes from constant integer (or bool: 0, 1) operands,
    or None where it must stay: an op not folded here, a division by zero, a result outside
    `ty` (the instruction fails there, and folding must not hide that)."""
    f = _FOLD.get(op)
    if f is None or ty == "field":
        return None
    v = f(*values)
    if v is None:
        return None
    lo, hi = int_range(ty)
    return v if lo <= v <= hi else None
