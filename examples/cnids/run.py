"""Run a CNIDS blocklist round with K member processes against a `zeenot serve` and check it.

    python examples/cnids/run.py --server http://127.0.0.1:8773 [--seed 1]

Each member is a `zeenot peer` process with its own tap-signed capture (`data.members`: two
members saw one attacker, one saw another, two saw ordinary traffic). Every member's answer
must carry the same blocklist, equal to the plain-Python one computed from the same captures;
the script exits 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from zeenot.runtime.peers import spawn_round

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import data  # noqa: E402 - the example's captures and plain-Python reference


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--round", default=None)
    args = ap.parse_args()
    captures = data.members(args.seed)
    start = time.monotonic()
    rnd = args.round or f"r{int(time.time())}"
    answers = spawn_round(str(HERE / "app.py"), args.server, rnd, captures)
    elapsed = time.monotonic() - start
    expected = data.blocklist_reference(captures)
    got = [a["result"]["blocklist"] for a in answers]
    print(json.dumps({"peers": len(answers), "seconds": round(elapsed, 1), "blocklist": got[0]}))
    if len(got) != len(captures) or any(g != expected for g in got):
        print(f"MISMATCH: members got {got}, plain Python {expected}", file=sys.stderr)
        return 1
    print(f"all {len(got)} members got the blocklist, equal to the plain-Python one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
