"""Benchmark: what the middle end saves (python/zeenot/lang/passes/), on every example.

Every `@zk` function of every example (and the k-anonymity test program) is compiled twice:
as `zeenot compile` does, and with the middle end's passes switched off (no shared
subexpressions, every fallible instruction guarded, no dead-code removal, no constant
folding: about what the front end emitted before the middle end existed). The constraint
counts of the two are printed side by side. Programs with unbounded lists (templates) are
compiled at length 16.

    .venv/bin/python benchmarks/middle_end.py [-o OUT.md]

Prints Markdown; writes it only with -o.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

from report import provenance, publish

from zeenot import api
from zeenot.lang import compiler, emit, load_module

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "examples").glob("*/app.py")) + [
    ROOT / "tests" / "python" / "programs" / "kanon.py"
]


@contextlib.contextmanager
def middle_end_off() -> Iterator[None]:
    """The passes switched off where the compiler calls them."""
    saved = (emit.Shared.find, emit.can_fail, compiler.eliminate_dead, emit.fold)
    emit.Shared.find = lambda self, ins: None  # type: ignore[method-assign]
    emit.can_fail = lambda *args: True  # type: ignore[assignment]
    compiler.eliminate_dead = lambda inputs, body, outputs: body  # type: ignore[assignment]
    emit.fold = lambda *args: None  # type: ignore[assignment]
    packing = compiler.pack_equalities
    compiler.pack_equalities = lambda inputs, body, outputs, next_id: body  # type: ignore[assignment]
    try:
        yield
    finally:
        (emit.Shared.find, emit.can_fail, compiler.eliminate_dead, emit.fold) = saved  # type: ignore[method-assign, assignment]
        compiler.pack_equalities = packing  # type: ignore[assignment]


def constraints(fn: object) -> int:
    circuit = api.compile(fn, regions=False)  # type: ignore[arg-type]  (calls inlined)
    if isinstance(circuit, api.Template):
        circuit = circuit.at(dict.fromkeys(circuit.unbounded, 16))
    return int(circuit.stats["constraints"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("-o", "--output", type=Path)
    args = ap.parse_args()
    rows = []
    for source in SOURCES:
        module = load_module(str(source))
        fns = [v for v in vars(module).values() if callable(v) and hasattr(v, "__zk__")]
        for fn in sorted(fns, key=lambda f: f.__name__):
            on = constraints(fn)
            with middle_end_off():
                off = constraints(fn)
            where = source.relative_to(ROOT).parent.name
            rows.append((f"{where}: `{fn.__name__}`", off, on))
            print(rows[-1], file=sys.stderr)
    lines = [
        "# Constraints before and after the middle end (shared subexpressions, guards, dead code)",
        "",
        provenance() + ".",
        "",
        "| program | without the middle end | with it | change |",
        "|---|---:|---:|---:|",
    ]
    for name, off, on in rows:
        lines.append(f"| {name} | {off:,} | {on:,} | {100 * (on - off) / off:+.1f} % |")
    publish(lines, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
