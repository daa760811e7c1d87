"""The e-cash bank over the runtime's Store (zeenot.cashlib.bank): deposits stored before they
are acknowledged and kept across restarts, concurrent deposits of one coin (exactly one
accepted), and the HTTP routes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from tests.python import postgres
from tests.python.runtime_server import ROOT, free_port

from zeenot.babyjub import BASE8, random_scalar
from zeenot.cashlib import ecash
from zeenot.cashlib.bank import BankStore, build_app
from zeenot.cashlib.group import pack
from zeenot.cashlib.kvac import IssuerParams
from zeenot.runtime.store import Conflict, Store

LEVEL = 3


def _wallet(bank: BankStore, name: str) -> ecash.Wallet:
    u = random_scalar()
    bank.open_account(name, u * BASE8)
    req, state = ecash.withdrawal_request(bank.params, u, context=b"w")
    resp = bank.withdraw(name, u * BASE8, req.to_bytes(), context=b"w")
    return ecash.finish_withdrawal(state, resp, bank.level)


def test_deposits_are_stored_and_survive_a_restart(tmp_path):
    db = str(tmp_path / "bank.db")
    bank = BankStore(Store(db), level=LEVEL)
    wallet = _wallet(bank, "alice")
    info = ecash.merchant_info()
    spend = wallet.spend(b"shop", info).to_bytes()
    assert bank.deposit(spend, "shop", info).accepted
    again = BankStore(Store(db), level=LEVEL + 5)  # another process: the same bank, same level
    assert again.params == bank.params and again.level == LEVEL
    assert again.deposit(spend, "shop", info).reason == "replay"
    info2 = ecash.merchant_info()
    second = wallet.spend(b"cafe", info2, index=0)
    result = again.deposit(second.to_bytes(), "cafe", info2)
    assert (result.accepted, result.reason, result.double_spender) == (
        False,
        "double-spend",
        "alice",
    )
    assert not again.deposit(spend, "cafe", info).accepted  # bound to its merchant
    with pytest.raises(Conflict):
        again.open_account("alice", random_scalar() * BASE8)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        yield str(tmp_path / "bank.db")
        return
    if not postgres.available():
        pytest.skip("PostgreSQL 15 is not installed (scripts/system_deps.sh)")
    with postgres.postgres_server() as url:
        yield url


def test_concurrent_deposits_of_one_coin_exactly_one_accepted(db_url):
    db = db_url
    bank = BankStore(Store(db), level=LEVEL)
    wallet = _wallet(bank, "mallory")
    spends = []
    for k in range(6):  # the same coin at six merchants
        info = ecash.merchant_info()
        spends.append((wallet.spend(f"m{k}".encode(), info, index=1).to_bytes(), f"m{k}", info))
    banks = [BankStore(Store(db)) for _ in range(6)]  # one per "process"
    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(lambda a: a[0].deposit(*a[1]), zip(banks, spends, strict=True)))
    assert sum(r.accepted for r in results) == 1
    assert {(r.reason, r.double_spender) for r in results if not r.accepted} == {
        ("double-spend", "mallory")
    }
    info = ecash.merchant_info()
    replayed = wallet.spend(b"shop", info, index=2).to_bytes()
    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(lambda b: b.deposit(replayed, "shop", info), banks))
    assert sum(r.accepted for r in results) == 1
    assert {r.reason for r in results if not r.accepted} == {"replay"}


def test_the_http_routes(tmp_path):
    from starlette.testclient import TestClient

    bank = BankStore(Store(str(tmp_path / "bank.db")), level=LEVEL)
    u = random_scalar()
    pk = u * BASE8
    with TestClient(build_app(bank)) as client:
        got = client.get("/params").json()
        params = IssuerParams.from_bytes(bytes.fromhex(got["params"]))
        assert params == bank.params and got["level"] == LEVEL
        r = client.post("/accounts", json={"account": "bob", "public_key": pack(pk).hex()})
        assert r.status_code == 201
        req, state = ecash.withdrawal_request(params, u, context=b"c")
        body = {
            "account": "bob",
            "public_key": pack(pk).hex(),
            "request": req.to_bytes().hex(),
            "context": b"c".hex(),
        }
        r = client.post("/withdraw", json=body)
        assert r.status_code == 200
        wallet = ecash.finish_withdrawal(state, bytes.fromhex(r.json()["response"]), LEVEL)
        r = client.post("/withdraw", json={**body, "account": "eve"})
        assert r.status_code == 400
        info = ecash.merchant_info()
        spend = {
            "merchant": "shop",
            "info": info.hex(),
            "spend": wallet.spend(b"shop", info).to_bytes().hex(),
        }
        assert client.post("/deposit", json=spend).json() == {"status": "accepted"}
        r = client.post("/deposit", json=spend)
        assert (r.status_code, r.json()) == (409, {"status": "replay"})
        last = "01" if spend["spend"][-2:] == "00" else "00"  # the top byte of a scalar: often 00
        bad = {**spend, "spend": spend["spend"][:-2] + last}
        assert client.post("/deposit", json=bad).status_code == 400
        assert client.post("/deposit", content=b"[1]").status_code == 400
        assert client.post("/deposit", content=b"x" * 70_000).status_code == 400


def _start_bank(db: str, *extra: str) -> tuple[str, subprocess.Popen[bytes]]:
    """`python -m zeenot.cashlib.bank` on a free port, once it answers."""
    port = free_port()
    cmd = [sys.executable, "-m", "zeenot.cashlib.bank", "--db", db, "--port", str(port), *extra]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True)  # its own group
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/params", timeout=1).status_code == 200:
                return url, proc
        except httpx.TransportError:
            pass
        assert proc.poll() is None and time.monotonic() < deadline, "the bank did not start"
        time.sleep(0.1)


@pytest.mark.parametrize("workers", [1, 2])
def test_nothing_acknowledged_is_lost_after_kill_9(tmp_path, workers):
    """A bank killed with SIGKILL (every process of it) while deposits stream in — one by one to
    one process, or in batches of 3 (`POST /deposits`) to two: after a restart, every deposit
    it acknowledged is there (its replay is refused as a replay)."""
    db = str(tmp_path / "bank.db")
    bank = BankStore(Store(db), level=5)
    wallet = _wallet(bank, "carol")
    bodies = []
    for _ in range(24):
        info = ecash.merchant_info()
        spend = wallet.spend(b"shop", info).to_bytes().hex()
        bodies.append({"merchant": "shop", "info": info.hex(), "spend": spend})

    def start() -> tuple[str, subprocess.Popen[bytes]]:
        return _start_bank(db, "--workers", str(workers))

    url, proc = start()
    acknowledged: list[dict[str, str]] = []

    def stream() -> None:
        per = 1 if workers == 1 else 3
        for at in range(0, len(bodies), per):
            chunk = bodies[at : at + per]
            try:
                if per == 1:
                    r = httpx.post(f"{url}/deposit", json=chunk[0], timeout=30)
                    done = [r.status_code == 200]
                else:
                    r = httpx.post(f"{url}/deposits", json={"deposits": chunk}, timeout=30)
                    done = [x["status"] == "accepted" for x in r.json()["results"]]
            except (httpx.TransportError, ValueError):
                return
            acknowledged.extend(body for body, ok in zip(chunk, done, strict=True) if ok)

    worker = threading.Thread(target=stream)
    worker.start()
    while len(acknowledged) < 8 and worker.is_alive():
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)  # the server and its worker processes
    proc.wait()
    worker.join()
    assert len(acknowledged) >= 8  # usually fewer than all: the kill lands mid-stream
    url, proc = start()
    try:
        for body in acknowledged:
            r = httpx.post(f"{url}/deposit", json=body, timeout=30)
            assert (r.status_code, r.json()) == (409, {"status": "replay"})
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)


def test_a_batch_of_deposits_answers_each_as_one_by_one(tmp_path):
    """`deposit_many`: spends verified in batches, answers identical to `deposit` one at a time
    (valid, tampered, replayed and double-spent in the same batch, an endorsement missing),
    and every accepted serial stored."""
    from zeenot.cashlib import endorsed

    db = str(tmp_path / "bank.db")
    bank = BankStore(Store(db), level=LEVEL)
    wallet = _wallet(bank, "dave")
    items = []
    for _ in range(5):
        info = ecash.merchant_info()
        items.append((wallet.spend(b"shop", info).to_bytes(), "shop", info, None))
    tampered = bytearray(items[1][0])
    tampered[-5] ^= 1
    info = ecash.merchant_info()
    double = (wallet.spend(b"cafe", info, index=0).to_bytes(), "cafe", info, None)
    coin, x = endorsed.spend_unendorsed(wallet, b"shop", info)
    batch = [
        *items,
        (bytes(tampered), "shop", items[1][2], None),
        items[2],  # a replay of a spend in the same batch
        double,  # coin 0 again, elsewhere: a double spend
        (coin.spend.to_bytes(), "shop", info, None),  # an unendorsed coin without its x
        (coin.spend.to_bytes(), "shop", info, x + 1),  # with another x
        (coin.spend.to_bytes(), "shop", info, x),
        (b"\x00" * 40, "shop", info, None),
    ]
    got = bank.deposit_many(batch)
    want = [(True, "")] * 5 + [
        (False, "invalid"),
        (False, "replay"),
        (False, "double-spend"),
        (False, "invalid"),
        (False, "invalid"),
        (True, ""),
        (False, "invalid"),
    ]
    assert [(r.accepted, r.reason) for r in got] == want
    assert got[7].double_spender == "dave"
    # the one-by-one path on a fresh bank over the same key gives the same answers
    other = BankStore(Store(str(tmp_path / "other.db")), level=LEVEL)
    other._key, other.params = bank._key, bank.params
    one_by_one = [other.deposit(s, m, i, endorsement=e) for s, m, i, e in batch]
    assert [(r.accepted, r.reason) for r in one_by_one] == want
    # stored before answered: another process sees every accepted serial as a replay
    again = BankStore(Store(db))
    for (s, m, i, e), r in zip(batch, got, strict=True):
        if r.accepted:
            assert again.deposit(s, m, i, endorsement=e).reason == "replay"


def test_verify_spends_in_a_batch_matches_one_by_one():
    bank = ecash.Bank(level=LEVEL)
    u = random_scalar()
    bank.open_account("erin", u * BASE8)
    req, state = ecash.withdrawal_request(bank.params, u)
    wallet = ecash.finish_withdrawal(state, bank.withdraw("erin", u * BASE8, req), LEVEL)
    items = []
    for k in range(6):
        info = ecash.merchant_info()
        raw = bytearray(wallet.spend(b"m", info).to_bytes())
        if k in (1, 4):  # a flipped bit in the sigma proof's last scalar, or the Bulletproof's
            raw[-3 if k == 1 else 200] ^= 4
        items.append((bytes(raw), b"m", info, None))
    batch = ecash.verify_spends(bank._key, items, LEVEL)
    single = [ecash.verify_spend(bank._key, s, m, i, LEVEL) for s, m, i, _ in items]
    assert [b is not None for b in batch] == [s is not None for s in single]
    assert [b is not None for b in batch] == [True, False, True, True, False, True]
    assert ecash.verify_spends(bank._key, [], LEVEL) == []


def test_concurrent_http_deposits_are_batched_and_one_coin_is_accepted_once(tmp_path):
    """Deposits posted at once to a bank process (its `DepositBatcher` verifies what arrives
    together in one batch): every distinct coin accepted, of six deposits of one coin exactly
    one, the others named double spends, and each acknowledged deposit stored."""
    db = str(tmp_path / "bank.db")
    bank = BankStore(Store(db), level=5)
    wallet = _wallet(bank, "frank")
    bodies = []
    for _ in range(18):
        info = ecash.merchant_info()
        spend = wallet.spend(b"shop", info).to_bytes().hex()
        bodies.append({"merchant": "shop", "info": info.hex(), "spend": spend})
    reused = wallet.next_index
    for k in range(6):
        info = ecash.merchant_info()
        spend = wallet.spend(f"m{k}".encode(), info, index=reused).to_bytes().hex()
        bodies.append({"merchant": f"m{k}", "info": info.hex(), "spend": spend})
    port = free_port()
    cmd = [sys.executable, "-m", "zeenot.cashlib.bank", "--db", db, "--port", str(port)]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/params", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        barrier = threading.Barrier(len(bodies))

        def post(body: dict[str, str]) -> tuple[int, dict[str, str]]:
            barrier.wait()
            r = httpx.post(f"{url}/deposit", json=body, timeout=60)
            return r.status_code, r.json()

        with ThreadPoolExecutor(len(bodies)) as pool:
            answers = list(pool.map(post, bodies))
        stats = httpx.get(f"{url}/stats", timeout=10).json()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    # the deposits went through in batches (24 requests at once: fewer batches than requests)
    assert stats["deposits"] == len(bodies) and stats["batches"] < len(bodies)
    assert stats["largest_batch"] > 1
    assert all(a == (200, {"status": "accepted"}) for a in answers[:18])
    last = answers[18:]
    assert sum(a == (200, {"status": "accepted"}) for a in last) == 1
    assert (
        sorted(a for a in last if a[0] != 200)
        == [(409, {"status": "double-spend", "account": "frank"})] * 5
    )
    again = BankStore(Store(db))
    for body, (status, _) in zip(bodies, answers, strict=True):
        if status == 200:
            raw = bytes.fromhex(body["spend"])
            assert again.deposit(raw, body["merchant"], bytes.fromhex(body["info"])).reason == (
                "replay"
            )


def test_batch_deposits_over_http_to_two_worker_processes(tmp_path):
    """`POST /deposits` to a bank of two processes over one database (`--workers 2`): each
    deposit answered as one by one would be (valid, replayed in the batch, double-spent,
    malformed on its own), a second sending all replays; one coin deposited through both
    processes at once, exactly one accepted; bodies that are not a list of 1 to 256 deposits
    refused whole."""
    from zeenot.cashlib.bank import MAX_DEPOSITS
    from zeenot.cashlib.clients import BankClient

    db = str(tmp_path / "bank.db")
    url, proc = _start_bank(db, "--workers", "2", "--level", str(LEVEL))
    try:
        client = BankClient(url)
        u = random_scalar()
        client.open_account("frank", u * BASE8)
        wallet = client.withdraw_wallet("frank", u)
        items = []
        for _ in range(4):
            info = ecash.merchant_info()
            items.append((wallet.spend(b"shop", info), "shop", info, None))
        info = ecash.merchant_info()
        double = (wallet.spend(b"cafe", info, index=0), "cafe", info, None)
        got = client.deposit_many([*items, items[1], double])
        assert [(r.accepted, r.reason) for r in got] == [(True, "")] * 4 + [
            (False, "replay"),
            (False, "double-spend"),
        ]
        assert got[5].double_spender == "frank"
        again = client.deposit_many(items)
        assert {r.reason for r in again} == {"replay"}
        spend = items[0][0].to_bytes().hex()
        body = {
            "deposits": [
                {"merchant": "shop", "info": items[0][2].hex()},  # no spend
                [1],
                {"merchant": "shop", "info": items[0][2].hex(), "spend": spend},
            ]
        }
        r = httpx.post(f"{url}/deposits", json=body, timeout=30)
        assert r.status_code == 200
        statuses = [x["status"] for x in r.json()["results"]]
        assert statuses == ["invalid", "invalid", "replay"]
        info = ecash.merchant_info()
        coin = [(wallet.spend(f"m{k}".encode(), info, index=6), f"m{k}", info) for k in range(6)]
        clients = [BankClient(url) for _ in coin]  # six connections, spread over the processes
        with ThreadPoolExecutor(6) as pool:
            results = list(pool.map(lambda a: a[0].deposit(*a[1]), zip(clients, coin, strict=True)))
        assert sum(r.accepted for r in results) == 1
        assert {r.reason for r in results if not r.accepted} == {"double-spend"}
        one = body["deposits"][2]
        for bad in (
            {"deposits": []},
            {"deposits": [one] * (MAX_DEPOSITS + 1)},
            {"deposits": one},
            {"other": [one]},
        ):
            assert httpx.post(f"{url}/deposits", json=bad, timeout=30).status_code == 400
        r = httpx.post(f"{url}/deposits", content=b"x" * (1 << 20 + 1), timeout=30)
        assert r.status_code == 400
        assert httpx.post(f"{url}/deposits", content=b"{", timeout=30).status_code == 400
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
