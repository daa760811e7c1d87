"""The collective authority (issue 29) against the figures the issue quotes for UnLynx and Drynx
(Go, measured on a 2-core machine), as ratios: zeenot's time / theirs (below 1: zeenot faster).

    PYTHONPATH=python python benchmarks/cothority.py -o /tmp/cothority.json          # ~1 min
    PYTHONPATH=python python benchmarks/cothority.py -o /tmp/cothority.json --e2e    # + example

Measured, per ciphertext or per proof, in this process (the Rust core through Python):

* key switch + its proof / its verification (`zeenot.cothority.crypto.key_switch`,
  `verify_key_switch`), one server's batch of `--n` ciphertexts, per ciphertext;
* the Terelius–Wikström shuffle of `--rows` rows of one ciphertext (`zeenot.shuffle`), prove
  and verify, and of `--rows` rows of 3 ciphertexts (what a server shuffles before the tags
  for the example's query, VARIANCE of age BY diagnosis: diagnosis, age, age²);
* a provider's range proof on a ciphertext for `[0, 2^16)` (`zeenot.sigma.plaintext_in_range(...,
  method="bulletproofs")`: a Pedersen commitment, the sigma proof tying it to the ciphertext and
  a Bulletproof): prove, verify one, verify `--n` as one batch (`sigma.batch_verify`), bytes;
* with `--e2e`: `examples/hospitals/run.py --records 1000` (3 server processes, t = 2, a GROUP
  BY query with the auditor's re-verification), its stages and total;
* with `--sweep 3,5,10`: the same example for each number of servers m with t = m (every server
  answers, as in UnLynx, whose Tables 2–3 vary m), at `--sweep-records` records: the stages
  per m (setup and DKG, the providers' submissions, relaying, the query with the querier's
  verification, the audit). A provider's proof does not depend on m (one range proof per value
  under the collective key): the range figures above stand for every m.

Drynx's range proof costs per server (13.7 / 19.6 ms for one, 86.7 / 99.6 ms for 5 servers);
zeenot's does not depend on the number of servers, so the same figure stands beside both. The
machine's load (`os.getloadavg`) is recorded before and after: the machine is shared, and a
loaded machine reads slower. Nothing here is a test; results go to `-o` only.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zeenot import babyjub as bj
from zeenot import sigma
from zeenot.cothority import crypto
from zeenot.shuffle import shuffle, verify_shuffle

ROOT = Path(__file__).resolve().parent.parent

# The figures (seconds), UnLynx / Drynx in Go on 2 cores, and the goals.
THEIRS: dict[str, tuple[str, float, float | None]] = {
    # key: (what, their seconds, goal seconds)
    "key_switch_prove_per_ct": ("key switch + proof, per ciphertext", 0.57e-3 + 0.71e-3, 0.25e-3),
    "key_switch_verify_per_ct": ("key switch, verify per ciphertext", 1.06e-3, 0.1e-3),
    "shuffle_prove": ("shuffle of 1,000 rows, prove (Neff)", 1.61, 0.4),
    "shuffle_verify": ("shuffle of 1,000 rows, verify (Neff)", 2.55, 0.5),
    "range_prove": ("range proof, prove (Drynx, 1 server)", 13.7e-3, 2e-3),
    "range_prove_5": ("range proof, prove (Drynx, 5 servers)", 86.7e-3, 2e-3),
    "range_verify_one": ("range proof, verify one (Drynx, 1 server)", 19.6e-3, None),
    "range_verify_batched": ("range proof, verify in a batch (1 server)", 19.6e-3, 0.5e-3),
    "range_verify_batched_5": ("range proof, verify in a batch (5 servers)", 99.6e-3, 0.5e-3),
    "end_to_end": ("1,000 records end to end, audit included", float("nan"), 60.0),
}


def best(f: Callable[[], Any], repeat: int) -> float:
    """The fastest of `repeat` runs of `f` (seconds): the least disturbed by other load."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def key_switch_figures(n: int, repeat: int) -> dict[str, float]:
    dealings, shares = [], []
    for i in (1, 2, 3):
        d, s = crypto.deal(i, 2, 3, b"bench session", seed=i)
        dealings.append(d)
        shares.append(s)
    share = crypto.combine(dealings, 1, [s[0] for s in shares])
    _, qpk = crypto.keygen(seed=4)
    cts = crypto.encrypt(share.collective_key, list(range(n)), seed=5)
    lam = crypto.lagrange_at_zero([1, 2], 1)
    ctx = b"bench query"
    batch = crypto.key_switch(share, lam, cts, qpk, ctx)
    vk = share.verification_key()
    assert crypto.verify_key_switch(batch, vk, lam, cts, qpk, ctx)
    prove = best(lambda: crypto.key_switch(share, lam, cts, qpk, ctx), repeat)
    verify = best(lambda: crypto.verify_key_switch(batch, vk, lam, cts, qpk, ctx), repeat)
    return {"key_switch_prove_per_ct": prove / n, "key_switch_verify_per_ct": verify / n}


