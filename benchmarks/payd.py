"""Benchmark: the pay-as-you-drive example at three sizes (days of log).

For each size: constraints, Groth16 setup, proving-key validation (decode and subgroup checks,
once per key), prove and verify wall time (median of --reps runs), proof size, and verification
time side by side with snarkjs's verifier on the very same exported proof
(`snarkjs.groth16.verify` timed inside one Node process).

    .venv/bin/python benchmarks/payd.py [--days 7 30 90] [--reps 5]
                                        [-o benchmarks/results/payd.json]

Prints a Markdown table (the README's performance table); writes the figures as JSON only with -o.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from zeenot import _native, api

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "examples" / "payd" / "app.py"
SNARKJS_TIMER = ROOT / "benchmarks" / "snarkjs_verify_time.mjs"


def variant(days: int, workdir: Path) -> tuple[str, dict]:
    """The example with a `days`-day log, and plausible inputs for it."""
    src = APP.read_text()
    src = re.sub(r"^DAYS = \d+$", f"DAYS = {days}", src, flags=re.M)
    week = ", ".join(["u32"] * days)
    src = re.sub(r"^Week = tuple\[.*\]$", f"Week = tuple[{week}]", src, flags=re.M)
    path = workdir / f"payd_{days}.py"
    path.write_text(src)
    km = [(37 * d) % 250 for d in range(days)]
    inputs = {
        "km": km,
        "night_km": [k // 5 for k in km],
        "base_cents": 500,
        "cap_cents": 1_000_000,
    }
    return f"{path}:weekly_premium", inputs


def timed(fn, reps: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(reps):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


def snarkjs_verify_ms(circuit, keys, proof, workdir: Path, reps: int) -> float | None:
    node_bin = ROOT / "node_modules" / "snarkjs"
    if not node_bin.exists():
        return None
    out = api.export_snarkjs(circuit, keys.verifying_key, proof, workdir / "snarkjs")
    res = subprocess.run(
        ["node", str(SNARKJS_TIMER), str(out), str(reps)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    return float(res.stdout.strip())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--days", type=int, nargs="+", default=[7, 30, 90])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("-o", "--output", type=Path, help="write the figures as JSON here")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for days in args.days:
            target, inputs = variant(days, work)
            t_compile, circuit = timed(lambda t=target: api.compile(t), 1)
            t_setup, keys = timed(lambda c=circuit: api.setup(c), 1)
            # decode + every point check, once per key (setup records its keys in the key
            # cache, so `keys.prepared` would take the trusted path: time the checks themselves)
            t_key, _ = timed(lambda k=keys: _native.prepare_proving_key(k.proving_key, False), 1)
            t_prove, proof = timed(
                lambda c=circuit, k=keys, i=inputs: api.prove(c, k, i), args.reps
            )
            t_verify, _ = timed(
                lambda c=circuit, k=keys, p=proof: api.verify(c, k.verifying_key, p), args.reps
            )
            snark_ms = snarkjs_verify_ms(circuit, keys, proof, work, args.reps)
            rows.append(
                {
                    "days": days,
                    "constraints": circuit.stats["constraints"],
                    "compile_s": t_compile,
                    "setup_s": t_setup,
                    "key_validation_s": t_key,
                    "prove_s": t_prove,
                    "verify_ms": t_verify * 1e3,
                    "snarkjs_verify_ms": snark_ms,
                    "proof_bytes": len(proof.proof),
                    "proving_key_bytes": len(keys.proving_key),
                }
            )
    if args.output:
        args.output.write_text(json.dumps(rows, indent=2) + "\n")
    print(
        "| days | constraints | compile | setup | key validation | prove | verify | snarkjs verify "
        "| verify ratio | proof | proving key |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        snark = r["snarkjs_verify_ms"]
        ratio = f"{snark / r['verify_ms']:.1f}× faster" if snark else "n/a"
        snark_s = f"{snark:.1f} ms" if snark else "n/a"
        print(
            f"| {r['days']} | {r['constraints']:,} | {r['compile_s']:.2f} s | {r['setup_s']:.2f} s "
            f"| {r['key_validation_s']:.2f} s | {r['prove_s']:.2f} s | {r['verify_ms']:.1f} ms "
            f"| {snark_s} | {ratio} "
            f"| {r['proof_bytes']} B | {r['proving_key_bytes'] / 1e6:.1f} MB |"
        )


if __name__ == "__main__":
    main()
