"""The middle end's passes over the instructions the front end emits.

* **Shared subexpressions** (`Shared`): an instruction identical to an earlier one (same op,
  type, arguments and, for an instruction that can fail, the same guard) is not emitted again;
  the earlier result is reused. Unrolled loops and helpers called in loops recompute the same
  value (`a.zip // 100` for every pair in a nested comprehension); each is computed once.
* **No guard where nothing can fail** (`can_fail`): a division by a constant other than 0 and
  −1, or a cast to a type that holds every value of the source type, cannot fail, so it takes
  no guard (docs/ir.md, *Guards*: such an instruction's result is then specified everywhere)
  and instances under different conditions are shared.
* **Dead code** (`eliminate_dead`): a value no output, check or live instruction uses, from an
  instruction that cannot fail, is removed.
* **Constant folding** (`fold`): an instruction whose operands are all integer or bool
  constants becomes the constant it computes (Python's semantics), unless the result is out of
  its type's range or the division is by zero: that instruction stays, and fails where the IR
  says it does. A `select` or `index` by a constant picks its operand without an instruction.

Every pass keeps the IR's meaning (docs/ir.md): the differential tests compare `simulate`, the
IR interpreter and both back ends on random programs with these passes on.
"""

from __future__ import annotations

from typing import Any

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


class Shared:
    """Remembers emitted instructions by what they compute: op, type, arguments, guard."""

    def __init__(self) -> None:
        self._seen: dict[tuple[Any, ...], int] = {}

    @staticmethod
    def key(ins: dict[str, Any]) -> tuple[Any, ...]:
        return (ins["op"], ins["ty"], tuple(ins["args"]), ins.get("guard"))

    def find(self, ins: dict[str, Any]) -> int | None:
        return self._seen.get(self.key(ins))

    def remember(self, ins: dict[str, Any]) -> None:
        self._seen.setdefault(self.key(ins), ins["id"])

    def forget_from(self, first_id: int) -> None:
        """Forget instructions with ids from `first_id` on (the front end discarded them)."""
        self._seen = {k: v for k, v in self._seen.items() if v < first_id}


def eliminate_dead(
    inputs: list[dict[str, Any]], body: list[dict[str, Any]], outputs: list[int]
) -> list[dict[str, Any]]:
    """`body` without the instructions whose values nothing uses and that cannot fail: every
    instruction without a result (check, point_check, eddsa_check) and every one that can
    fail stays, with what they use."""
    types = {i["id"]: i["ty"] for i in inputs}
    types.update((i["id"], i["ty"]) for i in body if "id" in i)
    consts = {i["id"]: int(i["value"]) for i in body if i["op"] == "const" and i["ty"] != "field"}
    live = set(outputs)
    keep = [False] * len(body)
    for k in range(len(body) - 1, -1, -1):
        ins = body[k]
        args = ins.get("args") or []
        effect = "id" not in ins or (
            ins["op"] in FALLIBLE
            and can_fail(
                ins["op"],
                ins["ty"],
                types.get(args[0]) if args else None,
                consts.get(args[1]) if len(args) > 1 else None,
            )
        )
        if effect or ins.get("id") in live:
            keep[k] = True
            live.update(args)
            if ins.get("guard") is not None:
                live.add(ins["guard"])
    return [ins for ins, k in zip(body, keep, strict=True) if k]


def renumber(
    inputs: list[dict[str, Any]], body: list[dict[str, Any]], outputs: list[dict[str, Any]]
) -> None:
    """Make ids dense again after `eliminate_dead` (inputs first, then values in order), so
    that an id is a value's position, as the IR's readers expect; in place."""
    new: dict[int, int] = {}
    for i in inputs:
        new[i["id"]] = len(new)
        i["id"] = new[i["id"]]
    for ins in body:
        if "args" in ins:
            ins["args"] = [new[a] for a in ins["args"]]
        if ins.get("guard") is not None:
            ins["guard"] = new[ins["guard"]]
        if "id" in ins:
            new[ins["id"]] = len(new)
            ins["id"] = new[ins["id"]]
    for o in outputs:
        o["value"] = new[o["value"]]