def shuffle_figures(rows: int, repeat: int) -> dict[str, float]:
    _, pk = crypto.keygen(seed=6)
    cts = crypto.split_ciphertexts(crypto.encrypt(pk, list(range(3 * rows)), seed=7))
    in_rows = [[c] for c in cts[:rows]]
    wide = [cts[3 * i : 3 * i + 3] for i in range(rows)]  # rows of 3, as the example's query
    ctx = b"bench shuffle"
    out, proof = shuffle(pk, in_rows, ctx)
    assert verify_shuffle(pk, in_rows, out, proof, ctx)
    out3, proof3 = shuffle(pk, wide, ctx)
    assert verify_shuffle(pk, wide, out3, proof3, ctx)
    return {
        "shuffle_prove": best(lambda: shuffle(pk, in_rows, ctx), repeat),
        "shuffle_verify": best(lambda: verify_shuffle(pk, in_rows, out, proof, ctx), repeat),
        "shuffle_rows": rows,
        "shuffle_proof_bytes": len(proof),
        "shuffle_w3_prove": best(lambda: shuffle(pk, wide, ctx), repeat),
        "shuffle_w3_verify": best(lambda: verify_shuffle(pk, wide, out3, proof3, ctx), repeat),
        "shuffle_w3_proof_bytes": len(proof3),
    }


def range_figures(n: int, repeat: int) -> dict[str, float]:
    key = bj.BASE8 * bj.random_scalar()
    items = []
    for i in range(n):
        r = bj.random_scalar()
        m = (i * 7919) % (1 << 16)
        st = sigma.plaintext_in_range(bj.encrypt(m, key, r), key, 16, method="bulletproofs")
        ctx = f"bench record {i}".encode()
        items.append((st, m, r, ctx))
    proofs = [(st, st.prove(m, r, context=ctx), ctx) for st, m, r, ctx in items]
    assert sigma.batch_verify(proofs)
    st, m, r, ctx = items[0]
    prove = best(lambda: st.prove(m, r, context=ctx), max(repeat, 5))
    one = best(lambda: st.verify(proofs[0][1], context=ctx), max(repeat, 5))
    batched = best(lambda: sigma.batch_verify(proofs), repeat) / n
    return {
        "range_prove": prove,
        "range_prove_5": prove,
        "range_verify_one": one,
        "range_verify_batched": batched,
        "range_verify_batched_5": batched,
        "range_proof_bytes": len(proofs[0][1].to_bytes()),
        "range_batch": n,
    }


def end_to_end(records: int, port: int, servers: int = 3, threshold: int = 2) -> dict[str, Any]:
    cmd = [sys.executable, str(ROOT / "examples/hospitals/run.py"), "--records", str(records)]
    cmd += ["--base-port", str(port), "--servers", str(servers), "--threshold", str(threshold)]
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t
    line = next((s for s in out.stdout.splitlines() if s.startswith("setup+DKG")), "")
    stages = {k: float(v) for k, v in re.findall(r"([a-zA-Z+ ]+?) ([0-9.]+) s", line)}
    steps_line = next((s for s in out.stdout.splitlines() if s.startswith("leader steps")), "")
    steps = json.loads(steps_line.split(":", 1)[1]) if steps_line else {}
    return {
        "end_to_end": stages.get("total", wall),
        "end_to_end_stages": {k.strip(" ,"): v for k, v in stages.items()},
        "end_to_end_steps": steps,
        "end_to_end_records": records,
        "end_to_end_equal": "equal to the reference" in out.stdout,
        "end_to_end_rc": out.returncode,
    }


STEP_ORDER = [
    "shuffle",
    "shuffle_check",
    "tags",
    "tags_check",
    "noise",
    "noise_check",
    "aggregate",
    "keyswitch",
    "keyswitch_check",
]


