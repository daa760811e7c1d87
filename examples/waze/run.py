"""Run a Waze round with K driver processes against a `zeenot serve` and check the map.

    python examples/waze/run.py --server http://127.0.0.1:8766 [--seed 1]

Each driver is a `zeenot peer` process with a random position (seeded). The server's density
map must equal the plain-Python count of the same positions; the script exits 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from zeenot.runtime.peers import spawn_round

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import app as waze  # noqa: E402 - the application's own constants


def positions(peers: int, seed: int) -> list[dict[str, int]]:
    rng = random.Random(seed)
    width, height = waze.COLS * waze.CELL_M, waze.ROWS * waze.CELL_M
    return [{"x": rng.randrange(width), "y": rng.randrange(height)} for _ in range(peers)]


def reference(points: list[dict[str, int]]) -> list[int]:
    """The density map in plain Python: drivers per cell."""
    counts = [0] * waze.N
    for p in points:
        counts[(p["y"] // waze.CELL_M) * waze.COLS + p["x"] // waze.CELL_M] += 1
    return counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--round", default=None)
    args = ap.parse_args()
    points = positions(waze.K, args.seed)
    start = time.monotonic()
    rnd = args.round or f"r{int(time.time())}"
    answers = spawn_round(str(HERE / "app.py"), args.server, rnd, points)
    elapsed = time.monotonic() - start
    got = [a["result"]["values"] for a in answers]
    expected = reference(points)
    print(
        json.dumps(
            {"peers": waze.K, "seconds": round(elapsed, 1), "map": answers[0]["result"]["rows"]}
        )
    )
    if any(g != expected for g in got):
        print(f"MISMATCH: server {got[0]}, plain Python {expected}", file=sys.stderr)
        return 1
    print(f"the density map of {waze.K} drivers equals the plain-Python count")
    return 0


if __name__ == "__main__":
    sys.exit(main())
