"""The market over real HTTP: the bank, the arbiter and three sellers (honest, one that sends a
wrong file, one that stops before the key) as processes, the buyer a client in the test. Honest
buy and barter end to end without the arbiter; each cheating or stopping party resolved as the
protocols say, with nothing lost at the bank (an unpaid coin stays unspent and spends again; a
paid one is deposited once; a double spender is named)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest
from tests.python.runtime_server import ROOT, free_port, stop, wait_healthy

from zeenot.cashlib import keyproof
from zeenot.cashlib.exchange import FOR_BUYER, ExchangeError, exchange_id
from zeenot.cashlib.market import MarketBuyer

F1 = b"file one: " + bytes(range(256)) * 8
F2 = b"file two: " + bytes(range(255, -1, -1)) * 4
MINE = b"the buyer's own file, offered in barter"
SHA = {k: hashlib.sha256(v).digest() for k, v in (("f1", F1), ("f2", F2), ("mine", MINE))}
PATIENCE = "4"  # seconds a seller waits before the arbiter: ample for an honest client


def _start(cmd: list[str], health: str, name: str, log) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python"), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    wait_healthy(proc, health, name, lambda: open(log.name).read(), timeout=90)
    return proc


@pytest.fixture(scope="module")
def market(tmp_path_factory) -> Iterator[dict[str, str]]:
    d = tmp_path_factory.mktemp("market")
    (d / "f1").write_bytes(F1)
    (d / "f2").write_bytes(F2)
    py = [sys.executable, "-m"]
    procs: list[subprocess.Popen[bytes]] = []
    urls: dict[str, str] = {}
    log = open(d / "log.txt", "wb")  # noqa: SIM115 (closed below)
    try:

        def server(name: str, cmd: list[str], health: str = "/key") -> None:
            port = free_port()
            url = f"http://127.0.0.1:{port}"
            procs.append(_start([*cmd, "--port", str(port)], url + health, name, log))
            urls[name] = url

        server(
            "bank",
            [*py, "zeenot.cashlib.bank", "--db", str(d / "bank.db"), "--level", "3"],
            "/params",
        )
        server(
            "arbiter",
            [
                *py,
                "zeenot.cashlib.arbiter_server",
                "--db",
                str(d / "arb.db"),
                "--secret",
                str(d / "arbiter.key"),
            ],
        )
        seller = [*py, "zeenot.cashlib.seller_server", "--bank", urls["bank"], "--arbiter",
                  urls["arbiter"], "--file", str(d / "f1"), "--file", str(d / "f2"),
                  "--patience", PATIENCE, "--deadline", "60"]  # fmt: skip
        server("honest", [*seller, "--merchant", "shop", "--want", SHA["mine"].hex()], "/catalog")
        server("wrong", [*seller, "--merchant", "crook", "--cheat", "wrong-file"], "/catalog")
        server("stops", [*seller[:-1], "8", "--merchant", "sleepy", "--cheat", "stop"], "/catalog")
        server("dear", [*seller, "--merchant", "dear", "--price", "3"], "/catalog")
        yield urls
    finally:
        for p in procs:
            stop(p)
        log.close()


_names = iter(range(10**6))


@pytest.fixture
def buyer(market) -> MarketBuyer:
    return MarketBuyer(market["bank"], market["arbiter"], f"b{os.getpid()}-{next(_names)}")


def _session(url: str, sid: str) -> dict[str, str]:
    return httpx.get(f"{url}/session/{sid}", timeout=30).json()


def _wait_state(url: str, sid: str, want: str, timeout: float = 90) -> dict[str, str]:
    end = time.monotonic() + timeout
    while True:
        got = _session(url, sid)
        if got["state"] == want or time.monotonic() > end:
            assert got["state"] == want, got
            return got
        time.sleep(0.2)


def _unspent(buyer: MarketBuyer, p, merchant: str) -> bool:
    """Whether the coin `p` offered is still unspent at the bank (not deposited)."""
    coin = p.party.offer.coin
    info = p.party.offer.contract.info
    return buyer.bank.check_unendorsed(coin.spend, merchant, info, coin.endorsement_key)


def test_honest_buy_end_to_end(market, buyer):
    p = buyer.buy(market["honest"], SHA["f1"])
    assert (p.state, p.deposit, p.file) == ("done", "accepted", F1)
    assert _session(market["honest"], p.session)["state"] == "paid"
    assert buyer.arbiter.decision(p.party.offer) is None  # the arbiter never saw it
    # the coin is spent: offered again, the bank refuses it and the seller sends no key
    again = buyer.buy(market["honest"], SHA["f2"], index=p.coin_index)
    assert again.state == "no-key" and again.file is None


def test_honest_barter_end_to_end(market, buyer):
    p = buyer.barter(market["honest"], MINE, SHA["f2"], window=30)
    assert (p.state, p.file) == ("done", F2)
    assert _session(market["honest"], p.session)["state"] == "swapped"
    assert buyer.arbiter.dispute_state(p.party.offer) is None
    assert _unspent(buyer, p, "shop")  # the warranty was never deposited


def test_seller_sends_a_wrong_file(market, buyer):
    p = buyer.buy(market["wrong"], SHA["f1"])
    assert p.state == "refused" and p.file is None  # x never left the buyer
    _wait_state(market["wrong"], p.session, "resolve-refused")  # the arbiter refused it
    assert buyer.arbiter.decision(p.party.offer) is None
    assert _unspent(buyer, p, "crook")
    # nothing lost: the same coin buys the file from an honest seller
    again = buyer.buy(market["honest"], SHA["f1"], index=p.coin_index)
    assert (again.state, again.deposit) == ("done", "accepted")


def test_buyer_withholds_the_endorsement(market, buyer):
    p = buyer.buy(market["honest"], SHA["f1"], withhold=True)
    assert p.state == "withheld" and p.file == F1
    _wait_state(market["honest"], p.session, "resolved-paid")  # the arbiter paid the seller
    assert buyer.arbiter.decision(p.party.offer) == "endorsed"
    assert not _unspent(buyer, p, "shop")
    assert p.party.key_from_arbiter(buyer.arbiter) == F1  # the buyer's authenticated fetch
    eid = exchange_id(p.party.offer).encode()
    stranger = keyproof.prove_key(12345, FOR_BUYER, eid, buyer.arbiter.public_key)
    with pytest.raises(ExchangeError, match="403"):
        buyer.arbiter.key_for(p.party.offer, stranger)


def test_buyer_double_spends_and_is_named(market, buyer):
    honest = market["honest"]
    starts = [
        httpx.post(f"{honest}/buy/start", json={"file": SHA["f1"].hex()}, timeout=30).json()
        for _ in range(2)
    ]
    from zeenot.cashlib.exchange import BuyerExchange

    keys, parties = [], []
    for doc in starts:  # the same coin offered in two sessions before either is paid
        party = BuyerExchange(buyer.wallet, SHA["f1"], buyer.arbiter.public_key,
                              deadline=doc["deadline"])  # fmt: skip
        offer = party.pay(b"shop", bytes.fromhex(doc["info"]), bytes.fromhex(doc["ciphertext"]),
                          index=0)  # fmt: skip
        body = {"session": doc["session"], "offer": offer.to_bytes().hex()}
        keys.append(httpx.post(f"{honest}/buy/offer", json=body, timeout=30).json()["key"])
        parties.append(party)
    for doc, party, key in zip(starts, parties, keys, strict=True):
        x = party.receive_key(bytes.fromhex(key))
        body = {"session": doc["session"], "endorsement": x.to_bytes(32, "little").hex()}
        httpx.post(f"{honest}/buy/endorse", json=body, timeout=30)
    # each session ends paid or a double spend, by the buyer's endorsement or, should the
    # seller's patience run out first on a loaded machine, by the arbiter's: either way one
    # deposit is accepted and the other names the buyer
    ends = []
    for doc in starts:
        end = time.monotonic() + 90
        while (got := _session(honest, doc["session"]))["state"] in ("key-sent", "resolving"):
            assert time.monotonic() < end, got
            time.sleep(0.2)
        ends.append(got)
    paid = [e for e in ends if e["state"] in ("paid", "resolved-paid")]
    double = [e for e in ends if e["state"] in ("refused-double-spend", "resolved-double-spend")]
    assert len(paid) == 1 and len(double) == 1, ends
    assert double[0]["detail"] == buyer.account


def test_seller_stops_before_the_key(market, buyer):
    p = buyer.buy(market["stops"], SHA["f1"])
    assert p.state == "no-key" and p.file is None
    assert _unspent(buyer, p, "sleepy")
    assert _session(market["stops"], p.session)["state"] == "stopped"
    # the buyer waits out the deadline (after it the arbiter resolves nothing), then re-spends
    time.sleep(max(0.0, p.party.deadline - time.time() + 1))
    again = buyer.buy(market["honest"], SHA["f1"], index=p.coin_index)
    assert (again.state, again.deposit) == ("done", "accepted")


def test_barter_alice_withholds_and_is_away_bob_is_paid(market, buyer):
    p = buyer.barter(market["honest"], MINE, SHA["f2"], window=2, withhold=True)
    assert p.state == "withheld" and p.file == F2
    _wait_state(market["honest"], p.session, "resolved-paid")
    assert buyer.arbiter.dispute_state(p.party.offer) == "endorsed"
    assert not _unspent(buyer, p, "shop")  # the warranty paid Bob, once
    assert p.party.key_from_arbiter(buyer.arbiter) == F2


def test_barter_alice_withholds_then_answers_the_arbiter(market, buyer):
    p = buyer.barter(market["honest"], MINE, SHA["f2"], window=30, withhold=True)
    assert buyer.watch(p, until=time.time() + 60) == "swapped"
    _wait_state(market["honest"], p.session, "resolved-swapped")
    assert _unspent(buyer, p, "shop")


def test_barter_bob_sends_a_wrong_file(market, buyer):
    p = buyer.barter(market["wrong"], MINE, SHA["f2"], window=30)
    assert p.state == "refused" and p.file is None
    _wait_state(market["wrong"], p.session, "complaint-refused")
    assert buyer.arbiter.dispute_state(p.party.offer) is None
    assert _unspent(buyer, p, "crook")


def test_the_market_example_runs_end_to_end(tmp_path):
    """`examples/market/run.py`: one command, four kinds of process, every case as it says."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "market" / "run.py"), "--dir", str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    for line in (
        "1. alice buys the song from the shop: done, bank: accepted",
        "2. alice barters her poem for the map: done, got the map: True",
        "3. alice buys the song from the crook: refused",
        "the crook goes to the arbiter: resolve-refused",
        "the same coin, spent at the shop: done, bank: accepted",
        "the shop goes to the arbiter: resolved-paid",
        "bob answers the arbiter: swapped",
        "the shop settles: resolved-swapped",
        "6. carol buys the song from the gallery for 3 coins (0, 1, 2): done, bank: accepted",
    ):
        assert line in out.stdout, out.stdout


