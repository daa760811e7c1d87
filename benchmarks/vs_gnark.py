"""Benchmark: zeenot's Groth16 prover against gnark's, side by side on the same statement.

The statement is a chain of squarings, x_{i+1} = x_i², of a private x whose last value is
public: one R1CS constraint per squaring in both systems (benchmarks/gnark/main.go is gnark's
side, pinned by its go.mod and go.sum). For each size 2^k, the chain has 2^k - 8 squarings, so
that constraints and public inputs fit one FFT domain of 2^k in both. Each system proves on 1
thread and on 2 (RAYON_NUM_THREADS / GOMAXPROCS), in a process of its own:

* zeenot: `api.prove` with the proving key decoded and validated beforehand (as a server or a
  client proving repeatedly holds it), median of --reps proofs, with the stage breakdown of the
  median proof (`zeenot prove --profile` prints the same stages) and the process's peak memory;
* gnark: `groth16.Prove` from the compiled constraint system, median of --reps proofs.

    .venv/bin/python benchmarks/vs_gnark.py [--sizes 12 14 16 18] [--threads 1 2] [--reps 3]
                                            [-o benchmarks/results/gnark.md]

Needs Go (`go build` fetches gnark once through the module proxy). Prints Markdown; writes it
only with -o.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from report import provenance, publish

ROOT = Path(__file__).resolve().parents[1]
GNARK_DIR = ROOT / "benchmarks" / "gnark"
GNARK_BIN = ROOT / "target" / "gnark-chain"

CHAIN_APP = """\
from zeenot import Field, Private, zk

N = {n}


@zk
def chain(x: Private[Field]) -> Field:
    acc = x
    for _ in range(N):
        acc = acc * acc
    return acc
