"""Benchmark: ZØ's CNIDS scaling axis, the captured trace in bytes (examples/cnids `payload_alert`).

ZØ reports its NIDS client's latency and proof size as the intrusion trace grows from 100
bytes to 1 KB (Figures 10(e) and 10(i)). For each size, `MAX_BYTES` in a copy of the app is set
to it and a signed IPv4/TCP packet of that many bytes (40 of them headers, the pattern once in
its payload) is proved with Groth16: constraints, setup, prove and verify (median of --reps),
proof size.

    .venv/bin/python benchmarks/cnids_bytes.py [--sizes 128 256 512 1024] [--reps 3] [-o OUT.md]

Prints Markdown; writes it only with -o.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from report import provenance, publish

from zeenot import api
from zeenot.verifier import Verifier

ROOT = Path(__file__).resolve().parents[1]
CNIDS = ROOT / "examples" / "cnids"


def data_module():
    spec = importlib.util.spec_from_file_location("_cnids_data", CNIDS / "data.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def median_time(fn, reps: int) -> float:
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(n: int, reps: int, work: Path) -> dict:
    src = (CNIDS / "app.py").read_text()
    src = re.sub(r"^MAX_BYTES = \d+", f"MAX_BYTES = {n}", src, flags=re.M)
    app = work / f"cnids{n}.py"
    app.write_text(src)
    circuit = api.compile(f"{app}:payload_alert")
    assert isinstance(circuit, api.Circuit)
    start = time.perf_counter()
    keys = api.setup(circuit, seed=1)
    setup_s = time.perf_counter() - start
    d = data_module()
    inputs = d.payload(n, seed=1)
    want = d.payload_reference(inputs)
    proofs = []
    prove_s = median_time(lambda: proofs.append(api.prove(circuit, keys, inputs)), reps)
    assert proofs[-1].outputs == want
    directory = work / f"cnids{n}"
    circuit.save(directory)
    keys.save(directory)
    verifier = Verifier.load(directory)
    verify_s = median_time(lambda: verifier.verify(proofs[-1]), reps)
    return {
        "bytes": n,
        "constraints": circuit.stats["constraints"],
        "setup_s": setup_s,
        "prove_s": prove_s,
        "verify_ms": 1e3 * verify_s,
        "proof_bytes": len(proofs[-1].proof),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[128, 256, 512, 1024])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("-o", "--output", type=Path)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            rows.append(measure(n, args.reps, Path(tmp)))
            print(rows[-1], file=sys.stderr)
    lines = [
        "# CNIDS over raw captured bytes (ZØ's scaling axis), Groth16",
        "",
        provenance() + ": a signed capture, the 8-byte masked pattern once; medians.",
        "",
        "| bytes | constraints | setup | prove | verify | proof |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['bytes']:,} | {r['constraints']:,} | {r['setup_s']:.2f} s "
            f"| {r['prove_s']:.2f} s | {r['verify_ms']:.1f} ms | {r['proof_bytes']} B |"
        )
    publish(lines, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
