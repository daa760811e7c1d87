"""Sorting and sets: `sorted` by Batcher's odd-even merge network, `set(xs)` and `& | - ^` on
sets (by the network or by pairwise equality, whichever costs less), and `group_sum`.
"""

from __future__ import annotations

import ast
from typing import Any

from zeenot.lang.values import SymList, describe
from zeenot.types import INT_TYPES, int_range


class SetsAndSorting:
    """Sorting and sets of `Compiler` (a mixin)."""

    def list_sorted(self, xs: SymList, key: Any, reverse: bool, node: ast.AST) -> SymList:
        """`sorted(xs, key=..., reverse=...)` by Batcher's odd-even merge sort (`sort_slots`).
        Empty slots sort last, so the result has the list's (private) length and its active
        prefix. With `key=`, ties keep the original order (as Python's sort is stable: each
        element carries its slot number as a second key); without it, elements are integers
        and equal ones are indistinguishable. A filtered list (or a set) sorts to a dense one."""
        if key is None:
            keys = list(xs.elems)
            key_ty = xs.elem_ty
        else:
            keys = [
                self.under(a, node, lambda x=x: self.apply(key, [x], node))
                for x, a in zip(xs.elems, xs.active, strict=True)
            ]
            key_ty = self.elem_type(keys) if keys else "u32"
        self.need_int_keys(key_ty, keys, "`sorted()`", node)
        _, (vals,), act = self.sort_slots(
            keys, [list(xs.elems)], list(xs.active), key_ty, reverse, key is not None, node
        )
        if xs.dense:  # the same active prefix: keep its flags (and the length they define)
            return SymList(tuple(vals), xs.active, xs.length, xs.elem_ty, True)
        return SymList(tuple(vals), tuple(act), xs.length, xs.elem_ty, True)

    def need_int_keys(self, key_ty: Any, keys: list[Any], what: str, node: ast.AST) -> None:
        if key_ty not in INT_TYPES:
            self.err(
                node,
                "ZN303",
                f"{what} sorts by integers, not {describe(keys[0]) if keys else key_ty}",
                "sort integers (u8 … u64, i8 … i64), or give `key=` returning one",
            )

    def need_set_values(self, ty: Any, elems: list[Any], what: str, node: ast.AST) -> None:
        """A set holds integers (by the sorting network or pairwise equality) or `Field` values
        (hashed contacts, Poseidon digests: by pairwise equality, as a field has no order)."""
        if ty not in INT_TYPES and ty != "field":
            self.err(
                node,
                "ZN303",
                f"{what} holds integers or Field values, not {describe(elems[0]) if elems else ty}",
                "make a set of one integer or Field per element, e.g. "
                "`set(poseidon(c.name, c.phone) for c in contacts)` or `set(r.id for r in rows)`",
            )

    def sort_slots(
        self,
        keys: list[Any],
        columns: list[list[Any]],
        act: list[Any],
        key_ty: Any,
        reverse: bool,
        stable: bool,
        node: ast.AST,
    ) -> tuple[list[Any], list[list[Any]], list[Any]]:
        """Sort slots by (active first, key, and with `stable` the slot number) with a fixed
        network of O(n log² n) compare-exchanges over the slots padded to a power of two,
        never O(n²). Returns the keys, each column and the active flags, in sorted order."""
        slots = len(keys)
        n = 1 << max(slots - 1, 0).bit_length()
        pad = n - slots
        keys = keys + [self.const(key_ty, 0)] * pad
        columns = [list(c) + [c[0] if c else 0] * pad for c in columns]
        act = list(act) + [False] * pad
        order: list[Any] = [self.const("u32", k) for k in range(n)] if stable else []
        op: ast.cmpop = ast.Lt() if reverse else ast.Gt()
        for i, j in _odd_even_merge_network(n):
            # slot i should hold the earlier element: active first, then by key, then by slot
            later = self.compare(op, keys[i], keys[j], node)
            if order:
                tie = self.logic(
                    "and",
                    self.compare(ast.Eq(), keys[i], keys[j], node),
                    self.compare(ast.Gt(), order[i], order[j], node),
                    node,
                )
                later = self.logic("or", later, tie, node)
            swap = self.logic(
                "or",
                self.logic("and", self.negate(act[i], node), act[j], node),
                self.logic("and", self.logic("and", act[i], act[j], node), later, node),
                node,
            )
            if swap is False:
                continue
            for column in (keys, *columns, order) if order else (keys, *columns):
                column[i], column[j] = (
                    self.pick(swap, column[j], column[i], node, "`sorted()`"),
                    self.pick(swap, column[i], column[j], node, "`sorted()`"),
                )
            act[i], act[j] = (
                self.logic("or", act[i], act[j], node),
                self.logic("and", act[i], act[j], node),
            )
        return keys[:slots], [c[:slots] for c in columns], act[:slots]

    def list_set(self, xs: SymList, node: ast.AST) -> SymList:
        """`set(xs)` of integers or `Field` values: a sparse list of the distinct values (each
        value's first slot kept active), on which `len`, `in`, `sum`, comprehensions, `sorted`
        and `& | - ^` work.
        Built the cheaper way for the list's size (`_set_by_sorting`): by the sorting network,
        O(n log² n) comparisons, or by pairwise equality tests, O(n²) but each a few
        constraints where a comparison costs one per bit."""
        if xs.distinct:
            return xs
        self.need_set_values(xs.elem_ty, list(xs.elems), "`set()`", node)
        if not _set_by_sorting(xs.slots, xs.slots * (xs.slots - 1) // 2, xs.elem_ty):
            first = []
            for i, (x, a) in enumerate(zip(xs.elems, xs.active, strict=True)):
                seen: Any = False
                for y, b in zip(xs.elems[:i], xs.active[:i], strict=True):
                    same = self.logic("and", b, self.compare(ast.Eq(), x, y, node), node)
                    seen = self.logic("or", seen, same, node)
                first.append(self.logic("and", a, self.negate(seen, node), node))
            return SymList(xs.elems, tuple(first), None, xs.elem_ty, False, True)
        keys, _, act = self.sort_slots(
            list(xs.elems), [], list(xs.active), xs.elem_ty, False, False, node
        )
        first = [
            a
            if i == 0
            else self.logic("and", a, self.compare(ast.NotEq(), keys[i], keys[i - 1], node), node)
            for i, a in enumerate(act)
        ]
        return SymList(tuple(keys), tuple(first), None, xs.elem_ty, False, True)

    def list_group_sum(self, xs: SymList, key: Any, value: Any, node: ast.AST) -> SymList:
        """`group_sum(xs, key, value)`: the slots sorted by key, stably (so each group's values
        are added in the list's order, as Python does), running sums that restart at each new
        key, and the last slot of each group kept: a filtered list of `(key, total)`."""
        keys, vals = [], []
        for x, a in zip(xs.elems, xs.active, strict=True):
            keys.append(self.under(a, node, lambda x=x: self.apply(key, [x], node)))
            vals.append(self.under(a, node, lambda x=x: self.apply(value, [x], node)))
        key_ty = self.elem_type(keys) if keys else "u32"
        val_ty = self.elem_type(vals) if vals else "u32"
        self.need_int_keys(key_ty, keys, "`group_sum()`", node)
        if val_ty not in INT_TYPES:
            self.err(
                node,
                "ZN303",
                f"`group_sum()` adds integers, not {describe(vals[0]) if vals else val_ty}",
                "give the value a sized type, e.g. `lambda p: u64(p.cents)` or `lambda p: u32(1)`",
            )
        keys, (vals,), act = self.sort_slots(
            keys, [vals], list(xs.active), key_ty, False, True, node
        )
        same_prev = self.repeats(keys, act, node)
        totals: list[Any] = []
        zero = self.const(val_ty, 0)
        for i, a in enumerate(act):
            before = (
                self.pick(same_prev[i], totals[i - 1], zero, node, "`group_sum()`") if i else zero
            )
            totals.append(self.binop(ast.Add(), before, self.mask(a, vals[i], node), node))
        last = [
            self.logic("and", a, self.negate(same_prev[i + 1], node), node)
            if i + 1 < len(act)
            else a
            for i, a in enumerate(act)
        ]
        pairs = tuple(zip(keys, totals, strict=True))
        return SymList(pairs, tuple(last), None, (key_ty, val_ty), False)

    def repeats(self, keys: list[Any], act: list[Any], node: ast.AST) -> list[Any]:
        """For sorted slots (active ones first, so an active slot's predecessor is active):
        whether each is active and holds its predecessor's key."""
        return [False] + [
            self.logic("and", act[i], self.compare(ast.Eq(), keys[i], keys[i - 1], node), node)
            for i in range(1, len(keys))
        ]

    def set_binop(self, op: ast.operator, sym: str, a: Any, b: Any, node: ast.AST) -> SymList:
        """`a & b`, `a | b`, `a - b`, `a ^ b` on sets (each side distinct), the cheaper way:
        both sides' values sorted together, where equal neighbours are exactly the values in
        both; or every pair of values tested for equality."""
        if not (
            isinstance(a, SymList) and isinstance(b, SymList) and a.distinct and b.distinct
        ) or not isinstance(op, (ast.BitAnd, ast.BitOr, ast.Sub, ast.BitXor)):
            self.err(
                node,
                "ZN303",
                f"unsupported operation {describe(a)} {sym} {describe(b)}",
                "`&`, `|`, `-` and `^` combine sets made with `set(xs)`",
            )
        ty = self.elem_type([*a.elems, *b.elems]) if a.elems or b.elems else a.elem_ty
        self.need_set_values(ty, [*a.elems, *b.elems], f"`{sym}` of sets", node)
        if _set_by_sorting(a.slots + b.slots, a.slots * b.slots, ty):
            return self.set_binop_sorted(op, a, b, ty, node)
        # in_b[i]: a's value i is one of b's; in_a[j]: b's value j is one of a's
        in_b: list[Any] = [False] * a.slots
        in_a: list[Any] = [False] * b.slots
        for i, (x, p) in enumerate(zip(a.elems, a.active, strict=True)):
            for j, (y, q) in enumerate(zip(b.elems, b.active, strict=True)):
                both = self.logic(
                    "and", self.logic("and", p, q, node), self.compare(ast.Eq(), x, y, node), node
                )
                in_b[i] = self.logic("or", in_b[i], both, node)
                in_a[j] = self.logic("or", in_a[j], both, node)

        def only(active: tuple[Any, ...], other: list[Any]) -> list[Any]:
            return [
                self.logic("and", p, self.negate(o, node), node)
                for p, o in zip(active, other, strict=True)
            ]

        if isinstance(op, ast.BitAnd):
            return SymList(a.elems, tuple(in_b), None, ty, False, True)
        if isinstance(op, ast.Sub):
            return SymList(a.elems, tuple(only(a.active, in_b)), None, ty, False, True)
        left = list(a.active) if isinstance(op, ast.BitOr) else only(a.active, in_b)
        keep = (*left, *only(b.active, in_a))
        return SymList((*a.elems, *b.elems), keep, None, ty, False, True)

    def set_binop_sorted(
        self, op: ast.operator, a: SymList, b: SymList, ty: Any, node: ast.AST
    ) -> SymList:
        keys = [*a.elems, *b.elems]
        from_a = [True] * a.slots + [False] * b.slots
        keys, (from_a,), act = self.sort_slots(
            keys, [from_a], [*a.active, *b.active], ty, False, False, node
        )
        same_prev = self.repeats(keys, act, node)
        same_next = [*same_prev[1:], False]
        keep: list[Any] = []
        for i, a_i in enumerate(act):
            if isinstance(op, ast.BitAnd):  # the second of an equal pair
                k = same_prev[i]
            elif isinstance(op, ast.BitOr):  # the first of each value
                k = self.logic("and", a_i, self.negate(same_prev[i], node), node)
            else:  # a value with no equal neighbour: in one set only
                alone = self.logic(
                    "and",
                    self.negate(same_prev[i], node),
                    self.negate(same_next[i], node),
                    node,
                )
                k = self.logic("and", a_i, alone, node)
                if isinstance(op, ast.Sub):
                    k = self.logic("and", k, from_a[i], node)
            keep.append(k)
        return SymList(tuple(keys), tuple(keep), None, ty, False, True)


# Constraint costs for choosing how to build a set, fitted on distinct counts of u8 and u32
# lists of 16 to 256 values: an equality test with its bookkeeping, and a compare-exchange of
# the sorting network per key bit (a comparison range-checks the difference) plus its selects.
_EQ_PAIR_COST = 6


_EXCHANGE_COST = 5


def _set_by_sorting(slots: int, pairs: int, ty: Any) -> bool:
    """Whether sorting `slots` values of type `ty` costs less than `pairs` equality tests.
    `Field` values have no order: always by equality."""
    if ty not in INT_TYPES:
        return False
    n = 1 << max(slots - 1, 0).bit_length()
    lo, hi = int_range(ty) if ty in INT_TYPES else (0, 1)
    bits = max((hi - lo).bit_length(), 1)
    by_sorting = len(_odd_even_merge_network(n)) * (bits + _EXCHANGE_COST) + _EQ_PAIR_COST * slots
    return by_sorting < _EQ_PAIR_COST * pairs


def _odd_even_merge_network(n: int) -> list[tuple[int, int]]:
    """Batcher's odd-even merge sort for `n` (a power of two) slots: the compare-exchanges
    `(i, j)`, `i < j`, that sort any input ascending (191 for 32 slots)."""
    out = []
    p = 1
    while p < n:
        k = p
        while k >= 1:
            for j in range(k % p, n - k, 2 * k):
                for i in range(min(k, n - j - k)):
                    if (i + j) // (2 * p) == (i + j + k) // (2 * p):
                        out.append((i + j, i + j + k))
            k //= 2
        p *= 2
    return out