"""


def squarings(k: int) -> int:
    return 2**k - 8


def build_gnark() -> None:
    subprocess.run(["go", "build", "-o", str(GNARK_BIN), "."], cwd=GNARK_DIR, check=True)


def run_gnark(k: int, threads: int, reps: int) -> dict[str, Any]:
    env = {**os.environ, "GOMAXPROCS": str(threads)}
    cmd = [str(GNARK_BIN), "-n", str(squarings(k)), "-reps", str(reps)]
    out = subprocess.run(cmd, env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
    return json.loads(out)


def prepare_zeenot(k: int, work: Path) -> Path:
    """Compile the chain and run its setup once; the directory serves every thread count."""
    from zeenot import api
    from zeenot.lang import compile_function, load_function

    app = work / f"chain{k}.py"
    app.write_text(CHAIN_APP.format(n=squarings(k)))
    # past the compiler's default bound on unrolled instructions (2^18 squarings)
    circuit = api.Circuit(
        compile_function(load_function(str(app), "chain"), max_instructions=2**20)
    )
    out = work / f"chain{k}"
    circuit.save(out)
    start = time.perf_counter()
    api.setup(circuit).save(out)
    (out / "setup_s").write_text(str(time.perf_counter() - start))
    return out


def run_zeenot(directory: Path, threads: int, reps: int) -> dict[str, Any]:
    env = {**os.environ, "RAYON_NUM_THREADS": str(threads)}
    cmd = [sys.executable, __file__, "--worker", str(directory), "--reps", str(reps)]
    out = subprocess.run(cmd, env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
    return json.loads(out)


def worker(directory: Path, reps: int) -> None:
    """One process, one thread count: prove `reps` times with a prepared key."""
    from zeenot import api
    from zeenot.timing import Stages
    from zeenot.verifier import Verifier

    circuit = api.load(directory)
    assert isinstance(circuit, api.Circuit)
    keys = api.Keys.load(directory).for_proving()  # decoded and validated before the clock starts
    runs: list[tuple[float, Stages]] = []
    for _ in range(reps):
        stages = Stages()
        start = time.perf_counter()
        proof = api.prove(circuit, keys, {"x": 3}, stages=stages)
        runs.append((time.perf_counter() - start, stages))
    verifier = Verifier.load(directory)  # as a server verifies: the key and the layout, no IR
    start = time.perf_counter()
    verifier.verify(proof)
    verify_s = time.perf_counter() - start
    runs.sort(key=lambda r: r[0])
    prove_s, stages = runs[len(runs) // 2]
    # this process's own high-water mark: getrusage's ru_maxrss also counts the parent's (Linux
    # carries it across the exec of a child), which compiled and set up the circuit
    status = Path("/proc/self/status").read_text()
    peak_kib = int(next(ln.split()[1] for ln in status.splitlines() if ln.startswith("VmHWM:")))
    print(
        json.dumps(
            {
                "constraints": circuit.stats["constraints"],
                "prove_s": prove_s,
                "verify_s": verify_s,
                "stages": dict(stages.items),
                "peak_bytes": peak_kib * 1024,
            }
        )
    )


def fmt_us(seconds: float, constraints: int) -> str:
    return f"{1e6 * seconds / constraints:.1f}"


def report(rows: list[dict[str, Any]]) -> list[str]:
    lines = [
        "# zeenot vs gnark: Groth16 prove on BN254, side by side",
        "",
        f"{provenance()} on {platform.machine()} ({os.cpu_count()} cores).",
        "Statement: a chain of 2^k - 8 squarings of a private field element, the last value",
        "public (one constraint per squaring). gnark v0.12.0 (benchmarks/gnark/go.mod). zeenot:",
        "`api.prove` with the proving key already decoded and validated; gnark: `groth16.Prove`",
        "from the compiled constraint system. Medians; µs per constraint; ratio = zeenot / gnark.",
        "",
        "| k | constraints (zeenot / gnark) | threads | zeenot prove s | gnark prove s "
        "| zeenot µs/c | gnark µs/c | ratio | zeenot verify ms | gnark verify ms "
        "| zeenot peak kB/c |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        z, g = r["zeenot"], r["gnark"]
        lines.append(
            f"| {r['k']} | {z['constraints']} / {g['constraints']} | {r['threads']} "
            f"| {z['prove_s']:.3f} | {g['prove_s']:.3f} "
            f"| {fmt_us(z['prove_s'], z['constraints'])} "
            f"| {fmt_us(g['prove_s'], g['constraints'])} "
            f"| {z['prove_s'] / g['prove_s']:.2f} "
            f"| {1e3 * z['verify_s']:.1f} | {1e3 * g['verify_s']:.1f} "
            f"| {z['peak_bytes'] / z['constraints'] / 1000:.2f} |"
        )
    lines += ["", "Where zeenot's prove time goes (the median proof), seconds:", ""]
    names = list(rows[0]["zeenot"]["stages"]) if rows else []
    lines.append("| k | threads | " + " | ".join(names) + " |")
    lines.append("|---|---|" + "---|" * len(names))
    for r in rows:
        st = r["zeenot"]["stages"]
        lines.append(
            f"| {r['k']} | {r['threads']} | " + " | ".join(f"{st[n]:.3f}" for n in names) + " |"
        )
    lines += ["", "Setup, seconds (zeenot on all cores / gnark at the first thread count):", ""]
    first = {r["k"]: r for r in reversed(rows)}
    for k, r in sorted(first.items()):
        lines.append(f"- 2^{k}: {r['zeenot']['setup_s']:.2f} / {r['gnark']['setup_s']:.2f}")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[12, 14, 16, 18], metavar="K")
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("-o", "--output", type=Path, help="write the Markdown report here")
    ap.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker, args.reps)
        return 0
    build_gnark()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in args.sizes:
            directory = prepare_zeenot(k, Path(tmp))
            setup_s = float((directory / "setup_s").read_text())
            for t in args.threads:
                z = run_zeenot(directory, t, args.reps)
                z["setup_s"] = setup_s
                g = run_gnark(k, t, args.reps)
                rows.append({"k": k, "threads": t, "zeenot": z, "gnark": g})
                print(
                    f"2^{k} threads={t}: zeenot {z['prove_s']:.3f} s, gnark {g['prove_s']:.3f} s "
                    f"({z['prove_s'] / g['prove_s']:.2f}x)",
                    file=sys.stderr,
                )
    publish(report(rows), args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
