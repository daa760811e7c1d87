"""Benchmark: what a forged template proof costs the verifier, at lengths just under its limit.

A template (a list without `MaxSize`: examples/fitbit's `donation_any_length`) is verified by
compiling its source at the lengths the proof names, which are the sender's to choose; the
verifier bounds that work (`--max-instructions`, default 10,000 IR instructions: about 357
samples of this program). The forgeries, from an honest proof of 4 samples:

* `lengths`: only `lengths` changed (the program hash still names 4 samples);
* `lengths+hash`: the program hash changed too, to the one at the forged length (the forger
  compiled the source there, as the verifier will), so verification reaches the proof bytes;
* `shaped` (with --shaped, where the template compiles within the limit at that length): an
  honest proof of that many samples with its outputs changed (a false statement): every
  commitment and round is where the verifier expects it, so the check runs to the end,
  Bulletproof generators included (what a forger who writes well-formed bytes costs).

Each forged proof is verified in a fresh process with an empty cache directory
(`ZEENOT_CACHE_DIR`: `first`, the first verification on a machine, which derives the
Bulletproof generators and stores them), then in another fresh process with that directory
(`cold`: a one-shot `zeenot verify` on a machine that has verified before reads the generators
from disk), and then again in that process with a freshly loaded template (`warm`: a server
keeps the generators in memory). CPU time is `time.process_time` around `api.verify` (all
threads), the template already loaded.

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


def _in_fresh_processes(directory: Path, path: Path) -> dict[str, Any]:
    """`first` with an empty cache directory, then `cold` and `warm` with what it stored."""
    import os

    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "ZEENOT_CACHE_DIR": cache}
        runs = [
            json.loads(
                subprocess.run(
                    [sys.executable, __file__, "--child", str(directory), str(path)],
                    capture_output=True,
                    text=True,
                    check=True,
                    env=env,
                ).stdout
            )
            for _ in range(2)
        ]
    return {"first_s": runs[0]["cold_s"], **runs[1]}


def forge(directory: Path, honest: dict[str, Any], n: int, kind: str) -> Path:
    from zeenot import api

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from lists import load_data  # benchmarks/lists.py: the examples' data generators

    if kind == "shaped":
        template = api.load(directory)
        doc = json.loads(api.prove_sigma(template, load_data("fitbit").generate(n, 1)).to_json())
        doc["outputs"][0] += 1  # a cent more than the trace earns
    else:
        doc = dict(honest)
    doc["lengths"] = {"trace": n}
    if kind == "lengths+hash":
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
        for n in lengths:
            predicted = api.load(d).predicted_size({"trace": n})
            kinds = ["lengths", "lengths+hash"]
            if with_shaped and _within_limit(d, n):
                kinds.append("shaped")
            for kind in kinds:
                path = forge(d, honest, n, kind)
                row = {"n": n, "forgery": kind, "predicted": predicted}
                row.update(_in_fresh_processes(d, path))
                rows.append(row)
                print(markdown(rows[-1:]).splitlines()[-1], flush=True)
    return rows


def _within_limit(directory: Path, n: int) -> bool:
    from zeenot import api

    try:
        api.load(directory).for_proof({"trace": n}, api.DEFAULT_MAX_INSTRUCTIONS)
    except api.ProofRejected:
        return False
    return True


def markdown(rows: list[dict[str, Any]]) -> str:
    out = [
        "| samples | forgery | predicted instructions | outcome "
        "| CPU first | CPU cold | CPU warm |",
        "|---:|---|---:|---|---:|---:|---:|",
    ]
    for r in rows:
        out.append(
            f"| {r['n']} | {r['forgery']} | {r['predicted']:,} | {r['outcome'].split(':')[0]} "
            f"| {r['first_s']:.2f} s | {r['cold_s']:.2f} s | {r['warm_s']:.2f} s |"
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
