"""Random well-typed zeenot programs for differential testing (hypothesis strategies).

`programs()` yields `GenProgram(source_text, fn_name, inputs_strategy)`: write `source_text` to a
`.py` file, load `fn_name` from it, and draw JSON inputs from `inputs_strategy`. The programs
use arithmetic (which often overflows on small types: failures are part of what is compared),
`if`/`elif`/`else`, conditional expressions, `and`/`or`/`not`, chained comparisons, unrolled
loops, inlined helpers, `check`, casts, `min`/`max`/`abs` and tuples, over the types u8, i8, u16,
i16, u32, Field and bool, plus plain ints chosen at run time (`k = 3 if c else 1`, untyped until
they meet a typed value).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

INTS = ("u8", "i8", "u16", "i16", "u32")
NUMERIC = (*INTS, "field")
TYPES = (*NUMERIC, "bool")
P = 21888242871839275222246405745257275088548364400416034343698204186575808495617
RANGES = {
    "u8": (0, 255),
    "i8": (-128, 127),
    "u16": (0, 65535),
    "i16": (-32768, 32767),
    "u32": (0, 2**32 - 1),
    "field": (0, P - 1),
}
CTOR = {**{t: t for t in INTS}, "field": "Field"}


@dataclass
class GenProgram:
    source_text: str
    fn_name: str
    inputs_strategy: Any
    param_types: dict[str, Any]

    def __repr__(self) -> str:
        return f"GenProgram(\n{self.source_text})"


def _tyname(t: Any) -> str:
    if isinstance(t, tuple):
        return "tuple[" + ", ".join(_tyname(e) for e in t) + "]"
    return CTOR.get(t, t)


def value_strategy(t: Any) -> Any:
    """JSON values of type `t`, biased towards small numbers and range edges."""
    if isinstance(t, tuple):
        return st.tuples(*(value_strategy(e) for e in t)).map(list)
    if t == "bool":
        return st.booleans()
    lo, hi = RANGES[t]
    edges = [lo, hi, lo + 1, hi - 1] if t != "field" else [0, 1, 2, P - 1, P - 2]
    return st.one_of(
        st.integers(max(lo, -4), min(hi, 12)),
        st.sampled_from(edges),
        st.integers(lo, hi),
    )


class _Gen:
    def __init__(self, draw: Any):
        self.draw = draw
        self.lines: list[str] = []
        self.n = 0
        self.helpers: list[tuple[str, list[str], str]] = []  # name, param types, return type

    def pick(self, seq: Any) -> Any:
        return self.draw(st.sampled_from(list(seq)))

    def chance(self, p: float) -> bool:
        return self.draw(st.integers(0, 999)) < p * 1000

    def fresh(self) -> str:
        self.n += 1
        return f"v{self.n}"

    # -- expressions --------------------------------------------------------------------------

    def literal(self, t: str) -> str:
        if t == "bool":
            return self.pick(["True", "False"])
        lo, hi = RANGES[t]
        v = self.draw(st.one_of(st.integers(max(lo, -3), min(hi, 7)), st.sampled_from([lo, hi])))
        return f"{CTOR[t]}({v})"

    def pint(self, env: dict[str, Any], loopvars: list[str], depth: int) -> str:
        """A small plain int (0..9), possibly chosen at run time."""
        names = [n for n, ty in env.items() if ty == "int"]
        k = self.pick(["lit", "choice", "choice"] + (["var", "var"] if names else []))
        if k == "lit":
            return str(self.draw(st.integers(0, 9)))
        if k == "var":
            return self.pick(names)
        c = self.expr("bool", env, loopvars, max(depth - 1, 0))
        a = self.pick(names) if names and self.chance(0.3) else str(self.draw(st.integers(0, 9)))
        return f"({a} if {c} else {self.draw(st.integers(0, 9))})"

    def leaf(self, t: str, env: dict[str, Any], loopvars: list[str]) -> str:
        names = [n for n, ty in env.items() if ty == t]
        opts = ["lit"] + (["var"] * 3 if names else [])
        if loopvars and t != "bool":
            opts.append("loop")
        k = self.pick(opts)
        if k == "var":
            return self.pick(names)
        if k == "loop":
            lv = self.pick(loopvars)
            if t == "field" or t.startswith("i") or t == "u32":
                return f"{CTOR[t]}({lv})"
            return f"{CTOR[t]}({lv} % 3)"
        return self.literal(t)

    def expr(self, t: str, env: dict[str, Any], loopvars: list[str], depth: int) -> str:
        if depth <= 0 or self.chance(0.25):
            return self.leaf(t, env, loopvars)
        d = depth - 1
        pints = [n for n, ty in env.items() if ty == "int"]
        if t == "bool":
            k = self.pick(
                ["cmp", "cmp", "eq", "and", "or", "not", "chain", "ifexp"]
                + (["pcmp"] if pints else [])
            )
            if k == "pcmp":
                it = self.pick(INTS)
                a, kv = self.expr(it, env, loopvars, d), self.pick(pints)
                op = self.pick(["<", "<=", ">", ">=", "==", "!="])
                return f"({kv} {op} {a})" if self.chance(0.5) else f"({a} {op} {kv})"
            if k in ("cmp", "chain"):
                it = self.pick(INTS)
                a, b = self.expr(it, env, loopvars, d), self.expr(it, env, loopvars, d)
                op = self.pick(["<", "<=", ">", ">=", "==", "!="])
                if k == "chain":
                    c = self.expr(it, env, loopvars, d)
                    return f"({a} {op} {b} {self.pick(['<', '<=', '!='])} {c})"
                return f"({a} {op} {b})"
            if k == "eq":
                et = self.pick(["field", "bool", *INTS])
                a, b = self.expr(et, env, loopvars, d), self.expr(et, env, loopvars, d)
                return f"({a} {self.pick(['==', '!='])} {b})"
            if k in ("and", "or"):
                a, b = self.expr("bool", env, loopvars, d), self.expr("bool", env, loopvars, d)
                return f"({a} {k} {b})"
            if k == "not":
                return f"(not {self.expr('bool', env, loopvars, d)})"
            return self.ifexp(t, env, loopvars, d)
        opts = ["arith", "arith", "arith", "cast", "ifexp", "lit_arith"]
        if t != "field":
            opts += ["div", "minmax"]
        if t == "field" or t.startswith("i"):
            opts += ["neg"]
        if t.startswith("i"):
            opts += ["abs"]
        if any(h[2] == t for h in self.helpers):
            opts += ["call", "call"]
        if pints:
            opts += ["pint", "pcast"]
        k = self.pick(opts)
        if k == "pint":
            a, kv = self.expr(t, env, loopvars, d), self.pick(pints)
            op = self.pick(["+", "-", "*"])
            return f"({a} {op} {kv})" if self.chance(0.5) else f"({kv} {op} {a})"
        if k == "pcast":
            return f"{CTOR[t]}({self.pick(pints)})"
        if k == "arith":
            a, b = self.expr(t, env, loopvars, d), self.expr(t, env, loopvars, d)
            return f"({a} {self.pick(['+', '-', '*'])} {b})"
        if k == "lit_arith":
            a = self.expr(t, env, loopvars, d)
            lo, hi = RANGES[t]
            v = self.draw(st.integers(max(lo, 0), min(hi, 5)))
            return f"({a} {self.pick(['+', '-', '*'])} {v})"
        if k == "div":
            a, b = self.expr(t, env, loopvars, d), self.expr(t, env, loopvars, d)
            return f"({a} {self.pick(['//', '%'])} {b})"
        if k == "neg":
            return f"(-{self.expr(t, env, loopvars, d)})"
        if k == "abs":
            return f"abs({self.expr(t, env, loopvars, d)})"
        if k == "minmax":
            a, b = self.expr(t, env, loopvars, d), self.expr(t, env, loopvars, d)
            return f"{self.pick(['min', 'max'])}({a}, {b})"
        if k == "cast":
            src = self.pick([x for x in TYPES if x != t])
            return f"{CTOR[t]}({self.expr(src, env, loopvars, d)})"
        if k == "call":
            name, pts, _ = self.pick([h for h in self.helpers if h[2] == t])
            args = ", ".join(self.expr(pt, env, loopvars, d) for pt in pts)
            return f"{name}({args})"
        return self.ifexp(t, env, loopvars, d)

    def ifexp(self, t: str, env: dict[str, Any], loopvars: list[str], d: int) -> str:
        c = self.expr("bool", env, loopvars, d)
        a, b = self.expr(t, env, loopvars, d), self.expr(t, env, loopvars, d)
        return f"({a} if {c} else {b})"

    # -- statements ---------------------------------------------------------------------------

    def stmts(
        self, env: dict[str, Any], loopvars: list[str], depth: int, ind: str, top: bool, count: int
    ) -> None:
        for _ in range(count):
            self.stmt(env, loopvars, depth, ind, top)

    def stmt(
        self, env: dict[str, Any], loopvars: list[str], depth: int, ind: str, top: bool
    ) -> None:
        scalars = {n: t for n, t in env.items() if isinstance(t, str) and t != "int"}
        pints = [n for n, t in env.items() if t == "int"]
        opts = ["assign", "assign", "check"]
        if top:
            opts += ["new", "new", "annot", "pint"]
        elif pints and not loopvars:
            opts += ["pint"]
        if depth > 0:
            opts += ["if", "for"]
        if any(t != "bool" for t in scalars.values()):
            opts.append("aug")
        k = self.pick(opts)
        ed = self.draw(st.integers(1, 3))
        if k == "pint":
            name = self.fresh() if top and (not pints or self.chance(0.5)) else self.pick(pints)
            self.lines.append(f"{ind}{name} = {self.pint(env, loopvars, ed)}")
            env[name] = "int"
        elif k in ("new", "annot") or (k == "assign" and not scalars):
            t = self.pick(TYPES)
            name = self.fresh()
            e = self.expr(t, env, loopvars, ed)
            ann = f": {CTOR.get(t, t)}" if k == "annot" else ""
            if k == "annot" and t != "bool":
                e = f"{CTOR[t]}({e})"
            self.lines.append(f"{ind}{name}{ann} = {e}")
            env[name] = t
        elif k == "assign":
            name = self.pick(sorted(scalars))
            self.lines.append(f"{ind}{name} = {self.expr(scalars[name], env, loopvars, ed)}")
        elif k == "aug":
            name = self.pick(sorted(n for n, t in scalars.items() if t != "bool"))
            t = scalars[name]
            ops = ["+=", "-=", "*="] + (["//=", "%="] if t != "field" else [])
            self.lines.append(f"{ind}{name} {self.pick(ops)} {self.expr(t, env, loopvars, ed)}")
        elif k == "check":
            self.lines.append(f"{ind}check({self.expr('bool', env, loopvars, ed)})")
        elif k == "if":
            self.lines.append(f"{ind}if {self.expr('bool', env, loopvars, ed)}:")
            self.stmts(env, loopvars, depth - 1, ind + "    ", False, self.draw(st.integers(1, 2)))
            if self.chance(0.3):
                self.lines.append(f"{ind}elif {self.expr('bool', env, loopvars, ed)}:")
                self.stmts(env, loopvars, depth - 1, ind + "    ", False, 1)
            if self.chance(0.6):
                self.lines.append(f"{ind}else:")
                self.stmts(
                    env, loopvars, depth - 1, ind + "    ", False, self.draw(st.integers(1, 2))
                )
        else:
            lv = f"i{len(loopvars)}"
            self.lines.append(f"{ind}for {lv} in range({self.draw(st.integers(0, 3))}):")
            self.stmts(
                env, [*loopvars, lv], depth - 1, ind + "    ", False, self.draw(st.integers(1, 2))
            )

    # -- functions ----------------------------------------------------------------------------

    def helper(self, idx: int) -> list[str]:
        pts = [self.pick(NUMERIC) for _ in range(self.draw(st.integers(1, 2)))]
        rt = self.pick(NUMERIC)
        env = {f"a{j}": t for j, t in enumerate(pts)}
        params = ", ".join(f"a{j}: {_tyname(t)}" for j, t in enumerate(pts))
        name = f"h{idx}"
        saved, self.lines = self.lines, []
        self.stmts(env, [], 1, "    ", True, self.draw(st.integers(0, 2)))
        body = self.lines
        self.lines = saved
        out = [f"def {name}({params}) -> {_tyname(rt)}:", *body]
        if self.chance(0.3):
            out.append(f"    if {self.expr('bool', env, [], 1)}:")
            out.append(f"        return {self.expr(rt, env, [], 2)}")
        out.append(f"    return {self.expr(rt, env, [], 2)}")
        self.helpers.append((name, pts, rt))
        return out


@st.composite
def programs(draw: Any) -> GenProgram:
    g = _Gen(draw)
    out = [
        "from zeenot import Field, Private, Public, check, i8, i16, u8, u16, u32, zk",
        "",
        "",
    ]
    for i in range(draw(st.integers(0, 2))):
        out += g.helper(i) + ["", ""]
    params: dict[str, Any] = {}
    for j in range(draw(st.integers(1, 3))):
        if g.chance(0.25):
            params[f"p{j}"] = tuple(g.pick(TYPES) for _ in range(draw(st.integers(1, 3))))
        else:
            params[f"p{j}"] = g.pick(TYPES)
    env: dict[str, Any] = dict(params)
    # tuple elements are reachable as leaves through plain aliases
    for name, t in params.items():
        if isinstance(t, tuple):
            for k, et in enumerate(t):
                env[f"{name}_{k}"] = et
                g.lines.append(f"    {name}_{k} = {name}[{k}]")
    g.stmts(env, [], 2, "    ", True, draw(st.integers(1, 6)))
    scalars = {n: t for n, t in env.items() if isinstance(t, str) and t != "int"}
    rets = [g.pick(sorted(scalars)) for _ in range(draw(st.integers(1, 3)))]
    rtys = [scalars[r] for r in rets]
    vis = {n: g.pick(["Private", "Public"]) for n in params}
    sig = ", ".join(f"{n}: {vis[n]}[{_tyname(t)}]" for n, t in params.items())
    if len(rets) == 1:
        ret_ann, ret_expr = _tyname(rtys[0]), rets[0]
    else:
        ret_ann = "tuple[" + ", ".join(_tyname(t) for t in rtys) + "]"
        ret_expr = ", ".join(rets)
    out.append("@zk")
    out.append(f"def main({sig}) -> {ret_ann}:")
    out += g.lines
    if len(rets) == 1 and g.chance(0.3):
        out.append(f"    if {g.expr('bool', env, [], 2)}:")
        out.append(f"        return {g.expr(rtys[0], env, [], 2)}")
    out.append(f"    return {ret_expr}")
    source = "\n".join(out) + "\n"
    strategy = st.fixed_dictionaries({n: value_strategy(t) for n, t in params.items()})
    return GenProgram(source, "main", strategy, params)
