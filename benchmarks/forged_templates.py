"""Benchmark: what a forged template proof costs the verifier, at lengths just under its limit.

A template (a list without `MaxSize`: examples/fitbit's `donation_any_length`) is verified by
compiling its source at the lengths the proof names, which are the sender's to choose; the
verifier bounds that work (`--max-instructions`, default 10,000 IR instructions: about 357
samples of this program). The forgeries, from an honest proof of 4 samples:

* `lengths`: only `lengths` changed (the program hash still names 4 samples);
* `lengths+hash`: the program hash changed too, to the one at the forged length (the forger
  compiled the source there, as the verifier will), so verification reaches the proof bytes;
* `shaped` (with --shaped): the bytes of an honest proof whose circuit pads to the same power of
  two of gates, so the proof has every round the verifier expects and the check runs to the end.

Each forged proof is verified in a fresh process (`cold`: nothing cached, as `zeenot verify`
runs) and then again in that process with a freshly loaded template (`warm`: a server that has
verified before keeps the Bulletproof generators, derived once per process). CPU time is
`time.process_time` around `api.verify` (all threads), the template already loaded.

    .venv/bin/python benchmarks/forged_templates.py [--lengths 300 320 340 357] [--shaped]
                                                    [-o RESULTS.json] [--markdown RESULTS.md]

Prints a Markdown table; writes the figures only with -o / --markdown.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FITBIT = ROOT / "examples" / "fitbit"
TARGET = f"{FITBIT / 'app.py'}:donation_any_length"
LENGTHS = [300, 320, 340, 357]


def _timed_verify(directory: str, proof_text: str) -> tuple[float, str]:
    from zeenot import api

    template = api.load(directory)
    proof = api.Proof.from_json(proof_text)
    start = time.process_time()
    try:
        api.verify(template, None, proof)
        outcome = "valid"
    except api.ZeenotError as exc:
        outcome = f"{type(exc).__name__}: {str(exc)[:70]}"
    return time.process_time() - start, outcome


def child(directory: str, proof_path: str) -> None:
    """One forged proof in a fresh process: cold, then warm."""
    text = Path(proof_path).read_text()
    cold, outcome = _timed_verify(directory, text)
    warm, _ = _timed_verify(directory, text)
    print(json.dumps({"cold_s": cold, "warm_s": warm, "outcome": outcome}))


def forge(directory: Path, honest: dict[str, Any], n: int, kind: str, shaped: dict | None) -> Path:
    from zeenot import api

    doc = dict(shaped if kind == "shaped" and shaped is not None else honest)
    doc["lengths"] = {"trace": n}
    if kind != "lengths":
        doc["program_hash"] = api.load(directory).at({"trace": n}, max_instructions=10**6).hash
    path = directory / f"forged-{kind}-{n}.json"
    path.write_text(json.dumps(doc))
    return path


def measure(lengths: list[int], with_shaped: bool) -> list[dict[str, Any]]:
    from zeenot import api

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from lists import load_data  # benchmarks/lists.py: the examples' data generators

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        template = api.compile(TARGET)
        template.save(d)
        honest = json.loads(api.prove_sigma(template, load_data("fitbit").generate(4, 1)).to_json())
        shaped = None
        if with_shaped:  # the fewest samples whose circuit pads to 2^17 gates, as at 300..357
            proof = api.prove_sigma(api.load(d), load_data("fitbit").generate(178, 1))
            shaped = json.loads(proof.to_json())
        for n in lengths:
            predicted = api.load(d).predicted_size({"trace": n})
            for kind in ["lengths", "lengths+hash"] + (["shaped"] if with_shaped else []):
                path = forge(d, honest, n, kind, shaped)
                out = subprocess.run(
                    [sys.executable, __file__, "--child", str(d), str(path)],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
                row = {"n": n, "forgery": kind, "predicted": predicted, **json.loads(out)}
                rows.append(row)
                print(markdown(rows[-1:]).splitlines()[-1], flush=True)
    return rows


def markdown(rows: list[dict[str, Any]]) -> str:
    out = [
        "| samples | forgery | predicted instructions | outcome | CPU cold | CPU warm |",
        "|---:|---|---:|---|---:|---:|",
    ]
    for r in rows:
        out.append(
            f"| {r['n']} | {r['forgery']} | {r['predicted']:,} | {r['outcome'].split(':')[0]} "
            f"| {r['cold_s']:.2f} s | {r['warm_s']:.2f} s |"
        )
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lengths", type=int, nargs="+", default=LENGTHS)
    ap.add_argument("--shaped", action="store_true", help="also a proof with every round")
    ap.add_argument("-o", "--output", type=Path, help="write the figures as JSON here")
    ap.add_argument("--markdown", type=Path, help="write the Markdown table here")
    ap.add_argument("--child", nargs=2, metavar=("DIR", "PROOF"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return
    rows = measure(args.lengths, args.shaped)
    print(markdown(rows))
    if args.output:
        doc = {
            "command": "benchmarks/forged_templates.py",
            "args": {"lengths": args.lengths, "shaped": args.shaped},
            "rows": rows,
        }
        args.output.write_text(json.dumps(doc, indent=2) + "\n")
    if args.markdown:
        args.markdown.write_text(markdown(rows))


if __name__ == "__main__":
    main()
