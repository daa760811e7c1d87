"""Prio3 preparation per report: zeenot's Python wrapper (`zeenot.prio.Vdaf`) against the bare
`prio` 0.16.8 crate doing the same job, measured in the same run on the same machine.

    python benchmarks/prio_vdaf.py [--seconds 0.2] [--rounds 3] [--json OUT]

The bare side is crates/zeenot-prio/examples/prepare_timing.rs (built here with
`cargo build --release --example prepare_timing -p zeenot-prio`; code shared with the criterion
bench `cargo bench -p zeenot-prio --bench prepare`). Rounds alternate bare and wrapper so that
both see the same load; each figure is the median over rounds of a median over 5 timed slices.

* `dap_prepare`: both aggregators prepare one report as DAP-09 has them (leader_initialized,
  helper_initialized, leader_continued) from its encoded public and input shares, output shares
  encoded. The bare crate keeps the leader's state in memory; the wrapper encodes it (a DAP
  leader stores it between requests), so the wrapper's figure includes that.
* `prepare_init`: one aggregator's `prepare_init`. The bare figure is the crate's own speed
  test (shares already decoded); the wrapper's decodes the shares and encodes its outputs.

Instances: Prio3Count, Prio3Sum (bits 32), Prio3SumVec (bits 1, length 1000, chunk 31: the
crate's benchmark parameters).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zeenot.prio import Vdaf

ROOT = Path(__file__).resolve().parents[1]
VK = bytes([3]) * 16
NONCE = bytes([4]) * 16
SLICES = 5

INSTANCES: dict[str, tuple[dict[str, Any], Any]] = {
    "count": ({"type": "Prio3Count"}, True),
    "sum32": ({"type": "Prio3Sum", "bits": 32}, 2**32 - 1),
    "sumvec1000": (
        {"type": "Prio3SumVec", "bits": 1, "length": 1000, "chunk_length": 31},
        [i & 1 for i in range(1000)],
    ),
}


def time_per_call(budget: float, f: Callable[[], object]) -> float:
    """Median over slices of seconds per call, each slice at least `budget` seconds."""
    f()
    slices = []
    for _ in range(SLICES):
        start, n = time.perf_counter(), 0
        while time.perf_counter() - start < budget:
            f()
            n += 1
        slices.append((time.perf_counter() - start) / n)
    return statistics.median(slices)


def wrapper(budget: float) -> dict[str, dict[str, float]]:
    out = {}
    for name, (description, measurement) in INSTANCES.items():
        vdaf = Vdaf.from_description(description)
        public, (l_in, h_in) = vdaf.shard(measurement, NONCE)

        def dap_prepare(
            vdaf: Vdaf = vdaf, public: bytes = public, l_in: bytes = l_in, h_in: bytes = h_in
        ) -> object:
            state, message = vdaf.leader_initialized(VK, NONCE, public, l_in)
            h_out, reply = vdaf.helper_initialized(VK, NONCE, public, h_in, message)
            return vdaf.leader_continued(state, reply), h_out

        def prepare_init(vdaf: Vdaf = vdaf, public: bytes = public, l_in: bytes = l_in) -> object:
            return vdaf.prepare_init(VK, 0, NONCE, public, l_in)

        out[name] = {
            "dap_prepare": time_per_call(budget, dap_prepare),
            "prepare_init": time_per_call(budget, prepare_init),
        }
    return out


def bare(binary: Path, budget: float) -> dict[str, dict[str, float]]:
    text = subprocess.run(
        [str(binary), "--seconds", str(budget)], check=True, capture_output=True, text=True
    ).stdout
    return dict(json.loads(text))


def build() -> Path:
    subprocess.run(
        [
            "cargo",
            "build",
            "--release",
            "--quiet",
            "--example",
            "prepare_timing",
            "-p",
            "zeenot-prio",
        ],
        check=True,
        cwd=ROOT,
    )
    meta = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout
    return Path(json.loads(meta)["target_directory"]) / "release/examples/prepare_timing"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=0.2, help="seconds per timed slice")
    ap.add_argument("--rounds", type=int, default=3, help="alternating bare/wrapper rounds")
    ap.add_argument("--json", type=Path, help="write the figures here too")
    ap.add_argument("--bare-binary", type=Path, help="a prebuilt prepare_timing (skip cargo)")
    args = ap.parse_args()
    binary = args.bare_binary or build()
    rounds: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for _ in range(args.rounds):
        rounds.append((bare(binary, args.seconds), wrapper(args.seconds)))
    result: dict[str, Any] = {}
    print(
        f"{'instance':<12} {'operation':<13} {'prio (µs)':>10} {'zeenot (µs)':>12} {'overhead':>9}"
    )
    for name in INSTANCES:
        for op in ("dap_prepare", "prepare_init"):
            b = statistics.median(r[0][name][op] for r in rounds)
            w = statistics.median(r[1][name][op] for r in rounds)
            result.setdefault(name, {})[op] = {"prio_s": b, "zeenot_s": w, "overhead": w / b - 1}
            print(f"{name:<12} {op:<13} {b * 1e6:>10.1f} {w * 1e6:>12.1f} {w / b - 1:>+9.1%}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