def sweep(ms: list[int], records: int, port: int) -> dict[str, Any]:
    """The example for each m (t = m), its stages; ports spaced so that runs never collide."""
    rows = {}
    for k, m in enumerate(ms):
        run = end_to_end(records, port + 20 * k, servers=m, threshold=m)
        rows[str(m)] = {
            "stages": run["end_to_end_stages"],
            "steps": run["end_to_end_steps"],
            "equal": run["end_to_end_equal"],
            "rc": run["end_to_end_rc"],
        }
    return {"sweep": rows, "sweep_records": records}


def sweep_table(res: dict[str, Any]) -> str:
    stages = ("setup+DKG", "submit", "relay", "query+verify", "audit", "total")
    lines = [
        f"| m (t = m), {res['sweep_records']} records | " + " | ".join(stages) + " | equal |",
        "|---" * (len(stages) + 2) + "|",
    ]
    for m, row in res["sweep"].items():
        cells = [fmt(row["stages"][s]) if s in row["stages"] else "—" for s in stages]
        lines.append(f"| {m} | " + " | ".join(cells) + f" | {'yes' if row['equal'] else 'NO'} |")
    # the leader's steps within the query (all t servers' work on each, then its check)
    names = sorted({k for row in res["sweep"].values() for k in row["steps"]}, key=STEP_ORDER.index)
    lines += ["", "| m | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for m, row in res["sweep"].items():
        cells = [fmt(row["steps"][k]) if k in row["steps"] else "—" for k in names]
        lines.append(f"| {m} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def fmt(seconds: float) -> str:
    if seconds != seconds:  # NaN
        return "—"
    return f"{seconds * 1e3:.3g} ms" if seconds < 1 else f"{seconds:.3g} s"


def table(res: dict[str, Any]) -> str:
    lines = [
        "| step | UnLynx / Drynx | zeenot | ratio | goal |",
        "|---|---|---|---|---|",
    ]
    for key, (what, theirs, goal) in THEIRS.items():
        if key not in res:
            continue
        ours = res[key]
        ratio = "—" if theirs != theirs else f"{ours / theirs:.2f}"
        lines.append(
            f"| {what} | {fmt(theirs)} | {fmt(ours)} | {ratio} | "
            f"{'—' if goal is None else fmt(goal)} |"
        )
    if "shuffle_w3_prove" in res:
        n = res["shuffle_rows"]
        for k, what in (("prove", "prove"), ("verify", "verify")):
            lines.append(
                f"| row shuffle of {n:,} rows × 3 ciphertexts, {what} | — | "
                f"{fmt(res[f'shuffle_w3_{k}'])} | — | — |"
            )
    if "range_proof_bytes" in res:
        size = res["range_proof_bytes"]
        what = "range proof bytes (16 bits, with the sigma link)"
        lines.append(f"| {what} | — | {size} B | — | 1 KB |")
    return "\n".join(lines) if len(lines) > 2 else ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", required=True, help="where to write the results (JSON)")
    ap.add_argument("--n", type=int, default=1000, help="ciphertexts / proofs per batch")
    ap.add_argument("--rows", type=int, default=1000, help="rows of the shuffle")
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure (the best is kept)")
    ap.add_argument("--e2e", action="store_true", help="also run examples/hospitals (minutes)")
    ap.add_argument("--records", type=int, default=1000, help="records of the end-to-end run")
    ap.add_argument("--port", type=int, default=8401, help="first port of the end-to-end run")
    ap.add_argument("--sweep", default=None, help="servers m to sweep, e.g. 3,5,10 (minutes)")
    ap.add_argument("--sweep-records", type=int, default=200, help="records of each sweep run")
    ap.add_argument("--skip-micro", action="store_true", help="only the end-to-end runs")
    args = ap.parse_args()
    out = Path(args.output)
    res: dict[str, Any] = {
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "load_before": os.getloadavg(),
        },
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    if not args.skip_micro:
        res |= key_switch_figures(args.n, args.repeat)
        res |= shuffle_figures(args.rows, args.repeat)
        res |= range_figures(args.n, args.repeat)
    if args.e2e:
        res |= end_to_end(args.records, args.port)
    if args.sweep:
        ms = [int(m) for m in args.sweep.split(",")]
        res |= sweep(ms, args.sweep_records, args.port + 100)
    res["machine"]["load_after"] = os.getloadavg()
    res["table"] = table(res)
    if args.sweep:
        res["table"] = (res["table"] + "\n\n" + sweep_table(res)).strip()
    out.write_text(json.dumps(res, indent=1) + "\n")
    load = res["machine"]
    print(res["table"])
    print(
        f"\nload average {load['load_before'][0]:.2f} before, {load['load_after'][0]:.2f} after "
        f"({load['cpus']} CPUs); results in {out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
