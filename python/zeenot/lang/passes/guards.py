"""No guard where nothing can fail: a division by a constant other than 0 and −1, or a cast to
a type that holds every value of the source type, cannot fail, so it takes no guard (docs/ir.md,
*Guards*: such an instruction's result is then specified everywhere) and instances under
different conditions are shared. Dead-code removal (`dead.py`) asks the same question."""

from __future__ import annotations

from zeenot.types import int_range

FALLIBLE = {"add", "sub", "mul", "neg", "floordiv", "mod", "cast", "index"}


def _holds(source: str, target: str) -> bool:
    """Whether every value of type `source` is a value of type `target`."""
    if target == "field":
        return True
    if source == "field":
        return False
    (s_lo, s_hi), (t_lo, t_hi) = int_range(source), int_range(target)
    return t_lo <= s_lo and s_hi <= t_hi


def can_fail(op: str, ty: str, source_ty: str | None, divisor: int | None) -> bool:
    """Whether an instruction of a FALLIBLE op can fail, judged from its result type, its
    first operand's type (`source_ty`) and a constant divisor alone."""
    if ty == "field" and op in ("add", "sub", "mul", "neg"):
        return False  # arithmetic modulo p
    if op in ("floordiv", "mod"):
        return divisor is None or divisor in (0, -1)
    if op == "cast":
        return source_ty is None or not _holds(source_ty, ty)
    return True
