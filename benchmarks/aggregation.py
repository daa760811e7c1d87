"""The seed's Table 1 (seed 004, §8: Prio measurements) for zeenot's Prio3 instances, standard
and AFE, beside the seed's published figures.

    python benchmarks/aggregation.py -o benchmarks/results/aggregation.json \
        [--aggregators 2 3] [--seconds 0.1] [--shares 200] \
        [--query '{"op": "variance", "attribute": "x"}'] [--records 200] [--query-bits 8 16 32]

Per instance and number of aggregators (2 is DAP's; the seed's smallest column is 3):

* `client_ms`: the client's encode and prove (`Vdaf.shard`: encoding, the FLP proof, the shares).
* `upload_bytes`: the public share and every input share, as the crate encodes them (DAP adds
  HPKE and framing: about 32 bytes of encapsulated key and 16 of tag per aggregator, plus
  metadata).
* `verify_ms`: one server's verification of one report: its `prepare_init` (the FLP query on its
  share), the combination of every prepare share into the prepare message (the decision) and its
  `prepare_next` (the output share). The leader does the combination; a helper does less.
* `prep_share_bytes`: what one server broadcasts in the verification (its prepare share).
* `aggregate_us`: one server's aggregation per report (`aggregate` over `--shares` output shares,
  divided by their number).

Every figure is the median of 5 timed slices of at least `--seconds` each, in this Python process
through `zeenot.prio.Vdaf` (the native module). The machine's load (`os.getloadavg`) is recorded
with the results.

The bare `prio` crate beside it, for the standard types: `--bare-binary PATH` (the example
crates/zeenot-prio/examples/prepare_timing.rs, built by
`cargo build --release --example prepare_timing -p zeenot-prio`; also
`cargo bench -p zeenot-prio --bench prepare`) times the crate's own DAP preparation of one report
(both aggregators) for Count, Sum32 and SumVec(1000), and this script times `zeenot.prio.Vdaf`
doing the same job in the same run (`benchmarks/prio_vdaf.py`'s two sides).

One query, two systems (issue 32, item 4): `--query` (default VARIANCE of an attribute `x`,
a `zeenot.aggregate.query.StatQuery`) for each of `--query-bits` over `--records` random values
is answered by Prio (the query's Prio3 instance) and by the collective authority (a provider's
encrypted record with its range and square proofs, the servers' batched verification), both
finished by the same `StatResult` and checked equal to the plain computation; per record, the
contributor's and the servers' milliseconds (`compare_query`; `--records 0` skips it). The
collective authority decrypts a sum through a discrete-log table (2^48 at most): a query whose
sums can exceed that (VARIANCE of 32-bit values: Σx² ≈ n·2^64) it cannot answer, and the row
says so; Prio's sums live in a 128-bit field.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from pathlib import Path
from typing import Any

from prio_vdaf import time_per_call as _time  # one timing loop for the Prio benchmarks

from zeenot.prio import Vdaf

VK = bytes([5]) * 16

# name -> (description, measurement); the seed's 6/32/64-bit columns for Sum and the AFEs.
INSTANCES: dict[str, tuple[dict[str, Any], Any]] = {
    "Prio3Count": ({"type": "Prio3Count"}, 1),
    "Prio3Sum 6": ({"type": "Prio3Sum", "bits": 6}, 63),
    "Prio3Sum 32": ({"type": "Prio3Sum", "bits": 32}, 2**32 - 1),
    "Prio3Sum 64": ({"type": "Prio3Sum", "bits": 64}, 2**64 - 1),
    "Prio3Histogram 64": ({"type": "Prio3Histogram", "length": 64, "chunk_length": 8}, 17),
    "AfeMeanVariance 6": ({"type": "AfeMeanVariance", "bits": 6}, 63),
    "AfeMeanVariance 32": ({"type": "AfeMeanVariance", "bits": 32}, 2**32 - 1),
    "AfeOr": ({"type": "AfeOr"}, 1),
    "AfeAnd": ({"type": "AfeAnd"}, 1),
    "AfeMax 64": ({"type": "AfeMax", "domain": 64}, 40),
    "AfeMin 64": ({"type": "AfeMin", "domain": 64}, 40),
    "AfeSetUnion 64": ({"type": "AfeSetUnion", "universe": 64}, [i % 3 == 0 for i in range(64)]),
    "AfeLinearRegression d1 32": (
        {"type": "AfeLinearRegression", "features": 1, "bits": 32},
        [2**32 - 1, 2**31],
    ),
    "AfeLinearRegression d2 16": (
        {"type": "AfeLinearRegression", "features": 2, "bits": 16},
        [65535, 1234, 40000],
    ),
    "AfeLinearRegression d4 16": (  # the goal: a 4-feature regression, 10,000 clients
        {"type": "AfeLinearRegression", "features": 4, "bits": 16},
        [65535, 1234, 40000, 7, 512],
    ),
}

# Seed 004, Table 1 (Prio in Go, 2017; 2 cores i5-4590 @ 3.3 GHz), by number of servers, per
# 6/32/64-bit value.
SEED_TABLE_1: dict[str, dict[str, list[float]]] = {
    "client_ms": {"3": [0.401, 1.83, 3.45], "5": [0.563, 2.11, 3.329], "10": [0.863, 2.67, 4.3]},
    "upload_bytes": {"3": [136 * 3, 328 * 3, 584 * 3], "5": [136 * 5, 328 * 5, 584 * 5]},
    "verify_ms_all_servers": {
        "3": [8.07, 11.95, 19.57],
        "5": [20.19, 35.95, 46.80],
        "10": [67.85, 85.72, 115.1],
    },
    "aggregation_ms_all_servers": {
        "3": [2.32, 2.76, 3.1],
        "5": [10.47, 11.06, 11.78],
        "10": [29.37, 35.32, 37.93],
    },
    "broadcast_bytes_per_server": {"3": [32], "5": [64], "10": [144]},
}


def measure(
    description: dict[str, Any], measurement: Any, aggregators: int, budget: float, shares: int
) -> dict[str, float]:
    vdaf = Vdaf.from_description(description, num_aggregators=aggregators)
    nonce = os.urandom(16)
    public, inputs = vdaf.shard(measurement, nonce)
    client = _time(budget, lambda: vdaf.shard(measurement, nonce))
    inits = [vdaf.prepare_init(VK, i, nonce, public, inputs[i]) for i in range(aggregators)]
    prep_shares = [share for _, share in inits]

    def verify() -> bytes:
        state, _ = vdaf.prepare_init(VK, 0, nonce, public, inputs[0])
        message = vdaf.prepare_shares_to_prepare_message(0, state, prep_shares)
        return vdaf.prepare_next(0, state, message)

    out_share = verify()
    verify_s = _time(budget, verify)
    init_s = _time(budget, lambda: vdaf.prepare_init(VK, 0, nonce, public, inputs[0]))
    outs = [out_share] * shares
    aggregate_s = _time(budget, lambda: vdaf.aggregate(outs)) / shares
    return {
        "client_ms": client * 1e3,
        "upload_bytes": len(public) + sum(len(s) for s in inputs),
        "verify_ms": verify_s * 1e3,
        "prepare_init_ms": init_s * 1e3,
        "prep_share_bytes": len(prep_shares[0]),
        "aggregate_us": aggregate_s * 1e6,
    }


MAX_DLOG_BITS = 48  # the collective authority decrypts sums through a table of 2^48 at most


def compare_query(doc: dict[str, Any], bits: int, records: int) -> dict[str, Any]:
    """One shared query (`zeenot.aggregate.query.StatQuery`) answered by both systems over the
    same `records` values, in this process: per record, the contributor's work (Prio: shard;
    the collective authority: a provider's ciphertexts and proofs) and the servers' check (Prio:
    both aggregators' DAP preparation; the collective authority: `verify_records` over the
    batch, Bulletproofs and sigma proofs batched), then each system's count and sums turned into
    the same `StatResult` row, checked against the plain computation. The collective authority's
    shuffle and distributed key switch are left out (`benchmarks/cothority.py` times them): here
    its sums are decrypted with the one key."""
    import secrets
    import time as _time

    from zeenot import babyjub as bj
    from zeenot.aggregate.query import StatQuery, StatResult
    from zeenot.cothority.model import Schema
    from zeenot.cothority.provider import encrypt_record, parse_record, verify_records

    attrs = {"x": bits}
    query = StatQuery.from_json(doc, attrs)
    values = [secrets.randbelow(1 << bits) for _ in range(records)]
    plain = StatResult.of(
        query, records, [sum(values), sum(v * v for v in values)][: len(query.value_columns())]
    ).row()

    vdaf = Vdaf.from_description(query.prio_vdaf(attrs))
    vk = secrets.token_bytes(16)
    t0 = _time.perf_counter()
    shards = []
    for v in values:
        nonce = secrets.token_bytes(16)
        shards.append((nonce, *vdaf.shard(query.prio_measurement(v), nonce)))
    t1 = _time.perf_counter()
    leader, helper = [], []
    for nonce, public, (l_in, h_in) in shards:
        state, message = vdaf.leader_initialized(vk, nonce, public, l_in)
        h_out, reply = vdaf.helper_initialized(vk, nonce, public, h_in, message)
        leader.append(vdaf.leader_continued(state, reply))
        helper.append(h_out)
    t2 = _time.perf_counter()
    result = vdaf.unshard([vdaf.aggregate(leader), vdaf.aggregate(helper)], records)
    prio_row = StatResult.from_prio(query, result, records).row()

    out: dict[str, Any] = {
        "query": query.to_json(),
        "bits": bits,
        "records": records,
        "result": plain,
        "prio": {
            "vdaf": query.prio_vdaf(attrs),
            "client_ms": (t1 - t0) / records * 1e3,
            "servers_ms": (t2 - t1) / records * 1e3,
        },
        "cothority": None,
    }
    if prio_row != plain:
        raise SystemExit(f"Prio's answer differs: {prio_row} {plain}")
    tops = [
        records * ((1 << bits) - 1) ** (2 if c.endswith("^2") else 1) for c in query.value_columns()
    ]
    if any(top.bit_length() > MAX_DLOG_BITS for top in tops):
        # its sums are decrypted through a discrete-log table of 2^48 entries
        out["cothority_note"] = f"a sum beyond 2^{MAX_DLOG_BITS}: not decryptable"
        return out
    schema = Schema.from_json({"x": {"bits": bits, "square": query.op == "variance"}})
    secret, key = bj.keygen()
    t3 = _time.perf_counter()
    bodies = [
        encrypt_record("compare", schema, key, "p1", f"r{i}", {"x": v})
        for i, v in enumerate(values)
    ]
    t4 = _time.perf_counter()
    items = [parse_record(b, schema) for b in bodies]
    reasons = verify_records("compare", schema, key, items)
    t5 = _time.perf_counter()
    if any(reasons):
        raise SystemExit(f"the collective authority refused a record: {reasons}")
    sums = []
    for column, top in zip(query.value_columns(), tops, strict=True):
        total = sum((rec.columns[column] for rec, _ in items[1:]), items[0][0].columns[column])
        sums.append(bj.decrypt(secret, total, min(MAX_DLOG_BITS, top.bit_length() + 1)))
    cothority_row = StatResult.of(query, records, sums).row()
    if cothority_row != plain:
        raise SystemExit(f"the collective authority's answer differs: {cothority_row} {plain}")
    out["cothority"] = {
        "client_ms": (t4 - t3) / records * 1e3,
        "servers_ms": (t5 - t4) / records * 1e3,
    }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", type=Path, required=True, help="JSON results")
    ap.add_argument("--aggregators", type=int, nargs="+", default=[2, 3])
    ap.add_argument("--seconds", type=float, default=0.1, help="seconds per timed slice")
    ap.add_argument("--shares", type=int, default=200, help="output shares per aggregate call")
    ap.add_argument("--only", nargs="*", help="instance names (default: all)")
    ap.add_argument("--bare-binary", type=Path, help="prepare_timing: the bare crate beside us")
    ap.add_argument(
        "--query",
        type=json.loads,
        default={"op": "variance", "attribute": "x"},
        help="the shared query both systems answer (JSON; attribute x)",
    )
    ap.add_argument("--records", type=int, default=200, help="records for the shared query")
    ap.add_argument("--query-bits", type=int, nargs="+", default=[8, 16, 32])
    args = ap.parse_args()
    load_before = os.getloadavg()
    rows: list[dict[str, Any]] = []
    print(
        f"{'instance':<27} {'aggs':>4} {'client ms':>9} {'upload B':>9} {'verify ms':>9} "
        f"{'prep B':>7} {'agg µs':>7}"
    )
    for name, (description, measurement) in INSTANCES.items():
        if args.only and name not in args.only:
            continue
        for n in args.aggregators:
            r = measure(description, measurement, n, args.seconds, args.shares)
            rows.append({"instance": name, "description": description, "aggregators": n, **r})
            print(
                f"{name:<27} {n:>4} {r['client_ms']:>9.3f} {r['upload_bytes']:>9} "
                f"{r['verify_ms']:>9.3f} {r['prep_share_bytes']:>7} {r['aggregate_us']:>7.2f}",
                flush=True,
            )
    bare_rows: dict[str, Any] = {}
    if args.bare_binary:
        import prio_vdaf  # benchmarks/prio_vdaf.py, beside this file

        b = prio_vdaf.bare(args.bare_binary, args.seconds)
        w = prio_vdaf.wrapper(args.seconds)
        print(f"{'DAP preparation, both aggregators':<34} {'prio µs':>8} {'zeenot µs':>10}")
        for name in b:
            bare_s, ours_s = b[name]["dap_prepare"], w[name]["dap_prepare"]
            bare_rows[name] = {"prio_us": bare_s * 1e6, "zeenot_us": ours_s * 1e6}
            print(f"{name:<34} {bare_s * 1e6:>8.1f} {ours_s * 1e6:>10.1f}")
    compared = []
    if args.records > 0:
        print(f"{'one query, two systems':<30} {'':>9} {'client ms':>9} {'servers ms':>10}")
        for bits in args.query_bits:
            c = compare_query(args.query, bits, args.records)
            compared.append(c)
            for system in ("prio", "cothority"):
                label = f"{c['query']['op']} of {bits} bits, {system}"
                if c[system] is None:
                    print(f"{label:<40} {c.get('cothority_note', '')}", flush=True)
                    continue
                print(
                    f"{label:<40} {c[system]['client_ms']:>9.3f} {c[system]['servers_ms']:>10.3f}",
                    flush=True,
                )
    result = {
        "command": " ".join(["python", "benchmarks/aggregation.py", *sys.argv[1:]]),
        "machine": {
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "loadavg_before": load_before,
            "loadavg_after": os.getloadavg(),
        },
        "rows": rows,
        "bare_prio_dap_prepare": bare_rows,
        "one_query_two_systems": compared,
        "seed_table_1": SEED_TABLE_1,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n")
    print(f"load {load_before[0]:.2f} -> {os.getloadavg()[0]:.2f}; written to {args.output}")


if __name__ == "__main__":
    main()
