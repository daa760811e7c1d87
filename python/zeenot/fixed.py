"""Fixed point, exact: `Fixed` holds `raw / 2**FRAC` as an `i64` and is written in the language
itself (a record whose operators `@zk` code inlines), so it costs what the integer arithmetic
it is made of costs, and overflows where that arithmetic does: a proof exists only if Python's
run of the same code does not fail.

Declare the fractional bits by subclassing; values of different classes do not mix:

    class Rate(Fixed):
        FRAC = 8            # 1/256 steps

    Rate(384)               # 1.5 (the raw value 384 = 1.5 · 2^8)
    Rate.of(3)              # 3.0, in Python (outside @zk code: pass values in, or use `raw`)

`+` and `-` are exact; `*` rounds toward −∞ (floor of the exact product, as `//` does); `//` by
another value gives the integer quotient; comparisons compare the raw values. In JSON a value is
`{"raw": 384}`; `to_float()` is for display only.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from zeenot.types import i64


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
    def of(cls, value: int | str | Fraction) -> Any:
        """The value `value` (an integer, or a decimal string such as "2.375") exactly; a
        `ValueError` if it is not a multiple of 2^-FRAC. For building inputs in Python."""
        exact = Fraction(value) * (1 << cls.FRAC)
        if exact.denominator != 1:
            raise ValueError(f"{value} is not a multiple of 2^-{cls.FRAC}")
        return cls(i64(int(exact)))

    def to_float(self) -> float:
        return int(self.raw) / (1 << self.FRAC)
