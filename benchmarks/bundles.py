"""Benchmark: a program in regions under the planner's mixed plan, against each single back end.

examples/split's `monthly_premium` checks a month of daily kilometres and sums them, then calls
the `@zk` function `premium`, a region of its own (docs/ir.md "Regions"). Measured side by
side, on the same inputs:

* the planner's plan (per region, from the shipped profile or --profile);
* both regions on one back end (groth16; sigma);
* the program inlined into one circuit (`api.compile(..., regions=False)`: no crossing
  commitments) on each back end: the single-back-end baselines that pay no crossing.

Each plan is costed with *measured* numbers under the planner's objective (client prove time,
server verify time and Groth16 setup / K, proof and proving-key bytes at `--weights`' price), so
the ratio "plan / best single back end" is measured, not predicted.

    .venv/bin/python benchmarks/bundles.py [--reps 5] [--proofs-per-setup K] [-o RESULT.md]

Prints Markdown; writes a file only with -o.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from report import provenance, publish

from zeenot import api, bundle
from zeenot.files import read_json
from zeenot.plan import Profile, Weights, plan, regions_of
from zeenot.plan.calibrate import best_of
from zeenot.verifier import Verifier

ROOT = Path(__file__).resolve().parents[1]
APP = f"{ROOT}/examples/split/app.py"
TARGET = f"{APP}:monthly_premium"
INPUTS = read_json(ROOT / "examples" / "split" / "monthly.json", "inputs")


def _objective(w: Weights, m: dict[str, float]) -> float:
    k = w.proofs_per_setup
    return (
        w.client * m["prove_s"]
        + w.server * (m["verify_s"] + m["setup_s"] / k)
        + w.byte * (m["proof_bytes"] + m["key_bytes"] / k)
    )


def measure_bundle(
    regions: bundle.Regions, backends: dict[str, str], reps: int
) -> dict[str, float]:
    keys: dict[str, api.Keys] = {}
    setup_s = key_bytes = 0.0
    for name, b in backends.items():
        if b == "groth16":
            s, keys[name] = best_of(1, lambda n=name: api.setup(regions.circuits[n]))
            keys[name].prepared  # noqa: B018 - validated once, outside the timed proofs
            setup_s += s
            key_bytes += len(keys[name].proving_key)
    prove_s, proved = best_of(reps, lambda: bundle.prove(regions, INPUTS, backends, keys))
    received = bundle.Bundle.from_json(proved.to_json())
    vks = {n: k.verifying_key for n, k in keys.items()}
    verify_s, _ = best_of(reps, lambda: bundle.verify(regions, vks, received))
    return {
        "prove_s": prove_s,
        "verify_s": verify_s,
        "proof_bytes": float(sum(len(p.proof) for p in proved.proofs.values())),
        "setup_s": setup_s,
        "key_bytes": key_bytes,
    }


def measure_inlined(circuit: api.Circuit, backend: str, reps: int) -> dict[str, float]:
    if backend == "sigma":
        prove_s, proof = best_of(reps, lambda: api.prove_sigma(circuit, INPUTS))
        verify_s, _ = best_of(reps, lambda: api.verify(circuit, None, proof))
        zero = {"setup_s": 0.0, "key_bytes": 0.0}
        return {"prove_s": prove_s, "verify_s": verify_s, "proof_bytes": len(proof.proof), **zero}
    setup_s, keys = best_of(1, lambda: api.setup(circuit))
    keys.prepared  # noqa: B018
    prove_s, proof = best_of(reps, lambda: api.prove(circuit, keys, INPUTS))
    verifier = Verifier.of(circuit, keys.verifying_key)
    verify_s, _ = best_of(reps, lambda: verifier.verify(proof))
    return {
        "prove_s": prove_s,
        "verify_s": verify_s,
        "proof_bytes": float(len(proof.proof)),
        "setup_s": setup_s,
        "key_bytes": float(len(keys.proving_key)),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--proofs-per-setup", type=float, default=1000.0)
    ap.add_argument("--profile", help="a calibration profile (default: the shipped one)")
    ap.add_argument("-o", "--output", type=Path)
    args = ap.parse_args(argv)
    weights = Weights(proofs_per_setup=args.proofs_per_setup)
    regions = api.compile(TARGET)
    assert isinstance(regions, bundle.Regions)
    chosen = plan(regions_of(TARGET, INPUTS), Profile.load(args.profile), weights)
    planned = {c.region.name: c.backend for c in chosen.choices}
    inlined = api.compile(api.load_target(TARGET), regions=False)
    assert isinstance(inlined, api.Circuit)

    rows: list[tuple[str, dict[str, Any]]] = []
    label = ", ".join(f"{n} {b}" for n, b in planned.items())
    rows.append((f"regions, planned ({label})", measure_bundle(regions, planned, args.reps)))
    for b in api.BACKENDS:
        every = dict.fromkeys(regions.circuits, b)
        rows.append((f"regions, all {b}", measure_bundle(regions, every, args.reps)))
    for b in api.BACKENDS:
        rows.append((f"one circuit (inlined), {b}", measure_inlined(inlined, b, args.reps)))

    best_single = min(_objective(weights, m) for name, m in rows[1:])
    sizes = ", ".join(f"{n} {c.stats['constraints']}" for n, c in regions.circuits.items())
    lines = [
        "# A program in regions: the planner's mixed plan against single back ends",
        "",
        f"`monthly_premium` (examples/split), regions' constraints: {sizes}; inlined: "
        f"{inlined.stats['constraints']}. Weights: client {weights.client}/s, server "
        f"{weights.server}/s, {weights.byte}/byte, K = {weights.proofs_per_setup:g} proofs per "
        f"setup; best of {args.reps} runs.",
        "",
        "| plan | prove | verify | proof bytes | setup | objective | vs best single |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, m in rows:
        obj = _objective(weights, m)
        lines.append(
            f"| {name} | {m['prove_s'] * 1e3:.1f} ms | {m['verify_s'] * 1e3:.2f} ms | "
            f"{m['proof_bytes']:.0f} | {m['setup_s']:.2f} s | {obj:.4f} | "
            f"{obj / best_single:.2f}× |"
        )
    lines += ["", provenance()]
    publish(lines, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
