"""Random well-typed zeenot programs over lists (hypothesis strategies), for differential tests.

`list_programs()` yields a `GenProgram` (see progen.py) whose parameters include lists
`MaxSize[list[T], N]` (N = 0..5) of scalars or of a record type, and whose body uses every list
construct of the language: comprehensions with filters, generator expressions in `sum`, `len`,
`min`/`max` (with defaults), `any`/`all`, `next`/`find`, `reduce` with a lambda, accumulating
`for` loops with `if`s, `enumerate`, `zip` with slices, private indexing (guarded or failing),
`map`/`filter`, lists returned as outputs. Element expressions come from progen's scalar
generator, so overflows, divisions by zero and failed checks happen inside list operations, in
real elements (they count) and in padding (they must not).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from .progen import CTOR, INTS, GenProgram, _Gen, _tyname, value_strategy

ELEMS = ("u8", "i8", "u16", "u32")
RECORD = (("a", "u16"), ("b", "i8"), ("ok", "bool"))


class _ListGen(_Gen):
    def __init__(self, draw: Any):
        super().__init__(draw)
        self.lists: dict[str, tuple[Any, int, bool]] = {}  # name -> (elem type, slots, dense)

    def elem_expr(self, t: str, var: str, et: Any, env: dict[str, Any], d: int) -> str:
        """An expression of type `t` that may use the element `var` (of type `et`)."""
        local = dict(env)
        if isinstance(et, tuple):  # a record: its fields as plain names are not in scope, so
            for f, ft in RECORD:  # alias them through attribute access below
                local[f"{var}.{f}"] = ft
        else:
            local[var] = et
        return self.expr(t, local, [], d)

    def cond(self, var: str, et: Any, env: dict[str, Any]) -> str:
        return self.elem_expr("bool", var, et, env, self.draw(st.integers(1, 2)))

    def list_stmt(self, env: dict[str, Any]) -> None:
        names = sorted(self.lists)
        name = self.pick(names)
        et, slots, dense = self.lists[name]
        dense_names = [n for n in names if self.lists[n][2]]
        t = self.pick(INTS)
        out = self.fresh()
        v = "v"
        ops = ["sum", "len", "minmax", "anyall", "loop", "next", "find", "map", "reduce"]
        if dense:
            ops += ["enumerate", "index", "slice_sum"]
        if len(dense_names) >= 1:
            ops += ["zip"]
        if not isinstance(et, tuple) and et != "bool":
            ops += ["minmax_direct", "filter", "in"]
        if dense:
            ops += ["rangelen"]
        k = self.pick(ops)
        d = self.draw(st.integers(1, 2))
        line: str
        if k == "sum":
            e = self.elem_expr(t, v, et, env, d)
            flt = f" if {self.cond(v, et, env)}" if self.chance(0.5) else ""
            line = f"{out} = sum(({e} for {v} in {name}{flt}), {CTOR[t]}(0))"
        elif k == "len":
            flt = f" if {self.cond(v, et, env)}" if self.chance(0.7) else ""
            line = f"{out} = u32(len([{v} for {v} in {name}{flt}]))"
            t = "u32"
        elif k == "minmax":
            e = self.elem_expr(t, v, et, env, d)
            f = self.pick(["min", "max"])
            line = f"{out} = {f}(({e} for {v} in {name}), default={self.literal(t)})"
        elif k == "minmax_direct":
            f = self.pick(["min", "max"])
            t = et
            if self.chance(0.7):
                line = f"{out} = {f}({name}, default={self.literal(t)})"
            else:  # no default: fails on an empty list
                line = f"{out} = {f}({name})"
        elif k == "anyall":
            f = self.pick(["any", "all"])
            line = f"{out} = {f}({self.cond(v, et, env)} for {v} in {name})"
            t = "bool"
        elif k == "loop":
            self.lines.append(f"    {out} = {self.literal(t)}")
            self.lines.append(f"    for {v} in {name}:")
            self.lines.append(f"        if {self.cond(v, et, env)}:")
            e = self.elem_expr(t, v, et, {**env, out: t}, d)
            self.lines.append(f"            {out} = {out} {self.pick(['+', '-', '*'])} {e}")
            if self.chance(0.4):
                self.lines.append(f"        check({self.cond(v, et, {**env, out: t})})")
            env[out] = t
            return
        elif k == "next":
            e = self.elem_expr(t, v, et, env, d)
            dflt = f", {self.literal(t)}" if self.chance(0.7) else ""
            line = f"{out} = next(({e} for {v} in {name} if {self.cond(v, et, env)}){dflt})"
        elif k == "find":
            if isinstance(et, tuple):
                dflt = "REC0"
                res = self.fresh()
                self.lines.append(
                    f"    {res} = find({name}, lambda {v}: {self.cond(v, et, env)}, {dflt})"
                )
                line = f"{out} = {res}.a"
                t = "u16"
            else:
                dflt = f", {self.literal(et)}" if self.chance(0.7) else ""
                line = f"{out} = find({name}, lambda {v}: {self.cond(v, et, env)}{dflt})"
                t = et
        elif k == "map":
            e = self.elem_expr(t, v, et, env, d)
            flt = f" if {self.cond(v, et, env)}" if self.chance(0.4) else ""
            line = f"{out} = [{e} for {v} in {name}{flt}]"
            self.lines.append(f"    {line}")
            self.lists[out] = (t, slots, dense and not flt)
            return
        elif k == "filter":
            line = f"{out} = list(filter(lambda {v}: {self.cond(v, et, env)}, {name}))"
            self.lines.append(f"    {line}")
            self.lists[out] = (et, slots, False)
            return
        elif k == "reduce":
            acc = "acc"
            e = self.elem_expr(t, v, et, {**env, acc: t}, d)
            line = f"{out} = reduce(lambda {acc}, {v}: {e}, {name}, {self.literal(t)})"
        elif k == "enumerate":
            e = self.elem_expr(t, v, et, env, d)
            self.lines.append(f"    {out} = {self.literal(t)}")
            self.lines.append(f"    for i, {v} in enumerate({name}):")
            self.lines.append("        if i % 2 == 0:")
            self.lines.append(f"            {out} = {out} + {e}")
            env[out] = t
            return
        elif k == "index":
            idx = "idx"
            if isinstance(et, tuple):
                if self.chance(0.5):
                    line = f"{out} = {name}[{idx}].a if {idx} < len({name}) else u16(7)"
                else:
                    line = f"{out} = {name}[{idx}].a"
                t = "u16"
            else:
                t = et
                if self.chance(0.5):
                    line = f"{out} = {name}[{idx}] if {idx} < len({name}) else {self.literal(t)}"
                else:
                    line = f"{out} = {name}[{idx}]"
        elif k == "in":
            neg = self.pick(["", "not "])
            line = f"{out} = {self.literal(et)} {neg}in {name}"
            t = "bool"
        elif k == "rangelen":
            self.lines.append(f"    {out} = {self.literal(t)}")
            self.lines.append(f"    for i in range(len({name})):")
            e = self.elem_expr(t, f"{name}[i]", et, {**env, out: t}, d)
            self.lines.append(f"        {out} = {out} {self.pick(['+', '-', '*'])} {e}")
            env[out] = t
            return
        elif k == "slice_sum":
            e = self.elem_expr(t, v, et, env, d)
            lo = self.draw(st.integers(0, 2))
            hi = self.draw(st.integers(lo, 6))
            line = f"{out} = sum(({e} for {v} in {name}[{lo}:{hi}]), {CTOR[t]}(0))"
        else:  # zip
            other = self.pick(dense_names)
            ot = self.lists[other][0]
            if not dense:
                name, et = other, ot
            shift = self.draw(st.integers(0, 1))
            local = dict(env)
            for var, ty in (("x", et), ("y", ot)):
                if isinstance(ty, tuple):
                    for f, ft in RECORD:
                        local[f"{var}.{f}"] = ft
                else:
                    local[var] = ty
            e = self.expr(t, local, [], d)
            src = f"{other}[{shift}:]" if shift else other
            line = f"{out} = sum(({e} for x, y in zip({name}, {src})), {CTOR[t]}(0))"
        self.lines.append(f"    {line}")
        env[out] = t


@st.composite
def list_programs(draw: Any) -> GenProgram:
    g = _ListGen(draw)
    out = [
        "from dataclasses import dataclass",
        "from functools import reduce",
        "",
        "from zeenot import Field, MaxSize, Private, Public, check, find",
        "from zeenot import i8, i16, u8, u16, u32, zk",
        "",
        "",
        "@dataclass(frozen=True)",
        "class Rec:",
        *[f"    {f}: {_tyname(t)}" for f, t in RECORD],
        "",
        "",
        "REC0 = Rec(a=u16(0), b=i8(0), ok=False)",
        "",
        "",
    ]
    params: dict[str, Any] = {}
    sig: list[str] = []
    for j in range(draw(st.integers(1, 2))):
        et: Any = RECORD if g.chance(0.3) else g.pick(ELEMS)
        n = draw(st.integers(0, 5))
        name = f"L{j}"
        params[name] = ("list", et, n)
        g.lists[name] = (et, n, True)
        tyname = "Rec" if isinstance(et, tuple) else _tyname(et)
        sig.append(f"{name}: {g.pick(['Private', 'Public'])}[MaxSize[list[{tyname}], {n}]]")
    params["s"] = g.pick(INTS)
    sig.append(f"s: {g.pick(['Private', 'Public'])}[{_tyname(params['s'])}]")
    params["idx"] = "u8"
    sig.append("idx: Private[u8]")
    env: dict[str, Any] = {"s": params["s"]}
    for _ in range(draw(st.integers(1, 4))):
        g.list_stmt(env)
    scalars = {n: t for n, t in env.items() if isinstance(t, str) and t != "int" and n != "idx"}
    rets = [g.pick(sorted(scalars)) for _ in range(draw(st.integers(1, 2)))]
    rtys = [scalars[r] for r in rets]
    dense_lists = [
        n for n, (et, _, dense) in g.lists.items() if dense and not isinstance(et, tuple)
    ]
    if dense_lists and g.chance(0.3):
        ln = g.pick(dense_lists)
        et, slots, _ = g.lists[ln]
        rets.append(ln)
        rtys.append(f"MaxSize[list[{_tyname(et)}], {slots}]")
    ret_ann = "tuple[" + ", ".join(t if "[" in t else _tyname(t) for t in rtys) + "]"
    out.append("@zk")
    out.append(f"def main({', '.join(sig)}) -> {ret_ann}:")
    out += g.lines
    out.append(f"    return {', '.join(rets)},")
    source = "\n".join(out) + "\n"
    strategy = st.fixed_dictionaries({n: _strategy(t) for n, t in params.items()})
    return GenProgram(source, "main", strategy, params)


def _strategy(t: Any) -> Any:
    if isinstance(t, tuple) and t and t[0] == "list":
        _, et, n = t
        return st.lists(_strategy(et), max_size=n)
    if isinstance(t, tuple):  # the record
        return st.fixed_dictionaries({f: value_strategy(ft) for f, ft in t})
    if t == "u8":  # the index: mostly in range of the short lists
        return st.one_of(st.integers(0, 6), st.integers(0, 255))
    return value_strategy(t)


def over_long(t: Any) -> Any:
    """A strategy of lists one element longer than the bound, for a list parameter type."""
    _, et, n = t
    return st.lists(_strategy(et), min_size=n + 1, max_size=n + 1)
