"""Load, tampering and crash tests of `zeenot serve` on loopback, with figures.

    python benchmarks/runtime_load.py [--db sqlite|postgresql] [--processes N] [-n 400]
        [--concurrency 16] [--bad 0.1] [--kill] [-o out.json]

Pre-builds `n` payd submissions (each its own Groth16 proof), turns a fraction `--bad` of them
into tampered ones (a lowered premium, a flipped proof byte, another tariff, a proof replayed
under a new id, a re-randomised (-A, -B, C) proof moved to the attacker's own run and policy),
adds as many attacks on honest runs (an attacker posting a victim's submission with a
re-randomised proof under the victim's own id, before the victim does), starts `--processes`
`zeenot serve` processes (each on its own port, posted to round robin as a load balancer would)
on one fresh database (a SQLite file, or a throwaway PostgreSQL server) and posts them all with
`--concurrency` client threads. Then it checks every answer against the database: the
figures are verified submissions per second and client latency, and the checks are **0 invalid
accepted, 0 valid lost**.

`--kill` instead posts valid submissions one after another, SIGKILLs the server mid-ingest,
restarts it on the same database and checks that every acknowledged submission is there with its
result, that nothing is half-written (no proof digest without its submission), and that
re-sending an acknowledged submission is answered from the database with the same result.

Exits 1 if a check fails. Never writes tracked files (`-o` chooses where the JSON goes).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.python.postgres import postgres_server  # noqa: E402
from tests.python.runtime_server import free_port  # noqa: E402

from zeenot.application import load_application  # noqa: E402
from zeenot.runtime.client import Runner  # noqa: E402
from zeenot.runtime.identity import Key, SignedAuth, new_token, write_secret  # noqa: E402

# payd takes signed runs of registered cars, one a car a week: each submission is its own car's,
# registered by the operator (this script) before the load; reads need the operator's token.
TOKEN = new_token()
TOKEN_FILE = Path(tempfile.mkdtemp()) / "operator.token"
write_secret(TOKEN_FILE, TOKEN + "\n")
OPERATOR = {"authorization": f"Bearer {TOKEN}"}
JSON = {"content-type": "application/json"}

PAYD = ROOT / "examples" / "payd" / "app.py"


def use_backend(backend: str) -> None:
    """Point PAYD at a copy of the application that proves its region with `backend`."""
    global PAYD
    if backend == "sigma":
        copy = Path(tempfile.mkdtemp()) / "payd" / "app.py"  # an application is named by its folder
        copy.parent.mkdir()
        copy.write_text(PAYD.read_text() + '\nBACKENDS = {"weekly_premium": "sigma"}\n')
        (copy.parent / "log.json").write_text(json.dumps(LOG))
        PAYD = copy


LOG = json.loads((ROOT / "examples" / "payd" / "log.json").read_text())


# ---- the server under test ------------------------------------------------------------------


@contextlib.contextmanager
def database(kind: str) -> Iterator[str]:
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            yield str(Path(tmp) / "zeenot.db")
    else:
        with postgres_server() as url:
            yield url


def start(db: str, processes: int, port: int) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "zeenot.cli", "serve", str(PAYD), "--db", db]
    cmd += ["--port", str(port), "--workers", str(processes)]
    cmd += ["--operator-token-file", str(TOKEN_FILE)]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(
                f"zeenot serve exited: {proc.stderr.read().decode() if proc.stderr else ''}"
            )
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                # every worker process answers only once it has loaded the application
                for _ in range(processes * 4):
                    httpx.get(f"http://127.0.0.1:{port}/api/apps/payd", timeout=30)
                return proc
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise SystemExit("zeenot serve did not start")


def start_bare(db: str, port: int) -> subprocess.Popen[bytes]:
    """The baseline: benchmarks/bare_endpoint.py (the same stack, storing only)."""
    cmd = [sys.executable, str(ROOT / "benchmarks" / "bare_endpoint.py"), "--db", db]
    proc = subprocess.Popen(
        [*cmd, "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the bare endpoint exited: {proc.stderr.read().decode()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise SystemExit("the bare endpoint did not start")


def baseline(args: argparse.Namespace, items: list[dict[str, Any]]) -> dict[str, Any]:
    """The same bodies, in the same order and concurrency, to the bare endpoint on a fresh
    database of the same kind: throughput and server CPU a request."""
    with database(args.db) as db:
        port = free_port()
        server = start_bare(db, port)
        try:
            cpu = cpu_seconds(lambda pid, pgid, uid: pgid == server.pid)
            run = post_all([f"http://127.0.0.1:{port}"], items, args.concurrency)
            cpu = cpu_seconds(lambda pid, pgid, uid: pgid == server.pid) - cpu
        finally:
            stop(server)
    stored = sum(1 for _, code, _ in run["answers"] if code == 201)
    return {
        "requests_per_s": round(len(items) / run["elapsed"], 1),
        "stored": stored,
        "server_cpu_ms_per_request": round(1000 * cpu / len(items), 2),
    }


def cpu_seconds(match: Any) -> float:
    """User + system CPU seconds of the processes `match(pid, pgid, uid)` selects (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            uid = (entry / "status").stat().st_uid
        except OSError:
            continue
        if match(int(entry.name), int(fields[2]), uid):
            total += int(fields[11]) + int(fields[12])
    return total / tick


def stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, sig)  # the uvicorn supervisor and its workers
    proc.wait(timeout=30)


