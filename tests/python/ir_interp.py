"""A pure-Python reference interpreter of IR v1 (docs/ir.md), for tests only.

It also validates the document's typing rules, so a front-end bug shows up as an
`AssertionError`, and with `chaos` set it gives every guarded-off fallible instruction a random
in-range result, which checks the front end never lets such a value reach an output.
"""

from __future__ import annotations

import random
from typing import Any

from zeenot.types import INT_TYPES, SCALAR_TYPES, P, int_range

ARITH = {"add", "sub", "mul"}
CMP = {"eq", "ne", "lt", "le", "gt", "ge"}


class InterpFailure(Exception):
    def __init__(self, kind: str, loc: Any, msg: str | None = None):
        super().__init__(f"{kind} at {loc}: {msg or ''}")
        self.kind, self.loc, self.msg = kind, loc, msg


def _in_range(ty: str, v: int) -> bool:
    lo, hi = int_range(ty)
    return lo <= v <= hi


def run(ir: dict[str, Any], leaves: list[str], *, chaos: int | None = None) -> list[str]:
    """Execute `ir` on input leaves; returns output leaves or raises `InterpFailure`."""
    rng = random.Random(chaos) if chaos is not None else None
    assert ir["version"] == 1
    val: dict[int, int] = {}
    ty: dict[int, str] = {}
    assert len(leaves) == len(ir["inputs"])
    for inp, s in zip(ir["inputs"], leaves, strict=False):
        assert inp["ty"] in SCALAR_TYPES and inp["id"] not in val
        v = int(s)
        assert _in_range(inp["ty"], v), (inp, s)
        val[inp["id"]], ty[inp["id"]] = v, inp["ty"]
    for ins in ir["body"]:
        op = ins["op"]
        args = ins.get("args", [])
        for a in args:
            assert a in val, f"use before definition: {ins}"
        xs = [val[a] for a in args]
        ts = [ty[a] for a in args]
        g = ins.get("guard")
        if g is not None:
            assert ty[g] == "bool", ins
        active = g is None or val[g] == 1
        loc = ins.get("loc")
        if op == "check":
            assert ts == ["bool"], ins
            if active and xs[0] == 0:
                raise InterpFailure("check", loc, ins.get("msg"))
            continue
        t = ins["ty"]
        assert t in SCALAR_TYPES and ins["id"] not in val, ins
        fail: str | None = None
        if op == "const":
            r = int(ins["value"])
            assert str(r) == ins["value"] and _in_range(t, r), ins
        elif op in ARITH:
            assert ts == [t, t] and t != "bool", ins
            a, b = xs
            r = a + b if op == "add" else a - b if op == "sub" else a * b
            if t == "field":
                r %= P
            elif not _in_range(t, r):
                fail = "overflow"
        elif op == "neg":
            assert ts == [t] and (t == "field" or t.startswith("i")), ins
            r = (-xs[0]) % P if t == "field" else -xs[0]
            if t != "field" and not _in_range(t, r):
                fail = "overflow"
        elif op in ("floordiv", "mod"):
            assert ts == [t, t] and t in INT_TYPES, ins
            a, b = xs
            if b == 0:
                fail, r = "division_by_zero", 0
            else:
                r = a // b if op == "floordiv" else a % b
                if not _in_range(t, r):
                    fail = "overflow"
        elif op in CMP:
            assert t == "bool" and len(ts) == 2 and ts[0] == ts[1], ins
            if op not in ("eq", "ne"):
                assert ts[0] in INT_TYPES, ins
            a, b = xs
            r = int(
                {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b}[
                    op
                ]
            )
        elif op in ("and", "or"):
            assert t == "bool" and ts == ["bool", "bool"], ins
            r = (xs[0] & xs[1]) if op == "and" else (xs[0] | xs[1])
        elif op == "not":
            assert t == "bool" and ts == ["bool"], ins
            r = 1 - xs[0]
        elif op == "select":
            assert ts[0] == "bool" and ts[1] == ts[2] == t, ins
            r = xs[1] if xs[0] == 1 else xs[2]
        elif op == "index":
            assert len(ts) >= 2 and ts[0] in INT_TYPES, ins
            assert all(u == t for u in ts[1:]), ins
            i, elems = xs[0], xs[1:]
            if 0 <= i < len(elems):
                r = elems[i]
            else:
                fail, r = "index", 0
        elif op == "poseidon":
            assert t == "field" and 1 <= len(ts) <= 16 and all(u == "field" for u in ts), ins
            from zeenot import _native

            r = int(_native.poseidon([str(x % P) for x in xs]))
        elif op == "cast":
            (src,) = ts
            (a,) = xs
            assert t != "bool", ins
            if t == "field":
                r = a % P
            elif src == "field":
                r = a
                if not _in_range(t, r):
                    fail = "range"
            else:
                r = a
                if not _in_range(t, r):
                    fail = "overflow"
        else:
            raise AssertionError(f"unknown op {op}")
        if fail is not None or (
            not active
            and rng is not None
            and (
                (op in ("add", "sub", "mul", "neg", "floordiv", "mod", "cast") and t != "field")
                or op == "index"  # unspecified whatever its type (`field` included)
            )
        ):
            if active:
                raise InterpFailure(fail, loc)  # type: ignore[arg-type]
            lo, hi = int_range(t)
            r = rng.randint(lo, hi) if rng is not None else 0
        val[ins["id"]], ty[ins["id"]] = r, t
    out = []
    for o in ir["outputs"]:
        assert o["value"] in val
        out.append(str(val[o["value"]]))
    return out


def outputs(circuit: Any, inputs: dict[str, Any], chaos: int | None = None) -> Any:
    """A compiled circuit's outputs (JSON values) on `inputs`: by the Rust interpreter, or with
    `chaos` by this one, guarded-off values scrambled."""
    from zeenot import _native

    leaves = circuit.program.flatten_inputs(inputs)
    if chaos is None:
        out = _native.evaluate(circuit.native, leaves)
    else:
        out = run(circuit.program.ir, leaves, chaos=chaos)
    return circuit.program.outputs_to_json(circuit.program.unflatten_outputs(out))
