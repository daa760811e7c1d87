"""Run a Waze round with K driver processes against a `zeenot serve` and check the map.

    python examples/waze/run.py --server http://127.0.0.1:8766 [--peers 20] [--seed 1]

Each driver is a `zeenot peer` process with a random position (seeded). The server's density
map must equal the plain-Python count of the same positions; the script exits 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def run_round(server: str, points: list[dict[str, int]], rnd: str) -> list[dict]:
    """Start one `zeenot peer` process per driver; their answers (each has the result)."""
    with tempfile.TemporaryDirectory() as tmp:
        procs = []
        for i, point in enumerate(points):
            inputs = Path(tmp) / f"driver{i}.json"
            inputs.write_text(json.dumps(point))
            cmd = [sys.executable, "-m", "zeenot.cli", "peer", str(HERE / "app.py")]
            cmd += ["--server", server, "--round", rnd, "--peer", f"driver{i}"]
            cmd += ["--inputs", str(inputs)]
            procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
        answers = []
        for proc in procs:
            out, err = proc.communicate(timeout=1800)
            if proc.returncode != 0:
                raise SystemExit(f"a driver failed: {err.decode().strip()}")
            answers.append(json.loads(out))
    return answers


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", required=True)
    ap.add_argument("--peers", type=int, default=waze.K)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--round", default=None)
    args = ap.parse_args()
    if args.peers != waze.K:
        raise SystemExit(f"this application's rounds have {waze.K} peers (K in app.py)")
    points = positions(args.peers, args.seed)
    start = time.monotonic()
    answers = run_round(args.server, points, args.round or f"r{int(time.time())}")
    elapsed = time.monotonic() - start
    maps = {json.dumps(a["result"]["values"]) for a in answers}
    expected = reference(points)
    got = answers[0]["result"]["values"]
    print(
        json.dumps(
            {"peers": args.peers, "seconds": round(elapsed, 1), "map": answers[0]["result"]["rows"]}
        )
    )
    if len(maps) != 1 or got != expected:
        print(f"MISMATCH: server {got}, plain Python {expected}", file=sys.stderr)
        return 1
    print(f"the density map of {args.peers} drivers equals the plain-Python count")
    return 0


if __name__ == "__main__":
    sys.exit(main())
