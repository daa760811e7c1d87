"""Benchmark: Groth16 verification as a server does it, against the IR-reading path.

1. **Flat in the program's size.** A private list of N `u32` readings (N = 64 … 4096) summed
   and range-checked: for each N, the time to load a circuit directory and verify one proof,
   and to verify one more proof with what is loaded, by the IR-reading path
   (`api.load` + `api.verify`: reads and hashes the IR) and by `Verifier` (reads `verifier.json`
   and the verifying key).
2. **Throughput.** Many payd proofs verified one by one and as batches (`verify_batch`), in
   proofs per second, on this machine's cores; and `zeenot verify` as a process.

    .venv/bin/python benchmarks/verify.py [--sizes 64 256 1024 4096] [--proofs 2000] [-o OUT.json]

Prints Markdown tables; writes JSON only with `-o`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from zeenot import api
from zeenot.verifier import Verifier

ROOT = Path(__file__).resolve().parents[1]
PAYD = ROOT / "examples" / "payd"

LIST_APP = """\
from zeenot import MaxSize, Private, Public, check, u32, u64, zk

N = {n}


@zk
def total(readings: Private[MaxSize[list[u32], N]], cap: Public[u32]) -> u64:
    for r in readings:
        check(r <= cap)
    return sum(u64(r) for r in readings)