# ---- submissions ----------------------------------------------------------------------------


def build(url: str, n: int, bad: float, seed: int) -> list[dict[str, Any]]:
    """`n` submissions: {"id", "body", "valid"}; a fraction `bad` tampered or replayed."""
    runner = Runner(load_application(PAYD), url)
    rng = random.Random(seed)
    out = []
    for i in range(n):
        log = {**LOG, "policy": f"P-{i}", "km": [k + i % 300 for k in LOG["km"]]}
        car = Key.generate(f"car-{i}")
        public = {"name": car.name, "public_key": car.public_key}
        r = httpx.post(f"{url}/api/apps/payd/clients", json=public, headers=OPERATOR)
        assert r.status_code in (201, 409), r.text
        runner.key = car  # the proofs are bound to the car that signs the run
        body = runner.prepare(log, submission_id=f"s{i}")
        out.append({"id": f"s{i}", "body": body, "valid": True, "car": car})
    runner.close()
    victims = rng.sample(range(n), int(n * bad))
    honest = [i for i in range(n) if i not in set(victims)]
    front_runs = []
    for k, victim in enumerate(victims):
        doc = json.loads(out[victim]["body"])
        kind = k % 5
        if kind == 0:
            doc["proofs"]["quote.0"]["outputs"][0] -= 100  # a lower premium
        elif kind == 1:
            raw = bytearray.fromhex(doc["proofs"]["quote.0"]["proof"])
            raw[len(raw) // 2] ^= 0x40
            doc["proofs"]["quote.0"]["proof"] = raw.hex()
        elif kind == 2:
            doc["proofs"]["quote.0"]["public_inputs"]["base_cents"] = 0  # another tariff
        elif kind == 3:  # replay: an honest submission's proof under this id (posted after it)
            other = json.loads(out[honest[k % len(honest)]]["body"])
            doc["proofs"] = other["proofs"]
            doc["inputs"] = other["inputs"]
        else:  # an honest run's proof re-randomised, moved to this run and its own policy
            other = json.loads(out[honest[k % len(honest)]]["body"])
            doc["proofs"] = {"quote.0": negated(other["proofs"]["quote.0"])}
        out[victim] = {
            "id": doc["id"],
            "body": json.dumps(doc).encode(),
            "valid": False,
            "replay": kind in (3, 4),
            "car": out[victim]["car"],
        }
    # front-runs: an attacker (a registered car of its own) posts a victim's run, its proof
    # re-randomised, under the victim's id, before the victim: refused, and the victim keeps it
    for k in range(len(victims)):
        victim = honest[(7 * k) % len(honest)]
        doc = json.loads(out[victim]["body"])
        doc["proofs"] = {"quote.0": negated(doc["proofs"]["quote.0"])}
        front_runs.append(
            {
                "id": doc["id"],
                "body": json.dumps(doc).encode(),
                "valid": False,
                "front_run": True,
                "car": out[victims[k]]["car"],  # the attacker signs as itself
            }
        )
    return front_runs + out


def negated(proof: dict[str, Any]) -> dict[str, Any]:
    """(-A, -B, C): another valid Groth16 proof of the same statement (arkworks' compressed
    points keep the y sign in bit 7 of their last byte)."""
    raw = bytearray.fromhex(proof["proof"])
    raw[31] ^= 0x80
    raw[95] ^= 0x80
    return {**proof, "proof": raw.hex()}


def _signed(item: dict[str, Any]) -> SignedAuth:
    """The item's car signs it for the server (named `zeenot`: no --name), afresh per post."""
    return SignedAuth(item["car"], "zeenot")


def post_all(urls: list[str], items: list[dict[str, Any]], concurrency: int) -> dict[str, Any]:
    """Post every item, spread round robin over the server processes (as a load balancer in
    front of stateless servers would), with `concurrency` client threads."""
    clients = [
        httpx.Client(base_url=u, limits=httpx.Limits(max_connections=concurrency), timeout=120)
        for u in urls
    ]

    def post(indexed: tuple[int, dict[str, Any]]) -> tuple[str, int, float]:
        k, item = indexed
        t = time.perf_counter()
        r = clients[k % len(clients)].post(
            "/api/apps/payd/submissions", content=item["body"], headers=JSON, auth=_signed(item)
        )
        return item["id"], r.status_code, time.perf_counter() - t

    t0 = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        answers = list(pool.map(post, enumerate(items)))
    elapsed = time.perf_counter() - t0
    for client in clients:
        client.close()
    return {"answers": answers, "elapsed": elapsed}


def audit(url: str, items: list[dict[str, Any]], answers: list[tuple[str, int, float]]) -> dict:
    """Compare every answer and the database with what each submission deserved (a front-run
    shares its victim's id: only its answer tells, and the stored run must be the victim's)."""
    invalid_accepted = valid_lost = 0
    for item, (sid, code, _) in zip(items, answers, strict=True):
        assert sid == item["id"]
        path = f"{url}/api/apps/payd/submissions/{item['id']}"
        stored = httpx.get(path, headers=OPERATOR).status_code == 200
        if item["valid"]:
            valid_lost += code not in (200, 201) or not stored
        elif item.get("front_run"):
            invalid_accepted += code in (200, 201)
        else:
            invalid_accepted += code in (200, 201) or stored
    return {"invalid_accepted": invalid_accepted, "valid_lost": valid_lost}


def load(args: argparse.Namespace) -> dict[str, Any]:
    import pwd

    with database(args.db) as db:
        servers, urls = [], []
        try:
            for _ in range(args.processes):  # one `zeenot serve` each, on its own port
                port = free_port()
                servers.append(start(db, 1, port))
                urls.append(f"http://127.0.0.1:{port}")
            items = build(urls[0], args.n, args.bad, args.seed)
            # front-runs before the runs they attack, replays after the ones they copy
            ahead = [i for i in items if i.get("front_run")]
            first = [i for i in items if not i.get("replay") and not i.get("front_run")]
            then = [i for i in items if i.get("replay")]
            groups = {s.pid for s in servers}
            pg_uid = pwd.getpwnam("postgres").pw_uid if args.db == "postgresql" else -1
            server_cpu = cpu_seconds(lambda pid, pgid, uid: pgid in groups)
            db_cpu = cpu_seconds(lambda pid, pgid, uid: uid == pg_uid)
            client_cpu = time.process_time()
            phases = [post_all(urls, group, args.concurrency) for group in (ahead, first, then)]
            run = {
                "answers": [a for phase in phases for a in phase["answers"]],
                "elapsed": sum(phase["elapsed"] for phase in phases),
            }
            client_cpu = time.process_time() - client_cpu
            server_cpu = cpu_seconds(lambda pid, pgid, uid: pgid in groups) - server_cpu
            db_cpu = cpu_seconds(lambda pid, pgid, uid: uid == pg_uid) - db_cpu
            items = ahead + first + then
            checks = audit(urls[0], items, run["answers"])
        finally:
            for server in servers:
                stop(server)
    bare = baseline(args, items) if args.baseline else None
    valid = [a for a, item in zip(run["answers"], items, strict=True) if item["valid"]]
    latency = sorted(t for _, code, t in valid)
    accepted = sum(1 for _, code, _ in valid if code in (200, 201))
    return {
        "mode": "load",
        "backend": args.backend,
        "db": args.db,
        "processes": args.processes,
        "submissions": args.n,
        "bad": sum(not i["valid"] for i in items),
        "front_runs": len(ahead),
        "concurrency": args.concurrency,
        "verified_per_s": round(len(items) / run["elapsed"], 1),
        "accepted_per_s": round(accepted / run["elapsed"], 1),
        "cpu_ms_per_submission": {
            "server": round(1000 * server_cpu / len(items), 2),
            "database": round(1000 * db_cpu / len(items), 2),
            "load_generator": round(1000 * client_cpu / len(items), 2),
        },
        "cores": os.cpu_count(),
        "latency_ms": {
            "p50": round(1000 * statistics.median(latency), 2),
            "p95": round(1000 * latency[int(0.95 * (len(latency) - 1))], 2),
        },
        **checks,
        **(
            {
                "bare_endpoint": bare,
                "ratio_to_bare": round(len(items) / run["elapsed"] / bare["requests_per_s"], 3),
            }
            if bare
            else {}
        ),
        "ok": checks["invalid_accepted"] == 0 and checks["valid_lost"] == 0,
    }


# ---- crash --------------------------------------------------------------------------------


def crash(args: argparse.Namespace) -> dict[str, Any]:
    with database(args.db) as db:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        server = start(db, args.processes, port)
        items = build(url, args.n, 0.0, args.seed)
        acked: dict[str, Any] = {}
        errors = 0
        done = threading.Event()

        def feed() -> None:
            nonlocal errors
            with httpx.Client(base_url=url, timeout=30) as client:
                for item in items:
                    try:
                        r = client.post(
                            "/api/apps/payd/submissions",
                            content=item["body"],
                            headers=JSON,
                            auth=_signed(item),
                        )
                    except httpx.TransportError:
                        errors += 1
                        if done.is_set():
                            return
                        continue
                    if r.status_code in (200, 201):
                        acked[item["id"]] = r.json()["result"]

        feeder = threading.Thread(target=feed)
        feeder.start()
        while len(acked) < args.n // 3:
            time.sleep(0.005)
        stop(server, signal.SIGKILL)  # mid-ingest: requests are in flight
        killed_after = len(acked)
        done.set()
        feeder.join()
        server = start(db, args.processes, port)
        try:
            missing = [
                sid
                for sid in acked
                if httpx.get(f"{url}/api/apps/payd/submissions/{sid}", headers=OPERATOR).status_code
                != 200
            ]
            wrong = []
            by_id = {i["id"]: i for i in items}
            for sid, result in acked.items():
                r = httpx.post(
                    f"{url}/api/apps/payd/submissions",
                    content=by_id[sid]["body"],
                    headers=JSON,
                    auth=_signed(by_id[sid]),
                )
                if r.status_code != 200 or r.json()["result"] != result:
                    wrong.append(sid)
            orphans = orphan_rows(db)
        finally:
            stop(server)
    return {
        "mode": "kill",
        "db": args.db,
        "acknowledged_before_kill": killed_after,
        "acknowledged": len(acked),
        "missing_after_restart": len(missing),
        "retry_mismatches": len(wrong),
        "orphan_proof_rows": orphans,
        "ok": not missing and not wrong and orphans == 0,
    }


def orphan_rows(db: str) -> int:
    """Proof digests whose submission is not stored: a half-written submission."""
    import sqlalchemy as sa

    from zeenot.runtime.store import Store

    store = Store(db)
    with store.engine.connect() as conn:
        return int(
            conn.execute(
                sa.text(
                    "SELECT count(*) FROM proofs p LEFT JOIN submissions s "
                    "ON p.app = s.app AND p.submission = s.id WHERE s.id IS NULL"
                )
            ).scalar()
            or 0
        )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("-n", type=int, default=400, help="submissions")
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--bad", type=float, default=0.1, help="fraction tampered or replayed")
    ap.add_argument("--kill", action="store_true", help="the SIGKILL test instead of the load")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backend", choices=["groth16", "sigma"], default="groth16")
    ap.add_argument(
        "--baseline",
        action="store_true",
        help="also post the same bodies to benchmarks/bare_endpoint.py (stores only) and report "
        "the ratio",
    )
    ap.add_argument("-o", "--output", help="write the result as JSON here")
    args = ap.parse_args()
    use_backend(args.backend)
    result = crash(args) if args.kill else load(args)
    text = json.dumps(result, indent=2)
    print(text)
    if args.output:
        Path(args.output).write_text(text + "\n")
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
