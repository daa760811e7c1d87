"""The bank's deposit path, one by one against in batches (`zeenot.cashlib.bank`).

    python benchmarks/cashlib_deposits.py [--spends 256] [--batch 1 16 64] [--procs N]
        [--http WORKERS [--http-batch 64] [--http-clients 4]] [--json OUT]

Makes `spends` spends of one wallet (`2^10` coins), then deposits them into a fresh `BankStore`
over SQLite in a temporary directory: one `deposit` at a time (`--batch 1`), and through
`deposit_many` in batches of each size given, `--runs` times (a fresh store each run; the
least of the runs is reported). For each: CPU milliseconds per deposit
(`time.process_time`, this process's CPU: the honest proxy for throughput on a shared machine),
wall milliseconds per deposit, and the deposits per second that the CPU figure implies for one
and for two cores. Then the verification alone (no database): `verify_spend` one by one against
`verify_spends` in batches. With `--procs N`: N bank processes over one SQLite database
(the same bank: its key is the database's), each depositing its share of `--procs-spends`
spends in batches of 64 from one moment on; the deposits per second by the wall clock, and a
few spends given to every process (concurrent double deposits: each must be accepted exactly
once). With `--http W`: the bank as a server (`python -m zeenot.cashlib.bank --workers W` over
a fresh SQLite file), `--procs-spends` spends of wallets withdrawn over HTTP, deposited by
`--http-clients` client threads in `POST /deposits` requests of `--http-batch` each (a few
spends sent by every client: each accepted exactly once); the deposits per second by the wall
clock, and the server's CPU milliseconds per deposit (all its processes, from /proc) beside
the clients'. The machine's load is printed: timings on a shared machine, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from zeenot.babyjub import BASE8, random_scalar
from zeenot.cashlib import ecash
from zeenot.cashlib.bank import BankStore
from zeenot.runtime.store import Store

LEVEL = 10
PROCS_BATCH = 64


def _deposit_share(db: str, share: list[tuple[bytes, str, bytes, None]], start: Any) -> list[bool]:
    """One bank process: its own engine over the shared database, then its share in batches."""
    bank = BankStore(Store(db), level=LEVEL)
    start.wait()
    accepted: list[bool] = []
    for at in range(0, len(share), PROCS_BATCH):
        accepted += [r.accepted for r in bank.deposit_many(share[at : at + PROCS_BATCH])]
    return accepted


def _check_accepted(results: list[list[bool]], doubles: int) -> int:
    """Every depositor's verdicts: its own spends all accepted, and each of the `doubles`
    spends that ended every share accepted by exactly one of them. The deposits in all."""
    assert all(sum(r[:-doubles]) == len(r) - doubles for r in results)
    accepted = [sum(r[-doubles + k] for r in results) for k in range(doubles)]
    assert accepted == [1] * doubles, accepted
    return sum(len(r) for r in results)


def processes(procs: int, n: int, tmp: str) -> dict[str, Any]:
    """`n` spends (plus a few given to every process) deposited by `procs` processes at once."""
    db = str(Path(tmp) / "shared.db")
    bank = BankStore(Store(db), level=LEVEL)
    made = []
    for k in range(-(-n // 2**LEVEL)):  # a wallet holds 2^LEVEL coins
        u = random_scalar()
        bank.open_account(f"carol{k}", u * BASE8)
        req, state = ecash.withdrawal_request(bank.params, u)
        answer = bank.withdraw(f"carol{k}", u * BASE8, req.to_bytes())
        wallet = ecash.finish_withdrawal(state, answer, LEVEL)
        for _ in range(min(2**LEVEL, n - len(made))):
            info = ecash.merchant_info()
            made.append((wallet.spend(b"shop", info).to_bytes(), "shop", info, None))
    doubles, unique = made[:4], made[4:]
    shares = [unique[k::procs] + doubles for k in range(procs)]
    ctx = get_context("spawn")
    with ctx.Manager() as manager:
        start = manager.Event()
        with ctx.Pool(procs) as pool:
            jobs = [pool.apply_async(_deposit_share, (db, share, start)) for share in shares]
            time.sleep(3)  # every process has opened its engine and waits
            wall = time.perf_counter()
            start.set()
            results = [j.get() for j in jobs]
            wall = time.perf_counter() - wall
    total = _check_accepted(results, len(doubles))
    return {
        "procs": procs,
        "deposits": total,
        "wall_s": wall,
        "deposits_per_s": total / wall,
        "double_deposits_each_accepted_once": True,
    }


def over_http(workers: int, n: int, batch: int, clients: int, tmp: str) -> dict[str, Any]:
    """`n` spends deposited over HTTP into a bank of `workers` processes (see the docstring)."""
    import httpx
    from prio_load import cpu_seconds, free_port  # benchmarks/prio_load.py: /proc, a free port

    from zeenot.cashlib.clients import BankClient

    port, db = free_port(), str(Path(tmp) / "http.db")
    cmd = [sys.executable, "-m", "zeenot.cashlib.bank", "--db", db, "--port", str(port)]
    server = subprocess.Popen([*cmd, "--workers", str(workers), "--level", str(LEVEL)])
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if httpx.get(f"{url}/params", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        bank = BankClient(url)
        made = []
        for k in range(-(-n // 2**LEVEL)):  # a wallet holds 2^LEVEL coins
            u = random_scalar()
            bank.open_account(f"http{k}", u * BASE8)
            wallet = bank.withdraw_wallet(f"http{k}", u)
            for _ in range(min(2**LEVEL, n - len(made))):
                info = ecash.merchant_info()
                made.append((wallet.spend(b"shop", info).to_bytes(), "shop", info, None))
        doubles, unique = made[:4], made[4:]
        shares = [unique[k::clients] + doubles for k in range(clients)]
        conns = [BankClient(url) for _ in range(clients)]

        def deposit_share(k: int) -> list[bool]:
            share, out = shares[k], []
            for at in range(0, len(share), batch):
                out += [r.accepted for r in conns[k].deposit_many(share[at : at + batch])]
            return out

        cpu_server, cpu_client = cpu_seconds(server.pid), time.process_time()
        wall = time.perf_counter()
        with ThreadPoolExecutor(clients) as pool:
            results = list(pool.map(deposit_share, range(clients)))
        wall = time.perf_counter() - wall
        cpu_server = cpu_seconds(server.pid) - cpu_server
        cpu_client = time.process_time() - cpu_client
    finally:
        server.terminate()
        server.wait(timeout=30)
    total = _check_accepted(results, len(doubles))
    return {
        "workers": workers,
        "batch": batch,
        "clients": clients,
        "deposits": total,
        "wall_s": wall,
        "deposits_per_s": total / wall,
        "server_cpu_ms_per_deposit": 1000 * cpu_server / total,
        "client_cpu_ms_per_deposit": 1000 * cpu_client / total,
        "double_deposits_each_accepted_once": True,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spends", type=int, default=256)
    ap.add_argument("--batch", type=int, nargs="+", default=[1, 16, 64])
    ap.add_argument("--runs", type=int, default=3, help="runs per figure; the least is kept")
    ap.add_argument("--procs", type=int, default=0, help="bank processes over one database")
    ap.add_argument("--procs-spends", type=int, default=1024)
    ap.add_argument("--http", type=int, default=0, help="bank server processes (--workers)")
    ap.add_argument("--http-batch", type=int, default=64, help="deposits per POST /deposits")
    ap.add_argument("--http-clients", type=int, default=4, help="client threads")
    ap.add_argument("--json", help="write the results here too")
    args = ap.parse_args()
    load_before = os.getloadavg()
    key_bank = ecash.Bank(level=LEVEL)
    u = random_scalar()
    key_bank.open_account("alice", u * BASE8)
    req, state = ecash.withdrawal_request(key_bank.params, u)
    wallet = ecash.finish_withdrawal(state, key_bank.withdraw("alice", u * BASE8, req), LEVEL)
    spends = []
    for _ in range(args.spends):
        info = ecash.merchant_info()
        spends.append((wallet.spend(b"shop", info).to_bytes(), "shop", info, None))
    out: dict[str, Any] = {"spends": args.spends, "level": LEVEL, "load_before": load_before}
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.batch:
            cpu_ms = wall_ms = float("inf")
            for run in range(args.runs):
                db = str(Path(tmp) / f"bank{size}-{run}.db")
                bank = BankStore(Store(db), level=LEVEL)
                bank._key, bank.params = key_bank._key, key_bank.params  # the wallet's issuer
                cpu, wall = time.process_time(), time.perf_counter()
                for at in range(0, len(spends), size):
                    chunk = spends[at : at + size]
                    if size == 1:
                        s, m, i, e = chunk[0]
                        results = [bank.deposit(s, m, i, endorsement=e)]
                    else:
                        results = bank.deposit_many(chunk)
                    assert all(r.accepted for r in results)
                cpu_ms = min(cpu_ms, 1000 * (time.process_time() - cpu) / len(spends))
                wall_ms = min(wall_ms, 1000 * (time.perf_counter() - wall) / len(spends))
            out[f"store_batch_{size}"] = {
                "cpu_ms_per_deposit": cpu_ms,
                "wall_ms_per_deposit": wall_ms,
                "per_s_one_core_by_cpu": 1000 / cpu_ms,
                "per_s_two_cores_by_cpu": 2000 / cpu_ms,
            }
    items = [(s, m.encode(), i, None) for s, m, i, _ in spends]
    for size in args.batch:
        best = float("inf")
        for _ in range(args.runs):
            cpu = time.process_time()
            for at in range(0, len(items), size):
                chunk = items[at : at + size]
                if size == 1:
                    s, m, i, _ = chunk[0]
                    assert ecash.verify_spend(key_bank._key, s, m, i, LEVEL) is not None
                else:
                    assert all(ecash.verify_spends(key_bank._key, chunk, LEVEL))
            best = min(best, 1000 * (time.process_time() - cpu) / len(items))
        out[f"verify_batch_{size}_cpu_ms"] = best
    if args.procs:
        with tempfile.TemporaryDirectory() as tmp:
            out["processes"] = processes(args.procs, args.procs_spends, tmp)
    if args.http:
        with tempfile.TemporaryDirectory() as tmp:
            out["http"] = over_http(
                args.http, args.procs_spends, args.http_batch, args.http_clients, tmp
            )
    out["load_after"] = os.getloadavg()
    print(json.dumps(out, indent=1))
    for size in args.batch:
        r = out[f"store_batch_{size}"]
        print(
            f"batch {size:3}: {r['cpu_ms_per_deposit']:6.2f} CPU ms/deposit "
            f"({r['wall_ms_per_deposit']:6.2f} wall), {r['per_s_two_cores_by_cpu']:6.0f}/s "
            f"on two cores by CPU; verification alone {out[f'verify_batch_{size}_cpu_ms']:.2f} ms"
        )
    if args.procs:
        r = out["processes"]
        print(
            f"{r['procs']} bank processes over one database: {r['deposits']} deposits in "
            f"{r['wall_s']:.2f} s, {r['deposits_per_s']:.0f}/s by the wall clock"
        )
    if args.http:
        r = out["http"]
        print(
            f"over HTTP, {r['workers']} bank processes, {r['clients']} clients posting "
            f"{r['batch']} at a time: {r['deposits']} deposits in {r['wall_s']:.2f} s, "
            f"{r['deposits_per_s']:.0f}/s by the wall clock; server "
            f"{r['server_cpu_ms_per_deposit']:.2f} CPU ms a deposit, clients "
            f"{r['client_cpu_ms_per_deposit']:.2f}"
        )
    print(f"load average before/after: {load_before[0]:.2f} / {out['load_after'][0]:.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
