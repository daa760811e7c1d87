"""CRISP's three use cases from certified data (issue 30), path (a): compile, setup, prove,
verify and sizes per use case and size, on this machine.

    PYTHONPATH=python python benchmarks/crisp.py                      # the tests' sizes
    PYTHONPATH=python python benchmarks/crisp.py --crisp              # CRISP's sizes
    PYTHONPATH=python python benchmarks/crisp.py --only activity:256  # one case
    PYTHONPATH=python python benchmarks/crisp.py --only activity:2048 --max-instructions 300000

Each result line records the machine's load (`uptime`'s 1-minute average) before and after.
Path (b) (ciphertexts, the encryptions on the sigma back end) is measured by
`examples/genome/certified_encrypted.py --snps N` in one process, and as processes over HTTP by
`benchmarks/crisp_exchange.py`.

CRISP (USENIX Security 2021, Table 1 and §6) for comparison: disease susceptibility over 2,048
SNPs proves in 26 s and verifies in 13 s (proofs of tens of MB); activity tracking over 2,048
points proves in 7.9 min and verifies in 3.4 min (~1.5 GB), with a 1.5·10⁻² mean relative
error from its square-root polynomial. zeenot's results are exact: they equal the references.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from zeenot import api
from zeenot.lang import load_module

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"

# case: size -> (target, inputs maker, reference)
SMALL = {"metering": 48, "genome": 256, "activity": 32}
CRISP = {"metering": 1_440, "genome": 2_048, "activity": 2_048}
TARGETS = {
    ("metering", 48): "metering/certified.py:bill_day",
    ("metering", 1_440): "metering/certified.py:bill_month",
    ("genome", 256): "genome/certified.py:scores_256",
    ("genome", 2_048): "genome/certified.py:scores",
    ("activity", 32): "activity/certified.py:distance_32",
    ("activity", 256): "activity/certified.py:distance_256",
    ("activity", 2_048): "activity/certified.py:distance",
    ("activity-hinted", 32): "activity/certified.py:distance_hinted_32",
    ("activity-hinted", 256): "activity/certified.py:distance_hinted_256",
    ("activity-hinted", 2_048): "activity/certified.py:distance_hinted",
}


def case_inputs(case: str, size: int) -> tuple[dict, object]:
    if case == "metering":
        d = load_module(str(EX / "metering" / "certified_data.py"))
        doc = d.inputs(days=size // 48)
        return doc, d.reference(doc)
    if case == "genome":
        d = load_module(str(EX / "genome" / "data.py"))
        doc = d.inputs(size)
        return doc, d.reference(doc, [w[:size] for w in d.weights()])
    d = load_module(str(EX / "activity" / "data.py"))
    doc = d.inputs(size, hinted=case == "activity-hinted")
    return doc, d.reference(doc)


def compile_target(target: str, max_instructions: int | None) -> api.Circuit:
    """`api.compile`, with the front end's instruction limit raised where given."""
    circuit = api.compile(target, max_instructions=max_instructions)
    assert isinstance(circuit, api.Circuit)
    return circuit


def measure(case: str, size: int, max_instructions: int | None = None) -> dict:
    load_before = os.getloadavg()[0]
    doc, want = case_inputs(case, size)
    t = time.perf_counter()
    circuit = compile_target(f"{EX / TARGETS[(case, size)]}", max_instructions)
    t_compile = time.perf_counter() - t
    t = time.perf_counter()
    keys = api.setup(circuit, seed=1)
    t_setup = time.perf_counter() - t
    t = time.perf_counter()
    proof = api.prove(circuit, keys, doc)
    t_prove = time.perf_counter() - t
    verify = []
    for _ in range(5):
        t = time.perf_counter()
        api.verify(circuit, keys.verifying_key, proof)
        verify.append(time.perf_counter() - t)
    if proof.outputs != want:
        raise SystemExit(f"{case}:{size}: {proof.outputs} != reference {want}")
    return {
        "case": case,
        "size": size,
        "constraints": circuit.stats["constraints"],
        "compile_s": round(t_compile, 2),
        "setup_s": round(t_setup, 2),
        "prove_s": round(t_prove, 2),
        "verify_ms": round(1000 * min(verify), 2),
        "proof_bytes": len(proof.proof),
        "outputs": proof.outputs,
        "equals_reference": True,
        # the machine's 1-minute load average (`uptime`) before and after: times on a shared
        # machine are upper bounds, the more so the higher the load above its cores
        "load_1m": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "cores": os.cpu_count(),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--crisp", action="store_true", help="CRISP's sizes (1,440 / 2,048 / 2,048)")
    ap.add_argument("--only", action="append", default=[], help="CASE:SIZE (repeatable)")
    ap.add_argument(
        "--max-instructions",
        type=int,
        metavar="N",
        help="the front end's instruction limit (activity:2048 exceeds the default 200,000)",
    )
    args = ap.parse_args()
    sizes = CRISP if args.crisp else SMALL
    todo = [(c, int(s)) for c, s in (o.split(":") for o in args.only)] or list(sizes.items())
    for case, size in todo:
        if (case, size) not in TARGETS:
            raise SystemExit(f"no target for {case}:{size}; sizes: {sorted(TARGETS)}")
        print(json.dumps(measure(case, size, args.max_instructions)), flush=True)


if __name__ == "__main__":
    sys.exit(main())
