"""Indexing and slicing: `xs[i]` and `t[i]` by a constant or a run-time index (one `index`
instruction per scalar leaf, with the bounds checked as Python's IndexError), and slices.
"""

from __future__ import annotations

import ast
from typing import Any

from zeenot.lang.values import PLAIN_TY, IntChoice, PlainWire, SymList, SymRecord, Wire, describe
from zeenot.types import int_range, is_signed, type_name


class Indexing:
    """Indexing of `Compiler` (a mixin)."""

    specialised: bool

    def index_list(self, xs: SymList, idx: Any, node: ast.Subscript) -> Any:
        self.need_dense(xs, node.value, "indexing")
        if isinstance(idx, int) and not isinstance(idx, bool):
            if idx < 0:
                if all(a is True for a in xs.active):
                    idx += xs.slots
                else:
                    self.err(
                        node.slice,
                        "ZN209",
                        "a negative index into a list of private length is not supported",
                        "write `xs[len(xs) - 1]`",
                    )
            if not 0 <= idx < xs.slots:
                if self.specialised and xs.elem_ty is not None:
                    bad = f"{self.src(node)}: index out of range"
                    self.emit_check(self.const("bool", False), node, bad)
                    return self.zero_of(xs.elem_ty)
                self.err(
                    node.slice,
                    "ZN209",
                    f"index {idx} is beyond the list's maximum size {xs.slots}",
                )
            a = xs.active[idx]
            if a is not True:
                self.emit_check(self.as_bool_wire(a), node, f"{self.src(node)}: index out of range")
            return xs.elems[idx]
        if isinstance(idx, IntChoice):
            w = self.materialize(idx, PLAIN_TY, node)
            idx = PlainWire(w.id, w.ty)
        if not isinstance(idx, Wire):
            self.err(node.slice, "ZN209", f"cannot index a list with {describe(idx)}")
        bad = f"{self.src(node)}: index out of range"
        if xs.slots == 0:  # always out of range: fails wherever it is reached
            if xs.elem_ty is None:
                self.err(node, "ZN209", "indexing a list that is always empty")
            self.emit_check(self.const("bool", False), node, bad)
            return self.zero_of(xs.elem_ty)
        n = self.list_len(xs, node)
        if isinstance(idx, PlainWire):  # a run-time plain int: negative counts from the end
            neg = self.compare(ast.Lt(), idx, 0, node)
            back = self.under(neg, node, lambda: self.binop(ast.Add(), idx, n, node))
            idx = self.merge(neg, back, idx, node, "the index")
            ok = self.compare(ast.GtE(), idx, 0, node)
            self.emit_check(self.as_bool_wire(ok), node, bad)
        else:
            self.check_index_type(idx, node)
        always_below = (
            isinstance(n, int) and not isinstance(idx, PlainWire) and n > int_range(idx.ty)[1]
        )
        if not always_below:  # fails as a `check`, like Python's IndexError in `simulate`
            ok = self.compare(ast.Lt(), idx, n, node)
            if ok is not True:
                self.emit_check(self.as_bool_wire(ok), node, bad)
        return self.lookup_values(idx, list(xs.elems), node)

    def check_index_type(self, idx: Wire, node: ast.Subscript) -> None:
        if idx.ty in ("bool", "field") or is_signed(idx.ty):
            self.err(
                node.slice,
                "ZN209",
                f"a private index must have an unsigned integer type, got {type_name(idx.ty)}",
                "convert it, e.g. `xs[u32(i)]` (negative indices are not supported)",
            )

    def index_tuple(self, t: tuple, idx: Wire, node: ast.Subscript) -> Any:
        self.check_index_type(idx, node)
        if not t:
            self.err(node, "ZN209", "indexing an empty tuple")
        if len(t) <= int_range(idx.ty)[1]:  # fails as `check` does, like an index into a list
            ok = self.compare(ast.Lt(), idx, len(t), node)
            self.emit_check(self.as_bool_wire(ok), node, f"{self.src(node)}: index out of range")
        return self.lookup_values(idx, list(t), node)

    def lookup_values(self, idx: Wire, values: list[Any], node: ast.AST) -> Any:
        """`values[idx]` for a private `idx`: one `index` instruction per scalar leaf (the groth16
        back end shares one one-hot selector between them)."""
        v0 = values[0]
        if isinstance(v0, tuple):
            if not all(isinstance(v, tuple) and len(v) == len(v0) for v in values):
                self.err(node, "ZN306", "a private index needs elements of one shape")
            return tuple(
                self.lookup_values(idx, [v[k] for v in values], node) for k in range(len(v0))
            )
        if isinstance(v0, SymRecord):
            if not all(isinstance(v, SymRecord) and v.ty == v0.ty for v in values):
                self.err(node, "ZN306", "a private index needs elements of one type")
            fields = range(len(v0.values))
            return SymRecord(
                v0.ty,
                tuple(self.lookup_values(idx, [v.values[k] for v in values], node) for k in fields),
            )
        if isinstance(v0, SymList):
            if not all(isinstance(v, SymList) and v.slots == v0.slots for v in values):
                self.err(node, "ZN306", "a private index needs lists of one maximum size")
            elems = tuple(
                self.lookup_values(idx, [v.elems[k] for v in values], node) for k in range(v0.slots)
            )
            active = tuple(
                self.lookup_values(idx, [v.active[k] for v in values], node)
                for k in range(v0.slots)
            )
            lens = [self.list_len(v, node) for v in values]
            length = self.lookup_values(idx, lens, node)
            return SymList(elems, active, length, v0.elem_ty, all(v.dense for v in values))
        ty = self.scalar_lookup_type(idx, values, node)
        wires = [self.materialize(v, ty, node) if not isinstance(v, Wire) else v for v in values]
        w = self.emit("index", ty, [idx, *wires], node)
        if all(isinstance(v, PlainWire) or type(v) is int for v in values):
            return PlainWire(w.id, w.ty)  # lengths of nested lists stay plain ints
        return w

    def scalar_lookup_type(self, idx: Wire, values: list[Any], node: ast.AST) -> str:
        tys = {v.ty for v in values if isinstance(v, Wire)}
        if any(isinstance(v, bool) for v in values):
            tys.add("bool")
        for v in values:
            if not isinstance(v, (Wire, bool, int, IntChoice)):
                self.err(node, "ZN303", f"cannot index elements of type {describe(v)}")
        if len(tys) > 1:
            self.err(node, "ZN306", "a private index needs elements of one type")
        if tys:
            return tys.pop()
        # plain ints (a constant table): they take the index's type, as a literal would
        lo, hi = int_range(idx.ty)
        for v in values:
            if isinstance(v, int) and not lo <= v <= hi:
                self.err(
                    node,
                    "ZN302",
                    f"the table entry {v} does not fit {type_name(idx.ty)}, the index's type",
                    "type the table's entries, e.g. `(u32(500), u32(900))`",
                )
        return idx.ty

    def slice_list(self, xs: SymList, parts: list[Any], node: ast.Subscript) -> SymList:
        lo, hi, step = parts
        if step not in (None, 1):
            self.err(node.slice, "ZN209", "list slices take no step")
        if (lo is not None and lo < 0) or (hi is not None and hi < 0):
            if not all(a is True for a in xs.active):
                self.err(
                    node.slice,
                    "ZN209",
                    "negative slice bounds on a list of private length are not supported",
                    "slice from the front: `xs[1:]`, `xs[:k]`",
                )
        self.need_dense(xs, node.value, "slicing")
        r = slice(lo, hi)
        elems, active = xs.elems[r], xs.active[r]
        length = len(elems) if all(a is True for a in active) else None
        return SymList(elems, active, length, xs.elem_ty, True)
