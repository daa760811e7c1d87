"""Run a Slice round with K shopper processes against a `zeenot serve` and check the forest.

    python examples/slice/run.py --server http://127.0.0.1:8767 [--seed 1]

Each shopper is a `zeenot peer` process with a random history (seeded). The forest's counts the
server assembles must equal the counts computed in plain Python over all the histories pooled
(what a central trainer would compute); the script exits 1 otherwise.
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

import app as slice_app  # noqa: E402 - the application's own constants


def histories(peers: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for _ in range(peers):
        habit = rng.randrange(slice_app.CATEGORIES)  # each shopper has a favourite category
        history = [
            {
                "category": habit if rng.random() < 0.6 else rng.randrange(slice_app.CATEGORIES),
                "weekday": rng.randrange(7),
                "amount": rng.randrange(4),
            }
            for _ in range(slice_app.H)
        ]
        out.append({"history": history})
    return out


def reference(data: list[dict]) -> list[int]:
    """The forest's counts over the pooled histories, in plain Python."""
    splits = {0: ("amount", slice_app.AMOUNT_SPLIT), 1: ("weekday", slice_app.WEEKEND)}
    per_tree = 2 * slice_app.CATEGORIES
    counts = [0] * slice_app.N
    for shopper in data:
        h = shopper["history"]
        for t in range(len(h) - 1):
            for tree, (feature, threshold) in splits.items():
                side = 1 if h[t][feature] >= threshold else 0
                counts[tree * per_tree + side * slice_app.CATEGORIES + h[t + 1]["category"]] += 1
    return counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--round", default=None)
    args = ap.parse_args()
    data = histories(slice_app.K, args.seed)
    start = time.monotonic()
    rnd = args.round or f"r{int(time.time())}"
    answers = spawn_round(str(HERE / "app.py"), args.server, rnd, data)
    elapsed = time.monotonic() - start
    model = answers[0]["result"]
    expected = reference(data)
    guess = slice_app.predict(model, {"category": 0, "weekday": 6, "amount": 3})
    print(
        json.dumps(
            {
                "peers": slice_app.K,
                "seconds": round(elapsed, 1),
                "counts": model["values"],
                "predicts_after_a_weekend_splurge": guess,
            }
        )
    )
    if any(a["result"]["values"] != expected for a in answers):
        print(f"MISMATCH: server {model['values']}, plain Python {expected}", file=sys.stderr)
        return 1
    print(f"the forest trained by {slice_app.K} shoppers equals the pooled plain-Python counts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
