"""A bounded load test of zeenot's DAP-09 aggregators on loopback (issue 32, item 5).

    python benchmarks/prio_load.py [--reports 4000] [--clients 32] [--invalid 0.05]
        [--replayed 0.05] [--batch N] [--rate R] [--job-size 1024] [--split] [--stats]
        [--postgres [URL] | --sqlite-synchronous normal] [--db-dir DIR] [--bare-binary PATH]
        [--json OUT]

The leader and the helper run as real processes (`zeenot prio serve`, uvicorn, each with its own
SQLite database); `--clients` concurrent connections upload Prio3Sum (32 bits) reports prepared
beforehand (sharding and sealing is the clients' work, not the aggregators'), of which a fraction
`--invalid` carries a leader share altered after sharding (its proof fails at preparation:
`vdaf_prep_error`) and a fraction `--replayed` is sent twice: half of them byte for byte (201,
stored once) and half as another report under a used report id (refused). The leader's driver
runs aggregation jobs with the helper while uploads arrive; when no report is pending the
collector collects the hour, and the sum is checked against the valid reports' plain sum.

With `--batch N` the clients send up to N reports per `POST …/reports:batch` (zeenot's batch
upload, `zeenot.prio.dap_batch`) instead of one per `PUT`; the replays then go after every
original is answered.

With `--split` the leader is two processes over its database: `zeenot prio serve --no-drive`
(uploads) and `zeenot prio drive` (its aggregation and collection jobs), and the CPU per report
of each is reported. With `--stats` the servers keep `zeenot.prio.dap_stats`' timers (where an
upload's time goes: reading, checking, waiting for the writer, the writer's turn, insert and
commit, the event loop's wake-up; the driver's transactions) and the summary per process is
printed and put in `--json`.

With `--postgres` each aggregator has its own PostgreSQL database instead of a SQLite file
(Janus's production layout): two fresh databases on the server at URL (a `postgresql://` URL of
a database to connect to for `CREATE DATABASE`), dropped afterwards; with no URL, a throw-away
server (`tests/python/postgres.py`: PostgreSQL 15, initdb in a temporary directory, `fsync=on`
and the default `synchronous_commit=on`, so a commit is as durable as SQLite's FULL) started for
the run and removed after it. `--sqlite-synchronous normal` runs the SQLite aggregators with
`ZEENOT_SQLITE_SYNCHRONOUS=normal` (no flush per commit: kill -9 loses nothing acknowledged, a
power loss may; `zeenot.runtime.store`).

Reported: verified reports per second (reports whose preparation ended, accepted or rejected,
from the first upload to the last preparation), upload latency p50/p99 per report (from sending
the request that carries it to that request's answer: for a batch, the batch's round trip, which
every report in it waits for) and per request, and CPU-seconds per
report of each aggregator process (`/proc/PID/stat`, user + system) and of the load clients.
The machine is shared, so
wall-clock rates depend on the load beside the test (`os.getloadavg()` is printed); CPU-seconds
per report do not (much). The proxy for "the bare crate's preparation of the same reports" is
`crates/zeenot-prio/examples/prepare_timing` (`benchmarks/prio_vdaf.py`'s bare side), timed in
the same run: both aggregators' DAP preparation of one Prio3Sum(32) report (cost independent of
the value); the overhead is (leader + helper CPU-seconds per report) / that − 1. DAP also has
each aggregator open its HPKE-sealed input share, which the bare preparation leaves out; the
example times that too (`hpke_open`), and `overhead_vs_prepare_and_hpke` compares with the
preparation plus two openings.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

from zeenot.prio import dap_codec as codec
from zeenot.prio import dap_http, dap_stats
from zeenot.prio.dap_batch import BATCH_MEDIA_TYPE, MAX_REPORTS, encode_batch
from zeenot.prio.dap_client import Client, Collector
from zeenot.prio.dap_store import DapStore
from zeenot.prio.tasks import new_task, unb64url
from zeenot.runtime.store import SQLITE_SYNCHRONOUS, SQLITE_SYNCHRONOUS_ENV, Store

ROOT = Path(__file__).resolve().parents[1]
VDAF = {"type": "Prio3Sum", "bits": 32}
TP = 3600
TICK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int, reaped: bool = False) -> float:
    """User + system CPU-seconds so far of a process and its descendants (uvicorn's workers);
    with `reaped`, also of the children it has waited for (PostgreSQL's ended backends)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    total = (int(fields[11]) + int(fields[12])) / TICK
    if reaped:
        total += (int(fields[13]) + int(fields[14])) / TICK
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except FileNotFoundError:
            continue
        total += sum(cpu_seconds(int(child)) for child in children)
    return total


def postmaster(url: str) -> int | None:
    """The pid of the PostgreSQL server on this machine listening on `url`'s port, if any
    (its backends are its children: their CPU is the database's share of the work)."""
    port = url.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[-1]
    if not port.isdigit():
        return None
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if argv[0].endswith(b"postgres") and b"-p" in argv:
            at = argv.index(b"-p")
            if at + 1 < len(argv) and argv[at + 1] == port.encode():
                return int(proc.name)
    return None


@dataclass
class Server:
    role: str  # leader, helper, or drive (`zeenot prio drive`: no port, no health check)
    port: int
    db: str  # a SQLite file or a postgresql:// URL
    logs: Path  # the directory of its log (`<role>.log`)
    task: Path
    job_size: int
    workers: int = 1
    cpus: str | None = None
    drives: bool = True  # a leader: False is `serve --no-drive` (a `drive` Server beside it)
    env: dict[str, str] = field(default_factory=dict)
    proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def log_path(self) -> Path:
        return self.logs / f"{self.role}.log"

    def start(self) -> None:
        log = open(self.log_path, "ab")  # noqa: SIM115 - the process owns it
        pinned = ["taskset", "-c", self.cpus] if self.cpus else []
        if self.role == "drive":
            command = ["prio", "drive", "--db", self.db, "--task", str(self.task)]
        else:
            command = ["prio", "serve", "--role", self.role, "--db", self.db]
            command += ["--task", str(self.task), "--port", str(self.port)]
            command += ["--workers", str(self.workers)] if self.workers != 1 else []
            command += [] if self.drives else ["--no-drive"]
        self.proc = subprocess.Popen(
            pinned
            + [sys.executable, "-m", "zeenot.cli", *command]
            + ["--job-size", str(self.job_size)],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **self.env},
        )
        log.close()
        if self.role == "drive":
            return
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the {self.role} exited: {self.log_path}")
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/health", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the {self.role} did not start in time")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def reports(client: Client, n: int, invalid: float, replayed: float, at: int) -> dict[str, Any]:
    """The uploads, in order, and what the aggregate must be: n distinct reports (a fraction
    `invalid` of them with an altered leader share), then the replays."""
    task_id = unb64url(client.task_id, "task_id", 32)
    configs = client.configs()
    bodies: list[bytes] = []
    ids: list[bytes] = []
    total, valid = 0, 0
    n_invalid = round(n * invalid)
    for i in range(n):
        value = secrets.randbelow(1 << 32)
        rid = secrets.token_bytes(16)
        public, shares = client.vdaf.shard(value, rid)
        leader = bytes(shares[0])
        if i < n_invalid:  # one bit of the measurement share flipped after the proof was made
            leader = bytes([leader[0] ^ 1]) + leader[1:]
        else:
            total, valid = total + value, valid + 1
        shares_ = (leader, bytes(shares[1]))
        bodies.append(codec.encode_report(task_id, rid, at, bytes(public), shares_, configs))
        ids.append(rid)
    rng = secrets.SystemRandom()
    order = list(range(n))
    rng.shuffle(order)
    bodies, ids = [bodies[i] for i in order], [ids[i] for i in order]
    # The replays come after the originals and name reports from the first half of the
    # uploads, long answered by then (a reused id is refused, never stored first).
    n_replayed = min(round(n * replayed), n // 2)
    repeats = bodies[: n_replayed // 2]  # byte for byte
    reused = []  # another report under a used id
    for rid in ids[n_replayed // 2 : n_replayed]:
        public, shares = client.vdaf.shard(1, rid)
        pair = (bytes(shares[0]), bytes(shares[1]))
        reused.append(codec.encode_report(task_id, rid, at, bytes(public), pair, configs))
    replays = repeats + reused
    rng.shuffle(replays)
    uploads = bodies + replays
    return {
        "uploads": uploads,
        "distinct": n,
        "invalid": n_invalid,
        "valid": valid,
        "sum": total,
        "refused_expected": len(reused),
    }


async def upload(
    url: str, bodies: list[bytes], clients: int, batch: int = 0, rate: float = 0.0
) -> tuple[list[float], list[float], dict[int, int]]:
    """Send every body with `clients` concurrent connections: one report per PUT, or with
    `batch` > 0 up to `batch` reports per POST to `reports:batch`. Returns the latency of each
    report (from sending its request to its answer: for a batch, the batch's), the latency of
    each request, and the statuses per report (a batch's outcomes carry the status the single
    upload would have had). With `rate` > 0 the load is open: request k is due at
    k·step/rate seconds, and its latency counts from when it was due (a request sent late
    because every connection was busy waits in the count, not outside it)."""
    per_report: list[float] = []
    per_request: list[float] = []
    statuses: dict[int, int] = {}
    queue: asyncio.Queue[tuple[int, list[bytes]]] = asyncio.Queue()
    step = batch or 1
    for k, i in enumerate(range(0, len(bodies), step)):
        queue.put_nowait((k, bodies[i : i + step]))
    t0 = time.perf_counter()
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:

        async def worker() -> None:
            while not queue.empty():
                k, group = queue.get_nowait()
                start = time.perf_counter()
                if rate > 0:
                    due = t0 + k * step / rate
                    if due > start:
                        await asyncio.sleep(due - start)
                    start = due
                if batch:
                    answer = await http.post(
                        url + ":batch",
                        content=encode_batch(group),
                        headers={"content-type": BATCH_MEDIA_TYPE},
                    )
                    codes = [int(o["status"]) for o in answer.json()["reports"]]
                else:
                    answer = await http.put(
                        url, content=group[0], headers={"content-type": dap_http.REPORT}
                    )
                    codes = [answer.status_code]
                took = time.perf_counter() - start
                per_request.append(took)
                per_report.extend([took] * len(group))
                for code in codes:
                    statuses[code] = statuses.get(code, 0) + 1

        await asyncio.gather(*(worker() for _ in range(clients)))
    return per_report, per_request, statuses


def _upload_slice(
    url: str, bodies: list[bytes], clients: int, batch: int, rate: float
) -> tuple[list[float], list[float], dict[int, int]]:
    return asyncio.run(upload(url, bodies, clients, batch, rate))


def upload_from(
    url: str, bodies: list[bytes], clients: int, procs: int, batch: int = 0, rate: float = 0.0
) -> tuple[list[float], list[float], dict[int, int]]:
    """`upload` from `procs` client processes (one Python process tops out near a core), the
    connections shared among them; the replays at the end stay after the originals."""
    if procs == 1:
        return _upload_slice(url, bodies, clients, batch, rate)
    slices = [bodies[i::procs] for i in range(procs)]
    per_report: list[float] = []
    per_request: list[float] = []
    statuses: dict[int, int] = {}
    with ProcessPoolExecutor(procs) as pool:
        for rep, req, st in pool.map(
            _upload_slice,
            [url] * procs,
            slices,
            [clients // procs] * procs,
            [batch] * procs,
            [rate / procs] * procs,
        ):
            per_report += rep
            per_request += req
            for code, n in st.items():
                statuses[code] = statuses.get(code, 0) + n
    return per_report, per_request, statuses


def _client_cpu() -> float:
    """CPU-seconds of this process and its reaped children (the uploading client processes):
    the load clients share the cores with the aggregators."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def bare_prepare(binary: Path | None) -> dict[str, float] | None:
    """Seconds of both aggregators' DAP preparation of one Prio3Sum(32) report, bare crate
    (`dap_prepare`), and of one aggregator's HPKE opening of its input share (`hpke_open`)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import prio_vdaf  # benchmarks/prio_vdaf.py, beside this file

    try:
        path = binary or prio_vdaf.build()
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"(no bare crate figure: {exc})", file=sys.stderr)
        return None
    got = prio_vdaf.bare(path, 0.1)["sum32"]
    return {"dap_prepare": float(got["dap_prepare"]), "hpke_open": float(got.get("hpke_open", 0))}


@contextlib.contextmanager
def databases(postgres: str | None, directory: Path) -> Iterator[dict[str, str]]:
    """The helper's and the leader's databases: SQLite files in `directory`, or with `postgres`
    ("" for a throw-away server) two fresh PostgreSQL databases, dropped afterwards."""
    if postgres is None:
        yield {role: str(directory / f"{role}.db") for role in ("helper", "leader")}
        return
    if postgres == "":
        sys.path.insert(0, str(ROOT))
        from tests.python.postgres import postgres_server

        with postgres_server() as url, databases(url, directory) as dbs:
            yield dbs
        return
    if not postgres.startswith(("postgresql://", "postgres://")):
        raise SystemExit("--postgres takes a postgresql:// URL (or nothing: a throw-away server)")
    admin = sa.create_engine("postgresql+psycopg://" + postgres.split("://", 1)[1])
    names = {role: f"prio_load_{role}_{uuid.uuid4().hex[:8]}" for role in ("helper", "leader")}
    base = postgres.rsplit("/", 1)[0]
    try:
        with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            for name in names.values():
                conn.execute(sa.text(f"CREATE DATABASE {name}"))
        yield {role: f"{base}/{name}" for role, name in names.items()}
    finally:
        with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            for name in names.values():
                conn.execute(sa.text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


def run(args: argparse.Namespace, directory: Path) -> dict[str, Any]:
    with databases(args.postgres, directory) as dbs:
        return _run(args, directory, dbs)


def _run(args: argparse.Namespace, directory: Path, dbs: dict[str, str]) -> dict[str, Any]:
    lport, hport = free_port(), free_port()
    task, credential = new_task(
        f"http://127.0.0.1:{lport}/", f"http://127.0.0.1:{hport}/", VDAF, TP, 10
    )
    task_path = directory / "task.json"
    task_path.write_text(json.dumps(task.to_json()))
    db = dbs["helper"], dbs["leader"]
    env = {dap_stats.ENV: str(directory / "stats")} if args.stats else {}
    env[SQLITE_SYNCHRONOUS_ENV] = args.sqlite_synchronous
    helper = Server(
        "helper",
        hport,
        db[0],
        directory,
        task_path,
        args.job_size,
        args.helper_workers,
        args.server_cpus,
        env=env,
    )
    leader = Server(
        "leader",
        lport,
        db[1],
        directory,
        task_path,
        args.job_size,
        args.leader_workers,
        args.server_cpus,
        drives=not args.split,
        env=env,
    )
    driver = Server(
        "drive", 0, db[1], directory, task_path, args.job_size, cpus=args.server_cpus, env=env
    )
    servers = [helper, leader] + ([driver] if args.split else [])
    for server in servers:
        server.start()
    try:
        leader_url = f"http://127.0.0.1:{lport}/"
        client = Client(task.task_id, leader_url, f"http://127.0.0.1:{hport}/", VDAF, TP)
        hour = int(time.time()) // TP * TP
        t0 = time.perf_counter()
        plan = reports(client, args.reports, args.invalid, args.replayed, hour)
        print(f"{len(plan['uploads'])} uploads prepared in {time.perf_counter() - t0:.1f} s")
        pids = {s.role: s.proc.pid for s in servers if s.proc is not None}
        database_pid = postmaster(db[1]) if args.postgres is not None else None
        if database_pid is not None:
            pids["postgres"] = database_pid
        cpu0 = {role: cpu_seconds(pid, role == "postgres") for role, pid in pids.items()}
        load0 = os.getloadavg()
        client0 = _client_cpu()
        start = time.perf_counter()
        url = f"{leader_url}tasks/{task.task_id}/reports"
        if args.batch:
            # Batches run concurrently: the replays go once every original is answered, so a
            # reused id never races the report it reuses.
            phases = [plan["uploads"][: plan["distinct"]], plan["uploads"][plan["distinct"] :]]
        else:
            phases = [plan["uploads"]]
        latencies: list[float] = []
        requests: list[float] = []
        statuses: dict[int, int] = {}
        for phase in phases:
            if not phase:
                continue
            rep, req, st = upload_from(
                url, phase, args.clients, args.client_procs, args.batch, args.rate
            )
            latencies += rep
            requests += req
            for code, n in st.items():
                statuses[code] = statuses.get(code, 0) + n
        uploaded = time.perf_counter() - start
        client_cpu = _client_cpu() - client0
        store = Store(leader.db)
        try:
            dstore = DapStore(store)
            while dstore.report_states(task.task_id).get("pending", 0):
                time.sleep(0.2)  # a count over the reports table: not too often on 2 shared cores
            prepared = time.perf_counter() - start
            cpu1 = {role: cpu_seconds(pid, role == "postgres") for role, pid in pids.items()}
            load1 = os.getloadavg()
            states = dstore.report_states(task.task_id)
        finally:
            store.engine.dispose()
        collection = Collector(task.task_id, leader_url, VDAF, credential).collect(hour, TP)
    finally:
        for server in reversed(servers):
            server.stop()
    verified = states.get("aggregated", 0) + states.get("rejected", 0)
    if collection.result != plan["sum"] or collection.report_count != plan["valid"]:
        raise SystemExit(
            f"wrong aggregate: {collection.result} of {collection.report_count} reports, "
            f"expected {plan['sum']} of {plan['valid']}"
        )
    if verified != plan["distinct"] or states.get("rejected", 0) != plan["invalid"]:
        raise SystemExit(f"report states {states}, expected {plan['distinct']} distinct")
    if statuses.get(400, 0) != plan["refused_expected"]:
        raise SystemExit(f"upload statuses {statuses}")
    cpu = {role: cpu1[role] - cpu0[role] for role in cpu1}
    leader_cpu = cpu["leader"] + cpu.get("drive", 0.0)
    result = {
        "reports": plan["distinct"],
        "uploads": len(plan["uploads"]),
        "invalid": plan["invalid"],
        "refused_replays": plan["refused_expected"],
        "statuses": statuses,
        "clients": f"{args.clients} connections from {args.client_procs} process(es)",
        "job_size": args.job_size,
        "server_cpus": args.server_cpus or "any",
        "workers": f"leader {args.leader_workers}, helper {args.helper_workers}",
        "leader_layout": "split: serve --no-drive + drive" if args.split else "one process",
        "database": (
            f"sqlite, synchronous={args.sqlite_synchronous}"
            if args.postgres is None
            else "postgresql"
        ),
        "upload_s": uploaded,
        "uploads_per_s": len(plan["uploads"]) / uploaded,
        "verified_s": prepared,
        "verified_per_s": verified / prepared,
        "batch": args.batch or "none (one report per PUT)",
        "offered_rate": args.rate or "as fast as the connections go",
        "requests": len(requests),
        "upload_p50_ms": percentile(latencies, 0.5) * 1e3,
        "upload_p99_ms": percentile(latencies, 0.99) * 1e3,
        "request_p50_ms": percentile(requests, 0.5) * 1e3,
        "request_p99_ms": percentile(requests, 0.99) * 1e3,
        "leader_cpu_ms_per_report": leader_cpu / verified * 1e3,
        "helper_cpu_ms_per_report": cpu["helper"] / verified * 1e3,
        "client_cpu_ms_per_report": client_cpu / verified * 1e3,
        "loadavg_before": load0[0],
        "loadavg_after": load1[0],
    }
    if "postgres" in cpu:  # both aggregators' databases, one server
        result["postgres_cpu_ms_per_report"] = cpu["postgres"] / verified * 1e3
    if args.split:
        result["leader_serve_cpu_ms_per_report"] = cpu["leader"] / verified * 1e3
        result["leader_drive_cpu_ms_per_report"] = cpu["drive"] / verified * 1e3
    if args.stats:
        result["stats"] = {
            path.name.removeprefix("stats."): json.loads(path.read_text())
            for path in sorted(directory.glob("stats.*.json"))
        }
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reports", type=int, default=4000, help="distinct reports")
    ap.add_argument("--clients", type=int, default=32, help="concurrent uploads")
    ap.add_argument("--client-procs", type=int, default=1, help="uploading processes")
    ap.add_argument("--invalid", type=float, default=0.05, help="fraction with a bad proof")
    ap.add_argument("--replayed", type=float, default=0.05, help="fraction sent again")
    ap.add_argument(
        "--batch", type=int, default=0, help="reports per batch upload (0: DAP's one per PUT)"
    )
    ap.add_argument(
        "--rate", type=float, default=0.0, help="offered reports/s, open loop (0: closed loop)"
    )
    ap.add_argument("--job-size", type=int, default=1024, help="reports per aggregation job")
    ap.add_argument("--leader-workers", type=int, default=1, help="uvicorn worker processes")
    ap.add_argument("--helper-workers", type=int, default=1, help="uvicorn worker processes")
    ap.add_argument(
        "--split",
        action="store_true",
        help="the leader as `serve --no-drive` beside a `zeenot prio drive` process",
    )
    ap.add_argument(
        "--stats",
        action="store_true",
        help="the servers' timers of where an upload's time goes (ZEENOT_PRIO_STATS)",
    )
    ap.add_argument(
        "--server-cpus", help="pin both aggregators to these CPUs (taskset -c LIST, e.g. 0,1)"
    )
    ap.add_argument(
        "--postgres",
        nargs="?",
        const="",
        metavar="URL",
        help="each aggregator on its own fresh PostgreSQL database on the server at URL "
        "(none: a throw-away server), dropped afterwards",
    )
    ap.add_argument(
        "--sqlite-synchronous",
        choices=SQLITE_SYNCHRONOUS,
        default="full",
        help="the SQLite aggregators' synchronous level (normal: no flush per commit; "
        "survives kill -9, not a power loss)",
    )
    ap.add_argument("--db-dir", type=Path, help="keep the databases and logs here")
    ap.add_argument("--bare-binary", type=Path, help="a prebuilt prepare_timing (skip cargo)")
    ap.add_argument("--no-bare", action="store_true", help="skip the bare crate's figure")
    ap.add_argument("--json", type=Path, help="write the figures here too")
    args = ap.parse_args()
    if not 1 <= args.reports <= 1_000_000 or not 1 <= args.clients <= 1024:
        raise SystemExit("--reports is 1 to 1e6, --clients 1 to 1024")
    if not 0 <= args.batch <= MAX_REPORTS:
        raise SystemExit(f"--batch is 0 to {MAX_REPORTS}")
    directory = args.db_dir or Path(tempfile.mkdtemp(prefix="zeenot-prio-load-"))
    directory.mkdir(parents=True, exist_ok=True)
    try:
        result = run(args, directory)
    finally:
        if args.db_dir is None:
            shutil.rmtree(directory, ignore_errors=True)
    bare = None if args.no_bare else bare_prepare(args.bare_binary)
    system_ms = result["leader_cpu_ms_per_report"] + result["helper_cpu_ms_per_report"]
    if bare is not None:
        result["bare_dap_prepare_ms"] = bare["dap_prepare"] * 1e3
        result["overhead"] = system_ms / (bare["dap_prepare"] * 1e3) - 1
        if bare["hpke_open"]:
            # DAP's irreducible native work per report: the preparation and each aggregator's
            # HPKE opening of its input share
            native = (bare["dap_prepare"] + 2 * bare["hpke_open"]) * 1e3
            result["bare_hpke_open_ms"] = bare["hpke_open"] * 1e3
            result["overhead_vs_prepare_and_hpke"] = system_ms / native - 1
    timers = result.pop("stats", None)
    for key, value in result.items():
        print(f"{key:<26} {value:.3f}" if isinstance(value, float) else f"{key:<26} {value}")
    if timers:
        print("where the time goes (ms: count, mean, p50, p90, p99, max), per process:")
        for process, names in timers.items():
            print(f"  {process}")
            for name, t in names.items():
                figures = " ".join(f"{t[k]:8.2f}" for k in ("mean", "p50", "p90", "p99", "max"))
                print(f"    {name:<16} {int(t['count']):>7} {figures}")
        result["stats"] = timers
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