"""


def median_time(fn, reps: int) -> float:
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def flat(sizes: list[int], work: Path, reps: int) -> list[dict]:
    rows = []
    for n in sizes:
        src = work / f"total_{n}.py"
        src.write_text(LIST_APP.format(n=n))
        d = work / f"total_{n}"
        circuit = api.compile(f"{src}:total")
        assert isinstance(circuit, api.Circuit)
        circuit.save(d)
        keys = api.setup(circuit, seed=1)
        keys.save(d)
        proof = api.prove(circuit, keys, {"readings": [n % 97] * n, "cap": 100}, seed=2)

        def ir_path(d=d, proof=proof) -> None:
            c = api.load(d)
            api.verify(c, api.Keys.load(d, proving=False).verifying_key, proof)

        def layout_path(d=d, proof=proof) -> None:
            Verifier.load(d).verify(proof)

        loaded = Verifier.load(d)
        ir_circuit = api.load(d)
        rows.append(
            {
                "n": n,
                "constraints": circuit.stats["constraints"],
                "ir_bytes": (d / api.IR_FILE).stat().st_size,
                "ir_load_verify_ms": 1e3 * median_time(ir_path, reps),
                "load_verify_ms": 1e3 * median_time(layout_path, reps),
                "ir_verify_ms": 1e3
                * median_time(
                    lambda c=ir_circuit, p=proof, k=keys: api.verify(c, k.verifying_key, p), reps
                ),
                "verify_ms": 1e3 * median_time(lambda v=loaded, p=proof: v.verify(p), reps),
            }
        )
        print(f"  n={n}: {rows[-1]}", file=sys.stderr)
    return rows


def throughput(count: int, work: Path) -> dict:
    d = work / "payd"
    circuit = api.compile(f"{PAYD / 'app.py'}:weekly_premium")
    assert isinstance(circuit, api.Circuit)
    circuit.save(d)
    keys = api.setup(circuit, seed=1)
    keys.save(d)
    base = json.loads((PAYD / "inputs.json").read_text())
    distinct = [
        api.prove(circuit, keys, dict(base, km=[(k + i) % 300 for k in base["km"]]), seed=i)
        for i in range(16)
    ]
    proofs = [distinct[i % len(distinct)] for i in range(count)]
    verifier = Verifier.load(d)
    t = time.perf_counter()
    for p in proofs:
        verifier.verify(p)
    one_by_one = count / (time.perf_counter() - t)
    batches = {}
    for size in (64, 256, 1024):
        t = time.perf_counter()
        for i in range(0, count, size):
            assert verifier.verify_batch(proofs[i : i + size]) == [None] * len(proofs[i : i + size])
        batches[size] = count / (time.perf_counter() - t)
    path = d / "proof.json"
    path.write_text(distinct[0].to_json())
    zeenot = [sys.executable, "-m", "zeenot.cli", "verify", str(d), str(path)]
    cli_s = median_time(lambda: subprocess.run(zeenot, check=True, capture_output=True), 5)
    files = []
    for i in range(200):
        f = d / f"p{i}.json"
        f.write_text(proofs[i].to_json())
        files.append(str(f))
    many = [sys.executable, "-m", "zeenot.cli", "verify", str(d), *files]
    cli_200_s = median_time(lambda: subprocess.run(many, check=True, capture_output=True), 3)
    return {
        "proofs": count,
        "one_by_one_per_s": one_by_one,
        "batch_per_s": batches,
        "cli_one_proof_s": cli_s,
        "cli_200_proofs_s": cli_200_s,
    }


def sigma_throughput(count: int) -> dict:
    """payd's sigma proofs (no keys): one by one (`api.verify`) and in batches
    (`api.verify_sigma_batch`: one multi-exponentiation per batch)."""
    circuit = api.compile(f"{PAYD / 'app.py'}:weekly_premium")
    assert isinstance(circuit, api.Circuit)
    base = json.loads((PAYD / "inputs.json").read_text())
    distinct = [
        api.prove_sigma(circuit, dict(base, km=[(k + i) % 300 for k in base["km"]]), seed=i)
        for i in range(16)
    ]
    proofs = [distinct[i % len(distinct)] for i in range(count)]
    t = time.perf_counter()
    for p in proofs:
        api.verify(circuit, None, p)
    one_by_one = count / (time.perf_counter() - t)
    batches = {}
    for size in (16, 64, 256):
        t = time.perf_counter()
        for i in range(0, count, size):
            chunk = proofs[i : i + size]
            assert api.verify_sigma_batch(circuit, chunk) == [None] * len(chunk)
        batches[size] = count / (time.perf_counter() - t)
    return {"proofs": count, "one_by_one_per_s": one_by_one, "batch_per_s": batches}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[64, 256, 1024, 4096])
    ap.add_argument("--proofs", type=int, default=2000)
    ap.add_argument("--sigma-proofs", type=int, default=256)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("-o", "--output", type=Path, help="write the figures as JSON here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        rows = flat(args.sizes, work, args.reps)
        tp = throughput(args.proofs, work)
    sigma = sigma_throughput(args.sigma_proofs)
    print(
        "| list elements | constraints | IR | load + verify (IR) | load + verify (layout) |"
        " verify (IR path) | verify (Verifier) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['n']:,} | {r['constraints']:,} | {r['ir_bytes'] / 1e6:.2f} MB "
            f"| {r['ir_load_verify_ms']:.1f} ms | {r['load_verify_ms']:.1f} ms "
            f"| {r['ir_verify_ms']:.1f} ms | {r['verify_ms']:.2f} ms |"
        )
    print()
    print(
        f"payd, {tp['proofs']:,} proofs: one by one {tp['one_by_one_per_s']:,.0f}/s; batches "
        + ", ".join(f"of {k}: {v:,.0f}/s" for k, v in tp["batch_per_s"].items())
        + f"; `zeenot verify` one proof {tp['cli_one_proof_s']:.2f} s, 200 proofs "
        f"{tp['cli_200_proofs_s']:.2f} s"
    )
    print(
        f"payd sigma, {sigma['proofs']:,} proofs: one by one {sigma['one_by_one_per_s']:,.1f}/s; "
        + "batches "
        + ", ".join(f"of {k}: {v:,.1f}/s" for k, v in sigma["batch_per_s"].items())
    )
    if args.output:
        doc = {"flat": rows, "throughput": tp, "sigma_throughput": sigma}
        args.output.write_text(json.dumps(doc, indent=2) + "\n")


if __name__ == "__main__":
    main()
