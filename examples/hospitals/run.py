"""Hospitals as data providers, a researcher as querier: "mean and variance of age by
diagnosis" over a collective authority of 3 servers (threshold 2), each its own process and
its own SQLite database, on loopback. Compares the answer with a plain-Python reference.

    python examples/hospitals/run.py [--records 1000] [--noise EPS] [--kill s3] [--dir D]
                                     [--servers 3 --threshold 2]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

SCHEMA = {"age": {"bits": 8, "square": True}, "diagnosis": {"bits": 8}}
HOSPITALS = ("h1", "h2", "h3")


def records(n: int, seed: int = 7) -> dict[str, list[dict[str, int | str]]]:
    rnd = random.Random(seed)
    out: dict[str, list[dict[str, int | str]]] = {h: [] for h in HOSPITALS}
    for i in range(n):
        diagnosis = rnd.choice((1, 2, 3, 4))
        age = min(255, max(0, int(rnd.gauss(40 + 8 * diagnosis, 12))))
        out[HOSPITALS[i % 3]].append({"id": f"r{i}", "age": age, "diagnosis": diagnosis})
    return out


def reference(data: dict[str, list[dict[str, int | str]]]) -> dict[int, dict[str, float]]:
    by: dict[int, list[int]] = {}
    for rows in data.values():
        for r in rows:
            by.setdefault(int(r["diagnosis"]), []).append(int(r["age"]))
    out = {}
    for d, ages in by.items():
        n = len(ages)
        mean = sum(ages) / n
        out[d] = {"count": n, "mean": mean, "variance": sum(a * a for a in ages) / n - mean * mean}
    return out


def zeenot(*args: str) -> list[str]:
    return [sys.executable, "-m", "zeenot.cli", "cothority", *args]


def postgres_databases(url: str, servers: int) -> dict[str, str]:
    """A new database per authority server on the PostgreSQL server of `url`, as URLs."""
    import uuid

    import sqlalchemy as sa

    tag = uuid.uuid4().hex[:8]
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    urls = {}
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        for i in range(servers):
            name = f"hospitals_s{i + 1}_{tag}"
            conn.execute(sa.text(f"CREATE DATABASE {name}"))
            urls[f"s{i + 1}"] = url.rsplit("/", 1)[0] + "/" + name
    engine.dispose()
    return urls


def start(
    d: Path,
    kill: str | None = None,
    fault: dict[str, str] | None = None,
    servers: int = 3,
    dbs: dict[str, str] | None = None,
) -> list[subprocess.Popen]:
    procs = []
    for s in (f"s{i + 1}" for i in range(servers)):
        env = dict(os.environ)
        if fault and s in fault:
            env["ZEENOT_COTHORITY_FAULT"] = fault[s]
        procs.append(
            subprocess.Popen(
                zeenot(
                    "serve",
                    "--roster",
                    str(d / "roster.json"),
                    "--key",
                    str(d / f"{s}.key"),
                    "--db",
                    dbs[s] if dbs else str(d / f"{s}.db"),
                ),
                env=env,
            )
        )
    roster = json.loads((d / "roster.json").read_text())
    for s, entry in roster["servers"].items():
        for _ in range(600):
            try:
                if httpx.get(entry["url"] + "/cothority/health", timeout=1).json().get("dkg"):
                    break
            except (httpx.HTTPError, ValueError):
                pass
            time.sleep(0.1)
        else:
            raise SystemExit(f"{s} did not finish its DKG")
    return procs


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=1000)
    ap.add_argument("--noise", type=float, default=None, help="epsilon (default: no noise)")
    ap.add_argument(
        "--query", default=None, help="JSON query (default: variance of age by diagnosis)"
    )
    ap.add_argument("--kill", default=None, help="a server to kill before the query")
    ap.add_argument("--dir", default=None)
    ap.add_argument("--base-port", type=int, default=8101)
    ap.add_argument("--servers", type=int, default=3, help="m, the authority's servers")
    ap.add_argument("--threshold", type=int, default=2, help="t, the servers a query needs")
    ap.add_argument(
        "--postgres",
        default=None,
        help="a postgresql:// server URL: each authority server its own new database there "
        "(default: a SQLite file each)",
    )
    args = ap.parse_args()
    d = Path(args.dir or tempfile.mkdtemp(prefix="hospitals-"))
    t0 = time.time()
    subprocess.run(
        zeenot(
            "init",
            "--dir",
            str(d),
            "--name",
            "hospitals",
            "--servers",
            str(args.servers),
            "--threshold",
            str(args.threshold),
            "--base-port",
            str(args.base_port),
            "--providers",
            ",".join(HOSPITALS),
            "--queriers",
            "researcher",
            "--schema",
            json.dumps(SCHEMA),
        ),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    dbs = postgres_databases(args.postgres, args.servers) if args.postgres else None
    procs = start(d, servers=args.servers, dbs=dbs)
    try:
        t1 = time.time()
        data = records(args.records)
        for i, h in enumerate(HOSPITALS):
            f = d / f"{h}.json"
            f.write_text(json.dumps(data[h]))
            subprocess.run(
                zeenot(
                    "submit",
                    "--roster",
                    str(d / "roster.json"),
                    "--key",
                    str(d / f"{h}.key"),
                    "--server",
                    f"s{i % args.servers + 1}",
                    str(f),
                ),
                check=True,
            )
        t2 = time.time()
        roster = json.loads((d / "roster.json").read_text())
        for _ in range(3000):  # every server holds every record (relayed)
            counts = [
                httpx.get(e["url"] + "/cothority/health").json()["records"]
                for e in roster["servers"].values()
            ]
            if min(counts) >= args.records:
                break
            time.sleep(0.2)
        if args.kill:
            procs[int(args.kill[1:]) - 1].kill()
        t3 = time.time()
        spec = {"op": "variance", "attribute": "age", "group_by": "diagnosis"}
        if args.query:
            spec = json.loads(args.query)
        if args.noise and "noise" not in spec:
            # each server's own draw: a sum of squares of ages has sensitivity 255², beyond
            # what a shuffled list of practical length covers (docs/cothority.md, Noise)
            spec["noise"] = {"epsilon": args.noise, "mechanism": "per_server"}
        out = subprocess.run(
            zeenot(
                "query",
                "--roster",
                str(d / "roster.json"),
                "--key",
                str(d / "researcher.key"),
                "--server",
                "s1",
                "--query",
                json.dumps(spec),
                "--transcript",
                str(d / "transcript.json"),
            ),
            check=True,
            capture_output=True,
            text=True,
        )
        t4 = time.time()
        audit = subprocess.run(
            zeenot("audit", "--roster", str(d / "roster.json"), str(d / "transcript.json")),
            capture_output=True,
            text=True,
        )
        t5 = time.time()
    finally:
        for p in procs:
            p.kill()
    answer = json.loads(out.stdout)
    ref = reference(data)
    print(json.dumps({"answer": answer, "reference": ref}, indent=1))
    print(f"audit: {audit.stdout.strip()}")
    steps = json.loads((d / "transcript.json").read_text()).get("leader_timings", {})
    print(f"leader steps (s): {json.dumps(steps)}")
    ok = audit.returncode == 0
    for row in answer["result"]:
        if "diagnosis" not in row:  # a query of another shape: printed, not compared
            continue
        want = ref[row["diagnosis"]]
        if args.noise is None and "noise" not in spec:
            ok &= row["count"] == want["count"]
            ok &= abs(row.get("mean", want["mean"]) - want["mean"]) < 1e-9
            ok &= abs(row.get("variance", want["variance"]) - want["variance"]) < 1e-6
    print(
        f"setup+DKG {t1 - t0:.1f} s, submit {t2 - t1:.1f} s, relay {t3 - t2:.1f} s, "
        f"query+verify {t4 - t3:.1f} s, audit {t5 - t4:.1f} s, total {t5 - t0:.1f} s"
    )
    print("equal to the reference" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
