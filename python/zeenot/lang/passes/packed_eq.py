"""Equality conjunctions over known widths, packed: `a == b and c == d`, where every operand's
value lies in a known interval, is one equality of packed values,

    (a - lo1) · 2^w + (c - lo2)  ==  (b - lo1) · 2^w + (d - lo2)      (2^w > hi2 - lo2)

and `a != b or c != d` one inequality of the same. Each side is an injective image of its pair
(the low `w` bits hold `c - lo2`, the rest `a - lo1`), so the packed values are equal exactly when
both pairs are. Packing costs nothing in either back end (a cast that holds, a multiplication by
a constant, an addition whose interval fits the type: linear), and an equality costs an inverse
witness, so a conjunction of two equalities (two inverses and a product) becomes one. A chain
`e1 and e2 and e3` packs again: the packed equality of the first two is an equality over known
widths. The natural k-anonymity check, a helper comparing two fields of two records per pair,
then costs what packing each record's group by hand costs (tests/python/test_packed_eq.py).

Intervals are the IR's semantics, so they hold in every satisfying witness: an input's or a
guarded instruction's (whose value is unspecified under a false guard, but within its type,
docs/ir.md "Guards") is its type's range; a constant is itself; arithmetic (an overflow is a
failure: no witness), division and remainder by a constant, casts, selects and lookups compute
or join their operands' intervals, within the result's type. The
packed value is computed in `u64` (or `i64` when an operand is signed) and only when its
largest value fits: no packing instruction can fail, so none takes a guard.

A conjunction is packed only when at least one of its equalities has no other use (otherwise
the equality stays for its other use, and one equality for the conjunction's product saves
nothing). Runs over the whole body before dead code goes (`dead.eliminate_dead` then removes
the equalities nothing uses any more).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from zeenot.lang.passes.guards import FALLIBLE, can_fail
from zeenot.types import int_range

Interval = tuple[int, int]
_PACKS = {"and": "eq", "or": "ne"}  # a conjunction of equalities, a disjunction of inequalities
_UNSIGNED_MAX = (1 << 64) - 1
_SIGNED_MAX = (1 << 63) - 1


def _join(a: Interval | None, b: Interval | None) -> Interval | None:
    return None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))


def _meet(a: Interval, ty: str) -> Interval:
    lo, hi = int_range(ty)
    return max(a[0], lo), min(a[1], hi)


def _interval(ins: dict[str, Any], iv: dict[int, Interval | None], fails: bool) -> Interval | None:
    """The interval of an instruction's value in every satisfying witness (None: not an
    integer, or unknown)."""
    op, ty, args = ins["op"], ins["ty"], ins.get("args") or []
    if ty == "field":
        return None
    if op == "const":
        v = int(ins["value"])
        return v, v
    if op in ("eq", "ne", "lt", "le", "gt", "ge", "and", "or", "not"):
        return 0, 1
    if fails and ins.get("guard") is not None:
        return int_range(ty)  # unspecified under a false guard: only the type's range
    a = [iv.get(x) for x in args]
    out: Interval | None = None
    if op == "floordiv" and a[0] is not None and a[1] is not None and a[1][0] == a[1][1] != 0:
        d = a[1][0]
        ends = (a[0][0] // d, a[0][1] // d)
        out = min(ends), max(ends)
    elif op == "mod" and a[1] is not None and a[1][0] == a[1][1] != 0:
        d = a[1][0]
        out = (0, d - 1) if d > 0 else (d + 1, 0)
    elif op in ("add", "sub", "mul") and a[0] is not None and a[1] is not None:
        (al, ah), (bl, bh) = a[0], a[1]
        if op == "add":
            out = al + bl, ah + bh
        elif op == "sub":
            out = al - bh, ah - bl
        else:
            ends = (al * bl, al * bh, ah * bl, ah * bh)
            out = min(ends), max(ends)
    elif op == "cast" and a[0] is not None:
        out = a[0]
    elif op == "select" and len(a) == 3:
        out = _join(a[1], a[2])
    elif op == "index" and len(a) >= 2:
        out = a[1]
        for x in a[2:]:
            out = _join(out, x)
    return int_range(ty) if out is None else _meet(out, ty)


def _bits(span: int) -> int:
    """Bits that hold every integer in `[0, span]`."""
    return max(span.bit_length(), 1)


class _Packer:
    """Emits the packing instructions (shared: a record's packed key is computed once however
    many pairs compare it) into `out`, with fresh ids from `next_id`."""

    def __init__(
        self,
        out: list[dict[str, Any]],
        types: dict[int, str],
        iv: dict[int, Interval | None],
        next_id: int,
    ):
        self.out, self.types, self.iv, self.next_id = out, types, iv, next_id
        self.memo: dict[tuple[Any, ...], int] = {}
        self.consts: dict[tuple[str, int], int] = {}

    def _emit(self, key: tuple[Any, ...], ins: dict[str, Any]) -> int:
        if key in self.memo:
            return self.memo[key]
        ins = {"id": self.next_id, **ins}
        self.next_id += 1
        self.out.append(ins)
        self.types[ins["id"]] = ins["ty"]
        self.iv[ins["id"]] = _interval(ins, self.iv, False)  # it cannot fail: it fits
        self.memo[key] = ins["id"]
        return ins["id"]

    def const(self, ty: str, v: int, loc: Any) -> int:
        return self._emit(("const", ty, v), {"op": "const", "ty": ty, "value": str(v), "loc": loc})

    def op(self, op: str, ty: str, args: list[int], loc: Any) -> int:
        ins = {"op": op, "ty": ty, "args": args, "loc": loc}
        if op in FALLIBLE:
            ins["guard"] = None  # the interval fits the type: it cannot fail
        return self._emit((op, ty, *args), ins)

    def pack(self, hi: int, lo: int, hi_lo: int, shift: int, lo_lo: int, ty: str, loc: Any) -> int:
        """`(hi - hi_lo) · 2^shift + (lo - lo_lo)` in `ty`."""

        def offset(x: int, base: int) -> int:
            if self.types[x] != ty:
                x = self.op("cast", ty, [x], loc)
            return x if base == 0 else self.op("sub", ty, [x, self.const(ty, base, loc)], loc)

        high = self.op("mul", ty, [offset(hi, hi_lo), self.const(ty, 1 << shift, loc)], loc)
        return self.op("add", ty, [high, offset(lo, lo_lo)], loc)


def pack_equalities(
    inputs: list[dict[str, Any]], body: list[dict[str, Any]], outputs: list[int], next_id: int
) -> list[dict[str, Any]]:
    """`body` with each conjunction of two equalities over known widths (and each disjunction
    of two inequalities) replaced by one (in)equality of packed values; the replaced
    instruction keeps its id. `outputs`: the output values' ids (uses too). New instructions take
    ids from `next_id` on (`dead.renumber` makes them dense)."""
    types = {i["id"]: i["ty"] for i in inputs}
    types.update((i["id"], i["ty"]) for i in body if "id" in i)
    iv: dict[int, Interval | None] = {
        i["id"]: None if i["ty"] == "field" else int_range(i["ty"]) for i in inputs
    }
    uses = Counter(a for ins in body for a in ins.get("args") or [])
    uses.update(ins["guard"] for ins in body if ins.get("guard") is not None)
    uses.update(outputs)
    defs: dict[int, dict[str, Any]] = {}
    out: list[dict[str, Any]] = []
    packer = _Packer(out, types, iv, next_id)
    for ins in body:
        if "id" not in ins:
            out.append(ins)
            continue
        args = ins.get("args") or []
        replaced = None
        if ins["op"] in _PACKS and len(args) == 2:
            replaced = _packed(ins, [defs.get(a) for a in args], iv, uses, packer)
        if replaced is not None:
            ins = replaced
        fails = ins["op"] in FALLIBLE and can_fail(
            ins["op"],
            ins["ty"],
            types.get(args[0]) if args else None,
            iv_const(iv, args[1]) if len(args) > 1 else None,
        )
        iv[ins["id"]] = _interval(ins, iv, fails)
        defs[ins["id"]] = ins
        out.append(ins)
    return out


def iv_const(iv: dict[int, Interval | None], x: int) -> int | None:
    """The value of a constant operand (an interval of one point), else None."""
    v = iv.get(x)
    return v[0] if v is not None and v[0] == v[1] else None


def _packed(
    ins: dict[str, Any],
    parts: list[dict[str, Any] | None],
    iv: dict[int, Interval | None],
    uses: Counter[int],
    packer: _Packer,
) -> dict[str, Any] | None:
    """The packed (in)equality replacing `ins` (an `and` of two `eq`, an `or` of two `ne`), or
    None when it does not apply."""
    want = _PACKS[ins["op"]]
    if any(p is None or p["op"] != want for p in parts):
        return None
    first, second = parts
    assert first is not None and second is not None
    if uses[first["id"]] > 1 and uses[second["id"]] > 1:
        return None  # both stay for their other uses: nothing saved
    (a, b), (c, d) = first["args"], second["args"]
    high, low = _join(iv.get(a), iv.get(b)), _join(iv.get(c), iv.get(d))
    if high is None or low is None:
        return None  # field elements, or unknown
    types = packer.types
    signed = any(types[x].startswith("i") for x in (a, b, c, d))
    if signed and any(types[x] == "u64" for x in (a, b, c, d)):
        return None  # no signed type holds both
    ty, top = ("i64", _SIGNED_MAX) if signed else ("u64", _UNSIGNED_MAX)
    shift = _bits(low[1] - low[0])
    if ((high[1] - high[0]) << shift) + (1 << shift) - 1 > top:
        return None  # the packed value would not fit
    loc = ins.get("loc")
    left = packer.pack(a, c, high[0], shift, low[0], ty, loc)
    right = packer.pack(b, d, high[0], shift, low[0], ty, loc)
    out = {"id": ins["id"], "op": want, "ty": "bool", "args": [left, right]}
    if loc is not None:
        out["loc"] = loc
    return out
