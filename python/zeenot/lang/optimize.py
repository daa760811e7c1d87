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

Every pass keeps the IR's meaning (docs/ir.md): the differential tests compare `simulate`, the
IR interpreter and both back ends on random programs with these passes on.
"""

from __future__ import annotations

import json
from typing import Any

FALLIBLE = {"add", "sub", "mul", "neg", "floordiv", "mod", "cast", "index"}

_BITS = {"u8": 8, "u16": 16, "u32": 32, "u64": 64, "i8": 8, "i16": 16, "i32": 32, "i64": 64}


def _holds(source: str, target: str) -> bool:
    """Whether every value of type `source` is a value of type `target`."""
    if target == "field" or source == target:
        return True
    if source == "bool":
        return target in _BITS
    if source not in _BITS or target not in _BITS:
        return False
    s_signed, t_signed = source[0] == "i", target[0] == "i"
    if s_signed and not t_signed:
        return False
    if t_signed and not s_signed:
        return _BITS[target] > _BITS[source]
    return _BITS[target] >= _BITS[source]


def can_fail(
    op: str, args: list[int], types: dict[int, str], ty: str, consts: dict[int, int]
) -> bool:
    """Whether an instruction of a FALLIBLE op can fail, judged from its operands' types and
    constant operands alone."""
    if ty == "field" and op in ("add", "sub", "mul", "neg"):
        return False  # arithmetic modulo p
    if op in ("floordiv", "mod"):
        divisor = consts.get(args[1])
        return divisor is None or divisor in (0, -1)
    if op == "cast":
        return not _holds(types.get(args[0], "field"), ty)
    return True


class Shared:
    """Remembers emitted instructions by what they compute."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    @staticmethod
    def key(ins: dict[str, Any]) -> str:
        fields = {k: v for k, v in ins.items() if k not in ("id", "loc")}
        return json.dumps(fields, sort_keys=True, separators=(",", ":"))

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
        effect = "id" not in ins or (
            ins["op"] in FALLIBLE
            and can_fail(ins["op"], ins.get("args") or [], types, ins["ty"], consts)
        )
        if effect or ins.get("id") in live:
            keep[k] = True
            live.update(ins.get("args") or [])
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
