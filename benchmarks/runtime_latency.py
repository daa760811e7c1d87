"""Client latency of one run per case study, against a real `zeenot serve` on loopback.

    python benchmarks/runtime_latency.py [--reps 3] [-o out.json]

One server process serves every application (a fresh SQLite database); for each, the client
downloads the descriptor and keys once (not timed: a client caches them), then per run proves
its region (`prove`), posts the submission and waits for the server's answer (`submit`). Reports
the median of `--reps` runs and the submission's size. Never writes tracked files.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from tests.python.runtime_server import bearer, operator_token, serve  # noqa: E402

from zeenot.application import load_application  # noqa: E402
from zeenot.runtime.client import Runner  # noqa: E402
from zeenot.runtime.identity import Key  # noqa: E402

EXAMPLES = ["payd", "fitbit", "study", "loyalty", "cnids", "metering"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("-o", "--output")
    args = ap.parse_args()
    paths = [ROOT / "examples" / name / "app.py" for name in EXAMPLES]
    rows = []
    tmp = tempfile.TemporaryDirectory()
    token_file, token = operator_token(Path(tmp.name))
    db = str(Path(tmp.name) / "z.db")
    with tmp, serve(paths, db, "--operator-token-file", str(token_file)) as (url, _):
        for name, path in zip(EXAMPLES, paths, strict=True):
            inputs = json.loads(
                (path.parent / ("log.json" if name == "payd" else "run.json")).read_text()
            )
            app = load_application(path)
            runner = Runner(app, url)
            for region in runner.regions:
                runner.keys(region)  # download and check once
            prove, submit, size = [], [], 0
            for rep in range(args.reps):
                if app.clients is not None:  # signed by a registered client, one per run
                    runner.key = Key.generate(f"{name}-client-{rep}")
                    public = {"name": runner.key.name, "public_key": runner.key.public_key}
                    url_clients = f"{url}/api/apps/{name}/clients"
                    httpx.post(url_clients, json=public, headers=bearer(token)).raise_for_status()
                t = time.perf_counter()
                body = runner.prepare(inputs, submission_id=f"{name}-{rep}")
                prove.append(time.perf_counter() - t)
                t = time.perf_counter()
                answer = runner.submit(body)
                submit.append(time.perf_counter() - t)
                assert answer["status"] == "accepted", answer
                size = len(body)
            runner.close()
            row = {
                "example": name,
                "constraints": sum(
                    c.stats["constraints"] for c in runner.regions.values() if hasattr(c, "stats")
                ),
                "prove_ms": round(1000 * statistics.median(prove), 1),
                "submit_ms": round(1000 * statistics.median(submit), 1),
                "total_ms": round(1000 * (statistics.median(prove) + statistics.median(submit)), 1),
                "submission_bytes": size,
            }
            rows.append(row)
            print(json.dumps(row))
    if args.output:
        Path(args.output).write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
