"""Constraints per list element for each list construct (the cost model's per-op slopes).

Each construct is compiled at two list bounds N1 < N2; the slope (c(N2) - c(N1)) / (N2 - N1)
is the cost of one more element slot, the intercept c(N1) - slope·N1 the fixed cost. The same
parameters with an empty body are the baseline (input range checks, the length check and the
slots' active flags), reported on the first row and subtracted from the others. Run:

    .venv/bin/python benchmarks/list_ops.py            # prints a markdown table
    .venv/bin/python benchmarks/list_ops.py --json out.json
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from zeenot import _native, compile_function, load_function

HEADER = """from dataclasses import dataclass
from functools import reduce
from zeenot import MaxSize, Private, Public, check, find, u8, u16, u32, u64, zk

@dataclass(frozen=True)
class Rec:
    key: u32
    val: u32

TABLE = tuple(tuple((i * 7 + j) % 8 for j in range(8)) for i in range(8))
"""

# name -> (parameters, body); `xs`/`ys` are lists of u32, `rs` of Rec, `k` a public u32
CASES = {
    "input list (length check + active flags)": (
        "xs: Private[MaxSize[list[u32], N]]",
        "return u32(0)",
    ),
    "for loop: total += u64(x)": (
        "xs: Private[MaxSize[list[u32], N]]",
        "total = u64(0)\n    for x in xs:\n        total += u64(x)\n    return total",
    ),
    "sum(xs) (u64 elements)": ("xs: Private[MaxSize[list[u64], N]]", "return sum(xs, u64(0))"),
    "len of a filter [x for x in xs if x > k]": (
        "xs: Private[MaxSize[list[u32], N]], k: Public[u32]",
        "return u32(len([x for x in xs if x > k]))",
    ),
    "max(xs, default=0)": ("xs: Private[MaxSize[list[u32], N]]", "return max(xs, default=u32(0))"),
    "all(a <= b for a, b in zip(xs, xs[1:]))": (
        "xs: Private[MaxSize[list[u32], N]]",
        "return all(a <= b for a, b in zip(xs, xs[1:]))",
    ),
    "any(x == k for x in xs)": (
        "xs: Private[MaxSize[list[u32], N]], k: Public[u32]",
        "return any(x == k for x in xs)",
    ),
    "find(rs, lambda r: r.key == k, default)": (
        "rs: Private[MaxSize[list[Rec], N]], k: Public[u32]",
        "return find(rs, lambda r: r.key == k, Rec(key=u32(0), val=u32(0))).val",
    ),
    "xs[i] (private index)": (
        "xs: Private[MaxSize[list[u32], N]], i: Private[u32]",
        "return xs[i]",
    ),
    "baseline: xs[i] as a chain of == and selects": (
        "xs: Private[MaxSize[list[u32], N]], i: Private[u32]",
        "r = u32(0)\n    for j, x in enumerate(xs):\n        r = x if i == j else r\n    return r",
    ),
    "reduce over a constant 8x8 table (automaton step)": (
        "xs: Private[MaxSize[list[u8], N]]",
        "return reduce(lambda s, c: u8(TABLE[s][c]), xs, u8(0))",
    ),
    "zip + dot product (u32 x u32 -> u64)": (
        "xs: Private[MaxSize[list[u32], N]], ys: Private[MaxSize[list[u32], N]]",
        "return sum((u64(a) * u64(b) for a, b in zip(xs, ys)), u64(0))",
    ),
}


def constraints(params: str, body: str, n: int, tmp: Path) -> int:
    src = HEADER + f"\n@zk\ndef main({params.replace('N]', f'{n}]')}):\n    {body}\n"
    path = tmp / f"case_{abs(hash((params, body, n)))}.py"
    path.write_text(src)
    program = compile_function(load_function(str(path), "main"))
    return int(_native.stats(program.to_json())["constraints"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n1", type=int, default=16)
    ap.add_argument("--n2", type=int, default=32)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for name, (params, body) in CASES.items():
            cost = []
            for b in (body, "return u32(0)"):
                c1 = constraints(params, b, args.n1, Path(d))
                c2 = constraints(params, b, args.n2, Path(d))
                slope = (c2 - c1) / (args.n2 - args.n1)
                cost.append((slope, c1 - slope * args.n1))
            (slope, fixed), (base_slope, base_fixed) = cost
            if name.startswith("input list"):
                base_slope = base_fixed = 0.0
            rows.append(
                {
                    "construct": name,
                    "per_element": slope - base_slope,
                    "fixed": fixed - base_fixed,
                    "inputs_per_element": base_slope,
                }
            )
    print("| construct | per element | fixed | its inputs, per element |\n|---|---:|---:|---:|")
    for r in rows:
        print(
            f"| `{r['construct']}` | {r['per_element']:g} | {r['fixed']:g} "
            f"| {r['inputs_per_element']:g} |"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
