"""Cashlib's primitives: RFC 9474 blind RSA signatures and the verifiable escrow.

    python benchmarks/cashlib_primitives.py [--reps 20] [--escrow-reps 5] [--json OUT]

* Blind RSA (RSABSSA-SHA384-PSS-Randomized) at 2048 and 3072 bits: `blind` (client),
  `blind_sign` (signer), `finalize` (client; includes its verification), `verify`, and the whole
  round trip, through `zeenot.cashlib.blind` (the Python API over the pinned
  `blind-rsa-signatures` crate).
* Escrow (`zeenot.cashlib.escrow`, a full-width scalar, 16 chunks of 16 bits): the prover's
  `escrow`, `verify_escrow`, the arbiter's `decrypt` (verifies the escrow first, then 16
  baby-step giant-step searches and the DLEQ proof) and `verify_decryption` (the escrow again
  and the DLEQ proof); the escrow's size in bytes.

Each figure is the median of `reps` runs, in milliseconds, with the fastest run beside it
(`_min_ms`). The machine's load (`os.getloadavg`) is printed with the results: these are
timings on a shared machine, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from zeenot.babyjub import SUBGROUP_ORDER, keygen, random_scalar
from zeenot.cashlib import blind, escrow
from zeenot.sigma import pedersen_commit


def _time(out: dict[str, float], name: str, reps: int, f: Callable[[], Any]) -> None:
    """`out[name + "_ms"]`: the median of `reps` runs; `out[name + "_min_ms"]`: the fastest (on
    a loaded machine, the better estimate of the work itself)."""
    f()  # warm caches (tables, generators)
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    out[f"{name}_ms"] = 1000 * statistics.median(times)
    out[f"{name}_min_ms"] = 1000 * min(times)


def bench_blind(bits: int, reps: int) -> dict[str, float]:
    sk = blind.keygen(bits)
    pk = sk.public_key()
    msg = b"coin serial 0123456789abcdef"
    state = blind.blind(pk, msg)
    bsig = blind.blind_sign(sk, state.blinded_message)
    sig = blind.finalize(pk, bsig, state, msg)

    def round_trip() -> None:
        st = blind.blind(pk, msg)
        s = blind.finalize(pk, blind.blind_sign(sk, st.blinded_message), st, msg)
        assert blind.verify(pk, s, msg)

    out: dict[str, float] = {"signature_bytes": len(sig.to_bytes())}
    _time(out, "blind", reps, lambda: blind.blind(pk, msg))
    _time(out, "blind_sign", reps, lambda: blind.blind_sign(sk, state.blinded_message))
    _time(out, "finalize", reps, lambda: blind.finalize(pk, bsig, state, msg))
    _time(out, "verify", reps, lambda: blind.verify(pk, sig, msg))
    _time(out, "round_trip", reps, round_trip)
    return out


def bench_escrow(reps: int) -> dict[str, float]:
    sk, pk = keygen()
    v, r = SUBGROUP_ORDER - 987654321, random_scalar()
    c = pedersen_commit(v, r)
    label = b"contract 42: release the seller's payment key"
    esc = escrow.escrow(v, r, c, pk, label)
    dec = escrow.decrypt(sk, esc, c, label)
    assert dec.value == v
    out: dict[str, float] = {
        "escrow_bytes": len(esc.to_bytes()),
        "decryption_proof_bytes": len(dec.proof),
    }
    _time(out, "escrow_prove", reps, lambda: escrow.escrow(v, r, c, pk, label))
    _time(out, "escrow_verify", reps, lambda: escrow.verify_escrow(esc, c, pk, label))
    _time(out, "decrypt", reps, lambda: escrow.decrypt(sk, esc, c, label))
    _time(out, "verify_decryption", reps, lambda: escrow.verify_decryption(esc, c, pk, label, dec))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=20, help="runs per blind-RSA figure")
    ap.add_argument("--escrow-reps", type=int, default=5, help="runs per escrow figure")
    ap.add_argument("--json", help="write the results here")
    args = ap.parse_args()
    load_before = os.getloadavg()
    results: dict[str, Any] = {
        "blind_rsa": {str(b): bench_blind(b, args.reps) for b in (2048, 3072)},
        "escrow": bench_escrow(args.escrow_reps),
    }
    results["load_average"] = {"before": load_before, "after": os.getloadavg()}
    results["cpus"] = os.cpu_count()
    print(f"load average before {load_before}, after {results['load_average']['after']}")
    for bits, r in results["blind_rsa"].items():
        print(f"blind RSA {bits}: " + ", ".join(f"{k} {v:.2f}" for k, v in r.items()))
    print("escrow: " + ", ".join(f"{k} {v:.1f}" for k, v in results["escrow"].items()))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