def test_the_arbiter_server_refuses_malformed_and_oversized_requests(tmp_path):
    from starlette.testclient import TestClient

    from zeenot.babyjub import keygen
    from zeenot.cashlib.arbiter_server import build_app, load_secret
    from zeenot.cashlib.barter import BarterArbiter
    from zeenot.cashlib.exchange import Arbiter
    from zeenot.runtime.store import Store

    secret = tmp_path / "arbiter.key"
    sk = load_secret(secret)
    assert load_secret(secret) == sk and (secret.stat().st_mode & 0o777) == 0o600
    store = Store(str(tmp_path / "arb.db"))
    with TestClient(build_app(Arbiter(store, sk), BarterArbiter(store, sk))) as client:
        assert client.get("/key").status_code == 200
        for path in ("/buy/resolve", "/buy/key", "/barter/complain", "/barter/outcome"):
            assert client.post(path, content=b"[1]").status_code == 400
            assert client.post(path, json={"offer": "zz"}).status_code == 400
            assert client.post(path, json={"offer": "00" * 64}).status_code == 409  # malformed
            assert client.post(path, content=b"x" * (9 << 20)).status_code == 400
    with pytest.raises(ValueError):
        build_app(Arbiter(store, sk), BarterArbiter(store, keygen()[0]))


