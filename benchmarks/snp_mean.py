"""Benchmark: the SNP-mean aggregation (examples/snp_mean) at N = 10, 100, 1000 ciphertexts.

    .venv/bin/python benchmarks/snp_mean.py [--sizes 10 100 1000] [--reps 3] [--committed]
                                            [-o benchmarks/results/snp_mean.json]

For each N: constraints, setup, prove and verify (medians over reps), proving-key size, and the
decrypted mean checked against the plain data. The homomorphic addition inside is the complete
Edwards addition (6 constraints per point, 12 per ciphertext); the seed report's figures for
the same use case are 12 (circomlib) and 6 (its incomplete Montgomery addition) per ciphertext.

Prints a Markdown table row per variant and N; writes the figures as JSON only with -o.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples" / "snp_mean"))

from run import statement  # noqa: E402

from zeenot import api  # noqa: E402
from zeenot.babyjub import Ciphertext, Point, decrypt  # noqa: E402


def timed(f, reps: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(reps):
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--committed", action="store_true", help="also the Poseidon-digest variant")
    ap.add_argument("-o", "--output", type=Path, help="write the figures as JSON here")
    args = ap.parse_args()
    rows = []
    variants = [False, True] if args.committed else [False]
    print(
        "| variant | N | constraints | public inputs | setup | prove | verify | proving key "
        "| mean |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|", flush=True)
    for committed, n in [(c, n) for c in variants for n in args.sizes]:
        fn, inputs, sk, counts = statement(n, 1, committed)
        circuit = api.compile(fn)
        t_setup, keys = timed(lambda c=circuit: api.setup(c), 1)
        keys.prepared  # noqa: B018 - validate the proving key once, outside the prove timing
        t_prove, proof = timed(lambda c=circuit, k=keys, i=inputs: api.prove(c, k, i), args.reps)
        t_verify, _ = timed(
            lambda c=circuit, k=keys, p=proof: api.verify(c, k.verifying_key, p), args.reps
        )
        total, count = proof.outputs
        s = decrypt(sk, Ciphertext(Point(**total["c1"]), Point(**total["c2"])), bits=16)
        assert s == sum(counts) and count == n
        rows.append(
            {
                "variant": "committed" if committed else "public",
                "n": n,
                "constraints": circuit.stats["constraints"],
                "public_inputs": circuit.stats["public_inputs"],
                "setup_s": t_setup,
                "prove_s": t_prove,
                "verify_s": t_verify,
                "proving_key_bytes": len(keys.proving_key),
                "mean": s / n,
            }
        )
        r = rows[-1]
        print(
            f"| {r['variant']} | {n:,} | {r['constraints']:,} | {r['public_inputs']:,} "
            f"| {t_setup:.2f} s "
            f"| {t_prove:.2f} s | {t_verify * 1000:.1f} ms "
            f"| {r['proving_key_bytes'] / 1e6:.1f} MB | {r['mean']:.3f} |",
            flush=True,
        )
    if args.output:
        args.output.write_text(json.dumps(rows, indent=2) + "\n")
        print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
