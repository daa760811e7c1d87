"""Benchmark: a list without `MaxSize` (a `Template`) against the same program with one.

FitBit's steps donation is written twice in examples/fitbit/app.py: `steps_donation` takes
`MaxSize[list[Sample], 64]`, `donation_any_length` takes `list[Sample]`. For traces of n
samples, both are proved with the sigma back end on the same inputs:

* bounded: the circuit has 64 slots whatever n is (the length stays private);
* template: specialised at n (the length is public), so the proof covers n elements only.

Reported: prove and verify wall time (median of --reps; the template's verify includes the
verifier's compile of the source at the proof's lengths, its prove the prover's), proof size,
and template / bounded ratios. Outputs are checked equal to each other and to `simulate`.

    .venv/bin/python benchmarks/unbounded.py [--sizes 4 8 16 32 64] [--reps 1] [-o RESULTS.json]
                                             [--markdown RESULTS.md]

Prints a Markdown table; writes the figures as JSON only with -o and the table only with
--markdown (the README's command passes -o benchmarks/results/unbounded.json and
--markdown benchmarks/results/unbounded.md).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from lists import load_data, timed  # benchmarks/lists.py: the same timing and data loading

from zeenot import api
from zeenot.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
FITBIT = ROOT / "examples" / "fitbit"
SIZES = [4, 8, 16, 32, 64]


def generate(n: int, seed: int) -> dict[str, Any]:
    return load_data("fitbit").generate(n, seed)


def measure(n: int, reps: int, seed: int) -> dict[str, Any]:
    inputs = generate(n, seed)
    bounded = api.compile(f"{FITBIT / 'app.py'}:steps_donation")
    row: dict[str, Any] = {"n": n}
    t, proof = timed(lambda: api.prove_sigma(bounded, inputs), reps)
    v, _ = timed(lambda: api.verify(bounded, None, proof), reps)
    row["bounded"] = {"prove_s": t, "verify_s": v, "proof_bytes": len(proof.proof)}
    expected = simulate(api.load_target(f"{FITBIT / 'app.py'}:steps_donation"), inputs)
    assert proof.outputs == expected, (proof.outputs, expected)

    def fresh() -> api.Template:  # no cached specialisation: each party compiles once
        template = api.compile(f"{FITBIT / 'app.py'}:donation_any_length")
        assert isinstance(template, api.Template)
        return template

    t, proof = timed(lambda: api.prove_sigma(fresh(), inputs), reps)
    v, _ = timed(lambda: api.verify(fresh(), None, proof), reps)
    c, _ = timed(lambda: fresh().at({"trace": n}), reps)
    row["template"] = {
        "prove_s": t,
        "verify_s": v,
        "compile_s": c,
        "proof_bytes": len(proof.proof),
    }
    assert proof.outputs == expected, (proof.outputs, expected)
    return row


def markdown(rows: list[dict[str, Any]]) -> str:
    out = [
        "| n | bounded (64 slots) prove / verify / proof | template prove / verify / proof "
        "| of which compile | template / bounded: prove, verify, size |",
        "|---:|---|---|---:|---|",
    ]
    for r in rows:
        b, t = r["bounded"], r["template"]
        out.append(
            f"| {r['n']} | {b['prove_s']:.2f} s / {b['verify_s']:.2f} s / "
            f"{b['proof_bytes'] / 1000:.0f} kB | {t['prove_s']:.2f} s / {t['verify_s']:.2f} s / "
            f"{t['proof_bytes'] / 1000:.0f} kB | {t['compile_s']:.2f} s | "
            f"{t['prove_s'] / b['prove_s']:.2f}×, {t['verify_s'] / b['verify_s']:.2f}×, "
            f"{t['proof_bytes'] / b['proof_bytes']:.2f}× |"
        )
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=SIZES)
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", type=Path, help="write the figures as JSON here")
    ap.add_argument("--markdown", type=Path, help="write the Markdown table here")
    args = ap.parse_args()
    rows = []
    for n in args.sizes:
        rows.append(measure(n, args.reps, args.seed))
        print(markdown(rows[-1:]).splitlines()[-1], flush=True)
    print(markdown(rows))
    if args.output:
        params = {"sizes": args.sizes, "reps": args.reps, "seed": args.seed}
        doc = {"command": "benchmarks/unbounded.py", "args": params, "rows": rows}
        args.output.write_text(json.dumps(doc, indent=2) + "\n")
    if args.markdown:
        args.markdown.write_text(markdown(rows))


if __name__ == "__main__":
    main()
