"""Fixed point, exact: `Fixed` holds `raw / 2**FRAC` as an `i64` and is written in the language
itself (a record whose operators `@zk` code inlines), so it costs what the integer arithmetic
it is made of costs, and overflows where that arithmetic does: a proof exists only if Python's
run of the same code does not fail.

Declare the fractional bits by subclassing; values of different classes do not mix:

    class Rate(Fixed):
        FRAC = 8            # 1/256 steps

    Rate(384)               # 1.5 (the raw value 384 = 1.5 · 2^8)
    Rate.of(3)              # 3.0; in @zk code too, where its arguments are constants

`+` and `-` are exact; `*` rounds toward −∞ (floor of the exact product, as `//` does); `/`
rounds toward −∞ too (the largest multiple of 2^-FRAC not above the exact quotient, computed as
`(a.raw · 2^FRAC) // b.raw`; a zero divisor, or a dividend whose `raw · 2^FRAC` leaves `i64`, has
no proof, as in Python); `//` by another value gives the integer quotient; comparisons compare
the raw values. In JSON a value is `{"raw": 384}`; `to_float()` is for display only.

`Rate.of("1.5")` is exact and refuses a value between two steps; `Rate.of("0.35",
rounding="nearest")` (or "floor", "ceil") rounds it to a step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from zeenot.types import i64

ROUNDINGS = {
    "nearest": round,  # a Fraction's round() takes ties to the even integer
    "floor": math.floor,
    "ceil": math.ceil,
}


@dataclass(frozen=True)
class Fixed:
    """`raw / 2**FRAC`; subclass to choose `FRAC` (default 16)."""

    raw: i64
    FRAC = 16

    # `other` and the results are unannotated: they are the subclass's own type, which an
    # annotation naming `Fixed` would convert to (the compiler converts helper arguments)

    def __add__(self, other):
        return type(self)(self.raw + other.raw)

    def __sub__(self, other):
        return type(self)(self.raw - other.raw)

    def __mul__(self, other):
        return type(self)(self.raw * other.raw // i64(1 << self.FRAC))

    def __truediv__(self, other):
        return type(self)(self.raw * i64(1 << self.FRAC) // other.raw)

    def __floordiv__(self, other) -> i64:
        return self.raw // other.raw

    def __lt__(self, other) -> bool:
        return self.raw < other.raw

    def __le__(self, other) -> bool:
        return self.raw <= other.raw

    def __gt__(self, other) -> bool:
        return self.raw > other.raw

    def __ge__(self, other) -> bool:
        return self.raw >= other.raw

    def floor(self) -> i64:
        """The largest integer not above the value."""
        return self.raw // i64(1 << self.FRAC)

    @classmethod
    def of(cls, value: int | str | Fraction, rounding: str | None = None) -> Any:
        """The value `value` (an integer, or a decimal string such as "2.375") as a `cls`, for
        building inputs in Python. Exact by default: a `ValueError` if it is not a multiple of
        2^-FRAC. `rounding` picks the neighbouring step instead: "nearest" (ties to the even
        raw value), "floor" (toward −∞) or "ceil" (toward +∞)."""
        exact = Fraction(value) * (1 << cls.FRAC)
        if rounding is None:
            if exact.denominator != 1:
                raise ValueError(
                    f'{value} is not a multiple of 2^-{cls.FRAC}: pass rounding="nearest" '
                    '(or "floor", "ceil") to take a neighbouring step'
                )
            return cls(i64(int(exact)))
        if rounding not in ROUNDINGS:
            raise ValueError(f"rounding {rounding!r}: expected one of {', '.join(ROUNDINGS)}")
        return cls(i64(ROUNDINGS[rounding](exact)))

    def to_float(self) -> float:
        return int(self.raw) / (1 << self.FRAC)
