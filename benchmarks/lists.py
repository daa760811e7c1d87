"""Benchmark: the four list case studies (fitbit, study, loyalty, cnids) as the list bound grows.

For each example and each bound N, the example's bound constant (`MAX_SAMPLES = 64`, ...) is
rewritten to N in a copy of its `app.py`, and its `data.py` generates inputs of full length N.
The same compiled circuit and the same inputs are proved by both back ends (--backends):

* groth16: constraints, compile, setup, proving-key validation (once per key), prove and verify
  wall time (median of --reps runs), proof and proving-key size;
* sigma (Pedersen commitments + sigma protocols, no setup): prove and verify wall time (median of
  --reps runs) and proof size, with the ratios sigma / groth16 when both ran.

Every proof's outputs are compared with `simulate`, with the other back end's and with the
example's independent reference (`data.reference`). Then constraints, groth16 prove / verify time
and sigma prove / verify time and proof size ≈ a + b·N are fitted by least squares, with R².

    .venv/bin/python benchmarks/lists.py [--sizes 8 16 32 64 128] [--reps 3] [--examples fitbit]
                                         [--backends groth16 sigma] [-o RESULTS.json]
                                         [--markdown BACKENDS.md]
    .venv/bin/python benchmarks/lists.py --quick      # sizes 4 8 16 32, one rep

Prints Markdown tables; writes the figures and fits as JSON only with -o, and the back-end
comparison with its fits as Markdown only with --markdown (the README's commands pass
-o benchmarks/results/lists.json or backends.json and --markdown benchmarks/results/backends.md).
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import platform
import re
import shlex
import statistics
import sys
import tempfile
import time
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any

from zeenot import api
from zeenot.plan.calibrate import cpu_model
from zeenot.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES_DIR = ROOT / "examples"

# example: (@zk function, the module constant that bounds its main list)
EXAMPLES: dict[str, tuple[str, str]] = {
    "fitbit": ("steps_donation", "MAX_SAMPLES"),
    "study": ("vitals_summary", "MAX_READINGS"),
    "loyalty": ("discount", "MAX_PURCHASES"),
    "cnids": ("header_alert", "MAX_PACKETS"),
}
SIZES = [8, 16, 32, 64, 128]
QUICK_SIZES = [4, 8, 16, 32]
BACKENDS = ["groth16", "sigma"]


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


def measure(
    example: str, n: int, reps: int, seed: int, workdir: Path, backends: list[str]
) -> dict[str, Any]:
    """One example at bound `n`: the groth16 fields unprefixed, the sigma ones `sigma_*`."""
    target = variant(example, n, workdir)
    data = load_data(example)
    inputs = data.generate(n, seed)
    fn = api.load_target(target)
    expected = simulate(fn, inputs)
    reference = data.reference(inputs)
    if expected != reference:
        raise AssertionError(f"simulate gives {expected}, the reference {reference}")
    t_compile, circuit = timed(lambda: api.compile(target), 1)
    row: dict[str, Any] = {
        "example": example,
        "n": n,
        "constraints": circuit.stats["constraints"],
        "private_inputs": circuit.stats["private_inputs"],
        "public_inputs": circuit.stats["public_inputs"],
        "compile_s": t_compile,
    }
    if "groth16" in backends:
        t_setup, keys = timed(lambda: api.setup(circuit), 1)
        t_key, _ = timed(lambda: keys.prepared, 1)  # decode + validate, once per key
        t_prove, proof = timed(lambda: api.prove(circuit, keys, inputs), reps)
        if proof.outputs != expected:
            raise AssertionError(f"the groth16 proof says {proof.outputs}, simulate {expected}")
        t_verify, _ = timed(lambda: api.verify(circuit, keys.verifying_key, proof), reps)
        row |= {
            "setup_s": t_setup,
            "key_validation_s": t_key,
            "prove_s": t_prove,
            "verify_ms": t_verify * 1e3,
            "proof_bytes": len(proof.proof),
            "proving_key_bytes": len(keys.proving_key),
            "outputs": proof.outputs,
        }
    if "sigma" in backends:
        t_prove, proof = timed(lambda: api.prove_sigma(circuit, inputs), reps)
        if proof.backend != "sigma":
            raise AssertionError(f"prove_sigma returned a {proof.backend} proof")
        if proof.outputs != expected:
            raise AssertionError(f"the sigma proof says {proof.outputs}, simulate {expected}")
        if "outputs" in row and proof.outputs != row["outputs"]:
            raise AssertionError(f"the sigma proof says {proof.outputs}, groth16 {row['outputs']}")
        t_verify, _ = timed(lambda: api.verify(circuit, None, proof), reps)
        row |= {
            "sigma_prove_s": t_prove,
            "sigma_verify_ms": t_verify * 1e3,
            "sigma_proof_bytes": len(proof.proof),
        }
    row["outputs"] = expected  # equal to every proof's outputs (checked above)
    if "prove_s" in row and "sigma_prove_s" in row:
        row["sigma_over_groth16"] = {
            "prove": row["sigma_prove_s"] / row["prove_s"],
            "verify": row["sigma_verify_ms"] / row["verify_ms"],
            "proof_bytes": row["sigma_proof_bytes"] / row["proof_bytes"],
        }
    return row


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


# fitted ≈ a + b·N per example, when measured: groth16 fields, then sigma fields
FITTED = [
    "constraints",
    "prove_s",
    "verify_ms",
    "proof_bytes",
    "sigma_prove_s",
    "sigma_verify_ms",
    "sigma_proof_bytes",
]


def fits(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for example in EXAMPLES:
        ok = [r for r in rows if r["example"] == example and "error" not in r]
        if not ok:
            continue
        ns = [float(r["n"]) for r in ok]
        out[example] = {
            key: linear_fit(ns, [float(r[key]) for r in ok]) for key in FITTED if key in ok[0]
        }
    return out


def print_tables(rows: list[dict[str, Any]], fitted: dict[str, dict[str, Any]]) -> None:
    """The groth16 table and fits (when groth16 ran), then the back-end comparison."""
    if any("prove_s" in r for r in rows):
        print_groth16(rows, fitted)
        print()
    print(backends_markdown(rows, fitted))


def print_groth16(rows: list[dict[str, Any]], fitted: dict[str, dict[str, Any]]) -> None:
    print(
        "| example | N | constraints | per element | compile | setup | key validation | prove "
        "| verify | proof | proving key |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        if "error" in r:
            print(f"| {r['example']} | {r['n']} | error: {r['error']} |||||||||")
            continue
        if "prove_s" not in r:
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
        c, p = f["constraints"], f.get("prove_s")
        if c is None or p is None:
            print(f"| {example} | (one size only) | | | |")
            continue
        print(
            f"| {example} | {c['a']:,.0f} + {c['b']:,.1f}·N | {c['r2']:.4f} "
            f"| {p['a'] * 1e3:.1f} ms + {p['b'] * 1e3:.2f} ms·N | {p['r2']:.4f} |"
        )


def fmt_time(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def fmt_bytes(n: float) -> str:
    if abs(n) < 1e3:
        return f"{n:.0f} B"
    return f"{n / 1e3:.1f} kB" if abs(n) < 1e6 else f"{n / 1e6:.2f} MB"


def fmt_fit(f: dict[str, float] | None, fmt) -> str:
    if f is None:
        return "(one size only)"
    return f"{fmt(f['a'])} + {fmt(f['b'])}·N"


def backends_markdown(rows: list[dict[str, Any]], fitted: dict[str, dict[str, Any]]) -> str:
    """Prove, verify, proof size per back end side by side, the ratios, and the fits."""

    def cell(r: dict[str, Any], key: str, fmt) -> str:
        return fmt(r[key]) if key in r else "–"

    lines = [
        "| example | N | groth16 prove | sigma prove | groth16 verify | sigma verify "
        "| groth16 proof | sigma proof |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['example']} | {r['n']} | error: {r['error']} ||||||")
            continue
        lines.append(
            f"| {r['example']} | {r['n']} | {cell(r, 'prove_s', fmt_time)} "
            f"| {cell(r, 'sigma_prove_s', fmt_time)} "
            f"| {cell(r, 'verify_ms', lambda ms: fmt_time(ms / 1e3))} "
            f"| {cell(r, 'sigma_verify_ms', lambda ms: fmt_time(ms / 1e3))} "
            f"| {cell(r, 'proof_bytes', fmt_bytes)} | {cell(r, 'sigma_proof_bytes', fmt_bytes)} |"
        )
    ratios = [r for r in rows if "sigma_over_groth16" in r]
    if ratios:
        lines += [
            "",
            "sigma / groth16:",
            "",
            "| example | N | prove | verify | proof size |",
            "|---|---:|---:|---:|---:|",
        ]
        for r in ratios:
            q = r["sigma_over_groth16"]
            lines.append(
                f"| {r['example']} | {r['n']} | {q['prove']:.1f}× | {q['verify']:.0f}× "
                f"| {q['proof_bytes']:,.0f}× |"
            )
    columns = [
        ("groth16 prove", "prove_s", fmt_time),
        ("groth16 verify", "verify_ms", lambda ms: fmt_time(ms / 1e3)),
        ("sigma prove", "sigma_prove_s", fmt_time),
        ("sigma verify", "sigma_verify_ms", lambda ms: fmt_time(ms / 1e3)),
        ("sigma proof", "sigma_proof_bytes", fmt_bytes),
    ]
    present = [c for c in columns if any(c[1] in f for f in fitted.values())]
    if present:
        lines += [
            "",
            "Least-squares fits ≈ a + b·N (b: the cost per list element), with R²:",
            "",
            "| example | " + " | ".join(f"{name} | R²" for name, _, _ in present) + " |",
            "|---|" + "---|---:|" * len(present),
        ]
        for example, f in fitted.items():
            cells = []
            for _, key, fmt in present:
                fit = f.get(key)
                cells.append(fmt_fit(fit, fmt))
                cells.append(f"{fit['r2']:.4f}" if fit else "")
            lines.append(f"| {example} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def nproc() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", help=f"list bounds (default {SIZES})")
    ap.add_argument("--reps", type=int, help="prove/verify repetitions (default 3)")
    ap.add_argument("--examples", nargs="+", choices=sorted(EXAMPLES), default=list(EXAMPLES))
    ap.add_argument("--seed", type=int, default=1, help="seed of the generated inputs")
    ap.add_argument(
        "--backends",
        nargs="+",
        choices=BACKENDS,
        default=list(BACKENDS),
        help="proof back ends to measure (default both)",
    )
    ap.add_argument("--quick", action="store_true", help=f"sizes {QUICK_SIZES}, one rep")
    ap.add_argument("-o", "--output", type=Path, help="write the figures and fits as JSON here")
    ap.add_argument("--markdown", type=Path, help="write the back-end comparison (Markdown) here")
    args = ap.parse_args()
    sizes = args.sizes or (QUICK_SIZES if args.quick else SIZES)
    reps = args.reps or (1 if args.quick else 3)
    backends = [b for b in BACKENDS if b in args.backends]
    if min(sizes) < 1 or reps < 1:
        ap.error("sizes and reps must be positive")

    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for example in args.examples:
            for n in sizes:
                print(f"{example} N={n} ...", file=sys.stderr, flush=True)
                try:
                    rows.append(measure(example, n, reps, args.seed, Path(tmp), backends))
                except Exception as exc:  # noqa: BLE001 - record it and go on with the others
                    traceback.print_exc()
                    msg = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
                    rows.append({"example": example, "n": n, "error": msg})
    fitted = fits(rows)
    machine = {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "nproc": nproc(),
        "cpu_model": cpu_model(),
    }
    command = shlex.join([".venv/bin/python", "benchmarks/lists.py", *sys.argv[1:]])
    date = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    doc = {
        "machine": machine,
        "command": command,
        "date": date,
        "backends": backends,
        "sizes": sizes,
        "reps": reps,
        "seed": args.seed,
        "rows": rows,
        "fits": fitted,
    }
    written: list[Path] = []
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(doc, indent=2) + "\n")
        written.append(args.output)
    if args.markdown:
        table = backends_markdown(rows, fitted)
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(
            "# The list case studies on both proof back ends\n\n"
            f"Command: `{command}`  \n"
            f"Date: {date}  \n"
            f"Machine: {machine['nproc']} cores (nproc), {machine['cpu_model']}, "
            f"{machine['platform']}, Python {machine['python']}  \n"
            f"Back ends: {', '.join(backends)}; sizes {sizes}; input seed {args.seed}; "
            f"prove and verify times are "
            + ("a single run each (--reps 1)" if reps == 1 else f"the median of {reps} runs")
            + ".\n\n"
            "Same compiled circuit and same generated inputs (full length N) for both back ends; "
            "every proof's outputs equal `simulate`'s, the other back end's and the example's "
            "independent reference. groth16 proof and verify exclude the one-off setup and "
            "proving-key validation (in lists.json); sigma needs neither.\n\n" + table + "\n"
        )
        written.append(args.markdown)
    print_tables(rows, fitted)
    for path in written:
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    if any("error" in r for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
