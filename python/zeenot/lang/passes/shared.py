"""Shared subexpressions: an instruction identical to an earlier one (same op, type, arguments
and, for an instruction that can fail, the same guard) is not emitted again; the earlier result
is reused. Unrolled loops and helpers called in loops recompute the same value (`a.zip // 100`
for every pair in a nested comprehension); each is computed once."""

from __future__ import annotations

from typing import Any


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
