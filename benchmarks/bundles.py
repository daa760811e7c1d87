"""Benchmark: a program in regions under the planner's mixed plan, against each single back end.

Two programs whose `@zk` function calls another (a region of its own, docs/ir.md "Regions"):
examples/split's `monthly_premium` (a month of daily kilometres checked and summed; the
premium from the committed total) and examples/bonus's `encrypted_bonus` (3 % of private
sales; the bonus encrypted to an authority's key). Measured side by side, on the same inputs:

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
from zeenot.plan import Cost, Profile, Weights, plan, regions_of
from zeenot.plan.calibrate import best_of, measure
from zeenot.plan.features import sigma_supports
from zeenot.plan.planner import MEASURES

ROOT = Path(__file__).resolve().parents[1]
CASES = [
    ("split", "monthly_premium", "monthly.json"),
    ("bonus", "encrypted_bonus", "inputs.json"),
    ("survey", "scored", "inputs.json"),
]


def _objective(w: Weights, m: dict[str, float]) -> float:
    """The planner's objective on measured numbers (the client proves)."""
    return w.objective(Cost(**{k: m.get(k, 0.0) for k in MEASURES}))


def measure_bundle(
    regions: bundle.Regions, inputs: dict[str, Any], backends: dict[str, str], reps: int
) -> dict[str, float]:
    keys: dict[str, api.Keys] = {}
    setup_s = key_bytes = 0.0
    for name, b in backends.items():
        if b == "groth16":
            s, keys[name] = best_of(1, lambda n=name: api.setup(regions.circuits[n]))
            keys[name].prepared  # noqa: B018 - validated once, outside the timed proofs
            setup_s += s
            key_bytes += len(keys[name].proving_key)
    prove_s, proved = best_of(reps, lambda: bundle.prove(regions, inputs, backends, keys))
    received = bundle.Bundle.from_json(proved.to_json())
    verifier = bundle.BundleVerifier(regions, {n: k.verifying_key for n, k in keys.items()})
    verify_s, _ = best_of(reps, lambda: verifier.verify(received))  # keys prepared once
    return {
        "prove_s": prove_s,
        "verify_s": verify_s,
        "proof_bytes": float(sum(len(p.proof) for p in proved.proofs.values())),
        "setup_s": setup_s,
        "key_bytes": key_bytes,
    }


def measure_inlined(
    circuit: api.Circuit, inputs: dict[str, Any], backend: str, reps: int
) -> dict[str, float] | None:
    """One circuit on one back end, as `zeenot calibrate` measures it (None: it cannot)."""
    if backend == "sigma" and not sigma_supports(circuit, inputs):
        return None
    return measure(circuit, inputs, reps, backends=[backend])[backend]


def measure_case(
    example: str, fn: str, inputs_file: str, weights: Weights, profile: Profile, reps: int
) -> list[str]:
    target = f"{ROOT}/examples/{example}/app.py:{fn}"
    inputs = read_json(ROOT / "examples" / example / inputs_file, "inputs")
    regions = api.compile(target)
    assert isinstance(regions, bundle.Regions)
    chosen = plan(regions_of(target, inputs), profile, weights)
    planned = {c.region.name: c.backend for c in chosen.choices}
    inlined = api.compile(api.load_target(target), regions=False)
    assert isinstance(inlined, api.Circuit)

    rows: list[tuple[str, dict[str, Any] | None]] = []
    label = ", ".join(f"{n} {b}" for n, b in planned.items())
    rows.append((f"regions, planned ({label})", measure_bundle(regions, inputs, planned, reps)))
    for b in api.BACKENDS:
        every = dict.fromkeys(regions.circuits, b)
        rows.append((f"regions, all {b}", measure_bundle(regions, inputs, every, reps)))
    for b in api.BACKENDS:
        rows.append((f"one circuit (inlined), {b}", measure_inlined(inlined, inputs, b, reps)))

    best_single = min(_objective(weights, m) for _, m in rows[1:] if m is not None)
    sizes = ", ".join(f"{n} {c.stats['constraints']}" for n, c in regions.circuits.items())
    lines = [
        f"## `{fn}` (examples/{example})",
        "",
        f"Regions' constraints: {sizes}; inlined: {inlined.stats['constraints']}.",
        "",
        "| plan | prove | verify | proof bytes | setup | objective | vs best single |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, m in rows:
        if m is None:
            lines.append(f"| {name} | | | | | | cannot: a field value |")
            continue
        obj = _objective(weights, m)
        lines.append(
            f"| {name} | {m['prove_s'] * 1e3:.1f} ms | {m['verify_s'] * 1e3:.2f} ms | "
            f"{m['proof_bytes']:.0f} | {m.get('setup_s', 0.0):.2f} s | {obj:.4f} | "
            f"{obj / best_single:.2f}× |"
        )
    return lines + [""]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--proofs-per-setup", type=float, default=1000.0)
    ap.add_argument("--profile", help="a calibration profile (default: the shipped one)")
    ap.add_argument("-o", "--output", type=Path)
    args = ap.parse_args(argv)
    weights = Weights(proofs_per_setup=args.proofs_per_setup)
    profile = Profile.load(args.profile)
    lines = [
        "# Programs in regions: the planner's mixed plan against single back ends",
        "",
        f"Weights: client {weights.client}/s, server {weights.server}/s, {weights.byte}/byte, "
        f"K = {weights.proofs_per_setup:g} proofs per setup; best of {args.reps} runs. "
        '"vs best single": the objective against the cheapest plan on one back end (over the '
        "same regions, or the program inlined into one circuit).",
        "",
    ]
    for example, fn, inputs_file in CASES:
        lines += measure_case(example, fn, inputs_file, weights, profile, args.reps)
    lines.append(provenance())
    publish(lines, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
