"""What one dashboard poll costs the server as the stored runs grow, with figures.

    python benchmarks/dashboard_poll.py [--db sqlite|postgresql] [--sizes 1000,10000,100000]
        [--polls 20] [-o out.json]

One database (a SQLite file, or a throwaway PostgreSQL server) grows to each size in turn:
payd results (random premiums) and one rejection per ten runs are inserted directly through
the store's tables in bulk, with payd's dashboard aggregates (its `dashboard_fold` state and
the count) written as `Store.accept` keeps them. At each size the page's poll (the four
requests `static/dashboard.js` makes every 2 s: the applications, the latest ten runs, the
panel, the latest twenty rejections) is timed through the real ASGI application in-process,
median of `--polls` (and each request alone); and, for comparison, what the panel cost before
aggregates: reading every stored result and charting them (`before_s`).

Never writes tracked files (`-o` chooses where the JSON goes).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import random
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

from starlette.testclient import TestClient  # noqa: E402
from tests.python.postgres import postgres_server  # noqa: E402

from zeenot.application import load_application  # noqa: E402
from zeenot.runtime.identity import Gate  # noqa: E402
from zeenot.runtime.server import build  # noqa: E402
from zeenot.runtime.service import Service  # noqa: E402
from zeenot.runtime.store import (  # noqa: E402
    Store,
    _state_json,
    dashboards_table,
    rejections_table,
    submissions_table,
)

PAYD = ROOT / "examples" / "payd" / "app.py"
POLL = [
    "/api/apps",
    "/api/apps/payd/submissions?limit=10",
    "/api/apps/payd/dashboard",
    "/api/rejections?limit=20",
]


def grow(store: Store, service: Service, start: int, stop: int, rng: random.Random) -> None:
    """Runs `start`..`stop` of payd, and their aggregates, as `Store.accept` would leave them."""
    fold = service.fold
    assert fold is not None
    row = store.dashboard("payd")
    state = row.state
    base = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    chunk = 5_000
    for lo in range(start, stop, chunk):
        rows, rejected = [], []
        for i in range(lo, min(stop, lo + chunk)):
            premium = rng.randrange(0, 4_001)
            result = {"policy": f"P-{i}", "premium_cents": premium, "capped": premium == 4_000}
            state = fold.step(state, result)
            at = base + dt.timedelta(seconds=i)
            rows.append(
                {
                    "app": "payd",
                    "id": f"run-{i}",
                    "digest": f"{i:064x}",
                    "result": json.dumps(result),
                    "accepted_at": at,
                }
            )
            if i % 10 == 0:
                rejected.append(
                    {
                        "app": "payd",
                        "submission": f"bad-{i}",
                        "status": 422,
                        "reason": "proof `quote.0` rejected: the pairing check failed",
                        "rejected_at": at,
                    }
                )
        with store.engine.begin() as conn:
            conn.execute(submissions_table.insert(), rows)
            if rejected:
                conn.execute(rejections_table.insert(), rejected)
            conn.execute(
                dashboards_table.update()
                .where(dashboards_table.c.app == "payd")
                .values(accepted=dashboards_table.c.accepted + len(rows), state=_state_json(state))
            )


def before(store: Store, app: Any) -> None:
    """The panel as it was: every stored result read and charted (and counted)."""
    store.count_submissions("payd")
    state = None
    for result in store.results("payd")[-10_000:]:
        state = app.module.dashboard_fold(state, result)
    app.module.dashboard_view(state)


def timed(fn: Any, n: int) -> float:
    samples = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


@contextlib.contextmanager
def database(kind: str) -> Iterator[str]:
    if kind == "postgresql":
        with postgres_server() as url:
            yield url
    else:
        with tempfile.TemporaryDirectory() as tmp:
            yield str(Path(tmp) / "zeenot.db")


def measure(args: argparse.Namespace) -> dict[str, Any]:
    sizes = sorted(int(s) for s in args.sizes.split(","))
    rng = random.Random(args.seed)
    out: dict[str, Any] = {"db": args.db, "polls": args.polls, "sizes": []}
    with database(args.db) as db:
        store = Store(db)
        app = load_application(PAYD)
        service = Service(app, store)
        gate = Gate("zeenot", store, public_reads=True)
        client = TestClient(build({"payd": service}, store, gate))
        stored = 0
        for size in sizes:
            grow(store, service, stored, size, rng)
            stored = size

            def poll() -> None:
                for path in POLL:
                    answer = client.get(path)
                    assert answer.status_code == 200, (path, answer.text)

            panel = client.get("/api/apps/payd/dashboard").json()
            assert panel["accepted"] == size, panel
            assert sum(panel["chart"]["values"]) == size, panel
            figure = {
                "runs": size,
                "poll_s": timed(poll, args.polls),
                "routes_s": {
                    path: timed(lambda path=path: client.get(path), args.polls) for path in POLL
                },
                "before_s": timed(lambda: before(store, app), max(3, args.polls // 5)),
            }
            out["sizes"].append(figure)
            routes = ", ".join(f"{v * 1e3:.2f}" for v in figure["routes_s"].values())
            print(
                f"{size:>8} runs: poll {figure['poll_s'] * 1e3:7.2f} ms (each route: {routes} "
                f"ms); before: panel {figure['before_s'] * 1e3:8.1f} ms",
                file=sys.stderr,
                flush=True,
            )
        client.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--polls", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", help="write the result as JSON here")
    args = ap.parse_args()
    result = measure(args)
    text = json.dumps(result, indent=2)
    if args.output:
        Path(args.output).write_text(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
