"""Benchmark: the four list case studies (fitbit, study, loyalty, cnids) as the list bound grows.

For each example and each bound N, the example's bound constant (`MAX_SAMPLES = 64`, ...) is
rewritten to N in a copy of its `app.py`, and its `data.py` generates inputs of full length N.
Measured: constraints, compile, Groth16 setup, proving-key validation (once per key), prove and
verify wall time (median of --reps runs), proof and proving-key size. Every proof's outputs are
compared with `simulate` and with the example's independent reference (`data.reference`).
Then constraints ≈ a + b·N and prove time ≈ a + b·N are fitted by least squares, with R².

    .venv/bin/python benchmarks/lists.py [--sizes 8 16 32 64 128] [--reps 3] [--examples fitbit]
    .venv/bin/python benchmarks/lists.py --quick      # sizes 4 8 16 32, one rep

Prints Markdown tables and writes benchmarks/results/lists.json (lists-quick.json with --quick).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import re
import statistics
import sys
import tempfile
import time
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any

from zeenot import api
from zeenot.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES_DIR = ROOT / "examples"
RESULTS = ROOT / "benchmarks" / "results"

# example: (@zk function, the module constant that bounds its main list)
EXAMPLES: dict[str, tuple[str, str]] = {
    "fitbit": ("donation", "MAX_SAMPLES"),
    "study": ("study_summary", "MAX_READINGS"),
    "loyalty": ("discount", "MAX_PURCHASES"),
    "cnids": ("alert", "MAX_PACKETS"),
}
SIZES = [8, 16, 32, 64, 128]
QUICK_SIZES = [4, 8, 16, 32]


def load_data(example: str) -> ModuleType:
    """The example's `data.py` (generate / reference), imported by path."""
    path = EXAMPLES_DIR / example / "data.py"
    spec = importlib.util.spec_from_file_location(f"_bench_data_{example}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def variant(example: str, n: int, workdir: Path) -> str:
    """`path:function` of a copy of the example whose list bound is `n`."""
    fn, const = EXAMPLES[example]
    src = (EXAMPLES_DIR / example / "app.py").read_text()
    src, count = re.subn(rf"^{const} = \d+\b", f"{const} = {n}", src, flags=re.M)
    if count != 1:
        raise SystemExit(f"examples/{example}/app.py: expected one `{const} = N` line")
    directory = workdir / f"{example}_{n}"
    directory.mkdir()
    path = directory / "app.py"
    path.write_text(src)
    return f"{path}:{fn}"


def timed(fn, reps: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(reps):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


def measure(example: str, n: int, reps: int, seed: int, workdir: Path) -> dict[str, Any]:
    target = variant(example, n, workdir)
    data = load_data(example)
    inputs = data.generate(n, seed)
    fn = api.load_target(target)
    expected = simulate(fn, inputs)
    reference = data.reference(inputs)
    if expected != reference:
        raise AssertionError(f"simulate gives {expected}, the reference {reference}")
    t_compile, circuit = timed(lambda: api.compile(target), 1)
    t_setup, keys = timed(lambda: api.setup(circuit), 1)
    t_key, _ = timed(lambda: keys.prepared, 1)  # decode + validate, once per key
    t_prove, proof = timed(lambda: api.prove(circuit, keys, inputs), reps)
    if proof.outputs != expected:
        raise AssertionError(f"the proof says {proof.outputs}, simulate {expected}")
    t_verify, _ = timed(lambda: api.verify(circuit, keys.verifying_key, proof), reps)
    return {
        "example": example,
        "n": n,
        "constraints": circuit.stats["constraints"],
        "private_inputs": circuit.stats["private_inputs"],
        "public_inputs": circuit.stats["public_inputs"],
        "compile_s": t_compile,
        "setup_s": t_setup,
        "key_validation_s": t_key,
        "prove_s": t_prove,
        "verify_ms": t_verify * 1e3,
        "proof_bytes": len(proof.proof),
        "proving_key_bytes": len(keys.proving_key),
        "outputs": proof.outputs,
    }


def linear_fit(xs: list[float], ys: list[float]) -> dict[str, float] | None:
    """Least squares y ≈ a + b·x, with the coefficient of determination R²."""
    if len(xs) < 2 or len(set(xs)) < 2:
        return None
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx
    a = my - b * mx
    ss_res = sum((y - (a + b * x)) ** 2 for x, y in zip(xs, ys, strict=True))
    ss_tot = sum((y - my) ** 2 for y in ys)
    r2 = 1.0 - ss_res / ss_tot if ss_tot > 0 else 1.0
    return {"a": a, "b": b, "r2": r2}


def fits(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for example in EXAMPLES:
        ok = [r for r in rows if r["example"] == example and "error" not in r]
        if not ok:
            continue
        ns = [float(r["n"]) for r in ok]
        out[example] = {
            "constraints": linear_fit(ns, [float(r["constraints"]) for r in ok]),
            "prove_s": linear_fit(ns, [r["prove_s"] for r in ok]),
        }
    return out


def print_tables(rows: list[dict[str, Any]], fitted: dict[str, dict[str, Any]]) -> None:
    print(
        "| example | N | constraints | per element | compile | setup | key validation | prove "
        "| verify | proof | proving key |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        if "error" in r:
            print(f"| {r['example']} | {r['n']} | error: {r['error']} |||||||||")
            continue
        print(
            f"| {r['example']} | {r['n']} | {r['constraints']:,} "
            f"| {r['constraints'] / r['n']:,.0f} | {r['compile_s']:.2f} s | {r['setup_s']:.2f} s "
            f"| {r['key_validation_s']:.2f} s | {r['prove_s']:.2f} s | {r['verify_ms']:.1f} ms "
            f"| {r['proof_bytes']} B | {r['proving_key_bytes'] / 1e6:.1f} MB |"
        )
    print()
    print("| example | constraints ≈ a + b·N | R² | prove ≈ a + b·N | R² |")
    print("|---|---|---:|---|---:|")
    for example, f in fitted.items():
        c, p = f["constraints"], f["prove_s"]
        if c is None or p is None:
            print(f"| {example} | (one size only) | | | |")
            continue
        print(
            f"| {example} | {c['a']:,.0f} + {c['b']:,.1f}·N | {c['r2']:.4f} "
            f"| {p['a'] * 1e3:.1f} ms + {p['b'] * 1e3:.2f} ms·N | {p['r2']:.4f} |"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", help=f"list bounds (default {SIZES})")
    ap.add_argument("--reps", type=int, help="prove/verify repetitions (default 3)")
    ap.add_argument("--examples", nargs="+", choices=sorted(EXAMPLES), default=list(EXAMPLES))
    ap.add_argument("--seed", type=int, default=1, help="seed of the generated inputs")
    ap.add_argument("--quick", action="store_true", help=f"sizes {QUICK_SIZES}, one rep")
    ap.add_argument("-o", "--output", type=Path, help="results file")
    args = ap.parse_args()
    sizes = args.sizes or (QUICK_SIZES if args.quick else SIZES)
    reps = args.reps or (1 if args.quick else 3)
    output = args.output or RESULTS / ("lists-quick.json" if args.quick else "lists.json")
    if min(sizes) < 1 or reps < 1:
        ap.error("sizes and reps must be positive")

    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for example in args.examples:
            for n in sizes:
                print(f"{example} N={n} ...", file=sys.stderr, flush=True)
                try:
                    rows.append(measure(example, n, reps, args.seed, Path(tmp)))
                except Exception as exc:  # noqa: BLE001 - record it and go on with the others
                    traceback.print_exc()
                    msg = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
                    rows.append({"example": example, "n": n, "error": msg})
    fitted = fits(rows)
    doc = {
        "machine": {
            "platform": platform.platform(),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
        },
        "sizes": sizes,
        "reps": reps,
        "seed": args.seed,
        "rows": rows,
        "fits": fitted,
    }
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(doc, indent=2) + "\n")
    print_tables(rows, fitted)
    print(f"\nwrote {output.relative_to(ROOT) if output.is_relative_to(ROOT) else output}")
    if any("error" in r for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