def test_the_buyer_cli_buys_and_barters(market, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    give = tmp_path / "mine"
    give.write_bytes(MINE)
    base = [sys.executable, "-m", "zeenot.cashlib.market"]
    urls = ["--bank", market["bank"], "--arbiter", market["arbiter"], "--seller"]
    for mode, want, extra in (("buy", "f1", []), ("barter", "f2", ["--give", str(give)])):
        out = tmp_path / f"{mode}.out"
        cmd = [*base, mode, *urls, market["honest"], "--file", SHA[want].hex(), "--out", str(out)]
        run = subprocess.run(
            [*cmd, *extra], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
        )
        assert run.returncode == 0, run.stdout + run.stderr
        assert out.read_bytes() == {"f1": F1, "f2": F2}[want]
    run = subprocess.run(
        [*base, "buy", *urls, market["wrong"], "--file", SHA["f1"].hex(), "--out",
         str(tmp_path / "no")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 1 and "buy: refused" in run.stdout
    assert not (tmp_path / "no").exists()


def test_barter_bob_stops_before_his_key(market, buyer):
    p = buyer.barter(market["stops"], MINE, SHA["f2"], window=2, deadline_s=12)
    assert p.state == "no-key" and p.file is None  # k_A never left Alice
    assert _session(market["stops"], p.session)["state"] == "stopped"
    assert buyer.arbiter.dispute_state(p.party.offer) is None
    assert _unspent(buyer, p, "sleepy")  # the warranty is Alice's again after the deadline


def test_a_price_of_three_coins_end_to_end(market, buyer):
    """A seller asking 3 coins a file: a buyer whose limit is lower pays nothing; one that
    accepts pays three coins bound to one endorsement (all deposited); withheld, the arbiter's
    one decryption pays the seller all three."""
    assert httpx.get(f"{market['dear']}/catalog", timeout=30).json()["price"] == 3
    with pytest.raises(ExchangeError, match="asks 3 coins"):
        buyer.buy(market["dear"], SHA["f1"])  # the buyer's limit: one coin
    assert buyer.wallet.next_index == 0  # nothing spent
    p = buyer.buy(market["dear"], SHA["f1"], max_price=3)
    assert (p.state, p.deposit, p.file, p.coin_index) == ("done", "accepted", F1, (0, 1, 2))
    w = buyer.buy(market["dear"], SHA["f2"], max_price=3, withhold=True)
    assert w.state == "withheld" and w.file == F2
    _wait_state(market["dear"], w.session, "resolved-paid")
    for purchase in (p, w):
        offer = purchase.party.offer
        for coin in offer.coins:  # each deposited: no longer an unspent coin
            args = (coin.spend, "dear", offer.contract.info, coin.endorsement_key)
            assert not buyer.bank.check_unendorsed(*args)
